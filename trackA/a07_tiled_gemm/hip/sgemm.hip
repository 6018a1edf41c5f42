// A07 SGEMM ladder, AMD (HIP). CUDA twin: ../cuda/sgemm.cu, same kernels in the same
// order; lines that differ say why. C = alpha * A * B + beta * C, fp32, row-major; A is m x k, B is k x n, C is m x n.
//
// The ladder in one sentence: a GEMM does 2mnk FLOPs on (mk + kn + mn) floats, so it can
// be compute-bound, but only if each float fetched from memory is reused many times from
// somewhere faster. Each step moves the reuse one level closer to the FMA units: from DRAM
// (steps 1-2) to L1/shared memory (3) to registers (4-5), then removes what stalls the
// register-level loop (6-9). `a07_sgemm --list` prints each step's one-line change.
//
// Every kernel handles any m, n, k >= 1: loads outside the matrix read zeros, stores outside
// are skipped. Vector (float4) paths need k % 4 == 0 and n % 4 == 0 (16-byte aligned rows);
// their launchers fall back to the scalar path otherwise.
#include <hip/hip_runtime.h>

#include <type_traits>

#include "sgemm.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a07 {

namespace {
constexpr int kWarp = 64;  // lanes per wavefront on CDNA (NVIDIA: 32 threads per warp)
unsigned blocks_for(int n, int per_block) { return static_cast<unsigned>((n + per_block - 1) / per_block); }
bool vector_ok(const GemmArgs& p) { return p.k % 4 == 0 && p.n % 4 == 0; }

// C[row][col] = alpha * acc + beta * C[row][col]; C is not read when beta == 0 (BLAS rule).
__device__ __forceinline__ void store_c(const GemmArgs& p, int row, int col, float acc) {
  if (row >= p.m || col >= p.n) return;
  float* c = p.c + size_t(row) * p.n + col;
  *c = p.beta == 0.0f ? p.alpha * acc : p.alpha * acc + p.beta * *c;
}

// Four consecutive elements of row r of a row-major rows x cols matrix, from column c; zeros
// outside. The vector path is one 128-bit load (needs cols % 4 == 0 and c % 4 == 0).
template <bool Vec>
__device__ __forceinline__ float4 load4(const float* m, int rows, int cols, int r, int c) {
  if constexpr (Vec) {
    if (r < rows && c < cols) return *reinterpret_cast<const float4*>(m + size_t(r) * cols + c);
    return make_float4(0.f, 0.f, 0.f, 0.f);
  } else {
    float v[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) v[e] = (r < rows && c + e < cols) ? m[size_t(r) * cols + c + e] : 0.f;
    return make_float4(v[0], v[1], v[2], v[3]);
  }
}

// Four consecutive outputs of row r from column c, with one 128-bit store on the vector path.
template <bool Vec>
__device__ __forceinline__ void store4(const GemmArgs& p, int r, int c, float4 acc) {
  if (r >= p.m || c >= p.n) return;  // with Vec, n % 4 == 0: c < n means all four are in C
  if (!Vec) {
    store_c(p, r, c, acc.x), store_c(p, r, c + 1, acc.y), store_c(p, r, c + 2, acc.z), store_c(p, r, c + 3, acc.w);
    return;
  }
  float4* dst = reinterpret_cast<float4*>(p.c + size_t(r) * p.n + c);
  float4 out = make_float4(p.alpha * acc.x, p.alpha * acc.y, p.alpha * acc.z, p.alpha * acc.w);
  if (p.beta != 0.0f) {
    const float4 old = *dst;
    out.x += p.beta * old.x, out.y += p.beta * old.y, out.z += p.beta * old.z, out.w += p.beta * old.w;
  }
  *dst = out;
}
}  // namespace

