#pragma once
// Verification: compare a GPU result with a reference computed in higher precision.
//
// The pass criterion is the relative L2 error ||got - ref||_2 / ||ref||_2 against a
// tolerance chosen per data type; any NaN or Inf in `got` where the reference is finite
// fails, whatever the norm says (an absolute-tolerance check lets NaN pass, because
// every comparison with NaN is false).
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>

namespace tutor {

/// Result of comparing `got` with `ref` element by element.
struct Comparison {
  double rel_l2 = 0;           ///< ||got - ref||_2 / ||ref||_2 (0 when both are all-zero)
  double max_abs_err = 0;      ///< max_i |got_i - ref_i| over finite elements
  std::size_t count = 0;       ///< elements compared
  std::size_t nonfinite = 0;   ///< elements of `got` that are NaN/Inf where ref is finite
  std::size_t mismatches = 0;  ///< elements with |got - ref| > elem_tol * (|ref| + 1)
  std::optional<std::size_t> first_mismatch;  ///< index of the first such element
  double tolerance = 0;        ///< the rel_l2 bound the comparison was judged against
  bool passed = false;         ///< rel_l2 <= tolerance and nonfinite == 0 and sizes equal
  std::string reason;          ///< empty when passed; otherwise one line saying why not
};

/// Compares `got` with `ref` (same length; a length mismatch fails with a reason).
/// `rel_l2_tol` bounds the relative L2 error; each element is also checked against
/// `rel_l2_tol * (|ref_i| + 1)` only to report the first mismatching index.
Comparison compare(std::span<const float> got, std::span<const double> ref, double rel_l2_tol);
Comparison compare(std::span<const float> got, std::span<const float> ref, double rel_l2_tol);

/// Compares integer results exactly (histograms, counts, indices): every element must equal its
/// reference; the reason names how many differ and the first. rel_l2 is still reported.
Comparison compare_exact(std::span<const std::int32_t> got, std::span<const std::int32_t> ref);
Comparison compare_exact(std::span<const std::uint32_t> got, std::span<const std::uint32_t> ref);

/// One verdict for a case with several outputs (a value and its index, a sum and a scan): passes
/// when every part passes; reports the worst errors and the first failure's reason.
Comparison worst_of(std::initializer_list<Comparison> parts);

/// Data types a lab verifies, for choosing a tolerance.
enum class DType { f64, f32, tf32, f16, bf16, fp8_e4m3, fp8_e5m2 };

/// Default relative-L2 tolerance for a result computed in `dtype` by a reduction of
/// length `k` (k = 1 for data movement such as a transpose, which must be exact: 0).
/// Source: the unit roundoff u of the type (IEEE 754-2019 Table 3.5 for f64/f32/f16;
/// bf16 u = 2^-8; tf32 u = 2^-11; OCP FP8 spec v1.0 Table 1 for E4M3 u = 2^-4,
/// E5M2 u = 2^-3), times sqrt(k) for a sum of k terms with random rounding errors
/// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., sec. 2.8 and 3.1),
/// times a safety factor of 8, capped at kMaxTolerance.
double default_tolerance(DType dtype, std::size_t k);

/// The largest tolerance default_tolerance returns: a relative L2 error of 1 is what an
/// all-zero output scores, so a bound near 1 would accept one.
inline constexpr double kMaxTolerance = 0.25;

/// A bit pattern that no kernel produces by accident: a quiet NaN with payload 0x7fedcb
/// (0x7fffedcb as fp32). Fill outputs with it before each launch so unwritten elements fail.
inline constexpr std::uint32_t kPoisonBitsF32 = 0x7fffedcbu;

/// Fills `out` with kPoisonBitsF32 (host memory).
void poison(std::span<float> out);

/// Fills `out` with independent uniform values in [lo, hi) from a 64-bit Mersenne Twister
/// seeded with `seed`; never all zero. Each call with a fresh seed gives fresh inputs.
void fill_random(std::span<float> out, std::uint64_t seed, float lo = -1.0f, float hi = 1.0f);

/// A seed that differs between runs (time and address entropy), for "fresh random inputs
/// on every run"; labs print and record it so a failing run can be reproduced with --seed.
std::uint64_t fresh_seed();

}  // namespace tutor
