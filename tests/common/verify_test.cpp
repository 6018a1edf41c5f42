// Verification: the relative L2 error against a reference, the NaN/Inf rule, tolerances per
// data type, poison fill and random inputs. Expected values are derived by hand beside
// each check; the unit roundoffs are those verify.hpp cites (IEEE 754-2019 Table 3.5:
// binary32 has a 24-bit significand, so u = 2^-24; bfloat16 has 8, so u = 2^-8).
#include "tutor/verify.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

using tutor::compare;
using tutor::Comparison;
using tutor::default_tolerance;
using tutor::DType;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ------------------------------------------------------------------ compare: exact

TEST(Compare, IdenticalToADoubleReferencePassesWithZeroError) {
  const std::vector<float> got = {1.5f, -2.25f, 0.0f, 1024.0f};
  const std::vector<double> ref = {1.5, -2.25, 0.0, 1024.0};  // the same values, exactly
  const Comparison c = compare(got, ref, 0.0);
  EXPECT_TRUE(c.passed) << c.reason;
  EXPECT_EQ(c.rel_l2, 0.0);
  EXPECT_EQ(c.max_abs_err, 0.0);
  EXPECT_EQ(c.count, 4u);
  EXPECT_EQ(c.nonfinite, 0u);
  EXPECT_EQ(c.mismatches, 0u);
  EXPECT_FALSE(c.first_mismatch.has_value());
  EXPECT_EQ(c.tolerance, 0.0);
  EXPECT_TRUE(c.reason.empty());
}

TEST(Compare, IdenticalToAFloatReferencePassesWithZeroError) {
  // A transpose is data movement: tolerance 0, and a bit-exact copy passes.
  const std::vector<float> got = {3.0f, -0.5f, 7.75f};
  const std::vector<float> ref = got;
  const Comparison c = compare(got, ref, 0.0);
  EXPECT_TRUE(c.passed) << c.reason;
  EXPECT_EQ(c.rel_l2, 0.0);
  EXPECT_EQ(c.count, 3u);
}

TEST(Compare, BothAllZeroPasses) {
  // ||ref|| = 0: rel_l2 is documented as 0 when both are all-zero.
  const std::vector<float> got = {0, 0, 0};
  const std::vector<double> ref = {0, 0, 0};
  const Comparison c = compare(got, ref, 0.0);
  EXPECT_TRUE(c.passed) << c.reason;
  EXPECT_EQ(c.rel_l2, 0.0);
}

// ------------------------------------------------------------------ compare: rel L2 by hand

TEST(Compare, RelativeL2ErrorByHand) {
  // got = {1, 2, 2}, ref = {1, 2, 3}: d = {0, 0, -1}, ||d|| = 1,
  // ||ref|| = sqrt(1 + 4 + 9) = sqrt(14) = 3.741657..., rel = 1 / 3.741657 = 0.267261...
  const std::vector<float> got = {1, 2, 2};
  const std::vector<double> ref = {1, 2, 3};
  const Comparison c = compare(got, ref, 0.3);
  EXPECT_NEAR(c.rel_l2, 0.2672612, 1e-7);
  EXPECT_DOUBLE_EQ(c.max_abs_err, 1.0);  // |2 - 3|
  EXPECT_TRUE(c.passed) << "0.2673 <= 0.3: " << c.reason;
  EXPECT_EQ(c.tolerance, 0.3);
  // Element check: |d_2| = 1 against 0.3 * (|3| + 1) = 1.2: not a mismatch.
  EXPECT_EQ(c.mismatches, 0u);
  EXPECT_FALSE(c.first_mismatch.has_value());
}

TEST(Compare, RelativeL2AboveTheToleranceFailsWithAReason) {
  // Same vectors, tolerance 0.2 < 0.2673: fails. Element check: |d_2| = 1 > 0.2 * (3 + 1)
  // = 0.8, so element 2 is the first (and only) mismatch.
  const std::vector<float> got = {1, 2, 2};
  const std::vector<float> ref = {1, 2, 3};
  const Comparison c = compare(got, ref, 0.2);
  EXPECT_FALSE(c.passed);
  EXPECT_NEAR(c.rel_l2, 0.2672612, 1e-7);
  EXPECT_EQ(c.mismatches, 1u);
  ASSERT_TRUE(c.first_mismatch.has_value());
  EXPECT_EQ(*c.first_mismatch, 2u);
  EXPECT_TRUE(mentions(c.reason, "relative L2 error")) << c.reason;
  EXPECT_TRUE(mentions(c.reason, "index 2")) << c.reason;
}

TEST(Compare, FirstMismatchIsTheLowestWrongIndex) {
  // Elements 3 and 5 are wrong (a stripe a kernel forgot to write would look like this).
  const std::vector<float> got = {0, 1, 2, 99, 4, 99, 6};
  const std::vector<double> ref = {0, 1, 2, 3, 4, 5, 6};
  const Comparison c = compare(got, ref, 0.0);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 2u);
  ASSERT_TRUE(c.first_mismatch.has_value());
  EXPECT_EQ(*c.first_mismatch, 3u);
  EXPECT_DOUBLE_EQ(c.max_abs_err, 96.0);  // |99 - 3|
}

