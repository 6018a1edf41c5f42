#pragma once
// B06: a discrete-event simulator of continuous batching, one event per scheduler iteration.
//
// What it models (each rule's source in brackets):
//  - Iteration-level scheduling [Yu et al., "Orca", OSDI 2022]: the batch is rebuilt every
//    step; a sequence joins as soon as it is admitted and leaves the step its last token
//    comes out, and one step runs prefill work and one decode token for every decoding
//    sequence together.
//  - A paged KV cache [Kwon et al., "Efficient Memory Management for Large Language Model
//    Serving with PagedAttention" (vLLM), SOSP 2023]: the pool is whole blocks of
//    block_size tokens; a sequence holds ceil(tokens / block_size) blocks; admission
//    allocates its whole prompt's blocks, and a decode step takes a new block when the
//    token it writes starts one. Admission is strict FCFS and keeps a watermark of
//    floor(watermark_fraction * blocks) blocks free (vLLM v0.2.7-v0.6 BlockSpaceManager:
//    watermark = 0.01, watermark_blocks = int(watermark * num_gpu_blocks)).
//  - Preemption by recomputation [same paper, section 4.5]: when the decodes of a step
//    need more new blocks than are free, the most recently admitted sequences are
//    preempted until the rest fit (vLLM's scheduler pops the tail of its running queue);
//    a preempted sequence frees every block, goes back to the FRONT of the waiting queue,
//    and when readmitted prefills its prompt plus the tokens it had generated, which
//    yields its next token. No new sequence is admitted in a step that preempted.
//  - Chunked prefill [Agrawal et al., "Taming Throughput-Latency Tradeoff in LLM Inference
//    with Sarathi-Serve", OSDI 2024]: a step's tokens (one per decoding sequence plus the
//    prefill tokens) stay within max_batch_tokens; decodes are scheduled first, then the
//    unfinished prefills of admitted sequences in admission order, then new admissions,
//    each prefill taking as many tokens as the budget has left. Without chunking a prompt
//    is prefilled whole in its admission step alongside the decodes (Orca), the budget bounds
//    the step's prefill tokens only (as vLLM's max_num_batched_tokens bounds its prefill
//    steps; decodes are bounded by max_num_seqs), new prompts are admitted while their sum
//    fits it, and a prompt longer than max_batch_tokens is rejected (vLLM's non-chunked
//    prompt limit); a recomputation longer than the budget runs as the only prefill of its
//    step.
//  - A request is rejected (counted, not served) when it could never complete alone:
//    ceil((prompt + output - 1) / block_size) > blocks - watermark blocks (the final
//    token's KV is never written), or, without chunking, prompt > max_batch_tokens.
// Each step's duration comes from a StepCostModel (step_cost.hpp). The time a token comes
// out is the end of the step that computed it. It is a simulation of a model, not a
// measurement: the result says so in `kind`.
//
// Cost: O(running sequences) per step plus O(1) per arrival, admission, preemption and
// completion; no allocation in the step loop; KV use is tracked with counters.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "step_cost.hpp"
#include "workload.hpp"

