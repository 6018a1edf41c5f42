// B05: gpt-oss (OpenAI, 2025).
//
// openai/gpt-oss gpt_oss/torch/model.py (the reference implementation) and transformers
// models/gpt_oss/modeling_gpt_oss.py build: a qkv Linear and an out Linear with biases, one
// learned sink logit per query head (sinks), RMSNorm before attention and before the MLP,
// a router Linear with bias, experts whose mlp1 (gate and up, 2 x intermediate_size) and
// mlp2 carry biases, every layer a mixture of experts, banded-window attention on even layers
// (sliding_window 128 in both released checkpoints) and dense attention on odd layers, and an
// unembedding separate from the embedding.
#include "family.hpp"

namespace tutor::b05 {

void rule_gpt_oss(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(true);
  m.attention_sinks = true;
  if (!read_experts(r, m, {"num_local_experts"})) r.refuse("num_local_experts", "missing (a positive integer is required)");
  m.mlp_bias = true;
  m.router_bias = true;
  set_moe_layers(m, [](std::int64_t) { return true; });
  const std::int64_t window = r.positive("sliding_window").value_or(0);
  if (read_layer_types(r, m, window)) return;
  if (window <= 0) r.refuse("sliding_window", "missing for a family with sliding-window layers");
  set_sliding(m, window, [](std::int64_t i) { return i % 2 == 0; });
}

}  // namespace tutor::b05
