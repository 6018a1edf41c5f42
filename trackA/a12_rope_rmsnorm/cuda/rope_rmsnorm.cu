// A12 fused RoPE + RMSNorm ladder, NVIDIA (CUDA). HIP twin: ../hip/rope_rmsnorm.hip, same
// kernels in the same order. Every step writes y = RoPE(RMSNorm(x)) for every q and k head of
// every token (rope_rmsnorm.hpp): bf16 in and out, fp32 arithmetic.
//
// One block per token: the token's cos/sin pairs go to shared memory once, then groups of
// lanes_per_row(head_dim) lanes take the token's heads in turn, each lane holding one 16-byte
// vector (8 bf16) of the head row in registers. The steps differ in what one launch does: the
// unfused step runs the kernel twice (RMSNorm, then RoPE, through an intermediate in HBM), the
// fused steps once; step 3 computes cos and sin instead of reading a table, and step 4 keeps
// more loads in flight.
#include "tutor_gpu_check.hpp"
#include "rope_rmsnorm.hpp"

#include "tutor/device/vector_io.hpp"
#include "tutor/device/warp_reduce.hpp"

namespace tutor::a12 {

namespace {
using device::load_vec;
using device::store_vec;
using device::Vec;
using Bf16x8 = Vec<std::uint16_t, kVec>;

__device__ inline float bf16_to_f32(std::uint16_t bits) { return __uint_as_float(std::uint32_t(bits) << 16); }

// Round to nearest, ties to even (Kalamkar et al. 2019, sec. 2); a NaN stays a quiet NaN.
__device__ inline std::uint16_t f32_to_bf16(float v) {
  std::uint32_t u = __float_as_uint(v);
  if (v != v) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}

// Where the cos and sin of a pair come from: a table in HBM ([max_position][rotary_dim / 2]
// pairs of fp32), or the fp32 phase position x inv_freq computed here (__fmul_rn: one rounded
// product, never fused into a later add, as the host reference forms it) and sincosf, the
// full-range version (CUDA C++ Programming Guide, "Mathematical Functions": 2 ulp; __sinf's
// error grows with the argument, and phases reach tens of thousands of radians).
enum class CosSin { none, table, compute };

__device__ inline float2 cos_sin_of(const RopeNormArgs& a, CosSin from, int position, int half, int p) {
  if (from == CosSin::table) return reinterpret_cast<const float2*>(a.cos_sin)[std::size_t(position) * half + p];
  float s, c;
  sincosf(__fmul_rn(float(position), a.inv_freq[p]), &s, &c);
  return make_float2(c, s);
}

// The element a rotation pairs with element e (< rotary_dim), and the sign of its term:
// rotate_half pairs e with e +- rotary_dim / 2, interleaved with e ^ 1 (rope_rmsnorm.hpp).
// The lower element of a pair becomes a cos - b sin, the upper b cos + a sin (RoFormer eq. 34).
__device__ inline int partner_of(Layout layout, int e, int half, int* pair, float* sign) {
  const bool lower = layout == Layout::rotate_half ? e < half : (e & 1) == 0;
  *pair = layout == Layout::rotate_half ? (lower ? e : e - half) : e / 2;
  *sign = lower ? -1.0f : 1.0f;
  return layout == Layout::rotate_half ? (lower ? e + half : e - half) : (e ^ 1);
}

// The kernel every step launches. Norm: scale each head row by its reciprocal RMS (sum of
// squares in fp32, reduced across the row's lanes with xor shuffles) and its weight. Rope:
// rotate the pairs below rotary_dim; a lane needs values that other lanes hold (rotate_half's
// partner is half a rotation away), so the row goes through shared memory, stored lane-major
// (element k of lane l at k * Lanes + l) so that the lanes of a store or a load touch
// consecutive words (a group alone is conflict-free; two 16-lane groups of a warp share the
// banks, a 2-way conflict at head_dim 128: README 2.4). Batch: how many of the token's heads a
// group loads before it works on the first (step 4). The loop over the heads runs the same number of times
// in every thread, so every thread reaches every barrier.
template <int Lanes, int Batch, bool Norm, CosSin From>
__global__ void __launch_bounds__(kBlockThreads) token_heads(const std::uint16_t* in, std::uint16_t* out, RopeNormArgs a) {
  constexpr bool kRope = From != CosSin::none;
  constexpr int kGroups = kBlockThreads / Lanes;
  __shared__ float2 cs[kMaxHeadDim / 2];
  __shared__ float rows[kBlockThreads * kVec];
  const int token = blockIdx.x, half = a.rotary_dim / 2;
  if (kRope) {
    const int position = a.positions[token];
    for (int p = threadIdx.x; p < half; p += blockDim.x) cs[p] = cos_sin_of(a, From, position, half, p);
    __syncthreads();
  }
  const int lane = threadIdx.x % Lanes, group = threadIdx.x / Lanes, e0 = lane * kVec;
  const int heads = a.q_heads + a.kv_heads;
  float* mine = rows + group * Lanes * kVec;
  for (int first = 0; first < heads; first += kGroups * Batch) {
    Bf16x8 v[Batch];
    TUTOR_UNROLL
    for (int b = 0; b < Batch; ++b) {  // every load of the batch in flight before any is used
      const int head = first + b * kGroups + group;
      v[b] = head < heads ? load_vec<kVec>(in + (std::size_t(token) * heads + head) * a.head_dim, e0, a.head_dim,
                                           std::uint16_t(0))
                          : Bf16x8{};
    }
    TUTOR_UNROLL
    for (int b = 0; b < Batch; ++b) {
      const int head = first + b * kGroups + group;
      float f[kVec];
      TUTOR_UNROLL
      for (int k = 0; k < kVec; ++k) f[k] = bf16_to_f32(v[b][k]);
      if (Norm) {
        float sum_sq = 0.0f;
        TUTOR_UNROLL
        for (int k = 0; k < kVec; ++k) sum_sq += f[k] * f[k];
        sum_sq = device::warp_reduce_sum<Lanes>(sum_sq);
        const float inv_rms = rsqrtf(sum_sq / float(a.head_dim) + a.eps);
        const Bf16x8 w = load_vec<kVec>(head < a.q_heads ? a.q_weight : a.k_weight, e0, a.head_dim, std::uint16_t(0));
        TUTOR_UNROLL
        for (int k = 0; k < kVec; ++k) f[k] = f[k] * inv_rms * bf16_to_f32(w[k]);
      }
      if (kRope) {
        TUTOR_UNROLL
        for (int k = 0; k < kVec; ++k) mine[k * Lanes + lane] = f[k];
        __syncthreads();
        TUTOR_UNROLL
        for (int k = 0; k < kVec; ++k) {
          const int e = e0 + k;
          if (e >= a.rotary_dim) continue;  // partial rotary: the rest passes through
          int pair;
          float sign;
          const int other = partner_of(a.layout, e, half, &pair, &sign);
          const float partner = mine[(other % kVec) * Lanes + other / kVec];
          f[k] = f[k] * cs[pair].x + sign * partner * cs[pair].y;
        }
        __syncthreads();  // every lane has read the row before the next head overwrites it
      }
      Bf16x8 o;
      TUTOR_UNROLL
      for (int k = 0; k < kVec; ++k) o[k] = f32_to_bf16(f[k]);
      if (head < heads) store_vec<kVec>(out + (std::size_t(token) * heads + head) * a.head_dim, e0, a.head_dim, o);
    }
  }
}

// One launch of token_heads for this head_dim's group width (rope_rmsnorm.hpp, lanes_per_row).
template <int Batch, bool Norm, CosSin From>
void launch_token_heads(const std::uint16_t* in, std::uint16_t* out, const RopeNormArgs& a) {
#define A12_LAUNCH(L)                                                                   \
  token_heads<L, Batch, Norm, From><<<a.tokens, kBlockThreads>>>(in, out, a);           \
  TUTOR_GPU_CHECK_LAUNCH((token_heads<L, Batch, Norm, From>));                          \
  break
  switch (lanes_per_row(a.head_dim)) {
    case 1: A12_LAUNCH(1);
    case 2: A12_LAUNCH(2);
    case 4: A12_LAUNCH(4);
    case 8: A12_LAUNCH(8);
    case 16: A12_LAUNCH(16);
    default: A12_LAUNCH(32);
  }
#undef A12_LAUNCH
}
}  // namespace

// ---- Step 1: unfused ---------------------------------------------------------------------
// Two kernels, as two library calls would run them: RMSNorm reads x and writes its bf16 result
// to an intermediate in HBM, then RoPE reads it back with the table's cos/sin and writes y.
// The activations cross HBM four times, and the intermediate is rounded to bf16 once more.
void launch_unfused(const RopeNormArgs& a) {
  launch_token_heads<1, true, CosSin::none>(a.x, a.tmp, a);
  launch_token_heads<1, false, CosSin::table>(a.tmp, a.y, a);
}

// ---- Step 2: fused_table -----------------------------------------------------------------
// One kernel: the normalised row stays in registers and shared memory and is rotated there, so
// x is read once and y written once: half the activation bytes of step 1. cos/sin still come
// from the table, one row of rotary_dim / 2 pairs per token, shared by all its heads.
void launch_fused_table(const RopeNormArgs& a) { launch_token_heads<1, true, CosSin::table>(a.x, a.y, a); }

// ---- Step 3: fused_compute ---------------------------------------------------------------
// The table goes too: each block computes its token's rotary_dim / 2 phases in fp32 and their
// sincosf once, for all the token's heads. The bytes left are the problem's minimum.
void launch_fused_compute(const RopeNormArgs& a) { launch_token_heads<1, true, CosSin::compute>(a.x, a.y, a); }

// ---- Step 4: fused_batched --------------------------------------------------------------
// Steps 1-3 load one head row per group, reduce it, wait at the barriers, and only then load the
// next: each thread has one 16-byte load in flight at a time. Here a group loads the rows of up
// to kBatch of the token's heads before it works on the first, so each thread keeps kBatch
// loads in flight. A memory-bound kernel needs bytes in flight = bandwidth x latency (Little's
// law) to keep HBM busy; the bytes stay the minimum.
constexpr int kBatch = 4;
void launch_fused_batched(const RopeNormArgs& a) { launch_token_heads<kBatch, true, CosSin::compute>(a.x, a.y, a); }

}  // namespace tutor::a12
