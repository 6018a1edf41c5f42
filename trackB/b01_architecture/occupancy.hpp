#pragma once
// B01 occupancy lab: one streaming kernel, y[i] = kScale * x[i] + kShift, launched with grids
// chosen from the device's properties, so the learner can predict each step's bandwidth from
// what b01_device_info prints (SM count, resident threads per SM) and then measure it. Every
// kernel is a grid-stride loop, so any grid computes the right answer; only the speed differs.
// The launchers live in cuda/occupancy.cu and hip/occupancy.hip (same names, same order) and the
// exercise in exercises/cuda|hip/occupancy_grid.*; each enqueues on the default stream and checks
// the launch. Kernel files include this header, so it stays C++17.
#include <cstddef>

namespace tutor::b01 {

/// x and y are device pointers (cudaMalloc / hipMalloc) holding n floats each; any n >= 1.
using StreamLauncher = void (*)(const float* x, float* y, std::size_t n);

/// The constants of the stream (exact in fp32: the only rounding is the one of the add).
inline constexpr float kScale = 2.0f;
inline constexpr float kShift = 0.5f;

/// Threads per block of every step (a multiple of 32 and 64: warps and wavefronts fill it).
inline constexpr int kBlockThreads = 256;

void launch_one_block(const float* x, float* y, std::size_t n);
void launch_one_block_per_sm(const float* x, float* y, std::size_t n);
void launch_full_occupancy(const float* x, float* y, std::size_t n);

/// The learner's exercise: the grid from the device's properties (exercises/, --variant exercise_grid).
void launch_exercise_grid(const float* x, float* y, std::size_t n);

}  // namespace tutor::b01
