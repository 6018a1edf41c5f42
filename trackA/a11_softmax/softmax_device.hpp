#pragma once
// A11: the device pieces every softmax kernel shares (the ladder's and the exercises'), for both
// vendors (tutor/device/portability.hpp tells the compilers apart): element loads in fp32 from
// fp32 or bf16, the online normaliser and its merge, and the warp and block merges built on the
// shared butterfly (tutor/device/warp_reduce.hpp). C++17: kernel files include it.
#include <cmath>
#include <cstdint>

#include "tutor/device/block_reduce.hpp"
#include "tutor/device/portability.hpp"
#include "tutor/device/warp_reduce.hpp"

namespace tutor::a11 {

#if TUTOR_GPU_COMPILER
// bf16 travels as its 16 bits and is widened to fp32 for arithmetic (bf16 is the top half of an
// fp32), then rounded back once per output element.
TUTOR_DEVICE inline float to_f32(float v) { return v; }
TUTOR_DEVICE inline float to_f32(std::uint16_t bits) { return __uint_as_float(std::uint32_t(bits) << 16); }

// Round to nearest, ties to even (Kalamkar et al. 2019, "A Study of BFLOAT16 for Deep Learning
// Training", sec. 2); a NaN stays a quiet NaN.
template <class T>
TUTOR_DEVICE inline T from_f32(float v);
template <>
TUTOR_DEVICE inline float from_f32<float>(float v) { return v; }
template <>
TUTOR_DEVICE inline std::uint16_t from_f32<std::uint16_t>(float v) {
  std::uint32_t u = __float_as_uint(v);
  if (v != v) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}

// -infinity in T: the fill of elements past the row's end, which no maximum or sum sees.
template <class T>
TUTOR_DEVICE inline T minus_infinity();
template <>
TUTOR_DEVICE inline float minus_infinity<float>() { return -__int_as_float(0x7f800000); }
template <>
TUTOR_DEVICE inline std::uint16_t minus_infinity<std::uint16_t>() { return 0xff80u; }

// exp(x - m), with the row's maximum m. Where m is -infinity every element is: 0 / 0 then
// gives NaN, as torch.softmax does for a fully masked row.
TUTOR_DEVICE inline float shifted_exp(float x, float m) { return expf(x - m); }

// The same with the approximate exponential (CUDA C++ Programming Guide, "Intrinsic Functions":
// __expf has a maximum error of 2 + floor(abs(1.173 * x)) ulp; HIP provides the same name),
// for the fast_math step. exp(-inf) is still 0 and -inf - (-inf) is still NaN.
TUTOR_DEVICE inline float fast_shifted_exp(float x, float m) { return __expf(x - m); }

template <bool kFast>
TUTOR_DEVICE inline float exp_of(float x, float m) {
  if constexpr (kFast) return fast_shifted_exp(x, m);
  else return shifted_exp(x, m);
}
#endif

/// The online normaliser (Milakov and Gimelshein 2018, "Online normalizer calculation for
/// softmax", alg. 3): the maximum m seen so far and d = sum of exp(x - m) over the elements seen.
struct MaxSum {
  float m;
  float d;
};

/// Merging two partial normalisers (the same paper, eq. 4 and sec. 3.1): the larger maximum
/// wins and the other's sum is rescaled by exp(m_other - m). Where a maximum equals the merged
/// one the factor is 1, not exp(m - m): for two -infinity maxima that is exp(NaN), which would
/// turn a masked stretch's empty sum (0) into NaN and poison the rest of the row.
struct MergeMaxSum {
  TUTOR_HOST_DEVICE MaxSum operator()(MaxSum a, MaxSum b) const {
    const float m = a.m > b.m ? a.m : b.m;
    const float sa = a.m == m ? 1.0f : expf(a.m - m);
    const float sb = b.m == m ? 1.0f : expf(b.m - m);
    return {m, a.d * sa + b.d * sb};
  }
};

#if TUTOR_GPU_COMPILER
// One more element into a thread's normaliser: the merge with (x, 1).
TUTOR_DEVICE inline MaxSum online_update(MaxSum s, float x) { return MergeMaxSum{}(s, MaxSum{x, 1.0f}); }

// Every lane of the warp (wavefront) gets the merge of all lanes' normalisers: the shared
// butterfly with the pair shuffled one field at a time.
TUTOR_DEVICE inline MaxSum warp_merge(MaxSum s) {
  const device::ShuffleXor<device::kWarpLanes> shuffle;
  return device::butterfly_allreduce<device::kWarpLanes>(
      s, [&](MaxSum v, int lane_mask) { return MaxSum{shuffle(v.m, lane_mask), shuffle(v.d, lane_mask)}; },
      device::LaneOrderedCombine<MergeMaxSum>{device::lane_index(), MergeMaxSum{}});
}

// Every thread of the block gets the merge of all threads' normalisers: each warp merges, lane 0
// writes the warp's pair to `scratch` (kMaxWarpsPerBlock pairs of shared memory), and every
// thread folds the pairs in warp order (as tutor::device::block_reduce does for one value).
TUTOR_DEVICE inline MaxSum block_merge(MaxSum s, MaxSum* scratch) {
  const int thread = device::linear_thread_index();
  s = warp_merge(s);
  if (thread % device::kWarpLanes == 0) scratch[thread / device::kWarpLanes] = s;
  __syncthreads();
  s = device::combine_partials(scratch, device::warps_in_block(device::threads_in_block(), device::kWarpLanes),
                               MergeMaxSum{});
  __syncthreads();
  return s;
}
#endif

}  // namespace tutor::a11
