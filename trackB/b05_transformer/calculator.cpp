// B05: parameters, FLOPs and bytes of a transformer from its shape (calculator.hpp has the
// formulas and their sources; this file applies them layer by layer).
#include "calculator.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace tutor::b05 {
namespace {

double d(std::int64_t v) { return static_cast<double>(v); }

void require_positive(double v, const char* what) {
  if (!(v > 0)) throw std::invalid_argument(std::string(what) + " must be > 0");
}
void require_context(std::int64_t context) {
  if (context < 1) throw std::invalid_argument("context must be >= 1 token");
}

/// The parameters of one decoder layer, split the way ParamCount and the FLOP count need.
struct LayerParams {
  double attention_weights = 0;  // matrices: multiplied by every token
  double attention_other = 0;    // biases, sinks
  double mlp_weights_total = 0;  // every expert (or the dense MLP) + shared experts
  double mlp_weights_active = 0; // top-k routed + shared experts (dense: the MLP)
  double router_weights = 0;     // hidden x experts: every token multiplies by it
  double mlp_other_total = 0;    // biases of every expert / the MLP, router bias
  double mlp_other_active = 0;
  double norms = 0;
};

/// Each shared expert's inner width: its own when the config gives one (Qwen2-MoE), else the
/// routed experts' (DeepSeek).
std::int64_t shared_inner(const ModelConfig& m) {
  return m.shared_expert_intermediate_size > 0 ? m.shared_expert_intermediate_size : m.moe_intermediate_size;
}

/// One MLP (dense or one expert) of inner width `inner`: its matrices and its biases.
double mlp_matrices(const ModelConfig& m, std::int64_t inner) {
  return (m.gated_mlp ? 3.0 : 2.0) * d(m.hidden_size) * d(inner);
}
double mlp_biases(const ModelConfig& m, std::int64_t inner) {
  if (!m.mlp_bias) return 0;
  return (m.gated_mlp ? 2.0 : 1.0) * d(inner) + d(m.hidden_size);
}

LayerParams layer_params(const ModelConfig& m, const LayerSpec& layer) {
  LayerParams p;
  const double h = d(m.hidden_size), nh = d(m.num_heads), nkv = d(m.num_kv_heads), hd = d(m.head_dim);
  const double norm_width = params_per_width(m.norm);
  if (layer.attention == AttentionKind::mla) {
    // DeepSeek-V2 paper sec. 2.1.2-2.1.3 (W^DQ, W^UQ, W^QR folded into q_b; W^DKV and W^KR
    // in kv_a_proj_with_mqa; W^UK, W^UV in kv_b_proj; W^O), as modeling_deepseek_v3.py builds them.
    const double qk = d(m.qk_nope_head_dim + m.qk_rope_head_dim);
    const double q_in = m.q_lora_rank > 0 ? d(m.q_lora_rank) : 0;
    if (m.q_lora_rank > 0) {
      p.attention_weights += h * q_in + q_in * nh * qk;  // q_a_proj, q_b_proj
      p.norms += q_in * norm_width;                     // q_a_layernorm
    } else {
      p.attention_weights += h * nh * qk;  // q_proj
    }
    p.attention_weights += h * d(m.kv_lora_rank + m.qk_rope_head_dim);               // kv_a_proj_with_mqa
    p.attention_weights += d(m.kv_lora_rank) * nh * d(m.qk_nope_head_dim + m.v_head_dim);  // kv_b_proj
    p.attention_weights += nh * d(m.v_head_dim) * h;                                  // o_proj
    p.norms += d(m.kv_lora_rank) * norm_width;                                        // kv_a_layernorm
    if (m.qkv_bias) p.attention_other += (m.q_lora_rank > 0 ? q_in : nh * qk) + d(m.kv_lora_rank + m.qk_rope_head_dim);
  } else {
    p.attention_weights = h * nh * hd + 2 * h * nkv * hd + nh * hd * h;  // q, k, v, o
    if (m.qkv_bias) p.attention_other += nh * hd + 2 * nkv * hd;
    if (m.qk_norm == QkNorm::per_head) p.norms += 2 * hd * norm_width;
    if (m.qk_norm == QkNorm::full_width) p.norms += (nh + nkv) * hd * norm_width;
  }
  if (m.o_bias) p.attention_other += h;
  if (m.attention_sinks) p.attention_other += nh;

  if (layer.moe) {
    const double expert = mlp_matrices(m, m.moe_intermediate_size);
    const double expert_b = mlp_biases(m, m.moe_intermediate_size);
    const double routed = d(m.num_experts), k = d(m.experts_per_token), shared = d(m.num_shared_experts);
    const std::int64_t shared_width = shared_inner(m);
    const double shared_w = shared * mlp_matrices(m, shared_width), shared_b = shared * mlp_biases(m, shared_width);
    p.mlp_weights_total = routed * expert + shared_w;
    p.mlp_weights_active = k * expert + shared_w;
    // The router (hidden x experts) and a shared expert's gate (hidden x 1, Qwen2-MoE) are
    // multiplied by every token.
    p.router_weights = h * routed + (m.shared_expert_gate ? h : 0);
    p.mlp_other_total = routed * expert_b + shared_b + (m.router_bias ? routed : 0);
    p.mlp_other_active = k * expert_b + shared_b + (m.router_bias ? routed : 0);
  } else {
    p.mlp_weights_total = p.mlp_weights_active = mlp_matrices(m, m.intermediate_size);
    p.mlp_other_total = p.mlp_other_active = mlp_biases(m, m.intermediate_size);
  }
  p.norms += d(m.norms_per_layer) * h * norm_width;
  return p;
}

/// Keys query t (1-based) sees, summed over t = 1..c. Causal masking halves full attention's
/// c^2: sum_t t. A sliding window of w: sum_t min(t, w). Chunks of w (Llama 4's chunked local
/// attention: query t sees the tokens of its own chunk up to itself): sum_t ((t - 1) mod w) + 1.
double causal_key_visits(std::int64_t c, const LayerSpec& layer) {
  const double cc = d(c);
  const auto triangle = [](double n) { return n * (n + 1) / 2; };
  const std::int64_t w = layer.window;
  switch (layer.attention) {
    case AttentionKind::sliding_window:
      if (c <= w) return triangle(cc);
      return triangle(d(w)) + (cc - d(w)) * d(w);
    case AttentionKind::chunked:
      return d(c / w) * triangle(d(w)) + triangle(d(c % w));
    case AttentionKind::full:
    case AttentionKind::mla: break;
  }
  return triangle(cc);
}

/// Keys the query of the context-th token attends to.
std::int64_t keys_at(std::int64_t context, const LayerSpec& layer) {
  if (layer.attention == AttentionKind::sliding_window) return std::min(context, layer.window);
  if (layer.attention == AttentionKind::chunked) return (context - 1) % layer.window + 1;
  return context;
}

/// Tokens a layer must hold for a sequence that has reached `context` tokens: a sliding
/// window keeps the last `window`; a chunked layer at most one chunk (it held a full chunk
/// before the current one began).
std::int64_t tokens_kept(std::int64_t context, const LayerSpec& layer) {
  if (layer.attention == AttentionKind::sliding_window || layer.attention == AttentionKind::chunked)
    return std::min(context, layer.window);
  return context;
}

bool window_capped(const LayerSpec& layer) {
  return layer.attention == AttentionKind::sliding_window || layer.attention == AttentionKind::chunked;
}

/// FLOPs per (query, key) pair of one layer: 2 * heads * (d_qk + d_v).
double attention_flops_per_key(const ModelConfig& m, const LayerSpec& layer, bool decode) {
  const double nh = d(m.num_heads);
  if (layer.attention != AttentionKind::mla) return 2 * nh * (d(m.head_dim) + d(m.head_dim));
  if (decode)  // absorbed: scores over [c^KV, k^R], values are the latent itself
    return 2 * nh * (d(m.kv_lora_rank + m.qk_rope_head_dim) + d(m.kv_lora_rank));
  return 2 * nh * (d(m.qk_nope_head_dim + m.qk_rope_head_dim) + d(m.v_head_dim));
}

/// 2 x the matrices one token multiplies by: every layer's attention, router and active MLP,
/// and the LM head (vocab x hidden, whether or not it is tied to the embedding).
double linear_flops_per_token(const ModelConfig& m) {
  double weights = d(m.vocab_size) * d(m.hidden_size);
  for (const auto& layer : m.layers) {
    const LayerParams p = layer_params(m, layer);
    weights += p.attention_weights + p.mlp_weights_active + p.router_weights;
  }
  return 2 * weights;
}

}  // namespace