// ---- Step 1: naive -----------------------------------------------------------------------
// One thread per output, and consecutive threads of a warp take consecutive ROWS: each
// thread walks its own row of A (32 rows per 32 lanes, k floats apart: a line per lane) and
// the stores are a column of C. Every operand comes from DRAM or L2. The baseline.
__global__ void sgemm_naive(GemmArgs p) {
  const int row = blockIdx.x * 32 + threadIdx.x;
  const int col = blockIdx.y * 32 + threadIdx.y;
  if (row >= p.m || col >= p.n) return;
  float acc = 0.f;
  for (int i = 0; i < p.k; ++i) acc += p.a[size_t(row) * p.k + i] * p.b[size_t(i) * p.n + col];
  store_c(p, row, col, acc);
}
void launch_naive(const GemmArgs& p) {
  const dim3 block(32, 32), grid(blocks_for(p.m, 32), blocks_for(p.n, 32));
  sgemm_naive<<<grid, block>>>(p);
  TUTOR_GPU_CHECK_LAUNCH(sgemm_naive);
}

// ---- Step 2: coalesced -------------------------------------------------------------------
// Swap the thread mapping: consecutive threads take consecutive COLUMNS. A wavefront now reads
// two elements of A (broadcasts) and 2 x 32 neighbours of rows of B, and stores 2 x 32
// neighbours of C. Same arithmetic, far fewer cache lines.
__global__ void sgemm_coalesced(GemmArgs p) {
  const int col = blockIdx.x * 32 + threadIdx.x;
  const int row = blockIdx.y * 32 + threadIdx.y;
  if (row >= p.m || col >= p.n) return;
  float acc = 0.f;
  for (int i = 0; i < p.k; ++i) acc += p.a[size_t(row) * p.k + i] * p.b[size_t(i) * p.n + col];
  store_c(p, row, col, acc);
}
void launch_coalesced(const GemmArgs& p) {
  const dim3 block(32, 32), grid(blocks_for(p.n, 32), blocks_for(p.m, 32));
  sgemm_coalesced<<<grid, block>>>(p);
  TUTOR_GPU_CHECK_LAUNCH(sgemm_coalesced);
}

// ---- Step 3: smem_tiled ------------------------------------------------------------------
// Stage 32x32 tiles of A and B in shared memory; each element loaded from global memory is
// then used 32 times from shared memory. Global traffic drops 32x, but every FMA still needs
// two shared-memory loads (one is a broadcast): the shared-memory pipe now limits. ~1.5-2x.
namespace smem {
constexpr int kT = 32;
}
__global__ void sgemm_smem_tiled(GemmArgs p) {
  using smem::kT;
  __shared__ float as[kT][kT], bs[kT][kT];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kT + ty, col = blockIdx.x * kT + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < p.k; k0 += kT) {
    as[ty][tx] = (row < p.m && k0 + tx < p.k) ? p.a[size_t(row) * p.k + k0 + tx] : 0.f;
    bs[ty][tx] = (k0 + ty < p.k && col < p.n) ? p.b[size_t(k0 + ty) * p.n + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kT; ++i) acc += as[ty][i] * bs[i][tx];
    __syncthreads();  // the next iteration overwrites the tiles
  }
  store_c(p, row, col, acc);
}
void launch_smem_tiled(const GemmArgs& p) {
  const dim3 block(smem::kT, smem::kT), grid(blocks_for(p.n, smem::kT), blocks_for(p.m, smem::kT));
  sgemm_smem_tiled<<<grid, block>>>(p);
  TUTOR_GPU_CHECK_LAUNCH(sgemm_smem_tiled);
}

