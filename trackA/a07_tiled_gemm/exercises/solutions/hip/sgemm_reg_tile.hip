// A07 exercise 2, sgemm_reg_tile: the worked solution (HIP; CUDA twin:
// ../cuda/sgemm_reg_tile.cu). Build with -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the lab's
// exercise_reg_tile step.
//
// Per k, a thread loads 8 values of A and 8 of B from shared memory into registers and does
// the 64 multiply-adds of their outer product: 16 shared loads for 64 FMAs, 0.25 per FMA,
// where the shared-memory tile of exercise 1 needs 2. The price is registers: 64 accumulators
// and 16 fragment values per thread, so fewer threads fit on a multiprocessor.
#include "sgemm.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a07 {

namespace {
// Block tile BM x BN of C, BK columns of A and rows of B per step, TM x TN outputs per thread.
constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, kThreads = BM * BN / (TM * TN);  // 256

// C[row][col] = alpha * acc + beta * C[row][col]; C is not read when beta == 0 (BLAS rule).
__device__ __forceinline__ void store_c(const GemmArgs& p, int row, int col, float acc) {
  if (row >= p.m || col >= p.n) return;
  float* c = p.c + size_t(row) * p.n + col;
  *c = p.beta == 0.0f ? p.alpha * acc : p.alpha * acc + p.beta * *c;
}

// The register level, once per staged pair of tiles: this thread's TM x TN outputs (rows
// trow * TM.., columns tcol * TN.. of the block's tile) accumulate the BK outer products.
__device__ __forceinline__ void accumulate_tiles(const float (&as)[BM][BK], const float (&bs)[BK][BN], int trow,
                                                 int tcol, float (&acc)[TM][TN]) {
  float ra[TM], rb[TN];
#pragma unroll
  for (int i = 0; i < BK; ++i) {
#pragma unroll
    for (int t = 0; t < TM; ++t) ra[t] = as[trow * TM + t][i];  // this thread's 8 rows of A, column i
#pragma unroll
    for (int t = 0; t < TN; ++t) rb[t] = bs[i][tcol * TN + t];  // this thread's 8 columns of B, row i
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
      for (int n = 0; n < TN; ++n) acc[m][n] += ra[m] * rb[n];  // the outer product: 64 FMAs
  }
}
}  // namespace

__global__ void __launch_bounds__(kThreads) sgemm_exercise_reg_tile(GemmArgs p) {
  __shared__ float as[BM][BK], bs[BK][BN];
  const int tid = threadIdx.x;
  const int trow = tid / (BN / TN), tcol = tid % (BN / TN);  // 16 x 16 threads
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int k0 = 0; k0 < p.k; k0 += BK) {
#pragma unroll
    for (int i = 0; i < BM * BK / kThreads; ++i) {  // 4 elements of each tile per thread, 0 outside
      const int idx = tid + i * kThreads;
      const int ar = block_row + idx / BK, ak = k0 + idx % BK;
      as[idx / BK][idx % BK] = (ar < p.m && ak < p.k) ? p.a[size_t(ar) * p.k + ak] : 0.f;
      const int bk = k0 + idx / BN, bc = block_col + idx % BN;
      bs[idx / BN][idx % BN] = (bk < p.k && bc < p.n) ? p.b[size_t(bk) * p.n + bc] : 0.f;
    }
    __syncthreads();
    accumulate_tiles(as, bs, trow, tcol, acc);
    __syncthreads();  // the next iteration overwrites the tiles
  }
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) store_c(p, block_row + trow * TM + m, block_col + tcol * TN + n, acc[m][n]);
}

void launch_exercise_reg_tile(const GemmArgs& p) {
  const dim3 grid((p.n + BN - 1) / BN, (p.m + BM - 1) / BM);
  sgemm_exercise_reg_tile<<<grid, kThreads>>>(p);
  TUTOR_GPU_CHECK_LAUNCH(sgemm_exercise_reg_tile);
}

}  // namespace tutor::a07
