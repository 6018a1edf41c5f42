// B05 profile: the CPU reference of each sub-op on tiny cases worked out by hand. Inputs are
// values bf16 holds exactly (small integers, halves), so the expected outputs are exact
// formulas written beside each check.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "profile_reference.hpp"

namespace tutor::b05::reference {
namespace {

std::vector<std::uint16_t> bf16(std::initializer_list<float> values) {
  std::vector<std::uint16_t> out;
  for (const float v : values) out.push_back(float_to_bf16(v));
  return out;
}

TEST(ProfileReference, Bf16RoundsToNearestEven) {
  EXPECT_EQ(float_to_bf16(1.0f), 0x3f80);   // 1.0 = 0x3f800000: the top half
  EXPECT_EQ(float_to_bf16(-2.0f), 0xc000);
  EXPECT_EQ(bf16_to_float(0x3f80), 1.0f);
  // 1 + 2^-8 lies halfway between 1 (0x3f80) and 1 + 2^-7 (0x3f81): ties go to the even 0x3f80.
  EXPECT_EQ(float_to_bf16(1.0f + 0x1p-8f), 0x3f80);
  // 1 + 3 x 2^-8 lies halfway between 0x3f81 and 0x3f82 (1 + 2^-6): the even one is 0x3f82.
  EXPECT_EQ(float_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
  // Just above halfway rounds up.
  EXPECT_EQ(float_to_bf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
  EXPECT_TRUE(std::isnan(bf16_to_float(float_to_bf16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(ProfileReference, RmsNormByHand) {
  // x = (3, 4): mean of squares (9 + 16) / 2 = 12.5; scales (1, 2); eps 0:
  // out = (3 / sqrt(12.5), 4 x 2 / sqrt(12.5)).
  std::vector<double> out(2);
  rmsnorm_row(bf16({3, 4}), bf16({1, 2}), 0.0, out);
  EXPECT_DOUBLE_EQ(out[0], 3 / std::sqrt(12.5));
  EXPECT_DOUBLE_EQ(out[1], 8 / std::sqrt(12.5));
  // eps is added under the root: x = (1, 1), eps 3 -> 1 / sqrt(1 + 3) = 0.5.
  rmsnorm_row(bf16({1, 1}), bf16({1, 1}), 3.0, out);
  EXPECT_DOUBLE_EQ(out[0], 0.5);
}

TEST(ProfileReference, LinearIsXTimesWTransposed) {
  // W is out x in (an nn.Linear weight): rows (1, 0), (0, 1), (1, 1), (0.5, -2); x = (1, 2):
  // y = (1, 2, 3, 0.5 - 4 = -3.5).
  std::vector<double> y(4);
  linear_row(bf16({1, 2}), bf16({1, 0, 0, 1, 1, 1, 0.5, -2}), y);
  EXPECT_EQ(y, (std::vector<double>{1, 2, 3, -3.5}));
}

TEST(ProfileReference, RopeRotatesHalfSplitPairs) {
  // head_dim 4, base 10000: inv_freq = (10000^0, 10000^(-2/4)) = (1, 0.01) in fp32.
  const std::vector<float> inv_freq = rope_inv_freq(4, 10000);
  ASSERT_EQ(inv_freq.size(), 2u);
  EXPECT_EQ(inv_freq[0], 1.0f);
  EXPECT_EQ(inv_freq[1], 0.01f);
  std::vector<double> out(4);
  // Position 0: no rotation.
  rope_head(bf16({1, 2, 3, 4}), 0, inv_freq, out);
  EXPECT_EQ(out, (std::vector<double>{1, 2, 3, 4}));
  // Position 1, x = (1, 1, 0, 0): pair (0, 2) turns by 1 rad, pair (1, 3) by 0.01 rad (as fp32):
  // out_0 = cos 1, out_2 = sin 1, out_1 = cos 0.01f, out_3 = sin 0.01f.
  rope_head(bf16({1, 1, 0, 0}), 1, inv_freq, out);
  EXPECT_DOUBLE_EQ(out[0], std::cos(1.0));
  EXPECT_DOUBLE_EQ(out[2], std::sin(1.0));
  EXPECT_DOUBLE_EQ(out[1], std::cos(double(0.01f)));
  EXPECT_DOUBLE_EQ(out[3], std::sin(double(0.01f)));
}

TEST(ProfileReference, AttentionByHand) {
  // One head, d = 2 (scale 1 / sqrt 2), two cached tokens: k0 = (0, 0), k1 = (1, 1), v0 = (1, 0),
  // v1 = (0, 1); q = (1, 1): scores 0 and 2 / sqrt 2 = sqrt 2, so p1 = e^sqrt2 / (1 + e^sqrt2)
  // and out = (1 - p1, p1).
  const auto k = bf16({0, 0, 1, 1}), v = bf16({1, 0, 0, 1});
  std::vector<double> out(2);
  attention_row(bf16({1, 1}), k, v, 2, 1, 1, 2, out);
  const double p1 = std::exp(std::sqrt(2.0)) / (1 + std::exp(std::sqrt(2.0)));
  EXPECT_NEAR(out[0], 1 - p1, 1e-15);
  EXPECT_NEAR(out[1], p1, 1e-15);
  // Causal: with one key visible the output is v0.
  attention_row(bf16({1, 1}), k, v, 1, 1, 1, 2, out);
  EXPECT_EQ(out, (std::vector<double>{1, 0}));
}

TEST(ProfileReference, AttentionSharesKvHeadsAcrossTheGroup) {
  // GQA: 2 query heads, 1 KV head. Head 0 is q = (1, 1) as above; head 1 is q = (0, 0), whose
  // scores are equal, so it averages the values: (0.5, 0.5).
  std::vector<double> out(4);
  attention_row(bf16({1, 1, 0, 0}), bf16({0, 0, 1, 1}), bf16({1, 0, 0, 1}), 2, 2, 1, 2, out);
  const double p1 = std::exp(std::sqrt(2.0)) / (1 + std::exp(std::sqrt(2.0)));
  EXPECT_NEAR(out[1], p1, 1e-15);
  EXPECT_DOUBLE_EQ(out[2], 0.5);
  EXPECT_DOUBLE_EQ(out[3], 0.5);
}

TEST(ProfileReference, SiluMulAndResidual) {
  // gate (0, 1), up (3, 2): silu(0) x 3 = 0; silu(1) x 2 = 2 / (1 + e^-1).
  std::vector<double> out(2);
  silu_mul_row(bf16({0, 1, 3, 2}), out);
  EXPECT_DOUBLE_EQ(out[0], 0);
  EXPECT_DOUBLE_EQ(out[1], 2 / (1 + std::exp(-1.0)));
  residual_row(bf16({1, 0.5}), bf16({2, -0.5}), out);
  EXPECT_EQ(out, (std::vector<double>{3, 0}));
}

TEST(ProfileReference, RefusesMismatchedSizes) {
  std::vector<double> out(3);
  EXPECT_THROW(rmsnorm_row(bf16({1, 2}), bf16({1}), 0, out), std::invalid_argument);
  EXPECT_THROW(linear_row(bf16({1, 2}), bf16({1, 2, 3}), out), std::invalid_argument);
  EXPECT_THROW(rope_head(bf16({1, 2, 3}), 0, rope_inv_freq(2, 10000), out), std::invalid_argument);
}

}  // namespace
}  // namespace tutor::b05::reference