// ---- Step 4: reg_tile_1d -----------------------------------------------------------------
// Each thread computes TM = 8 outputs of one column: the B element it loads from shared
// memory is kept in a register and used 8 times. Shared loads per FMA: 2 -> 1.125. A 64x64
// block tile with BK = 8 also halves global traffic per FMA again.
namespace r1 {
constexpr int BM = 64, BN = 64, BK = 8, TM = 8, kThreads = BM * BN / TM;  // 512
}
__global__ void __launch_bounds__(r1::kThreads) sgemm_reg_tile_1d(GemmArgs p) {
  using namespace r1;
  __shared__ float as[BM][BK], bs[BK][BN];
  const int tid = threadIdx.x;
  const int tcol = tid % BN, trow = tid / BN;  // rows trow*TM .. +TM-1 of column tcol
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int a_r = tid / BK, a_c = tid % BK;  // one element of each tile per thread
  const int b_r = tid / BN, b_c = tid % BN;
  float acc[TM] = {};
  for (int k0 = 0; k0 < p.k; k0 += BK) {
    const int ar = block_row + a_r, ak = k0 + a_c, bk = k0 + b_r, bc = block_col + b_c;
    as[a_r][a_c] = (ar < p.m && ak < p.k) ? p.a[size_t(ar) * p.k + ak] : 0.f;
    bs[b_r][b_c] = (bk < p.k && bc < p.n) ? p.b[size_t(bk) * p.n + bc] : 0.f;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < BK; ++i) {
      const float b = bs[i][tcol];
#pragma unroll
      for (int t = 0; t < TM; ++t) acc[t] += as[trow * TM + t][i] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int t = 0; t < TM; ++t) store_c(p, block_row + trow * TM + t, block_col + tcol, acc[t]);
}
void launch_reg_tile_1d(const GemmArgs& p) {
  const dim3 grid(blocks_for(p.n, r1::BN), blocks_for(p.m, r1::BM));
  sgemm_reg_tile_1d<<<grid, r1::kThreads>>>(p);
  TUTOR_GPU_CHECK_LAUNCH(sgemm_reg_tile_1d);
}

// ---- Step 5: reg_tile_2d -----------------------------------------------------------------
// Each thread computes an 8x8 block: per k it loads 8 A and 8 B values into registers and
// does 64 FMAs (an outer product), so shared loads per FMA fall to 0.25. The block tile
// grows to 128x128 (256 threads), halving global traffic per FMA again.
namespace r2 {
constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, kThreads = BM * BN / (TM * TN);  // 256
}
__global__ void __launch_bounds__(r2::kThreads) sgemm_reg_tile_2d(GemmArgs p) {
  using namespace r2;
  __shared__ float as[BM][BK], bs[BK][BN];
  const int tid = threadIdx.x;
  const int trow = tid / (BN / TN), tcol = tid % (BN / TN);  // 16 x 16 threads
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  float acc[TM][TN] = {}, ra[TM], rb[TN];
  for (int k0 = 0; k0 < p.k; k0 += BK) {
#pragma unroll
    for (int i = 0; i < BM * BK / kThreads; ++i) {  // 4 elements of each tile per thread
      const int idx = tid + i * kThreads;
      const int ar = block_row + idx / BK, ak = k0 + idx % BK;
      as[idx / BK][idx % BK] = (ar < p.m && ak < p.k) ? p.a[size_t(ar) * p.k + ak] : 0.f;
      const int bk = k0 + idx / BN, bc = block_col + idx % BN;
      bs[idx / BN][idx % BN] = (bk < p.k && bc < p.n) ? p.b[size_t(bk) * p.n + bc] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < BK; ++i) {
#pragma unroll
      for (int t = 0; t < TM; ++t) ra[t] = as[trow * TM + t][i];
#pragma unroll
      for (int t = 0; t < TN; ++t) rb[t] = bs[i][tcol * TN + t];
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) acc[m][n] += ra[m] * rb[n];
    }
    __syncthreads();
  }
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) store_c(p, block_row + trow * TM + m, block_col + tcol * TN + n, acc[m][n]);
}
void launch_reg_tile_2d(const GemmArgs& p) {
  const dim3 grid(blocks_for(p.n, r2::BN), blocks_for(p.m, r2::BM));
  sgemm_reg_tile_2d<<<grid, r2::kThreads>>>(p);
  TUTOR_GPU_CHECK_LAUNCH(sgemm_reg_tile_2d);
}

