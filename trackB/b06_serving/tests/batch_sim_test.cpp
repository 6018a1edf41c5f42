// B06: the continuous-batching simulator against schedules derived by hand.
//
// Most cases use a step-cost double that takes exactly 1 ms per step and records each
// step's shape, so every expected time is "the step number in ms" and every expected
// shape can be written down from the scheduling rules in batch_sim.hpp. The roofline cases
// use round hardware numbers so that the arithmetic fits in a comment.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "batch_sim.hpp"
#include "step_cost.hpp"
#include "workload.hpp"

using tutor::b06::Request;
using tutor::b06::RooflineStepCost;
using tutor::b06::RooflineStepParams;
using tutor::b06::SchedulerConfig;
using tutor::b06::simulate;
using tutor::b06::SimulationOptions;
using tutor::b06::SimulationResult;
using tutor::b06::StepCostModel;
using tutor::b06::StepShape;

namespace {

/// 1 ms per step, whatever the step; remembers every shape it was asked about.
class OneMsPerStep final : public StepCostModel {
 public:
  double step_seconds(const StepShape& shape) const override {
    shapes.push_back(shape);
    return 1e-3;
  }
  mutable std::vector<StepShape> shapes;
};

/// A made-up GPU with round numbers (not a real one):
///   weights 2 GB read per step at 2000 GB/s      -> 1 ms memory floor per step
///   2e9 FLOP per token in the linear layers at 100 TFLOP/s -> 0.02 ms per token
///   1e5 FLOP per attention (query, key) pair, 1e5 KV bytes per token, 50 us per step.
RooflineStepParams round_gpu() {
  RooflineStepParams p;
  p.weight_bytes = 2e9;
  p.flops_per_token_linear = 2e9;
  p.kv_bytes_per_token = 1e5;
  p.attention_flops_per_pair = 1e5;
  p.peak_TFLOPs = 100;
  p.hbm_GBps = 2000;
  p.overhead_us = 50;
  return p;
}

SchedulerConfig config(std::int64_t pool_tokens, bool chunked, std::int32_t max_batch_tokens = 2048) {
  SchedulerConfig c;
  c.kv_pool_tokens = pool_tokens;
  c.block_size = 16;
  c.max_batch_tokens = max_batch_tokens;
  c.max_num_seqs = 256;
  c.chunked_prefill = chunked;
  c.watermark_fraction = 0;
  return c;
}

SimulationOptions every_step() {
  SimulationOptions o;
  o.series_every_steps = 1;
  o.record_requests = true;
  return o;
}

}  // namespace

TEST(RooflineStepCost, PrefillOfOneThousandTokensIsComputeBound) {
  const RooflineStepCost cost(round_gpu());
  StepShape s;
  s.prefill_tokens = 1000;
  s.prefill_kv_tokens = 1000;
  s.prefill_attention_pairs = 1000 * 1001 / 2;  // causal: 500,500 pairs
  const auto b = cost.breakdown(s);
  // FLOPs: 1000 * 2e9 + 500,500 * 1e5 = 2.05005e12 -> / 1e14 FLOP/s = 20.5005 ms.
  // Bytes: 2e9 + 1000 * 1e5 = 2.1e9 -> / 2e12 B/s = 1.05 ms.
  EXPECT_DOUBLE_EQ(b.flops, 2.05005e12);
  EXPECT_DOUBLE_EQ(b.bytes, 2.1e9);
  EXPECT_NEAR(b.compute_s, 20.5005e-3, 1e-12);
  EXPECT_NEAR(b.memory_s, 1.05e-3, 1e-12);
  EXPECT_EQ(b.bound(), "compute");
  EXPECT_NEAR(cost.step_seconds(s), 20.5505e-3, 1e-12);  // + 50 us
}

TEST(RooflineStepCost, DecodeOfOneSequenceIsMemoryBound) {
  const RooflineStepCost cost(round_gpu());
  StepShape s;
  s.decode_seqs = 1;
  s.kv_tokens_read = 1001;
  const auto b = cost.breakdown(s);
  // FLOPs: 2e9 + 1001 * 1e5 = 2.1001e9 -> 0.021001 ms. Bytes: 2e9 + 1001 * 1e5 = 2.1001e9
  // -> 1.05005 ms. Memory-bound; + 50 us = 1.10005 ms.
  EXPECT_EQ(b.bound(), "memory");
  EXPECT_NEAR(cost.step_seconds(s), 1.10005e-3, 1e-12);
}

