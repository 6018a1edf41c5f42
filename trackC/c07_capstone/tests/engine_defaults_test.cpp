// C07 sizes its KV pool with B06's planner and the same defaults as `b06_serving kv`: every
// start-up term left unset (utilisation, activation peak, non-torch memory, CUDA graphs) is the
// --vllm release profile's value, and the profiling pass runs at the scheduler defaults for the
// GPU. So for the same model, GPU and TP, C07's per-GPU pool is B06's to the byte.
//
// The reference is plan_kv on a request that sets only what B06's kv sets without options
// (b06_serving.cpp, plan_from_options): the GPU's memory and name, --gpus, --tp, bf16 weights and
// KV, the default profile. Under the V1 profiles the context does not enter the pool (the
// profiling batch is the scheduler default, not max_model_len), so B06's default context (the
// model's max_position_embeddings) and C07's (4096) size the same pool.
#include "capstone.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "tutor/cli.hpp"

namespace {

using tutor::c07::NodeRequest;
using tutor::c07::NodeSizing;

struct Case {
  const char* model;
  const char* gpu;
  int tp;
};

tutor::b06::KvPlan b06_kv_defaults(const tutor::b05::ModelConfig& m, const tutor::c07::GpuChoice& g, int tp) {
  tutor::b06::KvPlanRequest r;
  r.memory = g.memory;
  r.gpus = tp;
  r.tp = tp;
  r.gpu_name = g.name;
  return tutor::b06::plan_kv(m, r);
}

NodeSizing c07_defaults(const tutor::b05::ModelConfig& m, const tutor::c07::GpuChoice& g, int tp) {
  NodeRequest r;
  r.gpus = tp;
  r.slo_ms = 50;
  return tutor::c07::size_node(m, g, r);
}

class C07EngineDefaults : public ::testing::TestWithParam<Case> {};

TEST_P(C07EngineDefaults, PerGpuPoolIsB06KvPool) {
  const Case c = GetParam();
  const auto m = tutor::b05::load_shipped_model(c.model);
  const auto g = tutor::c07::choose_gpu(c.gpu);
  const tutor::b06::KvPlan b06 = b06_kv_defaults(m, g, c.tp);
  const NodeSizing n = c07_defaults(m, g, c.tp);
  const tutor::b06::KvPlan& c07 = n.variants.front().plan;
  // The same terms, each from the same profile...
  EXPECT_EQ(c07.engine.name, tutor::b06::kDefaultEngineProfile);
  EXPECT_DOUBLE_EQ(c07.pool_inputs.memory_utilization, b06.pool_inputs.memory_utilization);
  EXPECT_DOUBLE_EQ(c07.pool_inputs.activation_bytes, b06.pool_inputs.activation_bytes);
  EXPECT_DOUBLE_EQ(c07.pool_inputs.non_torch_bytes, b06.pool_inputs.non_torch_bytes);
  EXPECT_DOUBLE_EQ(c07.pool_inputs.cuda_graph_bytes, b06.pool_inputs.cuda_graph_bytes);
  EXPECT_EQ(c07.scheduler.max_num_batched_tokens, b06.scheduler.max_num_batched_tokens);
  EXPECT_EQ(c07.scheduler.max_num_seqs, b06.scheduler.max_num_seqs);
  EXPECT_TRUE(c07.activation_modelled);
  // ...so the same pool: the weights per GPU agree to rounding (C07 gives B06 bytes per parameter
  // as its resident bytes over the parameter count), the pages exactly.
  EXPECT_NEAR(c07.weight_bytes_per_gpu, b06.weight_bytes_per_gpu, 1.0);
  EXPECT_NEAR(c07.pool.pool_bytes, b06.pool.pool_bytes, 1.0);
  EXPECT_GT(b06.pool.blocks, 0);
  EXPECT_EQ(c07.pool.blocks, b06.pool.blocks);
  EXPECT_EQ(c07.pool.tokens, b06.pool.tokens);
  // Every term is reported as the profile's, none as given.
  for (const auto& t : tutor::c07::engine_terms(n)) {
    EXPECT_FALSE(t.given) << t.key;
    EXPECT_NE(t.source.find("vLLM v0.19 profile"), std::string::npos) << t.key << ": " << t.source;
  }
}

// One dense model (Llama-3.1-8B, GQA) and one MoE with MLA (DeepSeek-V2-Lite), at TP 1 and TP 8
// (the non-torch figure differs: the v0.19 logs' 0.25 GiB at TP=1, 2.07 GiB at TP>1), on the two
// GPUs of the scheduler rule's large class.
INSTANTIATE_TEST_SUITE_P(DenseAndMoeMla, C07EngineDefaults,
                         ::testing::Values(Case{"llama-3.1-8b", "h100", 1}, Case{"llama-3.1-8b", "h100", 8},
                                           Case{"deepseek-v2-lite", "h100", 1}, Case{"deepseek-v2-lite", "h100", 8},
                                           Case{"llama-3.1-8b", "h200", 1}, Case{"deepseek-v2-lite", "h200", 8}),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           std::string name = std::string(i.param.model) + "_" + i.param.gpu + "_tp" +
                                              std::to_string(i.param.tp);
                           for (auto& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(C07EngineDefaults, NonTorchIsTheProfilesFigureForTheTpDegree) {
  // vLLM v0.19's logs (B06 engine_profile.cpp): 0.25 GiB at TP=1, 2.07 GiB per GPU at TP>1.
  const auto m = tutor::b05::load_shipped_model("llama-3.1-8b");
  const auto g = tutor::c07::choose_gpu("h100");
  EXPECT_DOUBLE_EQ(c07_defaults(m, g, 1).variants.front().plan.pool_inputs.non_torch_bytes, 0.25 * tutor::b06::kGiB);
  EXPECT_DOUBLE_EQ(c07_defaults(m, g, 8).variants.front().plan.pool_inputs.non_torch_bytes, 2.07 * tutor::b06::kGiB);
}

TEST(C07EngineDefaults, AGivenTermOverridesTheProfileAndIsReportedAsGiven) {
  const auto m = tutor::b05::load_shipped_model("llama-3.1-8b");
  const auto g = tutor::c07::choose_gpu("h100");
  NodeRequest r;
  r.gpus = 1;
  r.slo_ms = 50;
  r.non_torch_bytes = 1.0 * tutor::b06::kGiB;
  const NodeSizing n = tutor::c07::size_node(m, g, r);
  EXPECT_DOUBLE_EQ(n.variants.front().plan.pool_inputs.non_torch_bytes, 1.0 * tutor::b06::kGiB);
  for (const auto& t : tutor::c07::engine_terms(n)) {
    EXPECT_EQ(t.given, t.key == "non_torch") << t.key;
    if (t.given) {
      EXPECT_EQ(t.source, "given");
    }
  }
}

TEST(C07EngineDefaults, VllmPicksTheReleaseProfile) {
  // v0.21: utilisation 0.92 (pull 38284) and a CUDA-graph estimate of 0.84 GiB (engine_profile.cpp).
  const auto m = tutor::b05::load_shipped_model("llama-3.1-8b");
  const auto g = tutor::c07::choose_gpu("h100");
  NodeRequest r;
  r.gpus = 1;
  r.slo_ms = 50;
  r.vllm = "v0.21";
  const auto& in = tutor::c07::size_node(m, g, r).variants.front().plan.pool_inputs;
  EXPECT_DOUBLE_EQ(in.memory_utilization, 0.92);
  EXPECT_DOUBLE_EQ(in.cuda_graph_bytes, 0.84 * tutor::b06::kGiB);
  r.vllm = "v9";
  EXPECT_THROW(tutor::c07::size_node(m, g, r), tutor::UsageError);
}

}  // namespace