// ---- Step 6: vectorized ------------------------------------------------------------------
// 128-bit loads and stores: each thread moves float4s from global memory, and A is stored
// TRANSPOSED in shared memory (as[k][m]) so that a thread's 8 A values for one k are
// contiguous and load as two float4s, like its 8 B values. Shared-memory instructions per
// k per thread: 16 -> 4. Two 2-way bank conflicts remain (step 7).
__device__ __forceinline__ void set4(float* dst, float4 v) { *reinterpret_cast<float4*>(dst) = v; }
__device__ __forceinline__ float4 get4(const float* src) { return *reinterpret_cast<const float4*>(src); }

template <bool Vec>
__global__ void __launch_bounds__(r2::kThreads) sgemm_vectorized(GemmArgs p) {
  using namespace r2;
  __shared__ __align__(16) float as[BK][BM];  // A^T tile: row k holds column k of the A tile
  __shared__ __align__(16) float bs[BK][BN];
  const int tid = threadIdx.x;
  const int trow = tid / (BN / TN), tcol = tid % (BN / TN);
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int a_r = tid / (BK / 4), a_k = tid % (BK / 4) * 4;  // one float4 of each tile per thread
  const int b_r = tid / (BN / 4), b_c = tid % (BN / 4) * 4;
  float acc[TM][TN] = {}, ra[TM], rb[TN];
  for (int k0 = 0; k0 < p.k; k0 += BK) {
    const float4 va = load4<Vec>(p.a, p.m, p.k, block_row + a_r, k0 + a_k);
    as[a_k + 0][a_r] = va.x, as[a_k + 1][a_r] = va.y, as[a_k + 2][a_r] = va.z, as[a_k + 3][a_r] = va.w;
    set4(&bs[b_r][b_c], load4<Vec>(p.b, p.k, p.n, k0 + b_r, block_col + b_c));
    __syncthreads();
#pragma unroll
    for (int i = 0; i < BK; ++i) {
      *reinterpret_cast<float4*>(&ra[0]) = get4(&as[i][trow * TM]);
      *reinterpret_cast<float4*>(&ra[4]) = get4(&as[i][trow * TM + 4]);
      *reinterpret_cast<float4*>(&rb[0]) = get4(&bs[i][tcol * TN]);
      *reinterpret_cast<float4*>(&rb[4]) = get4(&bs[i][tcol * TN + 4]);
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) acc[m][n] += ra[m] * rb[n];
    }
    __syncthreads();
  }
#pragma unroll
  for (int m = 0; m < TM; ++m) {
    const int r = block_row + trow * TM + m, c = block_col + tcol * TN;
    store4<Vec>(p, r, c, make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]));
    store4<Vec>(p, r, c + 4, make_float4(acc[m][4], acc[m][5], acc[m][6], acc[m][7]));
  }
}
void launch_vectorized(const GemmArgs& p) {
  const dim3 grid(blocks_for(p.n, r2::BN), blocks_for(p.m, r2::BM));
  if (vector_ok(p)) {
    sgemm_vectorized<true><<<grid, r2::kThreads>>>(p);
    TUTOR_GPU_CHECK_LAUNCH((sgemm_vectorized<true>));
  } else {
    sgemm_vectorized<false><<<grid, r2::kThreads>>>(p);
    TUTOR_GPU_CHECK_LAUNCH((sgemm_vectorized<false>));
  }
}

