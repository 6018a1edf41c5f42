// B05: InternLM2 and InternLM2.5 (remote code: the checkpoint ships its own modelling file).
//
// Follows the model repository's modeling_internlm2.py (internlm/internlm2_5-7b-chat and the
// other InternLM2 checkpoints carry the same file) and its configuration_internlm2.py:
//   InternLM2Attention   head_dim = hidden_size // num_attention_heads (ValueError when it does
//                        not divide); one fused projection wqkv of
//                        (num_attention_heads + 2 * num_key_value_heads) * head_dim rows, which
//                        holds exactly q, k and v (the same parameters under another key), and
//                        wo; both with bias=config.bias (InternLM2Config: bias=True; the released
//                        checkpoints set false)
//   InternLM2MLP         feed_forward.w1 (gate), w3 (up), w2 (down), bias=False
//   norms                RMSNorm attention_norm, ffn_norm; norm after the last layer
//   InternLM2ForCausalLM tok_embeddings and an output head, untied (tie_word_embeddings=False)
// Dynamic-NTK rope_scaling changes no weights.
#include "family.hpp"

namespace tutor::b05 {

void rule_internlm2(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/false);
  if (m.hidden_size % m.num_heads != 0)
    r.refuse("num_attention_heads", "does not divide hidden_size (InternLM2's head_dim is hidden_size / heads)");
  if (r.has("head_dim") && m.head_dim != m.hidden_size / m.num_heads)
    r.refuse("head_dim", "differs from hidden_size / num_attention_heads, which InternLM2's attention uses");
  m.head_dim = m.hidden_size / m.num_heads;
  m.qkv_bias = m.o_bias = r.boolean("bias").value_or(true);
}

}  // namespace tutor::b05
