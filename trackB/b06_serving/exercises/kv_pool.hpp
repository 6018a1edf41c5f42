#pragma once
// B06 exercise "kv_pool": the KV pool a serving engine carves out of each GPU, from the numbers
// its start-up log prints, and how many sequences the node then holds.
//
// Write kv_pool in kv_pool.cpp. The checker (check_kv_pool.cpp) compares it with the planner's
// tutor::b06::plan_kv given the same numbers, on every shipped config, random start-ups and the
// cases that trip people up (KV heads replicated under TP, MLA under TP, windows, no room).
#include <cstdint>

#include "model.hpp"

namespace tutor::b06::exercise {

/// How the engine was started and what its log printed, per GPU (bytes; GiB = 2^30 B).
struct EngineStartup {
  double total_memory_bytes = 0;    ///< the runtime's total of one GPU (torch.cuda.mem_get_info()[1])
  double memory_utilization = 0.9;  ///< --gpu-memory-utilization, in (0, 1]
  double activation_bytes = 0;      ///< the profiling pass's activation peak ("PyTorch activation peak memory")
  double non_torch_bytes = 0;       ///< memory outside torch's allocator ("non_torch_memory")
  double cuda_graph_bytes = 0;      ///< the CUDA-graph estimate (vLLM >= v0.21 subtracts it; else 0)
  int block_size = 16;              ///< tokens per page (--block-size)
  int gpus = 1;                     ///< GPUs of the node
  int tp = 1;                       ///< tensor-parallel degree (divides gpus): gpus / tp replicas
  double weight_bytes_per_param = 2;  ///< every parameter at this size (bf16 2)
  double kv_bytes_per_element = 2;    ///< KV-cache element size (bf16 2, fp8 1)
  std::int64_t context = 1;           ///< tokens of every sequence (prompt + output)
};

/// The pool and what it holds.
struct KvPoolAnswer {
  std::int64_t kv_heads_per_gpu = 0;  ///< KV heads each GPU stores (an MLA latent counts as 1)
  std::int64_t blocks = 0;            ///< pages per GPU (each GPU of a TP group holds the same count)
  std::int64_t tokens_node = 0;       ///< tokens the node's pools hold: blocks x block_size x replicas
  std::int64_t max_sequences = 0;     ///< sequences of `context` tokens the node holds at once
};

/// You may call B05's library: calculator.hpp (b05::count_params, b05::kv_bytes_per_token_uncapped,
/// b05::kv_bytes_for_context) and tensor_parallel.hpp (what one rank of a TP group holds); not plan_kv.
KvPoolAnswer kv_pool(const b05::ModelConfig& model, const EngineStartup& startup);

}  // namespace tutor::b06::exercise
