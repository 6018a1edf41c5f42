// B04 codec against CUDA's own implementation of its conversions: the host versions of
// __nv_cvt_float_to_fp8 (cuda_fp8.h, the same software path __NV_NOSAT takes on the device),
// __nv_cvt_float_to_fp4, __nv_cvt_float_to_e8m0, __float2half_rn and __float2bfloat16_rn.
// Built only where the CUDA headers exist. Inputs: a stride through all 2^32 fp32 patterns
// plus every pattern within 64 ulps of each fp8 code's value and of each rounding midpoint.
// (The full 2^32 sweep of the host path gave 0 mismatches in every mode when this was written;
// the GPU lab b04_fp8_sweep repeats it against the hardware.)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "low_precision.hpp"

namespace tutor::b04 {
namespace {

/// The inputs: every 4099th pattern (a prime stride, so every exponent and fraction pattern
/// class is hit), and the neighbourhood of each code's value and of each midpoint between
/// neighbouring codes of e4m3fn, e5m2 and e2m1, both signs, where rounding decisions happen.
std::vector<std::uint32_t> inputs() {
  std::vector<std::uint32_t> in;
  for (std::uint64_t b = 0; b < (1ull << 32); b += 4099) in.push_back(std::uint32_t(b));
  for (Format f : {Format::e4m3fn, Format::e5m2, Format::e2m1}) {
    std::vector<float> points;
    for (int c = 0; c < code_count(f) / 2; ++c) {
      const float v = decode(f, std::uint8_t(c)), w = decode(f, std::uint8_t(c + 1));
      if (!std::isfinite(v)) continue;
      points.push_back(v);
      points.push_back(std::isfinite(w) ? (v + w) / 2 : v * 1.0625f);  // midpoint, exact in fp32
    }
    for (float p : points)
      for (int d = -64; d <= 64; ++d)
        for (std::uint32_t sign : {0u, 0x80000000u}) in.push_back((bits_of(p) + std::uint32_t(d)) ^ sign);
  }
  for (std::uint32_t special : {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0u, 0x80000000u})
    in.push_back(special);
  return in;
}

std::uint16_t raw(__half h) { std::uint16_t u; std::memcpy(&u, &h, 2); return u; }
std::uint16_t raw(__nv_bfloat16 h) { std::uint16_t u; std::memcpy(&u, &h, 2); return u; }

TEST(CodecCudaReference, Fp8BothModesMatchCudaFp8) {
  std::size_t mismatches = 0;
  for (std::uint32_t b : inputs()) {
    const float x = float_of(b);
    for (auto [f, kind] : {std::pair{Format::e4m3fn, __NV_E4M3}, std::pair{Format::e5m2, __NV_E5M2}}) {
      const unsigned sat = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, kind);
      const unsigned nosat = __nv_cvt_float_to_fp8(x, __NV_NOSAT, kind);
      if (sat != encode(f, x, Overflow::saturate) && ++mismatches < 10)
        ADD_FAILURE() << info(f).name << " saturating x=0x" << std::hex << b << " cuda " << sat;
      if (nosat != encode(f, x, Overflow::non_saturating) && ++mismatches < 10)
        ADD_FAILURE() << info(f).name << " non-saturating x=0x" << std::hex << b << " cuda " << nosat;
    }
  }
  EXPECT_EQ(mismatches, 0u);
}

TEST(CodecCudaReference, Fp4AndE8M0MatchCuda) {
  std::size_t mismatches = 0;
  for (std::uint32_t b : inputs()) {
    const float x = float_of(b);
    mismatches += __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest) != encode(Format::e2m1, x, Overflow::saturate);
    mismatches += __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundZero) !=
                  encode_e8m0(x, E8m0Rounding::toward_zero, Overflow::saturate);
    mismatches += __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundZero) !=
                  encode_e8m0(x, E8m0Rounding::toward_zero, Overflow::non_saturating);
    mismatches += __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf) !=
                  encode_e8m0(x, E8m0Rounding::up, Overflow::saturate);
  }
  EXPECT_EQ(mismatches, 0u);
}

TEST(CodecCudaReference, Fp16AndBf16MatchCuda) {
  std::size_t mismatches = 0;
  for (std::uint32_t b : inputs()) {
    const float x = float_of(b);
    if (std::isnan(x)) continue;  // both give a quiet NaN; the payload is not specified
    mismatches += raw(__float2half_rn(x)) != to_fp16(x);
    mismatches += raw(__float2bfloat16_rn(x)) != to_bf16(x);
  }
  EXPECT_EQ(mismatches, 0u);
}

}  // namespace
}  // namespace tutor::b04