// ---- Step 7: conflict_free ---------------------------------------------------------------
// LDS (AMD's shared memory) on CDNA2/3 has 32 banks of 4 bytes, like NVIDIA's shared
// memory, so the same analysis holds (per half-wavefront). Step 6 has two 2-way conflicts: (a) the transposed
// store as[k][m] puts the two threads that share a row m but differ in k in one bank (a row
// is 128 floats = a multiple of 32 banks); padding each row to 132 floats shifts row k by
// 4k banks and separates them. (b) a thread's 8 B values were 8 floats apart from its
// neighbour's, so 16 float4 reads touched only half the banks; here each thread takes two
// float4s 64 floats apart (columns 4t..4t+3 and 64+4t..), so neighbours read neighbouring
// float4s and a warp's read is 256 contiguous bytes. Same for A.
namespace cf {
constexpr int kPadA = 4;  // floats: keeps rows 16-byte aligned for float4 reads
}
template <bool Vec>
__global__ void __launch_bounds__(r2::kThreads) sgemm_conflict_free(GemmArgs p) {
  using namespace r2;
  __shared__ __align__(16) float as[BK][BM + cf::kPadA];
  __shared__ __align__(16) float bs[BK][BN];
  const int tid = threadIdx.x;
  const int trow = tid / (BN / TN), tcol = tid % (BN / TN);
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int a_r = tid / (BK / 4), a_k = tid % (BK / 4) * 4;
  const int b_r = tid / (BN / 4), b_c = tid % (BN / 4) * 4;
  float acc[TM][TN] = {}, ra[TM], rb[TN];
  for (int k0 = 0; k0 < p.k; k0 += BK) {
    const float4 va = load4<Vec>(p.a, p.m, p.k, block_row + a_r, k0 + a_k);
    as[a_k + 0][a_r] = va.x, as[a_k + 1][a_r] = va.y, as[a_k + 2][a_r] = va.z, as[a_k + 3][a_r] = va.w;
    set4(&bs[b_r][b_c], load4<Vec>(p.b, p.k, p.n, k0 + b_r, block_col + b_c));
    __syncthreads();
#pragma unroll
    for (int i = 0; i < BK; ++i) {
      *reinterpret_cast<float4*>(&ra[0]) = get4(&as[i][trow * 4]);
      *reinterpret_cast<float4*>(&ra[4]) = get4(&as[i][trow * 4 + BM / 2]);
      *reinterpret_cast<float4*>(&rb[0]) = get4(&bs[i][tcol * 4]);
      *reinterpret_cast<float4*>(&rb[4]) = get4(&bs[i][tcol * 4 + BN / 2]);
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) acc[m][n] += ra[m] * rb[n];
    }
    __syncthreads();
  }
#pragma unroll
  for (int m = 0; m < TM; ++m) {
    const int r = block_row + trow * 4 + (m % 4) + (m / 4) * (BM / 2);
    const int c = block_col + tcol * 4;
    store4<Vec>(p, r, c, make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]));
    store4<Vec>(p, r, c + BN / 2, make_float4(acc[m][4], acc[m][5], acc[m][6], acc[m][7]));
  }
}
void launch_conflict_free(const GemmArgs& p) {
  const dim3 grid(blocks_for(p.n, r2::BN), blocks_for(p.m, r2::BM));
  if (vector_ok(p)) {
    sgemm_conflict_free<true><<<grid, r2::kThreads>>>(p);
    TUTOR_GPU_CHECK_LAUNCH((sgemm_conflict_free<true>));
  } else {
    sgemm_conflict_free<false><<<grid, r2::kThreads>>>(p);
    TUTOR_GPU_CHECK_LAUNCH((sgemm_conflict_free<false>));
  }
}

