#pragma once
// B03: one problem instance per mystery kernel (a Case, tutor/ladder.hpp): fresh random inputs on
// the device, an output poisoned before every verified launch, and the fp64 reference of
// mystery_reference.hpp. Each Case also says which shapes the lab verifies on and which one it
// times (a small set with --small, for compute-sanitizer runs), and how many bytes and FLOPs a
// launch must move and do: each input read once, each output written once.
#include <cstdint>
#include <string>
#include <vector>

#include "mystery.hpp"
#include "tutor/gpu.hpp"
#include "tutor/ladder.hpp"
#include "tutor/verify.hpp"

namespace tutor::b03 {

/// An exercise row whose output is all poison says where its TODO is (else `c` as it is).
Comparison explain_unwritten(Comparison c, const StepInfo& step);

/// Mystery 1: out = x + alpha * r over n floats.
class ResidualAddCase {
 public:
  struct Shape {
    std::size_t n;
    bool operator==(const Shape&) const = default;
  };
  using Launcher = void (*)(const float*, const float*, float*, std::size_t, float);
  static std::vector<Shape> verify_shapes(bool small);
  static Shape timed_shape(bool small);
  static std::string describe(const Shape& s);
  static double bytes(const Shape& s) { return 12.0 * double(s.n); }  // x, r read; out written
  static double flops(const Shape& s) { return 2.0 * double(s.n); }   // one multiply-add

  ResidualAddCase(const Shape& s, std::uint64_t seed);
  std::string label() const;
  void poison() { out_.fill_u32(kPoisonBitsF32); }
  Comparison check(const StepInfo& step);
  double bytes() const { return bytes(shape_); }
  double flops() const { return flops(shape_); }
  void run(Launcher launch) { launch(x_.as<float>(), r_.as<float>(), out_.as<float>(), shape_.n, kAlpha); }

 private:
  static constexpr float kAlpha = 0.5f;
  Shape shape_;
  gpu::DeviceBuffer x_, r_, out_;
  std::vector<double> reference_;
};

/// Mystery 2: y = p(x / 2) over n floats, checked everywhere for range and on a sample against fp64.
class PolynomialCase {
 public:
  struct Shape {
    std::size_t n;
    bool operator==(const Shape&) const = default;
  };
  using Launcher = void (*)(const float*, float*, std::size_t);
  static std::vector<Shape> verify_shapes(bool small);
  static Shape timed_shape(bool small);
  static std::string describe(const Shape& s);
  static double bytes(const Shape& s) { return 8.0 * double(s.n); }
  static double flops(const Shape& s) { return double(2 * kPolyDegree + 1) * double(s.n); }  // x / 2, then D FMAs

  PolynomialCase(const Shape& s, std::uint64_t seed);
  std::string label() const;
  void poison() { y_.fill_u32(kPoisonBitsF32); }
  Comparison check(const StepInfo& step);
  double bytes() const { return bytes(shape_); }
  double flops() const { return flops(shape_); }
  void run(Launcher launch) { launch(x_.as<float>(), y_.as<float>(), shape_.n); }

 private:
  Shape shape_;
  gpu::DeviceBuffer x_, y_;
  std::vector<std::size_t> sample_;
  std::vector<double> expected_;
};

/// Mystery 3: the sums of the rows of a rows x cols matrix.
class RowSumsCase {
 public:
  struct Shape {
    int rows, cols;
    bool operator==(const Shape&) const = default;
  };
  using Launcher = void (*)(const float*, float*, int, int);
  static std::vector<Shape> verify_shapes(bool small);
  static Shape timed_shape(bool small);
  static std::string describe(const Shape& s);
  static double bytes(const Shape& s) { return 4.0 * double(s.rows) * (double(s.cols) + 1); }
  static double flops(const Shape& s) { return double(s.rows) * double(s.cols); }  // one add per element

  RowSumsCase(const Shape& s, std::uint64_t seed);
  std::string label() const;
  void poison() { sums_.fill_u32(kPoisonBitsF32); }
  Comparison check(const StepInfo& step);
  double bytes() const { return bytes(shape_); }
  double flops() const { return flops(shape_); }
  void run(Launcher launch) { launch(a_.as<float>(), sums_.as<float>(), shape_.rows, shape_.cols); }

