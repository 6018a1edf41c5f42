#pragma once
// Summary statistics of timing samples: the numbers every lab reports per variant.
#include <cstddef>
#include <span>

namespace tutor {

/// Order statistics of a sample set. All fields carry the unit of the samples
/// (milliseconds for kernel times). `n` is the sample count.
struct Summary {
  double min = 0, p10 = 0, median = 0, p90 = 0, max = 0, mean = 0;
  std::size_t n = 0;
};

/// Summarises `samples` (any order; not modified). The median of an even count is the
/// mean of the two middle values; percentiles use linear interpolation between closest
/// ranks (Hyndman & Fan 1996, definition 7, the default of NumPy and R).
/// Throws std::invalid_argument if `samples` is empty or holds a NaN.
Summary summarize(std::span<const double> samples);

/// The q-quantile (0 <= q <= 1) of `sorted` (ascending), same interpolation as above.
/// Throws std::invalid_argument if `sorted` is empty or q is outside [0, 1].
double quantile_sorted(std::span<const double> sorted, double q);

}  // namespace tutor