std::optional<double> dtype_bytes(std::string_view dtype) {
  std::string s(dtype);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "fp32" || s == "float32") return 4.0;
  if (s == "bf16" || s == "bfloat16" || s == "fp16" || s == "float16") return 2.0;
  if (s == "fp8" || s == "int8") return 1.0;
  if (s == "fp4") return 0.5;
  return std::nullopt;
}

std::string known_dtypes() { return "fp32, bf16, fp16, fp8, int8, fp4"; }

ParamCount count_params(const ModelConfig& m) {
  ParamCount c;
  const double vh = d(m.vocab_size) * d(m.hidden_size);
  c.embedding = (m.tie_word_embeddings ? vh : 2 * vh) + d(m.position_embeddings) * d(m.hidden_size) +
                (m.lm_head_bias ? d(m.vocab_size) : 0);
  double inactive = 0;
  for (const auto& layer : m.layers) {
    const LayerParams p = layer_params(m, layer);
    c.attention += p.attention_weights + p.attention_other;
    c.mlp += p.mlp_weights_total + p.router_weights + p.mlp_other_total;
    c.norms += p.norms;
    inactive += (p.mlp_weights_total - p.mlp_weights_active) + (p.mlp_other_total - p.mlp_other_active);
  }
  if (m.final_norm) c.norms += d(m.hidden_size) * params_per_width(m.norm);
  c.total = c.embedding + c.attention + c.mlp + c.norms;
  c.vision = m.vision_params;
  c.total_with_vision = c.total + c.vision;
  c.active = c.total - inactive;
  c.active_without_input_embedding = c.active - vh;
  return c;
}

