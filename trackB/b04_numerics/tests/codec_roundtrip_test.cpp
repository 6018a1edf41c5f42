// B04 codec: every code of every format survives decode -> encode -> decode (the round trip the
// issue asks for), in both overflow modes, and the 16-bit formats likewise; and the OCP/FNUZ
// relation holds code by code.
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "low_precision.hpp"

namespace tutor::b04 {
namespace {

constexpr Format kFormats[] = {Format::e4m3fn, Format::e5m2, Format::e4m3fnuz,
                               Format::e5m2fnuz, Format::e2m1, Format::e8m0};

// decode(c) is exactly representable, so encode must return c itself (each value has one code:
// +0 and -0 are different codes and keep their sign), and decode(encode(decode(c))) == decode(c).
TEST(CodecRoundTrip, EveryNonNaNCodeOfEveryFormat) {
  for (Format f : kFormats) {
    int checked = 0;
    for (int i = 0; i < code_count(f); ++i) {
      const auto c = std::uint8_t(i);
      if (classify(f, c) == CodeClass::nan) continue;
      const float v = decode(f, c);
      for (Overflow o : {Overflow::saturate, Overflow::non_saturating}) {
        if (classify(f, c) == CodeClass::infinity && o == Overflow::saturate) continue;  // inf saturates by design
        const std::uint8_t back = encode(f, v, o);
        EXPECT_EQ(back, c) << info(f).name << " code " << i << " value " << v;
        const float again = decode(f, back);
        EXPECT_EQ(std::signbit(again), std::signbit(v)) << info(f).name << " code " << i;
        EXPECT_EQ(again, v) << info(f).name << " code " << i;
      }
      ++checked;
    }
    // non-NaN codes: e4m3fn 254, e5m2 250 (6 NaN), FNUZ 255, e2m1 16, e8m0 255
    const int expected = f == Format::e4m3fn ? 254 : f == Format::e5m2 ? 250 : f == Format::e2m1 ? 16 : 255;
    EXPECT_EQ(checked, expected) << info(f).name;
  }
}

TEST(CodecRoundTrip, NaNCodesDecodeToNaNAndEncodeToTheCanonicalNaN) {
  for (Format f : kFormats)
    for (int i = 0; i < code_count(f); ++i)
      if (classify(f, std::uint8_t(i)) == CodeClass::nan) {
        const float v = decode(f, std::uint8_t(i));
        EXPECT_TRUE(std::isnan(v));
        EXPECT_EQ(classify(f, encode(f, v, Overflow::non_saturating)), CodeClass::nan) << info(f).name << " " << i;
      }
}

TEST(CodecRoundTrip, DecodedValuesIncreaseWithTheCode) {
  // positive codes in order are increasing values: the exponent field sits above the fraction
  for (Format f : kFormats) {
    float previous = -1;
    const int positive = f == Format::e2m1 ? 8 : f == Format::e8m0 ? 255 : 128;
    for (int i = 0; i < positive; ++i) {
      const float v = decode(f, std::uint8_t(i));
      if (std::isnan(v) || std::isinf(v)) continue;
      EXPECT_GT(v, previous) << info(f).name << " code " << i;
      previous = v;
    }
  }
}

TEST(CodecRoundTrip, SameCodeIsWorthTwiceAsMuchInOCPAsInFNUZ) {
  // bias 7 vs 8 (and 15 vs 16) with the same fields: every code that is finite and nonzero in
  // both formats is worth exactly 2x in the OCP one, normal and subnormal alike
  for (auto [ocp, fnuz] : {std::pair{Format::e4m3fn, Format::e4m3fnuz}, std::pair{Format::e5m2, Format::e5m2fnuz}}) {
    int pairs = 0;
    for (int i = 0; i < 256; ++i) {
      const float a = decode(ocp, std::uint8_t(i)), b = decode(fnuz, std::uint8_t(i));
      if (!std::isfinite(a) || !std::isfinite(b) || a == 0) continue;
      EXPECT_EQ(a, 2.0f * b) << info(ocp).name << " code " << i;
      ++pairs;
    }
    // e4m3: 256 - 2 zeros - 2 OCP NaN - 0 = 252; e5m2: 256 - 2 zeros - 8 OCP inf/NaN = 246
    EXPECT_EQ(pairs, ocp == Format::e4m3fn ? 252 : 246);
  }
}

TEST(CodecRoundTrip, Fp16AndBf16EveryNonNaNCode) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const auto code = std::uint16_t(h);
    const bool fp16_nan = (code & 0x7C00) == 0x7C00 && (code & 0x03FF) != 0;
    if (!fp16_nan) {
      EXPECT_EQ(to_fp16(from_fp16(code)), code) << std::hex << h;
    }
    const bool bf16_nan = (code & 0x7F80) == 0x7F80 && (code & 0x007F) != 0;
    if (!bf16_nan) {
      EXPECT_EQ(to_bf16(from_bf16(code)), code) << std::hex << h;
    }
  }
}

}  // namespace
}  // namespace tutor::b04
