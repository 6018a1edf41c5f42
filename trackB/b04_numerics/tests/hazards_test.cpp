// The hazard experiments of b04_numerics against values derived by hand from the format
// definitions (IEEE 754-2019 binary16; bf16 = fp32's top 16 bits; TF32 = 10 fraction bits;
// OCP OFP8 rev. 1.0 for E4M3/E5M2). Each expected value has its derivation beside it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "hazards.hpp"

namespace tutor::b04 {
namespace {

// ---- fp16-overflow ----------------------------------------------------------------------------

TEST(HazardsFp16Overflow, LargestFiniteIs65504) {
  // binary16: p = 11, emax = 15: (2 - 2^-10) x 2^15 = 65536 - 32 = 65504.
  EXPECT_EQ(fp16_limits().max_finite, 65504.0f);
}

TEST(HazardsFp16Overflow, ThresholdIsTheMidpointTo2To16) {
  // Above 65504 the next step would be 2^16 = 65536 (spacing 2^(15-10) = 32). The midpoint 65520 is
  // a tie; ties-to-even picks 2^16 (65504's significand 1.1111111111 is odd), which exceeds emax:
  // inf. Everything below 65520 rounds down to 65504.
  const Fp16Limits l = fp16_limits();
  EXPECT_EQ(l.overflow_threshold, 65520.0f);
  EXPECT_EQ(round_fp16(65519.996f), 65504.0f);
  EXPECT_TRUE(std::isinf(round_fp16(65520.0f)));
}

TEST(HazardsFp16Overflow, FirstLogitWhoseExpOverflowsIs11_09375) {
  // exp(x) >= 65520 iff x >= ln 65520 = 16 ln 2 + ln(1 - 2^-12) = 11.0903549 - 0.0002441 = 11.0901108.
  // fp16 values in [8, 16) are spaced 2^(3-10) = 2^-7: 11.0859375 (1419/128) is below it
  // (exp = 65247), 11.09375 (1420/128) above (exp = 65759).
  const Fp16Limits l = fp16_limits();
  EXPECT_NEAR(l.exp_overflow_exact, 11.0901108, 1e-6);
  EXPECT_EQ(l.exp_overflow_logit, 11.09375f);
}

TEST(HazardsFp16Overflow, NaiveSoftmaxIsNaNWhenOneExpOverflows) {
  // exp(12) = 162755 > 65504: inf; the sum is inf; p0 = inf / inf = NaN, p1 = 1 / inf = 0.
  const std::vector<float> logits = {12.0f, 0.0f};
  const auto p = softmax_fp16_naive(logits);
  EXPECT_TRUE(std::isnan(p[0]));
  EXPECT_EQ(p[1], 0.0f);
}

TEST(HazardsFp16Overflow, NaiveSoftmaxIsZeroWhenOnlyTheSumOverflows) {
  // exp(10.5) = 36315.5; in [32768, 65536) fp16 is spaced 32: 36315.5 / 32 = 1134.86 -> 36320.
  // 36320 + 36320 = 72640 >= 65520: the sum is inf, and 36320 / inf = 0.
  const std::vector<float> logits = {10.5f, 10.5f};
  const auto p = softmax_fp16_naive(logits);
  EXPECT_EQ(p[0], 0.0f);
  EXPECT_EQ(p[1], 0.0f);
}

TEST(HazardsFp16Overflow, MaxSubtractedSoftmaxMatchesHandValues) {
  // {10.5, 10.5} - 10.5 = {0, 0}: exp = {1, 1}, sum 2, p = {0.5, 0.5} exactly.
  const std::vector<float> equal = {10.5f, 10.5f};
  const auto p = softmax_fp16_max_subtracted(equal);
  EXPECT_EQ(p[0], 0.5f);
  EXPECT_EQ(p[1], 0.5f);
  // {12, 0} - 12 = {0, -12}: exp(-12) = 6.1442e-6 lies in fp16's subnormal range (below 2^-14),
  // spaced 2^-24 = 5.9605e-8: 6.1442e-6 / 5.9605e-8 = 103.08 -> 103 x 2^-24. The sum 1 + 6.1e-6
  // rounds to 1 (half-ulp of 1 is 2^-11), so p = {1, 103 x 2^-24}.
  const std::vector<float> wide = {12.0f, 0.0f};
  const auto q = softmax_fp16_max_subtracted(wide);
  EXPECT_EQ(q[0], 1.0f);
  EXPECT_EQ(q[1], std::ldexp(103.0f, -24));
}

TEST(HazardsFp16Overflow, AttentionScoreOverflowsUnlessScaledFirst) {
  // d = 128, q_i = k_i = 23: q.k = 128 x 529 = 67712, exact in the fp32 accumulator, > 65504: inf
  // when stored in fp16, and inf x 1/sqrt(128) stays inf.
  // Scaled first: 23 x fp32(1/sqrt(128)) = 2.03293; fp16 in [2, 4) is spaced 2^-9: 1040.86 -> 1041,
  // q' = 2.033203125. q' x 23 = 46.763671875 (exact), x 128 = 5985.75 (exact in fp32: 22 bits);
  // fp16 in [4096, 8192) is spaced 4: 5985.75 / 4 = 1496.44 -> 5984.
  const std::vector<float> q(128, 23.0f), k(128, 23.0f);
  const float scale = float(1.0 / std::sqrt(128.0));
  EXPECT_TRUE(std::isinf(attention_score_fp16(q, k, scale, false)));
  EXPECT_EQ(attention_score_fp16(q, k, scale, true), 5984.0f);
}

// ---- bf16-sum ---------------------------------------------------------------------------------

TEST(HazardsBf16Sum, AddingOneStallsAt256) {
  // bf16 has 8 significand bits. For s in [128, 256) the spacing is 2^(7-7) = 1, so 1 + 1 + ... is
  // exact up to 256 (reached at step 256). In [256, 512) the spacing is 2^(8-7) = 2: 256 + 1 = 257
  // is the midpoint of 256 and 258, a tie; ties-to-even keeps 256 (significand 1.0000000, last bit
  // 0; 258 = 1.0000001 x 2^8 is odd). So step 257 is the first that changes nothing, and the sum
  // stays 256 forever.
  const std::vector<float> ones(1000, 1.0f);
  const SumComparison r = sum_in_bf16(ones);
  ASSERT_TRUE(r.stall.stalled);
  EXPECT_EQ(r.stall.step, 257);
  EXPECT_EQ(r.stall.sum, 256.0f);
  EXPECT_EQ(r.stall.half_ulp, 1.0f);
  EXPECT_EQ(r.bf16_sequential, 256.0f);
  EXPECT_EQ(r.fp32_sequential, 1000.0f);  // integers below 2^24 are exact in fp32
  EXPECT_EQ(r.reference, 1000.0);
}

TEST(HazardsBf16Sum, PairwiseSumOfPowerOfTwoOnesIsExact) {
  // 1024 ones halve into equal halves down to single ones: every partial sum is a power of two.
  const std::vector<float> ones(1024, 1.0f);
  EXPECT_EQ(sum_in_bf16(ones).bf16_pairwise, 1024.0f);
}

TEST(HazardsBf16Sum, AddingOneHundredthStallsAt4) {
  // bf16(0.01): 0.01 = 1.28 x 2^-7; 1.28 x 128 = 163.84 -> 164: 1.28125 x 2^-7 = 0.010009765625.
  // In [1, 2) the spacing is 2^-7 and x = 1.28 spacings: each addition adds one spacing. In [2, 4)
  // the spacing is 2^-6 and x = 0.64 spacings: still one spacing per addition (too much). In [4, 8)
  // the spacing is 2^-5 = 0.03125 and x = 0.32 spacings, below half: lost. The sum stops at exactly 4
  // (the steps of 2^-6 from 2 land on it).
  const std::vector<float> hundredths(2000, 0.01f);
  const SumComparison r = sum_in_bf16(hundredths);
  ASSERT_TRUE(r.stall.stalled);
  EXPECT_EQ(r.stall.sum, 4.0f);
  EXPECT_EQ(r.stall.addend, 0.010009765625f);
  EXPECT_EQ(r.stall.half_ulp, 0.015625f);
  EXPECT_EQ(r.bf16_sequential, 4.0f);
}

TEST(HazardsBf16Sum, UlpOfABinade) {
  // ulp(x) = 2^(e - fraction_bits) for x in [2^e, 2^(e+1)).
  EXPECT_EQ(ulp(256.0f, 7), 2.0f);
  EXPECT_EQ(ulp(511.0f, 7), 2.0f);
  EXPECT_EQ(ulp(1.0f, 7), 0x1p-7f);
  EXPECT_EQ(ulp(-1.5f, 10), 0x1p-10f);
}

TEST(HazardsBf16Sum, RejectsAnEmptySum) { EXPECT_THROW(sum_in_bf16({}), std::invalid_argument); }

// ---- variance ---------------------------------------------------------------------------------

TEST(HazardsVariance, KnownCaseOnePassLosesWelfordIsExact) {
  // {10004, 10007, 10013, 10016}: mean 10010, deviations -6, -3, 3, 6, S = 90, variance 90/4 = 22.5.
  // Welford in fp32 (every intermediate is exact): k=2: delta 3, mean 10005.5, m2 = 3 x 1.5 = 4.5;
  // k=3: delta 7.5, mean 10008, m2 += 7.5 x 5 -> 42; k=4: delta 8, mean 10010, m2 += 8 x 6 -> 90.
  // One pass in fp32 (spacing 8 in [2^26, 2^27), 16 in [2^27, 2^28), 32 in [2^28, 2^29)):
  //   10004^2 = 100080016 (exact); 10007^2 = 100140049 -> 100140048; 10013^2 = 100260169 -> 100260168;
  //   10016^2 = 100320256 (exact). Running sum: 200220064 (exact), 300480232 -> 300480224,
  //   400800480 (exact). sumsq/4 = 100200120 (exact); mean^2 = 100200100 is a tie between
  //   100200096 and 100200104 (12525012.5 spacings): even -> 100200096. 100200120 - 100200096 = 24.
  const std::vector<float> x = {10004.0f, 10007.0f, 10013.0f, 10016.0f};
  EXPECT_EQ(variance_welford(x), 22.5f);
  EXPECT_EQ(variance_two_pass(x), 22.5f);
  EXPECT_EQ(variance_reference(x), 22.5);
  EXPECT_EQ(variance_one_pass(x), 24.0f);
}

TEST(HazardsVariance, ConditionNumberOfASmallSet) {
  // {0, 2}: mean 1, S = 1 + 1 = 2, kappa = sqrt(1 + n mean^2 / S) = sqrt(1 + 2/2) = sqrt(2).
  const std::vector<float> x = {0.0f, 2.0f};
  EXPECT_DOUBLE_EQ(variance_condition_number(x), std::sqrt(2.0));
  // {-1, 1}: mean 0: kappa = 1, perfectly conditioned.
  const std::vector<float> y = {-1.0f, 1.0f};
  EXPECT_DOUBLE_EQ(variance_condition_number(y), 1.0);
}

TEST(HazardsVariance, OnePassErrorGrowsWithTheMeanWelfordStaysSmall) {
  // N(0,1) data shifted by 1000: kappa ~ 1000, so the one-pass error ~ kappa^2 u = 1e6 x 6e-8 ~ 6%
  // or worse, while Welford's stays ~ kappa u ~ 6e-5 (Chan, Golub & LeVeque 1983).
  SeededRng rng(7);
  std::vector<float> x(4096);
  for (auto& v : x) v = float(1000.0 + rng.normal());
  const double ref = variance_reference(x);
  EXPECT_GT(std::abs(variance_one_pass(x) - ref) / ref, 1e-2);
  EXPECT_LT(std::abs(variance_welford(x) - ref) / ref, 1e-3);
}

// ---- tf32-matmul ------------------------------------------------------------------------------

TEST(HazardsTf32, RoundsToTenFractionBits) {
  // TF32 spacing at 1 is 2^-10 = 0.000977: 1.0001 is within half of it (2^-11 = 0.000488) of 1.
  EXPECT_EQ(round_tf32(1.0001f), 1.0f);
  // 1 + 2^-11 is the midpoint of 1 and 1 + 2^-10: ties-to-even keeps 1 (last kept bit 0).
  EXPECT_EQ(round_tf32(1.0f + 0x1p-11f), 1.0f);
  // 1 + 3 x 2^-11 is the midpoint of 1 + 2^-10 (odd) and 1 + 2^-9 (even): rounds up to 1 + 2^-9.
  EXPECT_EQ(round_tf32(1.0f + 3 * 0x1p-11f), 1.0f + 0x1p-9f);
  // The largest fp32, (2 - 2^-23) x 2^127, is above the midpoint of TF32's largest finite value
  // (2 - 2^-10) x 2^127 and 2^128: inf.
  EXPECT_TRUE(std::isinf(round_tf32(std::numeric_limits<float>::max())));
  EXPECT_TRUE(std::isnan(round_tf32(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(round_tf32(-2.5f), -2.5f);  // needs 2 fraction bits: exact
}

TEST(HazardsTf32, MatmulErrorIsNearTheUnitRoundoff) {
  // Rounding the inputs moves each product by at most 2u (u = 2^-11) relative; with random signs
  // the relative L2 error of the result is a fraction of u, independent of K, and far above fp32's.
  const MatmulError e = tf32_matmul_error(16, 16, 512, 3);
  EXPECT_EQ(e.k, 512);
  EXPECT_LT(e.rel_l2_tf32, 4 * 0x1p-11);
  EXPECT_GT(e.rel_l2_tf32, 0x1p-14);
  EXPECT_LT(e.rel_l2_fp32, 1e-5);
  EXPECT_THROW(tf32_matmul_error(0, 1, 1, 1), std::invalid_argument);
}

// ---- fp8-range --------------------------------------------------------------------------------

TEST(HazardsFp8Range, BinadesOfE4M3AndE5M2) {
  // E4M3: max 448 = 1.75 x 2^8, min normal 2^-6, min subnormal 2^-9 (OFP8 Table 2):
  //   log2(448 x 2^6) = log2(28672) = 14.807; log2(448 x 2^9) = 17.807; u = 2^-(3+1).
  // E5M2: max 57344 = 1.75 x 2^15, min normal 2^-14, min subnormal 2^-16:
  //   log2(57344 x 2^14) = 29.807; log2(57344 x 2^16) = 31.807; u = 2^-(2+1).
  const RangeFacts a = range_facts(Format::e4m3fn), b = range_facts(Format::e5m2);
  EXPECT_NEAR(a.normal_binades, 8 + std::log2(1.75) + 6, 1e-12);
  EXPECT_NEAR(a.binades_with_subnormals, 8 + std::log2(1.75) + 9, 1e-12);
  EXPECT_EQ(a.unit_roundoff, 0.0625);
  EXPECT_NEAR(b.normal_binades, 15 + std::log2(1.75) + 14, 1e-12);
  EXPECT_NEAR(b.binades_with_subnormals, 15 + std::log2(1.75) + 16, 1e-12);
  EXPECT_EQ(b.unit_roundoff, 0.125);
}

TEST(HazardsFp8Range, AmaxScaleKeepsRepresentableValuesExactly) {
  // amax = 448 gives scale 1; 448, 1 and -2^-9 (the smallest subnormal) are E4M3 values: no error;
  // one of three lands on a subnormal.
  const std::vector<float> x = {448.0f, 1.0f, -0x1p-9f};
  const CastStats s = cast_with_amax_scale(x, Format::e4m3fn);
  EXPECT_EQ(s.zero_fraction, 0.0);
  EXPECT_DOUBLE_EQ(s.subnormal_fraction, 1.0 / 3.0);
  EXPECT_EQ(s.mean_rel_error, 0.0);
  EXPECT_TRUE(std::isinf(s.sqnr_db));
}

TEST(HazardsFp8Range, BelowHalfTheSmallestSubnormalFlushesToZero) {
  // 2^-11 is below half of E4M3's smallest subnormal (2^-10): it becomes 0 (relative error 1).
  // E5M2 (smallest subnormal 2^-16) keeps it exactly.
  const std::vector<float> x = {448.0f, 0x1p-11f};
  const CastStats a = cast_with_amax_scale(x, Format::e4m3fn);
  EXPECT_EQ(a.zero_fraction, 0.5);
  EXPECT_EQ(a.mean_rel_error, 0.5);
  const std::vector<float> y = {57344.0f, 0x1p-11f};
  EXPECT_EQ(cast_with_amax_scale(y, Format::e5m2).zero_fraction, 0.0);
}

TEST(HazardsFp8Range, RejectsFormatsThatAreNotFp8AndEmptyTensors) {
  const std::vector<float> x = {1.0f};
  EXPECT_THROW(cast_with_amax_scale(x, Format::e2m1), std::invalid_argument);
  EXPECT_THROW(cast_with_amax_scale({}, Format::e4m3fn), std::invalid_argument);
  const std::vector<float> zeros = {0.0f, 0.0f};
  EXPECT_THROW(cast_with_amax_scale(zeros, Format::e5m2), std::invalid_argument);
}

TEST(HazardsFp8Range, LogUniformTensorSpansTheAskedBinades) {
  const auto x = log_uniform_tensor(10000, 20, 5);
  float lo = 1, hi = 0;
  for (float v : x) {
    lo = std::min(lo, std::abs(v));
    hi = std::max(hi, std::abs(v));
  }
  EXPECT_LE(hi, 1.0f);
  EXPECT_GT(lo, 0x1p-20f);
  EXPECT_GT(std::log2(hi / lo), 19.9);  // 10,000 draws cover [2^-20, 1] almost to the ends
  EXPECT_EQ(log_uniform_tensor(100, 20, 5), log_uniform_tensor(100, 20, 5));  // seeded
}

TEST(HazardsNames, ListsTheFiveExperimentsInOrder) {
  const std::vector<std::string> expected = {"fp16-overflow", "bf16-sum", "variance", "tf32-matmul", "fp8-range"};
  EXPECT_EQ(hazard_names(), expected);
}

}  // namespace
}  // namespace tutor::b04
