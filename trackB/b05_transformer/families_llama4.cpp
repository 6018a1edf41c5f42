// B05: Llama 4 (Scout, Maverick), its text model: chunked attention on three layers in four,
// global position-free (NoPE) layers on the fourth, MoE layers with one shared expert, dense
// layers of their own width.
//
// Follows transformers src/transformers/models/llama4/modeling_llama4.py and
// configuration_llama4.py (Llama4TextConfig; the multimodal Llama4Config nests it under
// text_config, which the parser reads; its vision tower is vision.cpp's):
//   Llama4TextAttention    q/k/v/o_proj bias=config.attention_bias; qk_norm is Llama4TextL2Norm,
//                          which has no weight (no parameters), on RoPE layers only
//   Llama4TextDecoderLayer layer i is MoE iff i is in config.moe_layers (default: every
//                          interleave_moe_layer_step-th layer, range(step - 1, layers, step));
//                          otherwise Llama4TextMLP of intermediate_size_mlp
//   Llama4TextMoe          Llama4Router (Linear(hidden, num_local_experts, bias=False)),
//                          Llama4TextExperts (gate_up_proj and down_proj of intermediate_size,
//                          no bias), shared_expert Llama4TextMLP of intermediate_size, ungated
//   attention pattern      no_rope_layers (default: layer i uses RoPE iff (i + 1) %
//                          no_rope_layer_interval != 0, interval 4); layer_types (default:
//                          chunked_attention on RoPE layers, full_attention on NoPE layers),
//                          chunk attention_chunk_size (8192)
//   norms                  RMSNorm input_layernorm, post_attention_layernorm; norm; the LM head
//                          untied (tie_word_embeddings=False)
// Llama4TextConfig's head_dim default is 128 (not hidden_size / heads) when the key is absent.
#include "family.hpp"

#include <nlohmann/json.hpp>

namespace tutor::b05 {

void rule_llama4(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  if (!r.json().contains("head_dim")) m.head_dim = 128;  // absent: the class default; null: hidden / heads
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
  // use_qk_norm: an L2 norm without weight, so nothing to count whichever way it is set.
  if (r.has("use_qk_norm")) (void)r.boolean("use_qk_norm");

  // Experts are intermediate_size wide; the dense layers have their own width.
  m.num_experts = r.positive("num_local_experts").value_or(16);
  m.experts_per_token = r.positive("num_experts_per_tok").value_or(1);
  if (m.experts_per_token > m.num_experts)
    r.refuse("num_experts_per_tok", "(" + std::to_string(m.experts_per_token) + ") exceeds the " +
                                        std::to_string(m.num_experts) + " experts");
  m.moe_intermediate_size = m.intermediate_size;
  m.num_shared_experts = 1;
  m.shared_expert_intermediate_size = m.intermediate_size;
  m.intermediate_size = r.positive("intermediate_size_mlp").value_or(16384);

  if (r.has("moe_layers")) {
    const std::vector<bool> moe = layer_mask(r, m, "moe_layers");
    set_moe_layers(m, [&](std::int64_t i) { return moe[static_cast<std::size_t>(i)]; });
  } else {
    const std::int64_t step = r.positive("interleave_moe_layer_step").value_or(1);
    set_moe_layers(m, [&](std::int64_t i) { return (i + 1) % step == 0; });
  }

  // no_rope_layers is one flag per layer (1: RoPE), not a list of indices; empty means the default.
  std::vector<bool> rope(static_cast<std::size_t>(m.num_layers));
  const auto flags = r.int_list("no_rope_layers");
  if (flags && !flags->empty()) {
    if (static_cast<std::int64_t>(flags->size()) != m.num_layers)
      r.refuse("no_rope_layers", "has " + std::to_string(flags->size()) + " entries, num_hidden_layers is " +
                                     std::to_string(m.num_layers));
    for (std::size_t i = 0; i < flags->size(); ++i) {
      if ((*flags)[i] > 1) r.refuse("no_rope_layers", "entries must be 0 (no RoPE) or 1 (RoPE)");
      rope[i] = (*flags)[i] == 1;
    }
  } else {
    const std::int64_t interval = r.positive("no_rope_layer_interval").value_or(4);
    for (std::int64_t i = 0; i < m.num_layers; ++i) rope[static_cast<std::size_t>(i)] = (i + 1) % interval != 0;
  }

  // attention_chunk_size null would leave the chunked layers unbounded: not reproduced.
  if (const auto it = r.json().find("attention_chunk_size"); it != r.json().end() && it->is_null())
    r.refuse("attention_chunk_size", "is null; the rule reads chunked layers with a chunk size only");
  const std::int64_t chunk = r.positive("attention_chunk_size").value_or(8192);
  if (read_layer_types(r, m, /*window=*/0, chunk)) return;
  for (std::int64_t i = 0; i < m.num_layers; ++i) {
    LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    if (rope[static_cast<std::size_t>(i)]) {
      l.attention = AttentionKind::chunked;
      l.window = chunk;
    }
  }
}

}  // namespace tutor::b05
