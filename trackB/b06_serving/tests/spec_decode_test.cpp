// B06: the speculative-decoding model (Leviathan, Kalman, Matias, ICML 2023) against values
// derived by hand, and its Monte Carlo against the closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "spec_decode.hpp"

using namespace tutor::b06;

// Eq. 1 at a = 0.8, k = 4: E = (1 - 0.8^5) / (1 - 0.8). 0.8^5 = 0.32768, so
// E = 0.67232 / 0.2 = 3.3616 (= 1 + 0.8 + 0.64 + 0.512 + 0.4096, the same sum).
TEST(SpecDecode, ExpectedTokensPerStepMatchesEq1) {
  EXPECT_NEAR(expected_tokens_per_step(0.8, 4), 3.3616, 1e-12);
  // a = 0: only the target's own token; a = 1: all k drafts plus the bonus token.
  EXPECT_DOUBLE_EQ(expected_tokens_per_step(0.0, 4), 1.0);
  EXPECT_DOUBLE_EQ(expected_tokens_per_step(1.0, 4), 5.0);
  // a = 0.5, k = 1: (1 - 0.25) / 0.5 = 1.5.
  EXPECT_DOUBLE_EQ(expected_tokens_per_step(0.5, 1), 1.5);
}

// Theorem 3.8 at a = 0.8, k = 4, c = 0.05: c k + 1 = 1.2, so S = 3.3616 / 1.2 = 2.801333...
TEST(SpecDecode, SpeedupMatchesTheorem38) {
  EXPECT_NEAR(speedup({0.8, 4, 0.05}), 3.3616 / 1.2, 1e-12);
  EXPECT_NEAR(speedup({0.8, 4, 0.05}), 2.8013333333, 1e-9);
  // c = 0 (a free draft): S = E.
  EXPECT_NEAR(speedup({0.8, 4, 0.0}), 3.3616, 1e-12);
  // c = 1 (the draft costs as much as the target), a = 1: S = (k+1)/(k+1) = 1.
  EXPECT_NEAR(speedup({1.0, 4, 1.0}), 1.0, 1e-12);
}

// S(k) = 5 (1 - 0.8^(k+1)) / (0.05 k + 1) at a = 0.8, c = 0.05, by hand:
//   k=6: 5 (1 - 0.2097152) / 1.30 = 3.95142 / 1.30 = 3.03956
//   k=7: 5 (1 - 0.16777216) / 1.35 = 4.16114 / 1.35 = 3.08233
//   k=8: 5 (1 - 0.134217728) / 1.40 = 4.32891 / 1.40 = 3.09208   <- the largest
//   k=9: 5 (1 - 0.1073741824) / 1.45 = 4.46313 / 1.45 = 3.07802
//   k=10: 5 (1 - 0.08589934592) / 1.50 = 4.57050 / 1.50 = 3.04700
// and it keeps falling (the numerator is bounded by 5, the denominator grows linearly).
TEST(SpecDecode, OptimalDraftLengthAtA08C005IsEight) {
  const OptimalDraft best = optimal_draft_tokens(0.8, 0.05, 64);
  EXPECT_EQ(best.draft_tokens, 8);
  EXPECT_NEAR(best.speedup, 4.32891136 / 1.4, 1e-9);
  EXPECT_FALSE(best.at_search_bound);
  // A free draft (c = 0) always prefers a longer draft: the argmax sits on the bound.
  const OptimalDraft free = optimal_draft_tokens(0.8, 0.0, 16);
  EXPECT_EQ(free.draft_tokens, 16);
  EXPECT_TRUE(free.at_search_bound);
}

// Break-even at k = 4, c = 0.05: S = 1 <=> 1 + a + a^2 + a^3 + a^4 = c k + 1 = 1.2, i.e.
// a + a^2 + a^3 + a^4 = 0.2. By hand: at a = 0.1665 the left side is
// 0.1665 + 0.027722 + 0.004616 + 0.000769 = 0.199607 (< 0.2); at a = 0.1668 it is
// 0.1668 + 0.027822 + 0.004641 + 0.000774 = 0.200037 (> 0.2); linear interpolation between
// them puts the root at 0.1665 + 0.0003 * 0.000393 / 0.000430 = 0.166774.
TEST(SpecDecode, BreakEvenAcceptanceRateSolvesSpeedupEqualsOne) {
  const BreakEven be = break_even_acceptance_rate(4, 0.05);
  ASSERT_TRUE(be.exists);
  EXPECT_NEAR(be.acceptance_rate, 0.166774, 2e-6);
  EXPECT_NEAR(speedup({be.acceptance_rate, 4, 0.05}), 1.0, 1e-12);
  // k = 1, c = 0.5: (1 + a) / 1.5 = 1 gives a = 0.5 exactly.
  EXPECT_NEAR(break_even_acceptance_rate(1, 0.5).acceptance_rate, 0.5, 1e-12);
  // c >= 1: even a = 1 gives S = (k+1)/(ck+1) <= 1; no break-even exists.
  EXPECT_FALSE(break_even_acceptance_rate(4, 1.0).exists);
  EXPECT_FALSE(break_even_acceptance_rate(4, 2.5).exists);
}

