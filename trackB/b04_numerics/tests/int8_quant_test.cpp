// The int8 / fp8 weight-quantization demo of b04_numerics against hand derivations: the grid
// (round half to even, clamp to +-127), the blocks each granularity uses, the percentile, the
// SQNR of known signals, and the lesson that outlier channels ruin a per-tensor scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "int8_quant.hpp"

namespace tutor::b04 {
namespace {

QuantScheme scheme(Grid grid, Granularity g, int group = 128, double clip = 100) {
  return {"test", grid, g, group, clip};
}

TEST(Int8QuantGrid, RoundsHalfToEvenAndClampsTo127) {
  // scale 1: 0.5 -> 0 and 2.5 -> 2 (ties to the even integer), 1.5 -> 2, -63.5 -> -64; beyond +-127
  // the grid saturates (the symmetric grid [-127, 127] of absmax quantization).
  EXPECT_EQ(quantize_int8(0.5f, 1), 0);
  EXPECT_EQ(quantize_int8(1.5f, 1), 2);
  EXPECT_EQ(quantize_int8(2.5f, 1), 2);
  EXPECT_EQ(quantize_int8(-63.5f, 1), -64);
  EXPECT_EQ(quantize_int8(200.0f, 1), 127);
  EXPECT_EQ(quantize_int8(-200.0f, 1), -127);
  EXPECT_EQ(int8_scale(127.0f), 1.0f);  // s = absmax / 127
  EXPECT_EQ(int8_scale(0.0f), 1.0f);    // an all-zero block keeps a harmless scale
}

TEST(Int8QuantGrid, PerTensorAbsmaxOnHandValues) {
  // absmax 127 -> s = 1: {127, -63.5, 0.5, 1.5, 2.5} -> {127, -64, 0, 2, 2}; every error 0 or 0.5,
  // and the one nonzero weight that became 0 (0.5) is 1 of 5.
  const std::vector<float> w = {127.0f, -63.5f, 0.5f, 1.5f, 2.5f};
  const QuantResult r = quantize_dequantize(w, 1, 5, scheme(Grid::int8, Granularity::per_tensor));
  EXPECT_EQ(r.dequantized, (std::vector<float>{127.0f, -64.0f, 0.0f, 2.0f, 2.0f}));
  EXPECT_EQ(r.scale_count, 1u);
  EXPECT_DOUBLE_EQ(r.zeroed_fraction, 0.2);
  EXPECT_EQ(r.clipped_fraction, 0.0);
}

TEST(Int8QuantGrid, PerChannelGivesEachRowItsOwnScale) {
  // Row 0 {127, 1.5, -2.5}: s = 1 -> {127, 2, -2}. Row 1 {31.75, 0.125, 0.375}: s = 31.75 / 127 =
  // 0.25 -> q = {127, 0.5 -> 0, 1.5 -> 2} -> {31.75, 0, 0.5}. With one scale for both rows (s = 1)
  // row 1 becomes {32, 0, 0}: the small row loses everything below 0.5.
  const std::vector<float> w = {127.0f, 1.5f, -2.5f, 31.75f, 0.125f, 0.375f};
  const QuantResult c = quantize_dequantize(w, 2, 3, scheme(Grid::int8, Granularity::per_channel));
  EXPECT_EQ(c.dequantized, (std::vector<float>{127.0f, 2.0f, -2.0f, 31.75f, 0.0f, 0.5f}));
  EXPECT_EQ(c.scale_count, 2u);
  const QuantResult t = quantize_dequantize(w, 2, 3, scheme(Grid::int8, Granularity::per_tensor));
  EXPECT_EQ(t.dequantized, (std::vector<float>{127.0f, 2.0f, -2.0f, 32.0f, 0.0f, 0.0f}));
}

TEST(Int8QuantGrid, GroupsSplitRowsAndNeverStraddleThem) {
  // One row, group 2: {127, 1.5 | 15.875, -0.1875 | 3}: scales 1, 15.875/127 = 0.125, 3/127.
  // Group 2: -0.1875 / 0.125 = -1.5 -> -2 -> -0.25. The last group holds one weight (3 -> 127 -> 3).
  const std::vector<float> w = {127.0f, 1.5f, 15.875f, -0.1875f, 3.0f};
  const QuantResult r = quantize_dequantize(w, 1, 5, scheme(Grid::int8, Granularity::per_group, 2));
  EXPECT_EQ(r.scale_count, 3u);
  EXPECT_EQ(r.dequantized[0], 127.0f);
  EXPECT_EQ(r.dequantized[1], 2.0f);
  EXPECT_EQ(r.dequantized[2], 15.875f);
  EXPECT_EQ(r.dequantized[3], -0.25f);
  EXPECT_FLOAT_EQ(r.dequantized[4], 3.0f);
  // Two rows of 3 with group 2: groups (2, 1) per row, 4 scales, none spanning the row boundary.
  const std::vector<float> v = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(quantize_dequantize(v, 2, 3, scheme(Grid::int8, Granularity::per_group, 2)).scale_count, 4u);
  // A group wider than a row is the row.
  EXPECT_EQ(quantize_dequantize(v, 2, 3, scheme(Grid::int8, Granularity::per_group, 100)).scale_count, 2u);
}

TEST(Int8QuantGrid, PercentileClippingSaturatesTheTail) {
  // |w| = {1, 2, 3, 4, 100}: the 50th percentile is 3 (Hyndman-Fan 7: h = 4 x 0.5 = 2, the third
  // order statistic); 4 and 100 lie above it and saturate at +-127 s = 3.
  const std::vector<float> w = {1.0f, -2.0f, 3.0f, 4.0f, -100.0f};
  const QuantResult r = quantize_dequantize(w, 1, 5, scheme(Grid::int8, Granularity::per_tensor, 128, 50));
  EXPECT_DOUBLE_EQ(r.clipped_fraction, 0.4);
  EXPECT_FLOAT_EQ(r.dequantized[3], 3.0f);
  EXPECT_FLOAT_EQ(r.dequantized[4], -3.0f);
}

TEST(Int8QuantGrid, RejectsBadShapesAndPercentiles) {
  const std::vector<float> w = {1, 2, 3};
  EXPECT_THROW(quantize_dequantize(w, 2, 2, scheme(Grid::int8, Granularity::per_tensor)), std::invalid_argument);
  EXPECT_THROW(quantize_dequantize(w, 1, 3, scheme(Grid::int8, Granularity::per_group, 0)), std::invalid_argument);
  EXPECT_THROW(quantize_dequantize(w, 1, 3, scheme(Grid::int8, Granularity::per_tensor, 128, 0)),
               std::invalid_argument);
}

TEST(Int8QuantFp8Grid, E4M3ScaleMapsAbsmaxTo448) {
  // absmax 448 -> s = 1: 448, 1.0625 (= 1 + 2^-4, exactly between E4M3's 1 and 1.125: a tie, even
  // -> 1) and 0.001953125 (2^-9, the smallest subnormal) -> {448, 1, 2^-9}.
  const std::vector<float> w = {448.0f, 1.0625f, 0x1p-9f};
  const QuantResult r = quantize_dequantize(w, 1, 3, scheme(Grid::fp8_e4m3, Granularity::per_tensor));
  EXPECT_EQ(r.dequantized, (std::vector<float>{448.0f, 1.0f, 0x1p-9f}));
}

TEST(Int8QuantPercentile, LinearInterpolationBetweenClosestRanks) {
  // Hyndman-Fan 7 on |x| sorted {1, 2, 3, 4, 5}: h = 4p; p = 0.9 -> h = 3.6 -> 4 + 0.6 x (5 - 4) = 4.6.
  const std::vector<float> x = {5.0f, -1.0f, 3.0f, -4.0f, 2.0f};
  EXPECT_DOUBLE_EQ(percentile_of_magnitudes(x, 0), 1.0);
  EXPECT_DOUBLE_EQ(percentile_of_magnitudes(x, 50), 3.0);
  EXPECT_NEAR(percentile_of_magnitudes(x, 90), 4.6, 1e-12);
  EXPECT_DOUBLE_EQ(percentile_of_magnitudes(x, 100), 5.0);
  EXPECT_THROW(percentile_of_magnitudes({}, 50), std::invalid_argument);
}

TEST(Int8QuantSqnr, KnownSignals) {
  // signal {10, -10}, reconstruction {11, -11}: signal power 200, noise power 2, ratio 100: 20 dB.
  const std::vector<float> s = {10.0f, -10.0f}, r = {11.0f, -11.0f};
  EXPECT_NEAR(sqnr_db(s, r), 20.0, 1e-12);
  EXPECT_TRUE(std::isinf(sqnr_db(s, s)));
  EXPECT_THROW(sqnr_db(std::vector<float>{0.0f}, std::vector<float>{1.0f}), std::invalid_argument);
}

TEST(Int8QuantSqnr, FullScaleRampQuantizedToInt8Is48Decibels) {
  // A signal uniform on [-1, 1] has power 1/3. Absmax int8 has step D = 1/127, and for a signal that
  // is dense on the grid the error is uniform on [-D/2, D/2], power D^2/12 (Bennett 1948).
  // SQNR = 10 log10((1/3) / (D^2 / 12)) = 10 log10(4 x 127^2) = 10 log10(64516) = 48.097 dB.
  const int n = 1 << 20;
  std::vector<float> ramp(n);
  for (int i = 0; i < n; ++i) ramp[std::size_t(i)] = -1.0f + 2.0f * float(i) / float(n - 1);
  const QuantResult q = quantize_dequantize(ramp, 1, n, scheme(Grid::int8, Granularity::per_tensor));
  EXPECT_NEAR(sqnr_db(ramp, q.dequantized), 10 * std::log10(4.0 * 127 * 127), 0.05);
}

TEST(Int8QuantWeightMatrix, OutlierColumnsAreDistinctSortedAndScaled) {
  WeightSpec spec;
  spec.rows = 512;
  spec.cols = 256;
  spec.outlier_channels = 5;
  const WeightMatrix w = make_weight_matrix(spec);
  ASSERT_EQ(w.outlier_columns.size(), 5u);
  EXPECT_TRUE(std::is_sorted(w.outlier_columns.begin(), w.outlier_columns.end()));
  EXPECT_EQ(std::set<int>(w.outlier_columns.begin(), w.outlier_columns.end()).size(), 5u);
  // The sample standard deviation of 512 draws is within ~10% of sigma (its relative standard error
  // is 1/sqrt(2 x 512) = 3%): 0.02 in an ordinary column, 0.02 x 50 = 1 in an outlier column.
  const auto column_sd = [&](int c) {
    double ss = 0;
    for (int r = 0; r < w.rows; ++r) {
      const double v = w.values[std::size_t(r) * std::size_t(w.cols) + std::size_t(c)];
      ss += v * v;
    }
    return std::sqrt(ss / w.rows);
  };
  const int outlier = w.outlier_columns[0];
  const int ordinary = outlier == 0 ? 1 : 0;
  EXPECT_NEAR(column_sd(outlier), 1.0, 0.1);
  if (!w.is_outlier[std::size_t(ordinary)]) {
    EXPECT_NEAR(column_sd(ordinary), 0.02, 0.002);
  }
  EXPECT_EQ(make_weight_matrix(spec).values, w.values);  // the seed fixes the matrix
}

TEST(Int8QuantWeightMatrix, RejectsOutOfRangeSpecs) {
  WeightSpec s;
  s.rows = 0;
  EXPECT_THROW(make_weight_matrix(s), std::invalid_argument);
  s = WeightSpec{};
  s.cols = 8;
  s.outlier_channels = 9;
  EXPECT_THROW(make_weight_matrix(s), std::invalid_argument);
  s = WeightSpec{};
  s.outlier_scale = 0.5;
  EXPECT_THROW(make_weight_matrix(s), std::invalid_argument);
}

TEST(Int8QuantLesson, OutlierChannelsRuinThePerTensorScale) {
  // 64 x 4096, sigma 0.02, 4 outlier input columns x50. Per-tensor: absmax is the largest of 256
  // outlier draws, ~2.9 x 50 sigma = 145 sigma, so the step is ~1.1 sigma; with the uniform-noise
  // model the noise power is step^2 / 12 ~ 0.1 sigma^2: SQNR ~ 10 dB, and a third of the ordinary
  // weights round to 0. Per-group(128): the 28 or more groups per row without an outlier have absmax
  // ~3 sigma, step ~0.024 sigma (~43 dB); the at most 4 polluted groups (1/8 of the weights, step
  // ~0.3 sigma) pull the ordinary SQNR down to ~30 dB. E4M3 keeps a relative step of 2^-3 at every
  // magnitude: ~31 dB whatever the scale.
  WeightSpec spec;
  spec.rows = 64;
  spec.cols = 4096;
  spec.outlier_channels = 4;
  const WeightMatrix w = make_weight_matrix(spec);
  const auto ordinary_sqnr = [&](const QuantScheme& s) {
    return quantization_error(w, quantize_dequantize(w.values, w.rows, w.cols, s).dequantized).sqnr_db_ordinary;
  };
  const double per_tensor = ordinary_sqnr(scheme(Grid::int8, Granularity::per_tensor));
  const double per_group = ordinary_sqnr(scheme(Grid::int8, Granularity::per_group, 128));
  const double fp8_tensor = ordinary_sqnr(scheme(Grid::fp8_e4m3, Granularity::per_tensor));
  EXPECT_LT(per_tensor, 14.0);
  EXPECT_GT(per_group, per_tensor + 12.0);
  EXPECT_GT(fp8_tensor, per_tensor + 12.0);
  EXPECT_NEAR(fp8_tensor, 31.0, 2.0);

  // Without outliers the per-tensor scale is nearly as good as per-group (absmax ~ 5 sigma vs ~ 3).
  spec.outlier_channels = 0;
  const WeightMatrix clean = make_weight_matrix(spec);
  const auto sqnr = [&](const QuantScheme& s) {
    return quantization_error(clean, quantize_dequantize(clean.values, clean.rows, clean.cols, s).dequantized).sqnr_db;
  };
  EXPECT_LT(sqnr(scheme(Grid::int8, Granularity::per_group, 128)) - sqnr(scheme(Grid::int8, Granularity::per_tensor)),
            6.0);
}

TEST(Int8QuantSchemes, ListsTheRecipesInOrder) {
  const std::vector<double> p = {99.9, 99.99};
  const auto s = standard_schemes(128, p);
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s[0].name, "int8 per-tensor absmax");
  EXPECT_EQ(s[2].name, "int8 per-group(128) absmax");
  EXPECT_EQ(s[3].clip_percentile, 99.9);
  EXPECT_EQ(s[6].grid, Grid::fp8_e4m3);
  EXPECT_EQ(s[6].granularity, Granularity::per_channel);
}

}  // namespace
}  // namespace tutor::b04
