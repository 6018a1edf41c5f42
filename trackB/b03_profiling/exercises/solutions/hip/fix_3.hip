// B03 exercise 3, fix_3: the worked solution (HIP; CUDA twin: ../cuda/fix_3.cu). Build with
// -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the lab's fix_3 row.
//
// mystery_3 launches one block per row: 64 blocks of 8 warps for a GPU of 132 SMs that can each
// hold 64 warps, every thread with one 4-byte load in flight at a time. Little's law says HBM
// needs (bandwidth x latency) bytes in flight to stream; mystery_3 has a few percent of that, so
// its warps spend their time waiting for loads (the answer key: ./mystery_3.md). The fix gives
// the GPU enough independent work: each row is split into chunks of kChunk elements, one block per
// chunk (thousands of blocks, every SM full), each thread keeps four loads in flight, and each
// block adds its partial sum into the row's total with one atomic add. A first small kernel
// zeroes the totals; the order of the additions changes, which the tolerance of a sum allows.
#include "mystery.hpp"
#include "tutor/device/block_reduce.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b03 {

namespace {
constexpr int kFixThreads = 256;
constexpr int kChunk = 16 * kFixThreads * 4;  // elements of a row per block: 16 steps of 4 loads per thread
constexpr int kMaxGridY = 65535;              // the largest gridDim.y; more rows are walked in a loop
}

__global__ void fix_3_zero(float* sums, int rows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) sums[r] = 0.0f;
}

// ---- Step 0: fix_3 ---------------------------------------------------------------------------
__global__ void fix_3_row_sums(const float* a, float* sums, int rows, int cols) {
  __shared__ float partials[device::kMaxWarpsPerBlock];
  const int begin = blockIdx.x * kChunk;
  const int end = cols - begin < kChunk ? cols : begin + kChunk;
  for (int r = blockIdx.y; r < rows; r += gridDim.y) {
    const float* row = a + std::size_t(r) * cols;
    // Four independent accumulators: four loads in flight per thread, coalesced across the warp.
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    int c = begin + threadIdx.x;
    for (; c + 3 * kFixThreads < end; c += 4 * kFixThreads) {
      s0 += row[c];
      s1 += row[c + kFixThreads];
      s2 += row[c + 2 * kFixThreads];
      s3 += row[c + 3 * kFixThreads];
    }
    for (; c < end; c += kFixThreads) s0 += row[c];
    const float sum = device::block_reduce_sum((s0 + s1) + (s2 + s3), partials);
    if (threadIdx.x == 0) atomicAdd(&sums[r], sum);
  }
}

void launch_fix_3(const float* a, float* sums, int rows, int cols) {
  fix_3_zero<<<static_cast<unsigned>(rows / kFixThreads + 1), kFixThreads>>>(sums, rows);
  TUTOR_GPU_CHECK_LAUNCH(fix_3_zero);
  const dim3 grid(static_cast<unsigned>(cols / kChunk + (cols % kChunk != 0)),
                  static_cast<unsigned>(rows < kMaxGridY ? rows : kMaxGridY));
  fix_3_row_sums<<<grid, kFixThreads>>>(a, sums, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(fix_3_row_sums);
}

}  // namespace tutor::b03