// Tokens per step T = 1 + min(G, k), G the run of acceptances: P(min >= j) = a^j, so
// E[min] = sum_j a^j and E[min^2] = sum_j (2j - 1) a^j. At a = 0.8, k = 4:
//   E[min]   = 0.8 + 0.64 + 0.512 + 0.4096 = 2.3616
//   E[min^2] = 1(0.8) + 3(0.64) + 5(0.512) + 7(0.4096) = 0.8 + 1.92 + 2.56 + 2.8672 = 8.1472
//   Var(T)   = 8.1472 - 2.3616^2 = 8.1472 - 5.57715456 = 2.57004544 (sd 1.603136)
TEST(SpecDecode, TokensPerStepVarianceByHand) {
  EXPECT_NEAR(tokens_per_step_variance(0.8, 4), 2.57004544, 1e-10);
  EXPECT_DOUBLE_EQ(tokens_per_step_variance(0.0, 4), 0.0);
  EXPECT_NEAR(tokens_per_step_variance(1.0, 4), 0.0, 1e-12);
}

// With N = 200,000 steps the standard error of the mean is sd / sqrt(N) =
// 1.603136 / 447.21 = 0.003585: the simulated mean must lie within 3 of them (0.010755)
// of 3.3616. The seed is fixed, so the test is deterministic; at a correct model a fresh
// seed would fail 3 standard errors in 0.27% of runs.
TEST(SpecDecode, MonteCarloAgreesWithClosedFormWithinThreeStandardErrors) {
  const SpecParams p{0.8, 4, 0.05};
  const MonteCarloResult mc = monte_carlo(p, 200000, 42);
  const double se = std::sqrt(2.57004544 / 200000.0);
  EXPECT_NEAR(se, 0.003585, 1e-6);
  EXPECT_NEAR(mc.mean_tokens_per_step, 3.3616, 3 * se);
  EXPECT_LT(std::abs(mc.z_score), 3.0);
  // The sample sd estimates the exact one (relative error of an sd estimate ~ 1/sqrt(2N)).
  EXPECT_NEAR(mc.sample_std, std::sqrt(2.57004544), 0.01);
  // Speedup of the simulation: simulated tokens / (steps x 1.2), within 3 se / 1.2 of 2.80133.
  EXPECT_NEAR(mc.speedup, 3.3616 / 1.2, 3 * se / 1.2);
  // Another operating point: a = 0.6, k = 7. E = (1 - 0.6^8) / 0.4 = (1 - 0.01679616) / 0.4
  // = 2.4580096.
  const MonteCarloResult mc2 = monte_carlo({0.6, 7, 0.1}, 200000, 7);
  const double se2 = std::sqrt(tokens_per_step_variance(0.6, 7) / 200000.0);
  EXPECT_NEAR(mc2.closed_form_tokens, 2.4580096, 1e-9);
  EXPECT_NEAR(mc2.mean_tokens_per_step, 2.4580096, 3 * se2);
}

TEST(SpecDecode, MonteCarloIsReproducibleForASeed) {
  const auto a = monte_carlo({0.7, 5, 0.1}, 10000, 123);
  const auto b = monte_carlo({0.7, 5, 0.1}, 10000, 123);
  const auto c = monte_carlo({0.7, 5, 0.1}, 10000, 124);
  EXPECT_EQ(a.mean_tokens_per_step, b.mean_tokens_per_step);
  EXPECT_NE(a.mean_tokens_per_step, c.mean_tokens_per_step);
}

TEST(SpecDecode, OutOfRangeInputsNameTheOption) {
  const auto message = [](const SpecParams& p) {
    try {
      validate(p);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message({1.5, 4, 0.1}).find("--acceptance-rate"), std::string::npos);
  EXPECT_NE(message({-0.1, 4, 0.1}).find("--acceptance-rate"), std::string::npos);
  EXPECT_NE(message({0.5, 0, 0.1}).find("--draft-tokens"), std::string::npos);
  EXPECT_NE(message({0.5, 4, -1}).find("--cost-ratio"), std::string::npos);
  EXPECT_EQ(message({0.5, 4, 0.1}), "");
}
