// A02 exercise 1, transpose_tile (HIP; CUDA twin: ../cuda/transpose_tile.cu).
//
// Write a shared-memory tiled transpose without bank conflicts, then run
//   ./build/a02_transpose --variant exercise --variant padded32
// The lab verifies it at 1x1, 31x33, 1028x516, 4099x3001 and 16384x16384 on fresh random
// inputs, and times it beside padded32 (the ladder's worked version of the same idea); until
// the TODO is done it fails verification: the output keeps its NaN poison ("nothing written").
//
// Hints: read a 32x32 tile with coalesced loads into __shared__ memory (LDS), __syncthreads(),
// then write the tile's columns as output rows, again coalesced. Guard every access with the
// matrix bounds (the sizes are not multiples of 32). Why does a [32][32] tile run at half the
// speed of a [32][33] one? The worked solution: ../solutions/hip/transpose_tile.hip.
#include "tutor_gpu_check.hpp"
#include "transpose.hpp"

namespace tutor::a02 {

namespace {
constexpr int kExerciseTile = 32;
}

__global__ void transpose_exercise_tile(const float* in, float* out, int rows, int cols) {
  // TODO: stage a tile in shared memory and write it out transposed:
  //   out[c * rows + r] = in[r * cols + c]   for every r < rows, c < cols
  (void)in; (void)out; (void)rows; (void)cols;
}

void launch_exercise_tile(const float* in, float* out, int rows, int cols) {
  const dim3 block(kExerciseTile, kExerciseTile);
  const dim3 grid((cols + kExerciseTile - 1) / kExerciseTile, (rows + kExerciseTile - 1) / kExerciseTile);
  transpose_exercise_tile<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_exercise_tile);
}

}  // namespace tutor::a02
