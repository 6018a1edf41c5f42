// A12's host side against hand derivations: bf16 rounding, the rotary frequencies, the pair
// layouts, the fp64 reference on rows small enough to work out on paper, the tolerance and the
// byte counts that the bytes table prints.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "rope_rmsnorm.hpp"
#include "rope_rmsnorm_reference.hpp"

namespace tutor::a12 {
namespace {

std::vector<std::uint16_t> bf16s(std::initializer_list<float> v) {
  std::vector<std::uint16_t> out;
  for (float f : v) out.push_back(float_to_bf16(f));
  return out;
}

TEST(Bf16, RoundsToNearestTiesToEven) {
  // 1.0 is 0x3f800000: its bf16 is the top half. bf16 keeps 7 fraction bits, so 1 + 2^-8 lies
  // half way between 1 (0x3f80) and 1 + 2^-7 (0x3f81): the tie goes to the even 0x3f80; 1 + 3 * 2^-8
  // lies half way between 0x3f81 and 0x3f82: to the even 0x3f82.
  EXPECT_EQ(float_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(float_to_bf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(float_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_EQ(float_to_bf16(-2.0f), 0xc000);
  EXPECT_EQ(bf16_to_float(0x3f81), 1.0f + std::ldexp(1.0f, -7));
  EXPECT_TRUE(std::isnan(bf16_to_float(float_to_bf16(std::nanf("")))));
}

TEST(Frequencies, RoFormerThetas) {
  // base^(-2i/d): d = 4, base 10000 -> 1 and 10000^(-1/2) = 0.01.
  const std::vector<float> f = inv_freq(10000.0, 4);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_EQ(f[1], 0.01f);
  // The angle is one fp32 product: 3 x 0.5 = 1.5 exactly; 3 x 0.1f is the float nearest 3 x 0.1f.
  EXPECT_EQ(phase(3, 0.5f), 1.5f);
  EXPECT_EQ(phase(3, 0.1f), 3.0f * 0.1f);
  // The table's row of position 0 is (cos 0, sin 0) = (1, 0) for every pair.
  const std::vector<float> t = cos_sin_table(f, 2);
  ASSERT_EQ(t.size(), 2u * 2u * 2u);
  EXPECT_EQ(t[0], 1.0f);
  EXPECT_EQ(t[1], 0.0f);
  EXPECT_EQ(t[4], float(std::cos(1.0)));  // position 1, pair 0: angle 1 x 1
  EXPECT_EQ(t[7], float(std::sin(double(0.01f))));
}

TEST(Layouts, WhichElementsPair) {
  // rotary_dim 8: rotate_half pairs (p, p + 4); interleaved (2p, 2p + 1).
  EXPECT_EQ(pair_index(Layout::rotate_half, 8, 0).first, 0);
  EXPECT_EQ(pair_index(Layout::rotate_half, 8, 0).second, 4);
  EXPECT_EQ(pair_index(Layout::rotate_half, 8, 3).second, 7);
  EXPECT_EQ(pair_index(Layout::interleaved, 8, 3).first, 6);
  EXPECT_EQ(pair_index(Layout::interleaved, 8, 3).second, 7);
}

TEST(Lanes, OneSixteenByteVectorPerLaneInPowersOfTwo) {
  // ceil(head_dim / 8) rounded up to a power of two.
  EXPECT_EQ(lanes_per_row(7), 1);
  EXPECT_EQ(lanes_per_row(8), 1);
  EXPECT_EQ(lanes_per_row(9), 2);
  EXPECT_EQ(lanes_per_row(64), 8);
  EXPECT_EQ(lanes_per_row(96), 16);   // 12 vectors
  EXPECT_EQ(lanes_per_row(100), 16);  // 13 vectors
  EXPECT_EQ(lanes_per_row(128), 16);
  EXPECT_EQ(lanes_per_row(256), 32);
}

TEST(Reference, RmsNormOfThreeFour) {
  // x = (3, 4): mean square (9 + 16) / 2 = 12.5; with eps 0 and weight 1 the row becomes
  // (3, 4) / sqrt(12.5). Position 0: angle 0, no rotation.
  Dims d{1, 1, 0, 2, 2, Layout::rotate_half, 0.0};
  const auto y = reference(d, bf16s({3, 4}), bf16s({1, 1}), bf16s({1, 1}), std::vector<std::int32_t>{0},
                           std::vector<float>{0.25f});
  EXPECT_DOUBLE_EQ(y[0], 3 / std::sqrt(12.5));
  EXPECT_DOUBLE_EQ(y[1], 4 / std::sqrt(12.5));
}

TEST(Reference, RotatesByPositionTimesFrequency) {
  // Position 2, frequency 0.25: angle 0.5. n = (3, 4) / sqrt(12.5); y = (n0 c - n1 s, n1 c + n0 s).
  Dims d{1, 1, 0, 2, 2, Layout::rotate_half, 0.0};
  const auto y = reference(d, bf16s({3, 4}), bf16s({1, 1}), bf16s({1, 1}), std::vector<std::int32_t>{2},
                           std::vector<float>{0.25f});
  const double n0 = 3 / std::sqrt(12.5), n1 = 4 / std::sqrt(12.5), c = std::cos(0.5), s = std::sin(0.5);
  EXPECT_NEAR(y[0], n0 * c - n1 * s, 1e-15);
  EXPECT_NEAR(y[1], n1 * c + n0 * s, 1e-15);
  // A rotation keeps the norm: with eps 0 and weight 1 the mean square of the row is 1, |y|^2 = 2.
  EXPECT_NEAR(y[0] * y[0] + y[1] * y[1], 2.0, 1e-14);
}

TEST(Reference, LayoutsAndPartialRotary) {
  // x = (1, 1, 1, 1): mean square 1, n = x. Angle a = 1 x 0.5 for pair 0 (frequency 0.5).
  const auto x = bf16s({1, 1, 1, 1}), w = bf16s({1, 1, 1, 1});
  const double c = std::cos(0.5), s = std::sin(0.5);
  // rotary_dim 2 of 4, rotate_half: pair (0, 1) rotated, elements 2 and 3 passed through.
  Dims half{1, 1, 0, 4, 2, Layout::rotate_half, 0.0};
  auto y = reference(half, x, w, w, std::vector<std::int32_t>{1}, std::vector<float>{0.5f});
  EXPECT_NEAR(y[0], c - s, 1e-15);
  EXPECT_NEAR(y[1], c + s, 1e-15);
  EXPECT_DOUBLE_EQ(y[2], 1.0);
  EXPECT_DOUBLE_EQ(y[3], 1.0);
  // rotary_dim 4, rotate_half, frequencies (0.5, 0): pair 0 is (0, 2), pair 1 (1, 3) at angle 0.
  Dims full{1, 1, 0, 4, 4, Layout::rotate_half, 0.0};
  y = reference(full, x, w, w, std::vector<std::int32_t>{1}, std::vector<float>{0.5f, 0.0f});
  EXPECT_NEAR(y[0], c - s, 1e-15);
  EXPECT_NEAR(y[2], c + s, 1e-15);
  EXPECT_DOUBLE_EQ(y[1], 1.0);
  EXPECT_DOUBLE_EQ(y[3], 1.0);
  // interleaved: pair 0 is (0, 1).
  Dims inter{1, 1, 0, 4, 4, Layout::interleaved, 0.0};
  y = reference(inter, x, w, w, std::vector<std::int32_t>{1}, std::vector<float>{0.5f, 0.0f});
  EXPECT_NEAR(y[0], c - s, 1e-15);
  EXPECT_NEAR(y[1], c + s, 1e-15);
  EXPECT_DOUBLE_EQ(y[2], 1.0);
}

TEST(Reference, QHeadsTakeQWeightKHeadsKWeight) {
  // One token, one q head and one k head of (1, 1): n = (1, 1); q_weight 2, k_weight 0.5; position 0.
  Dims d{1, 1, 1, 2, 2, Layout::rotate_half, 0.0};
  const auto y = reference(d, bf16s({1, 1, 1, 1}), bf16s({2, 2}), bf16s({0.5f, 0.5f}), std::vector<std::int32_t>{0},
                           std::vector<float>{1.0f});
  EXPECT_DOUBLE_EQ(y[0], 2.0);
  EXPECT_DOUBLE_EQ(y[1], 2.0);
  EXPECT_DOUBLE_EQ(y[2], 0.5);
  EXPECT_DOUBLE_EQ(y[3], 0.5);
}

TEST(Reference, LargeActivationsAndZeroRows) {
  // RMSNorm is scale-invariant: (3, 4) x 2^40 (squares 2^80 x 25, far past fp16's range) gives
  // the row of (3, 4) when eps is 0. A zero row stays zero: 0 / sqrt(0 + eps) = 0.
  Dims d{1, 1, 0, 2, 2, Layout::rotate_half, 0.0};
  const float big = std::ldexp(1.0f, 40);
  const auto y = reference(d, bf16s({3 * big, 4 * big}), bf16s({1, 1}), bf16s({1, 1}), std::vector<std::int32_t>{0},
                           std::vector<float>{1.0f});
  EXPECT_DOUBLE_EQ(y[0], 3 / std::sqrt(12.5));
  Dims e{1, 1, 0, 2, 2, Layout::rotate_half, 1e-6};
  const auto z = reference(e, bf16s({0, 0}), bf16s({1, 1}), bf16s({1, 1}), std::vector<std::int32_t>{5},
                           std::vector<float>{1.0f});
  EXPECT_EQ(z[0], 0.0);
  EXPECT_EQ(z[1], 0.0);
}

TEST(Tolerance, TwoBf16RoundingsPlusTheFp32Sum) {
  // 2 x 2^-8 + (128 + 8) x 2^-24.
  EXPECT_DOUBLE_EQ(tolerance(128), 2 * std::ldexp(1.0, -8) + 136 * std::ldexp(1.0, -24));
}

TEST(Bytes, WhatEachStepMoves) {
  // 2 tokens x (1 q + 1 k) heads x 4 bf16: activations 2 x 2 x 4 x 2 = 32 B; positions 2 x 4 = 8 B and
  // weights 2 x 4 x 2 = 16 B: 24 B; the table rows: 2 tokens x 2 pairs x 8 B = 32 B; inv_freq 2 x 4 = 8 B.
  Dims d{2, 1, 1, 4, 4, Layout::rotate_half, 1e-6};
  EXPECT_EQ(minimum_bytes(d), 2 * 32 + 24);
  EXPECT_EQ(unfused_bytes(d), 4 * 32 + 24 + 32);
  EXPECT_EQ(fused_table_bytes(d), 2 * 32 + 24 + 32);
  EXPECT_EQ(fused_compute_bytes(d), 2 * 32 + 24 + 8);
  EXPECT_EQ(head_rows(2, 1, 1), 4u);
}

}  // namespace
}  // namespace tutor::a12

namespace tutor::a12 {
namespace {

TEST(AddNorm, ResidualSumRoundsOnce) {
  // 1 + 2 = 3 exactly; 1 + 2^-8 is a tie between 1 and 1 + 2^-7 in bf16: to the even 1.
  const auto s = residual_sum(bf16s({1, 1}), bf16s({2, std::ldexp(1.0f, -8)}));
  EXPECT_EQ(s[0], float_to_bf16(3.0f));
  EXPECT_EQ(s[1], float_to_bf16(1.0f));
}

TEST(AddNorm, RmsNormOfEachRow) {
  // Two rows of hidden 2: (3, 4) -> (3, 4) / sqrt(12.5) with weight (1, 2) and eps 0; (1, 1) -> (1, 2).
  const auto y = rmsnorm_reference(bf16s({3, 4, 1, 1}), bf16s({1, 2}), 2, 0.0);
  EXPECT_DOUBLE_EQ(y[0], 3 / std::sqrt(12.5));
  EXPECT_DOUBLE_EQ(y[1], 2 * 4 / std::sqrt(12.5));
  EXPECT_DOUBLE_EQ(y[2], 1.0);
  EXPECT_DOUBLE_EQ(y[3], 2.0);
}

TEST(AddNorm, ToleranceAndBytes) {
  // 2^-8 + (4096 + 8) x 2^-24.
  EXPECT_DOUBLE_EQ(add_norm_tolerance(4096), std::ldexp(1.0, -8) + 4104 * std::ldexp(1.0, -24));
  // 2 tokens x 4: x, residual read (2 x 16 B), s, y written (2 x 16 B), weight 8 B; the unfused pair reads s again.
  EXPECT_EQ(add_norm_minimum_bytes(2, 4), 64 + 8);
  EXPECT_EQ(add_then_norm_bytes(2, 4), 80 + 8);
}

}  // namespace
}  // namespace tutor::a12