double weight_bytes(const ModelConfig& m, double bytes_per_param) {
  require_positive(bytes_per_param, "bytes_per_param");
  return count_params(m).total * bytes_per_param;
}

double kv_bytes_per_token_layer(const ModelConfig& m, std::int64_t layer, double bytes) {
  require_positive(bytes, "bytes_per_element");
  if (layer < 0 || layer >= static_cast<std::int64_t>(m.layers.size()))
    throw std::out_of_range("layer " + std::to_string(layer) + " of " + std::to_string(m.layers.size()));
  if (m.layers[layer].attention == AttentionKind::mla) return d(m.kv_lora_rank + m.qk_rope_head_dim) * bytes;
  return 2 * d(m.num_kv_heads) * d(m.head_dim) * bytes;
}

std::vector<KvLayerGroup> kv_layer_groups(const ModelConfig& m, double bytes) {
  std::vector<KvLayerGroup> groups;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(m.layers.size()); ++i) {
    const LayerSpec& l = m.layers[i];
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const KvLayerGroup& g) { return g.kind == l.attention && g.window == l.window; });
    if (it == groups.end()) groups.push_back({l.attention, l.window, 1, kv_bytes_per_token_layer(m, i, bytes)});
    else ++it->layers;
  }
  return groups;
}

double kv_bytes_for_context(const ModelConfig& m, double bytes, std::int64_t context) {
  require_positive(bytes, "bytes_per_element");
  require_context(context);
  double total = 0;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(m.layers.size()); ++i)
    total += kv_bytes_per_token_layer(m, i, bytes) * d(tokens_kept(context, m.layers[i]));
  return total;
}

