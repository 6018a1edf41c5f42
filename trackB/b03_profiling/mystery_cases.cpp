#include "mystery_cases.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "mystery_reference.hpp"

namespace tutor::b03 {

namespace {

/// Fresh random floats in [-1, 1) (never all zero), uploaded to a new device buffer.
gpu::DeviceBuffer upload_random(std::vector<float>& host, std::size_t n, std::uint64_t seed) {
  host.resize(n);
  fill_random(host, seed);
  gpu::DeviceBuffer buffer(n * sizeof(float));
  buffer.upload(host.data(), n * sizeof(float));
  return buffer;
}

std::vector<float> download(const gpu::DeviceBuffer& buffer, std::size_t n) {
  std::vector<float> host(n);
  buffer.download(host.data(), n * sizeof(float));
  return host;
}

/// Evenly spaced indices of [0, n): about `count` of them, plus the last `tail` (the tail paths).
std::vector<std::size_t> sample_indices(std::size_t n, std::size_t count, std::size_t tail) {
  std::vector<std::size_t> out;
  const std::size_t step = std::max<std::size_t>(1, n / count);
  for (std::size_t i = 0; i < n; i += step) out.push_back(i);
  for (std::size_t i = n > tail ? n - tail : 0; i < n; ++i)
    if (out.empty() || i > out.back()) out.push_back(i);
  return out;
}

/// Elements outside [lo, hi] or not finite: what an unwritten (NaN poison) or wildly wrong output
/// looks like where only a sample is compared with the reference.
std::size_t out_of_range(const std::vector<float>& got, double lo, double hi) {
  std::size_t bad = 0;
  for (float v : got) bad += !(std::isfinite(v) && v >= lo && v <= hi);
  return bad;
}

/// Fails `c` when `bad` elements lie outside the range every correct output lies in.
Comparison with_range_check(Comparison c, std::size_t bad, std::size_t n, const std::string& range) {
  if (bad > 0) {
    c.passed = false;
    c.reason = fmt::format("{} of {} elements are unwritten or outside {}{}", bad, n, range,
                           c.reason.empty() ? "" : "; " + c.reason);
  }
  return c;
}

/// How many elements differ, added to a failed comparison's reason.
Comparison with_mismatch_count(Comparison c) {
  if (!c.passed && c.mismatches > 0) c.reason += fmt::format(" ({} of {} elements differ)", c.mismatches, c.count);
  return c;
}

}  // namespace

Comparison explain_unwritten(Comparison c, const StepInfo& step) {
  if (step.role == StepRole::exercise && c.count > 0 && c.nonfinite == c.count)
    c.reason = "nothing written: every element still holds the NaN poison (is the TODO in exercises/cuda/" + step.name +
               ".cu done?)";
  return c;
}

// ---- Mystery 1 ------------------------------------------------------------------------------

std::vector<ResidualAddCase::Shape> ResidualAddCase::verify_shapes(bool small) {
  if (small) return {{1}, {1003}};
  return {{1}, {1000003}};
}
ResidualAddCase::Shape ResidualAddCase::timed_shape(bool small) { return {small ? 65539u : std::size_t(1) << 26}; }
std::string ResidualAddCase::describe(const Shape& s) {
  return fmt::format("out = x + alpha * r, fp32, n = {}", s.n);
}
ResidualAddCase::ResidualAddCase(const Shape& s, std::uint64_t seed) : shape_(s), out_(s.n * sizeof(float)) {
  std::vector<float> x, r;
  x_ = upload_random(x, s.n, seed);
  r_ = upload_random(r, s.n, seed ^ 0x5bd1e995u);
  reference_ = residual_add_reference(x, r, kAlpha);
}
std::string ResidualAddCase::label() const { return fmt::format("n={}", shape_.n); }
Comparison ResidualAddCase::check(const StepInfo& step) {
  // One rounding per element (a fused multiply-add, or a multiply and an add).
  return explain_unwritten(compare(download(out_, shape_.n), reference_, default_tolerance(DType::f32, 2)), step);
}

// ---- Mystery 2 ------------------------------------------------------------------------------

std::vector<PolynomialCase::Shape> PolynomialCase::verify_shapes(bool small) {
  if (small) return {{1}, {1003}};
  return {{1}, {1000003}};
}
PolynomialCase::Shape PolynomialCase::timed_shape(bool small) { return {small ? 4099u : std::size_t(1) << 25}; }
std::string PolynomialCase::describe(const Shape& s) {
  return fmt::format("y = p(x / 2), p of degree {} by Horner's rule, fp32, n = {}", kPolyDegree, s.n);
}
PolynomialCase::PolynomialCase(const Shape& s, std::uint64_t seed) : shape_(s), y_(s.n * sizeof(float)) {
  std::vector<float> x;
  x_ = upload_random(x, s.n, seed);
  sample_ = sample_indices(s.n, 65536, 8);
  for (std::size_t i : sample_) expected_.push_back(polynomial_reference(x[i]));
}
std::string PolynomialCase::label() const { return fmt::format("n={}", shape_.n); }
Comparison PolynomialCase::check(const StepInfo& step) {
  const std::vector<float> all = download(y_, shape_.n);
  std::vector<float> got;
  for (std::size_t i : sample_) got.push_back(all[i]);
  // Horner in fp32 rounds once per step, but |t| < 1/2 shrinks every earlier error at each later
  // step, so the result stays within a few units in the last place whatever the degree.
  Comparison c = explain_unwritten(compare(got, expected_, default_tolerance(DType::f32, 64)), step);
  if (c.reason.starts_with("nothing written")) return c;
  return with_range_check(c, out_of_range(all, 1.0, 3.0), shape_.n, "(1, 3), where p(x / 2) lies for x in [-1, 1)");
}

// ---- Mystery 3 ------------------------------------------------------------------------------

std::vector<RowSumsCase::Shape> RowSumsCase::verify_shapes(bool small) {
  if (small) return {{1, 1}, {3, 1000}};
  return {{1, 1}, {3, 1000}, {7, 33333}};
}
RowSumsCase::Shape RowSumsCase::timed_shape(bool small) { return small ? Shape{8, 4097} : Shape{64, 1 << 21}; }
std::string RowSumsCase::describe(const Shape& s) {
  return fmt::format("row sums of a {} x {} fp32 matrix", s.rows, s.cols);
}
RowSumsCase::RowSumsCase(const Shape& s, std::uint64_t seed) : shape_(s), sums_(std::size_t(s.rows) * sizeof(float)) {
  std::vector<float> a;
  a_ = upload_random(a, std::size_t(s.rows) * std::size_t(s.cols), seed);
  reference_ = row_sums_reference(a, s.rows, s.cols);
}
std::string RowSumsCase::label() const { return fmt::format("{}x{}", shape_.rows, shape_.cols); }
Comparison RowSumsCase::check(const StepInfo& step) {
  // A sum of cols terms, in whatever order the kernel adds them.
  return explain_unwritten(compare(download(sums_, std::size_t(shape_.rows)), reference_,
                                   default_tolerance(DType::f32, std::size_t(shape_.cols))),
                           step);
}

// ---- Mystery 4 ------------------------------------------------------------------------------

std::vector<GroupScoresCase::Shape> GroupScoresCase::verify_shapes(bool small) {
  if (small) return {{1}, {33}};
  return {{1}, {33}, {1000}};
}
GroupScoresCase::Shape GroupScoresCase::timed_shape(bool small) { return {small ? 1000 : (1 << 20) + 13}; }
std::string GroupScoresCase::describe(const Shape& s) {
  return fmt::format("scores of every row against its group of {} rows, fp32, {} rows of {}", kGroup, s.rows, kGroup);
}
GroupScoresCase::GroupScoresCase(const Shape& s, std::uint64_t seed)
    : shape_(s), g_(std::size_t(s.rows) * kGroup * sizeof(float)) {
  std::vector<float> x;
  x_ = upload_random(x, std::size_t(s.rows) * kGroup, seed);
  // Whole groups, about 512 of them evenly spaced, and the last (often short) group.
  const int groups = s.rows / kGroup + (s.rows % kGroup != 0);
  for (std::size_t grp : sample_indices(std::size_t(groups), 512, 1))
    for (int r = int(grp) * kGroup; r < std::min(s.rows, int(grp + 1) * kGroup); ++r)
      for (int c = 0; c < kGroup; ++c) {
        sample_.push_back(std::size_t(r) * kGroup + std::size_t(c));
        expected_.push_back(group_score_reference(x, s.rows, r, c));
      }
}
std::string GroupScoresCase::label() const { return fmt::format("rows={}", shape_.rows); }
Comparison GroupScoresCase::check(const StepInfo& step) {
  const std::vector<float> all = download(g_, std::size_t(shape_.rows) * kGroup);
  std::vector<float> got;
  for (std::size_t i : sample_) got.push_back(all[i]);
  Comparison c = explain_unwritten(compare(got, expected_, default_tolerance(DType::f32, kGroup)), step);
  if (c.reason.starts_with("nothing written")) return c;
  // |x| < 1, so a dot product of kGroup terms lies in (-kGroup, kGroup).
  return with_range_check(c, out_of_range(all, -kGroup, kGroup), all.size(), fmt::format("[-{0}, {0}]", kGroup));
}

// ---- Mystery 5 ------------------------------------------------------------------------------

std::vector<QkvSplitCase::Shape> QkvSplitCase::verify_shapes(bool small) {
  if (small) return {{1, 1, 1, 1}, {2, 3, 5, 7}};
  return {{1, 1, 1, 1}, {2, 3, 5, 7}, {3, 17, 4, 33}};
}
QkvSplitCase::Shape QkvSplitCase::timed_shape(bool small) {
  return small ? Shape{2, 5, 3, 16} : Shape{4, 1021, 32, 128};
}
std::string QkvSplitCase::describe(const Shape& s) {
  return fmt::format("QKV split (B, S, 3, H, D) = ({}, {}, 3, {}, {}) -> (3, B, H, S, D) with out = a x + b, fp32",
                     s.batch, s.seq, s.heads, s.head_dim);
}
QkvSplitCase::QkvSplitCase(const Shape& s, std::uint64_t seed)
    : shape_(s), view_(qkv_split_view(s.batch, s.seq, s.heads, s.head_dim)),
      out_(static_cast<std::size_t>(view_elements(view_)) * sizeof(float)) {
  std::vector<float> x;
  x_ = upload_random(x, static_cast<std::size_t>(view_elements(view_)), seed);
  reference_ = strided_affine_reference(x, view_, kScale, kShift);
}
std::string QkvSplitCase::label() const {
  return fmt::format("B{} S{} H{} D{}", shape_.batch, shape_.seq, shape_.heads, shape_.head_dim);
}
Comparison QkvSplitCase::check(const StepInfo& step) {
  return explain_unwritten(compare(download(out_, reference_.size()), reference_, default_tolerance(DType::f32, 2)), step);
}

// ---- Mystery 6 ------------------------------------------------------------------------------

std::vector<SmoothingCase::Shape> SmoothingCase::verify_shapes(bool small, std::uint64_t seed) {
  // --small (the compute-sanitizer runs): fixed lengths whose last tiles span several warps, so
  // every sanitizer run exercises the last tile's path. Otherwise one element, and one length
  // drawn fresh from the run's seed: its last tile is short (inside one warp) on half the seeds
  // and long on the other half (mystery_reference.hpp).
  if (small) return {{1}, {100}, {1000}};
  return {{1}, {smoothing_drawn_length(seed)}};
}
// A whole number of tiles: the timed launch measures the full-tile path only.
SmoothingCase::Shape SmoothingCase::timed_shape(bool small) { return {small ? 3000 : 1 << 26}; }
std::string SmoothingCase::describe(const Shape& s) {
  return fmt::format("3-point moving average (1/4, 1/2, 1/4), fp32, n = {}", s.n);
}
SmoothingCase::SmoothingCase(const Shape& s, std::uint64_t seed) : shape_(s), y_(std::size_t(s.n) * sizeof(float)) {
  std::vector<float> x;
  x_ = upload_random(x, std::size_t(s.n), seed);
  reference_ = smoothing_reference(x);
}
std::string SmoothingCase::label() const { return fmt::format("n={}", shape_.n); }
Comparison SmoothingCase::check(const StepInfo& step) {
  // The weights are powers of two, so only the two additions round.
  return with_mismatch_count(explain_unwritten(
      compare(download(y_, std::size_t(shape_.n)), reference_, default_tolerance(DType::f32, 3)), step));
}

}  // namespace tutor::b03
