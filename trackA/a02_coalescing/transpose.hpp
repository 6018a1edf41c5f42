#pragma once
// A02 Memory coalescing: the transpose ladder's interface (host-only types).
//
// Every step computes out = in^T for a row-major fp32 matrix `in` of rows x cols, writing
// the row-major cols x rows matrix `out` (out[c * rows + r] = in[r * cols + c]), for any
// rows, cols >= 1. The launchers live in cuda/transpose.cu and hip/transpose.hip (same
// names, same order); each enqueues its kernel on the default stream and checks the launch.
// Kernel files include this header, so it stays C++17 (GPU sources compile as C++17).
namespace tutor::a02 {

/// The signature every step's launcher shares. `in` and `out` are device pointers from
/// cudaMalloc / hipMalloc (256-byte aligned), holding rows*cols floats each.
using TransposeLauncher = void (*)(const float* in, float* out, int rows, int cols);

void launch_naive_row(const float* in, float* out, int rows, int cols);
void launch_naive_col(const float* in, float* out, int rows, int cols);
void launch_tile32(const float* in, float* out, int rows, int cols);
void launch_padded32(const float* in, float* out, int rows, int cols);
void launch_padded32_ilp4(const float* in, float* out, int rows, int cols);
void launch_tile64_vec4(const float* in, float* out, int rows, int cols);

/// The learner's exercises (exercises/cuda|hip/, worked solutions in exercises/solutions/):
/// TODO kernels the driver runs only when named (--variant exercise, exercise_ilp4).
void launch_exercise_tile(const float* in, float* out, int rows, int cols);
void launch_exercise_ilp4(const float* in, float* out, int rows, int cols);

}  // namespace tutor::a02
