// C07: one decode step and the SLO-bound batch on made-up numbers small enough to check by
// hand. Every expected value is derived in the comment beside it, never from the code.
#include "capstone.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tutor/cli.hpp"

namespace {

using tutor::UsageError;
using tutor::c07::decode_step_time;
using tutor::c07::DecodeStepModel;
using tutor::c07::slo_batch;

/// 10 GB of weights, 0.3 GB of KV per sequence, 1 GFLOP per sequence; 1000 GB/s and
/// 1000 TFLOP/s. Per step: weights 10e9 / 1e12 = 10 ms; per sequence: KV 0.3e9 / 1e12 = 0.3 ms,
/// compute 1e9 / 1e15 = 0.001 ms. Memory-bound at every batch.
DecodeStepModel memory_bound_case() {
  DecodeStepModel m;
  m.weight_bytes_read = 10e9;
  m.kv_bytes_per_sequence = 0.3e9;
  m.linear_flops_per_sequence = 1e9;
  m.attention_flops_per_sequence = 0;
  m.bandwidth_GBps = 1000;
  m.compute_TFLOPs = 1000;
  m.context = 1000;
  return m;
}

/// 1 GB of weights, 1 MB of KV per sequence, 0.1 TFLOP per sequence at 100 TFLOP/s and
/// 1000 GB/s. Per step: weights 1 ms; per sequence: KV 1e6 / 1e12 = 0.001 ms, compute
/// 0.1e12 / 1e14 = 1 ms. Compute-bound from B = 1 on.
DecodeStepModel compute_bound_case() {
  DecodeStepModel m;
  m.weight_bytes_read = 1e9;
  m.kv_bytes_per_sequence = 1e6;
  m.linear_flops_per_sequence = 0.1e12;
  m.attention_flops_per_sequence = 0;
  m.bandwidth_GBps = 1000;
  m.compute_TFLOPs = 100;
  m.context = 1000;
  return m;
}

TEST(C07SloBatch, MemoryBoundBMaxIsTheClosedForm) {
  const DecodeStepModel m = memory_bound_case();
  const auto s = slo_batch(m, 50);
  // B_max = (SLO - W/BW) / (KV/BW) = (50 - 10) / 0.3 = 133.33 -> 133.
  EXPECT_NEAR(s.memory_limit, 133.333333, 1e-5);
  // Compute roof: 50 / 0.001 = 50,000 sequences: far away.
  EXPECT_NEAR(s.compute_limit, 50000, 1e-6);
  EXPECT_EQ(s.batch, 133);
  EXPECT_STREQ(s.limited_by, "memory");
  // t(133) = 10 + 133 x 0.3 = 49.9 ms <= 50; t(134) = 10 + 40.2 = 50.2 ms > 50.
  EXPECT_NEAR(s.at_batch.total_ms, 49.9, 1e-9);
  EXPECT_NEAR(s.above_batch.total_ms, 50.2, 1e-9);
  EXPECT_FALSE(s.at_batch.compute_bound());
  // A sequence costs 0.3 ms of HBM and 0.001 ms of compute: the roofs never cross.
  EXPECT_TRUE(std::isinf(s.ridge_batch));
}

TEST(C07SloBatch, ComputeRoofLimitsWhenEachSequenceCostsMoreFlopTimeThanByteTime) {
  const DecodeStepModel m = compute_bound_case();
  const auto s = slo_batch(m, 50.5);
  // compute: 50.5 / 1 = 50.5 -> 50; memory: (50.5 - 1) / 0.001 = 49,500.
  EXPECT_NEAR(s.compute_limit, 50.5, 1e-9);
  EXPECT_NEAR(s.memory_limit, 49500, 1e-6);
  EXPECT_EQ(s.batch, 50);
  EXPECT_STREQ(s.limited_by, "compute");
  // Roofs cross where 1 + 0.001 B = B: B = 1 / 0.999 = 1.001.
  EXPECT_NEAR(s.ridge_batch, 1.0 / 0.999, 1e-9);
  // t(50) = max(1.05, 50) = 50 ms.
  EXPECT_NEAR(s.at_batch.total_ms, 50, 1e-9);
  EXPECT_TRUE(s.at_batch.compute_bound());
}

TEST(C07SloBatch, OverheadAndAllReduceComeOffTheBudget) {
  DecodeStepModel m = memory_bound_case();
  m.overhead_us = 1000;          // 1 ms per step
  m.comm_fixed_us = 2000;        // 2 ms of all-reduce latency per step
  m.comm_per_sequence_us = 100;  // 0.1 ms of all-reduce transfer per sequence
  const auto s = slo_batch(m, 50);
  // (50 - 1 - 2 - 10) / (0.3 + 0.1) = 37 / 0.4 = 92.5 -> 92.
  EXPECT_NEAR(s.memory_limit, 92.5, 1e-9);
  EXPECT_EQ(s.batch, 92);
  // t(92) = 10 + 27.6 (KV) + 1 + 2 + 9.2 (all-reduce) = 49.8 ms.
  EXPECT_NEAR(s.at_batch.total_ms, 49.8, 1e-9);
  EXPECT_NEAR(s.at_batch.comm_ms, 11.2, 1e-9);
}

TEST(C07SloBatch, NoSequenceFitsWhenStreamingTheWeightsAloneMissesTheSlo) {
  DecodeStepModel m = memory_bound_case();
  m.weight_bytes_read = 60e9;  // 60 GB at 1000 GB/s = 60 ms > 50 ms
  const auto s = slo_batch(m, 50);
  EXPECT_EQ(s.memory_limit, 0);  // no room: 0 sequences, not a negative batch
  EXPECT_EQ(s.batch, 0);
}

TEST(C07SloBatch, RejectsANonPositiveSloNamingTheOption) {
  try {
    slo_batch(memory_bound_case(), 0);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--slo-ms"), std::string::npos) << e.what();
  }
}

TEST(C07DecodeStep, RejectsAZeroBandwidthNamingTheField) {
  DecodeStepModel m = memory_bound_case();
  m.bandwidth_GBps = 0;
  try {
    decode_step_time(m, 1);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("bandwidth_GBps"), std::string::npos) << e.what();
  }
}

