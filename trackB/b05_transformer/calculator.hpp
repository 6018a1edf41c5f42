#pragma once
// B05: what a transformer costs, from its shape alone (a model, not a measurement).
//
// Conventions, used by every function here:
//   - Parameters are counted exactly from the shapes the family's modelling code builds
//     (weights, biases, norm scales), not from a rule of thumb.
//   - 1 FLOP = one floating-point add or multiply; a multiply-accumulate is 2 FLOPs, so a
//     matrix-vector product with an m x n weight costs 2mn FLOPs (Kaplan et al. 2020,
//     "Scaling Laws for Neural Language Models", Table 1: C_forward ~ 2N per token).
//   - Bytes are bytes (1 GB = 1e9 B, 1 GiB = 2^30 B; the CLI prints which). A dtype's size
//     is applied once, by the caller passing bytes_per_element / bytes_per_param.
//   - Attention is causal: a token attends to itself and the tokens before it (a sliding
//     window layer: to at most `window` of them). Norms, activations, softmax, RoPE and
//     residual adds are not counted as FLOPs (they are O(d) per token, < 0.1% here).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"

namespace tutor::b05 {

// ---- data types -------------------------------------------------------------------------

/// Bytes per element of a storage type: fp32 4, bf16 2, fp16 2, fp8 1 (E4M3/E5M2), int8 1,
/// fp4 0.5 (packed; block scales not counted). Case-insensitive; std::nullopt if unknown.
std::optional<double> dtype_bytes(std::string_view dtype);

/// The dtype names dtype_bytes knows, comma-separated ("fp32, bf16, fp16, fp8, int8, fp4").
std::string known_dtypes();

// ---- parameters -------------------------------------------------------------------------

/// Parameter counts of the whole model (all layers, embeddings and the LM head), in
/// parameters (not billions). Every part is counted once:
///   embedding = vocab * hidden for the input embedding, plus vocab * hidden for the LM head
///               unless tie_word_embeddings (then the head reuses the embedding matrix);
///   attention = q, k, v, o projections of every layer (+ biases, + sinks; MLA: the
///               down/up projections of DeepSeek-V2 sec. 2.1 incl. nothing of the norms);
///   mlp       = dense MLPs, every routed and shared expert, routers (+ biases);
///   norms     = every norm scale (and bias for LayerNorm): per-layer norms, q/k norms,
///               MLA latent norms, and the final norm.
/// total = embedding + attention + mlp + norms.
/// active = the parameters one token uses: total minus the routed experts it is not
/// routed to, (num_experts - experts_per_token) experts per MoE layer (Fedus et al. 2022;
/// the convention of the Mixtral paper, Jiang et al. 2024: 46.7B total, 12.9B active, which
/// counts the embedding and the LM head as active). Dense model: active == total.
/// active_without_input_embedding = active - vocab * hidden: the input embedding is a table
/// lookup, not a matmul, and some model cards leave it out of "active" (DeepSeek-V3: 36.6B,
/// README_WEIGHTS.md; gpt-oss-120b: 5.13B, OpenAI model card) while Mixtral's 12.9B keeps it.
/// Extra modules a checkpoint may carry are not in total: DeepSeek-V3's multi-token-prediction
/// module (num_nextn_predict_layers; its 671B excludes it) is not counted at all, and a
/// vision tower is counted apart (vision, total_with_vision).
/// embedding also holds a learned position table (GPT-2) and an LM-head bias (Phi).
struct ParamCount {
  double total = 0;
  double active = 0;
  double embedding = 0;
  double attention = 0;
  double mlp = 0;
  double norms = 0;
  double active_without_input_embedding = 0;
  double vision = 0;             ///< a vision tower and its projector (ModelConfig::vision_params), not in total
  double total_with_vision = 0;  ///< total + vision: what a multimodal checkpoint stores
};

ParamCount count_params(const ModelConfig& cfg);

/// Bytes of the weights stored at `bytes_per_param` each: count_params(cfg).total *
/// bytes_per_param (every parameter in one dtype; mixed-precision checkpoints such as
/// gpt-oss's MXFP4 experts are not modelled). Throws std::invalid_argument if
/// bytes_per_param <= 0.
double weight_bytes(const ModelConfig& cfg, double bytes_per_param);

// ---- KV cache ---------------------------------------------------------------------------

/// Bytes one token adds to one layer's cache, before any window cap:
///   full / sliding_window: 2 * num_kv_heads * head_dim * bytes (K and V, one entry per KV
///     head, not per query head: GQA, Ainslie et al. 2023; MQA, Shazeer 2019);
///   mla: (kv_lora_rank + qk_rope_head_dim) * bytes, the compressed latent c^KV plus the
///     shared decoupled RoPE key k^R (DeepSeek-V2 paper, Liu et al. 2024, sec. 2.1.2-2.1.3
///     and Table 1: (d_c + d_h^R) elements per token per layer; vLLM's MLA backend caches
///     exactly this, no per-head K or V).
/// Throws std::out_of_range for a bad layer index, std::invalid_argument if bytes <= 0.
double kv_bytes_per_token_layer(const ModelConfig& cfg, std::int64_t layer, double bytes_per_element);

/// The layers grouped by what they cache: one entry per (kind, window) present, in the
/// order first seen.
struct KvLayerGroup {
  AttentionKind kind = AttentionKind::full;
  std::int64_t window = 0;             ///< tokens kept (sliding_window), else 0
  std::int64_t layers = 0;             ///< how many layers of this kind
  double bytes_per_token_per_layer = 0;  ///< kv_bytes_per_token_layer of one of them
};
std::vector<KvLayerGroup> kv_layer_groups(const ModelConfig& cfg, double bytes_per_element);

/// Total KV-cache bytes of ONE sequence holding `context` tokens, summed over layers: full
/// and MLA layers store all `context` tokens, a sliding-window layer stores
/// min(context, window) of them (Mistral 7B paper, Jiang et al. 2023, sec. 2 "rolling
/// buffer cache"; Gemma 3 technical report 2025, sec. 2.2: 5 local layers with a 1024-token
/// window per global layer). Throws std::invalid_argument if context < 1 or bytes <= 0.
double kv_bytes_for_context(const ModelConfig& cfg, double bytes_per_element, std::int64_t context);

/// Average KV bytes per token of a sequence of `context` tokens:
/// kv_bytes_for_context(cfg, bytes, context) / context. Equals kv_bytes_per_token_full for a
/// model without sliding-window layers (Llama-3.1-70B bf16: 80 * 2 * 8 * 128 * 2 = 327,680).
double kv_bytes_per_token(const ModelConfig& cfg, double bytes_per_element, std::int64_t context_tokens);

/// Asymptotic growth: bytes one more token adds once the context is longer than every
/// window, i.e. the sum of kv_bytes_per_token_layer over full and MLA layers only.
double kv_bytes_per_token_full(const ModelConfig& cfg, double bytes_per_element);

/// Bytes per token if every layer kept every token (window ignored): what a cache that
/// does not free out-of-window entries allocates, and the "all layers global" baseline.
double kv_bytes_per_token_uncapped(const ModelConfig& cfg, double bytes_per_element);

// ---- FLOPs ------------------------------------------------------------------------------

/// FLOPs split into the weight matmuls and the attention core.
///   linear    = 2 * (weight-matrix parameters one token multiplies by): q/k/v/o (MLA:
///               its down/up projections), the MLP or the routed top-k + shared experts,
///               the router, and the LM head (vocab * hidden, tied or not); the embedding
///               lookup is free. (Kaplan et al. 2020, Table 1, C_forward ~ 2N.)
///   attention = the score (Q K^T) and value (P V) products: per layer and per query token
///               attending to L keys, 2 * num_heads * L * (d_qk + d_v) FLOPs; standard
///               attention: d_qk = d_v = head_dim, so 4 * num_heads * head_dim * L
///               (Kaplan et al. 2020 Table 1 "Attention: mask" row counts 2 n_ctx d_attn for
///               Q K^T alone; PaLM, Chowdhery et al. 2022 App. B; Korthikanti et al. 2022
///               sec. 4.1 count both products: 4 s^2 h per layer per sequence, which is
///               4 s h per token without causal masking; we count only the unmasked half).
/// Causal masking: query t (1-based) attends min(t, window) keys, so a prefill of c tokens
/// costs sum_t min(t, W) ~ c^2/2 key visits per layer for full attention, not c^2.
/// MLA (DeepSeek-V2 sec. 2.1.2-2.1.3): prefill in the decompressed form, d_qk =
/// qk_nope + qk_rope, d_v = v_head_dim; decode in the absorbed form that reads only the
/// latent, d_qk = kv_lora_rank + qk_rope, d_v = kv_lora_rank (what vLLM's MLA backend runs;
/// the absorbed up-projections cost the same linear FLOPs as the decompression).
struct TokenFlops {
  double linear = 0;
  double attention = 0;
  double total() const { return linear + attention; }
};

/// FLOPs of prefilling a prompt of `context` tokens (all of them, summed; divide by
/// context for per-token). Throws std::invalid_argument if context < 1.
TokenFlops prefill_flops(const ModelConfig& cfg, std::int64_t context);

/// prefill_flops(cfg, context) divided by context: the average cost of one prompt token.
TokenFlops prefill_flops_per_token(const ModelConfig& cfg, std::int64_t context);

/// FLOPs of one decode step of one sequence at `context`: the new token is the
/// context-th token, its K/V are already in the cache, and its query attends to
/// min(context, window) keys per layer: the same tokens whose KV kv_bytes_for_context
/// counts. Throws std::invalid_argument if context < 1.
TokenFlops decode_flops(const ModelConfig& cfg, std::int64_t context);

// ---- activations (inference) ------------------------------------------------------------

/// Activation memory of inference, per token in flight. Inference keeps no activations
/// across layers (no backward pass; contrast the training count of Korthikanti et al. 2022,
/// eq. 1: 34 s b h + 5 a s^2 b bytes per layer), so the peak is the set of tensors live
/// inside one layer for one token, at the stage where it is largest:
///   attention stage: residual h + normed input h + q (num_heads * d_qk) + k, v of the new
///     token (num_kv_heads * head_dim each; MLA: the latent and the decompressed per-head
///     k, v) + attention output (num_heads * d_v);
///   MLP stage: residual h + normed input h + gate and up outputs (2 * inner; 1 * inner
///     ungated) for the dense MLP, or for MoE experts_per_token routed + shared experts'
///     gate/up outputs plus the router logits (num_experts).
/// The attention score matrix is not counted: fused attention (FlashAttention, Dao et al.
/// 2022) never materialises it. Logits (vocab_size per token, counted here in fp32 as
/// engines keep them for sampling) are separate: engines compute them only for the last
/// position of each sequence. Multiply by the tokens of a step (batch x prompt chunk) for
/// a step's peak. Throws std::invalid_argument if bytes_per_element <= 0.
struct ActivationMemory {
  double peak_bytes_per_token = 0;     ///< max over the two stages, at bytes_per_element
  std::string peak_stage;              ///< "attention" or "mlp"
  double attention_bytes_per_token = 0;
  double mlp_bytes_per_token = 0;
  double logits_bytes_per_sequence = 0;  ///< vocab_size * 4 (fp32 logits of one sampled position)
};
ActivationMemory activation_memory(const ModelConfig& cfg, double bytes_per_element);

}  // namespace tutor::b05
