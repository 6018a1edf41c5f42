#pragma once
// The KV-cache planner: how large a KV pool a serving engine carves out of a GPU, in bytes,
// tokens and pages, and how many sequences of a given context it holds. A model, not a
// measurement: it reproduces the engine's arithmetic from the numbers its startup log prints.
//
// How vLLM sizes the pool (the engine modelled here), per GPU, at start-up:
//   budget       = total_gpu_memory * gpu_memory_utilization       (default 0.90; total = the runtime's
//                  torch.cuda.mem_get_info()[1], not the datasheet's GB)
//   pool_bytes   = budget - this GPU's weights - activation peak of the profiling pass - non-torch memory
//                  [- CUDA-graph estimate, vLLM >= v0.21]
//   block_bytes  = block_size * num_layers * 2 * kv_heads_per_gpu * head_dim * kv_dtype_bytes
//   num_gpu_blocks = floor(pool_bytes / block_bytes)               (block_size default 16 tokens)
// Sources, by engine version:
//   V0 (v0.6.x), vllm/worker/worker.py, Worker.determine_num_available_blocks:
//     "available_kv_cache_memory = total_gpu_memory * gpu_memory_utilization - peak_memory",
//     peak_memory = torch's peak during profile_run() (weights + activations) plus non-torch allocations;
//     v0.6.5 (pull 10511, "overhaul memory profiling") logs the three parts apart.
//   V1 (v0.8 .. v0.20), vllm/v1/worker/gpu_worker.py, Worker.determine_available_memory: the same
//     subtraction; CUDA graphs are captured after the pool is allocated (compile_or_warm_up_model), so
//     their memory comes out of the 1 - utilization headroom, not the pool.
//   V1 >= v0.21: the profile also captures graphs against a dummy KV cache and subtracts the estimate
//     ("Estimated CUDA graph memory"; pull 30515 added it behind VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1,
//     off, and v0.21.0 made it the default: its log says "CUDA graph memory profiling is enabled
//     (default since v0.21.0)").
// Which terms a release subtracts, and their defaults, are an EngineProfile (engine_profile.hpp).
// vllm/worker/cache_engine.py, CacheEngine.get_cache_block_size: num_layers * 2 (K and V) *
//   block_size * num_kv_heads(per GPU) * head_size * dtype_size;
// vllm/config.py, ModelConfig.get_num_kv_heads: max(1, total_num_kv_heads // tensor_parallel_size)
//   ("we will replicate the KV heads in the case where the number of KV heads is smaller than
//   the tensor parallel size so each GPU has at least one KV head"); MLA caches one latent
//   per token on every rank (get_num_kv_heads returns 1 when use_mla);
// vllm/engine/arg_utils.py, EngineArgs: block_size 16, gpu_memory_utilization 0.90, and the
//   scheduler defaults of the profiling pass (scheduler_defaults below);
// vLLM documentation, Engine Arguments (https://docs.vllm.ai/en/latest/models/engine_args.html),
//   --gpu-memory-utilization: the fraction of GPU memory to be used for the model executor.
//
// Units: bytes everywhere; GiB = 2^30 bytes (vLLM logs GiB), GB = 1e9 bytes (datasheets).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine_profile.hpp"
#include "model.hpp"
#include "tensor_parallel.hpp"
#include "tutor/hardware.hpp"

