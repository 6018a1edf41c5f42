#pragma once
// B02 ridge exercise: the interface between the host driver (b02_ridge.cpp) and the learner's
// kernel (exercises/cuda|hip/ridge.*; worked solution in exercises/solutions/).
//
// The kernel is B02's f_k (sweep.hpp): out[i] = f_k(in[i]) for fp32 elements, with k FLOPs per
// element on registers (one multiply when k = 1, else k / 2 fused multiply-adds y = y * a + b,
// a = kSweepA, b = kSweepB). It moves 8 bytes per element (4 read, 4 written), so its intensity
// is I = k / 8 FLOP/byte. The learner also chooses k: the value that puts I on the ridge of this
// GPU, where the compute roof meets the memory roof (Williams, Waterman and Patterson, "Roofline",
// CACM 52(4) 2009: ridge = peak FLOP/s / bandwidth), from the roofs the lab measures in the run.
// Kernel files include this header, so it stays C++17.
#include <cstddef>

#include "sweep.hpp"

namespace tutor::b02 {

/// FLOPs per element (1, or an even number up to kMaxRidgeFlops) that put f_k on the ridge of a
/// GPU whose fp32 FMA rate is `fma_TFLOPs` and whose copy bandwidth is `copy_GBps` (both measured
/// by the lab in the same run, before any step). Host code, in the exercise file.
int exercise_flops_per_element(double fma_TFLOPs, double copy_GBps);

/// out[i] = f_k(in[i]) for i < n with k = flops_per_element; in/out from cudaMalloc/hipMalloc.
/// The signature of launch_sweep_fp32, which the lab runs beside it at the same k.
void launch_exercise_ridge(const float* in, float* out, std::size_t n, int flops_per_element);

/// The launcher both steps share.
using RidgeLauncher = void (*)(const float* in, float* out, std::size_t n, int flops_per_element);

/// The largest k the lab accepts (B02's sweep goes to 1024 FLOP/byte = 8192 per element).
inline constexpr int kMaxRidgeFlops = 16384;

}  // namespace tutor::b02