// ---- Step 8: warp_tiled ------------------------------------------------------------------
// Give each wavefront a compact 64x64 sub-tile of the block's 128x128 (2 x 2 wavefronts) and
// lay its 64 lanes out 8 x 8 inside it, each still 8x8 as 2x2 blocks of 4x4. (NVIDIA: 32x64
// warp tiles; a 64-lane wavefront computes twice the outputs, so its tile is twice as big.)
// Per k a wavefront now reads 64 A values and 64 B values instead of the 32 rows of A and
// 128 columns of B that step 7's layout gives it: fewer LDS bytes for the same FMAs.
//
namespace wt {
constexpr int WM = 64, WN = 64;                 // wavefront tile; WM * WN = 64 outputs * 64 lanes
constexpr int kWarpCols = r2::BN / WN;          // 2 wavefronts across, 2 down
}
template <bool Vec>
__global__ void __launch_bounds__(r2::kThreads) sgemm_warp_tiled(GemmArgs p) {
  using namespace r2;
  using wt::WM;
  using wt::WN;
  __shared__ __align__(16) float as[BK][BM + cf::kPadA];
  __shared__ __align__(16) float bs[BK][BN];
  const int tid = threadIdx.x, warp = tid / kWarp, lane = tid % kWarp;
  const int warp_row = warp / wt::kWarpCols * WM, warp_col = warp % wt::kWarpCols * WN;
  const int ty = lane / (WN / 8), tx = lane % (WN / 8);  // 8 x 8 lanes in the wavefront tile
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int a_r = tid / (BK / 4), a_k = tid % (BK / 4) * 4;
  const int b_r = tid / (BN / 4), b_c = tid % (BN / 4) * 4;
  float acc[TM][TN] = {}, ra[TM], rb[TN];
  for (int k0 = 0; k0 < p.k; k0 += BK) {
    const float4 va = load4<Vec>(p.a, p.m, p.k, block_row + a_r, k0 + a_k);
    as[a_k + 0][a_r] = va.x, as[a_k + 1][a_r] = va.y, as[a_k + 2][a_r] = va.z, as[a_k + 3][a_r] = va.w;
    set4(&bs[b_r][b_c], load4<Vec>(p.b, p.k, p.n, k0 + b_r, block_col + b_c));
    __syncthreads();
#pragma unroll
    for (int i = 0; i < BK; ++i) {
      *reinterpret_cast<float4*>(&ra[0]) = get4(&as[i][warp_row + ty * 4]);
      *reinterpret_cast<float4*>(&ra[4]) = get4(&as[i][warp_row + ty * 4 + WM / 2]);
      *reinterpret_cast<float4*>(&rb[0]) = get4(&bs[i][warp_col + tx * 4]);
      *reinterpret_cast<float4*>(&rb[4]) = get4(&bs[i][warp_col + tx * 4 + WN / 2]);
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) acc[m][n] += ra[m] * rb[n];
    }
    __syncthreads();
  }
#pragma unroll
  for (int m = 0; m < TM; ++m) {
    const int r = block_row + warp_row + ty * 4 + (m % 4) + (m / 4) * (WM / 2);
    const int c = block_col + warp_col + tx * 4;
    store4<Vec>(p, r, c, make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]));
    store4<Vec>(p, r, c + WN / 2, make_float4(acc[m][4], acc[m][5], acc[m][6], acc[m][7]));
  }
}
void launch_warp_tiled(const GemmArgs& p) {
  const dim3 grid(blocks_for(p.n, r2::BN), blocks_for(p.m, r2::BM));
  if (vector_ok(p)) {
    sgemm_warp_tiled<true><<<grid, r2::kThreads>>>(p);
    TUTOR_GPU_CHECK_LAUNCH((sgemm_warp_tiled<true>));
  } else {
    sgemm_warp_tiled<false><<<grid, r2::kThreads>>>(p);
    TUTOR_GPU_CHECK_LAUNCH((sgemm_warp_tiled<false>));
  }
}

