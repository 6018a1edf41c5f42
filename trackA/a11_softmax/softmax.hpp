#pragma once
// A11 Softmax: the row-softmax ladder's interface (host-only types).
//
// Every step computes, for each row r of a row-major [rows x cols] matrix,
//   out[r][j] = exp(in[r][j] - m_r) / sum_k exp(in[r][k] - m_r),   m_r = max_k in[r][k]
// (subtracting the row maximum keeps exp() <= 1 and changes nothing exactly: Goodfellow, Bengio
// and Courville, Deep Learning, sec. 4.1), in fp32 arithmetic, reading and writing fp32 or bf16.
// A row whose maximum is -infinity (every element masked) has no finite sum: its outputs are
// NaN, as torch.softmax gives (0 / 0). The launchers live in cuda/softmax.cu and hip/softmax.hip
// (same names, same order). Kernel files include this header, so it stays C++17.
#include <cstddef>

namespace tutor::a11 {

/// One launch's operands (device pointers from cudaMalloc / hipMalloc, 256-byte aligned). The
/// rows are contiguous: row r starts at element r * cols, so a row is 16-byte aligned only when
/// cols is a multiple of the vector width (4 fp32, 8 bf16); other rows take the element path.
struct SoftmaxArgs {
  const void* in = nullptr;   ///< rows x cols, fp32 or bf16 (its 16 bits)
  void* out = nullptr;        ///< rows x cols, the same type
  int rows = 0;               ///< >= 1
  int cols = 0;               ///< 1 .. kMaxCols
  bool bf16 = false;          ///< false: fp32
  float* row_stats = nullptr; ///< 2 x rows floats: three_pass's row maxima and sums
};

using SoftmaxLauncher = void (*)(const SoftmaxArgs&);

void launch_three_pass(const SoftmaxArgs& a);
void launch_block_fused(const SoftmaxArgs& a);
void launch_online(const SoftmaxArgs& a);
void launch_warp_row(const SoftmaxArgs& a);
void launch_vectorised(const SoftmaxArgs& a);
void launch_fast_math(const SoftmaxArgs& a);
/// The learner's exercises (exercises/cuda|hip/, worked solutions in exercises/solutions/):
/// TODO kernels the driver runs only when named (--variant exercise_online, exercise_registers).
void launch_exercise_online(const SoftmaxArgs& a);
void launch_exercise_registers(const SoftmaxArgs& a);

constexpr int kMaxCols = 262144;     ///< a 1 MiB fp32 row
constexpr int kBlockThreads = 256;   ///< threads per block of the block-per-row steps
/// The row length up to which warp_row gives each row one warp (one wavefront on AMD); longer
/// rows take one block per row, as `online` does.
constexpr int kWarpRowMaxCols = 1024;

}  // namespace tutor::a11
