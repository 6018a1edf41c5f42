// B07 exercise "zero": YOUR CODE. Fill in the TODO, then run
//   ./build-host/b07_exercise_zero
// until every case passes (README.md in this folder: what each stage partitions).
#include "tutor/not_implemented.hpp"
#include "zero.hpp"

namespace tutor::b07::exercise {

ZeroStates zero_states(double params, int zero_stage, int dp) {
  // TODO: bytes per parameter of each state (2, 2, 12), and which of them each stage divides
  // over the dp GPUs. Stage 0 divides nothing.
  (void)params;
  (void)zero_stage;
  (void)dp;
  throw tutor::exercise::NotImplemented("zero_states: which states each ZeRO stage partitions");
}

}  // namespace tutor::b07::exercise
