#pragma once
// A03's host side: the compensated reference sum, the bound a GPU sum is judged against, and a
// host simulation of the shared-memory tree with an unrolled last warp (why a tree that stops
// at 32 lanes is wrong on a 64-lane wavefront).
#include <cstddef>
#include <span>
#include <vector>

namespace tutor::a03 {

/// Neumaier's compensated sum in fp64 (Neumaier 1974, "Rundungsfehleranalyse einiger Verfahren
/// zur Summation endlicher Summen", ZAMM 54; Higham, Accuracy and Stability of Numerical
/// Algorithms, 2nd ed., sec. 4.3): the running sum plus a correction that collects each
/// addition's rounding error, whichever operand is larger.
double compensated_sum(std::span<const float> x);

/// The sum of |x_i| in fp64 (the scale of the error bound).
double abs_sum(std::span<const float> x);

/// The error bound for an fp32 sum of n terms computed by any summation tree of depth at most
/// `depth` additions on any path from a leaf to the root: |s_hat - s| <= gamma_depth * sum |x_i|,
/// gamma_d = d u / (1 - d u), u = 2^-24 (Higham, sec. 4.2, eq. (4.4) with d for n - 1).
double tree_error_bound(double abs_sum, std::size_t depth);

/// The depth the lab allows: ceil(log2 n) levels of the tree plus a sequential chain of up to
/// `chain` additions per thread (the grid-stride steps), plus one for the first add on load.
std::size_t allowed_depth(std::size_t n, std::size_t chain);

/// A simulation (not a measurement) of one block's shared-memory tree: sequential addressing
/// with strides above `stop_at` (the loop `for (s = threads / 2; s > lanes; s /= 2)`), leaving
/// 2 * stop_at values, then an unrolled tail of lanes 0..unroll_from-1 at strides unroll_from,
/// unroll_from / 2, ..., 1, every lane in lock-step (all reads before all writes). With
/// unroll_from == stop_at the tail sees every value; a tail written for 32-lane warps
/// (unroll_from 32) after a loop that stops at a 64-lane wavefront (stop_at 64) drops the
/// values in slots 64..127.
float block_tree_sum(std::vector<float> shared, std::size_t stop_at, std::size_t unroll_from);

}  // namespace tutor::a03