TEST(RooflineStepCost, RejectsAZeroBandwidthNamingTheField) {
  auto p = round_gpu();
  p.hbm_GBps = 0;
  try {
    RooflineStepCost cost(p);
    FAIL() << "expected tutor::UsageError";
  } catch (const tutor::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("hbm_GBps"), std::string::npos) << e.what();
  }
}

TEST(BatchSim, SingleRequestTtftAndTpotAreTheCostModelsPrefillAndDecodeSteps) {
  // One request, 1000 prompt tokens, 5 output tokens, at t = 0, alone on the round GPU.
  // Step 1 prefills all 1000 tokens (20.5505 ms, RooflinePrefill above) and yields token 1.
  // Steps 2..5 decode tokens 2..5 with context 1001..1004 (the token fed is counted):
  //   each 1 ms + context * 1e5 B / 2e12 B/s + 0.05 ms = 1.05 ms + context * 5e-5 ms,
  //   total 4 * 1.05 + (1001 + 1002 + 1003 + 1004) * 5e-5 = 4.2 + 0.2005 = 4.4005 ms.
  // TTFT = 20.5505 ms; TPOT = 4.4005 / 4 = 1.100125 ms; end to end = 24.951 ms.
  const RooflineStepCost cost(round_gpu());
  const std::vector<Request> one{{0.0, 1000, 5}};
  const auto r = simulate(one, config(2048, false), cost, every_step());
  ASSERT_EQ(r.completed, 1u);
  EXPECT_EQ(r.steps, 5);
  EXPECT_NEAR(r.ttft_ms.p50, 20.5505, 1e-9);
  EXPECT_NEAR(r.tpot_ms.p50, 1.100125, 1e-9);
  EXPECT_NEAR(r.e2e_ms.p50, 24.951, 1e-9);
  EXPECT_EQ(r.ttft_ms.n, 1u);
  EXPECT_EQ(r.output_tokens, 5);
  EXPECT_EQ(r.preemptions, 0);
  EXPECT_EQ(r.kind, "simulation");
  // KV: 1000 tokens take ceil(1000 / 16) = 63 blocks, enough for 1008 tokens, so the 4
  // decodes (writing tokens 1001..1004) need no new block: 63 of 128 blocks every step.
  EXPECT_EQ(r.kv_pool_blocks, 128);
  EXPECT_DOUBLE_EQ(r.kv_utilization_max, 63.0 / 128.0);
  EXPECT_DOUBLE_EQ(r.kv_utilization_mean, 63.0 / 128.0);
  ASSERT_EQ(r.series.size(), 5u);
  EXPECT_EQ(r.series[0].kv_used_tokens, 1000);
  EXPECT_EQ(r.series[4].kv_used_tokens, 1004);
  EXPECT_EQ(r.series[0].prefill_tokens, 1000);
  EXPECT_EQ(r.series[1].decode_seqs, 1);
  // Throughput over the 24.951 ms from the first arrival to the last token.
  EXPECT_NEAR(r.output_tokens_per_s, 5 / 24.951e-3, 1e-6);
}

TEST(BatchSim, TwoRequestsThatDoNotFitThePoolTogetherRunOneAfterTheOther) {
  // Pool: 1024 tokens = 64 blocks of 16. Each request: 600 prompt + 10 output tokens,
  // peak KV 609 tokens = 39 blocks (alone it fits). A is admitted with ceil(600/16) = 38
  // blocks, leaving 26 < 38, so B waits. A: prefill in step 1, decodes in steps 2..10
  // (the 9th decode writes token 608 = 38 * 16 and takes block 39), done at 10 ms. B is
  // admitted in step 11, prefills, decodes in steps 12..20, done at 20 ms.
  OneMsPerStep cost;
  const std::vector<Request> two{{0.0, 600, 10}, {0.0, 600, 10}};
  const auto r = simulate(two, config(1024, false), cost, every_step());
  ASSERT_EQ(r.completed, 2u);
  EXPECT_EQ(r.steps, 20);
  EXPECT_EQ(r.preemptions, 0);
  EXPECT_NEAR(r.per_request[0].first_token_s, 1e-3, 1e-12);
  EXPECT_NEAR(r.per_request[0].finish_s, 10e-3, 1e-12);
  EXPECT_NEAR(r.per_request[1].first_token_s, 11e-3, 1e-12);
  EXPECT_NEAR(r.per_request[1].finish_s, 20e-3, 1e-12);
  for (const auto& row : r.series) EXPECT_EQ(row.running, 1);
  EXPECT_EQ(r.series[0].waiting, 1);   // B queued while A runs
  EXPECT_EQ(r.series[9].kv_used_blocks, 39);
  EXPECT_EQ(r.series[10].kv_used_blocks, 38);
  EXPECT_EQ(r.max_waiting, 1);
}

