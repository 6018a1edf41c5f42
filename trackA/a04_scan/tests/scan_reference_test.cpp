// A04: the host reference scans and the verdicts, against sums worked by hand.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "scan_reference.hpp"

namespace tutor::a04 {
namespace {

TEST(a04_FloatScanReference, InclusiveAndExclusiveOfASmallArray) {
  // in = 1, -2, 0.5, 4: inclusive 1, -1, -0.5, 3.5; exclusive 0, 1, -1, -0.5.
  // |in| running: 1, 3, 3.5, 7.5 (inclusive); 0, 1, 3, 3.5 (exclusive).
  const std::vector<float> in{1.0f, -2.0f, 0.5f, 4.0f};
  const auto inc = float_scan_reference(in, false);
  EXPECT_EQ(inc.prefix, (std::vector<double>{1, -1, -0.5, 3.5}));
  EXPECT_EQ(inc.abs_prefix, (std::vector<double>{1, 3, 3.5, 7.5}));
  const auto exc = float_scan_reference(in, true);
  EXPECT_EQ(exc.prefix, (std::vector<double>{0, 1, -1, -0.5}));
  EXPECT_EQ(exc.abs_prefix, (std::vector<double>{0, 1, 3, 3.5}));
}

TEST(a04_IntScanReference, InclusiveAndExclusive) {
  // in = 5, -7, 100: inclusive 5, -2, 98; exclusive 0, 5, -2.
  const std::vector<std::int32_t> in{5, -7, 100};
  EXPECT_EQ(int_scan_reference(in, false), (std::vector<std::int64_t>{5, -2, 98}));
  EXPECT_EQ(int_scan_reference(in, true), (std::vector<std::int64_t>{0, 5, -2}));
}

TEST(a04_FloatErrorBound, IsGammaOfThePathDepthTimesTheAbsoluteSum) {
  // i = 0: depth 0/256 + 64 = 64; i = 2560: 10 + 64 = 74. u = 2^-24.
  const double u = std::ldexp(1.0, -24);
  EXPECT_DOUBLE_EQ(float_error_bound(0, 2.0), 64 * u / (1 - 64 * u) * 2.0);
  EXPECT_DOUBLE_EQ(float_error_bound(2560, 1.0), 74 * u / (1 - 74 * u));
  EXPECT_EQ(float_error_bound(7, 0.0), 0.0);  // an exclusive scan's first element must be exactly 0
}

TEST(a04_CheckFloatScan, PassesWithinTheBoundAndFailsOutsideIt) {
  const std::vector<float> in{1.0f, -1.0f, 1.0f};  // inclusive 1, 0, 1; |x| sums 1, 2, 3
  const auto ref = float_scan_reference(in, false);
  EXPECT_TRUE(check_float_scan(std::vector<float>{1.0f, 0.0f, 1.0f}, ref).passed);
  // Element 1's reference is 0: a relative test could never pass a nonzero result there,
  // but the bound is 64u/(1-64u) * 2 (about 7.6e-6), so 1e-6 passes and 1e-4 fails.
  EXPECT_TRUE(check_float_scan(std::vector<float>{1.0f, 1e-6f, 1.0f}, ref).passed);
  const Comparison bad = check_float_scan(std::vector<float>{1.0f, 1e-4f, 1.0f}, ref);
  EXPECT_FALSE(bad.passed);
  EXPECT_EQ(bad.first_mismatch, 1u);
  EXPECT_EQ(bad.mismatches, 1u);
}

TEST(a04_CheckFloatScan, NanPoisonFails) {
  const std::vector<float> in{1.0f, 2.0f};
  const auto ref = float_scan_reference(in, false);
  const Comparison c = check_float_scan(std::vector<float>{1.0f, std::numeric_limits<float>::quiet_NaN()}, ref);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.nonfinite, 1u);
  EXPECT_EQ(c.first_mismatch, 1u);
}

TEST(a04_CheckFloatScan, LengthMismatchFails) {
  const std::vector<float> in{1.0f, 2.0f};
  EXPECT_FALSE(check_float_scan(std::vector<float>{1.0f}, float_scan_reference(in, false)).passed);
}

TEST(a04_CheckIntScan, ExactOrNothing) {
  const std::vector<std::int64_t> ref{5, -2, 98};
  EXPECT_TRUE(check_int_scan(std::vector<std::int32_t>{5, -2, 98}, ref).passed);
  const Comparison c = check_int_scan(std::vector<std::int32_t>{5, -2, 99}, ref);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.first_mismatch, 2u);
}

TEST(a04_CheckIntScan, APrefixOutsideInt32Fails) {
  // 2^31 does not fit int32: whatever the GPU wrote (here the wrapped value), it is wrong.
  const std::vector<std::int64_t> ref{std::int64_t(1) << 31};
  EXPECT_FALSE(check_int_scan(std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min()}, ref).passed);
}

}  // namespace
}  // namespace tutor::a04
