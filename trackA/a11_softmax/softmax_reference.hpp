#pragma once
// A11: the host side of the softmax ladder (C++20): bf16 conversions, the fp64 CPU reference
// every step is checked against, the inputs (random logits and the special rows), and the check
// (relative L2 over the rows with a finite sum, each such row's outputs summing to 1, NaN where
// the reference is NaN, no element left as the poison pattern).
#include <cstdint>
#include <span>
#include <string>

#include "tutor/verify.hpp"

namespace tutor::a11 {

/// The value of bf16 bits (exact: bf16 is the top 16 bits of an fp32).
float bf16_to_float(std::uint16_t bits);
/// `v` rounded to the nearest bf16, ties to even (Kalamkar et al. 2019, sec. 2); NaN stays NaN.
std::uint16_t float_to_bf16(float v);

/// softmax of one row in fp64: out_j = exp(x_j - m) / sum_k exp(x_k - m), m = max_k x_k
/// (subtracting m changes nothing exactly and keeps every exp() <= 1). A row whose maximum is
/// -infinity (every element masked) gives NaN everywhere (0 / 0), as torch.softmax does; a
/// row containing +infinity gives NaN too (inf - inf). Throws std::invalid_argument on sizes
/// that differ or an empty row.
void softmax_reference_row(std::span<const float> x, std::span<double> out);

/// softmax_reference_row over every row of a row-major matrix of `cols` columns, the rows split
/// over `threads` host threads (0: one per hardware thread). Throws std::invalid_argument when
/// the sizes differ or are not a whole number of rows.
void softmax_reference(std::span<const float> x, long long cols, std::span<double> out, unsigned threads = 0);

/// What row r of an input holds. Every row but these four in each 64 holds logits drawn
/// uniformly from [-8, 8) (the range of attention scores after scaling):
///   r % 64 == 1  masked: every element -infinity (the reference's output is NaN)
///   r % 64 == 2  partly masked: element j is -infinity unless j % 3 == 0 and j < (cols + 1) / 2:
///                isolated logits, then a masked second half (as a causal mask leaves a row)
///   r % 64 == 3  equal: every element 7 (each output 1 / cols)
///   r % 64 == 4  large: 10,000 + [0, 20): exp() of the raw values overflows fp32 (and fp64)
enum class RowKind { random, masked, partly_masked, equal, large };
RowKind row_kind(long long row);
std::string row_kind_name(RowKind kind);

/// Fills `out` (rows x cols, row-major) with the rows above, from a counter-based generator
/// (SplitMix64), so a seed gives the same inputs on every machine. With `bf16`, each value is
/// rounded to bf16 first (the reference then reads exactly what the GPU reads).
void fill_logits(std::span<float> out, long long cols, std::uint64_t seed, bool bf16);

/// The relative L2 (and row-sum) tolerance of a step's output over rows of `cols` elements, as
/// 8 x the error bound (the safety factor of tutor::default_tolerance, verify.hpp). fp32: each
/// output carries one expf (at most 2 ulp: CUDA C++ Programming Guide, "Mathematical Functions",
/// table of single-precision functions), one correctly rounded division, and the relative error
/// of the row's sum of `cols` terms (u sqrt(cols) with random rounding errors: Higham, Accuracy
/// and Stability of Numerical Algorithms, 2nd ed., sec. 2.8), u = 2^-24: 8 u (sqrt(cols) + 3).
/// bf16: the one rounding of each output to bf16 dominates (u = 2^-8; fp32 arithmetic before
/// it): 8 u = 0.03125, at any length.
double softmax_tolerance(bool bf16, long long cols);

/// Checks `got` (rows x cols, as fp32 values; bf16 outputs widened) against the fp64 reference
/// `ref` of the same layout: fails when any element still holds `poison_bits` (never written),
/// when a row whose reference is NaN is not NaN everywhere, when an element is NaN or infinite
/// where the reference is finite, when the relative L2 error over the finite rows exceeds
/// `tolerance`, or when a finite row's outputs (summed in fp64) differ from 1 by more than
/// `tolerance`. The reason names the first such row.
Comparison check_softmax(std::span<const float> got, std::span<const double> ref, long long cols, double tolerance,
                         std::uint32_t poison_bits);

}  // namespace tutor::a11
