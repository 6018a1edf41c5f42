// B03 exercise 4, fix_4 (HIP; CUDA twin: ../cuda/fix_4.cu).
//
// First diagnose mystery_4 (exercises/README.md: name what limits it, prove it with two
// counters). Then write a kernel that computes the same scores without that limit, and run
//   ./build-hip/b03_mystery --kernel 4 --exercise 4
// The lab verifies it at 1, 33, 1000 and the timed 1048589 rows on fresh random inputs (whole
// groups on a sample, every element for range), and times it beside mystery_4; until the TODO
// is done it fails verification: the output keeps its NaN poison ("nothing written").
//
// What to compute: the TODO below (each row's dot product with every row of its group of kGroup).
// Mind the short last group (rows is not a multiple of kGroup). The worked solution, to read
// after your own attempt: ../solutions/hip/fix_4.hip.
#include "mystery.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b03 {

// ---- Step 0: fix_4 ---------------------------------------------------------------------------
__global__ void fix_4_group_scores(const float* x, float* g, int rows) {
  // TODO: g[r * kGroup + c] = dot(x[r], x[kGroup * (r / kGroup) + c]) for every r < rows and
  // c < kGroup, 0 where row kGroup * (r / kGroup) + c does not exist.
  (void)x; (void)g; (void)rows;
}

void launch_fix_4(const float* x, float* g, int rows) {
  const unsigned groups = static_cast<unsigned>(rows / kGroup + (rows % kGroup != 0));
  fix_4_group_scores<<<groups, dim3(kGroup, kGroup)>>>(x, g, rows);
  TUTOR_GPU_CHECK_LAUNCH(fix_4_group_scores);
}

}  // namespace tutor::b03
