// A02 exercise 1, transpose_tile: the worked solution (HIP; CUDA twin:
// ../cuda/transpose_tile.cu). Build with -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the
// lab's exercise step.
//
// One 32x32 block per 32x32 tile. The read is coalesced (a warp reads 32 neighbours of an
// input row), the tile goes through shared memory, and the write is coalesced too (a warp
// writes 32 neighbours of an output row, which is a column of the tile). The column read of
// the tile would hit one bank 32 times with a [32][32] array: element (i, j) sits in bank
// (32 i + j) mod 32 = j. One float of padding per row puts it in bank (33 i + j) mod 32 =
// (i + j) mod 32, so a column's 32 elements fall in 32 different banks.
//
// On AMD a 64-lane wavefront spans two rows of the 32-wide tile (still 128 B per row, coalesced),
// and each half-wavefront of the column read sees a warp's pattern over the LDS's 32 banks, so the
// [32][33] pad removes the conflict the same way (README section 3).
#include "tutor_gpu_check.hpp"
#include "transpose.hpp"

namespace tutor::a02 {

namespace {
constexpr int kExerciseTile = 32;
}

__global__ void transpose_exercise_tile(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kExerciseTile][kExerciseTile + 1];  // +1: no bank conflict on the column read
  const int c = blockIdx.x * kExerciseTile + threadIdx.x;
  const int r = blockIdx.y * kExerciseTile + threadIdx.y;
  if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[size_t(r) * cols + c];
  __syncthreads();  // every thread's element is in the tile before any is read back
  // The block's tile lands at rows blockIdx.x * 32.. and columns blockIdx.y * 32.. of out.
  const int out_c = blockIdx.y * kExerciseTile + threadIdx.x;
  const int out_r = blockIdx.x * kExerciseTile + threadIdx.y;
  if (out_r < cols && out_c < rows) out[size_t(out_r) * rows + out_c] = tile[threadIdx.x][threadIdx.y];
}

void launch_exercise_tile(const float* in, float* out, int rows, int cols) {
  const dim3 block(kExerciseTile, kExerciseTile);
  const dim3 grid((cols + kExerciseTile - 1) / kExerciseTile, (rows + kExerciseTile - 1) / kExerciseTile);
  transpose_exercise_tile<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_exercise_tile);
}

}  // namespace tutor::a02
