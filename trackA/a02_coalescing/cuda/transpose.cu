// A02 transpose ladder, NVIDIA (CUDA). HIP twin: ../hip/transpose.hip, same kernels in the
// same order. out (cols x rows) = in^T, in is rows x cols, both row-major fp32.
//
// Coalescing in one sentence: the 32 threads of a warp issue one load or store together,
// and the memory system serves it in 32-byte sectors; 32 consecutive floats cost 4 sectors
// (128 B, all used), 32 floats a row apart cost 32 sectors (1 KiB moved for 128 B used).
// A transpose must read along rows and write along columns, so one side is strided unless
// a tile in shared memory turns the data around.
#include "tutor_gpu_check.hpp"
#include "transpose.hpp"

namespace tutor::a02 {

namespace {
constexpr int kTile = 32;       // tile edge for steps 3-5: one warp spans one tile row
constexpr int kBlockRows = 8;   // 32 x 8 threads per block in steps 1, 2 and 5
unsigned blocks_for(int n, int per_block) { return static_cast<unsigned>((n + per_block - 1) / per_block); }
}  // namespace

// ---- Step 1: naive_row -------------------------------------------------------------------
// One thread per element; a warp reads 32 neighbours of one row (coalesced) and writes them
// 32 rows apart (32 sectors per store). The baseline.
__global__ void transpose_naive_row(const float* in, float* out, int rows, int cols) {
  const int c = blockIdx.x * kTile + threadIdx.x;
  const int r = blockIdx.y * kBlockRows + threadIdx.y;
  if (r < rows && c < cols) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
}
void launch_naive_row(const float* in, float* out, int rows, int cols) {
  const dim3 block(kTile, kBlockRows), grid(blocks_for(cols, kTile), blocks_for(rows, kBlockRows));
  transpose_naive_row<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_naive_row);
}

// ---- Step 2: naive_col -------------------------------------------------------------------
// Swap which side is strided: a warp reads 32 elements of a column and writes 32 neighbours
// of an output row. Strided reads are partly rescued by L1/L2 (the other 7 floats of each
// sector are read by neighbouring warps soon after); strided writes are not.
__global__ void transpose_naive_col(const float* in, float* out, int rows, int cols) {
  const int r = blockIdx.x * kTile + threadIdx.x;
  const int c = blockIdx.y * kBlockRows + threadIdx.y;
  if (r < rows && c < cols) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
}
void launch_naive_col(const float* in, float* out, int rows, int cols) {
  const dim3 block(kTile, kBlockRows), grid(blocks_for(rows, kTile), blocks_for(cols, kBlockRows));
  transpose_naive_col<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_naive_col);
}

// ---- Step 3: tile32 ----------------------------------------------------------------------
// Stage a 32x32 tile in shared memory: read rows coalesced, write rows coalesced, and do the
// turn in shared memory. The turn reads a tile column: 32 addresses 32 words apart all hit
// one of the 32 banks, a 32-way bank conflict.
__global__ void transpose_tile32(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile];
  const int c = blockIdx.x * kTile + threadIdx.x;
  const int r = blockIdx.y * kTile + threadIdx.y;
  if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[size_t(r) * cols + c];
  __syncthreads();
  const int oc = blockIdx.y * kTile + threadIdx.x;  // output column = input row
  const int orow = blockIdx.x * kTile + threadIdx.y; // output row = input column
  if (orow < cols && oc < rows) out[size_t(orow) * rows + oc] = tile[threadIdx.x][threadIdx.y];
}
void launch_tile32(const float* in, float* out, int rows, int cols) {
  const dim3 block(kTile, kTile), grid(blocks_for(cols, kTile), blocks_for(rows, kTile));
  transpose_tile32<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_tile32);
}

// ---- Step 4: padded32 --------------------------------------------------------------------
// Pad each tile row by one float: element (i, j) lands in bank (33 i + j) mod 32 = (i + j)
// mod 32, so a column's 32 elements fall in 32 different banks. Removes the 32-way conflict.
__global__ void transpose_padded32(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int c = blockIdx.x * kTile + threadIdx.x;
  const int r = blockIdx.y * kTile + threadIdx.y;
  if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[size_t(r) * cols + c];
  __syncthreads();
  const int oc = blockIdx.y * kTile + threadIdx.x;
  const int orow = blockIdx.x * kTile + threadIdx.y;
  if (orow < cols && oc < rows) out[size_t(orow) * rows + oc] = tile[threadIdx.x][threadIdx.y];
}
void launch_padded32(const float* in, float* out, int rows, int cols) {
  const dim3 block(kTile, kTile), grid(blocks_for(cols, kTile), blocks_for(rows, kTile));
  transpose_padded32<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_padded32);
}