// ---- Step 9: double_buffered -------------------------------------------------------------
// Until now every tile iteration waits for its global loads (hundreds of cycles) with the
// FMA units idle, then all warps compute, then wait again. Here two shared-memory buffers
// alternate: while the block computes on tile t, each thread's loads of tile t+1 are in
// flight in registers, and are written to the other buffer after the math; one barrier per
// tile. Inside the tile, the next k's fragments are read from shared memory while this k's
// 64 FMAs issue. The tile shape is a template: `--tune` times every TileConfig below on
// this GPU and caches the fastest.
//
// Both buffers of A and B live in one LDS array, addressed through as() and bs(), as in the
// CUDA twin. There the layout changed how nvcc allocated registers (section 5.3 of the
// README: FFMAs whose three sources share a register bank); AMD's VGPR banks and compiler
// differ, and this build has not been measured.
template <int BM, int BN, int BK, int WM, int WN, bool Vec>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * kWarp)
    sgemm_double_buffered(GemmArgs p) {
  constexpr int kThreads = (BM / WM) * (BN / WN) * kWarp;
  constexpr int kPad = cf::kPadA;
  constexpr int kAVec = BM * BK / 4, kBVec = BK * BN / 4;  // float4s per tile
  constexpr int kALoads = (kAVec + kThreads - 1) / kThreads, kBLoads = (kBVec + kThreads - 1) / kThreads;
  static_assert(WM * WN == 64 * kWarp, "each lane of a wavefront computes 8 x 8 outputs");
  static_assert(BM % WM == 0 && BN % WN == 0 && BK % 4 == 0, "tile shape");
  // Both double buffers in one array: as(buf, k, m) is A transposed, bs(buf, k, n) is B.
  constexpr int kASize = BK * (BM + kPad), kBSize = BK * BN;
  __shared__ __align__(16) float smem[2 * kASize + 2 * kBSize];
  auto as = [&](int buf, int k, int m) -> float& { return smem[buf * kASize + k * (BM + kPad) + m]; };
  auto bs = [&](int buf, int k, int n) -> float& { return smem[2 * kASize + buf * kBSize + k * BN + n]; };

  const int tid = threadIdx.x, warp = tid / kWarp, lane = tid % kWarp;
  const int warp_row = warp / (BN / WN) * WM, warp_col = warp % (BN / WN) * WN;
  const int ty = lane / (WN / 8), tx = lane % (WN / 8);
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;

  float4 a_stage[kALoads], b_stage[kBLoads];  // the next tile, in flight in registers
  auto load_tile = [&](int k0) {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const int v = tid + i * kThreads;
      if (kAVec % kThreads == 0 || v < kAVec)
        a_stage[i] = load4<Vec>(p.a, p.m, p.k, block_row + v / (BK / 4), k0 + v % (BK / 4) * 4);
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      const int v = tid + i * kThreads;
      if (kBVec % kThreads == 0 || v < kBVec)
        b_stage[i] = load4<Vec>(p.b, p.k, p.n, k0 + v / (BN / 4), block_col + v % (BN / 4) * 4);
    }
  };
  auto store_tile = [&](int buf) {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const int v = tid + i * kThreads, r = v / (BK / 4), k = v % (BK / 4) * 4;
      if (kAVec % kThreads == 0 || v < kAVec) {
        as(buf, k + 0, r) = a_stage[i].x, as(buf, k + 1, r) = a_stage[i].y;
        as(buf, k + 2, r) = a_stage[i].z, as(buf, k + 3, r) = a_stage[i].w;
      }
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      const int v = tid + i * kThreads;
      if (kBVec % kThreads == 0 || v < kBVec) set4(&bs(buf, v / (BN / 4), v % (BN / 4) * 4), b_stage[i]);
    }
  };
  float ra[2][8], rb[2][8];  // fragments of k and k + 1
  auto load_fragments = [&](int buf, int k, int slot) {
    *reinterpret_cast<float4*>(&ra[slot][0]) = get4(&as(buf, k, warp_row + ty * 4));
    *reinterpret_cast<float4*>(&ra[slot][4]) = get4(&as(buf, k, warp_row + ty * 4 + WM / 2));
    *reinterpret_cast<float4*>(&rb[slot][0]) = get4(&bs(buf, k, warp_col + tx * 4));
    *reinterpret_cast<float4*>(&rb[slot][4]) = get4(&bs(buf, k, warp_col + tx * 4 + WN / 2));
  };

  float acc[8][8] = {};  // the thread's 8 x 8 outputs
  const int tiles = (p.k + BK - 1) / BK;
  load_tile(0);
  store_tile(0);
  __syncthreads();
  // One tile: prefetch the next into registers, compute this one, store the next, barrier.
  // Written for a compile-time buffer index and called twice per loop trip, so every shared
  // memory address is a constant offset (no t & 1 arithmetic in the hot loop).
  auto tile_step = [&](int t, auto buf_tag) {
    constexpr int buf = decltype(buf_tag)::value;
    if (t + 1 < tiles) load_tile((t + 1) * BK);  // in flight during the math below
    load_fragments(buf, 0, 0);
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      if (k + 1 < BK) load_fragments(buf, k + 1, (k + 1) & 1);
#pragma unroll
      for (int m = 0; m < 8; ++m)
#pragma unroll
        for (int n = 0; n < 8; ++n) acc[m][n] += ra[k & 1][m] * rb[k & 1][n];
    }
    // The other buffer was last read in the previous tile, before the barrier that ended it.
    if (t + 1 < tiles) store_tile(buf ^ 1);
    __syncthreads();
  };
  for (int t = 0; t < tiles; t += 2) {
    tile_step(t, std::integral_constant<int, 0>{});
    if (t + 1 < tiles) tile_step(t + 1, std::integral_constant<int, 1>{});
  }
