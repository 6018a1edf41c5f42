// B01 exercise 2, warp_shuffle: the worked solution (HIP; CUDA twin: ../cuda/warp_shuffle.cu).
//
// warpSize lanes per row: the row's elements are read coalesced, lane l summing columns l,
// l + warpSize, ...; then a shuffle tree halves the active distance each step (log2(warpSize)
// steps: 5 on NVIDIA, 6 on a 64-lane wavefront) and lane 0 holds the row's sum. The whole warp
// leaves together when its row is past the end, so every shuffle has all its lanes.
#include "tutor_gpu_check.hpp"
#include "warp_sum.hpp"

namespace tutor::b01 {

__global__ void warp_sum_exercise(const int* m, int* sums, int rows, int cols) {
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  const int lane = threadIdx.x % warpSize;
  if (row >= rows) return;
  const int* r = m + std::size_t(row) * cols;
  int sum = 0;
  for (int c = lane; c < cols; c += warpSize) sum += r[c];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_down(sum, offset);
  if (lane == 0) sums[row] = sum;
}

void launch_exercise_warp_sum(const int* m, int* sums, int rows, int cols) {
  int device = 0, lanes = 0;
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&lanes, hipDeviceAttributeWarpSize, device));
  const int rows_per_block = kRowSumBlockThreads / lanes;  // one warp per row
  warp_sum_exercise<<<(rows + rows_per_block - 1) / rows_per_block, kRowSumBlockThreads>>>(m, sums, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(warp_sum_exercise);
}

}  // namespace tutor::b01
