// B04 block scaling: MXFP8 / MXFP4 (OCP MX v1.0 sec. 6.3: E8M0 scale 2^(floor(log2 amax) - emax),
// elements rounded and clamped) and NVFP4 (E4M3 scale per 16, fp32 scale per tensor), each
// expected value derived by hand.
#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "block_scaled.hpp"

namespace tutor::b04 {
namespace {

TEST(CodecBlock, EmaxOfTheElementFormats) {
  EXPECT_EQ(mx_emax(Format::e4m3fn), 8);  // 448 = 1.75 * 2^8
  EXPECT_EQ(mx_emax(Format::e5m2), 15);   // 57344 = 1.75 * 2^15
  EXPECT_EQ(mx_emax(Format::e2m1), 2);    // 6 = 1.5 * 2^2
}

TEST(CodecBlock, MXFP8_E4M3_ScaleAndElements) {
  // amax = 1 = 2^0: shared exponent 0 - 8 = -8, E8M0 code 127 - 8 = 119, X = 2^-8.
  // 1 / 2^-8 = 256 = 2^8 -> e4m3fn 0 1111 000 = 0x78; 0.5 -> 128 = 2^7 -> 0x70; -0.75 -> -192 =
  // -1.5 * 2^7 -> 1 1110 100 = 0xF4. Every value comes back exactly.
  const std::vector<float> x = {1.0f, 0.5f, -0.75f, 0.0f};
  const BlockQuantized q = quantize_mx(x, Format::e4m3fn);
  ASSERT_EQ(q.scales.size(), 1u);
  EXPECT_EQ(q.scales[0], 119);
  EXPECT_EQ(q.codes, (std::vector<std::uint8_t>{0x78, 0x70, 0xF4, 0x00}));
  EXPECT_EQ(dequantize(q), x);
}

TEST(CodecBlock, MXFP8_E4M3_ClipsTheTopOfTheBinade) {
  // amax = 1.9375 = 31/16: floor(log2) = 0, X = 2^-8 again; 1.9375 * 256 = 496 > 448, so the
  // element saturates to 448 and comes back as 448 / 256 = 1.75 (-9.7%): the spec's scale keeps
  // only amax's binade, and E4M3's top binade stops at 1.75.
  const std::vector<float> x = {1.9375f};
  const BlockQuantized q = quantize_mx(x, Format::e4m3fn);
  EXPECT_EQ(q.codes[0], 0x7E);
  EXPECT_EQ(dequantize(q)[0], 1.75f);
}

TEST(CodecBlock, MXFP4_ScaleAndRounding) {
  // amax = 1: shared exponent 0 - 2 = -2, code 125, X = 1/4. 1 / (1/4) = 4 -> e2m1 0x6;
  // 0.3 / (1/4) = 1.2 -> nearest of {1, 1.5} is 1 -> 0x2 -> 0.25; -0.2 -> -0.8 -> nearest of
  // {0.5, 1} is 1 -> 0xA -> -0.25.
  const std::vector<float> x = {1.0f, 0.3f, -0.2f};
  const BlockQuantized q = quantize_mx(x, Format::e2m1);
  EXPECT_EQ(q.scales[0], 125);
  EXPECT_EQ(q.codes, (std::vector<std::uint8_t>{0x6, 0x2, 0xA}));
  EXPECT_EQ(dequantize(q), (std::vector<float>{1.0f, 0.25f, -0.25f}));
}

TEST(CodecBlock, BlocksAreIndependentAndTheLastMayBeShort) {
  // 33 values with block 32: two scales. Block 0 holds 8s (amax 8 = 2^3: code 127 + 3 - 8 = 122);
  // block 1 holds one value 2^-20 (code 127 - 20 - 8 = 99).
  std::vector<float> x(33, 8.0f);
  x[32] = 0x1p-20f;
  const BlockQuantized q = quantize_mx(x, Format::e4m3fn, 32);
  ASSERT_EQ(q.scales.size(), 2u);
  EXPECT_EQ(q.scales[0], 122);
  EXPECT_EQ(q.scales[1], 99);
  EXPECT_EQ(dequantize(q), x);
}

TEST(CodecBlock, ZeroBlockAndNaNBlock) {
  // an all-zero block gets the smallest scale 2^-127 (code 0) and zero codes; a block holding
  // NaN gets the NaN scale 0xFF and decodes to NaN everywhere, without touching its neighbour
  std::vector<float> x(64, 0.0f);
  x[40] = std::nanf("");
  x[41] = 1.0f;
  const BlockQuantized q = quantize_mx(x, Format::e5m2, 32);
  EXPECT_EQ(q.scales[0], 0x00);
  EXPECT_EQ(q.scales[1], 0xFF);
  const std::vector<float> back = dequantize(q);
  EXPECT_EQ(back[0], 0.0f);
  EXPECT_TRUE(std::isnan(back[41]));
}

TEST(CodecBlock, RejectsOtherElementFormats) {
  const std::vector<float> x = {1.0f};
  EXPECT_THROW(quantize_mx(x, Format::e4m3fnuz), std::invalid_argument);
  EXPECT_THROW(quantize_mx(x, Format::e4m3fn, 0), std::invalid_argument);
}

TEST(CodecBlock, NVFP4_TwoLevelScale) {
  // tensor amax 2688 = 6 * 448, so the tensor scale is 2688 / (6 * 448) = 1.
  // Block 0 (amax 2688): scale 2688 / 6 / 1 = 448 -> e4m3fn 0x7E; 2688 / 448 = 6 -> 0x7, 448 / 448
  // = 1 -> 0x2. Block 1 (amax 3): scale 0.5 -> 0x30 (0 0110 000 = 2^-1); 3 / 0.5 = 6 -> 0x7,
  // -0.25 / 0.5 = -0.5 -> 0x9. All exact.
  std::vector<float> x(32, 0.0f);
  x[0] = 2688.0f;
  x[1] = 448.0f;
  x[16] = 3.0f;
  x[17] = -0.25f;
  const BlockQuantized q = quantize_nvfp4(x);
  EXPECT_EQ(q.tensor_scale, 1.0f);
  EXPECT_EQ(q.block, 16);
  EXPECT_EQ(q.scales, (std::vector<std::uint8_t>{0x7E, 0x30}));
  EXPECT_EQ(q.codes[0], 0x7);
  EXPECT_EQ(q.codes[1], 0x2);
  EXPECT_EQ(q.codes[16], 0x7);
  EXPECT_EQ(q.codes[17], 0x9);
  EXPECT_EQ(dequantize(q), x);
  const std::vector<float> bad = {std::nanf("")};
  EXPECT_THROW(quantize_nvfp4(bad), std::invalid_argument);
}

}  // namespace
}  // namespace tutor::b04
