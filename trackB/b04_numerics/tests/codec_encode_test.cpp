// B04 codec: encode (fp32 -> narrow format), round to nearest with ties to even (OFP8 sec. 5.2.1),
// overflow with and without saturation, and the special inputs. Each expected code is derived
// by hand beside it. "Tie" means the input is exactly halfway between two neighbouring codes;
// ties go to the code whose last fraction bit is 0 (the even code).
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "low_precision.hpp"

namespace tutor::b04 {
namespace {

constexpr Overflow kSat = Overflow::saturate;
constexpr Overflow kNoSat = Overflow::non_saturating;

float above(float x) { return std::nextafter(x, INFINITY); }
float below(float x) { return std::nextafter(x, -INFINITY); }

// ---- ties to even at the bottom of the range and at the subnormal/normal boundary ------------

TEST(CodecEncode, E4M3FN_TiesToEvenAtSubnormalNormalBoundary) {
  // largest subnormal 0x07 = 7 * 2^-9, min normal 0x08 = 8 * 2^-9; halfway 7.5 * 2^-9: tie -> 0x08 (even)
  const float mid = 7.5f * 0x1p-9f;
  EXPECT_EQ(encode(Format::e4m3fn, mid, kNoSat), 0x08);
  EXPECT_EQ(encode(Format::e4m3fn, below(mid), kNoSat), 0x07);
  EXPECT_EQ(encode(Format::e4m3fn, above(mid), kNoSat), 0x08);
  // 0x01 = 2^-9 and 0x02 = 2^-8; halfway 1.5 * 2^-9: tie -> 0x02 (even)
  EXPECT_EQ(encode(Format::e4m3fn, 1.5f * 0x1p-9f, kNoSat), 0x02);
  // 0x02 and 0x03; halfway 2.5 * 2^-9: tie -> 0x02 (even), not up
  EXPECT_EQ(encode(Format::e4m3fn, 2.5f * 0x1p-9f, kNoSat), 0x02);
  // 0 and min subnormal 2^-9; halfway 2^-10: tie -> 0x00; just above -> 0x01
  EXPECT_EQ(encode(Format::e4m3fn, 0x1p-10f, kNoSat), 0x00);
  EXPECT_EQ(encode(Format::e4m3fn, above(0x1p-10f), kNoSat), 0x01);
  // the same on the negative side: -2^-10 -> -0 = 0x80; just below -> 0x81
  EXPECT_EQ(encode(Format::e4m3fn, -0x1p-10f, kNoSat), 0x80);
  EXPECT_EQ(encode(Format::e4m3fn, below(-0x1p-10f), kNoSat), 0x81);
}

TEST(CodecEncode, E5M2_TiesToEvenAtSubnormalNormalBoundary) {
  // 0x03 = 3 * 2^-16 (largest subnormal), 0x04 = 2^-14 = 4 * 2^-16; halfway 3.5 * 2^-16 -> 0x04 (even)
  EXPECT_EQ(encode(Format::e5m2, 3.5f * 0x1p-16f, kNoSat), 0x04);
  EXPECT_EQ(encode(Format::e5m2, below(3.5f * 0x1p-16f), kNoSat), 0x03);
  // 0 and 2^-16; halfway 2^-17 -> 0; 0x01 and 0x02, halfway 1.5 * 2^-16 -> 0x02
  EXPECT_EQ(encode(Format::e5m2, 0x1p-17f, kNoSat), 0x00);
  EXPECT_EQ(encode(Format::e5m2, 1.5f * 0x1p-16f, kNoSat), 0x02);
}

TEST(CodecEncode, FNUZ_TiesToEvenAtSubnormalNormalBoundary) {
  // e4m3fnuz: 0x07 = 7 * 2^-10, 0x08 = 2^-7 = 8 * 2^-10; halfway 7.5 * 2^-10 -> 0x08
  EXPECT_EQ(encode(Format::e4m3fnuz, 7.5f * 0x1p-10f, kNoSat), 0x08);
  EXPECT_EQ(encode(Format::e4m3fnuz, below(7.5f * 0x1p-10f), kNoSat), 0x07);
  // e5m2fnuz: 0x03 = 3 * 2^-17, 0x04 = 2^-15 = 4 * 2^-17; halfway 3.5 * 2^-17 -> 0x04
  EXPECT_EQ(encode(Format::e5m2fnuz, 3.5f * 0x1p-17f, kNoSat), 0x04);
}

TEST(CodecEncode, E2M1_TiesToEven) {
  // 0 and 0.5: halfway 0.25 -> 0; 0.5 (0x1) and 1 (0x2): halfway 0.75 -> 0x2; 1 and 1.5: 1.25 -> 0x2;
  // 1.5 (0x3) and 2 (0x4): 1.75 -> 0x4; 2 and 3: 2.5 -> 0x4; 3 (0x5) and 4 (0x6): 3.5 -> 0x6
  EXPECT_EQ(encode(Format::e2m1, 0.25f, kSat), 0x0);
  EXPECT_EQ(encode(Format::e2m1, above(0.25f), kSat), 0x1);
  EXPECT_EQ(encode(Format::e2m1, 0.75f, kSat), 0x2);
  EXPECT_EQ(encode(Format::e2m1, 1.25f, kSat), 0x2);
  EXPECT_EQ(encode(Format::e2m1, 1.75f, kSat), 0x4);
  EXPECT_EQ(encode(Format::e2m1, 2.5f, kSat), 0x4);
  EXPECT_EQ(encode(Format::e2m1, 3.5f, kSat), 0x6);
  EXPECT_EQ(encode(Format::e2m1, -3.5f, kSat), 0xE);  // sign bit 3
}

// ---- ties between the two largest finite values ----------------------------------------------

TEST(CodecEncode, TiesToEvenBetweenTheTwoLargestFiniteValues) {
  // e4m3fn: 0x7D = 2^8 * 1.625 = 416, 0x7E = 448; halfway 432 -> 0x7E (fraction 110, even)
  EXPECT_EQ(encode(Format::e4m3fn, 432.0f, kNoSat), 0x7E);
  EXPECT_EQ(encode(Format::e4m3fn, below(432.0f), kNoSat), 0x7D);
  // e5m2: 0x7A = 2^15 * 1.5 = 49152, 0x7B = 57344; halfway 53248 -> 0x7A (fraction 10, even)
  EXPECT_EQ(encode(Format::e5m2, 53248.0f, kNoSat), 0x7A);
  EXPECT_EQ(encode(Format::e5m2, above(53248.0f), kNoSat), 0x7B);
  // e4m3fnuz: 0x7E = 2^7 * 1.75 = 224, 0x7F = 240; halfway 232 -> 0x7E
  EXPECT_EQ(encode(Format::e4m3fnuz, 232.0f, kNoSat), 0x7E);
  EXPECT_EQ(encode(Format::e4m3fnuz, above(232.0f), kNoSat), 0x7F);
  // e5m2fnuz: 0x7E = 49152, 0x7F = 57344; halfway 53248 -> 0x7E
  EXPECT_EQ(encode(Format::e5m2fnuz, 53248.0f, kNoSat), 0x7E);
  // e2m1: 0x6 = 4, 0x7 = 6; halfway 5 -> 0x6
  EXPECT_EQ(encode(Format::e2m1, 5.0f, kSat), 0x6);
  EXPECT_EQ(encode(Format::e2m1, above(5.0f), kSat), 0x7);
}

// ---- just above the largest finite value, with and without saturation ----------------------

TEST(CodecEncode, E4M3FN_AboveMaxFinite) {
  // Rounding with an unbounded exponent, the code after 0x7E (448) would be 2^8 * 1.875 = 480;
  // halfway is 464. Below 464 rounds to 448 in both modes; 464 is a tie and goes to the even
  // 448; above 464 overflows: NaN (0x7F, sign kept) without saturation, 448 with it.
  EXPECT_EQ(encode(Format::e4m3fn, 460.0f, kNoSat), 0x7E);
  EXPECT_EQ(encode(Format::e4m3fn, 464.0f, kNoSat), 0x7E);
  EXPECT_EQ(encode(Format::e4m3fn, 464.0f, kSat), 0x7E);
  EXPECT_EQ(encode(Format::e4m3fn, above(464.0f), kNoSat), 0x7F);
  EXPECT_EQ(encode(Format::e4m3fn, above(464.0f), kSat), 0x7E);
  EXPECT_EQ(encode(Format::e4m3fn, -500.0f, kNoSat), 0xFF);
  EXPECT_EQ(encode(Format::e4m3fn, -500.0f, kSat), 0xFE);
  EXPECT_EQ(encode(Format::e4m3fn, 1e30f, kSat), 0x7E);
}

TEST(CodecEncode, E5M2_AboveMaxFinite) {
  // after 0x7B (57344) the next code would be 2^16 = 65536 (0x7C, inf); halfway 61440 is a tie
  // between fraction 11 (odd) and the next binade (even): it rounds up, so it overflows.
  EXPECT_EQ(encode(Format::e5m2, below(61440.0f), kNoSat), 0x7B);
  EXPECT_EQ(encode(Format::e5m2, 61440.0f, kNoSat), 0x7C);  // +inf
  EXPECT_EQ(encode(Format::e5m2, 61440.0f, kSat), 0x7B);
  EXPECT_EQ(encode(Format::e5m2, -61440.0f, kNoSat), 0xFC);
  EXPECT_EQ(encode(Format::e5m2, -1e10f, kSat), 0xFB);
}

TEST(CodecEncode, FNUZ_AboveMaxFinite) {
  // e4m3fnuz: after 0x7F (240) comes 2^8 = 256; halfway 248 rounds up (240's fraction 111 is odd):
  // overflow -> NaN 0x80 without saturation, 240 with it. Just below 248 -> 240.
  EXPECT_EQ(encode(Format::e4m3fnuz, below(248.0f), kNoSat), 0x7F);
  EXPECT_EQ(encode(Format::e4m3fnuz, 248.0f, kNoSat), 0x80);
  EXPECT_EQ(encode(Format::e4m3fnuz, 248.0f, kSat), 0x7F);
  EXPECT_EQ(encode(Format::e4m3fnuz, -300.0f, kNoSat), 0x80);  // NaN has no sign in FNUZ
  EXPECT_EQ(encode(Format::e4m3fnuz, -300.0f, kSat), 0xFF);
  // e5m2fnuz: after 57344 comes 65536; halfway 61440 overflows
  EXPECT_EQ(encode(Format::e5m2fnuz, 61440.0f, kNoSat), 0x80);
  EXPECT_EQ(encode(Format::e5m2fnuz, 61440.0f, kSat), 0x7F);
}

TEST(CodecEncode, E2M1_AlwaysSaturates) {
  // after 6 (0x7) would come 8; halfway 7 rounds up (6's fraction bit 1 is odd) and overflows;
  // e2m1 has no inf or NaN, so both modes give +-6
  EXPECT_EQ(encode(Format::e2m1, 7.0f, kNoSat), 0x7);
  EXPECT_EQ(encode(Format::e2m1, 100.0f, kNoSat), 0x7);
  EXPECT_EQ(encode(Format::e2m1, -100.0f, kSat), 0xF);
  EXPECT_EQ(encode(Format::e2m1, INFINITY, kNoSat), 0x7);
}

// ---- special inputs ----------------------------------------------------------------------------

TEST(CodecEncode, NegativeZeroAndNaNIntoFNUZ) {
  // FNUZ has no -0: -0.0 and negative values that round to zero give 0x00, never 0x80 (NaN)
  for (Format f : {Format::e4m3fnuz, Format::e5m2fnuz}) {
    EXPECT_EQ(encode(f, -0.0f, kNoSat), 0x00) << info(f).name;
    EXPECT_EQ(encode(f, -1e-30f, kNoSat), 0x00) << info(f).name;
    EXPECT_EQ(encode(f, std::numeric_limits<float>::quiet_NaN(), kNoSat), 0x80) << info(f).name;
    EXPECT_EQ(encode(f, -std::numeric_limits<float>::quiet_NaN(), kSat), 0x80) << info(f).name;
    EXPECT_EQ(encode(f, std::numeric_limits<float>::signaling_NaN(), kSat), 0x80) << info(f).name;
  }
  // OCP keeps -0: -0.0 -> 0x80, and a tiny negative rounds to -0
  EXPECT_EQ(encode(Format::e4m3fn, -0.0f, kNoSat), 0x80);
  EXPECT_EQ(encode(Format::e5m2, -1e-30f, kNoSat), 0x80);
}

TEST(CodecEncode, InfinityIntoE4M3FN) {
  // E4M3FN has no inf: non-saturating gives NaN with the input's sign (cuda_fp8.h __NV_NOSAT:
  // 0x7F | sign); saturating gives +-448 (__NV_SATFINITE: larger than MAXNORM -> MAXNORM)
  EXPECT_EQ(encode(Format::e4m3fn, INFINITY, kNoSat), 0x7F);
  EXPECT_EQ(encode(Format::e4m3fn, -INFINITY, kNoSat), 0xFF);
  EXPECT_EQ(encode(Format::e4m3fn, INFINITY, kSat), 0x7E);
  EXPECT_EQ(encode(Format::e4m3fn, -INFINITY, kSat), 0xFE);
  // E5M2 has inf: non-saturating keeps it, saturating gives +-57344
  EXPECT_EQ(encode(Format::e5m2, INFINITY, kNoSat), 0x7C);
  EXPECT_EQ(encode(Format::e5m2, -INFINITY, kSat), 0xFB);
  // FNUZ has no inf: NaN 0x80, or +-max with saturation (ONNX's Cast would give NaN here too)
  EXPECT_EQ(encode(Format::e4m3fnuz, INFINITY, kNoSat), 0x80);
  EXPECT_EQ(encode(Format::e4m3fnuz, -INFINITY, kSat), 0xFF);
}

TEST(CodecEncode, NaNIntoEveryFormat) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // OCP: CUDA's canonical NaN 0x7F whatever the input's sign (OFP8 leaves NaN sign and payload open)
  EXPECT_EQ(encode(Format::e4m3fn, -nan, kSat), 0x7F);
  EXPECT_EQ(encode(Format::e5m2, nan, kNoSat), 0x7F);
  // e2m1 has no NaN: CUDA's cuda_fp4.h gives +MAXNORM = +6 = 0x7
  EXPECT_EQ(encode(Format::e2m1, nan, kSat), 0x7);
  EXPECT_EQ(encode(Format::e8m0, nan, kSat), 0xFF);
}

TEST(CodecEncode, ExactValuesAndSignsRoundTrip) {
  EXPECT_EQ(encode(Format::e4m3fn, 1.0f, kNoSat), 0x38);   // 0 0111 000
  EXPECT_EQ(encode(Format::e4m3fnuz, 1.0f, kNoSat), 0x40); // 0 1000 000: 2^(8 - 8)
  EXPECT_EQ(encode(Format::e4m3fn, -1.5f, kNoSat), 0xBC);  // 1 0111 100
  EXPECT_EQ(encode(Format::e5m2, 1.0f, kNoSat), 0x3C);     // 0 01111 00
  EXPECT_EQ(encode(Format::e5m2fnuz, 1.0f, kNoSat), 0x40); // 0 10000 00
  // fp32 subnormals are far below half of every format's smallest subnormal: +-0
  EXPECT_EQ(encode(Format::e4m3fn, 0x1p-140f, kNoSat), 0x00);
  EXPECT_EQ(encode(Format::e4m3fn, -0x1p-140f, kNoSat), 0x80);
}

// ---- rounding once vs twice -------------------------------------------------------------------

TEST(CodecEncode, DoubleRoundingThroughFp16OrBf16ChangesTheCode) {
  // x = 1.0625 + 2^-13. e4m3fn codes near 1: 1.0 (0x38) and 1.125 (0x39), halfway 1.0625.
  // Directly: x is above halfway -> 0x39.
  // Through fp16 (10 fraction bits, spacing 2^-10 at 1): 2^-13 < 2^-11 (half a spacing), so x
  // rounds to 1.0625, which is exactly the tie and goes to the even 0x38.
  // Through bf16 (7 fraction bits, spacing 2^-7): same, 1.0625 is representable, then 0x38.
  const float x = 1.0625f + 0x1p-13f;
  EXPECT_EQ(encode(Format::e4m3fn, x, kNoSat), 0x39);
  EXPECT_EQ(from_fp16(to_fp16(x)), 1.0625f);
  EXPECT_EQ(encode(Format::e4m3fn, from_fp16(to_fp16(x)), kNoSat), 0x38);
  EXPECT_EQ(from_bf16(to_bf16(x)), 1.0625f);
  EXPECT_EQ(encode(Format::e4m3fn, from_bf16(to_bf16(x)), kNoSat), 0x38);
}

// ---- e8m0 --------------------------------------------------------------------------------------

TEST(CodecEncode, E8M0_RoundingDirections) {
  // 3.5 = 1.75 * 2^1: toward zero 2^1 (0x80), up 2^2 (0x81), nearest 2^2 (0.75 above 2^1 > half)
  EXPECT_EQ(encode(Format::e8m0, 3.5f, kSat), 0x80);
  EXPECT_EQ(encode_e8m0(3.5f, E8m0Rounding::toward_zero, kSat), 0x80);
  EXPECT_EQ(encode_e8m0(3.5f, E8m0Rounding::up, kSat), 0x81);
  EXPECT_EQ(encode_e8m0(3.5f, E8m0Rounding::nearest_even, kSat), 0x81);
  // 3 = 1.5 * 2^1, the tie between 2 (0x80, even) and 4 (0x81): nearest-even -> 0x80
  EXPECT_EQ(encode_e8m0(3.0f, E8m0Rounding::nearest_even, kSat), 0x80);
  // powers of two are exact in every direction; the sign is ignored
  EXPECT_EQ(encode_e8m0(-4.0f, E8m0Rounding::up, kSat), 0x81);
  EXPECT_EQ(encode(Format::e8m0, 1.0f, kSat), 0x7F);
  // 0 and anything below 2^-127 clip to 2^-127 (0x00); 2^-127 < x < 2^-126 rounds up to 0x01
  EXPECT_EQ(encode(Format::e8m0, 0.0f, kSat), 0x00);
  EXPECT_EQ(encode_e8m0(0x1.8p-127f, E8m0Rounding::up, kSat), 0x01);
  EXPECT_EQ(encode_e8m0(0x1.8p-127f, E8m0Rounding::toward_zero, kSat), 0x00);
  // above 2^127: 1.5 * 2^127 rounded up is 2^128, out of range: 0xFE saturated, 0xFF (NaN) otherwise
  EXPECT_EQ(encode_e8m0(0x1.8p127f, E8m0Rounding::up, kSat), 0xFE);
  EXPECT_EQ(encode_e8m0(0x1.8p127f, E8m0Rounding::up, kNoSat), 0xFF);
  EXPECT_EQ(encode(Format::e8m0, INFINITY, kSat), 0xFE);
  EXPECT_EQ(encode(Format::e8m0, INFINITY, kNoSat), 0xFF);
}

// ---- bf16 and fp16 ----------------------------------------------------------------------------

TEST(CodecEncode, Fp16_OverflowSubnormalsAndTies) {
  // binary16 max 0x7BFF = 2^15 * (2 - 2^-10) = 65504; the next step would be 65536; halfway
  // 65520 ties up (fraction 0x3FF is odd) -> inf; below it -> 65504
  EXPECT_EQ(to_fp16(65504.0f), 0x7BFF);
  EXPECT_EQ(to_fp16(below(65520.0f)), 0x7BFF);
  EXPECT_EQ(to_fp16(65520.0f), 0x7C00);
  EXPECT_EQ(to_fp16(-1e6f), 0xFC00);
  // smallest subnormal 2^-24 = 0x0001; 2^-25 is the tie with 0 -> 0; 1.5 * 2^-24 ties to 0x0002
  EXPECT_EQ(to_fp16(0x1p-24f), 0x0001);
  EXPECT_EQ(to_fp16(0x1p-25f), 0x0000);
  EXPECT_EQ(to_fp16(1.5f * 0x1p-24f), 0x0002);
  // 1 + 2^-11 is the tie between 1 (0x3C00) and 1 + 2^-10 (0x3C01) -> 0x3C00
  EXPECT_EQ(to_fp16(1.0f + 0x1p-11f), 0x3C00);
  EXPECT_EQ(to_fp16(std::numeric_limits<float>::quiet_NaN()) & 0x7E00, 0x7E00);
  EXPECT_EQ(from_fp16(0x7BFF), 65504.0f);
  EXPECT_EQ(from_fp16(0x0001), 0x1p-24f);
  EXPECT_EQ(from_fp16(0xFC00), -INFINITY);
}

TEST(CodecEncode, Bf16_TiesAndOverflow) {
  // bf16 keeps fp32's top 16 bits: 1 + 2^-8 ties between 1 (0x3F80) and 1 + 2^-7 (0x3F81) -> 0x3F80;
  // 1 + 3 * 2^-8 ties between 0x3F81 (odd) and 0x3F82 -> 0x3F82
  EXPECT_EQ(to_bf16(1.0f + 0x1p-8f), 0x3F80);
  EXPECT_EQ(to_bf16(1.0f + 3 * 0x1p-8f), 0x3F82);
  // the largest fp32 rounds past bf16's max 0x7F7F (= (2 - 2^-7) * 2^127) to inf
  EXPECT_EQ(to_bf16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(to_bf16(-std::numeric_limits<float>::quiet_NaN()), 0xFFC0);
  EXPECT_EQ(from_bf16(0x3F80), 1.0f);
}

}  // namespace
}  // namespace tutor::b04
