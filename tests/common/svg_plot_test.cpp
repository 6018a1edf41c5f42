// The SVG chart: a valid document with every series and marker, and bad input rejected.
#include <gtest/gtest.h>

#include "tutor/svg_plot.hpp"

using tutor::PlotSeries;
using tutor::PlotSpec;

TEST(SvgPlot, DrawsEverySeriesWithItsLabelAndTheMarkers) {
  PlotSpec spec{"roofline <test>", "intensity", "TFLOP/s", true, true, 2,
                {{"measured", {{0.125, 0.5}, {1, 4}, {64, 60}}, PlotSeries::Style::markers, "#f00"},
                 {"fit", {{0.125, 0.5}, {15, 60}, {64, 60}}, PlotSeries::Style::line, "#00f"}},
                {{15, "ridge 15"}}};
  const std::string svg = tutor::render_svg(spec);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("roofline &lt;test&gt;"), std::string::npos);  // escaped title
  EXPECT_NE(svg.find(">measured<"), std::string::npos);
  EXPECT_NE(svg.find(">fit<"), std::string::npos);
  EXPECT_NE(svg.find("ridge 15"), std::string::npos);
  EXPECT_NE(svg.find(">1/8<"), std::string::npos);  // a power-of-two tick below 1
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(SvgPlot, SkipsNonPositivePointsOnLogAxesAndRejectsAnEmptyPlot) {
  PlotSpec spec{"t", "x", "y", true, true, 10, {{"s", {{0, 1}, {-1, 2}}, PlotSeries::Style::line, "#000"}}, {}};
  EXPECT_THROW(tutor::render_svg(spec), std::invalid_argument);
  spec.series[0].xy.push_back({10, 10});
  spec.series[0].xy.push_back({100, 20});
  EXPECT_NO_THROW(tutor::render_svg(spec));
}
