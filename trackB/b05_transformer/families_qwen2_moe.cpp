// B05: Qwen2-MoE (Qwen1.5-MoE-A2.7B, Qwen2-57B-A14B): Qwen2 attention, routed experts and one
// shared expert behind its own sigmoid gate.
//
// Follows transformers src/transformers/models/qwen2_moe/modular_qwen2_moe.py and
// configuration_qwen2_moe.py:
//   Qwen2MoeAttention      q/k/v_proj bias=config.qkv_bias (Qwen2MoeConfig: true), o_proj no bias
//   Qwen2MoeDecoderLayer   layer i has Qwen2MoeSparseMoeBlock iff i is not in mlp_only_layers,
//                          num_experts > 0 and (i + 1) % decoder_sparse_step == 0; otherwise
//                          Qwen2MoeMLP of intermediate_size
//   Qwen2MoeSparseMoeBlock router weight (num_experts x hidden, no bias); num_experts experts of
//                          moe_intermediate_size (gate, up, down, no bias); shared_expert, a
//                          Qwen2MoeMLP of shared_expert_intermediate_size; shared_expert_gate,
//                          Linear(hidden, 1, bias=False) whose sigmoid scales the shared expert
//   norms                  RMSNorm input_layernorm, post_attention_layernorm; norm after the
//                          last layer; the LM head untied (tie_word_embeddings=False)
// Qwen2MoeConfig's defaults fill what a file leaves out: num_experts 60, num_experts_per_tok 4,
// moe_intermediate_size 1408, shared_expert_intermediate_size 5632, decoder_sparse_step 1.
#include "family.hpp"

namespace tutor::b05 {

void rule_qwen2_moe(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  m.qkv_bias = r.boolean("qkv_bias").value_or(true);
  m.o_bias = false;

  m.num_experts = r.count("num_experts").value_or(60);
  if (m.num_experts > 0) {
    m.experts_per_token = r.positive("num_experts_per_tok").value_or(4);
    if (m.experts_per_token > m.num_experts)
      r.refuse("num_experts_per_tok", "(" + std::to_string(m.experts_per_token) + ") exceeds the " +
                                          std::to_string(m.num_experts) + " experts");
    m.moe_intermediate_size = r.positive("moe_intermediate_size").value_or(1408);
    m.num_shared_experts = 1;
    m.shared_expert_intermediate_size = r.positive("shared_expert_intermediate_size").value_or(5632);
    m.shared_expert_gate = true;
    const std::int64_t step = r.positive("decoder_sparse_step").value_or(1);
    const std::vector<bool> dense = layer_mask(r, m, "mlp_only_layers");
    set_moe_layers(m, [&](std::int64_t i) { return !dense[static_cast<std::size_t>(i)] && (i + 1) % step == 0; });
  }

  // Qwen2MoeConfig keeps sliding_window only when use_sliding_window; which layers then slide
  // changed between transformers releases (layers from max_window_layers on; later even layers
  // below it), so the rule reads it only from an explicit layer_types.
  const bool sliding = r.boolean("use_sliding_window").value_or(false);
  const std::int64_t window = sliding ? r.positive("sliding_window").value_or(0) : 0;
  if (!read_layer_types(r, m, window) && sliding)
    r.refuse("use_sliding_window", "true without layer_types: which layers slide differs between transformers "
                                   "releases of Qwen2-MoE; give layer_types");
}

}  // namespace tutor::b05
