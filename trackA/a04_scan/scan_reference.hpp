#pragma once
// A04 Scan: the host reference and the verdicts (host-only, tested in tests/).
#include <cstdint>
#include <span>
#include <vector>

#include "tutor/verify.hpp"

namespace tutor::a04 {

/// Prefix sums in fp64 (each fp32 input is exact in fp64; an fp64 running sum of n <= 2^31
/// terms of magnitude <= 1 carries an error far below fp32's unit roundoff), and the running
/// sums of absolute values the float bound is scaled by.
struct FloatReference {
  std::vector<double> prefix;      ///< inclusive or exclusive, as asked
  std::vector<double> abs_prefix;  ///< sum of |in[j]| over the same j as prefix[i]
};
FloatReference float_scan_reference(std::span<const float> in, bool exclusive);

/// Prefix sums in int64, exact; the lab's int32 inputs are small enough that no prefix
/// leaves the int32 range, which the verdict checks as well.
std::vector<std::int64_t> int_scan_reference(std::span<const std::int32_t> in, bool exclusive);

/// The bound an fp32 prefix out[i] is held to: a summation in which every term passes
/// through at most d additions has |error| <= gamma_d * sum |x_j|, gamma_d = d u / (1 - d u),
/// u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 4.2,
/// for any summation order). A parallel scan adds along a path far shorter than i, but look-back chains add
/// one term per earlier tile, so the lab uses the path bound depth(i) = i / 256 + 64: at most
/// one addition per 256-element tile before i plus 64 within a tile (thread-serial items,
/// shuffle and shared-memory levels), which covers every step and the vendor libraries'
/// tile sizes.
double float_error_bound(std::size_t i, double abs_prefix);

/// fp32 results against the fp64 reference: element i passes when
/// |got_i - ref_i| <= float_error_bound(i, abs_prefix_i).
/// Relative error is no verdict here: where prefixes cross zero it is unbounded.
Comparison check_float_scan(std::span<const float> got, const FloatReference& ref);

/// int32 results: every element equal to the exact reference.
Comparison check_int_scan(std::span<const std::int32_t> got, std::span<const std::int64_t> ref);

}  // namespace tutor::a04
