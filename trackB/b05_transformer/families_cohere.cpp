// B05: Cohere's Command models: Command R / R+ (cohere) and Command R7B / A (cohere2).
//
// Each rule follows the family's modelling file in huggingface/transformers
// (src/transformers/models/cohere/modeling_cohere.py, models/cohere2/modular_cohere2.py). Both
// build one CohereLayerNorm (a weight, no bias) per layer whose output feeds attention and a
// gated MLP (gate/up/down_proj, no bias) in parallel, a final CohereLayerNorm, and tie the LM
// head to the embedding by default; logit_scale multiplies the logits and adds no parameters.
#include "family.hpp"

#include <string>

namespace tutor::b05 {
namespace {

void cohere_block(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/true);
  m.norm = NormKind::layer_no_bias;
  m.norms_per_layer = 1;
  m.parallel_block = true;
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
}

}  // namespace

// modeling_cohere.py: CohereAttention q/k/v/o_proj bias=config.attention_bias; with use_qk_norm,
// q_norm is CohereLayerNorm((heads, head_dim)) and k_norm CohereLayerNorm((kv_heads, head_dim)):
// a weight per head and channel (Command R+), counted as full-width q/k norms.
void rule_cohere(const ConfigReader& r, ModelConfig& m) {
  cohere_block(r, m);
  if (r.boolean("use_qk_norm").value_or(false)) m.qk_norm = QkNorm::full_width;
}

// modular_cohere2.py: Cohere2Config sets head_dim = hidden / heads whatever the file says;
// layer_types, when absent, makes layer i sliding unless (i + 1) % sliding_window_pattern == 0
// (pattern default 4), with sliding_window default 4096; the global layers skip rotary positions.
// Cohere2Attention has no q/k norms, and Cohere2DecoderLayer is always parallel: a file asking
// for either is refused rather than counted the way transformers would silently build it.
void rule_cohere2(const ConfigReader& r, ModelConfig& m) {
  cohere_block(r, m);
  if (r.has("head_dim") && m.head_dim * m.num_heads != m.hidden_size)
    r.refuse("head_dim", "(" + std::to_string(m.head_dim) + ") is not hidden_size / num_attention_heads; "
                         "Cohere2Config overrides it with that quotient, other readers take it as written");
  if (r.boolean("use_qk_norm").value_or(false))
    r.refuse("use_qk_norm", "true, but Cohere2Attention builds no q/k norms");
  if (!r.boolean("use_parallel_block").value_or(true))
    r.refuse("use_parallel_block", "false, but Cohere2DecoderLayer is always a parallel block");
  const std::int64_t window = r.positive("sliding_window").value_or(4096);
  if (read_layer_types(r, m, window)) return;
  const std::int64_t pattern = r.positive("sliding_window_pattern").value_or(4);
  set_sliding(m, window, [&](std::int64_t i) { return (i + 1) % pattern != 0; });
}

}  // namespace tutor::b05
