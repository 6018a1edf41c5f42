// B05: EXAONE 3.0 / 3.5 (remote code: the checkpoint ships its own modelling file, with its own
// key names).
//
// Follows the model repository's modeling_exaone.py and configuration_exaone.py
// (LGAI-EXAONE/EXAONE-3.0-7.8B-Instruct), read through vLLM's port of them
// (vllm/model_executor/models/exaone.py, "adapted from" that file) and its copy of ExaoneConfig
// (vllm/transformers_utils/configs/exaone.py), and checked against the printed module tree of
// the 7.8B checkpoint:
//   ExaoneConfig          num_layers (num_hidden_layers is an alias of it), intermediate_size
//                         (default 4 * hidden_size), num_key_value_heads (default
//                         num_attention_heads), vocab_size 102400, tie_word_embeddings=True
//   ExaoneAttention       attn.attention.q_proj, k_proj, v_proj, out_proj, no biases;
//                         head_dim = hidden_size / num_attention_heads
//   ExaoneGatedMLP        mlp.c_fc_0 (gate), c_fc_1 (up), c_proj (down), no biases
//   norms                 RMSNorm ln_1, ln_2 per block (h.N); ln_f after the last
//   embeddings            transformer.wte; lm_head (untied in the 7.8B checkpoints, tied when
//                         tie_word_embeddings is absent)
#include "family.hpp"

namespace tutor::b05 {

void rule_exaone(const ConfigReader& r, ModelConfig& m) {
  m.hidden_size = r.required("hidden_size");
  if (r.has("num_layers") && r.has("num_hidden_layers") && r.positive("num_layers") != r.positive("num_hidden_layers"))
    r.refuse("num_hidden_layers", "differs from num_layers, the key ExaoneConfig reads");
  set_layer_count(r, m, r.has("num_hidden_layers") && !r.has("num_layers") ? "num_hidden_layers" : "num_layers");
  m.num_heads = r.required("num_attention_heads");
  m.num_kv_heads = r.positive("num_key_value_heads").value_or(m.num_heads);
  if (m.hidden_size % m.num_heads != 0)
    r.refuse("num_attention_heads", "does not divide hidden_size (EXAONE's head_dim is hidden_size / heads)");
  m.head_dim = m.hidden_size / m.num_heads;
  if (auto hd = r.positive("head_dim"); hd && *hd != m.head_dim)
    r.refuse("head_dim", "differs from hidden_size / num_attention_heads, which EXAONE's attention uses");
  // ExaoneConfig: `if intermediate_size: ... else: hidden_size * 4` (0, null and absent alike).
  const auto inner = r.count("intermediate_size");
  m.intermediate_size = inner && *inner > 0 ? *inner : 4 * m.hidden_size;
  m.vocab_size = r.positive("vocab_size").value_or(102400);
  m.max_position_embeddings = r.positive("max_position_embeddings").value_or(0);
  m.tie_word_embeddings = r.boolean("tie_word_embeddings").value_or(true);
  // The modelling file builds every projection without bias; a config claiming one is not EXAONE's.
  for (const char* key : {"attention_bias", "mlp_bias", "bias"})
    if (r.boolean(key).value_or(false)) r.refuse(key, "true, but EXAONE's modelling code builds no biases");
}

}  // namespace tutor::b05