namespace tutor::b06 {

/// The engine being simulated.
struct SchedulerConfig {
  std::int64_t kv_pool_tokens = 0;    ///< KV pool size in tokens; whole blocks are used: floor(tokens / block_size)
  std::int32_t block_size = 16;       ///< tokens per KV block (vLLM's default page: 16)
  /// Tokens per step: prefill + decode with chunked prefill, prefill only without; >= max_num_seqs.
  std::int32_t max_batch_tokens = 2048;
  std::int32_t max_num_seqs = 256;    ///< sequences in the running batch
  bool chunked_prefill = true;
  double watermark_fraction = 0.01;   ///< in [0, 1): blocks admission leaves free (vLLM's default 0.01)
};

/// Where a simulation is, for a progress line (called from the simulating thread).
struct SimulationProgress {
  std::size_t finished = 0;   ///< completed + rejected requests
  std::size_t requests = 0;
  std::int64_t steps = 0;
  double now_s = 0;
};

/// What to record beside the summary.
struct SimulationOptions {
  std::int64_t series_every_steps = 100;   ///< one time-series row per this many steps (1: every step; 0: none)
  bool record_requests = false;            ///< fill SimulationResult::per_request
  std::function<void(const SimulationProgress&)> progress;  ///< optional
  std::int64_t progress_every_steps = 1 << 16;
};

/// p50/p90/p99 with Hyndman-Fan definition 7 (tutor::quantile_sorted), plus mean, min, max.
struct Percentiles {
  double p50 = 0, p90 = 0, p99 = 0, mean = 0, min = 0, max = 0;
  std::size_t n = 0;   ///< samples; 0 leaves every field 0
};

/// One sampled step, as it ran.
struct TimeSeriesRow {
  double t_s = 0;                   ///< when the step started
  double step_ms = 0;               ///< its duration
  std::int32_t running = 0;         ///< sequences in its batch (decoding or prefilling)
  std::int64_t waiting = 0;         ///< requests queued (arrived, not admitted) while it ran
  std::int64_t kv_used_tokens = 0;  ///< tokens whose KV is held, including those the step writes
  std::int64_t kv_used_blocks = 0;  ///< blocks allocated while it ran
  std::int32_t prefill_tokens = 0;
  std::int32_t decode_seqs = 0;
};

/// One request's life (SimulationOptions::record_requests).
struct RequestRecord {
  double arrival_s = 0;
  double first_token_s = 0;   ///< end of the step that produced its first token
  double finish_s = 0;        ///< end of the step that produced its last token
  std::int32_t generated_tokens = 0;
  std::int32_t preemptions = 0;
  bool rejected = false;      ///< never served (too long for the pool or the budget); times are 0
};

struct SimulationResult {
  std::string kind = "simulation";   ///< the record's "kind": a model's output, not a measurement

  std::size_t requests = 0;
  std::size_t completed = 0;
  std::size_t rejected = 0;
  std::int64_t prompt_tokens = 0;       ///< of the completed requests
  std::int64_t output_tokens = 0;       ///< generated by the completed requests
  std::int64_t recomputed_tokens = 0;   ///< prefill tokens computed again after preemptions
  std::int64_t preemptions = 0;
  std::int64_t steps = 0;

  double first_arrival_s = 0;
  double last_finish_s = 0;
  double simulated_s = 0;        ///< last_finish_s - first_arrival_s
  double busy_s = 0;             ///< sum of step times (the rest is idle, waiting for arrivals)
  double requests_per_s = 0;     ///< completed / simulated_s
  double output_tokens_per_s = 0;  ///< output_tokens / simulated_s
  double mean_step_ms = 0;
  double mean_batch_seqs = 0;    ///< running sequences per step, weighted by step time

  Percentiles ttft_ms;   ///< arrival -> first token
  Percentiles tpot_ms;   ///< (finish - first token) / (output - 1): requests with output >= 2
  Percentiles e2e_ms;    ///< arrival -> last token

  std::int64_t kv_pool_blocks = 0;
  std::int64_t kv_pool_tokens = 0;      ///< kv_pool_blocks * block_size
  double kv_utilization_mean = 0;       ///< blocks in use / pool, averaged over steps weighted by step time
  double kv_utilization_max = 0;        ///< the same, the fullest step
  std::int64_t max_waiting = 0;         ///< longest queue a step saw

  std::vector<TimeSeriesRow> series;          ///< every series_every_steps-th step, from the first
  std::vector<RequestRecord> per_request;     ///< in input order, when record_requests
};

/// Simulates serving `requests` (sorted by arrival) with `config`, each step's time from
/// `cost`. Deterministic: the same inputs give the same result. Throws tutor::UsageError
/// naming the field for an invalid config or request (unsorted arrivals, a length < 1).
SimulationResult simulate(std::span<const Request> requests, const SchedulerConfig& config,
                          const StepCostModel& cost, const SimulationOptions& options = {});

/// The columns of time_series_csv, in order (kv_utilization = kv_used_blocks / kv_pool_blocks).
inline constexpr const char* kTimeSeriesCsvHeader =
    "t_s,step_ms,running,waiting,kv_used_tokens,kv_used_blocks,kv_utilization,prefill_tokens,decode_seqs";

/// result.series as CSV text: the header line, then one line per row (shortest round-trip
/// numbers), ready for tutor::write_file_atomic.
std::string time_series_csv(const SimulationResult& result);

}  // namespace tutor::b06
