#pragma once
// A small SVG chart for sweeps: log-log (or linear) axes, lines, dashed lines and markers.
// Labs draw their sweep with it (--plot FILE.svg) so a learner can look instead of read.
#include <string>
#include <utility>
#include <vector>

namespace tutor {

/// One series of (x, y) points, drawn in order.
struct PlotSeries {
  enum class Style { line, dashed, markers };
  std::string label;                          ///< legend text
  std::vector<std::pair<double, double>> xy;  ///< points; non-positive values are skipped on log axes
  Style style = Style::line;
  std::string color = "#1f77b4";              ///< any SVG colour
};

/// A chart: axes, series and optional vertical markers (e.g. ridge points).
struct PlotSpec {
  std::string title, x_label, y_label;
  bool log_x = true, log_y = true;
  double x_tick_base = 10;  ///< tick spacing on a log x axis: 2 or 10
  std::vector<PlotSeries> series;
  std::vector<std::pair<double, std::string>> x_markers;  ///< vertical dotted lines with a label
};

/// Renders `spec` as a standalone SVG document (800 x 500 px). Axis ranges cover every
/// drawable point with a margin. Throws std::invalid_argument if no series has a point.
std::string render_svg(const PlotSpec& spec);

}  // namespace tutor
