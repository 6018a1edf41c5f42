// C07 exercise "capacity": the worked solution (capstone.hpp derives both budgets).
//
// No KV page fits beside the weights and reserves: nothing can be served; the weights bind.
// B_pool = floor(pages / pages per sequence): every sequence of the plan is at the full context.
// B_slo: the step time t(B) = max(memory(B), compute(B)) + comm_fixed + B comm + overhead is the
// maximum of two straight lines in B, so t(B) <= SLO holds exactly when both lines fit:
//   memory:  W/BW + B (KV/BW + comm) <= budget  ->  B <= (budget - W/BW) / (KV/BW + comm)
//   compute:        B (F/peak + comm) <= budget ->  B <= budget / (F/peak + comm)
// with budget = SLO - overhead - comm_fixed. B_slo is the floor of the smaller bound (0 when the
// weights alone miss the SLO), nudged by the step model itself: the bound can land a rounding
// error either side of an integer, and the step time, not the algebra, is what the SLO is about.
// The SLO binds when it allows fewer sequences than the pool holds; on a tie the pool binds (it
// is the pool that would have to grow). The batch is the binding budget.
#include <algorithm>
#include <cmath>
#include <limits>

#include "capacity.hpp"

namespace tutor::c07::exercise {
namespace {

std::int64_t batch_within_slo(const DecodeStepModel& m, double slo_ms) {
  const double budget = slo_ms - m.overhead_us * 1e-3 - m.comm_fixed_us * 1e-3;
  const double comm = m.comm_per_sequence_us * 1e-3;
  const double inf = std::numeric_limits<double>::infinity();
  const double memory_per_sequence = m.kv_ms_per_sequence() + comm, room = budget - m.weights_ms();
  const double compute_per_sequence = m.compute_ms_per_sequence() + comm;
  const double memory_limit = memory_per_sequence > 0 ? room / memory_per_sequence : (room >= 0 ? inf : -inf);
  const double compute_limit = compute_per_sequence > 0 ? budget / compute_per_sequence : (budget >= 0 ? inf : -inf);
  const double limit = std::min(memory_limit, compute_limit);
  std::int64_t b = limit > 0 ? static_cast<std::int64_t>(std::floor(limit)) : 0;
  while (b > 0 && decode_step_time(m, b).total_ms > slo_ms) --b;
  while (decode_step_time(m, b + 1).total_ms <= slo_ms) ++b;
  return b;
}

}  // namespace

CapacityAnswer capacity(const DecodeStepModel& step, double slo_ms, std::int64_t pool_blocks,
                        std::int64_t blocks_per_sequence) {
  CapacityAnswer a;
  if (pool_blocks == 0) {
    a.binds = Binding::weights;
    return a;
  }
  a.pool_sequences = pool_blocks / blocks_per_sequence;
  a.slo_batch = batch_within_slo(step, slo_ms);
  a.binds = a.slo_batch < a.pool_sequences ? Binding::slo : Binding::hbm_pool;
  a.batch = std::min(a.slo_batch, a.pool_sequences);
  return a;
}

}  // namespace tutor::c07::exercise
