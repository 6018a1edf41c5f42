// B05: the Llama lineage: Llama, Mistral, Mixtral, Qwen2, Qwen3, Qwen3-MoE.
//
// Each rule follows the family's modelling file in huggingface/transformers
// (src/transformers/models/<family>/modeling_<family>.py); what it reads there is written
// next to it. All of them: RMSNorm before attention and before the MLP (input_layernorm,
// post_attention_layernorm) and after the last layer (norm); a gated MLP (gate_proj, up_proj,
// down_proj); rotary positions, which add no parameters.
#include "family.hpp"

namespace tutor::b05 {
namespace {

/// Qwen2/Qwen3: layers from max_window_layers on slide, only when use_sliding_window
/// (Qwen2Config: sliding_window is kept only if use_sliding_window; layer_types puts
/// "sliding_attention" on layer i >= max_window_layers).
void qwen_sliding(const ConfigReader& r, ModelConfig& m) {
  const bool use = r.boolean("use_sliding_window").value_or(false);
  const std::int64_t window = use ? r.positive("sliding_window").value_or(0) : 0;
  if (read_layer_types(r, m, window)) return;
  if (window <= 0) return;
  const std::int64_t first = r.count("max_window_layers").value_or(m.num_layers);
  set_sliding(m, window, [&](std::int64_t i) { return i >= first; });
}

/// Mistral/Mixtral: sliding_window, when set, applies to every layer (MistralAttention passes
/// config.sliding_window to every layer's attention; Mistral 7B paper sec. 2).
void mistral_sliding(const ConfigReader& r, ModelConfig& m) {
  const std::int64_t window = r.positive("sliding_window").value_or(0);
  if (read_layer_types(r, m, window)) return;
  if (window > 0) set_sliding(m, window, [](std::int64_t) { return true; });
}

}  // namespace

// modeling_llama.py: q/k/v/o_proj bias=config.attention_bias; gate/up/down bias=config.mlp_bias;
// LlamaConfig: tie_word_embeddings=False.
void rule_llama(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
  m.mlp_bias = r.boolean("mlp_bias").value_or(false);
  // LlamaConfig has no window: layer_types may only say full_attention (checked, one per layer).
  read_layer_types(r, m, /*window=*/0);
}

// modeling_mistral.py: no biases; MistralConfig: tie_word_embeddings=False, sliding_window=4096
// (null in v0.2 and later checkpoints).
void rule_mistral(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, false);
  mistral_sliding(r, m);
}

// modeling_mixtral.py: every layer's MLP is MixtralSparseMoeBlock (gate Linear without bias,
// experts w1/w2/w3 without bias); num_local_experts, num_experts_per_tok.
void rule_mixtral(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, false);
  if (!read_experts(r, m, {"num_local_experts"})) r.refuse("num_local_experts", "missing (a positive integer is required)");
  set_moe_layers(m, [](std::int64_t) { return true; });
  mistral_sliding(r, m);
}

// modeling_qwen2.py: q/k/v_proj bias=True, o_proj bias=False; Qwen2Config tie_word_embeddings=False.
void rule_qwen2(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, false);
  m.qkv_bias = true;
  qwen_sliding(r, m);
}

// modeling_qwen3.py: q/k/v/o_proj bias=config.attention_bias; q_norm and k_norm are RMSNorm of
// head_dim shared by the heads.
void rule_qwen3(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, false);
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
  m.qk_norm = QkNorm::per_head;
  qwen_sliding(r, m);
}

// modeling_qwen3_moe.py: Qwen3 attention; layer i has Qwen3MoeSparseMoeBlock (gate Linear
// without bias, experts without bias) when i is not in mlp_only_layers and
// (i + 1) % decoder_sparse_step == 0, else a dense MLP of intermediate_size.
void rule_qwen3_moe(const ConfigReader& r, ModelConfig& m) {
  rule_qwen3(r, m);
  if (!read_experts(r, m, {"num_experts"})) r.refuse("num_experts", "missing (a positive integer is required)");
  const std::int64_t step = r.positive("decoder_sparse_step").value_or(1);
  const std::vector<bool> dense = layer_mask(r, m, "mlp_only_layers");
  set_moe_layers(m, [&](std::int64_t i) { return !dense[static_cast<std::size_t>(i)] && (i + 1) % step == 0; });
}

}  // namespace tutor::b05
