// B06 exercise "speculative": the worked solution (Leviathan, Kalman and Matias, "Fast Inference
// from Transformers via Speculative Decoding", ICML 2023).
//
// Draft token i (1..k) survives only if it and the i - 1 before it are accepted: probability a^i.
// The target always contributes one token (the correction at the first rejection, or a bonus
// token when all k survive). So E = 1 + a + a^2 + ... + a^k, which is the paper's eq. 1,
// (1 - a^(k+1)) / (1 - a). The closed form divides 0 by 0 at a = 1, where the answer is k + 1;
// the sum needs no special case there (and k is small: k additions). A special case must be
// exactly a == 1: just below 1 the answer is already below k + 1.
//
// A step runs k draft forwards (c each, one after another) and one target forward that verifies
// the k + 1 positions at once (decode is memory-bound: reading the weights dominates, so k + 1
// positions cost about one): S = E / (c k + 1) (Theorem 3.8).
#include "speculative.hpp"

namespace tutor::b06::exercise {

double expected_tokens_per_step(double acceptance_rate, int draft_tokens) {
  double tokens = 0, survive = 1;  // survive = a^i
  for (int i = 0; i <= draft_tokens; ++i, survive *= acceptance_rate) tokens += survive;
  return tokens;
}

double speedup(double acceptance_rate, int draft_tokens, double cost_ratio) {
  return expected_tokens_per_step(acceptance_rate, draft_tokens) / (cost_ratio * draft_tokens + 1);
}

}  // namespace tutor::b06::exercise
