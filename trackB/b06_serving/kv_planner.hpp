#pragma once
// The KV-cache planner: how large a KV pool a serving engine carves out of a GPU, in bytes,
// tokens and pages, and how many sequences of a given context it holds. A model, not a
// measurement: it reproduces the engine's arithmetic from the numbers its startup log prints.
//
// How vLLM sizes the pool (the engine modelled here), per GPU:
//   budget       = total_gpu_memory * gpu_memory_utilization       (default 0.90)
//   pool_bytes   = budget - weights - peak activation (profiling forward pass) - non-torch memory
//   block_bytes  = block_size * num_layers * 2 * kv_heads_per_gpu * head_dim * kv_dtype_bytes
//   num_gpu_blocks = floor(pool_bytes / block_bytes)               (block_size default 16 tokens)
// Sources: vLLM, vllm/worker/worker.py, Worker.determine_num_available_blocks (v0.6.x):
//   "available_kv_cache_memory = total_gpu_memory * gpu_memory_utilization - peak_memory",
//   peak_memory = torch's peak allocation during profile_run() (weights + activations) plus
//   non-torch allocations, num_gpu_blocks = int(available_kv_cache_memory // cache_block_size);
// vllm/worker/cache_engine.py, CacheEngine.get_cache_block_size: num_layers * 2 (K and V) *
//   block_size * num_kv_heads(per GPU) * head_size * dtype_size;
// vllm/config.py, ModelConfig.get_num_kv_heads: max(1, total_num_kv_heads // tensor_parallel_size)
//   ("we will replicate the KV heads in the case where the number of KV heads is smaller than
//   the tensor parallel size so each GPU has at least one KV head"); MLA caches one latent
//   per token on every rank (get_num_kv_heads returns 1 when use_mla);
// vllm/engine/arg_utils.py, EngineArgs: block_size 16, gpu_memory_utilization 0.90;
// vLLM documentation, Engine Arguments (https://docs.vllm.ai/en/latest/models/engine_args.html),
//   --gpu-memory-utilization: the fraction of GPU memory to be used for the model executor.
//
// Units: bytes everywhere; GiB = 2^30 bytes (vLLM logs GiB), GB = 1e9 bytes (datasheets).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model.hpp"
#include "tutor/hardware.hpp"

namespace tutor::b06 {

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// vLLM's defaults (vllm/engine/arg_utils.py, EngineArgs).
inline constexpr double kDefaultMemoryUtilization = 0.90;
inline constexpr int kDefaultBlockSize = 16;

/// Default per-GPU reserves, from a vLLM startup log of Meta-Llama-3-8B (bf16) on one
/// H100 80GB, TP=1 (https://github.com/vllm-project/vllm/pull/10511, comment of 2024-12-14):
/// "PyTorch activation peak memory 1.26GiB", "non_torch_memory 1.79GiB". They grow with the
/// profiled batch (max_num_batched_tokens) and with TP (non_torch was 3.58 GiB at TP=2 in the
/// same comment): pass your engine's numbers with --activation-reserve-gib / --non-torch-gib.
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

/// The engine's formula on plain numbers, for one GPU.
struct KvPoolInputs {
  double total_memory_bytes = 0;                       ///< runtime total of one GPU
  double memory_utilization = kDefaultMemoryUtilization;  ///< in (0, 1]
  double weight_bytes = 0;                             ///< weights resident on this GPU
  double activation_bytes = 0;                         ///< peak activation of the profiling pass
  double non_torch_bytes = 0;                          ///< CUDA context, NCCL buffers, ...
  double kv_bytes_per_token = 0;                       ///< one token, every layer, this GPU's KV heads
  int block_size = kDefaultBlockSize;                  ///< tokens per block (page)
};

struct KvPool {
  double budget_bytes = 0;  ///< total * utilization
  double pool_bytes = 0;    ///< budget - weights - activation - non-torch (may be negative)
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
  double memory_utilization = kDefaultMemoryUtilization;
  double activation_reserve_bytes = kDefaultActivationReserveGiB * kGiB;
  double non_torch_bytes = kDefaultNonTorchGiB * kGiB;
  int block_size = kDefaultBlockSize;
  std::int64_t context = 0;         ///< tokens per sequence (prompt + output); 0 = max_position_embeddings
};

/// What limits the plan, first that applies: the context is longer than the model's
/// positions; the weights (and reserves) leave no room for a KV pool; the KV pool.
enum class Binding { context_length, weights, kv_pool };
const char* to_string(Binding b);

struct KvPlan {
  // parallelism
  int replicas = 1;                      ///< gpus / tp: independent engine copies
  std::int64_t kv_heads_per_gpu = 0;     ///< max(1, num_kv_heads / tp); MLA: the latent, on every GPU
  bool kv_heads_replicated = false;      ///< num_kv_heads < tp: each KV head is stored on tp / num_kv_heads GPUs
  double weight_bytes_total = 0;         ///< the whole model at the weight dtype
  double weight_bytes_per_gpu = 0;       ///< / tp
  double kv_bytes_per_token_model = 0;   ///< one token, every layer, every KV head, once (no replication)
  double kv_bytes_per_token_per_gpu = 0; ///< this GPU's share, replication included
  KvPoolInputs pool_inputs;              ///< the per-GPU formula's inputs (runtime total, reserves, page)
  KvPool pool;                           ///< per GPU (each GPU of a TP group holds the same block count)
  double pool_bytes_total = 0;           ///< pool bytes summed over all GPUs
  std::int64_t tokens_total = 0;         ///< tokens the node holds: replicas * tokens per replica
  std::int64_t context = 0;              ///< the context planned for
  std::int64_t max_position_embeddings = 0;
  double sequence_bytes_per_gpu = 0;     ///< KV of one sequence at `context` on one GPU (window caps applied)
  std::int64_t blocks_per_sequence = 0;  ///< ceil(sequence_bytes_per_gpu / block_bytes)
  std::int64_t max_sequences = 0;        ///< whole node: replicas * floor(blocks / blocks_per_sequence)
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
    "pool per GPU = total x utilization - weights/TP - activation peak - non-torch; pages = floor(pool / "
    "(block_size x kv_bytes_per_token_per_gpu)); kv heads per GPU = max(1, kv_heads / TP)";
inline constexpr const char* kKvPlanSource =
    "vLLM: vllm/worker/worker.py Worker.determine_num_available_blocks; vllm/worker/cache_engine.py "
    "CacheEngine.get_cache_block_size; vllm/config.py ModelConfig.get_num_kv_heads; defaults from "
    "vllm/engine/arg_utils.py (block_size 16, gpu_memory_utilization 0.90); docs.vllm.ai Engine Arguments";

/// The plan as B06's kv record and C07's variants write it: {"per_gpu": {the subtraction, the
/// page, blocks, tokens}, "node": {...}, "sequence": {...}, "binds", "binds_why", "notes",
/// "formula", "source"}. Sizes in bytes.
nlohmann::json to_json(const KvPlan& plan);

}  // namespace tutor::b06
