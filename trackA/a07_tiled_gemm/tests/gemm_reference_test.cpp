// A07: the fp64 reference GEMM and the verifier that judges every step. The verifier must
// pass a correct fp32 GEMM at awkward sizes and reject the classic wrong ones.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <tuple>
#include <limits>
#include <vector>

#include "gemm_reference.hpp"
#include "tutor/verify.hpp"

namespace tutor::a07 {
namespace {

struct Problem {
  int m, n, k;
  double alpha, beta;
  std::vector<float> a, b, c;
  std::vector<double> ref;
};

Problem make_problem(int m, int n, int k, double alpha, double beta, std::uint64_t seed) {
  Problem p{m, n, k, alpha, beta, std::vector<float>(std::size_t(m) * k), std::vector<float>(std::size_t(k) * n),
            std::vector<float>(std::size_t(m) * n), std::vector<double>(std::size_t(m) * n)};
  fill_random(p.a, seed);
  fill_random(p.b, seed + 1);
  fill_random(p.c, seed + 2);
  gemm_reference(m, n, k, alpha, p.a, p.b, beta, p.c, p.ref);
  return p;
}

// What a correct fp32 kernel computes: fp32 products and sums in k order.
std::vector<float> fp32_gemm(const Problem& p) {
  std::vector<float> out(std::size_t(p.m) * p.n);
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.n; ++j) {
      float acc = 0;
      for (int q = 0; q < p.k; ++q) acc += p.a[std::size_t(i) * p.k + q] * p.b[std::size_t(q) * p.n + j];
      const float c = p.c[std::size_t(i) * p.n + j];
      out[std::size_t(i) * p.n + j] = float(p.alpha) * acc + (p.beta == 0 ? 0.0f : float(p.beta) * c);
    }
  return out;
}

TEST(GemmReference, TwoByTwoByHand) {
  // A = [1 2; 3 4], B = [5 6; 7 8]: A B = [19 22; 43 50]. alpha 0.5, beta 2, C = [1 1; 1 -1]:
  // 0.5 * [19 22; 43 50] + 2 * [1 1; 1 -1] = [11.5 13; 23.5 23].
  const std::vector<float> a = {1, 2, 3, 4}, b = {5, 6, 7, 8}, c = {1, 1, 1, -1};
  std::vector<double> out(4);
  gemm_reference(2, 2, 2, 0.5, a, b, 2.0, c, out, 1);
  EXPECT_DOUBLE_EQ(out[0], 11.5);
  EXPECT_DOUBLE_EQ(out[1], 13.0);
  EXPECT_DOUBLE_EQ(out[2], 23.5);
  EXPECT_DOUBLE_EQ(out[3], 23.0);
}

TEST(GemmReference, NonSquareRowMajor) {
  // A is 1 x 3 = [1 2 3], B is 3 x 2 = [1 0; 0 1; 1 1]: A B = [1+3, 2+3] = [4 5].
  const std::vector<float> a = {1, 2, 3}, b = {1, 0, 0, 1, 1, 1};
  std::vector<double> out(2);
  gemm_reference(1, 2, 3, 1.0, a, b, 0.0, {}, out);
  EXPECT_DOUBLE_EQ(out[0], 4.0);
  EXPECT_DOUBLE_EQ(out[1], 5.0);
}

TEST(GemmReference, BetaZeroDoesNotReadC) {
  // BLAS rule: with beta = 0, C may hold NaN and the result is still alpha A B.
  const std::vector<float> a = {2}, b = {3}, c = {std::numeric_limits<float>::quiet_NaN()};
  std::vector<double> out(1);
  gemm_reference(1, 1, 1, 1.0, a, b, 0.0, c, out);
  EXPECT_DOUBLE_EQ(out[0], 6.0);
}

TEST(GemmReference, ThreadCountDoesNotChangeTheResult) {
  const Problem p = make_problem(37, 19, 23, 0.75, -1.25, 7);
  std::vector<double> one(p.ref.size());
  gemm_reference(p.m, p.n, p.k, p.alpha, p.a, p.b, p.beta, p.c, one, 1);
  EXPECT_EQ(one, p.ref);
}

TEST(GemmReference, RejectsShortSpansAndZeroSizes) {
  std::vector<float> a(4), b(4), c(4);
  std::vector<double> out(4);
  EXPECT_THROW(gemm_reference(0, 2, 2, 1, a, b, 0, c, out), std::invalid_argument);
  EXPECT_THROW(gemm_reference(3, 2, 2, 1, a, b, 0, c, out), std::invalid_argument);
  EXPECT_THROW(gemm_reference(2, 2, 2, 1, a, b, 1.0, std::span<const float>(c.data(), 3), out), std::invalid_argument);
}

TEST(GemmTolerance, EightUnitRoundoffsTimesSqrtOfKPlusTwo) {
  // 8 * 2^-24 * sqrt(k + 2): k = 1 -> 8.26e-7; k = 4096 -> 3.05e-5.
  EXPECT_NEAR(gemm_tolerance(1), 8.0 * std::ldexp(1.0, -24) * std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(gemm_tolerance(4096), 8.0 * std::ldexp(1.0, -24) * std::sqrt(4098.0), 1e-12);
  EXPECT_GT(gemm_tolerance(1), 0.0);  // a one-term GEMM still rounds (alpha, beta)
}

TEST(CheckGemm, CorrectFp32ResultsPassAtAwkwardSizes) {
  for (auto [m, n, k] : {std::tuple{1, 1, 1}, {1, 129, 127}, {127, 1, 129}, {129, 127, 1}, {67, 45, 257}}) {
    const Problem p = make_problem(m, n, k, 0.5, 3.0, std::uint64_t(m * 1000 + n));
    const Comparison cmp = check_gemm(fp32_gemm(p), p.ref, k);
    EXPECT_TRUE(cmp.passed) << m << "x" << n << "x" << k << ": " << cmp.reason;
  }
}

TEST(CheckGemm, RejectsAnOffByOneTile) {
  // A kernel that reads B one column to the right inside one 16 x 16 tile of C.
  const Problem p = make_problem(64, 64, 256, 1.0, 0.0, 11);
  std::vector<float> got = fp32_gemm(p);
  for (int i = 16; i < 32; ++i)
    for (int j = 16; j < 32; ++j) {
      float acc = 0;
      for (int q = 0; q < p.k; ++q) acc += p.a[std::size_t(i) * p.k + q] * p.b[std::size_t(q) * p.n + j + 1];
      got[std::size_t(i) * p.n + j] = acc;
    }
  EXPECT_FALSE(check_gemm(got, p.ref, p.k).passed);
}

TEST(CheckGemm, RejectsAMissingLastRow) {
  // A kernel whose grid is one row short: the last row keeps the poison.
  const Problem p = make_problem(65, 33, 64, 1.0, 0.0, 12);
  std::vector<float> got = fp32_gemm(p);
  float poison_value;
  std::memcpy(&poison_value, &kPoisonBitsF32, sizeof poison_value);
  for (int j = 0; j < p.n; ++j) got[std::size_t(p.m - 1) * p.n + j] = poison_value;
  const Comparison cmp = check_gemm(got, p.ref, p.k);
  EXPECT_FALSE(cmp.passed);
  EXPECT_EQ(cmp.nonfinite, std::size_t(p.n));
}

TEST(CheckGemm, RejectsASingleNaNOrInf) {
  const Problem p = make_problem(32, 32, 32, 1.0, 1.0, 13);
  std::vector<float> got = fp32_gemm(p);
  got[517] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(check_gemm(got, p.ref, p.k).passed);
  got[517] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(check_gemm(got, p.ref, p.k).passed);
}

TEST(CheckGemm, RejectsASkippedBetaTerm) {
  // C = alpha A B computed, "+ beta C" forgotten: beta = 3 with k = 512.
  Problem p = make_problem(48, 40, 512, 0.5, 3.0, 14);
  Problem no_beta = p;
  no_beta.beta = 0;
  const Comparison cmp = check_gemm(fp32_gemm(no_beta), p.ref, p.k);
  EXPECT_FALSE(cmp.passed);
  EXPECT_GT(cmp.rel_l2, 100 * gemm_tolerance(p.k));
}

TEST(CheckGemm, RejectsBetaAppliedTwice) {
  // The epilogue reads C after writing it: alpha A B + 2 beta C.
  Problem p = make_problem(48, 40, 512, 1.0, 0.5, 15);
  Problem twice = p;
  twice.beta = 1.0;
  EXPECT_FALSE(check_gemm(fp32_gemm(twice), p.ref, p.k).passed);
}

}  // namespace
}  // namespace tutor::a07