namespace tutor::b06 {

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// vLLM's defaults (vllm/engine/arg_utils.py, EngineArgs).
inline constexpr double kDefaultMemoryUtilization = 0.90;
inline constexpr int kDefaultBlockSize = 16;

/// Fixed reserves of one V0 log (Meta-Llama-3-8B bf16 on one H100 80GB, TP=1, vLLM v0.6.5-dev,
/// https://github.com/vllm-project/vllm/pull/10511, comment of 2024-12-14): "PyTorch activation
/// peak memory 1.26GiB", "non_torch_memory 1.79GiB". No tool defaults to them: B06's kv and C07 model
/// the activation peak (activation_peak) and take the non-torch default from the release profile.
inline constexpr double kDefaultActivationReserveGiB = 1.26;
inline constexpr double kDefaultNonTorchGiB = 1.79;


/// The total memory the engine budgets from: what torch.cuda.mem_get_info() returns as
/// "total" (the runtime's figure), which is not the datasheet's decimal GB.
struct GpuMemory {
  double total_bytes = 0;
  bool runtime_reported = false;  ///< true: a runtime-reported total; false: datasheet GB * 1e9
  std::string source;
};

/// The runtime total where one is recorded (H100 SXM 80GB: 79.22 GiB from vLLM logs; H200:
/// 150,109,880,320 B from docs/results/H200/b01_architecture/b01_device_info.txt), else the datasheet's
/// memory_GB * 1e9 with a source that says so.
GpuMemory gpu_memory(const hw::GpuSpec& gpu);

/// {"total_bytes", "total_GiB", "runtime_reported", "source"}.
nlohmann::json to_json(const GpuMemory& memory);

/// The scheduler limits vLLM's profiling pass runs at. V1 (vllm/engine/arg_utils.py,
/// EngineArgs._set_default_args for `vllm serve`, v0.8 and later): "if device_memory >= 70 *
/// GiB_bytes and 'a100' not in device_name": max_num_batched_tokens 8192, max_num_seqs 1024; else
/// 2048 and 256. V0 (v0.6): max(context, 2048) tokens, or 2048 when context > 32768 (chunked
/// prefill on), and 256 sequences.
struct SchedulerLimits {
  std::int64_t max_num_batched_tokens = 0;
  std::int64_t max_num_seqs = 0;
  std::string why;
};
SchedulerLimits scheduler_defaults(const EngineProfile& engine, const GpuMemory& memory, const std::string& gpu_name,
                                   std::int64_t context);

/// The activation peak of vLLM's profiling pass on one GPU, modelled from the layer shapes:
///   forward: the tensors live at once in the largest stage of one decoder layer, per token, times
///     max_num_batched_tokens (the dummy forward's batch). Dense MLP (vllm/model_executor/models/
///     llama.py, LlamaMLP: gate_up_proj, SiluAndMul, down_proj): residual h + normed input h +
///     gate/up output 2i/TP + activation output i/TP + down output h (ungated: up i/TP + act i/TP);
///     MoE (vllm/model_executor/layers/fused_moe/fused_moe.py, intermediate caches of M x top_k x
///     2N, M x top_k x N and M x top_k x h): 3h + top_k (3 i_moe/TP + h) + shared experts + router
///     logits; attention: residual + normed + q, k, v of this GPU's heads + attention output + o.
///     At the activation dtype (bf16, 2 B).
///   sampler: the dummy forward's hidden states (max_num_batched_tokens x h x 2 B) stay alive while
///     the sampler runs on max_num_seqs rows of logits: the release's sampler_bytes_per_logit x
///     max_num_seqs x vocab (the logits are gathered whole on every TP rank).
///   peak = max(forward, hidden states + sampler).
/// A model, checked against logs (tests): a long profiled batch makes the forward bind (Llama-3.1-8B
/// at 20,000 tokens: 2.06 GiB, the V0 log 2.07), many sequences make the sampler bind (1024 sequences
/// on an H100: 4.75 GiB in a v0.10-era log, 1.87 GiB in v0.19.0's, whose logs say 4.76 and 1.89).
struct ActivationPeak {
  std::int64_t max_num_batched_tokens = 0;
  std::int64_t max_num_seqs = 0;
  double forward_bytes_per_token = 0;  ///< live bytes of one token in the largest stage, this GPU
  std::string forward_stage;           ///< "mlp", "moe" or "attention"
  double forward_bytes = 0;            ///< forward_bytes_per_token x max_num_batched_tokens
  double hidden_bytes = 0;             ///< max_num_batched_tokens x hidden x 2 B, kept for the sampler
  double sampler_bytes_per_logit = 0;  ///< the engine profile's
  double sampler_bytes = 0;            ///< sampler_bytes_per_logit x max_num_seqs x vocab
  double peak_bytes = 0;               ///< max(forward, hidden + sampler)
  std::string binds;                   ///< "forward" or "sampler"
};
/// Throws std::invalid_argument naming --max-num-batched-tokens / --max-num-seqs when < 1.
ActivationPeak activation_peak(const b05::ModelConfig& model, int tp, std::int64_t max_num_batched_tokens,
                               std::int64_t max_num_seqs, double sampler_bytes_per_logit);

/// The engine's formula on plain numbers, for one GPU.
struct KvPoolInputs {
  double total_memory_bytes = 0;                       ///< runtime total of one GPU
  double memory_utilization = kDefaultMemoryUtilization;  ///< in (0, 1]
  double weight_bytes = 0;                             ///< weights resident on this GPU
  double activation_bytes = 0;                         ///< peak activation of the profiling pass
  double non_torch_bytes = 0;                          ///< NCCL buffers, workspaces outside torch
  double cuda_graph_bytes = 0;                         ///< vLLM >= v0.21: the profile's graph estimate
  double kv_bytes_per_token = 0;                       ///< one token, every layer, this GPU's KV heads
  int block_size = kDefaultBlockSize;                  ///< tokens per block (page)
};

struct KvPool {
  double budget_bytes = 0;  ///< total * utilization
  double pool_bytes = 0;    ///< budget - weights - activation - non-torch - CUDA graphs (may be negative)
  double block_bytes = 0;   ///< block_size * kv_bytes_per_token
  std::int64_t blocks = 0;  ///< floor(pool / block), 0 if the pool is negative
  std::int64_t tokens = 0;  ///< blocks * block_size
};

/// Throws std::invalid_argument naming the CLI option when an input is out of range.
KvPool size_kv_pool(const KvPoolInputs& in);

/// Everything the `kv` subcommand takes.
struct KvPlanRequest {
  GpuMemory memory;                 ///< per GPU
  int gpus = 1;                     ///< GPUs in the node; replicas = gpus / tp
  int tp = 1;                       ///< tensor-parallel degree
  double weight_bytes_per_param = 2;  ///< bf16
  double kv_bytes_per_element = 2;    ///< bf16
  std::string engine = kDefaultEngineProfile;      ///< --vllm: which release's profile (engine_profile.hpp)
  std::optional<double> memory_utilization;        ///< unset: the engine profile's default (0.90; 0.92 from v0.21)
  std::optional<double> activation_reserve_bytes;  ///< unset: activation_peak() of the profiling pass
  std::optional<double> non_torch_bytes;           ///< unset: the engine profile's figure for TP=1 or TP > 1
  std::optional<double> cuda_graph_bytes;          ///< unset: the engine profile's (0 before v0.21)
  std::int64_t max_num_batched_tokens = 0;         ///< 0: scheduler_defaults()
  std::int64_t max_num_seqs = 0;                   ///< 0: scheduler_defaults()
  std::string gpu_name;                            ///< for the scheduler defaults' A100 rule
  int block_size = kDefaultBlockSize;
  std::int64_t context = 0;         ///< tokens per sequence (prompt + output); 0 = max_position_embeddings
  std::int64_t mtp_layers = 0;      ///< the config's num_nextn_predict_layers (DeepSeek-V3's MTP module): noted,
                                    ///< not counted (vLLM loads it only for MTP speculative decoding)
};

/// What limits the plan, first that applies: the context is longer than the model's
/// positions; the weights (and reserves) leave no room for a KV pool; the scheduler's
/// max_num_seqs (vLLM --max-num-seqs) admits fewer sequences than the pool holds; the KV pool.
enum class Binding { context_length, weights, scheduler, kv_pool };
const char* to_string(Binding b);

struct KvPlan {
  // parallelism
  int replicas = 1;                      ///< gpus / tp: independent engine copies
  std::int64_t kv_heads_per_gpu = 0;     ///< max(1, num_kv_heads / tp); MLA: the latent, on every GPU
  bool kv_heads_replicated = false;      ///< num_kv_heads < tp: each KV head is stored on tp / num_kv_heads GPUs
  double weight_bytes_total = 0;         ///< the whole model at the weight dtype (vision tower included)
  double weight_bytes_per_gpu = 0;       ///< one rank's: b05::tensor_parallel_share (sharded / tp + replicated)
  b05::TensorParallelShare tp_share;     ///< what one rank holds: the same figures as `b05_transformer calc --tp`
  double kv_bytes_per_token_model = 0;   ///< one token, every layer, every KV head, once (no replication): what
                                         ///< a page slot allocates, windows ignored
  double kv_bytes_per_token_per_gpu = 0; ///< this GPU's share, replication included
  KvPoolInputs pool_inputs;              ///< the per-GPU formula's inputs (runtime total, reserves, page)
  bool activation_modelled = false;      ///< true: pool_inputs.activation_bytes = activation.peak_bytes
  ActivationPeak activation;             ///< the modelled peak (filled even when a reserve was given)
  SchedulerLimits scheduler;             ///< the profiled batch limits and where they come from
  EngineProfile engine;                  ///< the release profile the defaults came from
  std::string non_torch_source;          ///< where the non-torch figure comes from
  KvPool pool;                           ///< per GPU (each GPU of a TP group holds the same block count)
  double pool_bytes_total = 0;           ///< pool bytes summed over all GPUs
  std::int64_t tokens_total = 0;         ///< tokens the node holds: replicas * tokens per replica
  std::int64_t context = 0;              ///< the context planned for
  std::int64_t max_position_embeddings = 0;
  double kv_bytes_per_token_growth_per_gpu = 0;  ///< what one more token adds once past every window (full
                                                 ///< and MLA layers only): the per-token figure that grows with context
  double kv_bytes_per_token_growth_model = 0;    ///< the same for the model, every KV head once
  bool windowed = false;                 ///< some layers keep only a window (sliding or chunked attention)
  double sequence_bytes_per_gpu = 0;     ///< KV of one sequence at `context` on one GPU (window caps applied)
  std::int64_t blocks_per_sequence = 0;  ///< ceil(sequence_bytes_per_gpu / block_bytes)
  std::int64_t max_sequences = 0;        ///< the pool's, whole node: replicas * floor(blocks / blocks_per_sequence)
  std::int64_t scheduled_sequences = 0;  ///< what runs at once, whole node: replicas * min(the pool's per replica,
                                         ///< max_num_seqs)
  double context_tokens_in_all = 0;      ///< max_sequences x context: the tokens of context those sequences hold
  bool more_context_than_slots = false;  ///< windowed, at least one sequence, and context_tokens_in_all > tokens_total:
                                         ///< windowed layers let more tokens fit than the page slots count
  Binding binds = Binding::kv_pool;
  std::string binds_why;                 ///< one sentence with the numbers
  std::vector<std::string> notes;        ///< assumptions that apply to this model and setting
};

/// Plans the pool. Throws std::invalid_argument naming the option (--tp, --gpus,
/// --memory-utilization, --block-size, --context, ...) when a value is out of range or the
/// model cannot be split that way (vLLM requires num_attention_heads % tp == 0, and
/// num_kv_heads % tp == 0 or tp % num_kv_heads == 0).
KvPlan plan_kv(const b05::ModelConfig& model, const KvPlanRequest& request);

/// The planner's formula and its sources in one line each, for reports and records.
inline constexpr const char* kKvPlanFormula =
    "pool per GPU = total x utilization - this GPU's weights (sharded / TP + replicated, B05 tensor_parallel) - "
    "activation peak - non-torch - CUDA graphs (vLLM >= v0.21); "
    "activation peak = max(max_num_batched_tokens x live bytes per token, hidden states + sampler bytes per logit x "
    "max_num_seqs x vocab); pages = floor(pool / (block_size x kv_bytes_per_token_per_gpu)); kv heads per GPU = "
    "max(1, kv_heads / TP)";
inline constexpr const char* kKvPlanSource =
    "vLLM: vllm/worker/worker.py Worker.determine_num_available_blocks (V0); vllm/v1/worker/gpu_worker.py "
    "Worker.determine_available_memory (V1); vllm/worker/cache_engine.py CacheEngine.get_cache_block_size; "
    "vllm/config.py ModelConfig.get_num_kv_heads; defaults from vllm/engine/arg_utils.py (block_size 16, "
    "gpu_memory_utilization 0.90, max_num_batched_tokens and max_num_seqs by GPU); docs.vllm.ai Engine Arguments";

/// The plan as B06's kv record and C07's variants write it: {"per_gpu": {the subtraction, the
/// page, blocks, tokens}, "node": {...}, "sequence": {...}, "binds", "binds_why", "notes",
/// "formula", "source"}. Sizes in bytes.
nlohmann::json to_json(const KvPlan& plan);

}  // namespace tutor::b06
