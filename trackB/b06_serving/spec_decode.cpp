#include "spec_decode.hpp"

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace tutor::b06 {

void validate(const SpecParams& p) {
  if (!(p.acceptance_rate >= 0 && p.acceptance_rate <= 1))
    throw std::invalid_argument("--acceptance-rate: must be in [0, 1], got " + std::to_string(p.acceptance_rate));
  if (p.draft_tokens < 1)
    throw std::invalid_argument("--draft-tokens: must be >= 1, got " + std::to_string(p.draft_tokens));
  if (!(p.cost_ratio >= 0) || !std::isfinite(p.cost_ratio))
    throw std::invalid_argument("--cost-ratio: must be >= 0, got " + std::to_string(p.cost_ratio));
}

// (1 - a^(k+1)) / (1 - a) written as the geometric sum 1 + a + ... + a^k: the same number
// (eq. 1 of Leviathan et al.), with no 0/0 at a = 1 and no cancellation near it.
double expected_tokens_per_step(double a, int k) {
  double sum = 0, term = 1;
  for (int i = 0; i <= k; ++i, term *= a) sum += term;
  return sum;
}

double speedup(const SpecParams& p) {
  return expected_tokens_per_step(p.acceptance_rate, p.draft_tokens) / (p.cost_ratio * p.draft_tokens + 1);
}

OptimalDraft optimal_draft_tokens(double a, double c, int max_k) {
  if (max_k < 1) throw std::invalid_argument("max draft tokens: must be >= 1");
  OptimalDraft best{1, speedup({a, 1, c}), max_k == 1};
  for (int k = 2; k <= max_k; ++k) {
    const double s = speedup({a, k, c});
    if (s > best.speedup) best = {k, s, k == max_k};
  }
  return best;
}

BreakEven break_even_acceptance_rate(int k, double c) {
  if (k < 1) throw std::invalid_argument("--draft-tokens: must be >= 1");
  if (c >= 1) return {false, 0};  // S(a = 1) = (k+1)/(ck+1) <= 1: never pays
  if (c <= 0) return {true, 0};   // S(a = 0) = 1 already
  // g(a) = S(k, a, c) - 1 is increasing in a, g(0) < 0 < g(1): bisection halves the bracket
  // each time; 60 halvings take [0, 1] below 1e-18.
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (speedup({mid, k, c}) < 1 ? lo : hi) = mid;
  }
  return {true, 0.5 * (lo + hi)};
}

double tokens_per_step_variance(double a, int k) {
  double mean_min = 0, mean_min_sq = 0, aj = 1;
  for (int j = 1; j <= k; ++j) {
    aj *= a;                       // P(min(G, k) >= j) = a^j
    mean_min += aj;                // E[X] = sum_j P(X >= j)
    mean_min_sq += (2 * j - 1) * aj;  // E[X^2] = sum_j (2j - 1) P(X >= j)
  }
  return mean_min_sq - mean_min * mean_min;  // Var(1 + X) = Var(X)
}

MonteCarloResult monte_carlo(const SpecParams& p, std::uint64_t steps, std::uint64_t seed) {
  validate(p);
  if (steps < 2) throw std::invalid_argument("--monte-carlo: needs at least 2 steps");
  // mt19937_64 is specified bit-for-bit by the standard; the uniform is built from its top 53
  // bits here (std::uniform_real_distribution is implementation-defined), so a seed gives the
  // same numbers with every standard library.
  std::mt19937_64 rng(seed);
  const auto uniform = [&rng] { return double(rng() >> 11) * 0x1.0p-53; };
  // Welford's running mean and variance (Knuth, TAOCP vol. 2, 4.2.2): no loss of precision
  // over millions of steps.
  double mean = 0, m2 = 0;
  for (std::uint64_t s = 1; s <= steps; ++s) {
    int accepted = 0;
    while (accepted < p.draft_tokens && uniform() < p.acceptance_rate) ++accepted;
    const double tokens = accepted + 1;  // + the target's own token (correction or bonus)
    const double delta = tokens - mean;
    mean += delta / double(s);
    m2 += delta * (tokens - mean);
  }
  MonteCarloResult r;
  r.steps = steps;
  r.seed = seed;
  r.mean_tokens_per_step = mean;
  r.sample_std = std::sqrt(m2 / double(steps - 1));
  r.standard_error = r.sample_std / std::sqrt(double(steps));
  // Each step costs k draft forwards at c plus one target forward (time unit: one target
  // forward); plain decoding spends one unit per token. Speedup = tokens / time.
  r.speedup = mean / (p.cost_ratio * p.draft_tokens + 1);
  r.closed_form_tokens = expected_tokens_per_step(p.acceptance_rate, p.draft_tokens);
  r.closed_form_std = std::sqrt(tokens_per_step_variance(p.acceptance_rate, p.draft_tokens));
  const double exact_se = r.closed_form_std / std::sqrt(double(steps));
  r.z_score = exact_se > 0 ? (mean - r.closed_form_tokens) / exact_se : 0;
  return r;
}

}  // namespace tutor::b06
