// A02 exercise (CUDA; HIP twin: ../hip/transpose_exercise.hip).
//
// Write a shared-memory tiled transpose that avoids bank conflicts, then run
//   ./build/a02_transpose --variant exercise
// The lab verifies it at 1x1, 31x33, 4099x3001 and 16384x16384 and times it like every
// step; until the TODO is done it fails verification (the output keeps its poison).
//
// Hints: read a 32x32 tile with coalesced loads into __shared__ memory, __syncthreads(),
// then write the tile's columns as output rows. Guard every access with the matrix bounds
// (the sizes are not multiples of 32). Why does a [32][32] tile run at half the speed of a
// [32][33] one? The worked solution is the ladder's step padded32 in ../../cuda/transpose.cu.
#include "tutor_gpu_check.hpp"
#include "transpose.hpp"

namespace tutor::a02 {

namespace {
constexpr int kExerciseTile = 32;
}

__global__ void transpose_exercise(const float* in, float* out, int rows, int cols) {
  // TODO: stage a tile in shared memory and write it out transposed:
  //   out[c * rows + r] = in[r * cols + c]   for every r < rows, c < cols
  (void)in; (void)out; (void)rows; (void)cols;
}

void launch_exercise(const float* in, float* out, int rows, int cols) {
  const dim3 block(kExerciseTile, kExerciseTile);
  const dim3 grid((cols + kExerciseTile - 1) / kExerciseTile, (rows + kExerciseTile - 1) / kExerciseTile);
  transpose_exercise<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_exercise);
}

}  // namespace tutor::a02
