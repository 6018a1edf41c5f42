// C07: a whole node, Llama-3.1-70B on 8 x H100 SXM at bf16 (and its fp8 variants), against
// numbers derived by hand from the model card's shape, the H100 datasheet and vLLM's sizing.
//
// The hand derivation every test below draws on. The engine's start-up terms are given, not
// left to the --vllm profile (engine_defaults_test.cpp checks those against B06's kv): utilisation
// 0.90, activation reserve 1.26 GiB and non-torch 1.79 GiB, the figures of one vLLM V0 log
// (Meta-Llama-3-8B on an H100, vLLM pull 10511: "PyTorch activation peak memory 1.26GiB",
// "non_torch_memory 1.79GiB"), no CUDA graphs. The rest are C07's defaults: pages of 16 tokens,
// bandwidth efficiency 0.80, compute efficiency 0.70, context 4096, TP = 8:
//   parameters     70,553,706,496 (B05; Meta's 70.6B), of which the input embedding is
//                  128,256 x 8,192 = 1,050,673,152 and the decoder's linear layers
//                  12,079,595,520 (attention) + 56,371,445,760 (MLP) = 68,451,041,280
//   weights / GPU  one rank's share (B05 tensor_parallel.hpp): the 80 x 2 x 8192 + 8192 = 1,318,912
//                  RMSNorm scales whole, the rest split: (70,553,706,496 - 1,318,912) / 8 + 1,318,912
//                  = 8,820,367,360 parameters = 17,640,734,720 B
//   pool per GPU   79.22 GiB x 0.9 - 17,640,734,720 B - 1.26 GiB - 1.79 GiB
//                  = 55,639,997,284 B (51.82 GiB)
//   KV per token   2 x 80 x 8 x 128 x 2 B = 327,680 B; per GPU (1 of 8 KV heads) 40,960 B
//   pages          floor(55,639,997,284 / (16 x 40,960)) = 84,899 -> 1,358,384 tokens
//   B_pool         84,899 / (4096 / 16 = 256 pages per sequence) = 331 sequences
//   rates          3350 x 0.8 = 2680 GB/s; 989.5 x 0.7 = 692.65 TFLOP/s
//   weights read   (70,553,706,496 - 1,050,673,152) x 2 / 8 = 17,375,758,336 B -> 6.48349 ms
//   KV / sequence  327,680 x 4096 / 8 = 167,772,160 B -> 0.0626016 ms
//   all-reduce     160 per step x 15.0 us = 2.4 ms; per sequence 160 x 2 x 7/8 x 8192 x 2 B
//                  / 450 GB/s = 0.0101945 ms
//   B_slo(50 ms)   (50 - 2.4 - 6.48349) / (0.0626016 + 0.0101945) = 564.8 -> 564
//   compute check  (139.003 + 10.737) GFLOP / 8 / 692.65 TFLOP/s = 0.027023 ms per sequence:
//                  (50 - 2.4) / (0.027023 + 0.0101945) = 1279 > 564, so memory binds
//   t(B_pool)      2.4 + 6.48349 + 331 x 0.0727961 = 32.979 ms
#include "capstone.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tutor/cli.hpp"

