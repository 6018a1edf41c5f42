// Roofline math (Williams, Waterman and Patterson, CACM 52(4), 2009, eq. 1):
//   attainable = min(peak, intensity * bandwidth).
// A made-up GPU with round numbers, so every value is derived by hand:
//   peak 100 TFLOP/s = 1e14 FLOP/s, bandwidth 2000 GB/s = 2e12 B/s,
//   ridge point = 1e14 / 2e12 = 50 FLOP/B.
#include "tutor/roofline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace {

using tutor::roofline::arithmetic_intensity;
using tutor::roofline::attainable_TFLOPs;
using tutor::roofline::bound;
using tutor::roofline::ridge_point;

constexpr double kPeak_TFLOPs = 100.0;
constexpr double kBandwidth_GBps = 2000.0;

// ------------------------------------------------------------------ ridge point

TEST(Roofline, RidgePointOfAMadeUpGpuByHand) {
  EXPECT_DOUBLE_EQ(ridge_point(kPeak_TFLOPs, kBandwidth_GBps), 50.0);  // 1e14 / 2e12
}

TEST(Roofline, RidgePointMovesRightWhenComputeOutgrowsBandwidth) {
  // Twice the compute on the same memory: the ridge doubles, 2e14 / 2e12 = 100 FLOP/B.
  EXPECT_DOUBLE_EQ(ridge_point(200.0, kBandwidth_GBps), 100.0);
}

TEST(Roofline, RidgePointRejectsNonPositiveOrNanRoofs) {
  EXPECT_THROW(ridge_point(0.0, kBandwidth_GBps), std::invalid_argument);
  EXPECT_THROW(ridge_point(kPeak_TFLOPs, 0.0), std::invalid_argument);
  EXPECT_THROW(ridge_point(-1.0, kBandwidth_GBps), std::invalid_argument);
  EXPECT_THROW(ridge_point(kPeak_TFLOPs, -1.0), std::invalid_argument);
  EXPECT_THROW(ridge_point(std::nan(""), kBandwidth_GBps), std::invalid_argument);
}

// ------------------------------------------------------------------ attainable rate

TEST(Roofline, BelowTheRidgeTheMemoryRoofLimits) {
  // 10 FLOP/B * 2e12 B/s = 2e13 FLOP/s = 20 TFLOP/s < 100.
  EXPECT_DOUBLE_EQ(attainable_TFLOPs(10.0, kPeak_TFLOPs, kBandwidth_GBps), 20.0);
  // A vector add moves 12 B per FLOP (two fp32 reads, one write): 1/12 FLOP/B
  // -> 2e12 / 12 = 1.6667e11 FLOP/s = 0.16667 TFLOP/s.
  EXPECT_NEAR(attainable_TFLOPs(1.0 / 12.0, kPeak_TFLOPs, kBandwidth_GBps), 1.0 / 6.0, 1e-12);
}

TEST(Roofline, AboveTheRidgeTheComputeRoofLimits) {
  // 200 FLOP/B * 2e12 B/s = 4e14 > 1e14: capped at the peak.
  EXPECT_DOUBLE_EQ(attainable_TFLOPs(200.0, kPeak_TFLOPs, kBandwidth_GBps), 100.0);
}

TEST(Roofline, AtTheRidgeBothRoofsMeet) {
  // 50 FLOP/B * 2e12 B/s = 1e14 FLOP/s = the peak.
  EXPECT_DOUBLE_EQ(attainable_TFLOPs(50.0, kPeak_TFLOPs, kBandwidth_GBps), 100.0);
}

TEST(Roofline, InfiniteIntensityReachesThePeak) {
  // A kernel that moves no bytes (intensity +inf) is bound by compute alone.
  EXPECT_DOUBLE_EQ(attainable_TFLOPs(std::numeric_limits<double>::infinity(), kPeak_TFLOPs,
                                     kBandwidth_GBps),
                   100.0);
}

TEST(Roofline, AttainableRejectsInvalidInputs) {
  EXPECT_THROW(attainable_TFLOPs(-1.0, kPeak_TFLOPs, kBandwidth_GBps), std::invalid_argument);
  EXPECT_THROW(attainable_TFLOPs(10.0, 0.0, kBandwidth_GBps), std::invalid_argument);
  EXPECT_THROW(attainable_TFLOPs(10.0, kPeak_TFLOPs, -5.0), std::invalid_argument);
}

// ------------------------------------------------------------------ bound

TEST(Roofline, BoundSaysWhichRoofLimits) {
  EXPECT_EQ(bound(10.0, kPeak_TFLOPs, kBandwidth_GBps), "memory");    // 10 < 50
  EXPECT_EQ(bound(49.9, kPeak_TFLOPs, kBandwidth_GBps), "memory");    // just below 50
  EXPECT_EQ(bound(50.0, kPeak_TFLOPs, kBandwidth_GBps), "compute");   // at the ridge: not below it
  EXPECT_EQ(bound(200.0, kPeak_TFLOPs, kBandwidth_GBps), "compute");  // 200 > 50
}

TEST(Roofline, BoundRejectsInvalidRoofs) {
  EXPECT_THROW(bound(10.0, 0.0, kBandwidth_GBps), std::invalid_argument);
  EXPECT_THROW(bound(10.0, kPeak_TFLOPs, 0.0), std::invalid_argument);
}

// ------------------------------------------------------------------ arithmetic intensity

TEST(Roofline, ArithmeticIntensityIsFlopsOverBytes) {
  // SAXPY, y = a x + y, fp32: 2 FLOPs per element over 12 bytes (read x, read y, write y).
  EXPECT_DOUBLE_EQ(arithmetic_intensity(2.0, 12.0), 1.0 / 6.0);
  // Square fp32 GEMM, n = 1024, each matrix moved once: 2 n^3 FLOPs over 3 * 4 n^2 bytes
  // = 2n / 12 = n / 6 = 170.67 FLOP/B.
  const double n = 1024;
  EXPECT_DOUBLE_EQ(arithmetic_intensity(2 * n * n * n, 12 * n * n), 1024.0 / 6.0);
}

TEST(Roofline, ArithmeticIntensityWithZeroBytes) {
  EXPECT_EQ(arithmetic_intensity(1e9, 0.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(arithmetic_intensity(0.0, 0.0), 0.0) << "no work at all is not infinitely intense";
  EXPECT_EQ(arithmetic_intensity(0.0, 1e9), 0.0) << "a copy does no arithmetic";
}

TEST(Roofline, ArithmeticIntensityRejectsNegatives) {
  EXPECT_THROW(arithmetic_intensity(-1.0, 10.0), std::invalid_argument);
  EXPECT_THROW(arithmetic_intensity(10.0, -1.0), std::invalid_argument);
}

}  // namespace
