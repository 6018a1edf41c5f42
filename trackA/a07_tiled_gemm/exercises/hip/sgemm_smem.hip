// A07 exercise 1, sgemm_smem (HIP; CUDA twin: ../cuda/sgemm_smem.cu).
//
// Stage tiles of A and B in shared memory so that each float loaded from global memory is
// used 32 times, then run
//   ./build/a07_sgemm --variant exercise_smem --variant smem_tiled --no-tf32
// The lab verifies it at awkward sizes (1x1x1, thin matrices, primes, 128^3, 1000^3, and the
// timed 4096^3; beta = 0 and beta != 0) and times it beside smem_tiled (the ladder's version)
// and cuBLAS; until the TODO is done every output is alpha * 0 + beta * C, and the check says
// the accumulators stayed zero.
//
// Hints: the block is 32x32 threads and computes a 32x32 tile of C. For each k0 = 0, 32, ...:
// every thread loads one element of the A tile (rows of C's tile, columns k0..k0+31) and one
// of the B tile into __shared__ arrays, zero outside the matrices (m, n, k are not multiples
// of 32); __syncthreads(); 32 multiply-adds from shared memory; __syncthreads() again before
// the next iteration overwrites the tiles. Worked solution: ../solutions/hip/sgemm_smem.hip.
#include "sgemm.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a07 {

namespace {
constexpr int kT = 32;  // tile edge: a 32x32 block computes a 32x32 tile of C

// C[row][col] = alpha * acc + beta * C[row][col]; C is not read when beta == 0 (BLAS rule).
__device__ __forceinline__ void store_c(const GemmArgs& p, int row, int col, float acc) {
  if (row >= p.m || col >= p.n) return;
  float* c = p.c + size_t(row) * p.n + col;
  *c = p.beta == 0.0f ? p.alpha * acc : p.alpha * acc + p.beta * *c;
}
}  // namespace

__global__ void sgemm_exercise_smem(GemmArgs p) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kT + ty, col = blockIdx.x * kT + tx;  // this thread's element of C
  float acc = 0.f;
  for (int k0 = 0; k0 < p.k; k0 += kT) {
    // TODO: load A[row][k0 + tx] and B[k0 + ty][col] (0 outside the matrices) into shared
    // tiles, synchronise, accumulate acc += A_tile[ty][i] * B_tile[i][tx] for i < 32, and
    // synchronise again.
  }
  store_c(p, row, col, acc);
}

void launch_exercise_smem(const GemmArgs& p) {
  const dim3 block(kT, kT), grid((p.n + kT - 1) / kT, (p.m + kT - 1) / kT);
  sgemm_exercise_smem<<<grid, block>>>(p);
  TUTOR_GPU_CHECK_LAUNCH(sgemm_exercise_smem);
}

}  // namespace tutor::a07