TEST(BatchSim, PreemptsTheLatestAdmittedWhenThePoolRunsOutAndEveryRequestCompletes) {
  // Pool: 128 tokens = 8 blocks of 16. A and B: 32 prompt + 64 output tokens each, at t = 0.
  // Step 1 admits both (2 blocks each) and prefills them. Decode step s >= 2 writes token
  // 32 + (s - 2) of each; a new block starts at 32, 48, 64: steps 2 and 18 take a block each
  // (8 of 8 used), and at step 34 both need a ninth block with none free, so B (admitted
  // last) is preempted: it frees 4 blocks, A takes one. B had generated 1 + 32 = 33 tokens.
  // B waits: its recomputation is 32 + 33 = 65 tokens = 5 blocks and only 3 are free (A takes
  // its 6th block at step 50). A's last token (64) comes out in step 64. Step 65 readmits B
  // and prefills its 65 tokens (token 34); steps 66..95 decode tokens 35..64.
  OneMsPerStep cost;
  const std::vector<Request> two{{0.0, 32, 64}, {0.0, 32, 64}};
  const auto r = simulate(two, config(128, false), cost, every_step());
  ASSERT_EQ(r.completed, 2u);
  EXPECT_EQ(r.preemptions, 1);
  EXPECT_EQ(r.steps, 95);
  EXPECT_EQ(r.recomputed_tokens, 65);
  EXPECT_EQ(r.output_tokens, 128);
  EXPECT_EQ(r.per_request[0].generated_tokens, 64);
  EXPECT_EQ(r.per_request[1].generated_tokens, 64);
  EXPECT_EQ(r.per_request[0].preemptions, 0);
  EXPECT_EQ(r.per_request[1].preemptions, 1);
  EXPECT_NEAR(r.per_request[0].finish_s, 64e-3, 1e-12);
  EXPECT_NEAR(r.per_request[1].first_token_s, 1e-3, 1e-12);  // the first token is not re-timed
  EXPECT_NEAR(r.per_request[1].finish_s, 95e-3, 1e-12);
  EXPECT_EQ(r.series[32].kv_used_blocks, 8);   // step 33: the pool is full
  EXPECT_EQ(r.series[33].running, 1);          // step 34: B is out
  EXPECT_EQ(r.series[33].waiting, 1);
  EXPECT_EQ(r.series[64].prefill_tokens, 65);  // step 65: B's recomputation
  EXPECT_DOUBLE_EQ(r.kv_utilization_max, 1.0);
}

TEST(BatchSim, ChunkedPrefillSplitsALongPromptAtTheTokenBudget) {
  // 1000 prompt tokens, budget 256: chunks 256, 256, 256, 232 starting at 0, 256, 512, 768.
  // Causal pairs of a chunk of n at s: n s + n (n + 1) / 2:
  //   32,896; 65,536 + 32,896 = 98,432; 131,072 + 32,896 = 163,968; 178,176 + 27,028 = 205,204
  // (sum 500,500 = 1000 * 1001 / 2, the whole prompt's). KV moved: s + n = 256, 512, 768, 1000.
  // The first token comes out of step 4; step 5 decodes the second with context 1001.
  OneMsPerStep cost;
  const std::vector<Request> one{{0.0, 1000, 2}};
  const auto r = simulate(one, config(4096, true, 256), cost, every_step());
  ASSERT_EQ(cost.shapes.size(), 5u);
  const std::int64_t n[] = {256, 256, 256, 232}, pairs[] = {32896, 98432, 163968, 205204},
                     kv[] = {256, 512, 768, 1000};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(cost.shapes[i].prefill_tokens, n[i]) << "step " << i + 1;
    EXPECT_EQ(cost.shapes[i].prefill_attention_pairs, pairs[i]) << "step " << i + 1;
    EXPECT_EQ(cost.shapes[i].prefill_kv_tokens, kv[i]) << "step " << i + 1;
    EXPECT_EQ(cost.shapes[i].decode_seqs, 0);
  }
  EXPECT_EQ(cost.shapes[4].decode_seqs, 1);
  EXPECT_EQ(cost.shapes[4].kv_tokens_read, 1001);
  EXPECT_NEAR(r.ttft_ms.p50, 4.0, 1e-9);
  EXPECT_NEAR(r.e2e_ms.p50, 5.0, 1e-9);
}

