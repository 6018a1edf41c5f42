#include "host_reference.hpp"

#include <bit>
#include <cmath>

namespace tutor::baselines::host {

float bf16_to_float(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

std::vector<double> gemm_rows(std::span<const float> a, std::span<const float> b, int n, int k,
                              std::span<const int> rows) {
  std::vector<double> out(rows.size() * static_cast<std::size_t>(n), 0.0);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    double* c = &out[r * n];
    const float* a_row = &a[static_cast<std::size_t>(rows[r]) * k];
    // p outer, j inner: B is read row by row, in the order it is stored.
    for (int p = 0; p < k; ++p) {
      const double a_rp = a_row[p];
      const float* b_row = &b[static_cast<std::size_t>(p) * n];
      for (int j = 0; j < n; ++j) c[j] += a_rp * b_row[j];
    }
  }
  return out;
}

double sum(std::span<const float> in) {
  double s = 0;
  for (float x : in) s += x;
  return s;
}

std::vector<double> inclusive_scan(std::span<const float> in) {
  std::vector<double> out(in.size());
  double s = 0;
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = s += in[i];
  return out;
}

std::vector<std::int64_t> histogram_even(std::span<const float> in, int bins, float lower, float upper) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(bins), 0);
  const double scale = bins / (static_cast<double>(upper) - lower);
  for (float x : in) {
    if (!(x >= lower && x < upper)) continue;
    const auto bin = static_cast<std::size_t>(std::floor((static_cast<double>(x) - lower) * scale));
    if (bin < counts.size()) ++counts[bin];
  }
  return counts;
}

}  // namespace tutor::baselines::host
