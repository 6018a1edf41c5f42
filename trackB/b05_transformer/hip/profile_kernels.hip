// B05 profile on AMD: the layer's sub-ops that are not GEMMs, as simple kernels of our own,
// one idea each (the GEMMs are the vendor BLAS's: profile_gemm.hip). CUDA twin:
// ../cuda/profile_kernels.cu, same kernels in the same order. The host driver
// (../profile_case.cpp) verifies and times them.
//
// bf16 travels as its 16 bits and is widened to fp32 for arithmetic (bf16 is the top half of
// an fp32), then rounded back once per output element. Memory-bound kernels move 8 bf16
// (16 bytes) per access where a row is aligned (tutor/device/vector_io.hpp) and one at a time
// where it is not, so every kernel is correct at any size.
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "profile_kernels.hpp"
#include "tutor/device/block_reduce.hpp"
#include "tutor/device/ceil_div.hpp"
#include "tutor/device/vector_io.hpp"
#include "tutor/device/warp_reduce.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b05::gpu_layer {

namespace {
using tutor::device::ceil_div;
using tutor::device::kWarpLanes;
using tutor::device::load_vec;
using tutor::device::store_vec;
using tutor::device::Vec;

constexpr int kThreads = 256;  // a multiple of 64: whole warps and whole wavefronts
constexpr int kVec = 8;        // bf16 per 16-byte access

// Blocks of kThreads for `work` items of a grid-stride loop; the cap keeps the grid in range
// and each thread then takes several items.
unsigned blocks_for(std::size_t work) {
  const std::size_t blocks = ceil_div(work, std::size_t(kThreads));
  return static_cast<unsigned>(blocks < (std::size_t(1) << 20) ? (blocks > 0 ? blocks : 1) : (std::size_t(1) << 20));
}

__device__ inline std::size_t global_index() { return blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; }
__device__ inline std::size_t grid_stride() { return std::size_t(gridDim.x) * blockDim.x; }

__device__ inline float bf16_to_f32(std::uint16_t bits) { return __uint_as_float(std::uint32_t(bits) << 16); }

// Round to nearest, ties to even (Kalamkar et al. 2019, sec. 2); a NaN stays a quiet NaN.
__device__ inline std::uint16_t f32_to_bf16(float v) {
  std::uint32_t u = __float_as_uint(v);
  if (v != v) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}
}  // namespace

// ---- inputs and checks ------------------------------------------------------------------------

// SplitMix64's output function (Steele, Lea, Flood, OOPSLA 2014) on the counter seed + (i + 1)
// times the golden gamma; the top 24 bits make a float in [0, 1) exactly.
__global__ void fill_uniform_bf16_kernel(std::uint16_t* out, std::size_t n, std::uint64_t seed, float lo, float hi) {
  for (std::size_t i = global_index(); i < n; i += grid_stride()) {
    std::uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const float u = static_cast<float>(z >> 40) * 0x1p-24f;
    out[i] = f32_to_bf16(lo + (hi - lo) * u);
  }
}
void fill_uniform_bf16(std::uint16_t* out, std::size_t n, std::uint64_t seed, float lo, float hi) {
  if (n == 0) return;
  fill_uniform_bf16_kernel<<<blocks_for(n), kThreads>>>(out, n, seed, lo, hi);
  TUTOR_GPU_CHECK_LAUNCH(fill_uniform_bf16_kernel);
}

__global__ void fill_rows_bf16_kernel(std::uint16_t* base, std::size_t rows, std::size_t row_elems,
                                      std::size_t row_stride, std::uint16_t bits) {
  for (std::size_t i = global_index(); i < rows * row_elems; i += grid_stride())
    base[(i / row_elems) * row_stride + i % row_elems] = bits;
}
void fill_rows_bf16(std::uint16_t* base, std::size_t rows, std::size_t row_elems, std::size_t row_stride,
                    std::uint16_t bits) {
  if (rows == 0 || row_elems == 0) return;
  fill_rows_bf16_kernel<<<blocks_for(rows * row_elems), kThreads>>>(base, rows, row_elems, row_stride, bits);
  TUTOR_GPU_CHECK_LAUNCH(fill_rows_bf16_kernel);
}

void copy_to_host(void* host, const void* device, std::size_t bytes) {
  TUTOR_GPU_CHECK(hipMemcpy(host, device, bytes, hipMemcpyDeviceToHost));
}

__global__ void empty_kernel() {}
void launch_empty() {
  empty_kernel<<<1, 1>>>();
  TUTOR_GPU_CHECK_LAUNCH(empty_kernel);
}

