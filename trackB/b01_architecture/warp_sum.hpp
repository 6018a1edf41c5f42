#pragma once
// B01 warp-sum lab: row sums of an int32 matrix, where the warp (NVIDIA, 32 lanes) or wavefront
// (AMD, 64 lanes on CDNA) is the unit of work: the lane count b01_device_info reports as warpSize
// decides how a row is split and how many shuffle steps combine it. Integer sums are exact, so
// every step must match the reference bit for bit, whatever order it adds in.
// The launchers live in cuda/warp_sum.cu and hip/warp_sum.hip (same names, same order) and the
// exercise in exercises/cuda|hip/warp_shuffle.*; each enqueues on the default stream and checks the
// launch. Kernel files include this header, so it stays C++17.
namespace tutor::b01 {

/// sums[r] = m[r * cols + 0] + ... + m[r * cols + cols - 1] for r < rows; device pointers; rows,
/// cols >= 1; |m| <= 1000 and cols <= 2^20 keep every sum inside int32.
using RowSumLauncher = void (*)(const int* m, int* sums, int rows, int cols);

/// Threads per block of every step (a multiple of 32 and 64: whole warps and wavefronts).
inline constexpr int kRowSumBlockThreads = 256;

void launch_thread_per_row(const int* m, int* sums, int rows, int cols);
void launch_warp_per_row(const int* m, int* sums, int rows, int cols);

/// The learner's exercise (exercises/, --variant exercise_warp_sum): a warp per row with shuffles.
void launch_exercise_warp_sum(const int* m, int* sums, int rows, int cols);

}  // namespace tutor::b01
