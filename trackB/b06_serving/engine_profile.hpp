#pragma once
// What vLLM's start-up memory profile subtracts before it sizes the KV pool, release by release.
//
// The arithmetic is the same in every release (kv_planner.hpp); the terms are not. Each profile
// below names the releases whose published start-up logs it was checked against, and every
// default it sets comes from those logs or from the release's source:
//   v0.6   the V0 engine (logs of v0.6.4, v0.6.5-dev and v0.7.2): without chunked prefill the
//          profiling pass runs max(max_model_len, 2048) tokens (vllm/engine/arg_utils.py of v0.6:
//          chunked prefill is turned on by default only when max_model_len > 32K, and then the pass
//          runs 2048 tokens) and 256 sequences; CUDA graphs are captured after the pool is sized.
//   v0.10  the V1 engine before the sampler's working set shrank (logs of v0.10.2 and of the
//          llm-d-benchmark page, same era): the batch of `vllm serve`'s defaults by GPU (8192
//          tokens and 1024 sequences on a GPU of >= 70 GiB that is not an A100, else 2048 and 256;
//          EngineArgs in vllm/engine/arg_utils.py), graphs captured after the pool is sized.
//   v0.19  the V1 engine of v0.19.0 (the llm-d-planner logs): the same batch defaults, a sampler
//          that holds about 3.7 fp32 copies of the logits instead of 9.6, more non-torch memory
//          (NCCL buffers reach 2.07 GiB per GPU at TP=2); the CUDA-graph estimate is computed and
//          logged but not subtracted (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 0).
//   v0.21  v0.19 plus the two changes that followed it, not checked against a log here: the
//          profile subtracts its CUDA-graph estimate (pull 30515 added it behind the variable;
//          vllm/envs.py: "Enabled by default as of v0.21.0"; a v0.27.1 log: "CUDA graph memory
//          profiling is enabled (default since v0.21.0)"), and the default --gpu-memory-utilization
//          is 0.92 (pull 38284). Pull 49233 reports that from 0.25.1 the V2 model runner, the
//          default for dense models, returned 0 for the estimate: there, give --cuda-graph-gib 0.
// The default is v0.19: the newest release whose full start-up logs the planner was checked
// against (kv_planner_test.cpp, README section 5.1).
#include <string>
#include <string_view>

namespace tutor::b06 {

struct EngineProfile {
  std::string name;                      ///< "v0.19"
  std::string engine;                    ///< "V0" or "V1"
  double memory_utilization = 0.90;      ///< the release's default --gpu-memory-utilization
  double sampler_bytes_per_logit = 0;    ///< working set of the profiling pass's sampler per (row x vocab entry)
  double non_torch_gib_single_gpu = 0;   ///< non-torch memory the profile counts at TP=1, GiB per GPU
  double non_torch_gib_tensor_parallel = 0;  ///< the same at TP > 1 (NCCL and all-reduce buffers)
  double cuda_graph_gib = 0;             ///< CUDA-graph estimate the profile subtracts, GiB per GPU (0: none)
  bool v0_batch = false;                 ///< true: the pass runs max(context, 2048) tokens (2048 past 32K) and 256 sequences
  std::string sources;                   ///< the logs and source lines each number comes from
};

/// "v0.6", "v0.10", "v0.19", "v0.21". Throws std::invalid_argument
/// "--vllm: unknown engine profile 'x'; allowed: v0.6, v0.10, v0.19, v0.21".
const EngineProfile& engine_profile(std::string_view name);

/// "v0.6, v0.10, v0.19, v0.21".
std::string known_engine_profiles();

inline constexpr const char* kDefaultEngineProfile = "v0.19";

}  // namespace tutor::b06
