// B04: an fp8 tensor written in one variant and read as the other, and the conversion that keeps
// its values (misread.hpp). Expected counts are derived code by code.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "misread.hpp"

namespace tutor::b04 {
namespace {

TEST(CodecMisread, PartnersAreTheSameLayout) {
  EXPECT_EQ(fnuz_partner(Format::e4m3fn), Format::e4m3fnuz);
  EXPECT_EQ(fnuz_partner(Format::e5m2fnuz), Format::e5m2);
  EXPECT_THROW(fnuz_partner(Format::e2m1), std::invalid_argument);
}

TEST(CodecMisread, OCPReadAsFNUZ) {
  // e4m3fn codes read as e4m3fnuz: 0x38 (1.0) -> 0.5, halved; 0x80 (-0) -> NaN; 0x7F (NaN) -> 240,
  // a number; 0x00 stays 0
  const ScaledTensor t{Format::e4m3fn, 1.0f, {0x38, 0x80, 0x7F, 0x00}};
  const MisreadCounts n = misread(t, Format::e4m3fnuz);
  EXPECT_EQ(n.halved, 1u);
  EXPECT_EQ(n.zero_to_nan, 1u);
  EXPECT_EQ(n.nan_to_value, 1u);
  EXPECT_EQ(n.zeros_kept, 1u);
  EXPECT_EQ(n.other, 0u);
}

TEST(CodecMisread, FNUZReadAsOCP) {
  // e4m3fnuz read as e4m3fn: 0x40 (1.0) -> 2.0, doubled; 0x80 (NaN) -> -0: a real NaN hidden;
  // 0x7F (240) -> NaN
  const ScaledTensor t{Format::e4m3fnuz, 1.0f, {0x40, 0x80, 0x7F}};
  const MisreadCounts n = misread(t, Format::e4m3fn);
  EXPECT_EQ(n.doubled, 1u);
  EXPECT_EQ(n.nan_to_zero, 1u);
  EXPECT_EQ(n.value_to_nan, 1u);
  // e5m2fnuz 0x7C (32768) read as e5m2 is inf
  const ScaledTensor u{Format::e5m2fnuz, 1.0f, {0x7C}};
  EXPECT_EQ(misread(u, Format::e5m2).value_to_inf, 1u);
}

TEST(CodecMisread, ConvertOCPToFNUZIsExact) {
  // keep the bits, double the scale; -0 -> 0x00, NaN 0x7F / 0xFF -> 0x80
  const ScaledTensor t{Format::e4m3fn, 0.25f, {0x38, 0x80, 0x7F, 0xFF, 0x7E}};
  const VariantConversion c = convert_variant(t);
  EXPECT_EQ(c.tensor.format, Format::e4m3fnuz);
  EXPECT_EQ(c.tensor.scale, 0.5f);
  EXPECT_EQ(c.tensor.codes, (std::vector<std::uint8_t>{0x38, 0x00, 0x80, 0x80, 0x7E}));
  EXPECT_EQ(c.negative_zero_to_zero, 1u);
  EXPECT_EQ(c.nan_remapped, 2u);
  const std::vector<float> a = dequantize(t), b = dequantize(c.tensor);
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))) << i;
  // e5m2's inf has no FNUZ counterpart: NaN
  const ScaledTensor inf{Format::e5m2, 1.0f, {0x7C}};
  EXPECT_EQ(convert_variant(inf).tensor.codes[0], 0x80);
  EXPECT_EQ(convert_variant(inf).inf_to_nan, 1u);
}

TEST(CodecMisread, ConvertFNUZToOCPSaturatesTheTopCode) {
  // halve the scale; 0x80 (NaN) -> 0x7F; 0x7F = 240 is 480 in OCP units, above 448: -> 0x7E
  const ScaledTensor t{Format::e4m3fnuz, 1.0f, {0x40, 0x80, 0x7F, 0xFF}};
  const VariantConversion c = convert_variant(t);
  EXPECT_EQ(c.tensor.scale, 0.5f);
  EXPECT_EQ(c.tensor.codes, (std::vector<std::uint8_t>{0x40, 0x7F, 0x7E, 0xFE}));
  EXPECT_EQ(c.saturated, 2u);
  EXPECT_EQ(dequantize(c.tensor)[0], 1.0f);   // 2.0 * 0.5
  EXPECT_EQ(dequantize(c.tensor)[2], 224.0f); // 448 * 0.5, was 240
}

TEST(CodecMisread, PlainCastSaturatesOrRounds) {
  // OCP -> FNUZ with the same scale: 0x7E = 448 is above FNUZ's 240 -> 0x7F (240), saturated;
  // 0x38 = 1.0 -> FNUZ 0x40 (2^(8 - 8)), exact
  const PlainCast a = plain_cast(ScaledTensor{Format::e4m3fn, 1.0f, {0x7E, 0x38}});
  EXPECT_EQ(a.tensor.codes, (std::vector<std::uint8_t>{0x7F, 0x40}));
  EXPECT_EQ(a.saturated, 1u);
  // FNUZ -> OCP: 0x01 = 2^-10 is half of OCP's smallest subnormal 2^-9: a tie, to the even 0
  const PlainCast b = plain_cast(ScaledTensor{Format::e4m3fnuz, 1.0f, {0x01}});
  EXPECT_EQ(b.tensor.codes[0], 0x00);
  EXPECT_EQ(b.saturated, 0u);
}

TEST(CodecMisread, PerTensorScaleUsesTheFormatsMax) {
  // amax 2 -> scale 2 / 448; the amax element encodes as max finite 0x7E
  const std::vector<float> x = {2.0f, -1.0f, std::nanf("")};
  const ScaledTensor t = quantize_per_tensor(x, Format::e4m3fn);
  EXPECT_EQ(t.scale, 2.0f / 448.0f);
  EXPECT_EQ(t.codes[0], 0x7E);
  EXPECT_EQ(t.codes[2], 0x7F);
}

TEST(CodecMisread, SyntheticWeightsAreSeeded) {
  const auto a = synthetic_weights(1000, 42, 0.02, 3), b = synthetic_weights(1000, 42, 0.02, 3);
  ASSERT_EQ(a.size(), 1000u);
  std::size_t nans = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    nans += std::isnan(a[i]);
    EXPECT_TRUE(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])));
  }
  EXPECT_LE(nans, 3u);
  EXPECT_GE(nans, 1u);
}

}  // namespace
}  // namespace tutor::b04
