// C07 exercise "capacity": YOUR CODE. Fill in each TODO, then run
//   ./build-host/c07_exercise_capacity
// until every case passes (README.md in this folder: the two budgets).
#include "capacity.hpp"
#include "tutor/not_implemented.hpp"

namespace tutor::c07::exercise {

CapacityAnswer capacity(const DecodeStepModel& step, double slo_ms, std::int64_t pool_blocks,
                        std::int64_t blocks_per_sequence) {
  // TODO 1: no page at all? Then the weights bind and nothing else is defined.
  // TODO 2: B_pool from the pages.
  // TODO 3: B_slo: t(B) = max(memory(B), compute(B)) + comm(B) + overhead <= SLO. Each roof is a
  //         straight line in B: solve each for B, take the floor of the smaller, and check it with
  //         decode_step_time (t(B_slo) <= SLO < t(B_slo + 1)).
  // TODO 4: the smaller budget binds (the SLO only when strictly smaller), and sets the batch.
  (void)step;
  (void)slo_ms;
  (void)pool_blocks;
  (void)blocks_per_sequence;
  throw tutor::exercise::NotImplemented("capacity: the pool's sequences, the SLO's batch, and which binds");
}

}  // namespace tutor::c07::exercise
