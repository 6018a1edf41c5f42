// B05: the Gemma lineage: Gemma, Gemma 2, Gemma 3 (text model).
//
// transformers models/gemma*/modeling_gemma*.py: RMSNorm (its scale is stored as w and applied
// as 1 + w: one parameter per channel all the same), a gated GeLU MLP without biases, q/k/v/o
// bias=config.attention_bias, the LM head tied to the embedding (tie_word_embeddings=True in
// every Gemma config class). The embedding's sqrt(hidden_size) multiplier adds no parameters.
//
// The config classes default head_dim to 256 (not hidden_size / num_attention_heads) and
// num_key_value_heads to a fixed count (GemmaConfig 16; Gemma2Config and Gemma3TextConfig 4 in
// current releases, different in earlier ones), so a config without num_key_value_heads is
// refused rather than read with a default that depends on the transformers version.
#include "family.hpp"

namespace tutor::b05 {
namespace {

void read_gemma_trunk(const ConfigReader& r, ModelConfig& m, std::int64_t default_vocab = 0) {
  if (!r.has("num_key_value_heads"))
    r.refuse("num_key_value_heads", "missing; the Gemma config classes default it to a fixed count that changed "
                                    "between transformers releases, so give it");
  read_llama_trunk(r, m, /*tie_default=*/true, default_vocab, /*default_head_dim=*/256);
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(false);
}

}  // namespace

// modeling_gemma.py: input_layernorm, post_attention_layernorm (2 norms per layer).
void rule_gemma(const ConfigReader& r, ModelConfig& m) { read_gemma_trunk(r, m); }

// modeling_gemma2.py: input_layernorm, post_attention_layernorm, pre_feedforward_layernorm,
// post_feedforward_layernorm (4); even layers slide (Gemma2Attention: sliding_window if not
// layer_idx % 2; Gemma2Config sliding_window=4096), unless layer_types says otherwise.
void rule_gemma2(const ConfigReader& r, ModelConfig& m) {
  rule_gemma(r, m);
  m.norms_per_layer = 4;
  const std::int64_t window = r.positive("sliding_window").value_or(4096);
  if (!read_layer_types(r, m, window)) set_sliding(m, window, [](std::int64_t i) { return i % 2 == 0; });
}

// modeling_gemma3.py (Gemma3TextModel): Gemma 2's four norms plus q_norm and k_norm of head_dim;
// configuration_gemma3.py (Gemma3TextConfig): vocab_size=262_208, sliding_window=4096,
// sliding_window_pattern=6 (layer i global iff (i + 1) % 6 == 0; Gemma 3 technical report
// sec. 2.2: 5 local layers per global layer), or layer_types when present.
void rule_gemma3_text(const ConfigReader& r, ModelConfig& m) {
  read_gemma_trunk(r, m, /*default_vocab=*/262208);
  // Gemma3TextConfig max_position_embeddings=131_072: the Hub's nested 27B file leaves it out.
  if (m.max_position_embeddings == 0) m.max_position_embeddings = 131072;
  m.norms_per_layer = 4;
  m.qk_norm = QkNorm::per_head;
  const std::int64_t window = r.positive("sliding_window").value_or(4096);
  if (read_layer_types(r, m, window)) return;
  const std::int64_t pattern = r.positive("sliding_window_pattern").value_or(6);
  set_sliding(m, window, [&](std::int64_t i) { return (i + 1) % pattern != 0; });
}

}  // namespace tutor::b05
