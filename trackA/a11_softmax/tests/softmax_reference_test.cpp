// A11: the fp64 softmax reference, the online merge, the bf16 rounding, the inputs and the check,
// against values derived by hand next to each test.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "softmax_device.hpp"
#include "softmax_reference.hpp"

namespace tutor::a11 {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<double> softmax(const std::vector<float>& x) {
  std::vector<double> out(x.size());
  softmax_reference_row(x, out);
  return out;
}

TEST(SoftmaxReference, TwoEqualLogitsGiveOneHalfEach) {
  const auto y = softmax({0.0f, 0.0f});
  EXPECT_DOUBLE_EQ(y[0], 0.5);
  EXPECT_DOUBLE_EQ(y[1], 0.5);
}

TEST(SoftmaxReference, LogitsZeroAndLnThreeGiveAQuarterAndThreeQuarters) {
  // exp(0) = 1, exp(ln 3) = 3, sum 4 (ln 3 as an fp32 is off by < 2^-24 relative: 1e-7 is ample).
  const auto y = softmax({0.0f, float(std::log(3.0))});
  EXPECT_NEAR(y[0], 0.25, 1e-7);
  EXPECT_NEAR(y[1], 0.75, 1e-7);
}

TEST(SoftmaxReference, OneElementIsOne) { EXPECT_DOUBLE_EQ(softmax({-123.0f})[0], 1.0); }

TEST(SoftmaxReference, LargeLogitsDoNotOverflow) {
  // exp(10000) overflows even fp64 (max ~1.8e308 = exp(709.8)); after subtracting the maximum
  // the row is exp(0), exp(-10000) = 1, 0 (underflows to 0).
  const auto y = softmax({10000.0f, 0.0f});
  EXPECT_DOUBLE_EQ(y[0], 1.0);
  EXPECT_DOUBLE_EQ(y[1], 0.0);
  const auto eq = softmax({10000.0f, 10000.0f, 10000.0f, 10000.0f});
  for (double v : eq) EXPECT_DOUBLE_EQ(v, 0.25);
}

TEST(SoftmaxReference, MaskedElementsGetZeroAndAFullyMaskedRowIsNaN) {
  // -inf - 0 = -inf, exp(-inf) = 0: the unmasked pair shares the mass.
  const auto y = softmax({-kInf, 0.0f, 0.0f});
  EXPECT_DOUBLE_EQ(y[0], 0.0);
  EXPECT_DOUBLE_EQ(y[1], 0.5);
  // Every element -inf: the maximum is -inf, -inf - (-inf) is NaN (IEEE 754-2019 sec. 7.2), as in torch.
  for (double v : softmax({-kInf, -kInf})) EXPECT_TRUE(std::isnan(v));
}

TEST(SoftmaxReference, RejectsAnEmptyRowOrAShortOutput) {
  std::vector<double> out(1);
  EXPECT_THROW(softmax_reference_row(std::vector<float>{}, std::span<double>(out.data(), 0)), std::invalid_argument);
  EXPECT_THROW(softmax_reference_row(std::vector<float>{1.0f, 2.0f}, out), std::invalid_argument);
}

TEST(SoftmaxReference, AMatrixIsItsRowsWhateverTheThreadCount) {
  // Rows [0, 0], [0, ln 3], [-inf, -inf]: 1/2 1/2, 1/4 3/4, NaN NaN (the tests above).
  const std::vector<float> x{0.0f, 0.0f, 0.0f, float(std::log(3.0)), -kInf, -kInf};
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    std::vector<double> y(x.size());
    softmax_reference(x, 2, y, threads);
    EXPECT_DOUBLE_EQ(y[0], 0.5);
    EXPECT_NEAR(y[3], 0.75, 1e-7);
    EXPECT_TRUE(std::isnan(y[4]) && std::isnan(y[5]));
  }
  std::vector<double> short_out(5);
  EXPECT_THROW(softmax_reference(x, 2, short_out), std::invalid_argument);
  std::vector<double> y(x.size());
  EXPECT_THROW(softmax_reference(x, 4, y), std::invalid_argument);  // 6 is not a whole number of rows of 4
}

TEST(MergeMaxSum, TheSmallerMaximumsSumIsRescaled) {
  // (m, d) = (2, 1) and (0, 1): m = 2, d = 1 + 1 * exp(0 - 2) (Milakov and Gimelshein 2018, eq. 4).
  const MaxSum s = MergeMaxSum{}(MaxSum{2.0f, 1.0f}, MaxSum{0.0f, 1.0f});
  EXPECT_EQ(s.m, 2.0f);
  EXPECT_NEAR(s.d, 1.0 + std::exp(-2.0), 1e-6);
  // The same merge in the other order: the same pair.
  const MaxSum t = MergeMaxSum{}(MaxSum{0.0f, 1.0f}, MaxSum{2.0f, 1.0f});
  EXPECT_EQ(t.m, 2.0f);
  EXPECT_NEAR(t.d, s.d, 1e-7);
}