// ---- Step 1: rmsnorm ----------------------------------------------------------------------------
// attn_norm and mlp_norm. One block per row: each thread sums the squares of its 16-byte pieces
// of the row, the block reduces them (tutor/device/block_reduce.hpp), then every thread scales
// its pieces again; the second read of the row hits L1 or L2, the row being a few kilobytes.
__global__ void rmsnorm_kernel(const std::uint16_t* x, const std::uint16_t* weight, std::uint16_t* out, int width,
                               float eps) {
  __shared__ float scratch[tutor::device::kMaxWarpsPerBlock];
  const std::uint16_t* row = x + std::size_t(blockIdx.x) * width;
  float sum_sq = 0.0f;
  for (int i = threadIdx.x * kVec; i < width; i += blockDim.x * kVec) {
    const Vec<std::uint16_t, kVec> v = load_vec<kVec>(row, i, width, std::uint16_t(0));
    TUTOR_UNROLL
    for (int k = 0; k < kVec; ++k) sum_sq += bf16_to_f32(v[k]) * bf16_to_f32(v[k]);
  }
  const float inv_rms = rsqrtf(tutor::device::block_reduce_sum(sum_sq, scratch) / float(width) + eps);
  std::uint16_t* out_row = out + std::size_t(blockIdx.x) * width;
  for (int i = threadIdx.x * kVec; i < width; i += blockDim.x * kVec) {
    const Vec<std::uint16_t, kVec> v = load_vec<kVec>(row, i, width, std::uint16_t(0));
    const Vec<std::uint16_t, kVec> w = load_vec<kVec>(weight, i, width, std::uint16_t(0));
    Vec<std::uint16_t, kVec> o;
    TUTOR_UNROLL
    for (int k = 0; k < kVec; ++k) o[k] = f32_to_bf16(bf16_to_f32(v[k]) * inv_rms * bf16_to_f32(w[k]));
    store_vec<kVec>(out_row, i, width, o);
  }
}
void rmsnorm(const std::uint16_t* x, const std::uint16_t* weight, std::uint16_t* out, int rows, int width,
             float eps) {
  if (rows == 0) return;
  rmsnorm_kernel<<<rows, kThreads>>>(x, weight, out, width, eps);
  TUTOR_GPU_CHECK_LAUNCH(rmsnorm_kernel);
}

// ---- Step 2: rope ---------------------------------------------------------------------------------
// One thread per pair (i, i + d/2) of one head of one token: q and k heads are rotated by the
// angle position x inv_freq[i] (fp32, as transformers computes it), v heads copied; q goes to
// its own buffer, k and v to the cache slot of the token's position.
__global__ void rope_kv_kernel(const std::uint16_t* qkv, const float* inv_freq, std::uint16_t* q_out,
                               std::uint16_t* k_cache, std::uint16_t* v_cache, std::size_t pairs, int tokens_per_seq,
                               int first_position, int cache_len, int heads, int kv_heads, int head_dim) {
  const int half = head_dim / 2, all_heads = heads + 2 * kv_heads;
  for (std::size_t i = global_index(); i < pairs; i += grid_stride()) {
    const int pair = static_cast<int>(i % half);
    const int head = static_cast<int>((i / half) % all_heads);
    const std::size_t token = i / half / all_heads;
    const int seq = static_cast<int>(token / tokens_per_seq);
    const int position = first_position + static_cast<int>(token % tokens_per_seq);
    const std::uint16_t* in = qkv + (token * all_heads + head) * head_dim;
    float x0 = bf16_to_f32(in[pair]), x1 = bf16_to_f32(in[pair + half]);
    if (head < heads + kv_heads) {  // q or k: rotate
      float sin_a, cos_a;
      sincosf(__fmul_rn(float(position), inv_freq[pair]), &sin_a, &cos_a);
      const float r0 = x0 * cos_a - x1 * sin_a, r1 = x1 * cos_a + x0 * sin_a;
      x0 = r0, x1 = r1;
    }
    std::uint16_t* dst;
    if (head < heads) {
      dst = q_out + (token * heads + head) * head_dim;
    } else {
      const int kv_head = (head - heads) % kv_heads;
      std::uint16_t* cache = head < heads + kv_heads ? k_cache : v_cache;
      dst = cache + ((std::size_t(seq) * cache_len + position) * kv_heads + kv_head) * head_dim;
    }
    dst[pair] = f32_to_bf16(x0);
    dst[pair + half] = f32_to_bf16(x1);
  }
}
void rope_kv(const std::uint16_t* qkv, const float* inv_freq, std::uint16_t* q_out, std::uint16_t* k_cache,
             std::uint16_t* v_cache, int batch, int tokens_per_seq, int first_position, int cache_len, int heads,
             int kv_heads, int head_dim) {
  const std::size_t pairs = std::size_t(batch) * tokens_per_seq * (heads + 2 * kv_heads) * (head_dim / 2);
  if (pairs == 0) return;
  rope_kv_kernel<<<blocks_for(pairs), kThreads>>>(qkv, inv_freq, q_out, k_cache, v_cache, pairs, tokens_per_seq,
                                                  first_position, cache_len, heads, kv_heads, head_dim);
  TUTOR_GPU_CHECK_LAUNCH(rope_kv_kernel);
}

