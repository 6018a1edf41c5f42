// B05 exercise "layer_params": the worked solution.
//
// Attention (standard): q and o are hidden x (num_heads x head_dim); k and v are
//   hidden x (num_kv_heads x head_dim): grouped-query attention (Ainslie et al. 2023) shrinks
//   them, not q or o. head_dim is the config's, which need not be hidden / num_heads (Gemma 3).
//   Biases: q, k, v carry one per output (Qwen2: always; gpt-oss: attention_bias), o one per
//   hidden unit; gpt-oss adds one learned sink logit per query head.
// Attention (MLA, DeepSeek-V2 paper sec. 2.1.2-2.1.3): queries either through a low-rank
//   bottleneck (q_a: hidden x q_lora_rank, q_b: q_lora_rank x heads x (nope + rope)) or one
//   q_proj (hidden x heads x (nope + rope)); kv_a: hidden x (kv_lora_rank + rope), the latent and
//   the shared RoPE key; kv_b: kv_lora_rank x heads x (nope + v); o: heads x v x hidden.
// MLP: gated (SwiGLU / GeGLU: gate, up, down) 3 x hidden x inner, plain (up, down) 2 x hidden x
//   inner; biases: gate and up (or up) per inner unit, down per hidden unit. A mixture of experts
//   (layer.moe) has num_experts routed experts of moe_intermediate_size, num_shared_experts shared
//   ones of shared_expert_intermediate_size (0: the routed width, as DeepSeek), a router of
//   hidden x num_experts (+ one bias per expert when router_bias) and, in Qwen2-MoE, a hidden x 1
//   gate on the shared expert.
// Norms: an RMSNorm of width w stores w scales, a LayerNorm w scales and w biases, a LayerNorm
//   without bias w, a non-parametric one nothing (params_per_width); norms_per_layer of them of
//   hidden_size (2 pre-norms; 1 in a parallel block; 4 in Gemma 2/3 and GLM-4); q/k norms of
//   head_dim shared by the heads (2 x head_dim) or over all heads ((heads + kv_heads) x head_dim);
//   MLA normalises its latent (kv_lora_rank) and its query bottleneck (q_lora_rank).
#include "layer_params.hpp"

namespace tutor::b05::exercise {
namespace {

double d(std::int64_t v) { return static_cast<double>(v); }

double attention_params(const ModelConfig& m, const LayerSpec& layer) {
  const double h = d(m.hidden_size), heads = d(m.num_heads);
  double p = 0;
  if (layer.attention == AttentionKind::mla) {
    const double qk = d(m.qk_nope_head_dim + m.qk_rope_head_dim), latent = d(m.kv_lora_rank + m.qk_rope_head_dim);
    const double q_out = m.q_lora_rank > 0 ? d(m.q_lora_rank) : heads * qk;  // what a q bias would cover
    p += m.q_lora_rank > 0 ? h * d(m.q_lora_rank) + d(m.q_lora_rank) * heads * qk : h * heads * qk;
    p += h * latent;                                                        // kv_a_proj_with_mqa
    p += d(m.kv_lora_rank) * heads * d(m.qk_nope_head_dim + m.v_head_dim);  // kv_b_proj
    p += heads * d(m.v_head_dim) * h;                                       // o_proj
    if (m.qkv_bias) p += q_out + latent;
  } else {
    const double q = heads * d(m.head_dim), kv = d(m.num_kv_heads) * d(m.head_dim);
    p += h * q + 2 * h * kv + q * h;
    if (m.qkv_bias) p += q + 2 * kv;
  }
  if (m.o_bias) p += h;
  if (m.attention_sinks) p += heads;
  return p;
}

double one_mlp(const ModelConfig& m, std::int64_t inner) {
  const double h = d(m.hidden_size), i = d(inner);
  const double matrices = (m.gated_mlp ? 3 : 2) * h * i;
  const double biases = m.mlp_bias ? (m.gated_mlp ? 2 : 1) * i + h : 0;
  return matrices + biases;
}

double mlp_params(const ModelConfig& m, const LayerSpec& layer) {
  if (!layer.moe) return one_mlp(m, m.intermediate_size);
  const std::int64_t shared_width =
      m.shared_expert_intermediate_size > 0 ? m.shared_expert_intermediate_size : m.moe_intermediate_size;
  double p = d(m.num_experts) * one_mlp(m, m.moe_intermediate_size) + d(m.num_shared_experts) * one_mlp(m, shared_width);
  p += d(m.hidden_size) * d(m.num_experts);  // router
  if (m.router_bias) p += d(m.num_experts);
  if (m.shared_expert_gate) p += d(m.hidden_size);
  return p;
}

double norm_params(const ModelConfig& m, const LayerSpec& layer) {
  const double per_width = params_per_width(m.norm);
  double p = d(m.norms_per_layer) * d(m.hidden_size) * per_width;
  if (layer.attention == AttentionKind::mla) {
    p += d(m.kv_lora_rank) * per_width;
    if (m.q_lora_rank > 0) p += d(m.q_lora_rank) * per_width;
  } else if (m.qk_norm == QkNorm::per_head) {
    p += 2 * d(m.head_dim) * per_width;
  } else if (m.qk_norm == QkNorm::full_width) {
    p += d(m.num_heads + m.num_kv_heads) * d(m.head_dim) * per_width;
  }
  return p;
}

}  // namespace

LayerParams decoder_layer_params(const ModelConfig& model, std::int64_t layer) {
  const LayerSpec& spec = model.layers.at(static_cast<std::size_t>(layer));
  return {attention_params(model, spec), mlp_params(model, spec), norm_params(model, spec)};
}

}  // namespace tutor::b05::exercise