 private:
  Shape shape_;
  gpu::DeviceBuffer a_, sums_;
  std::vector<double> reference_;
};

/// Mystery 4: every row scored against every row of its group of kGroup; checked everywhere for
/// range and, on a sample of whole groups (and the last group), against fp64.
class GroupScoresCase {
 public:
  struct Shape {
    int rows;
    bool operator==(const Shape&) const = default;
  };
  using Launcher = void (*)(const float*, float*, int);
  static std::vector<Shape> verify_shapes(bool small);
  static Shape timed_shape(bool small);
  static std::string describe(const Shape& s);
  static double bytes(const Shape& s) { return 2.0 * 4.0 * kGroup * double(s.rows); }
  static double flops(const Shape& s) { return 2.0 * kGroup * kGroup * double(s.rows); }  // kGroup dots of kGroup per row

  GroupScoresCase(const Shape& s, std::uint64_t seed);
  std::string label() const;
  void poison() { g_.fill_u32(kPoisonBitsF32); }
  Comparison check(const StepInfo& step);
  double bytes() const { return bytes(shape_); }
  double flops() const { return flops(shape_); }
  void run(Launcher launch) { launch(x_.as<float>(), g_.as<float>(), shape_.rows); }

 private:
  Shape shape_;
  gpu::DeviceBuffer x_, g_;
  std::vector<std::size_t> sample_;  // output indices compared with the reference
  std::vector<double> expected_;
};

/// Mystery 5: the QKV split with an affine map, out = a * x.permute(2, 0, 3, 1, 4) + b.
class QkvSplitCase {
 public:
  struct Shape {
    int batch, seq, heads, head_dim;
    bool operator==(const Shape&) const = default;
  };
  using Launcher = void (*)(const float*, float*, const StridedView&, float, float);
  static std::vector<Shape> verify_shapes(bool small);
  static Shape timed_shape(bool small);
  static std::string describe(const Shape& s);
  static double elements(const Shape& s) { return 3.0 * s.batch * double(s.seq) * s.heads * s.head_dim; }
  static double bytes(const Shape& s) { return 8.0 * elements(s); }
  static double flops(const Shape& s) { return 2.0 * elements(s); }  // one multiply-add per element

  QkvSplitCase(const Shape& s, std::uint64_t seed);
  std::string label() const;
  void poison() { out_.fill_u32(kPoisonBitsF32); }
  Comparison check(const StepInfo& step);
  double bytes() const { return bytes(shape_); }
  double flops() const { return flops(shape_); }
  void run(Launcher launch) { launch(x_.as<float>(), out_.as<float>(), view_, kScale, kShift); }

 private:
  static constexpr float kScale = 0.125f, kShift = -0.5f;
  Shape shape_;
  StridedView view_;
  gpu::DeviceBuffer x_, out_;
  std::vector<double> reference_;
};

/// Mystery 6: the 3-point moving average of n floats.
class SmoothingCase {
 public:
  struct Shape {
    int n;
    bool operator==(const Shape&) const = default;
  };
  using Launcher = void (*)(const float*, float*, int);
  /// n = 1 and a length drawn from the run's seed (smoothing_drawn_length); --small: fixed lengths.
  static std::vector<Shape> verify_shapes(bool small, std::uint64_t seed);
  static Shape timed_shape(bool small);
  static std::string describe(const Shape& s);
  static double bytes(const Shape& s) { return 8.0 * double(s.n); }
  static double flops(const Shape& s) { return 5.0 * double(s.n); }  // a multiply and two multiply-adds

  SmoothingCase(const Shape& s, std::uint64_t seed);
  std::string label() const;
  void poison() { y_.fill_u32(kPoisonBitsF32); }
  Comparison check(const StepInfo& step);
  double bytes() const { return bytes(shape_); }
  double flops() const { return flops(shape_); }
  void run(Launcher launch) { launch(x_.as<float>(), y_.as<float>(), shape_.n); }

 private:
  Shape shape_;
  gpu::DeviceBuffer x_, y_;
  std::vector<double> reference_;
};

}  // namespace tutor::b03