// ---- Step 3: attention ----------------------------------------------------------------------------
// One block per (token, query head). Each warp (a 64-lane wavefront on CDNA) takes every (warps)-th key: the warp's lanes
// hold the query's elements (lane, lane + lanes, ...), a butterfly sum gives the score, and the
// warp keeps a running maximum m, denominator l and weighted sum of values, rescaled whenever m
// grows (the online softmax: Milakov and Gimelshein 2018, "Online normalizer calculation for
// softmax", alg. 3). At the end the warps' (m, l, sum) are merged through shared memory by the
// same rescaling. The simplest correct kernel, on the fp32 FMA pipes: no tensor cores, no tiling
// of queries, every key read from L2 by each of its query heads (FlashAttention, Dao et al. 2022,
// does all three; later modules replace this kernel).
constexpr int kAttentionThreads = 256;
__global__ void attention_kernel(const std::uint16_t* q, const std::uint16_t* k_cache, const std::uint16_t* v_cache,
                                 std::uint16_t* out, int tokens_per_seq, int first_position, int cache_len,
                                 int heads, int kv_heads, int head_dim) {
  constexpr int kWarps = kAttentionThreads / kWarpLanes;
  constexpr int kPerLane = kMaxHeadDim / kWarpLanes;
  __shared__ float warp_max[kWarps], warp_denom[kWarps];
  __shared__ float warp_sum[kWarps][kMaxHeadDim];
  const int head = static_cast<int>(blockIdx.x % heads);
  const std::size_t token = blockIdx.x / heads;
  const int seq = static_cast<int>(token / tokens_per_seq);
  const int keys = first_position + static_cast<int>(token % tokens_per_seq) + 1;  // causal: slots 0 .. position
  const int kv_head = head / (heads / kv_heads);
  const int lane = threadIdx.x % kWarpLanes, warp = threadIdx.x / kWarpLanes;
  const std::size_t slot_stride = std::size_t(kv_heads) * head_dim;
  const std::uint16_t* k_base = k_cache + std::size_t(seq) * cache_len * slot_stride + std::size_t(kv_head) * head_dim;
  const std::uint16_t* v_base = v_cache + std::size_t(seq) * cache_len * slot_stride + std::size_t(kv_head) * head_dim;
  const std::uint16_t* q_row = q + (token * heads + head) * head_dim;
  const float scale = rsqrtf(float(head_dim));

  float qv[kPerLane], acc[kPerLane];
  TUTOR_UNROLL
  for (int j = 0; j < kPerLane; ++j) {
    const int c = lane + j * kWarpLanes;
    qv[j] = c < head_dim ? bf16_to_f32(q_row[c]) * scale : 0.0f;
    acc[j] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (int t = warp; t < keys; t += kWarps) {
    const std::uint16_t* k_row = k_base + t * slot_stride;
    const std::uint16_t* v_row = v_base + t * slot_stride;
    float partial = 0.0f;
    TUTOR_UNROLL
    for (int j = 0; j < kPerLane; ++j) {
      const int c = lane + j * kWarpLanes;
      if (c < head_dim) partial += qv[j] * bf16_to_f32(k_row[c]);
    }
    const float score = tutor::device::warp_reduce_sum(partial);
    const float m_new = fmaxf(m, score);
    const float rescale = expf(m - m_new);  // 0 at the first key, where m = -inf
    const float p = expf(score - m_new);
    l = l * rescale + p;
    TUTOR_UNROLL
    for (int j = 0; j < kPerLane; ++j) {
      const int c = lane + j * kWarpLanes;
      if (c < head_dim) acc[j] = acc[j] * rescale + p * bf16_to_f32(v_row[c]);
    }
    m = m_new;
  }

  if (lane == 0) warp_max[warp] = m, warp_denom[warp] = l;
  TUTOR_UNROLL
  for (int j = 0; j < kPerLane; ++j) {
    const int c = lane + j * kWarpLanes;
    if (c < head_dim) warp_sum[warp][c] = acc[j];
  }
  __syncthreads();
  float m_all = -INFINITY;
  for (int w = 0; w < kWarps; ++w) m_all = fmaxf(m_all, warp_max[w]);
  float l_all = 0.0f;  // a warp that saw no key has m = -inf and l = 0: its weight expf(-inf) is 0
  for (int w = 0; w < kWarps; ++w) l_all += warp_denom[w] * expf(warp_max[w] - m_all);
  std::uint16_t* out_row = out + (token * heads + head) * head_dim;
  for (int c = threadIdx.x; c < head_dim; c += blockDim.x) {
    float o = 0.0f;
    for (int w = 0; w < kWarps; ++w) o += warp_sum[w][c] * expf(warp_max[w] - m_all);
    out_row[c] = f32_to_bf16(o / l_all);
  }
}
void attention(const std::uint16_t* q, const std::uint16_t* k_cache, const std::uint16_t* v_cache,
               std::uint16_t* out, int batch, int tokens_per_seq, int first_position, int cache_len, int heads,
               int kv_heads, int head_dim) {
  const std::size_t blocks = std::size_t(batch) * tokens_per_seq * heads;
  if (blocks == 0) return;
  attention_kernel<<<static_cast<unsigned>(blocks), kAttentionThreads>>>(q, k_cache, v_cache, out, tokens_per_seq,
                                                                          first_position, cache_len, heads, kv_heads,
                                                                          head_dim);
  TUTOR_GPU_CHECK_LAUNCH(attention_kernel);
}

// ---- Step 4: residual_add -------------------------------------------------------------------------
// attn_residual and mlp_residual: a grid-stride loop of 16-byte pieces.
__global__ void residual_add_kernel(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* out,
                                    std::size_t n) {
  for (std::size_t i = global_index() * kVec; i < n; i += grid_stride() * kVec) {
    const Vec<std::uint16_t, kVec> x = load_vec<kVec>(a, i, n, std::uint16_t(0));
    const Vec<std::uint16_t, kVec> y = load_vec<kVec>(b, i, n, std::uint16_t(0));
    Vec<std::uint16_t, kVec> o;
    TUTOR_UNROLL
    for (int k = 0; k < kVec; ++k) o[k] = f32_to_bf16(bf16_to_f32(x[k]) + bf16_to_f32(y[k]));
    store_vec<kVec>(out, i, n, o);
  }
}
void residual_add(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* out, std::size_t n) {
  if (n == 0) return;
  residual_add_kernel<<<blocks_for(ceil_div(n, std::size_t(kVec))), kThreads>>>(a, b, out, n);
  TUTOR_GPU_CHECK_LAUNCH(residual_add_kernel);
}

// ---- Step 5: silu_mul -----------------------------------------------------------------------------
// A grid-stride loop over 16-byte pieces of each output row; the row's gate and up halves sit
// side by side in the fused projection's output.
__global__ void silu_mul_kernel(const std::uint16_t* gate_up, std::uint16_t* out, int width,
                                std::size_t pieces_per_row, std::size_t pieces) {
  for (std::size_t p = global_index(); p < pieces; p += grid_stride()) {
    const std::size_t row = p / pieces_per_row, col = (p % pieces_per_row) * kVec;
    const std::uint16_t* gate = gate_up + row * 2 * width;
    const Vec<std::uint16_t, kVec> g = load_vec<kVec>(gate, col, width, std::uint16_t(0));
    const Vec<std::uint16_t, kVec> u = load_vec<kVec>(gate + width, col, width, std::uint16_t(0));
    Vec<std::uint16_t, kVec> o;
    TUTOR_UNROLL
    for (int k = 0; k < kVec; ++k) {
      const float gf = bf16_to_f32(g[k]);
      o[k] = f32_to_bf16(gf / (1.0f + expf(-gf)) * bf16_to_f32(u[k]));
    }
    store_vec<kVec>(out + row * width, col, width, o);
  }
}
void silu_mul(const std::uint16_t* gate_up, std::uint16_t* out, int rows, int width) {
  const std::size_t pieces_per_row = ceil_div(std::size_t(width), std::size_t(kVec));
  const std::size_t pieces = pieces_per_row * rows;
  if (pieces == 0) return;
  silu_mul_kernel<<<blocks_for(pieces), kThreads>>>(gate_up, out, width, pieces_per_row, pieces);
  TUTOR_GPU_CHECK_LAUNCH(silu_mul_kernel);
}

}  // namespace tutor::b05::gpu_layer
