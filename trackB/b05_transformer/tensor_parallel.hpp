#pragma once
// B05: what one GPU of a tensor-parallel group holds and moves (`b05_transformer calc --tp N`).
//
// Which tensors are split, following Megatron-LM (Shoeybi et al. 2019, "Megatron-LM: Training
// Multi-Billion Parameter Language Models Using Model Parallelism", sec. 3) as vLLM implements it
// (vllm/model_executor/layers/linear.py, vocab_parallel_embedding.py):
//   sharded over N ranks: q, k, v (QKVParallelLinear, column-parallel by head), o (RowParallelLinear),
//     MLP gate/up (MergedColumnParallelLinear) and down (RowParallelLinear), every routed and shared
//     expert (FusedMoE splits each expert's inner width), the input embedding (VocabParallelEmbedding)
//     and the LM head (ParallelLMHead), both by vocabulary rows; column-parallel biases split with them;
//   replicated on every rank: every norm (Megatron sec. 3: layer norms are duplicated on each GPU),
//     the MoE router (ReplicatedLinear gate in vLLM's Mixtral/Qwen-MoE/DeepSeek models), the biases of
//     row-parallel layers (o_proj, down_proj: a full hidden_size vector on each rank), gpt-oss's
//     attention sinks, and MLA's down-projections q_a_proj and kv_a_proj_with_mqa (ReplicatedLinear in
//     vLLM's deepseek_v2.py);
//   a multimodal checkpoint's vision tower and projector (ModelConfig::vision_params): sharded like the
//     text model. vLLM builds its encoders from the same parallel layers (siglip.py, mllama4.py,
//     pixtral.py: QKVParallelLinear, ColumnParallelLinear, RowParallelLinear) and splits their weights
//     over the TP ranks by default (vllm/config/multimodal.py, mm_encoder_tp_mode "weights": "split the
//     weights of each layer across TP ranks"; "data" would keep the whole tower on every rank). The few
//     tensors of a tower that stay whole (norms, patch and position embeddings, Gemma 3's projector
//     matrix: 1152 x 5376 + 14 x 14 x 3 x 1152 + 27 x 4 x 1152, about 7M of SigLIP's 0.42B, under 2%)
//     are not told apart: the tower counts as sharded;
//   K/V heads: split while there are at least N of them; with fewer, each rank holds one whole head
//     (vllm/config.py ModelConfig.get_num_kv_heads: max(1, num_kv_heads // tp)), its k/v weights and its
//     cache duplicated; an MLA latent cache has no heads and is held whole on every rank.
// Bytes moved per step per GPU (the memory side of Pope et al. 2022, "Efficiently Scaling Transformer
// Inference", sec. 2: a step reads every weight once, whatever the batch, plus the KV it attends to):
//   decode, one sequence at `context`: this rank's weights (less the input embedding, a row lookup,
//     and less the vision tower, which runs once per image, not per generated token)
//     + this rank's KV of the sequence (window caps applied);
//   prefill of `context` tokens in one step: the same weights once + the KV written for the prompt.
// Activations and the all-reduces between ranks are not counted (Megatron: two all-reduces of
// B x hidden per layer; module B07 models them).
#include <cstdint>

#include "model.hpp"

namespace tutor::b05 {

struct TensorParallelShare {
  int tp = 1;
  double params_total = 0;          ///< count_params(cfg).total_with_vision: every parameter the engine loads
  double vision_params = 0;         ///< the vision tower and projector (0 for a text-only model), in sharded_params
  double replicated_params = 0;     ///< norms, routers, row-parallel biases, sinks, MLA down-projections: on every rank
  double sharded_params = 0;        ///< everything else (the vision tower too), split over tp
  double kv_head_copy_params = 0;   ///< extra k/v weights per rank when kv_heads < tp (one whole head each)
  double params_per_gpu = 0;        ///< sharded / tp + replicated + kv_head_copy
  double weight_bytes_per_gpu = 0;  ///< params_per_gpu x bytes per parameter
  std::int64_t kv_heads_per_gpu = 0;  ///< max(1, kv_heads / tp); MLA: 1 (the latent, whole)
  bool kv_heads_replicated = false;   ///< kv_heads < tp
  bool mla = false;
  double kv_bytes_per_token_per_gpu = 0;  ///< every layer, this rank's heads, no window cap (what a page slot holds)
  double kv_growth_bytes_per_token_per_gpu = 0;  ///< what one more token adds once past every window (full and
                                                 ///< MLA layers only); equals the line above without windows
  double kv_latent_bytes_per_token_per_layer = 0;  ///< MLA: (kv_lora_rank + qk_rope_head_dim) x KV bytes; else 0
  double kv_bytes_for_context_per_gpu = 0;  ///< one sequence of `context` tokens, window caps applied
  double weight_read_bytes_per_gpu = 0;   ///< what a decode or prefill step streams: weights less the input
                                          ///< embedding lookup and the vision tower
  double prefill_bytes_per_gpu = 0;       ///< weight_read + the prompt's KV written
  double decode_bytes_per_gpu = 0;        ///< weight_read + the sequence's KV read
};

/// Throws std::invalid_argument naming --tp when tp < 1, tp > 1024 or num_attention_heads % tp != 0
/// (vLLM asserts it: "total_num_heads % tp_size == 0"), and when there are at least tp KV heads but
/// they do not split evenly, or fewer and tp is not a multiple of them.
TensorParallelShare tensor_parallel_share(const ModelConfig& cfg, int tp, double bytes_per_param,
                                          double kv_bytes_per_element, std::int64_t context);

/// The weights one rank holds, tensor_parallel_share(...).weight_bytes_per_gpu: the one per-GPU
/// weight count of B05 (`calc --tp`), B06 (`kv`, `batch`) and C07. Throws as tensor_parallel_share.
double weight_bytes_per_gpu(const ModelConfig& cfg, int tp, double bytes_per_param);

}  // namespace tutor::b05
