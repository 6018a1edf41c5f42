#pragma once
// B05: how a family's rule reads its config.json.
//
// A config.json names sizes under the key names of its family's configuration class
// (`n_embd` in GPT-2, `hidden_size` in Llama); what it leaves implicit (which projections carry
// a bias, how many norms a layer has, whether the MLP is gated) is fixed by the family's
// modelling code. Each family is one rule: a function that reads the keys its modelling code
// reads and sets every ModelConfig field that code decides, citing the file it follows. The
// rules live in families_<lineage>.cpp; families.cpp lists them. After the rule, the parser
// checks what every model must satisfy (model.cpp: positive sizes, heads divisible, one
// LayerSpec per layer).
//
// A rule never guesses: a key combination its modelling code would treat in a way the rule
// does not reproduce is refused with ConfigReader::refuse (one line naming the key).
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model.hpp"

namespace tutor::b05 {

/// Typed, checked access to the keys of one config object. Every error is a ConfigError
/// naming the key. A key that is absent or JSON null reads as std::nullopt (transformers
/// treats null as "use the default").
class ConfigReader {
 public:
  explicit ConfigReader(const nlohmann::json& config) : j_(config) {}

  bool has(std::string_view key) const;  ///< present and not null
  const nlohmann::json* find(std::string_view key) const;  ///< nullptr when absent or null

  /// A positive integer (integral floats such as 4096.0 pass), at most 2^31 - 1.
  std::optional<std::int64_t> positive(std::string_view key) const;
  /// A non-negative integer (0 allowed: n_shared_experts, first_k_dense_replace).
  std::optional<std::int64_t> count(std::string_view key) const;
  /// positive(), or ConfigError "missing (a positive integer is required)".
  std::int64_t required(std::string_view key) const;
  /// The first of `keys` present (families spell the same size differently), as positive().
  std::optional<std::int64_t> first_positive(std::initializer_list<std::string_view> keys) const;
  std::optional<bool> boolean(std::string_view key) const;
  /// A finite number (multipliers, rope factors).
  std::optional<double> number(std::string_view key) const;
  std::optional<std::string> string(std::string_view key) const;
  /// An array of non-negative integers (mlp_only_layers, no_rope_layers), at most
  /// kMaxListLength entries.
  std::optional<std::vector<std::int64_t>> int_list(std::string_view key) const;
  /// An array of strings (layer_types), at most kMaxListLength entries.
  std::optional<std::vector<std::string>> string_list(std::string_view key) const;

  /// Throws ConfigError(key, why).
  [[noreturn]] void refuse(std::string_view key, const std::string& why) const;

  const nlohmann::json& json() const { return j_; }

 private:
  const nlohmann::json& j_;
};

/// Longest per-layer list a config may carry (layer_types, mlp_only_layers): kMaxLayers.
inline constexpr std::size_t kMaxListLength = 100'000;

/// One family: the model_type values it answers to, its rule, and the modelling file the rule
/// follows (printed by --list-families and in the README's table).
struct Family {
  std::string_view model_type;
  void (*rule)(const ConfigReader&, ModelConfig&);
  std::string_view follows;  ///< "transformers models/llama/modeling_llama.py"
};

/// Every family the parser knows, in the order families.cpp lists them.
const std::vector<Family>& families();
/// nullptr when model_type is not listed.
const Family* find_family(std::string_view model_type);

// ---- building blocks the rules share -------------------------------------------------------

/// The trunk of a Llama-style config (LlamaConfig's keys): hidden_size, num_hidden_layers,
/// num_attention_heads, num_key_value_heads (default num_attention_heads), head_dim (default
/// hidden_size / num_attention_heads), intermediate_size, vocab_size (required unless
/// `default_vocab` > 0), max_position_embeddings (optional), tie_word_embeddings (default
/// `tie_default`). Sets every layer full attention with a dense MLP. `default_head_dim` > 0:
/// the config class's own head_dim default (Gemma: 256), used instead of hidden / heads.
void read_llama_trunk(const ConfigReader& r, ModelConfig& m, bool tie_default, std::int64_t default_vocab = 0,
                      std::int64_t default_head_dim = 0);

/// Sets m.num_layers and m.layers (num_layers full-attention dense layers), refusing more
/// than kMaxLayers.
void set_layer_count(const ConfigReader& r, ModelConfig& m, std::string_view key);

/// "layer_types" when present: "full_attention", "sliding_attention" (window = `window`),
/// "chunked_attention" (window = `chunk`); any other entry is refused. Returns false when the
/// key is absent (the caller applies the family's default pattern).
bool read_layer_types(const ConfigReader& r, ModelConfig& m, std::int64_t window, std::int64_t chunk = 0);

/// Marks layer i sliding (window tokens) for every i where `slides(i)` is true.
template <class Pred>
void set_sliding(ModelConfig& m, std::int64_t window, Pred slides) {
  for (std::int64_t i = 0; i < m.num_layers; ++i)
    if (slides(i)) m.layers[static_cast<std::size_t>(i)] = {AttentionKind::sliding_window, window, m.layers[static_cast<std::size_t>(i)].moe};
}

/// Routed experts: num_experts from the first of `expert_keys` present (none: a dense model),
/// then num_experts_per_tok (required; at most the experts), moe_intermediate_size (default
/// intermediate_size). Returns false for a dense model. Marks no layer MoE: the caller does.
bool read_experts(const ConfigReader& r, ModelConfig& m, std::initializer_list<std::string_view> expert_keys);

/// Marks layer i MoE for every i where `is_moe(i)` is true, dense otherwise.
template <class Pred>
void set_moe_layers(ModelConfig& m, Pred is_moe) {
  for (std::int64_t i = 0; i < m.num_layers; ++i) m.layers[static_cast<std::size_t>(i)].moe = is_moe(i);
}

/// A per-layer membership mask from a list of layer indices (mlp_only_layers, no_rope_layers):
/// indices outside [0, num_layers) are refused naming `key`.
std::vector<bool> layer_mask(const ConfigReader& r, const ModelConfig& m, std::string_view key);

}  // namespace tutor::b05
