// A07 exercise 2, sgemm_reg_tile (CUDA; HIP twin: ../hip/sgemm_reg_tile.hip).
//
// A register-tiled GEMM from a skeleton: a 128x128 tile of C per block of 256 threads, each
// thread computing an 8x8 block of it. The skeleton stages the A and B tiles in shared memory
// and writes C; you write the register level, accumulate_tiles: per k, load 8 values of A and
// 8 of B from shared memory into registers and do the 64 multiply-adds of their outer product.
// Run
//   ./build/a07_sgemm --variant exercise_reg_tile --variant reg_tile_2d --no-tf32
// The lab verifies it at awkward sizes and times it beside reg_tile_2d (the ladder's version)
// and cuBLAS; until the TODO is done every output is alpha * 0 + beta * C, and the check says
// the accumulators stayed zero.
//
// Hints: thread (trow, tcol) owns rows trow*8 .. trow*8+7 and columns tcol*8 .. tcol*8+7 of
// the block's tile. Per i < BK: ra[t] = as[trow * TM + t][i], rb[t] = bs[i][tcol * TN + t],
// then acc[m][n] += ra[m] * rb[n]. Count the shared loads per multiply-add before and after
// (README section 2). Worked solution: ../solutions/cuda/sgemm_reg_tile.cu.
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
  // TODO: for each i < BK, load ra[0..TM) from column i of `as` (this thread's rows) and
  // rb[0..TN) from row i of `bs` (this thread's columns) into registers, then
  // acc[m][n] += ra[m] * rb[n] for all m < TM, n < TN.
  (void)as; (void)bs; (void)trow; (void)tcol; (void)acc;
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
    accumulate_tiles(as, bs, trow, tcol, acc);  // TODO: write it (above)
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