#pragma unroll
  for (int m = 0; m < 8; ++m) {
    const int r = block_row + warp_row + ty * 4 + (m % 4) + (m / 4) * (WM / 2);
    const int c = block_col + warp_col + tx * 4;
    store4<Vec>(p, r, c, make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]));
    store4<Vec>(p, r, c + WN / 2, make_float4(acc[m][4], acc[m][5], acc[m][6], acc[m][7]));
  }
}

namespace {
template <int BM, int BN, int BK, int WM, int WN>
void launch_tiles(const GemmArgs& p) {
  constexpr int kThreads = (BM / WM) * (BN / WN) * kWarp;
  const dim3 grid(blocks_for(p.n, BN), blocks_for(p.m, BM));
  if (vector_ok(p)) {
    sgemm_double_buffered<BM, BN, BK, WM, WN, true><<<grid, kThreads>>>(p);
    TUTOR_GPU_CHECK_LAUNCH((sgemm_double_buffered<BM, BN, BK, WM, WN, true>));
  } else {
    sgemm_double_buffered<BM, BN, BK, WM, WN, false><<<grid, kThreads>>>(p);
    TUTOR_GPU_CHECK_LAUNCH((sgemm_double_buffered<BM, BN, BK, WM, WN, false>));
  }
}

struct TileEntry {
  TileConfig config;
  GemmLauncher launch;
};
// The candidates `--tune` tries: (bm, bn, bk, wm, wn). Index 0 is the portable default.
// Wavefront tiles are 64x64, 32x128 or 128x32 (64 outputs x 64 lanes; NVIDIA's list uses
// 32x64 warp tiles). All fit 48 KB of LDS (CDNA3 has 64 KB per CU).
const TileEntry kTiles[] = {
    {{128, 128, 8, 64, 64}, launch_tiles<128, 128, 8, 64, 64>},
    {{128, 256, 8, 64, 64}, launch_tiles<128, 256, 8, 64, 64>},
    {{256, 128, 8, 64, 64}, launch_tiles<256, 128, 8, 64, 64>},
    {{128, 256, 8, 32, 128}, launch_tiles<128, 256, 8, 32, 128>},
    {{256, 128, 8, 128, 32}, launch_tiles<256, 128, 8, 128, 32>},
    {{128, 128, 16, 64, 64}, launch_tiles<128, 128, 16, 64, 64>},
    {{64, 128, 8, 32, 128}, launch_tiles<64, 128, 8, 32, 128>},
};
int g_selected = 0;
}  // namespace

int TileConfig::threads() const { return (bm / wm) * (bn / wn) * kWarp; }
int tile_config_count() { return int(sizeof(kTiles) / sizeof(kTiles[0])); }
TileConfig tile_config(int index) { return kTiles[index].config; }
void select_tile_config(int index) { g_selected = index; }
void launch_double_buffered(const GemmArgs& p) { kTiles[g_selected].launch(p); }

}  // namespace tutor::a07
