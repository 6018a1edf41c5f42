// B06 exercise "speculative": YOUR CODE. Fill in each TODO, then run
//   ./build-host/b06_exercise_speculative
// until every case passes (README.md in this folder: the model and its paper).
#include "speculative.hpp"
#include "tutor/not_implemented.hpp"

namespace tutor::b06::exercise {

double expected_tokens_per_step(double acceptance_rate, int draft_tokens) {
  // TODO: the i-th draft token is kept only if it and every one before it are accepted.
  // What is the expected count, plus the target's own token? Check a = 0, a = 1 and a -> 1.
  (void)acceptance_rate;
  (void)draft_tokens;
  throw tutor::exercise::NotImplemented("expected_tokens_per_step E(k, a)");
}

double speedup(double acceptance_rate, int draft_tokens, double cost_ratio) {
  // TODO: tokens per step over the time of a step, in units of one target forward.
  (void)acceptance_rate;
  (void)draft_tokens;
  (void)cost_ratio;
  throw tutor::exercise::NotImplemented("speedup S(k, a, c)");
}

}  // namespace tutor::b06::exercise
