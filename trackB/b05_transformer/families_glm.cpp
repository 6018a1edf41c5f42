// B05: GLM-4 in transformers: glm (GLM-4-9B, -hf checkpoints) and glm4 (GLM-4-0414), which adds
// a norm after attention and after the MLP.
//
// Follows transformers src/transformers/models/glm/modular_glm.py and
// src/transformers/models/glm4/modular_glm4.py (with configuration_glm.py, configuration_glm4.py):
//   GlmAttention      q/k/v_proj bias=config.attention_bias (GlmConfig and Glm4Config: True),
//                     o_proj bias=False; partial rotary (partial_rotary_factor) adds no weights
//   GlmMLP            Phi3MLP: one fused gate_up_proj (hidden -> 2 * intermediate_size, the gate
//                     and up matrices under one key) and down_proj, bias=False
//   GlmDecoderLayer   RMSNorm input_layernorm, post_attention_layernorm (2 per layer)
//   Glm4DecoderLayer  also post_self_attn_layernorm and post_mlp_layernorm (4 per layer)
//   GlmModel          norm after the last layer; the LM head untied (tie_word_embeddings=False)
// head_dim: the first GlmAttention (derived from GraniteAttention) used hidden_size / heads and
// ignored the key; later releases read config.head_dim, whose class default is 128. The rule
// accepts only configs on which both agree.
#include "family.hpp"

namespace tutor::b05 {

void rule_glm(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  if (m.hidden_size % m.num_heads != 0)
    r.refuse("num_attention_heads", "does not divide hidden_size (GLM's first attention used hidden_size / heads)");
  const std::int64_t derived = m.hidden_size / m.num_heads;
  if (r.has("head_dim") ? m.head_dim != derived : derived != 128)
    r.refuse("head_dim", "must equal hidden_size / num_attention_heads (and 128 when absent): GLM releases "
                         "disagree otherwise");
  m.head_dim = derived;
  m.qkv_bias = r.boolean("attention_bias").value_or(true);
  m.o_bias = false;
  if (auto f = r.number("partial_rotary_factor"); f && !(*f > 0 && *f <= 1))
    r.refuse("partial_rotary_factor", "must be in (0, 1]");
}

void rule_glm4(const ConfigReader& r, ModelConfig& m) {
  rule_glm(r, m);
  m.norms_per_layer = 4;
}

}  // namespace tutor::b05
