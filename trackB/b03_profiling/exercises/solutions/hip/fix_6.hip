// B03 exercise 6, fix_6: the worked solution (HIP; CUDA twin: ../cuda/fix_6.cu). Build with
// -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the lab's fix_6 row.
//
// mystery_6's last tile skips the block-wide barrier: a thread reads its neighbours tile[t] and
// tile[t + 2] after a warp-level barrier only, so a neighbour written by another warp (lanes 0
// and 31 of each warp read across the boundary) may not be there yet, and the thread reads
// whatever an earlier block left in that shared memory. Whether the writer's warp got there
// first depends on scheduling, so the output is right on some runs and wrong on others;
// compute-sanitizer's racecheck reports the read-after-write hazard on every run (the answer
// key: ./mystery_6.md). One path for every tile, with the bounds checks inside it, and one
// __syncthreads() that every thread of the block reaches.
#include "mystery.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b03 {

namespace {
constexpr int kFixThreads = 256;
}

// ---- Step 0: fix_6 ---------------------------------------------------------------------------
__global__ void fix_6_smoothing(const float* x, float* y, int n) {
  __shared__ float tile[kFixThreads + 2];
  const int first = blockIdx.x * kFixThreads, t = threadIdx.x, i = first + t;
  tile[t + 1] = i < n ? x[i] : 0.0f;
  if (t == 0) tile[0] = first > 0 ? x[first - 1] : 0.0f;
  if (t == kFixThreads - 1) tile[kFixThreads + 1] = i + 1 < n ? x[i + 1] : 0.0f;
  __syncthreads();  // every element of the tile is written before any thread reads its neighbours
  if (i < n) y[i] = kSmoothW0 * tile[t] + kSmoothW1 * tile[t + 1] + kSmoothW2 * tile[t + 2];
}

void launch_fix_6(const float* x, float* y, int n) {
  fix_6_smoothing<<<static_cast<unsigned>(n / kFixThreads + (n % kFixThreads != 0)), kFixThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(fix_6_smoothing);
}

}  // namespace tutor::b03
