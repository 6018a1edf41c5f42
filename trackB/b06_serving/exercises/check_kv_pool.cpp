// B06 exercise "kv_pool": checks exercise::kv_pool (kv_pool.cpp, or the worked solution) against
// the planner, tutor::b06::plan_kv, given the same start-up numbers (the reserves as the log
// printed them, so nothing is modelled): KV heads per GPU, pages per GPU, the node's tokens and
// its sequences.
//   1. the cases that trip people up, each named by its trap;
//   2. every shipped config on eight 141 GB-class GPUs at TP 1 and TP 8 (where the heads split);
//   3. random start-ups (GPU total, utilisation, reserves, page, TP, dtypes, context), from --seed.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kv_planner.hpp"
#include "kv_pool.hpp"
#include "model.hpp"
#include "tutor/exercise.hpp"
#include "tutor/hardware.hpp"

namespace tutor::b06 {
namespace {

using exercise::EngineStartup;

/// vLLM's rule: query heads split evenly; KV heads split evenly or replicate evenly.
bool splits(const b05::ModelConfig& m, int tp) {
  if (m.num_heads % tp != 0) return false;
  if (m.is_mla()) return true;
  return m.num_kv_heads >= tp ? m.num_kv_heads % tp == 0 : tp % m.num_kv_heads == 0;
}

double runtime_total(const char* gpu) { return gpu_memory(*hw::find_gpu(gpu)).total_bytes; }

void compare(tutor::exercise::Checker& ck, const std::string& name, const b05::ModelConfig& m, const EngineStartup& s) {
  KvPlanRequest r;
  r.memory.total_bytes = s.total_memory_bytes;
  r.gpus = s.gpus;
  r.tp = s.tp;
  r.weight_bytes_per_param = s.weight_bytes_per_param;
  r.kv_bytes_per_element = s.kv_bytes_per_element;
  r.memory_utilization = s.memory_utilization;
  r.activation_reserve_bytes = s.activation_bytes;
  r.non_torch_bytes = s.non_torch_bytes;
  r.cuda_graph_bytes = s.cuda_graph_bytes;
  r.block_size = s.block_size;
  r.context = s.context;
  const KvPlan plan = plan_kv(m, r);
  const nlohmann::json parts = {{"kv_heads_per_gpu", plan.kv_heads_per_gpu},
                                {"blocks", plan.pool.blocks},
                                {"tokens_node", plan.tokens_total},
                                {"max_sequences", plan.max_sequences}};
  if (auto got = ck.attempt(name, parts, [&] { return exercise::kv_pool(m, s); })) {
    ck.integer(name + ": KV heads per GPU", plan.kv_heads_per_gpu, got->kv_heads_per_gpu);
    ck.integer(name + ": pages per GPU", plan.pool.blocks, got->blocks);
    ck.integer(name + ": tokens of the node", plan.tokens_total, got->tokens_node);
    ck.integer(name + ": sequences of the node", plan.max_sequences, got->max_sequences);
  }
}

/// A start-up on `gpus` GPUs of `total` bytes, with V0-log-sized reserves (1.26 GiB activation,
/// 1.79 GiB non-torch) unless the case changes them.
EngineStartup startup(double total, int gpus, int tp, std::int64_t context) {
  EngineStartup s;
  s.total_memory_bytes = total;
  s.gpus = gpus;
  s.tp = tp;
  s.context = context;
  s.activation_bytes = kDefaultActivationReserveGiB * kGiB;
  s.non_torch_bytes = kDefaultNonTorchGiB * kGiB;
  return s;
}

void add_cases(tutor::exercise::Checker& ck, std::uint64_t seed) {
  const double h100 = runtime_total("h100"), h200 = runtime_total("h200");
  // 1. The traps.
  const b05::ModelConfig llama8 = b05::load_shipped_model("llama-3.1-8b");
  compare(ck, "one GPU, 8k tokens: llama-3.1-8b on an H100", llama8, startup(h100, 1, 1, 8192));
  compare(ck, "KV heads split 8 / 8: llama-3.1-8b at TP 8", llama8, startup(h100, 8, 8, 8192));
  compare(ck, "8 KV heads over TP 16: replicated, 1 per GPU: llama-3.1-8b", llama8, startup(h100, 16, 16, 8192));
  compare(ck, "MQA (1 KV head) at TP 4: every GPU stores it: gemma-2b", b05::load_shipped_model("gemma-2b"),
          startup(h100, 4, 4, 8192));
  const b05::ModelConfig dsv3 = b05::load_shipped_model("deepseek-v3");
  EngineStartup dsv3_fp8 = startup(h200, 8, 8, 32768);
  dsv3_fp8.weight_bytes_per_param = 1;
  compare(ck, "MLA at TP 8: the latent is whole on every GPU: deepseek-v3 fp8 weights", dsv3, dsv3_fp8);
  compare(ck, "weights leave no page: llama-3.1-405b bf16 on one H200", b05::load_shipped_model("llama-3.1-405b"),
          startup(h200, 1, 1, 4096));
  compare(ck, "context past max_position_embeddings: llama-2-7b at 8192 tokens", b05::load_shipped_model("llama-2-7b"),
          startup(h100, 1, 1, 8192));
  compare(ck, "one sequence needs more pages than the pool: llama-3.1-70b TP 2 at 131072 tokens",
          b05::load_shipped_model("llama-3.1-70b"), startup(h100, 2, 2, 131072));
  const b05::ModelConfig mistral = b05::load_shipped_model("mistral-7b");
  compare(ck, "sliding window caps a sequence's pages: mistral-7b at 32768 tokens", mistral, startup(h100, 1, 1, 32768));
  EngineStartup odd_page = startup(h100, 1, 1, 1000);
  odd_page.block_size = 32;
  odd_page.kv_bytes_per_element = 1;
  compare(ck, "32-token pages, fp8 KV, 1000 tokens (not a multiple of the page): mistral-7b", mistral, odd_page);
  EngineStartup v021 = startup(h200, 8, 4, 16384);
  v021.memory_utilization = 0.92;
  v021.cuda_graph_bytes = 0.5 * kGiB;
  compare(ck, "two replicas of TP 4, utilisation 0.92, CUDA graphs 0.5 GiB: qwen2.5-7b",
          b05::load_shipped_model("qwen2.5-7b"), v021);
  compare(ck, "a multimodal checkpoint loads its vision tower too: gemma-3-27b-it",
          b05::load_shipped_model("gemma-3-27b-it"), startup(h200, 1, 1, 8192));
  compare(ck, "5 local : 1 global layers: gemma-3-27b at TP 2, 131072 tokens", b05::load_shipped_model("gemma-3-27b"),
          startup(h200, 2, 2, 131072));

  // 2. Every shipped config.
  for (const std::string& stem : b05::shipped_models()) {
    const b05::ModelConfig m = b05::load_shipped_model(stem);
    const std::int64_t context = m.max_position_embeddings > 0 ? std::min<std::int64_t>(8192, m.max_position_embeddings)
                                                               : 8192;
    for (const int tp : {1, 8})
      if (splits(m, tp))
        compare(ck, fmt::format("{} on 8 H200, TP {}, {} tokens", stem, tp, context), m, startup(h200, 8, tp, context));
  }

  // 3. Random start-ups.
  std::mt19937_64 rng(seed);
  const std::vector<std::string> stems = b05::shipped_models();
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * std::uniform_real_distribution<double>(0, 1)(rng); };
  for (int i = 0; i < 60; ++i) {
    const std::string& stem = stems[rng() % stems.size()];
    const b05::ModelConfig m = b05::load_shipped_model(stem);
    std::vector<int> tps;
    for (const int tp : {1, 2, 4, 8, 16})
      if (splits(m, tp)) tps.push_back(tp);
    const int tp = tps[rng() % tps.size()];
    EngineStartup s = startup(uniform(16, 300) * kGiB, tp * static_cast<int>(1 + rng() % 4), tp,
                              1 + static_cast<std::int64_t>(rng() % 140000));
    s.memory_utilization = uniform(0.3, 1.0);
    s.activation_bytes = uniform(0, 8) * kGiB;
    s.non_torch_bytes = uniform(0, 4) * kGiB;
    s.cuda_graph_bytes = rng() % 2 ? uniform(0, 2) * kGiB : 0;
    s.block_size = std::vector<int>{1, 8, 16, 32, 128}[rng() % 5];
    s.weight_bytes_per_param = std::vector<double>{0.5, 1, 2}[rng() % 3];
    s.kv_bytes_per_element = std::vector<double>{1, 2}[rng() % 2];
    compare(ck, fmt::format("random {}: {} on {} x {:.1f} GiB, TP {}, page {}, {} tokens", i, stem, s.gpus,
                            s.total_memory_bytes / kGiB, tp, s.block_size, s.context),
            m, s);
  }
}

}  // namespace
}  // namespace tutor::b06

int main(int argc, char** argv) {
  return tutor::exercise::run_checker(
      argc, argv,
      {"b06_exercise_kv_pool", "B06", "kv_pool", "kv_pool(model, startup)", "trackB/b06_serving/exercises/kv_pool.cpp",
       "tutor::b06::plan_kv (kv_planner.hpp) with the same reserves"},
      tutor::b06::add_cases);
}
