#pragma once
// C07 exercise "decode_step": the time of one decode step (TPOT) from bytes, FLOPs and rates.
//
// Write decode_step in decode_step.cpp. The checker (check_decode_step.cpp) compares it with the
// capstone's tutor::c07::decode_step_time (capstone.hpp) on the steps the capstone builds for every
// shipped config, random steps and the edges (no sequence, the compute roof, communication).
#include <cstdint>
#include <string>

namespace tutor::c07::exercise {

/// One GPU of a tensor-parallel group in one decode step, as plain numbers.
struct DecodeStep {
  double weight_bytes_read = 0;             ///< weights this GPU streams once per step, bytes
  double kv_bytes_per_sequence = 0;         ///< KV this GPU reads for one sequence, bytes
  double linear_flops_per_sequence = 0;     ///< matmul FLOPs of one decoded token on this GPU
  double attention_flops_per_sequence = 0;  ///< attention FLOPs of one decoded token on this GPU
  double bandwidth_GBps = 0;                ///< effective HBM bandwidth, 1e9 B/s
  double compute_TFLOPs = 0;                ///< effective compute rate, 1e12 FLOP/s
  double overhead_us = 0;                   ///< fixed cost of a step (scheduling, launches), microseconds
  double comm_fixed_us = 0;                 ///< all-reduce latency of a step, whatever the batch, microseconds
  double comm_per_sequence_us = 0;          ///< all-reduce time each sequence adds, microseconds
};

struct StepAnswer {
  double total_ms = 0;  ///< the step's time, milliseconds
  std::string roof;     ///< "memory" or "compute": the roof that sets it ("memory" on a tie)
};

/// The step time of `batch` sequences (batch >= 0; 0: the weights alone).
StepAnswer decode_step(const DecodeStep& step, std::int64_t batch);

}  // namespace tutor::c07::exercise
