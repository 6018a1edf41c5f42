// The host references of tutor_baselines, on inputs small enough to check by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "host_reference.hpp"

namespace tutor::baselines::host {
namespace {

// A bfloat16 is the top 16 bits of an fp32: 0x3f80 is 1.0f (0x3f800000), 0xc000 is -2.0f.
TEST(Bf16ToFloat, IsTheTopHalfOfAnFp32) {
  EXPECT_EQ(bf16_to_float(0x3f80), 1.0f);
  EXPECT_EQ(bf16_to_float(0xc000), -2.0f);
  EXPECT_EQ(bf16_to_float(0x7f80), std::numeric_limits<float>::infinity());
  EXPECT_EQ(bf16_to_float(0x0000), 0.0f);
}

// [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]] (by hand).
TEST(GemmRows, ChosenRowsOfATwoByTwoProduct) {
  const std::vector<float> a = {1, 2, 3, 4}, b = {5, 6, 7, 8};
  const std::vector<int> rows = {1, 0};
  const std::vector<double> c = gemm_rows(a, b, 2, 2, rows);
  EXPECT_EQ(c, (std::vector<double>{43, 50, 19, 22}));
}

// A 1 x 3 times 3 x 2: [1, 2, 3] x [[1, 0], [0, 1], [1, 1]] = [4, 5].
TEST(GemmRows, NonSquareShapes) {
  const std::vector<float> a = {1, 2, 3}, b = {1, 0, 0, 1, 1, 1};
  const std::vector<int> rows = {0};
  EXPECT_EQ(gemm_rows(a, b, 2, 3, rows), (std::vector<double>{4, 5}));
}

TEST(Sum, AddsInFp64) {
  // 2^24 + 1 is not an fp32, so an fp32 running sum of these would lose the 1.
  const std::vector<float> x = {16777216.0f, 1.0f, 1.0f};
  EXPECT_EQ(sum(x), 16777218.0);
}

TEST(InclusiveScan, EveryPrefix) {
  const std::vector<float> x = {1, 2, 3, 4};
  EXPECT_EQ(inclusive_scan(x), (std::vector<double>{1, 3, 6, 10}));
}

// Four bins of width 0.25 over [0, 1): a lower edge belongs to its bin, the upper bound and
// values below the lower bound are not counted (CUB's and rocPRIM's HistogramEven rule).
TEST(HistogramEven, HalfOpenBinsDropOutsiders) {
  const std::vector<float> x = {0.0f, 0.25f, 0.5f, 0.75f, 0.999f, 1.0f, -0.1f, 0.3f};
  EXPECT_EQ(histogram_even(x, 4, 0.0f, 1.0f), (std::vector<std::int64_t>{1, 2, 1, 2}));
}

TEST(HistogramEven, NanIsNotCounted) {
  const std::vector<float> x = {std::nanf(""), 0.5f};
  EXPECT_EQ(histogram_even(x, 2, 0.0f, 1.0f), (std::vector<std::int64_t>{0, 1}));
}

}  // namespace
}  // namespace tutor::baselines::host
