#pragma once
// The CPU side of A07's verification: an fp64 reference GEMM and the pass/fail rule.
#include <cstddef>
#include <span>

#include "tutor/verify.hpp"

namespace tutor::a07 {

/// out = alpha * A * B + beta * C computed in fp64 from fp32 inputs, row-major: A is m x k,
/// B is k x n, C and out are m x n. When beta == 0, C is not read (it may be empty or hold
/// NaN), as in BLAS. Rows are split over `threads` std::threads (0: hardware concurrency).
/// Throws std::invalid_argument when a span is shorter than its matrix or a size is < 1.
/// Cost: 2mnk flops; about 1 s for m = n = k = 1000 on one core.
void gemm_reference(int m, int n, int k, double alpha, std::span<const float> a, std::span<const float> b,
                    double beta, std::span<const float> c, std::span<double> out, unsigned threads = 0);

/// Relative-L2 tolerance for an fp32 GEMM with inner dimension k judged against an fp64 (or
/// another fp32) result: tutor::default_tolerance(DType::f32, k + 2), i.e. 8 u sqrt(k + 2)
/// with u = 2^-24, for the k rounded multiply-adds of the dot product plus the alpha scaling
/// and the beta term (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
/// sec. 3.1: the error of a k-term dot product is bounded by k u, and with random rounding
/// errors grows like sqrt(k) u). About 3e-5 at k = 4096, 8e-7 at k = 1; a skipped beta term
/// or one wrong tile is orders of magnitude above it.
double gemm_tolerance(int k);

/// Compares an fp32 GEMM result with its reference: relative L2 error against
/// gemm_tolerance(k); any NaN or Inf where the reference is finite fails.
Comparison check_gemm(std::span<const float> got, std::span<const double> ref, int k);

}  // namespace tutor::a07
