#pragma once
// A07's problem instance (the Case of the ladder main, tutor/ladder_lab.hpp): device buffers,
// fresh random inputs and the reference a step is judged against. Host code only.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gemm_reference.hpp"
#include "sgemm.hpp"
#include "tutor/gpu.hpp"
#include "tutor/ladder.hpp"
#include "tutor/verify.hpp"
#include "vendor_blas.hpp"

namespace tutor::a07 {

/// Above this many multiply-adds the reference is the vendor library's fp32 result plus
/// fp64 spot rows computed on the host (when the build has a vendor BLAS).
inline constexpr double kHostReferenceMacs = 2.2e9;
inline constexpr int kSpotRows = 48;

/// One GEMM: fresh random A, B and C0 on the device, the output C, and the reference. C is
/// an input when beta != 0, so "poisoning" the output then means restoring C0: an element a
/// kernel fails to write keeps C0 and fails the check. With beta == 0, C is filled with NaN
/// poison, which also proves the kernel does not read C.
class GemmCase {
 public:
  struct Shape {
    int m, n, k;
    float alpha, beta;
    bool operator==(const Shape&) const = default;
  };
  /// Each input read once, C written once (and read once when beta != 0).
  static double bytes(const Shape& s) {
    return 4.0 * (double(s.m) * s.k + double(s.k) * s.n + double(s.m) * s.n * (s.beta == 0.0f ? 1 : 2));
  }
  static double flops(const Shape& s) { return 2.0 * s.m * double(s.n) * s.k; }

  GemmCase(const Shape& s, std::uint64_t seed)
      : s_(s), mn_(std::size_t(s.m) * s.n),
        a_(std::size_t(s.m) * s.k * 4), b_(std::size_t(s.k) * s.n * 4), c_(mn_ * 4), c0_(mn_ * 4),
        result_(mn_) {
    std::vector<float> a(std::size_t(s.m) * s.k), b(std::size_t(s.k) * s.n), c0(mn_);
    fill_random(a, seed);
    fill_random(b, seed + 1);
    fill_random(c0, seed + 2);
    a_.upload(a.data(), a.size() * 4);
    b_.upload(b.data(), b.size() * 4);
    c0_.upload(c0.data(), c0.size() * 4);
    if (s.beta != 0.0f) c0_host_ = c0;  // to tell an exercise that computed nothing (check)
    const double macs = double(s.m) * s.n * s.k;
    if (macs <= kHostReferenceMacs || !vendor_blas_available()) {
      reference_.resize(mn_);
      gemm_reference(s.m, s.n, s.k, s.alpha, a, b, s.beta, c0, reference_);
      return;
    }
    // fp64 rows spread over the matrix, first and last included, then the vendor's fp32 result.
    for (int i = 0; i < kSpotRows; ++i) spot_rows_.push_back(int(std::int64_t(i) * (s.m - 1) / (kSpotRows - 1)));
    spot_ref_.resize(spot_rows_.size() * std::size_t(s.n));
    std::vector<float> a_rows, c_rows;
    for (int r : spot_rows_) {
      a_rows.insert(a_rows.end(), a.begin() + std::size_t(r) * s.k, a.begin() + std::size_t(r + 1) * s.k);
      c_rows.insert(c_rows.end(), c0.begin() + std::size_t(r) * s.n, c0.begin() + std::size_t(r + 1) * s.n);
    }
    gemm_reference(int(spot_rows_.size()), s.n, s.k, s.alpha, a_rows, b, s.beta, c_rows, spot_ref_);
    poison();
    vendor_sgemm(args(), VendorMath::fp32);
    gpu::synchronize();
    c_.download(result_.data(), mn_ * 4);
    reference_.assign(result_.begin(), result_.end());
    vendor_reference_ = true;
    const Comparison spot = check_spots(gemm_tolerance(s.k));
    if (!spot.passed)
      throw gpu::Error("the vendor reference itself fails the fp64 spot check at " + label() + ": " + spot.reason);
  }

  const Shape& shape() const { return s_; }
  std::string label() const {
    return fmt::format("{}x{}x{}{}", s_.m, s_.n, s_.k, s_.beta == 0.0f ? " beta=0" : "");
  }
  void poison() {
    if (s_.beta == 0.0f) c_.fill_u32(kPoisonBitsF32);
    else restore();
  }
  void restore() { c_.copy_from(c0_); }
  /// Judged in fp32 (gemm_tolerance), or in the step's own arithmetic where it declares one
  /// (TF32 rounds the inputs to 10 mantissa bits).
  Comparison check(const StepInfo& step) {
    const double tol = step.dtype ? default_tolerance(*step.dtype, std::size_t(s_.k) + 2) : gemm_tolerance(s_.k);
    c_.download(result_.data(), mn_ * 4);
    Comparison full = compare(result_, reference_, tol);
    if (!full.passed && step.role == StepRole::exercise) explain_exercise(full);
    if (!vendor_reference_ || !full.passed) return full;
    Comparison spot = check_spots(tol);
    if (!spot.passed) return spot;
    full.rel_l2 = std::max(full.rel_l2, spot.rel_l2);
    return full;
  }
  double bytes() const { return bytes(s_); }
  double flops() const { return flops(s_); }
  GemmArgs args() const {
    return {s_.m, s_.n, s_.k, s_.alpha, s_.beta, a_.as<float>(), b_.as<float>(), c_.as<float>()};
  }
  void run(GemmLauncher launch) { launch(args()); }
  /// "fp64 on the host" or "cuBLAS fp32 (full) + fp64 on N rows".
  std::string reference_kind() const {
    return vendor_reference_ ? fmt::format("cuBLAS fp32 (full) + fp64 on {} rows", spot_rows_.size())
                             : "fp64 on the host";
  }

 private:
  /// An exercise that fails because it wrote nothing, or because its accumulators stayed 0
  /// (a skeleton whose TODO is not done writes alpha * 0 + beta * C), is told so.
  void explain_exercise(Comparison& c) const {
    bool untouched = true, zero_acc = true;
    for (std::size_t i = 0; i < mn_ && (untouched || zero_acc); ++i) {
      const float before = s_.beta == 0.0f ? std::bit_cast<float>(kPoisonBitsF32) : c0_host_[i];
      const float zero = s_.beta == 0.0f ? s_.alpha * 0.0f : s_.alpha * 0.0f + s_.beta * c0_host_[i];
      untouched = untouched && std::bit_cast<std::uint32_t>(result_[i]) == std::bit_cast<std::uint32_t>(before);
      zero_acc = zero_acc && result_[i] == zero;
    }
    if (untouched)
      c.reason = "nothing written: C is as it was before the launch (is the TODO in exercises/ done?); " + c.reason;
    else if (zero_acc)
      c.reason = "C = alpha * 0 + beta * C everywhere: the accumulators stayed 0 (is the TODO in exercises/ "
                 "done?); " + c.reason;
  }

  Comparison check_spots(double tol) const {
    std::vector<float> rows;
    for (int r : spot_rows_)
      rows.insert(rows.end(), result_.begin() + std::size_t(r) * s_.n, result_.begin() + std::size_t(r + 1) * s_.n);
    return compare(rows, spot_ref_, tol);
  }

  Shape s_;
  std::size_t mn_;
  gpu::DeviceBuffer a_, b_, c_, c0_;
  std::vector<float> result_, c0_host_;
  std::vector<double> reference_, spot_ref_;
  std::vector<int> spot_rows_;
  bool vendor_reference_ = false;
};

}  // namespace tutor::a07
