#pragma once
// B02 fusion lab: raising a memory-bound kernel's arithmetic intensity by moving fewer bytes.
// y = relu(kFuseScale * x + kFuseShift) as two kernels (t = a * x + b to memory, then y = relu(t):
// 16 bytes per element) or as one (8 bytes per element): the same 2 FLOPs per element, half the
// bytes, so twice the intensity and, below the ridge, half the time (Williams, Waterman and
// Patterson, "Roofline", CACM 52(4) 2009). The launchers live in cuda/fusion.cu and hip/fusion.hip
// (same names, same order) and the exercise in exercises/cuda|hip/fuse.*; each enqueues on the
// default stream and checks the launch. Kernel files include this header, so it stays C++17.
#include <cstddef>

namespace tutor::b02 {

/// x, y and scratch are device pointers of n floats each; scratch holds t for the unfused steps
/// (a fused kernel never touches it). Any n >= 1.
using FusionLauncher = void (*)(const float* x, float* y, float* scratch, std::size_t n);

/// a and b: 2x is exact in fp32 and the add rounds once, so every step's y is bit-identical.
inline constexpr float kFuseScale = 2.0f;
inline constexpr float kFuseShift = -0.5f;

void launch_unfused(const float* x, float* y, float* scratch, std::size_t n);
void launch_fused(const float* x, float* y, float* scratch, std::size_t n);

/// The learner's exercise (exercises/, --variant exercise_fuse): the two kernels as one.
void launch_exercise_fuse(const float* x, float* y, float* scratch, std::size_t n);

}  // namespace tutor::b02
