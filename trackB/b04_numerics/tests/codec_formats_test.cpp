// B04 codec: the format facts and the decoding of every special code, each expected value
// derived by hand from the specification next to it.
//
// Notation: S.EEEE.MMM is sign, exponent field, fraction field. A normal code is worth
// (-1)^S * 2^(E - bias) * (1 + M / 2^m), a subnormal one (E = 0) (-1)^S * 2^(1 - bias) * M / 2^m.
// OFP8 = OCP 8-bit Floating Point Specification rev. 1.0 (2023), sec. 5.1, Tables 1 and 2.
// FNUZ = Noune et al., arXiv:2206.02915, and AMD ROCm "Data types and precision support".
// MX = OCP Microscaling Formats Specification v1.0 (2023).
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "low_precision.hpp"

namespace tutor::b04 {
namespace {

bool is_negative_zero(float v) { return v == 0 && std::signbit(v); }

TEST(CodecFormats, E4M3FN_FactsFromOFP8Table1And2) {
  const FormatInfo f = info(Format::e4m3fn);
  EXPECT_EQ(f.bias, 7);  // OFP8 Table 1: exponent bias 7
  // max S.1111.110: 2^(15 - 7) * (1 + 6/8) = 256 * 1.75 = 448 (S.1111.111 is NaN, so 0x7E is the top)
  EXPECT_EQ(f.max_finite, 448.0f);
  EXPECT_EQ(decode(Format::e4m3fn, 0x7E), 448.0f);
  EXPECT_EQ(decode(Format::e4m3fn, 0xFE), -448.0f);
  // min normal S.0001.000: 2^(1 - 7) = 2^-6
  EXPECT_EQ(f.min_normal, 0x1p-6f);
  EXPECT_EQ(decode(Format::e4m3fn, 0x08), 0x1p-6f);
  // min subnormal S.0000.001: 2^(1 - 7) * 1/8 = 2^-9
  EXPECT_EQ(f.min_subnormal, 0x1p-9f);
  EXPECT_EQ(decode(Format::e4m3fn, 0x01), 0x1p-9f);
  // max subnormal S.0000.111: 2^-6 * 7/8
  EXPECT_EQ(decode(Format::e4m3fn, 0x07), 0x1p-6f * 0.875f);
  // NaN S.1111.111 only: 0x7F and 0xFF; no infinity, so S.1111.000 = 2^8 = 256 is an ordinary number
  EXPECT_TRUE(std::isnan(decode(Format::e4m3fn, 0x7F)));
  EXPECT_TRUE(std::isnan(decode(Format::e4m3fn, 0xFF)));
  EXPECT_EQ(decode(Format::e4m3fn, 0x78), 256.0f);
  EXPECT_FALSE(f.has_inf);
  // zeros S.0000.000: +0 = 0x00, -0 = 0x80
  EXPECT_TRUE(f.has_negative_zero);
  EXPECT_TRUE(is_negative_zero(decode(Format::e4m3fn, 0x80)));
}

TEST(CodecFormats, E5M2_FactsFromOFP8Table1And2) {
  const FormatInfo f = info(Format::e5m2);
  EXPECT_EQ(f.bias, 15);
  // max S.11110.11: 2^(30 - 15) * (1 + 3/4) = 32768 * 1.75 = 57344
  EXPECT_EQ(f.max_finite, 57344.0f);
  EXPECT_EQ(decode(Format::e5m2, 0x7B), 57344.0f);
  // min normal S.00001.00: 2^(1 - 15) = 2^-14; min subnormal S.00000.01: 2^-14 * 1/4 = 2^-16
  EXPECT_EQ(decode(Format::e5m2, 0x04), 0x1p-14f);
  EXPECT_EQ(f.min_normal, 0x1p-14f);
  EXPECT_EQ(decode(Format::e5m2, 0x01), 0x1p-16f);
  EXPECT_EQ(f.min_subnormal, 0x1p-16f);
  // infinities S.11111.00 = 0x7C / 0xFC; NaN S.11111.{01,10,11} = 0x7D..0x7F and 0xFD..0xFF
  EXPECT_EQ(decode(Format::e5m2, 0x7C), INFINITY);
  EXPECT_EQ(decode(Format::e5m2, 0xFC), -INFINITY);
  for (std::uint8_t c : {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF}) EXPECT_TRUE(std::isnan(decode(Format::e5m2, c))) << int(c);
  EXPECT_TRUE(is_negative_zero(decode(Format::e5m2, 0x80)));
}

TEST(CodecFormats, E4M3FNUZ_BiasEightNaNIsNegativeZeroCode) {
  const FormatInfo f = info(Format::e4m3fnuz);
  EXPECT_EQ(f.bias, 8);
  // max S.1111.111 (every exponent is finite): 2^(15 - 8) * (1 + 7/8) = 128 * 1.875 = 240
  EXPECT_EQ(f.max_finite, 240.0f);
  EXPECT_EQ(decode(Format::e4m3fnuz, 0x7F), 240.0f);
  EXPECT_EQ(decode(Format::e4m3fnuz, 0xFF), -240.0f);
  // min normal S.0001.000: 2^(1 - 8) = 2^-7; min subnormal S.0000.001: 2^-7 / 8 = 2^-10
  EXPECT_EQ(decode(Format::e4m3fnuz, 0x08), 0x1p-7f);
  EXPECT_EQ(f.min_normal, 0x1p-7f);
  EXPECT_EQ(decode(Format::e4m3fnuz, 0x01), 0x1p-10f);
  EXPECT_EQ(f.min_subnormal, 0x1p-10f);
  // the only NaN is 1.0000.000 = 0x80 (the code of -0 elsewhere); no -0, no inf
  EXPECT_TRUE(std::isnan(decode(Format::e4m3fnuz, 0x80)));
  for (int c = 0; c < 256; ++c)
    if (c != 0x80) {
      EXPECT_FALSE(std::isnan(decode(Format::e4m3fnuz, std::uint8_t(c)))) << c;
    }
  EXPECT_FALSE(f.has_negative_zero);
  EXPECT_FALSE(f.has_inf);
}

TEST(CodecFormats, E5M2FNUZ_BiasSixteenNoInfinity) {
  const FormatInfo f = info(Format::e5m2fnuz);
  EXPECT_EQ(f.bias, 16);
  // max S.11111.11: 2^(31 - 16) * 1.75 = 57344 (the same max as e5m2, one binade lower at the bottom)
  EXPECT_EQ(decode(Format::e5m2fnuz, 0x7F), 57344.0f);
  // S.11111.00 is 2^15 = 32768 here, where e5m2 has inf
  EXPECT_EQ(decode(Format::e5m2fnuz, 0x7C), 32768.0f);
  // min normal 2^(1 - 16) = 2^-15; min subnormal 2^-15 / 4 = 2^-17
  EXPECT_EQ(decode(Format::e5m2fnuz, 0x04), 0x1p-15f);
  EXPECT_EQ(decode(Format::e5m2fnuz, 0x01), 0x1p-17f);
  EXPECT_EQ(f.min_subnormal, 0x1p-17f);
  EXPECT_TRUE(std::isnan(decode(Format::e5m2fnuz, 0x80)));
  EXPECT_FALSE(f.has_inf);
}

TEST(CodecFormats, E2M1_FactsFromMX) {
  const FormatInfo f = info(Format::e2m1);
  EXPECT_EQ(f.bias, 1);
  // max S.11.1: 2^(3 - 1) * 1.5 = 6; min normal S.01.0: 2^0 = 1; min subnormal S.00.1: 2^0 * 1/2 = 0.5
  EXPECT_EQ(decode(Format::e2m1, 0x7), 6.0f);
  EXPECT_EQ(decode(Format::e2m1, 0x2), 1.0f);
  EXPECT_EQ(decode(Format::e2m1, 0x1), 0.5f);
  EXPECT_EQ(decode(Format::e2m1, 0xF), -6.0f);  // sign is bit 3 of the 4-bit code
  EXPECT_TRUE(is_negative_zero(decode(Format::e2m1, 0x8)));
  // the 8 magnitudes: 0, 0.5, 1, 1.5, 2, 3, 4, 6; no inf, no NaN
  const float magnitudes[] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (int c = 0; c < 8; ++c) EXPECT_EQ(decode(Format::e2m1, std::uint8_t(c)), magnitudes[c]) << c;
  EXPECT_FALSE(f.has_nan);
  EXPECT_EQ(code_count(Format::e2m1), 16);
}

TEST(CodecFormats, E8M0_PowersOfTwoAndNaN) {
  // value = 2^(code - 127); 0x7F = 2^0 = 1; 0x00 = 2^-127 (no zero); 0xFE = 2^127; 0xFF = NaN
  EXPECT_EQ(decode(Format::e8m0, 0x7F), 1.0f);
  EXPECT_EQ(decode(Format::e8m0, 0x00), 0x1p-127f);
  EXPECT_EQ(decode(Format::e8m0, 0xFE), 0x1p127f);
  EXPECT_TRUE(std::isnan(decode(Format::e8m0, 0xFF)));
  EXPECT_EQ(info(Format::e8m0).max_finite, 0x1p127f);
  EXPECT_EQ(info(Format::e8m0).min_normal, 0x1p-127f);
}

TEST(CodecFormats, SameBitsDifferentNumbers_TheHeadlineHazard) {
  // 0x38 = 0 0111 000: 2^(7 - 7) = 1.0 in e4m3fn, 2^(7 - 8) = 0.5 in e4m3fnuz
  EXPECT_EQ(decode(Format::e4m3fn, 0x38), 1.0f);
  EXPECT_EQ(decode(Format::e4m3fnuz, 0x38), 0.5f);
  // 0x80: -0 in OCP, NaN in FNUZ
  EXPECT_TRUE(is_negative_zero(decode(Format::e4m3fn, 0x80)));
  EXPECT_TRUE(std::isnan(decode(Format::e4m3fnuz, 0x80)));
}

TEST(CodecFormats, ClassifyNamesEverySpecial) {
  EXPECT_EQ(classify(Format::e4m3fn, 0x00), CodeClass::zero);
  EXPECT_EQ(classify(Format::e4m3fn, 0x07), CodeClass::subnormal);
  EXPECT_EQ(classify(Format::e4m3fn, 0x08), CodeClass::normal);
  EXPECT_EQ(classify(Format::e4m3fn, 0xFF), CodeClass::nan);
  EXPECT_EQ(classify(Format::e5m2, 0xFC), CodeClass::infinity);
  EXPECT_EQ(classify(Format::e5m2, 0x7E), CodeClass::nan);
  EXPECT_EQ(classify(Format::e4m3fnuz, 0x80), CodeClass::nan);
  EXPECT_EQ(classify(Format::e5m2fnuz, 0x7C), CodeClass::normal);
  EXPECT_EQ(classify(Format::e2m1, 0x8), CodeClass::zero);
  EXPECT_EQ(classify(Format::e8m0, 0x00), CodeClass::normal);
  EXPECT_EQ(classify(Format::e8m0, 0xFF), CodeClass::nan);
  EXPECT_STREQ(to_string(CodeClass::infinity), "inf");
}

TEST(CodecFormats, ParseFormatAcceptsTheSixNamesOnly) {
  for (Format f : {Format::e4m3fn, Format::e5m2, Format::e4m3fnuz, Format::e5m2fnuz, Format::e2m1, Format::e8m0})
    EXPECT_EQ(parse_format(info(f).name), f);
  EXPECT_FALSE(parse_format("e4m3"));
  EXPECT_FALSE(parse_format("E4M3FN"));
  EXPECT_FALSE(parse_format(""));
}

#if defined(__cpp_lib_bit_cast)
// The codecs are constexpr in C++20 host code: the facts can be checked at compile time.
static_assert(decode(Format::e4m3fn, 0x7E) == 448.0f);
static_assert(encode(Format::e4m3fnuz, 240.0f, Overflow::saturate) == 0x7F);
#endif

}  // namespace
}  // namespace tutor::b04
