// B03's CPU references against hand derivations: what each mystery kernel must compute.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "mystery_reference.hpp"

namespace tutor::b03 {
namespace {

TEST(ResidualAdd, IsXPlusAlphaTimesR) {
  // 1 + 0.5 * 2 = 2; -1 + 0.5 * 4 = 1; 0.25 + 0.5 * (-0.5) = 0.
  const std::vector<float> x{1.0f, -1.0f, 0.25f}, r{2.0f, 4.0f, -0.5f};
  EXPECT_EQ(residual_add_reference(x, r, 0.5f), (std::vector<double>{2.0, 1.0, 0.0}));
}

TEST(ResidualAdd, RefusesInputsOfDifferentLengths) {
  const std::vector<float> x{1.0f}, r{1.0f, 2.0f};
  EXPECT_THROW(residual_add_reference(x, r, 1.0f), std::invalid_argument);
}

TEST(Polynomial, CoefficientsAreTheDocumentedMultiplesOfOneSixtyFourth) {
  // c_k = 1/2 + ((37 k) mod 32) / 64 for k < D, c_D = 2: c_0 = 1/2, c_1 = 1/2 + 5/64, c_2 = 1/2 + 10/64.
  EXPECT_EQ(poly_coefficient(0), 0.5f);
  EXPECT_EQ(poly_coefficient(1), 0.5f + 5.0f / 64);
  EXPECT_EQ(poly_coefficient(2), 0.5f + 10.0f / 64);
  EXPECT_EQ(poly_coefficient(kPolyDegree), 2.0f);
  for (int k = 0; k < kPolyDegree; ++k) {
    EXPECT_GE(poly_coefficient(k), 0.5f) << k;
    EXPECT_LT(poly_coefficient(k), 1.0f) << k;
  }
}

TEST(Polynomial, AtZeroIsTheConstantTerm) { EXPECT_EQ(polynomial_reference(0.0), 2.0); }

TEST(Polynomial, EqualsTheSumOfItsTermsWrittenOut) {
  // p(t) = sum_k c_k t^(D - k) with t = x / 2, summed term by term instead of by Horner's rule.
  for (double x : {-1.0, -0.75, -0.1, 0.3, 0.999}) {
    const double t = x / 2;
    double direct = 0;
    for (int k = 0; k <= kPolyDegree; ++k) direct += double(poly_coefficient(k)) * std::pow(t, kPolyDegree - k);
    EXPECT_NEAR(polynomial_reference(x), direct, 1e-14) << x;
  }
}

TEST(Polynomial, StaysBetweenOneAndThreeOnTheInputRange) {
  // |terms other than c_D| <= sum_j (1/2)^j < 1 for |t| <= 1/2, so p lies in (1, 3): the range the
  // lab checks every element against.
  for (double x = -1.0; x < 1.0; x += 1.0 / 64) {
    EXPECT_GT(polynomial_reference(x), 1.0) << x;
    EXPECT_LT(polynomial_reference(x), 3.0) << x;
  }
}

TEST(RowSums, AddEachRow) {
  // [[1, 2, 3], [-4, 0.5, 0.25]] -> [6, -3.25].
  const std::vector<float> a{1, 2, 3, -4, 0.5f, 0.25f};
  EXPECT_EQ(row_sums_reference(a, 2, 3), (std::vector<double>{6.0, -3.25}));
}

TEST(RowSums, RefusesAMatrixOfTheWrongSize) {
  const std::vector<float> a{1, 2, 3};
  EXPECT_THROW(row_sums_reference(a, 2, 2), std::invalid_argument);
}

TEST(GroupScores, ScoreRowsWithinTheirGroupOnly) {
  // 33 rows: rows 0..31 are group 0, row 32 is group 1 alone. Row r holds r + 1 at column r % 32.
  const int rows = 33;
  std::vector<float> x(std::size_t(rows) * kGroup, 0.0f);
  for (int r = 0; r < rows; ++r) x[std::size_t(r) * kGroup + std::size_t(r % kGroup)] = float(r + 1);
  EXPECT_EQ(group_score_reference(x, rows, 3, 3), 16.0);   // row 3 with itself: 4 * 4
  EXPECT_EQ(group_score_reference(x, rows, 3, 5), 0.0);    // rows 3 and 5: different columns
  EXPECT_EQ(group_score_reference(x, rows, 32, 0), 33.0 * 33.0);  // row 32 with itself (c = 0 of group 1)
  EXPECT_EQ(group_score_reference(x, rows, 32, 1), 0.0);   // row 33 does not exist
  EXPECT_EQ(group_score_reference(x, rows, 0, 31), 0.0);
}

TEST(GroupScores, IsADotProductOfTwoRows) {
  // Rows 0 and 1 of one group: (1, 2, 0...) . (3, -1, 0...) = 3 - 2 = 1.
  std::vector<float> x(2 * kGroup, 0.0f);
  x[0] = 1, x[1] = 2, x[kGroup] = 3, x[kGroup + 1] = -1;
  EXPECT_EQ(group_score_reference(x, 2, 0, 1), 1.0);
  EXPECT_EQ(group_score_reference(x, 2, 1, 0), 1.0);
  EXPECT_EQ(group_score_reference(x, 2, 1, 1), 10.0);
  EXPECT_THROW(group_score_reference(x, 2, 2, 0), std::invalid_argument);
}

TEST(QkvSplit, ViewHasTheOutputSizesAndTheInputStrides) {
  // x (B, S, 3, H, D) = (2, 5, 3, 4, 8): strides 480, 96, 32, 8, 1. out (3, B, H, S, D).
  const StridedView v = qkv_split_view(2, 5, 4, 8);
  const std::int64_t sizes[] = {3, 2, 4, 5, 8}, strides[] = {32, 480, 8, 96, 1};
  for (int d = 0; d < kViewDims; ++d) {
    EXPECT_EQ(v.size[d], sizes[d]) << d;
    EXPECT_EQ(v.stride[d], strides[d]) << d;
  }
  EXPECT_EQ(view_elements(v), 3 * 2 * 4 * 5 * 8);
}

TEST(QkvSplit, SeparatesQKAndVOfEachToken) {
  // B = 1, S = 2, H = 1, D = 1: x = [q0, k0, v0, q1, k1, v1] (token-major) becomes
  // [q0, q1, k0, k1, v0, v1] (Q, then K, then V); with a = 2, b = 1 each value becomes 2 v + 1.
  const std::vector<float> x{0, 1, 2, 3, 4, 5};
  const std::vector<double> out = strided_affine_reference(x, qkv_split_view(1, 2, 1, 1), 2.0f, 1.0f);
  EXPECT_EQ(out, (std::vector<double>{1, 7, 3, 9, 5, 11}));
}

TEST(QkvSplit, MovesEveryHeadVectorWhole) {
  // B = 1, S = 1, H = 2, D = 2: x = [q_h0 (0, 1), q_h1 (2, 3), k_h0, k_h1, v_h0, v_h1]: already
  // head-major for one token, so the view is the identity.
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[std::size_t(i)] = float(i);
  const std::vector<double> out = strided_affine_reference(x, qkv_split_view(1, 1, 2, 2), 1.0f, 0.0f);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out[std::size_t(i)], double(i)) << i;
}

TEST(QkvSplit, RefusesEmptySizes) { EXPECT_THROW(qkv_split_view(0, 1, 1, 1), std::invalid_argument); }

TEST(Smoothing, OneElementSeesZerosOnBothSides) {
  const std::vector<float> x{8.0f};
  EXPECT_EQ(smoothing_reference(x), (std::vector<double>{4.0}));  // 0.5 * 8
}

TEST(Smoothing, WeighsNeighboursAQuarterAndItselfAHalf) {
  // x = (4, 8, -4): y0 = 0.5*4 + 0.25*8 = 4; y1 = 0.25*4 + 0.5*8 + 0.25*(-4) = 4; y2 = 0.25*8 - 2 = 0.
  const std::vector<float> x{4.0f, 8.0f, -4.0f};
  EXPECT_EQ(smoothing_reference(x), (std::vector<double>{4.0, 4.0, 0.0}));
}

// Mystery 6's drawn length: n = 256 k + r, the last tile r either inside one warp ([1, 31]) or
// across three warps or more ([65, 255]), each on about half the seeds, and the same for a seed.
TEST(SmoothingDrawnLength, LastTileIsShortOrLongNeverInBetween) {
  int short_tails = 0;
  const int seeds = 2000;
  for (int s = 1; s <= seeds; ++s) {
    const int n = smoothing_drawn_length(std::uint64_t(s) * 1000 + 6);
    const int r = n % kSmoothTile;
    ASSERT_GE(n, 1);
    ASSERT_LT(n, 4096 * kSmoothTile);
    ASSERT_TRUE((r >= 1 && r <= 31) || (r >= 65 && r <= 255)) << "n = " << n;
    short_tails += r <= 31;
  }
  // Fair odds: a binomial(2000, 1/2) lies within 5 standard deviations (sqrt(2000) / 2 = 22.4) of 1000.
  EXPECT_NEAR(short_tails, seeds / 2, 112);
}

TEST(SmoothingDrawnLength, ASeedNamesOneLength) {
  EXPECT_EQ(smoothing_drawn_length(42), smoothing_drawn_length(42));
}

}  // namespace
}  // namespace tutor::b03