double kv_bytes_per_token(const ModelConfig& m, double bytes, std::int64_t context) {
  return kv_bytes_for_context(m, bytes, context) / d(context);
}

double kv_bytes_per_token_full(const ModelConfig& m, double bytes) {
  require_positive(bytes, "bytes_per_element");
  double total = 0;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(m.layers.size()); ++i)
    if (!window_capped(m.layers[i])) total += kv_bytes_per_token_layer(m, i, bytes);
  return total;
}

double kv_bytes_per_token_uncapped(const ModelConfig& m, double bytes) {
  require_positive(bytes, "bytes_per_element");
  double total = 0;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(m.layers.size()); ++i)
    total += kv_bytes_per_token_layer(m, i, bytes);
  return total;
}

TokenFlops prefill_flops(const ModelConfig& m, std::int64_t context) {
  require_context(context);
  TokenFlops f;
  f.linear = linear_flops_per_token(m) * d(context);
  for (const auto& layer : m.layers)
    f.attention += attention_flops_per_key(m, layer, false) * causal_key_visits(context, layer);
  return f;
}

TokenFlops prefill_flops_per_token(const ModelConfig& m, std::int64_t context) {
  TokenFlops f = prefill_flops(m, context);
  f.linear /= d(context);
  f.attention /= d(context);
  return f;
}

TokenFlops decode_flops(const ModelConfig& m, std::int64_t context) {
  require_context(context);
  TokenFlops f;
  f.linear = linear_flops_per_token(m);
  for (const auto& layer : m.layers) f.attention += attention_flops_per_key(m, layer, true) * d(keys_at(context, layer));
  return f;
}

ActivationMemory activation_memory(const ModelConfig& m, double bytes) {
  require_positive(bytes, "bytes_per_element");
  const double h = d(m.hidden_size), nh = d(m.num_heads);
  // Attention stage: residual + normed input + q + the new token's k, v + attention output.
  double attn = 2 * h;
  if (m.is_mla()) {
    const double qk = d(m.qk_nope_head_dim + m.qk_rope_head_dim);
    attn += d(m.q_lora_rank) + nh * qk + d(m.kv_lora_rank + m.qk_rope_head_dim) +
            nh * d(m.qk_nope_head_dim + m.v_head_dim) + nh * d(m.v_head_dim);
  } else {
    attn += nh * d(m.head_dim) + 2 * d(m.num_kv_heads) * d(m.head_dim) + nh * d(m.head_dim);
  }
  // MLP stage: residual + normed input + gate/up outputs of every expert the token visits.
  const double gate_up = m.gated_mlp ? 2.0 : 1.0;
  double mlp = 0;
  for (const auto& layer : m.layers) {
    double stage = 2 * h;
    if (layer.moe)
      stage += gate_up * (d(m.experts_per_token) * d(m.moe_intermediate_size) +
                          d(m.num_shared_experts) * d(shared_inner(m))) + d(m.num_experts);
    else
      stage += gate_up * d(m.intermediate_size);
    mlp = std::max(mlp, stage);
  }
  ActivationMemory a;
  a.attention_bytes_per_token = attn * bytes;
  a.mlp_bytes_per_token = mlp * bytes;
  a.peak_bytes_per_token = std::max(a.attention_bytes_per_token, a.mlp_bytes_per_token);
  a.peak_stage = a.mlp_bytes_per_token >= a.attention_bytes_per_token ? "mlp" : "attention";
  a.logits_bytes_per_sequence = d(m.vocab_size) * 4;
  return a;
}

}  // namespace tutor::b05