// ---- Step 5: padded32_ilp4 ---------------------------------------------------------------
// Same tile, a quarter of the threads: 32x8 threads, each moving 4 elements. Its 4 loads are
// independent, so they are in flight together (instruction-level parallelism), and index
// math and the barrier are paid once per 4 elements.
__global__ void transpose_padded32_ilp4(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int c = blockIdx.x * kTile + threadIdx.x;
  const int r0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
  for (int k = 0; k < kTile; k += kBlockRows)
    if (r0 + k < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[size_t(r0 + k) * cols + c];
  __syncthreads();
  const int oc = blockIdx.y * kTile + threadIdx.x;
  const int orow0 = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
  for (int k = 0; k < kTile; k += kBlockRows)
    if (orow0 + k < cols && oc < rows)
      out[size_t(orow0 + k) * rows + oc] = tile[threadIdx.x][threadIdx.y + k];
}
void launch_padded32_ilp4(const float* in, float* out, int rows, int cols) {
  const dim3 block(kTile, kBlockRows), grid(blocks_for(cols, kTile), blocks_for(rows, kTile));
  transpose_padded32_ilp4<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_padded32_ilp4);
}

// ---- Step 6: tile64_vec4 -----------------------------------------------------------------
// A 64x64 tile per block of 16x16 threads; each thread moves a 4x4 sub-block with 128-bit
// loads and stores (4 float4 reads, a transpose in registers, 4 float4 writes). Four times
// the bytes in flight per thread and a quarter of the memory instructions of step 5; the
// shared-memory tile is indexed with an XOR swizzle instead of padding, because a float4
// row must stay 16-byte aligned.
// Needs rows and cols divisible by 4 (16-byte aligned rows) and a full tile; other tiles
// take a scalar path with the same staging, so every size stays correct.
constexpr int kTile64 = 64;
constexpr int kVec = 4;                       // floats per 128-bit access
constexpr int kThreads64 = kTile64 / kVec;    // 16 x 16 threads

// Float4 column of output-tile row `row` where float4 column `col` is stored: XOR with bits
// 2..4 of the row. A quarter-warp (8 lanes: the unit a 128-bit shared access is served in)
// then touches 8 different 16-byte bank groups, both when it writes 8 rows of one column
// and when it reads 8 columns of one row.
__device__ __forceinline__ int swizzle(int row, int col) { return col ^ ((row >> 2) & 7); }

__global__ void transpose_tile64_vec4(const float* in, float* out, int rows, int cols) {
  __shared__ __align__(16) float smem[kTile64 * (kTile64 + 1)];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int r0 = blockIdx.y * kTile64, c0 = blockIdx.x * kTile64;
  const bool vector_path = (rows % kVec == 0) && (cols % kVec == 0) &&
                           r0 + kTile64 <= rows && c0 + kTile64 <= cols;
  if (vector_path) {
    float4* tile = reinterpret_cast<float4*>(smem);  // [64 rows][16 float4], swizzled
    float4 a[kVec];
#pragma unroll
    for (int k = 0; k < kVec; ++k)  // rows 4ty..4ty+3, columns 4tx..4tx+3 of the tile
      a[k] = reinterpret_cast<const float4*>(in + size_t(r0 + kVec * ty + k) * cols + c0)[tx];
    // Column i of the 4x4 sub-block becomes output-tile row 4tx+i, float4 column ty.
    const float4 b[kVec] = {make_float4(a[0].x, a[1].x, a[2].x, a[3].x),
                            make_float4(a[0].y, a[1].y, a[2].y, a[3].y),
                            make_float4(a[0].z, a[1].z, a[2].z, a[3].z),
                            make_float4(a[0].w, a[1].w, a[2].w, a[3].w)};
#pragma unroll
    for (int i = 0; i < kVec; ++i) {
      const int row = kVec * tx + i;
      tile[row * kThreads64 + swizzle(row, ty)] = b[i];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kVec; ++k) {  // output-tile rows ty, ty+16, ...; a warp writes 2 x 256 B
      const int row = ty + k * kThreads64;
      reinterpret_cast<float4*>(out + size_t(c0 + row) * rows + r0)[tx] =
          tile[row * kThreads64 + swizzle(row, tx)];
    }
  } else {
    float (*tile)[kTile64 + 1] = reinterpret_cast<float (*)[kTile64 + 1]>(smem);
    const int t = ty * kThreads64 + tx;
#pragma unroll 4
    for (int e = t; e < kTile64 * kTile64; e += kThreads64 * kThreads64) {
      const int i = e / kTile64, j = e % kTile64;
      if (r0 + i < rows && c0 + j < cols) tile[i][j] = in[size_t(r0 + i) * cols + c0 + j];
    }
    __syncthreads();
#pragma unroll 4
    for (int e = t; e < kTile64 * kTile64; e += kThreads64 * kThreads64) {
      const int i = e / kTile64, j = e % kTile64;  // output-tile row i = input column c0+i
      if (c0 + i < cols && r0 + j < rows) out[size_t(c0 + i) * rows + r0 + j] = tile[j][i];
    }
  }
}
void launch_tile64_vec4(const float* in, float* out, int rows, int cols) {
  const dim3 block(kThreads64, kThreads64), grid(blocks_for(cols, kTile64), blocks_for(rows, kTile64));
  transpose_tile64_vec4<<<grid, block>>>(in, out, rows, cols);
  TUTOR_GPU_CHECK_LAUNCH(transpose_tile64_vec4);
}

}  // namespace tutor::a02
