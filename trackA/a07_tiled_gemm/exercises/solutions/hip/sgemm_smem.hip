// A07 exercise 1, sgemm_smem: the worked solution (HIP; CUDA twin: ../cuda/sgemm_smem.cu).
// Build with -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the lab's exercise_smem step.
//
// Each block stages a 32x32 tile of A and one of B in shared memory per step of k, so a float
// loaded from global memory serves 32 multiply-adds: global traffic drops 32x against the
// coalesced kernel. Each multiply-add still reads two floats from shared memory (one a
// broadcast), so the shared-memory pipe is the next limit (the register tiles of exercise 2).
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
  __shared__ float as[kT][kT], bs[kT][kT];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kT + ty, col = blockIdx.x * kT + tx;  // this thread's element of C
  float acc = 0.f;
  for (int k0 = 0; k0 < p.k; k0 += kT) {
    // Consecutive threads (tx) load consecutive columns of A's and B's rows: both coalesced.
    as[ty][tx] = (row < p.m && k0 + tx < p.k) ? p.a[size_t(row) * p.k + k0 + tx] : 0.f;
    bs[ty][tx] = (k0 + ty < p.k && col < p.n) ? p.b[size_t(k0 + ty) * p.n + col] : 0.f;
    __syncthreads();  // the whole tile is loaded before anyone reads it
#pragma unroll
    for (int i = 0; i < kT; ++i) acc += as[ty][i] * bs[i][tx];
    __syncthreads();  // everyone is done with the tile before the next iteration overwrites it
  }
  store_c(p, row, col, acc);
}

void launch_exercise_smem(const GemmArgs& p) {
  const dim3 block(kT, kT), grid((p.n + kT - 1) / kT, (p.m + kT - 1) / kT);
  sgemm_exercise_smem<<<grid, block>>>(p);
  TUTOR_GPU_CHECK_LAUNCH(sgemm_exercise_smem);
}

}  // namespace tutor::a07
