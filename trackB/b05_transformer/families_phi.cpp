// B05: Microsoft's Phi lineage: Phi-1/1.5/2 (phi), Phi-3 and Phi-4 (phi3), Phi-3.5-MoE (phimoe).
//
// Each rule follows the family's modelling file in huggingface/transformers
// (src/transformers/models/<family>/); the classes it reads are named above it. Rotary
// positions (partial_rotary_factor, longrope rope_scaling) add no parameters.
#include "family.hpp"

namespace tutor::b05 {
namespace {

/// Phi-3 and PhiMoE pass config.sliding_window to every layer's attention.
void every_layer_slides(const ConfigReader& r, ModelConfig& m) {
  if (const std::int64_t window = r.positive("sliding_window").value_or(0); window > 0)
    set_sliding(m, window, [](std::int64_t) { return true; });
}

}  // namespace

// modeling_phi.py: PhiDecoderLayer has one input_layernorm (LayerNorm with bias) whose output
// feeds PhiAttention and PhiMLP in parallel (hidden = attn + mlp + residual). PhiAttention:
// q/k/v_proj and dense with bias; with qk_layernorm, q_layernorm and k_layernorm are LayerNorm
// of head_dim shared by the heads. PhiMLP: fc1 and fc2 with bias, ungated. final_layernorm;
// PhiForCausalLM: lm_head with bias. PhiConfig: tie_word_embeddings=False.
void rule_phi(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  m.norm = NormKind::layer;
  m.norms_per_layer = 1;
  m.parallel_block = true;
  m.gated_mlp = false;
  m.qkv_bias = m.o_bias = m.mlp_bias = true;
  m.lm_head_bias = true;
  if (r.boolean("qk_layernorm").value_or(false)) m.qk_norm = QkNorm::per_head;
}

// modeling_phi3.py: Phi3Attention has one fused qkv_proj ((heads + 2 x kv_heads) x head_dim
// rows) and o_proj, no biases; Phi3MLP one fused gate_up_proj (2 x intermediate) and down_proj,
// no biases: the same parameters as separate gate/up projections. Two RMSNorms per layer and a
// final one. Phi3Config: tie_word_embeddings=False (Phi-4-mini sets it true).
void rule_phi3(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  if (r.boolean("attention_bias").value_or(false))
    r.refuse("attention_bias", "true, but Phi3Attention's qkv_proj and o_proj have no bias");
  every_layer_slides(r, m);
}

// modular_phimoe.py: PhimoeAttention is LlamaAttention (q/k/v/o_proj bias=config.attention_bias);
// every layer's MLP is PhimoeSparseMoeBlock: a router (nn.Linear to num_local_experts, no bias)
// and Mixtral experts (w1, w3, w2 of intermediate_size, no bias); input_layernorm,
// post_attention_layernorm and the final norm are nn.LayerNorm (with bias); lm_head
// bias=config.lm_head_bias. PhimoeConfig: tie_word_embeddings=False.
void rule_phimoe(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  if (!read_experts(r, m, {"num_local_experts"}))
    r.refuse("num_local_experts", "missing (a positive integer is required)");
  set_moe_layers(m, [](std::int64_t) { return true; });
  m.norm = NormKind::layer;
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
  m.lm_head_bias = r.boolean("lm_head_bias").value_or(false);
  every_layer_slides(r, m);
}

}  // namespace tutor::b05
