// B05: DeepSeek-V2 and DeepSeek-V3: multi-head latent attention and fine-grained experts.
//
// transformers models/deepseek_v2/modeling_deepseek_v2.py and models/deepseek_v3/
// modeling_deepseek_v3.py, after DeepSeek-V2 (Liu et al. 2024) sec. 2.1-2.2: every layer's
// attention is MLA (q_a_proj + q_a_layernorm + q_b_proj, or q_proj when q_lora_rank is null;
// kv_a_proj_with_mqa + kv_a_layernorm + kv_b_proj; o_proj), biases per config.attention_bias;
// RMSNorm before attention and before the MLP; layer i has the MoE block (routed experts of
// moe_intermediate_size, n_shared_experts shared experts, a router without bias; V3 adds
// e_score_correction_bias, one per expert) when i >= first_k_dense_replace and
// i % moe_layer_freq == 0, else a dense MLP of intermediate_size. The multi-token-prediction
// module (num_nextn_predict_layers) is not part of the model these classes build, and not
// part of the published totals (DeepSeek-V3: 671B main model).
#include "family.hpp"

namespace tutor::b05 {
namespace {

void read_deepseek(const ConfigReader& r, ModelConfig& m) {
  m.hidden_size = r.required("hidden_size");
  set_layer_count(r, m, "num_hidden_layers");
  m.num_heads = r.required("num_attention_heads");
  m.num_kv_heads = m.num_heads;  // MLA caches a latent, not per-head K/V; num_key_value_heads is unused
  m.intermediate_size = r.required("intermediate_size");
  m.vocab_size = r.required("vocab_size");
  m.max_position_embeddings = r.positive("max_position_embeddings").value_or(0);
  m.tie_word_embeddings = r.boolean("tie_word_embeddings").value_or(false);
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);

  m.kv_lora_rank = r.required("kv_lora_rank");
  m.qk_rope_head_dim = r.required("qk_rope_head_dim");
  m.qk_nope_head_dim = r.required("qk_nope_head_dim");
  m.v_head_dim = r.required("v_head_dim");
  m.q_lora_rank = r.positive("q_lora_rank").value_or(0);  // null in DeepSeek-V2-Lite: q_proj
  m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;    // q/k width per head
  for (auto& l : m.layers) l.attention = AttentionKind::mla;

  if (read_experts(r, m, {"n_routed_experts"})) {
    m.num_shared_experts = r.count("n_shared_experts").value_or(0);
    const std::int64_t first = r.count("first_k_dense_replace").value_or(0);
    if (first > m.num_layers) r.refuse("first_k_dense_replace", "exceeds num_hidden_layers");
    m.first_dense_layers = first;
    const std::int64_t freq = r.positive("moe_layer_freq").value_or(1);
    set_moe_layers(m, [&](std::int64_t i) { return i >= first && i % freq == 0; });
  }
}

}  // namespace

void rule_deepseek_v2(const ConfigReader& r, ModelConfig& m) { read_deepseek(r, m); }

void rule_deepseek_v3(const ConfigReader& r, ModelConfig& m) {
  read_deepseek(r, m);
  m.router_bias = m.is_moe();  // e_score_correction_bias
}

}  // namespace tutor::b05
