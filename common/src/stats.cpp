#include "tutor/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace tutor {

double quantile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("quantile of an empty sample set");
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile q must be in [0, 1]");
  // Hyndman & Fan definition 7: h = (n - 1) q, interpolate between floor(h) and ceil(h).
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

Summary summarize(std::span<const double> samples) {
  if (samples.empty()) throw std::invalid_argument("summary of an empty sample set");
  std::vector<double> sorted(samples.begin(), samples.end());
  if (std::any_of(sorted.begin(), sorted.end(), [](double x) { return std::isnan(x); }))
    throw std::invalid_argument("summary of samples holding NaN");
  std::sort(sorted.begin(), sorted.end());
  Summary s;
  s.n = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  s.p10 = quantile_sorted(sorted, 0.10);
  s.median = quantile_sorted(sorted, 0.50);
  s.p90 = quantile_sorted(sorted, 0.90);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(s.n);
  return s;
}

}  // namespace tutor
