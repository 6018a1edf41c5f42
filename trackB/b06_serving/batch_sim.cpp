#include "batch_sim.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "tutor/stats.hpp"

namespace tutor::b06 {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// A FIFO of request indices that also takes preempted requests at its front. Its capacity
/// is fixed up front (a request is queued at most once at a time), so it never allocates
/// while the simulation runs.
class WaitingQueue {
 public:
  explicit WaitingQueue(std::size_t capacity) : slots_(std::max<std::size_t>(capacity, 1)) {}
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::uint32_t front() const { return slots_[head_]; }
  void pop_front() {
    head_ = head_ + 1 == slots_.size() ? 0 : head_ + 1;
    --size_;
  }
  void push_back(std::uint32_t r) {
    std::size_t tail = head_ + size_;
    if (tail >= slots_.size()) tail -= slots_.size();
    slots_[tail] = r;
    ++size_;
  }
  void push_front(std::uint32_t r) {
    head_ = head_ == 0 ? slots_.size() - 1 : head_ - 1;
    slots_[head_] = r;
    ++size_;
  }

 private:
  std::vector<std::uint32_t> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

/// A sequence in the running batch: 24 bytes, so a batch of 256 stays in L1.
struct Sequence {
  std::uint32_t request;
  std::int32_t kv_tokens;       ///< tokens whose KV is stored
  std::int32_t prefill_target;  ///< tokens to prefill: the prompt, plus what it had generated if preempted
  std::int32_t blocks;          ///< KV blocks held
  std::int32_t output_left;     ///< tokens still to generate
  std::int32_t chunk;           ///< prefill tokens scheduled this step (prefilling sequences only)
  bool prefilling() const { return kv_tokens < prefill_target; }
};

/// Adds a prefill chunk of n tokens starting at position s to the step (StepShape's formulas).
void add_chunk(StepShape& shape, std::int64_t s, std::int64_t n) {
  shape.prefill_tokens += n;
  shape.prefill_kv_tokens += s + n;
  shape.prefill_attention_pairs += n * s + n * (n + 1) / 2;
}

Percentiles percentiles(std::vector<double>& samples) {
  Percentiles p;
  if (samples.empty()) return p;
  std::sort(samples.begin(), samples.end());
  p.n = samples.size();
  p.p50 = quantile_sorted(samples, 0.50);
  p.p90 = quantile_sorted(samples, 0.90);
  p.p99 = quantile_sorted(samples, 0.99);
  p.min = samples.front();
  p.max = samples.back();
  double sum = 0;
  for (double x : samples) sum += x;
  p.mean = sum / static_cast<double>(samples.size());
  return p;
}

void validate(const SchedulerConfig& c) {
  if (c.block_size < 1) throw UsageError("block_size: must be >= 1 token");
  if (c.kv_pool_tokens < c.block_size)
    throw UsageError("kv_pool_tokens: must hold at least one block (>= block_size = " +
                     std::to_string(c.block_size) + " tokens)");
  if (c.max_num_seqs < 1) throw UsageError("max_num_seqs: must be >= 1");
  // Every decoding sequence needs one token of the budget (vLLM enforces the same).
  if (c.max_batch_tokens < c.max_num_seqs)
    throw UsageError("max_batch_tokens: must be >= max_num_seqs (" + std::to_string(c.max_num_seqs) +
                     "): every decoding sequence takes one token of a step");
  if (!(c.watermark_fraction >= 0 && c.watermark_fraction < 1))
    throw UsageError("watermark_fraction: must be in [0, 1)");
}

void validate(std::span<const Request> requests) {
  if (requests.size() > std::numeric_limits<std::uint32_t>::max())
    throw UsageError("requests: at most 4294967295");
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const auto& r = requests[i];
    const std::string where = "requests[" + std::to_string(i) + "].";
    if (!std::isfinite(r.arrival_s)) throw UsageError(where + "arrival_s: must be finite");
    if (i > 0 && r.arrival_s < requests[i - 1].arrival_s)
      throw UsageError(where + "arrival_s: earlier than the request before it (sort by arrival)");
    if (r.prompt_tokens < 1) throw UsageError(where + "prompt_tokens: must be >= 1");
    if (r.output_tokens < 1) throw UsageError(where + "output_tokens: must be >= 1");
    if (std::int64_t(r.prompt_tokens) + r.output_tokens > std::numeric_limits<std::int32_t>::max())
      throw UsageError(where + "prompt_tokens + output_tokens: must be below 2^31");
  }
}

}  // namespace

