// B05: the GPT lineage: GPT-2, GPT-NeoX (Pythia), GPT-J, Falcon, StarCoder2.
//
// Each rule follows the family's modelling file in huggingface/transformers
// (src/transformers/models/<family>/modeling_<family>.py and configuration_<family>.py); the
// classes it reads are named above it. What they share and Llama does not: LayerNorm with a
// bias (2 x width per norm) and an ungated MLP (an up and a down projection). GPT-2 and GPT-J
// name their sizes n_embd / n_layer / n_head (their configs map hidden_size and the other
// Llama names onto them, so either spelling is read, and two that disagree are refused).
#include "family.hpp"

#include <string>

namespace tutor::b05 {
namespace {

/// The first of `keys` present (its value through positive()), refusing a second present key
/// with another value: transformers' attribute_map makes both spellings set one attribute, and
/// which wins depends on key order.
std::optional<std::int64_t> aliased(const ConfigReader& r, std::initializer_list<std::string_view> keys) {
  std::optional<std::int64_t> value;
  std::string_view first;
  for (std::string_view k : keys) {
    const auto v = r.positive(k);
    if (!v) continue;
    if (!value) {
      value = v;
      first = k;
    } else if (*v != *value) {
      // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false positive) on the
      // one-expression concatenation, and CI builds with warnings as errors.
      std::string why = "(";
      why += std::to_string(*v);
      why += ") disagrees with ";
      why += first;
      why += " (";
      why += std::to_string(*value);
      why += "); both name the same size";
      r.refuse(k, why);
    }
  }
  return value;
}

/// aliased(), or ConfigError naming the first key when none is present.
std::int64_t aliased_required(const ConfigReader& r, std::initializer_list<std::string_view> keys) {
  if (auto v = aliased(r, keys)) return *v;
  r.refuse(*keys.begin(), "missing (a positive integer is required)");
}

/// The layer count under the first of `keys` present (set_layer_count builds m.layers).
void aliased_layers(const ConfigReader& r, ModelConfig& m, std::initializer_list<std::string_view> keys) {
  aliased(r, keys);  // only to refuse two spellings that disagree
  for (std::string_view k : keys)
    if (r.has(k)) return set_layer_count(r, m, k);
  set_layer_count(r, m, *keys.begin());  // refuses: missing
}

/// head_dim = hidden / heads, which these families compute without a head_dim key.
void heads_divide_hidden(const ConfigReader& r, ModelConfig& m, std::string_view heads_key) {
  if (m.hidden_size % m.num_heads != 0)
    r.refuse(heads_key, "(" + std::to_string(m.num_heads) + ") must divide the hidden size (" +
                            std::to_string(m.hidden_size) + ")");
  m.head_dim = m.hidden_size / m.num_heads;
}

/// GPT-2 and GPT-J: n_embd, n_layer, n_head (or hidden_size, num_hidden_layers,
/// num_attention_heads), n_inner (null: 4 x n_embd), vocab_size; multi-head attention.
void read_gpt_trunk(const ConfigReader& r, ModelConfig& m) {
  m.hidden_size = aliased_required(r, {"n_embd", "hidden_size"});
  aliased_layers(r, m, {"n_layer", "num_hidden_layers"});
  m.num_heads = aliased_required(r, {"n_head", "num_attention_heads"});
  heads_divide_hidden(r, m, "n_head");
  m.num_kv_heads = m.num_heads;
  m.intermediate_size = r.positive("n_inner").value_or(4 * m.hidden_size);
  m.vocab_size = r.required("vocab_size");
  m.max_position_embeddings = aliased(r, {"n_positions", "max_position_embeddings"}).value_or(0);
  m.norm = NormKind::layer;
  m.gated_mlp = false;
}

}  // namespace

// modeling_gpt2.py: GPT2Model has wte and a learned position table wpe of n_positions rows;
// GPT2Block: ln_1, GPT2Attention (c_attn: one fused Conv1D to 3 x n_embd with bias; c_proj with
// bias), ln_2, GPT2MLP (c_fc to n_inner and c_proj, both with bias); ln_f after the last block.
// GPT2LMHeadModel: lm_head without bias, tied to wte (PretrainedConfig's tie default is true).
void rule_gpt2(const ConfigReader& r, ModelConfig& m) {
  if (r.boolean("add_cross_attention").value_or(false))
    r.refuse("add_cross_attention", "true adds cross-attention blocks to every layer; B05 counts decoder-only models");
  read_gpt_trunk(r, m);
  m.position_embeddings = aliased(r, {"n_positions", "max_position_embeddings"}).value_or(0);
  if (m.position_embeddings == 0) r.refuse("n_positions", "missing (GPT-2 learns one position embedding per position)");
  m.qkv_bias = m.o_bias = m.mlp_bias = true;
  m.tie_word_embeddings = r.boolean("tie_word_embeddings").value_or(true);
}

// modeling_gptj.py: GPTJBlock has one ln_1 whose output feeds attention and MLP in parallel
// (hidden = attn + mlp + residual); GPTJAttention: q/k/v/out_proj without bias; GPTJMLP: fc_in
// and fc_out with bias; ln_f; GPTJForCausalLM: lm_head with bias. Rotary positions (rotary_dim)
// add no parameters. GPTJConfig: tie_word_embeddings=False.
void rule_gptj(const ConfigReader& r, ModelConfig& m) {
  read_gpt_trunk(r, m);
  m.norms_per_layer = 1;
  m.parallel_block = true;
  m.mlp_bias = true;
  m.lm_head_bias = true;
  m.tie_word_embeddings = r.boolean("tie_word_embeddings").value_or(false);
}

// modeling_gpt_neox.py: GPTNeoXLayer has input_layernorm and post_attention_layernorm (both
// LayerNorm, two even when use_parallel_residual runs attention and MLP in parallel);
// GPTNeoXAttention: fused query_key_value (3 x hidden) and dense, bias=config.attention_bias
// (default True); GPTNeoXMLP: dense_h_to_4h and dense_4h_to_h, always with bias;
// final_layer_norm; embed_out without bias. GPTNeoXConfig: tie_word_embeddings=False,
// multi-head attention only (head_size = hidden / heads).
void rule_gpt_neox(const ConfigReader& r, ModelConfig& m) {
  m.hidden_size = r.required("hidden_size");
  set_layer_count(r, m, "num_hidden_layers");
  m.num_heads = r.required("num_attention_heads");
  heads_divide_hidden(r, m, "num_attention_heads");
  m.num_kv_heads = m.num_heads;
  m.intermediate_size = r.required("intermediate_size");
  m.vocab_size = r.required("vocab_size");
  m.max_position_embeddings = r.positive("max_position_embeddings").value_or(0);
  m.tie_word_embeddings = r.boolean("tie_word_embeddings").value_or(false);
  m.norm = NormKind::layer;
  m.gated_mlp = false;
  m.parallel_block = r.boolean("use_parallel_residual").value_or(true);
  m.qkv_bias = m.o_bias = r.boolean("attention_bias").value_or(true);
  m.mlp_bias = true;
}

// modeling_falcon.py / configuration_falcon.py: FalconAttention's fused query_key_value has
// (heads + 2 x kv) x head_dim rows, kv = num_kv_heads with new_decoder_architecture, 1 with
// multi_query (num_kv_heads, which defaults to num_attention_heads, is then ignored), else
// heads; dense; FalconMLP dense_h_to_4h / dense_4h_to_h of ffn_hidden_size (default 4 x hidden);
// every Linear has bias=config.bias. FalconDecoderLayer: without parallel_attn, input_layernorm
// and post_attention_layernorm; with it, ln_attn and ln_mlp when num_ln_in_parallel_attn is 2
// (its default under new_decoder_architecture), else one input_layernorm. All LayerNorm with
// bias; ln_f; lm_head without bias, tied (PretrainedConfig default). ALiBi and rotary positions
// add no parameters. The older names (n_embed, n_layer, n_head, n_head_kv) are read too.
void rule_falcon(const ConfigReader& r, ModelConfig& m) {
  m.hidden_size = aliased_required(r, {"hidden_size", "n_embed"});
  aliased_layers(r, m, {"num_hidden_layers", "n_layer"});
  m.num_heads = aliased_required(r, {"num_attention_heads", "n_head"});
  heads_divide_hidden(r, m, "num_attention_heads");
  const auto kv = aliased(r, {"num_kv_heads", "n_head_kv"});
  const bool new_arch = r.boolean("new_decoder_architecture").value_or(false);
  const bool multi_query = r.boolean("multi_query").value_or(true);
  if (new_arch) {
    m.num_kv_heads = kv.value_or(m.num_heads);
    // Checked here, under the key this config spells it with (the shared check says num_key_value_heads).
    if (kv && m.num_heads % *kv != 0)
      r.refuse(r.has("num_kv_heads") ? "num_kv_heads" : "n_head_kv",
               "must divide num_attention_heads (" + std::to_string(m.num_heads) + "), got " + std::to_string(*kv));
  } else if (multi_query) {
    m.num_kv_heads = 1;
  } else {
    // query_key_value is 3 x hidden wide here whatever num_kv_heads says.
    if (kv && *kv != m.num_heads)
      r.refuse("num_kv_heads", "(" + std::to_string(*kv) + ") differs from num_attention_heads without "
                               "new_decoder_architecture or multi_query; FalconAttention would build 3 x hidden");
    m.num_kv_heads = m.num_heads;
  }
  m.intermediate_size = r.positive("ffn_hidden_size").value_or(4 * m.hidden_size);
  m.vocab_size = r.required("vocab_size");
  m.max_position_embeddings = r.positive("max_position_embeddings").value_or(0);
  m.tie_word_embeddings = r.boolean("tie_word_embeddings").value_or(true);
  m.norm = NormKind::layer;
  m.gated_mlp = false;
  m.qkv_bias = m.o_bias = m.mlp_bias = r.boolean("bias").value_or(false);
  m.parallel_block = r.boolean("parallel_attn").value_or(true);
  const std::int64_t lns = r.positive("num_ln_in_parallel_attn").value_or(new_arch ? 2 : 1);
  if (lns != 1 && lns != 2) r.refuse("num_ln_in_parallel_attn", "must be 1 or 2, got " + std::to_string(lns));
  m.norms_per_layer = m.parallel_block ? lns : 2;
}

// modeling_starcoder2.py: Starcoder2Attention q/k/v/o_proj and Starcoder2MLP c_fc / c_proj
// (ungated) with bias=config.use_bias (default True); input_layernorm and
// post_attention_layernorm are nn.LayerNorm (with bias), as is the final norm; every layer's
// attention gets config.sliding_window. Starcoder2Config: tie_word_embeddings=True.
void rule_starcoder2(const ConfigReader& r, ModelConfig& m) {
  read_llama_trunk(r, m, /*tie_default=*/true);
  m.norm = NormKind::layer;
  m.gated_mlp = false;
  m.qkv_bias = m.o_bias = m.mlp_bias = r.boolean("use_bias").value_or(true);
  if (const std::int64_t window = r.positive("sliding_window").value_or(0); window > 0)
    set_sliding(m, window, [](std::int64_t) { return true; });
}

}  // namespace tutor::b05
