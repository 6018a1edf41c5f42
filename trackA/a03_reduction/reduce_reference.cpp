#include "reduce_reference.hpp"

#include <bit>
#include <cmath>
#include <stdexcept>

namespace tutor::a03 {

double compensated_sum(std::span<const float> x) {
  double sum = 0, correction = 0;
  for (float f : x) {
    const double v = f;
    const double t = sum + v;
    // The low-order bits lost by t, taken from whichever operand was smaller in magnitude.
    correction += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  return sum + correction;
}

double abs_sum(std::span<const float> x) {
  double s = 0;
  for (float f : x) s += std::fabs(double(f));
  return s;
}

double tree_error_bound(double abs_sum_value, std::size_t depth) {
  const double u = std::ldexp(1.0, -24);  // fp32 unit roundoff (IEEE 754-2019, binary32: p = 24)
  const double du = double(depth) * u;
  if (du >= 1) return abs_sum_value;  // gamma is undefined past d u = 1: no bound better than the scale
  return du / (1 - du) * abs_sum_value;
}

std::size_t allowed_depth(std::size_t n, std::size_t chain) {
  const std::size_t levels = n <= 1 ? 0 : std::size_t(std::bit_width(n - 1));  // ceil(log2 n)
  return levels + chain + 1;
}

float block_tree_sum(std::vector<float> shared, std::size_t stop_at, std::size_t unroll_from) {
  if (shared.empty() || !std::has_single_bit(shared.size()) || unroll_from < 1 || unroll_from > stop_at ||
      2 * stop_at > shared.size())
    throw std::invalid_argument("block_tree_sum: power-of-two block, 1 <= unroll_from <= stop_at <= block / 2");
  for (std::size_t s = shared.size() / 2; s > stop_at; s /= 2)
    for (std::size_t t = 0; t < s; ++t) shared[t] += shared[t + s];
  for (std::size_t s = unroll_from; s >= 1; s /= 2) {
    std::vector<float> next = shared;  // lock-step: every lane reads before any lane writes
    for (std::size_t t = 0; t < unroll_from; ++t) next[t] = shared[t] + shared[t + s];
    shared = next;
  }
  return shared[0];
}

}  // namespace tutor::a03
