// B05: AI2's OLMo (olmo) and OLMo 2 (olmo2).
//
// Each rule follows the family's modelling file in huggingface/transformers
// (src/transformers/models/olmo/modeling_olmo.py, models/olmo2/modular_olmo2.py). Both use the
// Llama trunk's keys, a gated MLP without bias (gate/up/down_proj), rotary positions, and an
// untied LM head by default (OlmoConfig, Olmo2Config: tie_word_embeddings=False).
#include "family.hpp"

namespace tutor::b05 {

// modeling_olmo.py: OlmoLayerNorm is layer norm "with no learnable weight or bias"
// (F.layer_norm without weight or bias): input_layernorm, post_attention_layernorm and the final
// norm hold no parameters. OlmoAttention q/k/v/o_proj bias=config.attention_bias; clip_qkv
// clamps activations and adds no parameters.
void rule_olmo(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  m.norm = NormKind::non_parametric;
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
}

// modular_olmo2.py: Olmo2DecoderLayer deletes input_layernorm and normalises after each block
// instead (post_attention_layernorm, post_feedforward_layernorm: RMSNorm of hidden_size);
// Olmo2Attention adds q_norm, an RMSNorm over heads x head_dim, and k_norm over
// kv_heads x head_dim, applied before the heads are split; the final norm is RMSNorm.
void rule_olmo2(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  m.norm = NormKind::rms;
  m.norms_per_layer = 2;
  m.qk_norm = QkNorm::full_width;
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
}

}  // namespace tutor::b05