// ------------------------------------------------------------------ compare: NaN / Inf

TEST(Compare, NanNeverPassesEvenWithAHugeTolerance) {
  // An absolute-tolerance check `|got - ref| > tol` is false for NaN, so NaN slips through;
  // this comparison counts non-finite outputs first.
  const std::vector<float> got = {1, kNaN, 3};
  const std::vector<double> ref = {1, 2, 3};
  const Comparison c = compare(got, ref, 1e30);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.nonfinite, 1u);
  ASSERT_TRUE(c.first_mismatch.has_value());
  EXPECT_EQ(*c.first_mismatch, 1u);
  EXPECT_TRUE(mentions(c.reason, "NaN")) << c.reason;
}

TEST(Compare, InfNeverPassesEvenWithAHugeTolerance) {
  const std::vector<float> got = {1, 2, kInf, -kInf};
  const std::vector<float> ref = {1, 2, 3, 4};
  const Comparison c = compare(got, ref, 1e30);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.nonfinite, 2u);
  ASSERT_TRUE(c.first_mismatch.has_value());
  EXPECT_EQ(*c.first_mismatch, 2u);
}

TEST(Compare, AllNanOutputFailsAgainstAnAllZeroReference) {
  // ||ref|| = 0 must not turn into "nothing to compare".
  const std::vector<float> got = {kNaN, kNaN};
  const std::vector<double> ref = {0, 0};
  const Comparison c = compare(got, ref, 1e30);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.nonfinite, 2u);
}

TEST(Compare, PoisonedOutputThatNoKernelWroteFails) {
  std::vector<float> got(5);
  tutor::poison(got);
  const std::vector<double> ref(5, 1.0);
  const Comparison c = compare(got, ref, 1e30);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.nonfinite, 5u);
  ASSERT_TRUE(c.first_mismatch.has_value());
  EXPECT_EQ(*c.first_mismatch, 0u);
}

// ------------------------------------------------------------------ compare: sizes

TEST(Compare, SizeMismatchFailsWithAReason) {
  const std::vector<float> got = {1, 2, 3};
  const std::vector<double> ref = {1, 2};
  const Comparison c = compare(got, ref, 1e30);
  EXPECT_FALSE(c.passed);
  EXPECT_TRUE(mentions(c.reason, "size mismatch")) << c.reason;
  EXPECT_TRUE(mentions(c.reason, "3")) << c.reason;
  EXPECT_TRUE(mentions(c.reason, "2")) << c.reason;

  const std::vector<float> shorter = {1};
  const std::vector<float> ref_f = {1, 2};
  EXPECT_FALSE(compare(shorter, ref_f, 1e30).passed);
}

// ------------------------------------------------------------------ default_tolerance

TEST(DefaultTolerance, DataMovementIsExact) {
  // k = 1: nothing is summed, a copy or transpose must reproduce its input bit for bit.
  for (DType t : {DType::f64, DType::f32, DType::tf32, DType::f16, DType::bf16,
                  DType::fp8_e4m3, DType::fp8_e5m2}) {
    EXPECT_EQ(default_tolerance(t, 1), 0.0) << static_cast<int>(t);
  }
}

TEST(DefaultTolerance, F32ReductionOf4096TermsByHand) {
  // 8 * u * sqrt(k) with u = 2^-24 (binary32), k = 4096 = 2^12, sqrt(k) = 2^6:
  // 2^3 * 2^-24 * 2^6 = 2^-15 = 3.0517578125e-05 (exact in binary64).
  EXPECT_EQ(default_tolerance(DType::f32, 4096), 3.0517578125e-05);
}

TEST(DefaultTolerance, GrowsAsSqrtK) {
  // k = 16 -> sqrt = 4; k = 64 -> sqrt = 8: four times the terms, twice the tolerance.
  // f32 at k = 16: 8 * 2^-24 * 4 = 2^-19.
  EXPECT_EQ(default_tolerance(DType::f32, 16), std::ldexp(1.0, -19));
  EXPECT_EQ(default_tolerance(DType::f32, 64), 2 * default_tolerance(DType::f32, 16));
}

TEST(DefaultTolerance, LowerPrecisionTypesGetLooserBounds) {
  // u: f64 2^-53 < f32 2^-24 < tf32 = f16 2^-11 < bf16 2^-8 < e4m3 2^-4 < e5m2 2^-3.
  // At k = 4 none of them reaches the cap (e4m3: 8 * 2^-4 * 2 = 1, capped at 0.25; e5m2 too).
  constexpr std::size_t k = 4;
  EXPECT_LT(default_tolerance(DType::f64, k), default_tolerance(DType::f32, k));
  EXPECT_LT(default_tolerance(DType::f32, k), default_tolerance(DType::bf16, k));
  EXPECT_LT(default_tolerance(DType::f16, k), default_tolerance(DType::bf16, k));
  // bf16 at k = 4: 8 * 2^-8 * 2 = 2^-4.
  EXPECT_EQ(default_tolerance(DType::bf16, k), 0.0625);
}

