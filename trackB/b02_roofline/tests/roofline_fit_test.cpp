// B02: fitting the roofline to points with a known answer.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "roofline_fit.hpp"

using tutor::b02::fit_roofline;
using tutor::b02::RooflinePoint;

namespace {
// A made-up GPU: memory roof 4000 GB/s = 4 TB/s, compute roof 60 TFLOP/s, so the ridge is
// 60e12 / 4e12 = 15 FLOP/byte. Points at 1/8 .. 1024 sit exactly on min(4 * I, 60).
std::vector<RooflinePoint> exact_points() {
  std::vector<RooflinePoint> p;
  for (double I = 1.0 / 8; I <= 1024; I *= 2) p.push_back({I, std::min(4.0 * I, 60.0)});
  return p;
}
}  // namespace

TEST(RooflineFit, RecoversAKnownRooflineFromExactPoints) {
  const auto f = fit_roofline(exact_points());
  EXPECT_NEAR(f.bandwidth_GBps, 4000, 1e-6 * 4000);
  EXPECT_NEAR(f.peak_TFLOPs, 60, 1e-6 * 60);
  EXPECT_NEAR(f.ridge_point, 15, 1e-5 * 15);
  EXPECT_LT(f.rms_log_residual, 1e-9);
  // 1/8 .. 8 are below the ridge (7 points), 16 .. 1024 above it (7 points).
  EXPECT_EQ(f.memory_bound_points, 7u);
  EXPECT_EQ(f.compute_bound_points, 7u);
}

TEST(RooflineFit, SymmetricNoiseLeavesTheRoofsWithinTheNoise) {
  auto p = exact_points();
  // Alternate +3% / -3%: each roof's log-mean is unchanged to first order.
  for (std::size_t i = 0; i < p.size(); ++i) p[i].TFLOPs *= (i % 2 ? 1.03 : 1 / 1.03);
  const auto f = fit_roofline(p);
  EXPECT_NEAR(f.bandwidth_GBps, 4000, 0.03 * 4000);
  EXPECT_NEAR(f.peak_TFLOPs, 60, 0.03 * 60);
  EXPECT_NEAR(f.ridge_point, 15, 0.15 * 15);
  EXPECT_NEAR(f.rms_log_residual, std::log(1.03), 0.01);
}

TEST(RooflineFit, ARoundedKneeFitsBetweenTheTwoRoofs) {
  // Real kernels bend near the ridge: there the rate is below both roofs. The fit must still
  // find roofs close to the true ones, since the bend touches only a couple of points.
  auto p = exact_points();
  for (auto& q : p)
    if (q.intensity >= 8 && q.intensity <= 32) q.TFLOPs *= 0.8;
  const auto f = fit_roofline(p);
  EXPECT_NEAR(f.bandwidth_GBps, 4000, 0.1 * 4000);
  EXPECT_NEAR(f.peak_TFLOPs, 60, 0.1 * 60);
}

TEST(RooflineFit, AllMemoryBoundPutsTheRidgeAtTheEndOfTheSweep) {
  std::vector<RooflinePoint> p;
  for (double I = 0.125; I <= 4; I *= 2) p.push_back({I, 4.0 * I});
  const auto f = fit_roofline(p);
  EXPECT_NEAR(f.bandwidth_GBps, 4000, 1e-6 * 4000);
  EXPECT_NEAR(f.ridge_point, 4, 1e-6 * 4);  // extrapolation: the sweep never left the slope
}

TEST(RooflineFit, RejectsTooFewOrInvalidPoints) {
  EXPECT_THROW(fit_roofline(std::vector<RooflinePoint>{{1, 1}, {2, 2}}), std::invalid_argument);
  EXPECT_THROW(fit_roofline(std::vector<RooflinePoint>{{1, 1}, {1, 2}, {1, 3}}), std::invalid_argument);
  EXPECT_THROW(fit_roofline(std::vector<RooflinePoint>{{1, 1}, {2, -2}, {4, 3}}), std::invalid_argument);
  EXPECT_THROW(fit_roofline(std::vector<RooflinePoint>{{1, 1}, {2, NAN}, {4, 3}}), std::invalid_argument);
}
