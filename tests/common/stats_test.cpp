// Summary statistics of timing samples. Every expected value is derived by hand in the
// comment beside it from Hyndman & Fan (1996) definition 7, the default of NumPy's
// np.percentile and R's quantile(): for n sorted samples x_0..x_{n-1} and 0 <= q <= 1,
//   h = (n - 1) q,   Q(q) = x_floor(h) + (h - floor(h)) (x_floor(h)+1 - x_floor(h)).
#include "tutor/stats.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using tutor::quantile_sorted;
using tutor::summarize;
using tutor::Summary;

// ------------------------------------------------------------------ summarize

TEST(Summarize, OddCountMedianIsTheMiddleSample) {
  // sorted {1, 2, 3, 4, 5}, n = 5
  const std::vector<double> samples = {1, 2, 3, 4, 5};
  const Summary s = summarize(samples);
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.median, 3.0);   // h = 4 * 0.5 = 2   -> x_2 = 3
  EXPECT_DOUBLE_EQ(s.p10, 1.4);      // h = 4 * 0.1 = 0.4 -> 1 + 0.4 * (2 - 1)
  EXPECT_DOUBLE_EQ(s.p90, 4.6);      // h = 4 * 0.9 = 3.6 -> 4 + 0.6 * (5 - 4)
  EXPECT_DOUBLE_EQ(s.mean, 3.0);     // 15 / 5
}

TEST(Summarize, EvenCountMedianIsTheMeanOfTheTwoMiddleSamples) {
  // sorted {1, 2, 3, 4}, n = 4
  const std::vector<double> samples = {1, 2, 3, 4};
  const Summary s = summarize(samples);
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.median, 2.5);   // h = 3 * 0.5 = 1.5 -> 2 + 0.5 * (3 - 2) = (2 + 3) / 2
  EXPECT_DOUBLE_EQ(s.p10, 1.3);      // h = 3 * 0.1 = 0.3 -> 1 + 0.3 * (2 - 1)
  EXPECT_DOUBLE_EQ(s.p90, 3.7);      // h = 3 * 0.9 = 2.7 -> 3 + 0.7 * (4 - 3)
  EXPECT_DOUBLE_EQ(s.mean, 2.5);     // 10 / 4
}

TEST(Summarize, UnsortedInputGivesTheSameSummaryAndIsNotModified) {
  // The same five values as OddCountMedianIsTheMiddleSample, shuffled.
  const std::vector<double> samples = {4, 1, 5, 3, 2};
  const std::vector<double> before = samples;
  const Summary s = summarize(samples);
  EXPECT_EQ(samples, before) << "summarize takes a span of const: the input keeps its order";
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.p10, 1.4);
  EXPECT_DOUBLE_EQ(s.p90, 4.6);
}

TEST(Summarize, SingleSampleIsEveryStatistic) {
  // n = 1: h = 0 for every q, so every quantile is x_0.
  const std::vector<double> samples = {0.125};
  const Summary s = summarize(samples);
  EXPECT_EQ(s.n, 1u);
  EXPECT_DOUBLE_EQ(s.min, 0.125);
  EXPECT_DOUBLE_EQ(s.p10, 0.125);
  EXPECT_DOUBLE_EQ(s.median, 0.125);
  EXPECT_DOUBLE_EQ(s.p90, 0.125);
  EXPECT_DOUBLE_EQ(s.max, 0.125);
  EXPECT_DOUBLE_EQ(s.mean, 0.125);
}

TEST(Summarize, TenKernelTimesP10AndP90ByHand) {
  // Ten launch times in ms, out of order; sorted: 1.0 1.1 1.2 ... 1.9 (step 0.1).
  // p10: h = 9 * 0.1 = 0.9 -> 1.0 + 0.9 * (1.1 - 1.0) = 1.09
  // p90: h = 9 * 0.9 = 8.1 -> 1.8 + 0.1 * (1.9 - 1.8) = 1.81
  // median: h = 4.5 -> (1.4 + 1.5) / 2 = 1.45; mean: 14.5 / 10 = 1.45
  const std::vector<double> samples = {1.3, 1.9, 1.0, 1.5, 1.7, 1.1, 1.8, 1.2, 1.6, 1.4};
  const Summary s = summarize(samples);
  EXPECT_EQ(s.n, 10u);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 1.9);
  EXPECT_NEAR(s.p10, 1.09, 1e-12);
  EXPECT_NEAR(s.p90, 1.81, 1e-12);
  EXPECT_NEAR(s.median, 1.45, 1e-12);
  EXPECT_NEAR(s.mean, 1.45, 1e-12);
}

TEST(Summarize, OneSlowOutlierMovesTheMaxAndMeanButNotTheMedian) {
  // Why labs report the median: {1, 1, 1, 1, 100} -> median 1, mean 104 / 5 = 20.8.
  const std::vector<double> samples = {1, 100, 1, 1, 1};
  const Summary s = summarize(samples);
  EXPECT_DOUBLE_EQ(s.median, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 100.0);
  EXPECT_DOUBLE_EQ(s.mean, 20.8);
}

TEST(Summarize, EmptyInputThrows) {
  const std::vector<double> none;
  EXPECT_THROW(summarize(none), std::invalid_argument);
}

TEST(Summarize, NanSampleThrows) {
  // A NaN has no place in an order: sorting with it is undefined, so it is refused.
  const std::vector<double> samples = {1.0, std::numeric_limits<double>::quiet_NaN(), 2.0};
  EXPECT_THROW(summarize(samples), std::invalid_argument);
  const std::vector<double> only_nan = {std::numeric_limits<double>::quiet_NaN()};
  EXPECT_THROW(summarize(only_nan), std::invalid_argument);
}

// ------------------------------------------------------------------ quantile_sorted

TEST(QuantileSorted, EndpointsAreTheFirstAndLastSample) {
  const std::vector<double> sorted = {2, 4, 8};
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.0), 2.0);  // h = 0
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 1.0), 8.0);  // h = 2 = n - 1
}

TEST(QuantileSorted, InterpolatesLinearlyBetweenClosestRanks) {
  const std::vector<double> sorted = {2, 4, 8};
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.25), 3.0);  // h = 0.5 -> 2 + 0.5 * (4 - 2)
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.5), 4.0);   // h = 1   -> x_1
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.75), 6.0);  // h = 1.5 -> 4 + 0.5 * (8 - 4)
}

TEST(QuantileSorted, EmptyInputThrows) {
  const std::vector<double> none;
  EXPECT_THROW(quantile_sorted(none, 0.5), std::invalid_argument);
}

TEST(QuantileSorted, QOutsideZeroToOneThrows) {
  const std::vector<double> sorted = {1, 2, 3};
  EXPECT_THROW(quantile_sorted(sorted, -0.01), std::invalid_argument);
  EXPECT_THROW(quantile_sorted(sorted, 1.01), std::invalid_argument);
  EXPECT_THROW(quantile_sorted(sorted, std::numeric_limits<double>::quiet_NaN()),
               std::invalid_argument);
}

}  // namespace
