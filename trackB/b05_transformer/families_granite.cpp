// B05: IBM Granite 3.x: Granite (dense) and GraniteMoE.
//
// Follows transformers src/transformers/models/granite/modeling_granite.py and
// src/transformers/models/granitemoe/modeling_granitemoe.py:
//   GraniteAttention / GraniteMoeAttention  head_dim = hidden_size // num_attention_heads
//                          (ValueError when it does not divide); q/k/v/o_proj
//                          bias=config.attention_bias
//   GraniteMLP             gate/up/down_proj bias=config.mlp_bias
//   GraniteMoeMoE          input_linear (num_local_experts x 2*intermediate_size x hidden) and
//                          output_linear (num_local_experts x hidden x intermediate_size), no bias:
//                          a gated expert of intermediate_size; GraniteMoeTopKGating
//                          Linear(hidden, num_local_experts, bias=False); every layer
//   norms                  RMSNorm input_layernorm, post_attention_layernorm; norm
//   multipliers            embedding_multiplier, residual_multiplier, attention_multiplier,
//                          logits_scaling scale activations: no parameters
// GraniteConfig and GraniteMoeConfig: attention_bias=False, mlp_bias=False,
// tie_word_embeddings=False (the released Granite 3.x checkpoints set it true).
#include "family.hpp"

namespace tutor::b05 {
namespace {

/// The trunk both Granite classes share: Llama's keys, head_dim from hidden / heads only.
void granite_trunk(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  if (m.hidden_size % m.num_heads != 0)
    r.refuse("num_attention_heads", "does not divide hidden_size (Granite's head_dim is hidden_size / heads)");
  if (r.has("head_dim") && m.head_dim != m.hidden_size / m.num_heads)
    r.refuse("head_dim", "differs from hidden_size / num_attention_heads, which Granite's attention uses");
  m.head_dim = m.hidden_size / m.num_heads;
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
  // Read so that a malformed value is named; they scale activations and store nothing.
  for (const char* key : {"embedding_multiplier", "residual_multiplier", "attention_multiplier", "logits_scaling"})
    (void)r.number(key);
}

}  // namespace

void rule_granite(const ConfigReader& r, ModelConfig& m) {
  granite_trunk(r, m);
  m.mlp_bias = r.boolean("mlp_bias").value_or(false);
}

void rule_granitemoe(const ConfigReader& r, ModelConfig& m) {
  granite_trunk(r, m);
  // GraniteMoeDecoderLayer builds no MLP at all when num_local_experts is 0, and
  // GraniteMoeConfig would fill a missing count with 8 experts: both are refused, not guessed.
  if (!read_experts(r, m, {"num_local_experts"}))
    r.refuse("num_local_experts", "missing or 0 (a GraniteMoE layer's only MLP is its experts)");
  m.moe_intermediate_size = m.intermediate_size;  // GraniteMoeMoE: experts of intermediate_size
  set_moe_layers(m, [](std::int64_t) { return true; });
}

}  // namespace tutor::b05
