#include "tutor/svg_plot.hpp"

#include "tutor/markup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tutor {
namespace {

constexpr double kWidth = 800, kHeight = 500;
constexpr double kLeft = 80, kRight = 190, kTop = 40, kBottom = 60;  // plot-area margins

struct Axis {
  bool log = true;
  double lo = 0, hi = 1;  // in data units
  double map(double v, double p0, double p1) const {
    const double t = log ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : (v - lo) / (hi - lo);
    return p0 + t * (p1 - p0);
  }
  bool drawable(double v) const { return std::isfinite(v) && (!log || v > 0); }
};

std::string escape(const std::string& s) { return escape_markup(s); }

std::string tick_label(double v) {
  // 1k, 10k, 1M ... for round numbers at or above 1000: "1e+06" is hard to read at a glance.
  const char* suffix[] = {"k", "M", "G", "T"};
  for (int i = 3; i >= 0; --i) {
    const double unit = std::pow(1000.0, i + 1);
    if (v >= unit && std::abs(v / unit - std::round(v / unit)) < 1e-9)
      return fmt::format("{:g}{}", std::round(v / unit), suffix[i]);
  }
  if (v >= 1 || v == 0) return fmt::format("{:g}", v);
  const double inv = 1 / v;
  if (std::abs(inv - std::round(inv)) < 1e-9) return fmt::format("1/{:g}", std::round(inv));
  return fmt::format("{:g}", v);
}

std::vector<double> ticks(const Axis& a, double base) {
  std::vector<double> t;
  if (a.log) {
    const double lb = std::log(base);
    for (double e = std::floor(std::log(a.lo) / lb); e <= std::ceil(std::log(a.hi) / lb); ++e) {
      const double v = std::pow(base, e);
      if (v >= a.lo * 0.999 && v <= a.hi * 1.001) t.push_back(v);
    }
  } else {
    const double step = std::pow(10, std::floor(std::log10((a.hi - a.lo) / 5)));
    for (double v = std::ceil(a.lo / step) * step; v <= a.hi; v += step) t.push_back(v);
  }
  return t;
}

}  // namespace

std::string render_svg(const PlotSpec& spec) {
  Axis x{spec.log_x, INFINITY, -INFINITY}, y{spec.log_y, INFINITY, -INFINITY};
  for (const auto& s : spec.series)
    for (auto [px, py] : s.xy)
      if (x.drawable(px) && y.drawable(py)) {
        x.lo = std::min(x.lo, px), x.hi = std::max(x.hi, px);
        y.lo = std::min(y.lo, py), y.hi = std::max(y.hi, py);
      }
  if (!(x.hi >= x.lo)) throw std::invalid_argument("plot has no drawable point");
  auto widen = [](Axis& a) {
    if (a.log) { a.lo /= 1.5; a.hi *= 1.5; }
    else { const double m = 0.05 * std::max(a.hi - a.lo, 1e-12); a.lo -= m; a.hi += m; }
  };
  widen(x);
  widen(y);
  const double x0 = kLeft, x1 = kWidth - kRight, y0 = kHeight - kBottom, y1 = kTop;

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      kWidth, kHeight);
  svg += fmt::format("<text x=\"{}\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
                     (x0 + x1) / 2, escape(spec.title));
  for (double t : ticks(x, spec.x_tick_base)) {
    const double px = x.map(t, x0, x1);
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e5e5e5\"/>"
                       "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
                       px, y0, y1, y0 + 18, tick_label(t));
  }
  for (double t : ticks(y, 10)) {
    const double py = y.map(t, y0, y1);
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e5e5e5\"/>"
                       "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
                       x0, py, x1, x0 - 6, py + 4, tick_label(t));
  }
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n",
                     x0, y1, x1 - x0, y0 - y1);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", (x0 + x1) / 2,
                     kHeight - 18, escape(spec.x_label));
  svg += fmt::format("<text transform=\"translate(22 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                     (y0 + y1) / 2, escape(spec.y_label));
  double marker_y = y1 + 14;  // one label line per marker, so close markers stay readable
  for (const auto& [mx, label] : spec.x_markers) {
    if (!x.drawable(mx) || mx < x.lo || mx > x.hi) continue;
    const double px = x.map(mx, x0, x1);
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#888\" "
                       "stroke-dasharray=\"2 3\"/><text x=\"{3:.1f}\" y=\"{4}\" fill=\"#555\">{5}</text>\n",
                       px, y0, y1, px + 4, marker_y, escape(label));
    marker_y += 14;
  }
  double legend_y = kTop + 10;
  for (const auto& s : spec.series) {
    std::string pts;
    for (auto [px, py] : s.xy)
      if (x.drawable(px) && y.drawable(py))
        pts += fmt::format("{:.1f},{:.1f} ", x.map(px, x0, x1), y.map(py, y0, y1));
    if (s.style == PlotSeries::Style::markers) {
      for (auto [px, py] : s.xy)
        if (x.drawable(px) && y.drawable(py))
          svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\"/>\n",
                             x.map(px, x0, x1), y.map(py, y0, y1), s.color);
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/>", x1 + 18, legend_y - 4, s.color);
    } else {
      const char* dash = s.style == PlotSeries::Style::dashed ? " stroke-dasharray=\"6 4\"" : "";
      svg += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n",
                         pts, s.color, dash);
      svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>",
                         x1 + 10, legend_y - 4, x1 + 28, legend_y - 4, s.color, dash);
    }
    svg += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", x1 + 34, legend_y, escape(s.label));
    legend_y += 20;
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace tutor