SimulationResult simulate(std::span<const Request> requests, const SchedulerConfig& config,
                          const StepCostModel& cost, const SimulationOptions& options) {
  validate(config);
  validate(requests);
  if (options.series_every_steps < 0) throw UsageError("series_every_steps: must be >= 0");

  const std::size_t n = requests.size();
  const std::int64_t block = config.block_size;
  const std::int64_t pool_blocks = config.kv_pool_tokens / block;
  const auto watermark_blocks = static_cast<std::int64_t>(config.watermark_fraction * double(pool_blocks));
  const std::int64_t budget_per_step = config.max_batch_tokens;
  const auto max_seqs = static_cast<std::size_t>(config.max_num_seqs);

  SimulationResult out;
  out.requests = n;
  out.kv_pool_blocks = pool_blocks;
  out.kv_pool_tokens = pool_blocks * block;
  if (n == 0) return out;
  out.first_arrival_s = requests.front().arrival_s;

  // Per-request state, touched only at admission, preemption, first token and completion.
  std::vector<double> first_token_s(n, 0.0);
  std::vector<std::int32_t> generated_at_preemption(n, 0);
  std::vector<std::int32_t> preemptions_of(n, 0);
  std::vector<double> ttft_ms, tpot_ms, e2e_ms;
  ttft_ms.reserve(n);
  tpot_ms.reserve(n);
  e2e_ms.reserve(n);
  if (options.record_requests) out.per_request.assign(n, RequestRecord{});

  const auto never_fits = [&](const Request& r) {
    if (!config.chunked_prefill && r.prompt_tokens > budget_per_step) return true;
    const std::int64_t peak_kv_tokens = std::int64_t(r.prompt_tokens) + r.output_tokens - 1;
    return ceil_div(std::max<std::int64_t>(peak_kv_tokens, 1), block) > pool_blocks - watermark_blocks;
  };

  WaitingQueue waiting(n);
  std::vector<Sequence> running;
  running.reserve(max_seqs);

  std::size_t next_arrival = 0;
  std::size_t finished = 0;              // completed + rejected
  std::int64_t free_blocks = pool_blocks;
  std::int64_t kv_used_tokens = 0;       // tokens whose KV is stored
  double now = 0;
  double used_block_seconds = 0;         // integral of blocks in use over step time
  double running_seconds = 0;            // integral of batch size over step time
  std::int64_t max_used_blocks = 0;
  std::int64_t series_countdown = 0;     // a row when it reaches 0
  std::int64_t progress_countdown = options.progress_every_steps;

  const auto finish = [&](const Sequence& s) {
    const Request& r = requests[s.request];
    free_blocks += s.blocks;
    kv_used_tokens -= s.kv_tokens;
    const double first = first_token_s[s.request];
    ttft_ms.push_back((first - r.arrival_s) * 1e3);
    e2e_ms.push_back((now - r.arrival_s) * 1e3);
    // TPOT as vLLM's benchmark_serving defines it: the time after the first token over the
    // tokens after the first.
    if (r.output_tokens > 1) tpot_ms.push_back((now - first) * 1e3 / (r.output_tokens - 1));
    ++out.completed;
    ++finished;
    out.prompt_tokens += r.prompt_tokens;
    out.output_tokens += r.output_tokens;
    out.last_finish_s = now;
    if (options.record_requests) {
      auto& rec = out.per_request[s.request];
      rec.arrival_s = r.arrival_s;
      rec.first_token_s = first;
      rec.finish_s = now;
      rec.generated_tokens = r.output_tokens - s.output_left;
      rec.preemptions = preemptions_of[s.request];
    }
  };

  while (finished < n) {
    // Arrivals up to now join the queue (or are rejected if they could never run).
    while (next_arrival < n && requests[next_arrival].arrival_s <= now) {
      const Request& r = requests[next_arrival];
      if (never_fits(r)) {
        ++out.rejected;
        ++finished;
        if (options.record_requests) {
          out.per_request[next_arrival].arrival_s = r.arrival_s;
          out.per_request[next_arrival].rejected = true;
        }
      } else {
        waiting.push_back(static_cast<std::uint32_t>(next_arrival));
      }
      ++next_arrival;
    }
    if (running.empty() && waiting.empty()) {
      if (next_arrival == n) break;  // the rest were rejected
      now = std::max(now, requests[next_arrival].arrival_s);  // idle until the next arrival
      continue;
    }

    // 1. Decodes: each decoding sequence writes the KV of the token it feeds; it needs a new
    //    block when that token starts one.
    std::int64_t decoders = 0, blocks_needed = 0, kv_tokens_read = 0, prefilling = 0;
    for (const Sequence& s : running) {
      if (s.prefilling()) {
        ++prefilling;
      } else {
        ++decoders;
        blocks_needed += s.kv_tokens == std::int64_t(s.blocks) * block;
        kv_tokens_read += s.kv_tokens + 1;
      }
    }

    // 2. Preemption by recomputation: the most recently admitted go until the rest fit.
    bool preempted = false;
    while (blocks_needed > free_blocks) {
      const Sequence v = running.back();
      running.pop_back();
      if (v.prefilling()) {
        --prefilling;
      } else {
        --decoders;
        blocks_needed -= v.kv_tokens == std::int64_t(v.blocks) * block;
        kv_tokens_read -= v.kv_tokens + 1;
      }
      free_blocks += v.blocks;
      kv_used_tokens -= v.kv_tokens;
      generated_at_preemption[v.request] = requests[v.request].output_tokens - v.output_left;
      ++preemptions_of[v.request];
      ++out.preemptions;
      waiting.push_front(v.request);
      preempted = true;
    }
    free_blocks -= blocks_needed;

    StepShape shape;
    shape.decode_seqs = decoders;
    shape.kv_tokens_read = kv_tokens_read;
    // Chunked: decodes and prefill share the step's budget (Sarathi-Serve). Whole prompts: the
    // budget bounds the prefill tokens and decodes ride along (Orca); counting the decodes too
    // would block a prompt of the full budget at the head of the queue until the batch drained.
    std::int64_t budget = config.chunked_prefill ? budget_per_step - decoders : budget_per_step;

    // 3. Unfinished prefills of admitted sequences (chunked mode), in admission order.
    if (prefilling > 0) {
      for (Sequence& s : running) {
        if (!s.prefilling()) continue;
        const std::int64_t c = std::min<std::int64_t>(s.prefill_target - s.kv_tokens, budget);
        s.chunk = static_cast<std::int32_t>(c);
        if (c == 0) continue;
        budget -= c;
        add_chunk(shape, s.kv_tokens, c);
      }
    }

    // 4. Admissions, strict FCFS: stop at the first request that does not fit.
    if (!preempted) {
      while (!waiting.empty() && running.size() < max_seqs) {
        const std::uint32_t r = waiting.front();
        const std::int32_t generated = generated_at_preemption[r];
        const std::int64_t prefill_len = std::int64_t(requests[r].prompt_tokens) + generated;
        const std::int64_t blocks = ceil_div(prefill_len, block);
        if (free_blocks - blocks < watermark_blocks) break;
        std::int64_t chunk = prefill_len;
        if (config.chunked_prefill) {
          if (budget <= 0) break;
          chunk = std::min(prefill_len, budget);
        } else if (prefill_len > budget) {
          // Only a recomputation can be longer than the whole budget: it runs alone.
          if (!(prefill_len > budget_per_step && shape.prefill_tokens == 0)) break;
        }
        waiting.pop_front();
        running.push_back({r, 0, static_cast<std::int32_t>(prefill_len), static_cast<std::int32_t>(blocks),
                           requests[r].output_tokens - generated, static_cast<std::int32_t>(chunk)});
        free_blocks -= blocks;
        budget = std::max<std::int64_t>(budget - chunk, 0);
        add_chunk(shape, 0, chunk);
      }
    }
    if (shape.tokens() == 0) throw std::logic_error("batch simulator: a step with no work");

    // 5. The step runs.
    const double step_s = cost.step_seconds(shape);
    if (!(std::isfinite(step_s) && step_s >= 0))
      throw std::runtime_error("step cost model returned " + std::to_string(step_s) + " s");
    const double step_start = now;
    now += step_s;
    ++out.steps;
    kv_used_tokens += shape.tokens();
    const std::int64_t used_blocks = pool_blocks - free_blocks;
    used_block_seconds += double(used_blocks) * step_s;
    running_seconds += double(running.size()) * step_s;
    max_used_blocks = std::max(max_used_blocks, used_blocks);
    out.max_waiting = std::max<std::int64_t>(out.max_waiting, std::int64_t(waiting.size()));
    out.busy_s += step_s;
    if (options.series_every_steps > 0 && series_countdown-- == 0) {
      series_countdown = options.series_every_steps - 1;
      out.series.push_back({step_start, step_s * 1e3, static_cast<std::int32_t>(running.size()),
                            std::int64_t(waiting.size()), kv_used_tokens, used_blocks,
                            static_cast<std::int32_t>(shape.prefill_tokens),
                            static_cast<std::int32_t>(decoders)});
    }

    // 6. Its tokens come out at its end; finished sequences free their blocks.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < running.size(); ++i) {
      Sequence s = running[i];
      bool emits = false;
      if (!s.prefilling()) {
        if (s.kv_tokens == std::int64_t(s.blocks) * block) ++s.blocks;
        ++s.kv_tokens;
        emits = true;
      } else if (s.chunk > 0) {
        s.kv_tokens += s.chunk;
        if (preemptions_of[s.request] > 0) out.recomputed_tokens += s.chunk;
        emits = !s.prefilling();
        if (emits && s.output_left == requests[s.request].output_tokens) first_token_s[s.request] = now;
        s.chunk = 0;
      }
      if (emits && --s.output_left == 0) {
        finish(s);
        continue;
      }
      running[kept++] = s;
    }
    running.resize(kept);

    if (options.progress && --progress_countdown <= 0) {
      progress_countdown = options.progress_every_steps;
      options.progress({finished, n, out.steps, now});
    }
  }

  // Every block and every stored token must be back: the counters are the only record of them.
  if (free_blocks != pool_blocks || kv_used_tokens != 0 || !running.empty() || !waiting.empty())
    throw std::logic_error("batch simulator: KV accounting does not balance at the end of the run");
  if (out.completed == 0) out.last_finish_s = out.first_arrival_s;
  out.simulated_s = out.last_finish_s - out.first_arrival_s;
  if (out.simulated_s > 0) {
    out.requests_per_s = double(out.completed) / out.simulated_s;
    out.output_tokens_per_s = double(out.output_tokens) / out.simulated_s;
  }
  if (out.steps > 0) out.mean_step_ms = out.busy_s * 1e3 / double(out.steps);
  if (out.busy_s > 0) {
    out.kv_utilization_mean = used_block_seconds / out.busy_s / double(pool_blocks);
    out.mean_batch_seqs = running_seconds / out.busy_s;
  }
  out.kv_utilization_max = double(max_used_blocks) / double(pool_blocks);
  out.ttft_ms = percentiles(ttft_ms);
  out.tpot_ms = percentiles(tpot_ms);
  out.e2e_ms = percentiles(e2e_ms);
  if (options.progress) options.progress({finished, n, out.steps, now});
  return out;
}

namespace {

void append_number(std::string& out, double x) {
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, x);
  out.append(buf, ec == std::errc() ? ptr : buf);
}

void append_number(std::string& out, std::int64_t x) {
  char buf[24];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, x);
  out.append(buf, ec == std::errc() ? ptr : buf);
}

}  // namespace

std::string time_series_csv(const SimulationResult& result) {
  std::string out = kTimeSeriesCsvHeader;
  out += '\n';
  const double blocks = double(std::max<std::int64_t>(result.kv_pool_blocks, 1));
  for (const auto& row : result.series) {
    append_number(out, row.t_s);
    out += ',';
    append_number(out, row.step_ms);
    out += ',';
    append_number(out, std::int64_t(row.running));
    out += ',';
    append_number(out, row.waiting);
    out += ',';
    append_number(out, row.kv_used_tokens);
    out += ',';
    append_number(out, row.kv_used_blocks);
    out += ',';
    append_number(out, double(row.kv_used_blocks) / blocks);
    out += ',';
    append_number(out, std::int64_t(row.prefill_tokens));
    out += ',';
    append_number(out, std::int64_t(row.decode_seqs));
    out += '\n';
  }
  return out;
}

}  // namespace tutor::b06