TEST(BatchSim, ChunkedPrefillSharesTheBudgetWithDecodes) {
  // A: 100 prompt + 50 output at t = 0; B: 1000 prompt + 1 output at 1.5 ms. Budget 256.
  // Step 1 (0-1 ms) prefills A; step 2 (1-2 ms) decodes A; B is seen at the start of step 3
  // (t = 2 ms). Steps 3, 4, 5: A's decode + 255 of B's tokens; step 6: A + 235 (= 1000 - 765).
  // B's only token comes out at 6 ms: TTFT 4.5 ms. No step exceeds 256 tokens.
  OneMsPerStep cost;
  const std::vector<Request> reqs{{0.0, 100, 50}, {1.5e-3, 1000, 1}};
  const auto r = simulate(reqs, config(4096, true, 256), cost, every_step());
  ASSERT_EQ(r.completed, 2u);
  for (const auto& s : cost.shapes) EXPECT_LE(s.tokens(), 256);
  ASSERT_GE(cost.shapes.size(), 6u);
  EXPECT_EQ(cost.shapes[1].prefill_tokens, 0);
  for (int i = 2; i < 5; ++i) {
    EXPECT_EQ(cost.shapes[i].prefill_tokens, 255) << "step " << i + 1;
    EXPECT_EQ(cost.shapes[i].decode_seqs, 1) << "step " << i + 1;
  }
  EXPECT_EQ(cost.shapes[5].prefill_tokens, 235);
  EXPECT_NEAR(r.per_request[1].first_token_s - r.per_request[1].arrival_s, 4.5e-3, 1e-12);
  EXPECT_EQ(r.tpot_ms.n, 1u);  // B has one output token: no TPOT
  // A: 50 tokens in steps 1..50, no stall: TPOT 1 ms.
  EXPECT_NEAR(r.tpot_ms.p50, 1.0, 1e-9);
}

TEST(BatchSim, WithoutChunkingPromptsAreAdmittedWholeWhileTheyFitTheBudget) {
  // Three 100-token prompts at t = 0, budget 256: step 1 prefills two (200; the third
  // would make 300). Step 2: the two decode and the third is prefilled (the budget bounds
  // prefill tokens only when prompts are not chunked).
  OneMsPerStep cost;
  const std::vector<Request> three{{0.0, 100, 3}, {0.0, 100, 3}, {0.0, 100, 3}};
  const auto r = simulate(three, config(4096, false, 256), cost);
  ASSERT_EQ(r.completed, 3u);
  EXPECT_EQ(cost.shapes[0].prefill_tokens, 200);
  EXPECT_EQ(cost.shapes[0].decode_seqs, 0);
  EXPECT_EQ(cost.shapes[1].prefill_tokens, 100);
  EXPECT_EQ(cost.shapes[1].decode_seqs, 2);
  EXPECT_EQ(r.steps, 4);  // the third decodes its 2nd and 3rd tokens in steps 3 and 4
}

TEST(BatchSim, WithoutChunkingAPromptOfTheWholeBudgetJoinsARunningBatch) {
  // A decodes from step 2 on; B (exactly the 256-token budget) arrives at 1.5 ms and is
  // prefilled in step 3 beside A's decode: 257 tokens in that step. Had decodes counted
  // against the budget, B would wait until A finished (step 20): head-of-line blocking.
  OneMsPerStep cost;
  const std::vector<Request> reqs{{0.0, 100, 20}, {1.5e-3, 256, 1}};
  const auto r = simulate(reqs, config(4096, false, 256), cost, every_step());
  ASSERT_GE(cost.shapes.size(), 3u);
  EXPECT_EQ(cost.shapes[2].prefill_tokens, 256);
  EXPECT_EQ(cost.shapes[2].decode_seqs, 1);
  EXPECT_NEAR(r.per_request[1].finish_s, 3e-3, 1e-12);
}

