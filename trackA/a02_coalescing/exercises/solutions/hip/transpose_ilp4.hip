// A02 exercise 2, transpose_ilp4: the worked solution (HIP; CUDA twin:
// ../cuda/transpose_ilp4.cu). Build with -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the
// lab's exercise_ilp4 step.
//
// 32x8 threads per 32x32 tile, 4 elements each. The 4 loads of a thread do not depend on
// each other, so the unrolled loop issues all 4 before the first is needed: 4x the bytes in
// flight per thread of the one-element kernel, and the index math and the barrier are paid
// once per 4 elements. The tile keeps its [32][33] padding (no bank conflict on the column
// read).
//
// On AMD a 64-lane wavefront spans two rows of the 32-wide tile (still 128 B per row, coalesced),
// and each half-wavefront of the column read sees a warp's pattern over the LDS's 32 banks, so the
// [32][33] pad removes the conflict the same way (README section 3).
#include "tutor_gpu_check.hpp"
#include "transpose.hpp"

namespace tutor::a02 {

namespace {
constexpr int kIlpTile = 32;
constexpr int kIlpRows = 8;  // threads per tile column: each moves kIlpTile / kIlpRows = 4 elements
}

__global__ void transpose_exercise_ilp4(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kIlpTile][kIlpTile + 1];
  const int c = blockIdx.x * kIlpTile + threadIdx.x;
  const int r0 = blockIdx.y * kIlpTile + threadIdx.y;
#pragma unroll
  for (int k = 0; k < kIlpTile; k += kIlpRows)  // 4 independent loads, in flight together
    if (r0 + k < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[size_t(r0 + k) * cols + c];
  __syncthreads();
  const int out_c = blockIdx.y * kIlpTile + threadIdx.x;
  const int out_r0 = blockIdx.x * kIlpTile + threadIdx.y;
#pragma unroll
  for (int k = 0; k < kIlpTile; k += kIlpRows)
    if (out_r0 + k < cols && out_c < rows) out[size_t(out_r0 + k) * rows + out_c] = tile[threadIdx.x][threadIdx.y + k];
}

void launch_exercise_ilp4(const float* in, float* out, int rows, int cols) {
  const dim3 block(kIlpTile, kIlpRows);
  const dim3 grid((cols + kIlpTile - 1) / kIlpTile, (rows + kIlpTile - 1) / kIlpTile);
  transpose_exercise_ilp4<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_exercise_ilp4);
}

}  // namespace tutor::a02
