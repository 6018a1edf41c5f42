// B01 warp-sum lab, AMD (HIP). CUDA twin: ../cuda/warp_sum.cu.
//
// Row sums two ways. A thread per row walks its row alone: neighbouring lanes read addresses a
// whole row apart, so each load instruction of a warp touches as many memory segments as it has
// lanes. A warp per row lets the lanes read consecutive elements (one segment per load), then
// combines the lanes' partial sums with register shuffles in log2(lanes) steps, no shared memory.
#include "tutor/device/warp_reduce.hpp"
#include "tutor_gpu_check.hpp"
#include "warp_sum.hpp"

namespace tutor::b01 {

namespace {
// Lanes per warp from the runtime: host code cannot use the device's compile-time lane count.
int warp_lanes() {
  int device = 0, lanes = 0;
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&lanes, hipDeviceAttributeWarpSize, device));
  return lanes;
}
}  // namespace

// ---- Step 1: thread_per_row ----------------------------------------------------------------
// One thread per row: rows / 256 blocks, each lane strided a row apart from its neighbour.
__global__ void row_sum_thread(const int* m, int* sums, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const int* r = m + std::size_t(row) * cols;
  int sum = 0;
  for (int c = 0; c < cols; ++c) sum += r[c];
  sums[row] = sum;
}
void launch_thread_per_row(const int* m, int* sums, int rows, int cols) {
  row_sum_thread<<<(rows + kRowSumBlockThreads - 1) / kRowSumBlockThreads, kRowSumBlockThreads>>>(m, sums, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(row_sum_thread);
}

// ---- Step 2: warp_per_row ------------------------------------------------------------------
// One warp per row: lanes stride by the lane count (coalesced), then the butterfly of
// tutor/device/warp_reduce.hpp folds the lanes' sums; lane 0 writes.
__global__ void row_sum_warp(const int* m, int* sums, int rows, int cols) {
  const int lanes = device::kWarpLanes;
  const int row = blockIdx.x * (blockDim.x / lanes) + threadIdx.x / lanes;
  const int lane = threadIdx.x % lanes;
  if (row >= rows) return;  // the whole warp leaves together: its lanes share the row
  const int* r = m + std::size_t(row) * cols;
  int sum = 0;
  for (int c = lane; c < cols; c += lanes) sum += r[c];
  sum = device::warp_reduce_sum(sum);
  if (lane == 0) sums[row] = sum;
}
void launch_warp_per_row(const int* m, int* sums, int rows, int cols) {
  const int rows_per_block = kRowSumBlockThreads / warp_lanes();
  row_sum_warp<<<(rows + rows_per_block - 1) / rows_per_block, kRowSumBlockThreads>>>(m, sums, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(row_sum_warp);
}

}  // namespace tutor::b01