TEST(BatchSim, WithoutChunkingAPromptLongerThanTheBudgetIsRejected) {
  // vLLM's non-chunked prompt limit: a 1000-token prompt cannot run in a 256-token step.
  OneMsPerStep cost;
  const std::vector<Request> reqs{{0.0, 1000, 2}, {0.0, 10, 2}};
  const auto r = simulate(reqs, config(4096, false, 256), cost, every_step());
  EXPECT_EQ(r.rejected, 1u);
  EXPECT_EQ(r.completed, 1u);
  EXPECT_TRUE(r.per_request[0].rejected);
}

TEST(BatchSim, ARequestThatCouldNeverFitThePoolIsRejected) {
  // 64 tokens = 4 blocks; 60 + 10 tokens peak at 69 KV tokens = 5 blocks.
  OneMsPerStep cost;
  const std::vector<Request> reqs{{0.0, 60, 10}, {0.0, 40, 10}};
  const auto r = simulate(reqs, config(64, true, 256), cost);
  EXPECT_EQ(r.rejected, 1u);
  EXPECT_EQ(r.completed, 1u);
}

TEST(BatchSim, TheWatermarkKeepsOnePercentOfBlocksFromAdmission) {
  // 100 blocks of 16; watermark 0.01 -> floor(1.0) = 1 block. 1501 + 100 tokens peak at
  // 1600 KV tokens = 100 blocks: fits without the watermark, never with it.
  OneMsPerStep cost;
  const std::vector<Request> one{{0.0, 1501, 100}};
  auto c = config(1600, true, 2048);
  EXPECT_EQ(simulate(one, c, cost).completed, 1u);
  c.watermark_fraction = 0.01;
  EXPECT_EQ(simulate(one, c, cost).rejected, 1u);
}

TEST(BatchSim, MaxNumSeqsCapsTheBatch) {
  // 10 requests at t = 0, at most 4 sequences: no step runs more than 4.
  OneMsPerStep cost;
  std::vector<Request> reqs(10, Request{0.0, 20, 30});
  auto c = config(1 << 16, true, 256);
  c.max_num_seqs = 4;
  const auto r = simulate(reqs, c, cost, every_step());
  EXPECT_EQ(r.completed, 10u);
  for (const auto& row : r.series) EXPECT_LE(row.running, 4);
  EXPECT_EQ(r.series[0].running, 4);
  EXPECT_EQ(r.series[0].waiting, 6);
}

TEST(BatchSim, IdleTimeBetweenArrivalsIsSkipped) {
  // Two 1-step requests (output 1) 10 s apart: each finishes 1 ms after it arrives.
  OneMsPerStep cost;
  const std::vector<Request> reqs{{0.0, 8, 1}, {10.0, 8, 1}};
  const auto r = simulate(reqs, config(1024, true), cost, every_step());
  EXPECT_EQ(r.steps, 2);
  EXPECT_NEAR(r.e2e_ms.max, 1.0, 1e-9);
  EXPECT_NEAR(r.simulated_s, 10.001, 1e-12);
  EXPECT_NEAR(r.busy_s, 2e-3, 1e-15);
  EXPECT_EQ(r.tpot_ms.n, 0u);
}

TEST(BatchSim, RejectsAConfigWhoseBudgetIsBelowMaxNumSeqs) {
  OneMsPerStep cost;
  const std::vector<Request> one{{0.0, 8, 1}};
  auto c = config(1024, true, 128);
  c.max_num_seqs = 256;
  try {
    simulate(one, c, cost);
    FAIL() << "expected tutor::UsageError";
  } catch (const tutor::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("max_batch_tokens"), std::string::npos) << e.what();
  }
}

TEST(BatchSim, RejectsRequestsOutOfTimeOrder) {
  OneMsPerStep cost;
  const std::vector<Request> reqs{{1.0, 8, 1}, {0.5, 8, 1}};
  EXPECT_THROW(simulate(reqs, config(1024, true), cost), tutor::UsageError);
}

