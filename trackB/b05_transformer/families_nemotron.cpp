// B05: NVIDIA's Nemotron-3/4 and Minitron (nemotron).
//
// Follows huggingface/transformers src/transformers/models/nemotron/modeling_nemotron.py and
// configuration_nemotron.py.
#include "family.hpp"

namespace tutor::b05 {

// modeling_nemotron.py: NemotronLayerNorm1P is nn.LayerNorm with a bias (it adds 1 to the weight
// when applied): input_layernorm, post_attention_layernorm and the final norm.
// NemotronAttention: q/k/v/o_proj bias=config.attention_bias, head_dim from the config (default
// hidden / heads). NemotronMLP: up_proj and down_proj (squared ReLU, ungated),
// bias=config.mlp_bias. Partial rotary positions add no parameters. NemotronConfig:
// tie_word_embeddings=False, and num_key_value_heads stays None when the file omits it, so such
// a file is refused rather than read as multi-head.
void rule_nemotron(const ConfigReader& r, ModelConfig& m) {
  if (!r.has("num_key_value_heads"))
    r.refuse("num_key_value_heads", "missing (NemotronConfig has no default for it)");
  read_llama_trunk(r, m, /*tie_default=*/false);
  m.norm = NormKind::layer;
  m.gated_mlp = false;
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
  m.mlp_bias = r.boolean("mlp_bias").value_or(false);
}

}  // namespace tutor::b05
