#include "mystery_reference.hpp"

#include <random>
#include <stdexcept>

namespace tutor::b03 {

std::vector<double> residual_add_reference(std::span<const float> x, std::span<const float> r, float alpha) {
  if (x.size() != r.size()) throw std::invalid_argument("residual_add_reference: x and r differ in length");
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = double(x[i]) + double(alpha) * double(r[i]);
  return out;
}

double polynomial_reference(double x) {
  const double t = 0.5 * x;
  double y = poly_coefficient(0);
  for (int k = 1; k <= kPolyDegree; ++k) y = y * t + double(poly_coefficient(k));
  return y;
}

std::vector<double> row_sums_reference(std::span<const float> a, int rows, int cols) {
  if (rows < 0 || cols < 0 || a.size() != std::size_t(rows) * std::size_t(cols))
    throw std::invalid_argument("row_sums_reference: a is not rows x cols");
  std::vector<double> sums(std::size_t(rows), 0.0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) sums[std::size_t(r)] += a[std::size_t(r) * std::size_t(cols) + std::size_t(c)];
  return sums;
}

double group_score_reference(std::span<const float> x, int rows, int r, int c) {
  if (rows < 0 || x.size() != std::size_t(rows) * kGroup || r < 0 || r >= rows || c < 0 || c >= kGroup)
    throw std::invalid_argument("group_score_reference: no such output");
  const int other = kGroup * (r / kGroup) + c;
  if (other >= rows) return 0.0;
  double score = 0;
  for (int k = 0; k < kGroup; ++k)
    score += double(x[std::size_t(r) * kGroup + std::size_t(k)]) * double(x[std::size_t(other) * kGroup + std::size_t(k)]);
  return score;
}

StridedView qkv_split_view(int batch, int seq, int heads, int head_dim) {
  if (batch < 1 || seq < 1 || heads < 1 || head_dim < 1) throw std::invalid_argument("qkv_split_view: sizes must be >= 1");
  const std::int64_t B = batch, S = seq, H = heads, D = head_dim;
  // x (B, S, 3, H, D) row-major: strides S*3*H*D, 3*H*D, H*D, D, 1. The output (3, B, H, S, D)
  // walks x's dimensions 2, 0, 3, 1, 4 in that order.
  return StridedView{{3, B, H, S, D}, {H * D, S * 3 * H * D, D, 3 * H * D, 1}};
}

std::int64_t view_elements(const StridedView& view) {
  std::int64_t n = 1;
  for (int d = 0; d < kViewDims; ++d) n *= view.size[d];
  return n;
}

std::vector<double> strided_affine_reference(std::span<const float> x, const StridedView& view, float a, float b) {
  const std::int64_t n = view_elements(view);
  std::vector<double> out(static_cast<std::size_t>(n));
  std::int64_t index[kViewDims] = {};  // the output coordinates, last dimension fastest
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t offset = 0;
    for (int d = 0; d < kViewDims; ++d) offset += index[d] * view.stride[d];
    if (offset < 0 || std::size_t(offset) >= x.size()) throw std::invalid_argument("strided_affine_reference: view outside x");
    out[std::size_t(i)] = double(a) * double(x[std::size_t(offset)]) + double(b);
    for (int d = kViewDims - 1; d >= 0 && ++index[d] == view.size[d]; --d) index[d] = 0;
  }
  return out;
}

std::vector<double> smoothing_reference(std::span<const float> x) {
  const std::size_t n = x.size();
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double left = i > 0 ? x[i - 1] : 0.0, right = i + 1 < n ? x[i + 1] : 0.0;
    y[i] = double(kSmoothW0) * left + double(kSmoothW1) * x[i] + double(kSmoothW2) * right;
  }
  return y;
}

int smoothing_drawn_length(std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  const std::uint64_t bits = engine();
  const bool short_tail = (bits & 1u) != 0;
  const int k = static_cast<int>((bits >> 1) % 4096);
  const int r = short_tail ? 1 + static_cast<int>((bits >> 13) % 31) : 65 + static_cast<int>((bits >> 13) % 191);
  return kSmoothTile * k + r;
}

}  // namespace tutor::b03