TEST(BatchSim, SameSeedGivesIdenticalResults) {
  tutor::b06::SyntheticWorkload w;
  w.requests = 3000;
  w.arrival_rate_per_s = 40;
  w.prompt = {512, 1.0, 8192};
  w.output = {128, 1.0, 2048};
  w.seed = 42;
  const RooflineStepCost cost(round_gpu());
  auto c = config(200000, true, 512);
  c.watermark_fraction = 0.01;
  SimulationOptions o;
  o.series_every_steps = 7;
  const auto a = simulate(tutor::b06::generate_workload(w), c, cost, o);
  const auto b = simulate(tutor::b06::generate_workload(w), c, cost, o);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.preemptions, b.preemptions);
  EXPECT_EQ(a.ttft_ms.p99, b.ttft_ms.p99);   // bit-identical, not merely close
  EXPECT_EQ(a.tpot_ms.p50, b.tpot_ms.p50);
  EXPECT_EQ(a.e2e_ms.mean, b.e2e_ms.mean);
  EXPECT_EQ(a.kv_utilization_mean, b.kv_utilization_mean);
  ASSERT_EQ(a.series.size(), b.series.size());
  for (std::size_t i = 0; i < a.series.size(); ++i) {
    EXPECT_EQ(a.series[i].t_s, b.series[i].t_s);
    EXPECT_EQ(a.series[i].kv_used_tokens, b.series[i].kv_used_tokens);
  }
  EXPECT_EQ(a.completed + a.rejected, 3000u);
  w.seed = 43;
  const auto d = simulate(tutor::b06::generate_workload(w), c, cost, o);
  EXPECT_NE(a.e2e_ms.mean, d.e2e_ms.mean);
}

TEST(BatchSim, EveryRequestCompletesWithItsFullOutputUnderHeavyPreemption) {
  // A pool of 4096 tokens (256 blocks) under 500 requests at once: preemption is certain.
  // Conservation: every request's generated count equals its output length, and the total
  // is the sum of the output lengths.
  tutor::b06::SyntheticWorkload w;
  w.requests = 500;
  w.arrival_rate_per_s = std::numeric_limits<double>::infinity();
  w.prompt = {200, 0.8, 1500};
  w.output = {200, 0.8, 1500};
  w.seed = 5;
  const auto reqs = tutor::b06::generate_workload(w);
  OneMsPerStep cost;
  auto c = config(4096, true, 512);
  const auto r = simulate(reqs, c, cost, every_step());
  EXPECT_GT(r.preemptions, 0);
  std::int64_t expected_output = 0;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    if (r.per_request[i].rejected) continue;
    EXPECT_EQ(r.per_request[i].generated_tokens, reqs[i].output_tokens) << "request " << i;
    expected_output += reqs[i].output_tokens;
  }
  EXPECT_EQ(r.output_tokens, expected_output);
  EXPECT_EQ(r.completed + r.rejected, reqs.size());
  for (const auto& row : r.series) {
    EXPECT_LE(row.kv_used_blocks, 256);
    EXPECT_LE(row.kv_used_tokens, row.kv_used_blocks * 16);
    EXPECT_LE(row.prefill_tokens + row.decode_seqs, 512);
  }
}

TEST(BatchSim, TimeSeriesCsvHasTheHeaderAndOneLinePerSampledStep) {
  // The single request of 1000 + 5 tokens on a 1 ms/step model: 5 steps, sampled every 2nd
  // from the first: steps 1, 3, 5. Step 1 starts at 0 with 1000 tokens in 63 of 128 blocks.
  OneMsPerStep cost;
  const std::vector<Request> one{{0.0, 1000, 5}};
  SimulationOptions o;
  o.series_every_steps = 2;
  const auto r = simulate(one, config(2048, false), cost, o);
  ASSERT_EQ(r.series.size(), 3u);
  const std::string csv = tutor::b06::time_series_csv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), tutor::b06::kTimeSeriesCsvHeader);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_NE(csv.find("\n0,1,1,0,1000,63,0.4921875,1000,0\n"), std::string::npos) << csv;
}

TEST(BatchSim, ReportsProgressAndAFinalCall) {
  OneMsPerStep cost;
  const std::vector<Request> one{{0.0, 1000, 5}};
  SimulationOptions o;
  o.progress_every_steps = 2;
  std::vector<std::size_t> finished;
  o.progress = [&](const tutor::b06::SimulationProgress& p) { finished.push_back(p.finished); };
  simulate(one, config(2048, false), cost, o);
  // After steps 2 and 4 (nothing finished yet), then the final call (1 of 1).
  ASSERT_EQ(finished.size(), 3u);
  EXPECT_EQ(finished.back(), 1u);
}