TEST(C07DecodeStep, WeightOnlyFp8LowersAMemoryBoundStepByExactlyTheWeightBytesSavedOverBandwidth) {
  DecodeStepModel bf16 = memory_bound_case();
  DecodeStepModel fp8 = bf16;
  fp8.weight_bytes_read = 5e9;  // the same weights at 1 byte instead of 2
  const auto a = decode_step_time(bf16, 100);
  const auto b = decode_step_time(fp8, 100);
  // bf16: 10 + 100 x 0.3 = 40 ms; fp8: 5 + 30 = 35 ms; saved 5e9 B / 1e12 B/s = 5 ms.
  EXPECT_NEAR(a.total_ms, 40, 1e-9);
  EXPECT_NEAR(b.total_ms, 35, 1e-9);
  EXPECT_NEAR(a.total_ms - b.total_ms, (bf16.weight_bytes_read - fp8.weight_bytes_read) / 1e12 * 1e3, 1e-9);
  EXPECT_FALSE(b.compute_bound());
}

TEST(C07DecodeStep, W8A8WithFp8KvOnAComputeBoundStepLeavesTheBindingRoofUnchanged) {
  const DecodeStepModel bf16 = compute_bound_case();
  DecodeStepModel all_fp8 = bf16;  // every byte halved, the tensor-core rate doubled
  all_fp8.weight_bytes_read /= 2;
  all_fp8.kv_bytes_per_sequence /= 2;
  all_fp8.compute_TFLOPs *= 2;
  const auto a = decode_step_time(bf16, 50);
  const auto b = decode_step_time(all_fp8, 50);
  // bf16: memory 1 + 50 x 0.001 = 1.05 ms, compute 50 x 1 = 50 ms: compute-bound.
  EXPECT_NEAR(a.memory_ms, 1.05, 1e-9);
  EXPECT_NEAR(a.compute_ms, 50, 1e-9);
  EXPECT_TRUE(a.compute_bound());
  // fp8: memory 0.525 ms, compute 25 ms: both roofs halve, the same one binds, the step halves.
  EXPECT_NEAR(b.memory_ms, 0.525, 1e-9);
  EXPECT_NEAR(b.compute_ms, 25, 1e-9);
  EXPECT_TRUE(b.compute_bound());
  EXPECT_NEAR(b.total_ms, a.total_ms / 2, 1e-9);
  // Intensity (FLOP/B) and ridge (peak / BW) both double: the step stays on the same side.
  EXPECT_NEAR(b.arithmetic_intensity(), 2 * a.arithmetic_intensity(), 1e-9);
  EXPECT_NEAR(tutor::c07::ridge_point(all_fp8), 2 * tutor::c07::ridge_point(bf16), 1e-9);

  // W8A8 with the KV left in bf16 halves the weights and doubles the rate: still compute-bound
  // here (memory 0.5 + 0.05 = 0.55 ms against 25 ms of compute).
  DecodeStepModel w8a8 = bf16;
  w8a8.weight_bytes_read /= 2;
  w8a8.compute_TFLOPs *= 2;
  EXPECT_TRUE(decode_step_time(w8a8, 50).compute_bound());
}