TEST(DefaultTolerance, IsCappedSoThatAnAllZeroOutputNeverPasses) {
  // An all-zero output has relative L2 error exactly 1. bf16 at k = 256 would be
  // 8 * 2^-8 * 16 = 0.5 and e4m3 at k = 4 would be 1: both are capped at kMaxTolerance.
  EXPECT_EQ(default_tolerance(DType::bf16, 256), tutor::kMaxTolerance);
  EXPECT_EQ(default_tolerance(DType::fp8_e4m3, 4), tutor::kMaxTolerance);
  EXPECT_LT(tutor::kMaxTolerance, 1.0);
  const std::vector<float> zeros(4, 0.0f);
  const std::vector<double> ref = {1, 2, 3, 4};
  EXPECT_FALSE(tutor::compare(zeros, ref, default_tolerance(DType::fp8_e5m2, 1 << 20)).passed);
}

// ------------------------------------------------------------------ poison

TEST(Poison, WritesThePoisonBitPatternWhichIsNaN) {
  std::vector<float> out(7, 1.0f);
  tutor::poison(out);
  for (float x : out) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    EXPECT_EQ(bits, 0x7fffedcbu);  // verify.hpp: kPoisonBitsF32
    EXPECT_TRUE(std::isnan(x));
  }
  EXPECT_EQ(tutor::kPoisonBitsF32, 0x7fffedcbu);
}

TEST(Poison, EmptySpanIsFine) {
  std::vector<float> none;
  tutor::poison(none);
  EXPECT_TRUE(none.empty());
}

// ------------------------------------------------------------------ fill_random

TEST(FillRandom, SameSeedGivesTheSameValues) {
  std::vector<float> a(1000), b(1000);
  tutor::fill_random(a, 42);
  tutor::fill_random(b, 42);
  EXPECT_EQ(a, b);
}

TEST(FillRandom, DifferentSeedsGiveDifferentValues) {
  std::vector<float> a(1000), b(1000);
  tutor::fill_random(a, 1);
  tutor::fill_random(b, 2);
  EXPECT_NE(a, b);
}

TEST(FillRandom, StaysInTheDefaultRangeMinusOneToOne) {
  std::vector<float> v(1 << 16);
  tutor::fill_random(v, 7);
  for (float x : v) {
    ASSERT_GE(x, -1.0f);
    ASSERT_LT(x, 1.0f);
  }
}

TEST(FillRandom, StaysInAnAsymmetricRange) {
  // [-4, 4): lo + (hi - lo) u = -4 + 8u. The scale by 8 is exact, and for 8u in [4, 8) the
  // subtraction is exact too (Sterbenz lemma), so no draw can round up onto hi = 4.
  std::vector<float> v(1 << 16);
  tutor::fill_random(v, 11, -4.0f, 4.0f);
  for (float x : v) {
    ASSERT_GE(x, -4.0f);
    ASSERT_LT(x, 4.0f);
  }
  EXPECT_LT(*std::min_element(v.begin(), v.end()), -3.0f) << "values spread over the range";
  EXPECT_GT(*std::max_element(v.begin(), v.end()), 3.0f) << "values spread over the range";
}

TEST(FillRandom, OutputIsNeverAllZero) {
  std::vector<float> v(256);
  tutor::fill_random(v, 3);
  EXPECT_TRUE(std::any_of(v.begin(), v.end(), [](float x) { return x != 0.0f; }));
  // A one-element span is the case a zero draw would make all-zero.
  for (std::uint64_t seed = 0; seed < 1000; ++seed) {
    std::vector<float> one(1);
    tutor::fill_random(one, seed);
    ASSERT_NE(one[0], 0.0f) << "seed " << seed;
  }
}

TEST(FreshSeed, DiffersBetweenTwoCalls) {
  EXPECT_NE(tutor::fresh_seed(), tutor::fresh_seed());
}

}  // namespace

TEST(CompareExact, EqualIntegersPassAndOneDifferenceFailsNamingIt) {
  const std::vector<std::int32_t> ref = {0, 5, 7, 256};
  std::vector<std::int32_t> got = ref;
  EXPECT_TRUE(tutor::compare_exact(got, ref).passed);
  got[2] = 8;
  const tutor::Comparison c = tutor::compare_exact(got, ref);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_EQ(*c.first_mismatch, 2u);
  EXPECT_NE(c.reason.find("got 8, expected 7"), std::string::npos) << c.reason;
}

TEST(WorstOf, FailsWhenOnePartFailsAndKeepsTheFirstReason) {
  const std::vector<std::uint32_t> a = {1, 2}, b = {1, 3};
  const tutor::Comparison ok = tutor::compare_exact(a, a), bad = tutor::compare_exact(b, a);
  const tutor::Comparison both = tutor::worst_of({ok, bad});
  EXPECT_FALSE(both.passed);
  EXPECT_EQ(both.reason, bad.reason);
  EXPECT_EQ(both.count, 4u);
  EXPECT_TRUE(tutor::worst_of({ok, ok}).passed);
}
