#pragma once
// Speculative decoding as a model: how many tokens one verification step of the target
// model yields, and what that buys in wall time, for a draft model whose guesses the
// target accepts with probability a, independently per token.
//
// Source: Y. Leviathan, M. Kalman, Y. Matias, "Fast Inference from Transformers via
// Speculative Decoding", ICML 2023 (arXiv:2211.17192).
//   a = acceptance rate (their alpha), assumed i.i.d. per token (their section 3.1);
//   k = draft tokens proposed per step (their gamma);
//   c = cost ratio: time of one draft-model forward over one target-model forward (their c).
//   Expected tokens per step  E(k, a) = (1 - a^(k+1)) / (1 - a)            (their eq. 1)
//   Wall-time improvement     S(k, a, c) = (1 - a^(k+1)) / ((1 - a)(c k + 1))  (Theorem 3.8)
// Theorem 3.8 assumes the target verifies k+1 tokens in the time of one forward pass (the
// memory-bound decode regime, where reading the weights dominates) and that the k draft
// forwards run one after another at c each.
#include <cstdint>

namespace tutor::b06 {

/// The inputs of the model. a in [0, 1], k >= 1, c >= 0.
struct SpecParams {
  double acceptance_rate = 0;  ///< a: probability the target accepts one draft token
  int draft_tokens = 0;        ///< k: tokens the draft proposes per verification step
  double cost_ratio = 0;       ///< c: draft forward time / target forward time
};

/// Throws std::invalid_argument naming the field when a, k or c is out of range.
void validate(const SpecParams& p);

/// E(k, a) = (1 - a^(k+1)) / (1 - a) = 1 + a + ... + a^k (eq. 1); k + 1 at a = 1.
double expected_tokens_per_step(double acceptance_rate, int draft_tokens);

/// S = E(k, a) / (c k + 1) (Theorem 3.8): > 1 means speculation is faster than plain decoding.
double speedup(const SpecParams& p);

/// The draft length with the largest speedup, searched over k = 1 .. max_draft_tokens.
struct OptimalDraft {
  int draft_tokens = 0;        ///< argmax_k S(k, a, c); the smallest k on ties
  double speedup = 0;          ///< S at that k
  bool at_search_bound = false;///< the argmax is max_draft_tokens: S may still grow beyond it (c = 0)
};
OptimalDraft optimal_draft_tokens(double acceptance_rate, double cost_ratio, int max_draft_tokens = 128);

/// The acceptance rate at which S(k, a, c) = 1 for this k and c: below it speculation is
/// slower than plain decoding. S rises monotonically from 1/(ck+1) at a = 0 to
/// (k+1)/(ck+1) at a = 1, so a root in [0, 1] exists iff c < 1; found by bisection.
struct BreakEven {
  bool exists = false;         ///< false when c >= 1: no acceptance rate makes speculation pay
  double acceptance_rate = 0;  ///< the root, to within 1e-12
};
BreakEven break_even_acceptance_rate(int draft_tokens, double cost_ratio);

/// Monte Carlo of `steps` verification steps: each step draws up to k Bernoulli(a)
/// acceptances and stops at the first rejection; the step yields the accepted tokens plus
/// one token from the target (the correction at a rejection, the bonus token when all k
/// are accepted), as in Leviathan et al. Algorithm 1. Seeded and reproducible.
struct MonteCarloResult {
  std::uint64_t steps = 0;
  std::uint64_t seed = 0;
  double mean_tokens_per_step = 0;  ///< sample mean of tokens per step
  double sample_std = 0;            ///< sample standard deviation of tokens per step
  double standard_error = 0;        ///< sample_std / sqrt(steps)
  double speedup = 0;               ///< total tokens / total time, time per step = c k + 1
  double closed_form_tokens = 0;    ///< E(k, a), for comparison
  double closed_form_std = 0;       ///< exact standard deviation of tokens per step (see .cpp)
  double z_score = 0;               ///< (mean - E) / (closed_form_std / sqrt(steps))
};
MonteCarloResult monte_carlo(const SpecParams& p, std::uint64_t steps, std::uint64_t seed);

/// Exact variance of tokens per step, T = 1 + min(G, k) with G the run of acceptances:
/// P(min(G,k) >= j) = a^j for j = 1..k, so E[min] = sum a^j and E[min^2] = sum (2j - 1) a^j.
double tokens_per_step_variance(double acceptance_rate, int draft_tokens);

}  // namespace tutor::b06