TEST(C07DecodeStep, WeightOnlyFp8CanMoveAMemoryBoundStepToComputeBoundWhileW8A8Cannot) {
  // 10 GB of weights, 10 MB of KV and 0.08 TFLOP per sequence; 1000 GB/s, 1000 TFLOP/s.
  DecodeStepModel bf16;
  bf16.weight_bytes_read = 10e9;
  bf16.kv_bytes_per_sequence = 10e6;
  bf16.linear_flops_per_sequence = 0.08e12;
  bf16.bandwidth_GBps = 1000;
  bf16.compute_TFLOPs = 1000;
  bf16.context = 100;
  // B = 100: memory 10 + 100 x 0.01 = 11 ms, compute 100 x 0.08 = 8 ms: memory-bound.
  const auto a = decode_step_time(bf16, 100);
  EXPECT_NEAR(a.memory_ms, 11, 1e-9);
  EXPECT_NEAR(a.compute_ms, 8, 1e-9);
  EXPECT_FALSE(a.compute_bound());

  // Weight-only fp8 (compute stays bf16): memory 5 + 1 = 6 ms < compute 8 ms. The roof moved,
  // and the step saves 11 - 8 = 3 ms, not the 5 ms the weight bytes alone would suggest.
  DecodeStepModel w8a16 = bf16;
  w8a16.weight_bytes_read = 5e9;
  const auto b = decode_step_time(w8a16, 100);
  EXPECT_TRUE(b.compute_bound());
  EXPECT_NEAR(b.total_ms, 8, 1e-9);

  // W8A8 halves the weights and doubles the rate: memory 6 ms, compute 4 ms: still memory-bound.
  DecodeStepModel w8a8 = w8a16;
  w8a8.compute_TFLOPs = 2000;
  const auto c = decode_step_time(w8a8, 100);
  EXPECT_FALSE(c.compute_bound());
  EXPECT_NEAR(c.total_ms, 6, 1e-9);
}

TEST(C07AllReduce, NcclRingLatencyModelForEightGpus) {
  // baseLat 6.6 us + 2 (p - 1) x 0.6 us: p = 8 -> 6.6 + 14 x 0.6 = 15.0 us; p = 2 -> 7.8 us.
  EXPECT_NEAR(tutor::c07::nccl_ring_allreduce_latency_us(8), 15.0, 1e-12);
  EXPECT_NEAR(tutor::c07::nccl_ring_allreduce_latency_us(2), 7.8, 1e-12);
  EXPECT_EQ(tutor::c07::nccl_ring_allreduce_latency_us(1), 0);
}

}  // namespace
