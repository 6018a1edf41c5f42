// A12 exercise 2, rope_rmsnorm_compute (CUDA; HIP twin: ../hip/rope_rmsnorm_compute.hip).
//
// The fused kernel below reads nothing but x, the weights and the positions: each block computes
// its token's (cos, sin) pairs itself, once, for all the token's heads (step 3, fused_compute).
// Write exercise_cos_sin, the rotation of one pair: RoFormer (Su et al. 2021) eq. 15 gives
// theta_i = base^(-2i / rotary_dim) (inv_freq, read from a small array) and the angle of pair i
// at position m is m theta_i. Then run
//   ./build/a12_rope_rmsnorm --variant exercise_compute --variant fused_compute
// The lab verifies it on every shape (positions up to 32767, so angles up to 32767 radians) and
// times it beside fused_compute; until the TODO is done the rotated elements are NaN.
//
// Hints: the reference forms the angle as one fp32 product, rounded once; a multiply that the
// compiler fuses with a later add into an FMA is rounded differently (__fmul_rn is never fused).
// Which sine is accurate at 30000 radians: __sinf or sinf? (CUDA C++ Programming Guide,
// "Mathematical Functions" and "Intrinsic Functions".) The worked solution:
// ../solutions/cuda/rope_rmsnorm_compute.cu.
#include "tutor_gpu_check.hpp"
#include "rope_rmsnorm.hpp"

#include "tutor/device/vector_io.hpp"
#include "tutor/device/warp_reduce.hpp"

namespace tutor::a12 {

// bf16 travels as its 16 bits; widening to fp32 is exact (bf16 is the top half of an fp32).
__device__ inline float ex_bf16_to_f32(std::uint16_t bits) { return __uint_as_float(std::uint32_t(bits) << 16); }

// Round to nearest, ties to even (Kalamkar et al. 2019, sec. 2); a NaN stays a quiet NaN.
__device__ inline std::uint16_t ex_f32_to_bf16(float v) {
  std::uint32_t u = __float_as_uint(v);
  if (v != v) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}

namespace {
// (cos, sin) of the rotation of one pair at `position`, whose frequency is `inv_freq`.
__device__ inline float2 exercise_cos_sin(int position, float inv_freq) {
  // TODO: the angle is the fp32 product position x inv_freq, rounded once (as the reference
  // forms it); return its cosine and sine. Until then: NaN, which verification reports.
  (void)position; (void)inv_freq;
  return make_float2(__int_as_float(0x7fc00000), __int_as_float(0x7fc00000));
}

template <int Lanes>
__global__ void __launch_bounds__(kBlockThreads) exercise_compute(RopeNormArgs a) {
  __shared__ float2 cs[kMaxHeadDim / 2];            // this token's (cos, sin) per pair
  __shared__ float rows[kBlockThreads * kVec];      // one head row per group of Lanes lanes, fp32
  const int token = blockIdx.x, half = a.rotary_dim / 2, heads = a.q_heads + a.kv_heads;
  const int position = a.positions[token];
  for (int p = threadIdx.x; p < half; p += blockDim.x)  // once per token, for all its heads
    cs[p] = exercise_cos_sin(position, a.inv_freq[p]);
  __syncthreads();
  const int lane = threadIdx.x % Lanes, group = threadIdx.x / Lanes, e0 = lane * kVec;
  float* mine = rows + group * Lanes * kVec;  // element k of lane l at k * Lanes + l: a group's lanes in distinct banks
  for (int first = 0; first < heads; first += kBlockThreads / Lanes) {  // the same trip count everywhere
    const int head = first + group;
    const bool active = head < heads;
    const std::size_t row = (std::size_t(token) * heads + (active ? head : 0)) * a.head_dim;
    device::Vec<std::uint16_t, kVec> v{};
    if (active) v = device::load_vec<kVec>(a.x + row, e0, a.head_dim, std::uint16_t(0));
    float f[kVec], sum_sq = 0.0f;
    for (int k = 0; k < kVec; ++k) {
      f[k] = ex_bf16_to_f32(v[k]);
      sum_sq += f[k] * f[k];  // fp32: bf16 squares would lose all but 8 bits
    }
    const float inv_rms = rsqrtf(device::warp_reduce_sum<Lanes>(sum_sq) / float(a.head_dim) + a.eps);
    const auto w = device::load_vec<kVec>(head < a.q_heads ? a.q_weight : a.k_weight, e0, a.head_dim, std::uint16_t(0));
    for (int k = 0; k < kVec; ++k) {
      f[k] = f[k] * inv_rms * ex_bf16_to_f32(w[k]);
      mine[k * Lanes + lane] = f[k];
    }
    __syncthreads();  // the whole row is in shared memory
    device::Vec<std::uint16_t, kVec> o;
    for (int k = 0; k < kVec; ++k) {
      const int e = e0 + k;
      float r = f[k];
      if (e < a.rotary_dim) {
        const bool lower = a.layout == Layout::rotate_half ? e < half : (e & 1) == 0;
        const int pair = a.layout == Layout::rotate_half ? (lower ? e : e - half) : e / 2;
        const int other = a.layout == Layout::rotate_half ? (lower ? e + half : e - half) : (e ^ 1);
        const float b = mine[(other % kVec) * Lanes + other / kVec];
        r = lower ? f[k] * cs[pair].x - b * cs[pair].y : f[k] * cs[pair].x + b * cs[pair].y;
      }
      o[k] = ex_f32_to_bf16(r);
    }
    __syncthreads();  // every lane has read the row before the next head overwrites it
    if (active) device::store_vec<kVec>(a.y + row, e0, a.head_dim, o);
  }
}
}  // namespace

void launch_exercise_compute(const RopeNormArgs& a) {
  switch (lanes_per_row(a.head_dim)) {
    case 1: exercise_compute<1><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_compute<1>); break;
    case 2: exercise_compute<2><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_compute<2>); break;
    case 4: exercise_compute<4><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_compute<4>); break;
    case 8: exercise_compute<8><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_compute<8>); break;
    case 16: exercise_compute<16><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_compute<16>); break;
    default: exercise_compute<32><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_compute<32>); break;
  }
}

}  // namespace tutor::a12
