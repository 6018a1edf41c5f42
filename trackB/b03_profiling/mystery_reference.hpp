#pragma once
// B03: what each mystery kernel must compute, on the host in fp64 (the references every launch is
// verified against; tests/mystery_reference_test.cpp checks them against hand derivations).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mystery.hpp"

namespace tutor::b03 {

/// Mystery 1: out[i] = x[i] + alpha * r[i].
std::vector<double> residual_add_reference(std::span<const float> x, std::span<const float> r, float alpha);

/// Mystery 2: p(x / 2) = sum over k of c_k (x / 2)^(D - k), by Horner's rule in fp64.
double polynomial_reference(double x);

/// Mystery 3: the sum of each row of a rows x cols row-major matrix.
std::vector<double> row_sums_reference(std::span<const float> a, int rows, int cols);

/// Mystery 4, one output: dot(x[r], x[kGroup * (r / kGroup) + c]) over kGroup columns, 0 when that
/// row is past the last (x has `rows` rows of kGroup floats).
double group_score_reference(std::span<const float> x, int rows, int r, int c);

/// Mystery 5: the view of a fused QKV projection output x of shape (B, S, 3, H, D), row-major,
/// permuted to (3, B, H, S, D): the output's sizes, and the input's stride along each of them.
StridedView qkv_split_view(int batch, int seq, int heads, int head_dim);
/// Elements of a view (the product of its sizes).
std::int64_t view_elements(const StridedView& view);
/// out[i] = a * x[offset(i)] + b, offset(i) from i's coordinates in the view: what any strided
/// gather computes, written as a loop over the output's coordinates.
std::vector<double> strided_affine_reference(std::span<const float> x, const StridedView& view, float a, float b);

/// Mystery 6: y[i] = w0 x[i-1] + w1 x[i] + w2 x[i+1], x[-1] = x[n] = 0.
std::vector<double> smoothing_reference(std::span<const float> x);

/// Mystery 6's tile: the kernels stage kSmoothTile elements per block, the last tile holds n % kSmoothTile.
inline constexpr int kSmoothTile = 256;
/// The length mystery 6 is verified at on a run with this seed (besides n = 1 and its timed length):
/// n = kSmoothTile k + r with k in [0, 4096) and a last tile of r elements, chosen with equal odds
/// from the short tails r in [1, 31] (inside one 32-lane warp) and the long ones r in [65, 255]
/// (across three warps or more). Drawn from the first output of std::mt19937_64 (whose output
/// sequence the C++ standard fixes, [rand.predef]), so a seed names the same length everywhere.
int smoothing_drawn_length(std::uint64_t seed);

}  // namespace tutor::b03