namespace {

using tutor::UsageError;
using tutor::c07::Binding;
using tutor::c07::NodeRequest;
using tutor::c07::NodeSizing;
using tutor::c07::VariantSizing;

/// The reserves of the hand derivation above, given as a user would give them.
void give_v0_log_reserves(NodeRequest& r) {
  r.memory_utilization = 0.90;
  r.activation_reserve_bytes = 1.26 * tutor::b06::kGiB;
  r.non_torch_bytes = 1.79 * tutor::b06::kGiB;
  r.cuda_graph_bytes = 0;
}

NodeSizing llama70b_on_8_h100(double slo_ms) {
  NodeRequest r;
  r.gpus = 8;
  r.slo_ms = slo_ms;
  give_v0_log_reserves(r);
  return tutor::c07::size_node(tutor::b05::load_shipped_model("llama-3.1-70b"), tutor::c07::choose_gpu("h100"), r);
}

const VariantSizing& variant(const NodeSizing& n, const std::string& key) {
  for (const auto& v : n.variants)
    if (v.precision.key == key) return v;
  throw std::runtime_error("no variant " + key);
}

/// The one-line message of a UsageError size_node throws, or "" if it throws none.
std::string usage_error(const std::string& model, const std::string& gpu, NodeRequest r) {
  try {
    tutor::c07::size_node(tutor::b05::load_shipped_model(model), tutor::c07::choose_gpu(gpu), r);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(C07Node, Llama31_70B_On8xH100_KvPoolHoldsMillionsOfTokens) {
  const NodeSizing n = llama70b_on_8_h100(50);
  const VariantSizing& v = n.variants.front();
  EXPECT_EQ(n.replicas, 1);
  EXPECT_EQ(v.plan.kv_bytes_per_token_model, 327680);
  EXPECT_EQ(v.plan.kv_bytes_per_token_per_gpu, 40960);
  EXPECT_EQ(v.plan.pool.blocks, 84899);
  EXPECT_EQ(v.pool_tokens_node, 1358384);
  EXPECT_EQ(v.pool_sequences, 331);
}

TEST(C07Node, Llama31_70B_On8xH100_SloBatchMatchesTheHandDerivation) {
  const NodeSizing n = llama70b_on_8_h100(50);
  const VariantSizing& v = n.variants.front();
  EXPECT_NEAR(v.step.weight_bytes_read, 17375758336.0, 1);
  EXPECT_NEAR(v.step.weights_ms(), 6.48349, 1e-5);
  EXPECT_NEAR(v.step.kv_bytes_per_sequence, 167772160.0, 1);
  EXPECT_NEAR(v.step.kv_ms_per_sequence(), 0.0626016, 1e-7);
  EXPECT_NEAR(v.step.comm_fixed_us, 2400, 1e-9);
  EXPECT_NEAR(v.step.comm_per_sequence_us, 10.1945, 1e-3);
  EXPECT_NEAR(v.slo.memory_limit, 564.8, 0.05);
  EXPECT_NEAR(v.slo.compute_limit, 1279, 1);
  EXPECT_EQ(v.slo.batch, 564);
  EXPECT_STREQ(v.slo.limited_by, "memory");
  EXPECT_TRUE(std::isinf(v.slo.ridge_batch));  // 0.0626 ms of HBM > 0.0270 ms of compute per sequence
}

TEST(C07Node, Llama31_70B_On8xH100_SloCapsTheTokenBudgetFarBelowTheHbmPool) {
  // The classic finding in per-step tokens: a 50 ms step computes 564 tokens while HBM holds
  // 1,358,384: 564 / 1,358,384 = 4.15e-4, three to four orders of magnitude below the pool.
  const VariantSizing& v = llama70b_on_8_h100(50).variants.front();
  EXPECT_GE(v.pool_tokens_node, 1'000'000);
  EXPECT_LT(v.pool_tokens_node, 10'000'000);
  EXPECT_GE(v.slo.batch, 100);
  EXPECT_LT(v.slo.batch, 1000);
  EXPECT_GT(v.token_budget_fraction, 1e-4);
  EXPECT_LT(v.token_budget_fraction, 1e-3);
  EXPECT_NEAR(v.token_budget_fraction, 564.0 / 1358384.0, 1e-12);
}

TEST(C07Node, Llama31_70B_On8xH100_At50msThePoolBindsInKvTokensAndTheCrossoverIs33ms) {
  // In KV tokens, a 50 ms step may read 564 x 4096 = 2,310,144 tokens: 1.70x the pool. An H100
  // streams its weights and its whole pool in t(B_pool) = 32.98 ms, so at 50 ms the pool binds
  // first, by 564 / 331 = 1.70.
  const VariantSizing& v = llama70b_on_8_h100(50).variants.front();
  EXPECT_EQ(v.binds, Binding::hbm_pool);
  EXPECT_EQ(v.batch, 331);
  EXPECT_NEAR(v.binds_factor, 564.0 / 331.0, 1e-12);
  EXPECT_NEAR(v.kv_budget_ratio, 564.0 * 4096 / 1358384.0, 1e-12);
  EXPECT_NEAR(v.crossover_slo_ms, 32.979, 1e-3);
  // 331 sequences / 32.979 ms = 10,037 tokens/s for the node.
  EXPECT_NEAR(v.tokens_per_s_node, 331 / 32.979e-3, 1);
}

TEST(C07Node, Llama31_70B_On8xH100_ASloTighterThanTheCrossoverCapsKvFarBelowThePool) {
  // At 10 ms: (10 - 2.4 - 6.48349) / 0.0727961 = 15.3 -> 15 sequences, reading 15 x 4096 =
  // 61,440 KV tokens = 4.5% of the 1,358,384-token pool; the SLO binds by 331 / 15 = 22x.
  const VariantSizing& v = llama70b_on_8_h100(10).variants.front();
  EXPECT_EQ(v.slo.batch, 15);
  EXPECT_EQ(v.binds, Binding::slo);
  EXPECT_NEAR(v.binds_factor, 331.0 / 15.0, 1e-12);
  EXPECT_GT(v.kv_budget_ratio, 1e-2);
  EXPECT_LT(v.kv_budget_ratio, 1e-1);
}

TEST(C07Node, Llama31_70B_WeightOnlyFp8LowersTheStepByTheLinearWeightBytesSavedOverBandwidth) {
  // fp8 stores the 68,451,041,280 linear-layer parameters in 1 byte instead of 2: each of 8 GPUs
  // streams 68,451,041,280 / 8 = 8,556,380,160 B less, 8,556,380,160 / 2.68e12 B/s = 3.19268 ms.
  const NodeSizing n = llama70b_on_8_h100(50);
  const auto bf16 = tutor::c07::decode_step_time(variant(n, "bf16").step, 100);
  const auto fp8 = tutor::c07::decode_step_time(variant(n, "fp8-weights").step, 100);
  EXPECT_FALSE(bf16.compute_bound());
  EXPECT_FALSE(fp8.compute_bound());
  EXPECT_NEAR(bf16.total_ms - fp8.total_ms, 3.19268, 1e-5);
  // Compute is unchanged: weight-only quantisation keeps the matmuls in bf16.
  EXPECT_DOUBLE_EQ(bf16.compute_ms, fp8.compute_ms);
}

TEST(C07Node, Llama31_70B_Fp8KvDoublesThePoolAndW8A8BuysNothingInAMemoryBoundDecode) {
  const NodeSizing n = llama70b_on_8_h100(50);
  // Same pool bytes, half the bytes per token: floor(55,639,997,284 / (16 x 20,480)) = 169,799
  // pages -> 2,716,784 tokens.
  EXPECT_EQ(variant(n, "fp8-kv").pool_tokens_node, 2716784);
  // W8A8 doubles the matmul rate, but at B = 331 decode is memory-bound (24.0 ms of HBM time
  // against 4.9 ms of compute with fp8 weights), so its step equals weight-only fp8's.
  const auto w8a16 = tutor::c07::decode_step_time(variant(n, "fp8-weights").step, 331);
  const auto w8a8 = tutor::c07::decode_step_time(variant(n, "w8a8").step, 331);
  EXPECT_FALSE(w8a8.compute_bound());
  EXPECT_LT(w8a8.compute_ms, w8a16.compute_ms);
  EXPECT_DOUBLE_EQ(w8a8.total_ms, w8a16.total_ms);
}

TEST(C07Node, W8A8IsNotApplicableOnAGpuWithoutFp8TensorCores) {
  NodeRequest r;
  r.gpus = 1;
  r.slo_ms = 50;
  const NodeSizing n =
      tutor::c07::size_node(tutor::b05::load_shipped_model("llama-3.1-8b"), tutor::c07::choose_gpu("a100-80gb"), r);
  EXPECT_TRUE(variant(n, "fp8-weights").applicable);  // weight-only fp8 only needs storage
  EXPECT_FALSE(variant(n, "w8a8").applicable);
  EXPECT_NE(variant(n, "w8a8").not_applicable_why.find("fp8"), std::string::npos);
}

TEST(C07Node, BadInputsNameTheOption) {
  NodeRequest r;
  r.gpus = 8;
  r.slo_ms = 50;
  NodeRequest tp = r;
  tp.tp = 3;
  EXPECT_NE(usage_error("llama-3.1-70b", "h100", tp).find("--tp"), std::string::npos);
  NodeRequest context = r;
  context.context = 131073;  // max_position_embeddings 131,072
  EXPECT_NE(usage_error("llama-3.1-70b", "h100", context).find("--context"), std::string::npos);
  NodeRequest efficiency = r;
  efficiency.bandwidth_efficiency = 1.2;
  EXPECT_NE(usage_error("llama-3.1-70b", "h100", efficiency).find("--bandwidth-efficiency"), std::string::npos);
  NodeRequest slo = r;
  slo.slo_ms = 0;
  EXPECT_NE(usage_error("llama-3.1-70b", "h100", slo).find("--slo-ms"), std::string::npos);
  EXPECT_THROW(tutor::c07::choose_gpu("h900"), UsageError);
  EXPECT_THROW(tutor::b05::load_model_option("llama-9", ""), UsageError);
}

}  // namespace
