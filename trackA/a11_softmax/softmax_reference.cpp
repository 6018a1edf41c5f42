// A11: the host side of the softmax ladder (softmax_reference.hpp).
#include "softmax_reference.hpp"

#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tutor::a11 {

float bf16_to_float(std::uint16_t bits) { return std::bit_cast<float>(std::uint32_t(bits) << 16); }

std::uint16_t float_to_bf16(float v) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(v);
  if (std::isnan(v)) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest, ties to even
  return static_cast<std::uint16_t>(u >> 16);
}

void softmax_reference_row(std::span<const float> x, std::span<double> out) {
  if (x.empty() || x.size() != out.size())
    throw std::invalid_argument("softmax_reference_row: a non-empty row and an output of the same length");
  double m = -std::numeric_limits<double>::infinity();
  for (float v : x) m = std::max(m, double(v));
  double sum = 0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    out[j] = std::exp(double(x[j]) - m);  // NaN for every element when m is -inf or +inf
    sum += out[j];
  }
  for (double& v : out) v /= sum;
}

double softmax_tolerance(bool bf16, long long cols) {
  if (bf16) return 8.0 * std::ldexp(1.0, -8);
  return 8.0 * std::ldexp(1.0, -24) * (std::sqrt(double(cols)) + 3.0);
}

void softmax_reference(std::span<const float> x, long long cols, std::span<double> out, unsigned threads) {
  if (cols < 1 || x.size() != out.size() || x.size() % std::size_t(cols) != 0)
    throw std::invalid_argument("softmax_reference: input and output of the same whole number of rows");
  const std::size_t c = std::size_t(cols), rows = x.size() / c;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t per = std::max<std::size_t>(1, (rows + threads - 1) / threads);
  auto some_rows = [&](std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) softmax_reference_row(x.subspan(r * c, c), out.subspan(r * c, c));
  };
  std::vector<std::thread> pool;
  for (std::size_t first = 0; first < rows; first += per) pool.emplace_back(some_rows, first, std::min(rows, first + per));
  for (auto& t : pool) t.join();
}

RowKind row_kind(long long row) {
  switch (row % 64) {
    case 1: return RowKind::masked;
    case 2: return RowKind::partly_masked;
    case 3: return RowKind::equal;
    case 4: return RowKind::large;
    default: return RowKind::random;
  }
}

std::string row_kind_name(RowKind kind) {
  switch (kind) {
    case RowKind::masked: return "masked";
    case RowKind::partly_masked: return "partly masked";
    case RowKind::equal: return "equal";
    case RowKind::large: return "large";
    default: return "random";
  }
}

namespace {
// SplitMix64's output function (Steele, Lea and Flood, OOPSLA 2014) on a counter: the top 24
// bits make a float in [0, 1) exactly.
float uniform01(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return float(z >> 40) * 0x1.0p-24f;
}
}  // namespace

void fill_logits(std::span<float> out, long long cols, std::uint64_t seed, bool bf16) {
  if (cols < 1 || out.size() % std::size_t(cols) != 0)
    throw std::invalid_argument("fill_logits: cols >= 1 dividing the output's length");
  const float inf = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < out.size(); ++i) {
    const long long row = static_cast<long long>(i / std::size_t(cols)), col = static_cast<long long>(i % std::size_t(cols));
    const float u = uniform01(seed, i);
    float v = -8.0f + 16.0f * u;
    switch (row_kind(row)) {
      case RowKind::masked: v = -inf; break;
      case RowKind::partly_masked: v = col % 3 == 0 && col < (cols + 1) / 2 ? v : -inf; break;
      case RowKind::equal: v = 7.0f; break;
      case RowKind::large: v = 10000.0f + 20.0f * u; break;
      case RowKind::random: break;
    }
    out[i] = bf16 ? bf16_to_float(float_to_bf16(v)) : v;
  }
}

Comparison check_softmax(std::span<const float> got, std::span<const double> ref, long long cols, double tolerance,
                         std::uint32_t poison_bits) {
  Comparison c;
  c.tolerance = tolerance;
  c.count = got.size();
  if (got.size() != ref.size() || cols < 1 || got.size() % std::size_t(cols) != 0) {
    c.reason = fmt::format("sizes differ: {} outputs, {} reference values", got.size(), ref.size());
    return c;
  }
  auto fail = [&](std::size_t i, std::string why) {
    ++c.mismatches;
    if (!c.first_mismatch) {
      c.first_mismatch = i;
      c.reason = std::move(why);
    }
  };
  double err2 = 0, ref2 = 0;
  const std::size_t n = std::size_t(cols);
  for (std::size_t row = 0; row * n < got.size(); ++row) {
    const std::size_t start = row * n;
    const bool nan_row = std::isnan(ref[start]);
    double sum = 0;
    for (std::size_t i = start; i < start + n; ++i) {
      if (std::bit_cast<std::uint32_t>(got[i]) == poison_bits) {
        fail(i, fmt::format("row {} column {} was never written (still the poison pattern)", row, i - start));
        continue;
      }
      if (nan_row) {
        if (!std::isnan(got[i]))
          fail(i, fmt::format("row {} ({}): the reference is NaN (0 / 0), the output is {}", row,
                              row_kind_name(row_kind(static_cast<long long>(row))), got[i]));
        continue;
      }
      if (!std::isfinite(got[i])) {
        ++c.nonfinite;
        fail(i, fmt::format("row {} ({}) column {}: {} where the reference is {:.6g}", row,
                            row_kind_name(row_kind(static_cast<long long>(row))), i - start, got[i], ref[i]));
        continue;
      }
      const double e = double(got[i]) - ref[i];
      err2 += e * e;
      ref2 += ref[i] * ref[i];
      c.max_abs_err = std::max(c.max_abs_err, std::abs(e));
      sum += got[i];
    }
    if (!nan_row && std::abs(sum - 1.0) > tolerance)
      fail(start, fmt::format("row {} ({}) sums to {:.9f}, not 1 within {:.2g}", row,
                              row_kind_name(row_kind(static_cast<long long>(row))), sum, tolerance));
  }
  c.rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : 0;
  if (c.reason.empty() && c.rel_l2 > tolerance)
    c.reason = fmt::format("relative L2 error {:.3g} above the tolerance {:.3g}", c.rel_l2, tolerance);
  c.passed = c.reason.empty();
  return c;
}

}  // namespace tutor::a11
