// B03 exercise 4, fix_4: the worked solution (CUDA; HIP twin: ../hip/fix_4.hip). Build with
// -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the lab's fix_4 row.
//
// In mystery_4 a warp is one row r of the block and its 32 lanes are c = 0..31. Each step k reads
// group[r][k] (one word for the whole warp: a broadcast, one pass) and group[c][k]: 32 words 32
// floats apart. Shared memory has 32 banks of 4 bytes, word w in bank w mod 32, so word 32c + k
// is in bank k for every c: all 32 lanes hit one bank, and the load is served in 32 passes
// instead of one (a 32-way bank conflict; the answer key: ./mystery_4.md). One float of padding
// per row puts element (c, k) at word 33c + k, in bank (c + k) mod 32: 32 lanes, 32 banks, one
// pass. Nothing else changes. (Keeping a few rows in registers and reusing them across c would cut
// the shared-memory loads further: the register tiling of A07.)
#include "mystery.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b03 {

// ---- Step 0: fix_4 ---------------------------------------------------------------------------
__global__ void fix_4_group_scores(const float* x, float* g, int rows) {
  __shared__ float group[kGroup][kGroup + 1];  // +1: row c starts one bank later than row c - 1
  const int r = threadIdx.y, c = threadIdx.x;
  const int first = blockIdx.x * kGroup;
  group[r][c] = first + r < rows ? x[std::size_t(first + r) * kGroup + c] : 0.0f;
  __syncthreads();
  float score = 0.0f;
#pragma unroll
  for (int k = 0; k < kGroup; ++k) score = fmaf(group[r][k], group[c][k], score);
  if (first + r < rows) g[std::size_t(first + r) * kGroup + c] = score;
}

void launch_fix_4(const float* x, float* g, int rows) {
  const unsigned groups = static_cast<unsigned>(rows / kGroup + (rows % kGroup != 0));
  fix_4_group_scores<<<groups, dim3(kGroup, kGroup)>>>(x, g, rows);
  TUTOR_GPU_CHECK_LAUNCH(fix_4_group_scores);
}

}  // namespace tutor::b03
