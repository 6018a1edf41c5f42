// C07 exercise "decode_step": YOUR CODE. Fill in the TODO, then run
//   ./build-host/c07_exercise_decode_step
// until every case passes (README.md in this folder: the roofline in time form).
#include "decode_step.hpp"
#include "tutor/not_implemented.hpp"

namespace tutor::c07::exercise {

StepAnswer decode_step(const DecodeStep& step, std::int64_t batch) {
  // TODO: the bytes the step moves and the FLOPs it computes for `batch` sequences; the time of
  // each at its rate (mind the units: GB/s, TFLOP/s, microseconds, milliseconds); which roof is
  // higher; then what is added on top of the roofs.
  (void)step;
  (void)batch;
  throw tutor::exercise::NotImplemented("decode_step: bytes and FLOPs of a step, and its time on the roofline");
}

}  // namespace tutor::c07::exercise
