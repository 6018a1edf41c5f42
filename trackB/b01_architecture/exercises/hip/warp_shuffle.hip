// B01 exercise 2, warp_shuffle (HIP; CUDA twin: ../cuda/warp_shuffle.cu).
//
// A warp per row. The lanes of one warp read consecutive elements of the row (lane l takes
// columns l, l + warpSize, ...), then combine their partial sums with register shuffles; lane 0
// writes the row's sum. The lane count is the device's: 32 on NVIDIA, 64 on AMD's CDNA
// (b01_device_info prints it as warp size). Then run
//   ./build/b01_warp_sum --variant exercise_warp_sum --variant warp_per_row
// The lab verifies your sums exactly at 1x1, 3x31, 33x1000, 1000x33, 7x100003 and 32768x4096
// (poisoned output, fresh random input) and times them beside warp_per_row. Until the TODO is done
// it fails verification: the output keeps its poison.
//
// Hints: __shfl_down(v, offset) gives lane l the v of lane l + offset (ROCm 5.2 has no _sync
// forms: a wavefront's lanes execute together); halving
// offset from warpSize / 2 to 1 leaves the total in lane 0. Every lane of the warp must take part
// in every shuffle: leave early only as a whole warp (all lanes of a warp share its row).
// The worked solution: ../solutions/hip/warp_shuffle.hip.
#include "tutor_gpu_check.hpp"
#include "warp_sum.hpp"

namespace tutor::b01 {

__global__ void warp_sum_exercise(const int* m, int* sums, int rows, int cols) {
  // TODO: row = this warp's row, lane = this thread's lane; sum the lane's columns, then combine
  // the warp's lanes with shuffles; lane 0 writes sums[row].
  (void)m; (void)sums; (void)rows; (void)cols;
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
