// B03 exercise 3, fix_3 (HIP; CUDA twin: ../cuda/fix_3.cu).
//
// First diagnose mystery_3 (exercises/README.md: name what limits it, prove it with two
// counters). Then write a kernel that computes the same sums without that limit, and run
//   ./build-hip/b03_mystery --kernel 3 --exercise 3
// The lab verifies it at 1x1, 3x1000, 7x33333 and the timed 64x2097152 on fresh random inputs,
// and times it beside mystery_3; until the TODO is done it fails verification: the output keeps
// its NaN poison ("nothing written").
//
// What to compute: sums[r] = a[r * cols + 0] + ... + a[r * cols + cols - 1] for every r < rows.
// Any order of additions is fine (the tolerance is that of a sum of cols terms), and everything
// in this file is yours to change, the launch included. The worked solution, to read after your
// own attempt: ../solutions/hip/fix_3.hip.
#include "mystery.hpp"
#include "tutor/device/block_reduce.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b03 {

namespace {
constexpr int kFixThreads = 256;
}

// ---- Step 0: fix_3 ---------------------------------------------------------------------------
__global__ void fix_3_row_sums(const float* a, float* sums, int rows, int cols) {
  // TODO: sums[r] = a[r * cols + 0] + ... + a[r * cols + cols - 1] for every r < rows.
  (void)a; (void)sums; (void)rows; (void)cols;
}

void launch_fix_3(const float* a, float* sums, int rows, int cols) {
  fix_3_row_sums<<<rows, kFixThreads>>>(a, sums, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(fix_3_row_sums);
}

}  // namespace tutor::b03
