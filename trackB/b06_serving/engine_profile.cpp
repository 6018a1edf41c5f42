#include "engine_profile.hpp"

#include <stdexcept>

namespace tutor::b06 {
namespace {

// Sampler bytes per logit entry: (activation peak - the kept hidden states) / (max_num_seqs x
// vocab) in each release's logs; kv_planner_test.cpp derives every one.
//   V0 and V1 v0.10: 38.3 B (v0.10-era H100 logs of Llama-3.1-8B 38.4, Qwen3-0.6B 38.3, Qwen3-32B
//     38.4, gpt-oss-20b 38.3 at 1024 sequences; the V0 logs agree: Meta-Llama-3-8B on an H100 at
//     256 sequences 39.2).
//   V1 v0.19.0: 14.8 B (Llama-3.1-8B 14.9, Qwen3-8B 14.8, Qwen2.5-7B 14.9, Gemma-2-9B 14.6 at 1024
//     sequences on an H100).
// Non-torch memory at TP=1 / TP>1: V0 0.10 / 0.25 GiB (A100 40GB 0.10, 2x RTX 4090 0.25; the RTX
//   3090 log has 0.35 and the H100 log of pull 10511 1.79 GiB, the outlier); v0.10 0.13 / 0.55 GiB
//   (llm-d-benchmark page); v0.19 0.25 / 2.07 GiB (llm-d-planner v0.19.0 report).
const EngineProfile kProfiles[] = {
    {"v0.6", "V0", 0.90, 38.3, 0.10, 0.25, 0, true,
     "vLLM V0 start-up logs of Dec 2024 - Feb 2025: github.com/vllm-project/vllm/pull/10511 (H100), issues/10517 "
     "(RTX 3090), issues/12330 (A100 40GB), issues/13061 (2x RTX 4090); batch rule of "
     "vllm/engine/arg_utils.py (v0.6): max(max_model_len, 2048) tokens without chunked prefill, 256 sequences"},
    {"v0.10", "V1", 0.90, 38.3, 0.13, 0.55, 0, false,
     "vLLM V1 start-up logs of the v0.10 era: github.com/llm-d/llm-d-benchmark config_explorer/"
     "empirical-vllm-memory-results.md (H100: Llama-3.1-8B, Qwen3-0.6B, Qwen3-32B, gpt-oss-20b, Llama-3.3-70B-FP8 "
     "TP=2); batch defaults of vllm/engine/arg_utils.py"},
    {"v0.19", "V1", 0.90, 14.8, 0.25, 2.07, 0, false,
     "vLLM v0.19.0 start-up logs: github.com/llm-d-incubation/llm-d-planner accuracy/results/v0.19.0 (H100: "
     "Llama-3.1-8B, Qwen3-8B, Qwen2.5-7B, Gemma-2; TP 1, 2, 4); VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS False in "
     "those logs"},
    {"v0.21", "V1", 0.92, 14.8, 0.25, 2.07, 0.84, false,
     "v0.19's terms plus the CUDA-graph estimate subtracted (on by default since v0.21.0, pull 30515; 0.84 GiB is "
     "the estimate a v0.19.0 log printed for Llama-3.1-8B on an H100: give yours with --cuda-graph-gib) and "
     "--gpu-memory-utilization 0.92 (pull 38284); not checked against a full log here"},
};

}  // namespace

const EngineProfile& engine_profile(std::string_view name) {
  for (const auto& p : kProfiles)
    if (p.name == name) return p;
  throw std::invalid_argument("--vllm: unknown engine profile '" + std::string(name) +
                              "'; allowed: " + known_engine_profiles());
}

std::string known_engine_profiles() {
  std::string out;
  for (const auto& p : kProfiles) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

}  // namespace tutor::b06