TEST(MergeMaxSum, TwoMaskedStretchesStayAnEmptySumNotNaN) {
  // exp(-inf - (-inf)) would be NaN; the merge takes factor 1 where a maximum equals the result.
  const MaxSum s = MergeMaxSum{}(MaxSum{-kInf, 0.0f}, MaxSum{-kInf, 0.0f});
  EXPECT_EQ(s.m, -kInf);
  EXPECT_EQ(s.d, 0.0f);
  // ... and then a finite stretch: the empty sum contributes 0 * exp(-inf) = 0.
  const MaxSum u = MergeMaxSum{}(s, MaxSum{3.0f, 2.0f});
  EXPECT_EQ(u.m, 3.0f);
  EXPECT_EQ(u.d, 2.0f);
}

TEST(Bf16, RoundsToNearestTiesToEven) {
  EXPECT_EQ(float_to_bf16(1.0f), 0x3f80u);                           // 0x3f800000
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x3f808000u)), 0x3f80u);  // tie, 0x3f80 even: down
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x3f818000u)), 0x3f82u);  // tie, 0x3f81 odd: up
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x3f808001u)), 0x3f81u);  // above the tie: up
  EXPECT_EQ(bf16_to_float(0xff80u), -kInf);
  EXPECT_TRUE(std::isnan(bf16_to_float(float_to_bf16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(SoftmaxTolerance, Fp32GrowsWithTheRootOfTheRowAndBf16IsOneRounding) {
  // fp32: 8 x 2^-24 x (sqrt(cols) + 3); at cols = 1: 8 x 2^-24 x 4 = 2^-19; at 8192 = 2^13:
  // sqrt = 90.51, so 8 x 2^-24 x 93.51 = 4.459e-5.
  EXPECT_DOUBLE_EQ(softmax_tolerance(false, 1), std::ldexp(1.0, -19));
  EXPECT_NEAR(softmax_tolerance(false, 8192), 4.459e-5, 1e-8);
  // bf16: 8 x 2^-8 = 2^-5, whatever the length.
  EXPECT_DOUBLE_EQ(softmax_tolerance(true, 1), 0.03125);
  EXPECT_DOUBLE_EQ(softmax_tolerance(true, 262144), 0.03125);
}

TEST(FillLogits, RowsFollowTheirKinds) {
  const long long cols = 6;
  std::vector<float> x(66 * cols);
  fill_logits(x, cols, 42, false);
  auto at = [&](long long r, long long c) { return x[std::size_t(r * cols + c)]; };
  for (long long c = 0; c < cols; ++c) {
    EXPECT_GE(at(0, c), -8.0f);
    EXPECT_LT(at(0, c), 8.0f);
    EXPECT_EQ(at(1, c), -kInf);                                  // masked
    EXPECT_EQ(at(2, c) == -kInf, c % 3 != 0 || c >= 3);          // partly masked: 0 only (3 = (6 + 1) / 2)
    EXPECT_EQ(at(3, c), 7.0f);                                   // equal
    EXPECT_GE(at(4, c), 10000.0f);                               // large
    EXPECT_EQ(at(65, c), -kInf);                                 // 65 % 64 == 1: masked again
  }
  std::vector<float> y(x.size());
  fill_logits(y, cols, 43, false);
  EXPECT_NE(x[0], y[0]);  // a fresh seed gives fresh logits
  fill_logits(y, cols, 42, true);
  for (std::size_t i = 0; i < y.size(); ++i)
    if (std::isfinite(y[i])) {
      EXPECT_EQ(bf16_to_float(float_to_bf16(y[i])), y[i]);  // bf16 values exactly
    }
}

TEST(CheckSoftmax, ACorrectOutputPassesAndTheMaskedRowMustBeNaN) {
  const std::vector<float> x{0.0f, 0.0f, -kInf, -kInf};  // two rows of 2: [0.5, 0.5], [NaN, NaN]
  std::vector<double> ref(4);
  softmax_reference_row(std::span(x).subspan(0, 2), std::span(ref).subspan(0, 2));
  softmax_reference_row(std::span(x).subspan(2, 2), std::span(ref).subspan(2, 2));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(check_softmax(std::vector<float>{0.5f, 0.5f, nan, nan}, ref, 2, 1e-6, 0x7fffedcbu).passed);
  const Comparison zero_row = check_softmax(std::vector<float>{0.5f, 0.5f, 0.0f, nan}, ref, 2, 1e-6, 0x7fffedcbu);
  EXPECT_FALSE(zero_row.passed);
  EXPECT_NE(zero_row.reason.find("row 1"), std::string::npos);
}

TEST(CheckSoftmax, ThePoisonPatternAndAWrongSumFail) {
  const std::vector<double> ref{0.25, 0.75};
  const Comparison poisoned =
      check_softmax(std::vector<float>{0.25f, std::bit_cast<float>(0x7fffedcbu)}, ref, 2, 1e-6, 0x7fffedcbu);
  EXPECT_FALSE(poisoned.passed);
  EXPECT_NE(poisoned.reason.find("never written"), std::string::npos);
  // Both outputs 2% high: the row sums to 1.02 (and the relative L2 error is 0.02).
  const Comparison scaled = check_softmax(std::vector<float>{0.255f, 0.765f}, ref, 2, 1e-3, 0x7fffedcbu);
  EXPECT_FALSE(scaled.passed);
  EXPECT_NE(scaled.reason.find("sums to"), std::string::npos);
}

}  // namespace
}  // namespace tutor::a11
