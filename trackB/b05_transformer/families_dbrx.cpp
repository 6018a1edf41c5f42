// B05: Databricks' DBRX (dbrx).
//
// Follows huggingface/transformers src/transformers/models/dbrx/modeling_dbrx.py and
// configuration_dbrx.py. DBRX keeps MPT's key names (d_model, n_heads, n_layers, max_seq_len)
// and nests attention and MoE sizes in attn_config and ffn_config objects.
#include "family.hpp"

#include <string>

#include <nlohmann/json.hpp>

namespace tutor::b05 {
namespace {

/// The nested object `key` (attn_config, ffn_config), required.
ConfigReader nested(const ConfigReader& r, std::string_view key) {
  const nlohmann::json* v = r.find(key);
  if (!v) r.refuse(key, "missing (DBRX keeps its attention and expert sizes there)");
  if (!v->is_object()) r.refuse(key, "must be an object");
  return ConfigReader(*v);
}

/// The nested reader's error names the key as `outer.inner`.
std::int64_t nested_required(const ConfigReader& inner, std::string_view outer, std::string_view key) {
  try {
    return inner.required(key);
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    throw ConfigError(std::string(outer) + "." + std::string(key), what.substr(e.field().size() + 2));
  }
}

}  // namespace

// modeling_dbrx.py: DbrxAttention has one fused Wqkv (d_model + 2 x kv_n_heads x head_dim rows,
// head_dim = d_model / n_heads) and out_proj, no biases; DbrxNormAttentionNorm: norm_1 and
// norm_2 are nn.LayerNorm(bias=False); DbrxFFN: a router (DbrxRouter.layer, no bias) to
// moe_num_experts and DbrxExperts with w1, v1 and w2 per expert of ffn_hidden_size (a gated MLP,
// no bias), on every block; norm_f is LayerNorm(bias=False); lm_head without bias.
// DbrxConfig: tie_word_embeddings must be False (it raises otherwise); clip_qkv adds no
// parameters.
void rule_dbrx(const ConfigReader& r, ModelConfig& m) {
  m.hidden_size = r.required("d_model");
  set_layer_count(r, m, "n_layers");
  m.num_heads = r.required("n_heads");
  if (m.hidden_size % m.num_heads != 0)
    r.refuse("n_heads", "(" + std::to_string(m.num_heads) + ") must divide d_model (" + std::to_string(m.hidden_size) + ")");
  m.head_dim = m.hidden_size / m.num_heads;
  m.vocab_size = r.required("vocab_size");
  m.max_position_embeddings = r.positive("max_seq_len").value_or(0);
  if (r.boolean("tie_word_embeddings").value_or(false))
    r.refuse("tie_word_embeddings", "true, but DbrxConfig does not support tied embeddings");

  const ConfigReader attn = nested(r, "attn_config");
  m.num_kv_heads = nested_required(attn, "attn_config", "kv_n_heads");
  // Checked here, under the key this config spells it with (the shared check says num_key_value_heads).
  if (m.num_heads > 0 && m.num_heads % m.num_kv_heads != 0)
    r.refuse("attn_config.kv_n_heads", "must divide n_heads (" + std::to_string(m.num_heads) + "), got " +
                                           std::to_string(m.num_kv_heads));

  const ConfigReader ffn = nested(r, "ffn_config");
  m.intermediate_size = m.moe_intermediate_size = nested_required(ffn, "ffn_config", "ffn_hidden_size");
  m.num_experts = nested_required(ffn, "ffn_config", "moe_num_experts");
  m.experts_per_token = nested_required(ffn, "ffn_config", "moe_top_k");
  if (m.experts_per_token > m.num_experts)
    r.refuse("ffn_config.moe_top_k", "(" + std::to_string(m.experts_per_token) + ") exceeds the " +
                                         std::to_string(m.num_experts) + " experts");
  set_moe_layers(m, [](std::int64_t) { return true; });
  m.norm = NormKind::layer_no_bias;
}

}  // namespace tutor::b05
