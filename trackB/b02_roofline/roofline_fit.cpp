#include "roofline_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace tutor::b02 {
namespace {

struct Trial {
  double log_B = 0;  // log of the memory roof in TFLOP/s per (FLOP/byte)
  double sse = 0;
};

// For ridge r: log P_fit(I) = log_B + log(min(I, r)); the least-squares log_B is the mean
// of the differences, and the sum of squared residuals follows.
Trial evaluate(std::span<const RooflinePoint> p, double log_r) {
  Trial t;
  for (const auto& q : p) t.log_B += std::log(q.TFLOPs) - std::min(std::log(q.intensity), log_r);
  t.log_B /= double(p.size());
  for (const auto& q : p) {
    const double d = std::log(q.TFLOPs) - (t.log_B + std::min(std::log(q.intensity), log_r));
    t.sse += d * d;
  }
  return t;
}

}  // namespace

RooflineFit fit_roofline(std::span<const RooflinePoint> points) {
  if (points.size() < 3) throw std::invalid_argument("roofline fit needs at least 3 points");
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& q : points) {
    if (!(q.intensity > 0) || !(q.TFLOPs > 0) || !std::isfinite(q.intensity) || !std::isfinite(q.TFLOPs))
      throw std::invalid_argument("roofline fit needs positive, finite intensities and rates");
    lo = std::min(lo, std::log(q.intensity));
    hi = std::max(hi, std::log(q.intensity));
  }
  if (!(hi > lo)) throw std::invalid_argument("roofline fit needs at least two distinct intensities");

  // Coarse grid over log r, then golden-section refinement around the best cell. The
  // objective is continuous and piecewise smooth in log r.
  constexpr int kGrid = 400;
  double best_x = lo, best = INFINITY;
  for (int i = 0; i <= kGrid; ++i) {
    const double x = lo + (hi - lo) * i / kGrid;
    const double sse = evaluate(points, x).sse;
    if (sse < best) best = sse, best_x = x;
  }
  const double step = (hi - lo) / kGrid;
  double a = std::max(lo, best_x - step), b = std::min(hi, best_x + step);
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 60; ++it) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    if (evaluate(points, c).sse < evaluate(points, d).sse) b = d; else a = c;
  }
  const double log_r = 0.5 * (a + b);
  const Trial t = evaluate(points, log_r);

  RooflineFit f;
  const double B_TFLOPs_per_intensity = std::exp(t.log_B);  // TFLOP/s per FLOP/byte = TB/s
  f.bandwidth_GBps = B_TFLOPs_per_intensity * 1e3;
  f.ridge_point = std::exp(log_r);
  f.peak_TFLOPs = B_TFLOPs_per_intensity * f.ridge_point;
  f.rms_log_residual = std::sqrt(t.sse / double(points.size()));
  for (const auto& q : points) {
    const double fit = B_TFLOPs_per_intensity * std::min(q.intensity, f.ridge_point);
    f.max_rel_residual = std::max(f.max_rel_residual, std::abs(q.TFLOPs / fit - 1));
    (q.intensity < f.ridge_point ? f.memory_bound_points : f.compute_bound_points) += 1;
  }
  return f;
}

}  // namespace tutor::b02
