#pragma once
// B03: the mystery kernels' interface (host-only types, C++17: kernel files include it).
//
// Six kernels, each a small job an inference stack does every day. This header says what each
// one computes, never what limits it: that is the exercise (the answer key is in
// exercises/solutions/). The launchers live in cuda/mystery.cu and hip/mystery.hip (same names,
// same order); each enqueues its kernel(s) on the default stream and checks the launch. Every
// size is allowed (1, primes, sizes that are no multiple of any block); every pointer comes
// from cudaMalloc / hipMalloc (256-byte aligned).
//
// The fix_N launchers are the learner's exercises (exercises/cuda|hip/, worked solutions in
// exercises/solutions/): the same output as mystery N, by a kernel that removes what limits it.
#include <cstddef>
#include <cstdint>

#include "tutor/device/portability.hpp"

namespace tutor::b03 {

// ---- Mystery 1: a scaled residual add, out[i] = x[i] + alpha * r[i] (fp32, n elements)
void launch_mystery_1(const float* x, const float* r, float* out, std::size_t n, float alpha);

// ---- Mystery 2: a polynomial of degree kPolyDegree evaluated at t = x[i] / 2 by Horner's rule
//      (y = c_0; y = y * t + c_k for k = 1..kPolyDegree), one value per element (fp32).
inline constexpr int kPolyDegree = 256;
/// Coefficient c_k, leading first: c_0..c_{D-1} are multiples of 1/64 in [1/2, 1) and c_D = 2, all
/// exact in fp32. For |t| < 1/2 the terms other than c_D sum to less than 1 in magnitude, so
/// p(t) lies in (1, 3): a value outside that range is an unwritten or wrong element.
TUTOR_HOST_DEVICE constexpr float poly_coefficient(int k) {
  return k == kPolyDegree ? 2.0f : 0.5f + static_cast<float>((k * 37) % 32) / 64.0f;
}
void launch_mystery_2(const float* x, float* y, std::size_t n);

// ---- Mystery 3: the sum of each row of a rows x cols row-major matrix (fp32): sums[r].
void launch_mystery_3(const float* a, float* sums, int rows, int cols);

// ---- Mystery 4: block-local scores. x is rows x kGroup (row-major fp32); rows are taken in
//      groups of kGroup consecutive rows (the last group may be short: missing rows are zero),
//      and every row is scored against every row of its group:
//      g[r][c] = dot(x[r], x[kGroup * (r / kGroup) + c]), 0 where that row does not exist.
inline constexpr int kGroup = 32;
void launch_mystery_4(const float* x, float* g, int rows);

// ---- Mystery 5: the split of a fused QKV projection into head-major Q, K and V, with an affine
//      map: x of shape (B, S, 3, H, D) (the projection's output, row-major fp32) becomes out of
//      shape (3, B, H, S, D), row-major: out = a * x.permute(2, 0, 3, 1, 4) + b. The kernel is
//      written for any strided view of kViewDims dimensions: `view` holds the output's sizes
//      and, for each output dimension, the input's stride along it.
inline constexpr int kViewDims = 5;
struct StridedView {
  std::int64_t size[kViewDims];    ///< output sizes, outermost first
  std::int64_t stride[kViewDims];  ///< input elements between neighbours along each output dimension
};
void launch_mystery_5(const float* x, float* out, const StridedView& view, float a, float b);

// ---- Mystery 6: a 3-point moving average of a signal, y[i] = w0 x[i-1] + w1 x[i] + w2 x[i+1],
//      with x[-1] = x[n] = 0 (fp32).
inline constexpr float kSmoothW0 = 0.25f, kSmoothW1 = 0.5f, kSmoothW2 = 0.25f;
void launch_mystery_6(const float* x, float* y, int n);

// ---- The exercises: same signatures and outputs as the mysteries they fix.
void launch_fix_3(const float* a, float* sums, int rows, int cols);
void launch_fix_4(const float* x, float* g, int rows);
void launch_fix_5(const float* x, float* out, const StridedView& view, float a, float b);
void launch_fix_6(const float* x, float* y, int n);

}  // namespace tutor::b03
