// A02 exercise 2, transpose_ilp4 (CUDA; HIP twin: ../hip/transpose_ilp4.hip).
//
// The same padded 32x32 tile as exercise 1, moved by a quarter of the threads: the launcher
// below starts 32x8 threads per tile, so each thread must load 4 elements and store 4. Run
//   ./build/a02_transpose --variant exercise_ilp4 --variant padded32 --variant padded32_ilp4
// The lab verifies it on the same shapes as every step (1x1, 31x33, 1028x516, 4099x3001,
// 16384x16384) and times it beside padded32 (one element per thread) and padded32_ilp4 (the
// ladder's version of this idea); until the TODO is done the output keeps its NaN poison.
//
// Hints: thread (x, y) owns tile rows y, y + 8, y + 16, y + 24 of column x. Issue the 4 loads
// before anything waits on them (a loop the compiler unrolls), so they are in flight together:
// Little's law (README section 2.6) says how many bytes must be in flight to reach the copy
// bandwidth. Guard each of the 4 rows with the bounds, as the sizes are not multiples of 32.
// The worked solution: ../solutions/cuda/transpose_ilp4.cu.
#include "tutor_gpu_check.hpp"
#include "transpose.hpp"

namespace tutor::a02 {

namespace {
constexpr int kIlpTile = 32;
constexpr int kIlpRows = 8;  // threads per tile column: each moves kIlpTile / kIlpRows = 4 elements
}

__global__ void transpose_exercise_ilp4(const float* in, float* out, int rows, int cols) {
  // TODO: a padded [32][33] shared tile; each thread loads tile rows threadIdx.y + k for
  // k = 0, 8, 16, 24, then after a barrier stores 4 output rows, all bounds-checked:
  //   out[c * rows + r] = in[r * cols + c]   for every r < rows, c < cols
  (void)in; (void)out; (void)rows; (void)cols;
}

void launch_exercise_ilp4(const float* in, float* out, int rows, int cols) {
  const dim3 block(kIlpTile, kIlpRows);
  const dim3 grid((cols + kIlpTile - 1) / kIlpTile, (rows + kIlpTile - 1) / kIlpTile);
  transpose_exercise_ilp4<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_exercise_ilp4);
}

}  // namespace tutor::a02
