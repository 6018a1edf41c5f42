#pragma once
// C07 exercise "capacity": which budget binds a serving node, the HBM-bound KV pool or the
// SLO-bound batch, and the batch it then runs.
//
// Write capacity in capacity.cpp. The checker (check_capacity.cpp) compares it with what the
// capstone's tutor::c07::size_node decides for every shipped config and precision, at tight and
// loose SLOs, on random nodes, and at the edges (no page fits, an SLO below the weights' time).
#include <cstdint>

#include "capstone.hpp"

namespace tutor::c07::exercise {

struct CapacityAnswer {
  std::int64_t slo_batch = 0;       ///< B_slo: the largest batch whose step fits the SLO
  std::int64_t pool_sequences = 0;  ///< B_pool: sequences one replica's KV pool holds
  Binding binds = Binding::hbm_pool;  ///< hbm_pool, slo, or weights (no page fits: nothing is served)
  std::int64_t batch = 0;           ///< the batch a replica runs: the smaller budget
};

/// One replica of a node: its decode step (per GPU of the TP group; see capstone.hpp), the TPOT SLO
/// in milliseconds, the KV pages of each GPU and the pages one sequence needs. When no page fits
/// (pool_blocks == 0) the step is not filled in: answer weights and leave the rest 0. You may call
/// tutor::c07::decode_step_time to time a batch.
CapacityAnswer capacity(const DecodeStepModel& step, double slo_ms, std::int64_t pool_blocks,
                        std::int64_t blocks_per_sequence);

}  // namespace tutor::c07::exercise
