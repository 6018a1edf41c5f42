// B07: the alpha-beta fit of a measured collective sweep (method and sources: alpha_beta_fit.hpp).
#include "alpha_beta_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace tutor::b07 {
namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

RingCoefficients ring_coefficients(Collective op, int ranks) {
  if (ranks < 2) throw std::invalid_argument(fmt::format("--gpus: the model needs >= 2 ranks to fit, got {}", ranks));
  // predict() is t = steps alpha + share S / B. With S / B = 1 us (S = 1e3 B over 1 GB/s):
  // alpha = 1 gives steps + share, alpha = 2 gives 2 steps + share.
  const double one = predict(op, Algorithm::ring, ranks, 1e3, LinkParams{1.0, 1.0, ""}).time_us;
  const double two = predict(op, Algorithm::ring, ranks, 1e3, LinkParams{2.0, 1.0, ""}).time_us;
  return {two - one, 2.0 * one - two};
}

double relative_error(double model, double measured) { return (model - measured) / measured; }

AlphaBetaFit fit_alpha_beta(Collective op, int ranks, std::span<const SweepPoint> points, const FitOptions& options) {
  const RingCoefficients ring = ring_coefficients(op, ranks);
  const std::size_t n = points.size();
  if (n < 2) throw std::invalid_argument(fmt::format("fit: needs >= 2 sizes, got {}", n));
  if (options.latency_points < 1 || options.bandwidth_points < 1)
    throw std::invalid_argument("fit: latency_points and bandwidth_points must be >= 1");
  for (std::size_t i = 0; i < n; ++i) {
    const SweepPoint& p = points[i];
    if (!(std::isfinite(p.bytes) && p.bytes > 0 && std::isfinite(p.time_us) && p.time_us > 0))
      throw std::invalid_argument(
          fmt::format("fit: point {} (S = {} B, t = {} us) is not positive and finite", i, p.bytes, p.time_us));
    if (i > 0 && !(p.bytes > points[i - 1].bytes))
      throw std::invalid_argument(
          fmt::format("fit: sizes must increase; point {} has S = {} B after {} B", i, p.bytes, points[i - 1].bytes));
  }
  // Each end gets its share; with few points the ends split them and never overlap.
  const std::size_t low = std::min<std::size_t>(std::size_t(options.latency_points), n / 2);
  const std::size_t high =
      std::min<std::size_t>(std::size_t(options.bandwidth_points), n - std::max<std::size_t>(low, 1));
  AlphaBetaFit fit;
  fit.ring = ring;
  for (std::size_t i = 0; i < std::max<std::size_t>(low, 1); ++i) fit.latency_indices.push_back(i);
  for (std::size_t i = n - high; i < n; ++i) fit.bandwidth_indices.push_back(i);

  // S / B in microseconds for B in GB/s: S / (B x 1e3).
  double alpha = 0, beta = 0;
  {
    std::vector<double> t;
    for (std::size_t i : fit.latency_indices) t.push_back(points[i].time_us);
    alpha = median_of(t) / ring.steps;
  }
  for (int round = 0; round < 3; ++round) {
    std::vector<double> bw;
    for (std::size_t i : fit.bandwidth_indices) {
      const double transfer_us = points[i].time_us - ring.steps * alpha;
      if (transfer_us > 0) bw.push_back(ring.link_share * points[i].bytes / (transfer_us * 1e3));
    }
    if (bw.empty())
      throw std::invalid_argument(
          fmt::format("fit: the largest sizes take no longer than the latency end ({:.3g} us): no bandwidth to fit",
                      ring.steps * alpha));
    beta = median_of(bw);
    std::vector<double> a;
    for (std::size_t i : fit.latency_indices)
      a.push_back(std::max(0.0, points[i].time_us - ring.link_share * points[i].bytes / (beta * 1e3)) / ring.steps);
    alpha = median_of(a);
  }
  fit.link.alpha_us = alpha;
  fit.link.beta_GBps = beta;
  fit.latency_end_us = ring.steps * alpha;
  const SweepPoint& last = points[n - 1];
  const double transfer_us = ring.link_share * last.bytes / (beta * 1e3);
  fit.bandwidth_term_fraction = transfer_us / (transfer_us + fit.latency_end_us);
  fit.link.source = fmt::format(
      "fitted to this run (kind: model): alpha = median over the {} smallest sizes of (t - {:.4g} S/B) / {:g} steps; "
      "B = median over the {} largest sizes of {:.4g} S / (t - {:g} alpha) (ring formula, collective_model.hpp)",
      fit.latency_indices.size(), ring.link_share, ring.steps, fit.bandwidth_indices.size(), ring.link_share,
      ring.steps);
  return fit;
}

}  // namespace tutor::b07
