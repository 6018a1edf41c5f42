// B03 exercise 5, fix_5 (CUDA; HIP twin: ../hip/fix_5.hip).
//
// First diagnose mystery_5 (exercises/README.md: name what limits it, prove it with two
// counters). Then write a kernel that computes the same output without that limit, and run
//   ./build/b03_mystery --kernel 5 --exercise 5
// The lab verifies it at (B, S, H, D) = (1, 1, 1, 1), (2, 3, 5, 7), (3, 17, 4, 33) and the timed
// (4, 1021, 32, 128) on fresh random inputs, and times it beside mystery_5; until the TODO is
// done it fails verification: the output keeps its NaN poison ("nothing written").
//
// What to compute: the TODO below (out = a x + b, x read through a StridedView). Keep the kernel
// correct for any StridedView (mystery.hpp), not only for the QKV split the lab times. The worked
// solution, to read after your own attempt: ../solutions/cuda/fix_5.cu.
#include "mystery.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b03 {

namespace {
constexpr int kFixThreads = 256;
}

// ---- Step 0: fix_5 ---------------------------------------------------------------------------
__global__ void fix_5_strided_affine(const float* x, float* out, StridedView view, std::int64_t n, float a, float b) {
  // TODO: out[i] = a * x[offset(i)] + b for every i < n, where offset(i) = sum over d of
  // coordinate_d(i) * view.stride[d], coordinate_d(i) being i's coordinate along the output's
  // dimension d (sizes view.size[], the last dimension fastest).
  (void)x; (void)out; (void)view; (void)n; (void)a; (void)b;
}

void launch_fix_5(const float* x, float* out, const StridedView& view, float a, float b) {
  std::int64_t n = 1;
  for (int d = 0; d < kViewDims; ++d) n *= view.size[d];
  const unsigned blocks = static_cast<unsigned>(n / kFixThreads + 1 < 65536 ? n / kFixThreads + 1 : 65535);
  fix_5_strided_affine<<<blocks, kFixThreads>>>(x, out, view, n, a, b);
  TUTOR_GPU_CHECK_LAUNCH(fix_5_strided_affine);
}

}  // namespace tutor::b03
