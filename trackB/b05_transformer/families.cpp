// B05: the families the config reader knows, and the checked key access their rules share.
#include "family.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace tutor::b05 {

// Each rule is defined in families_<lineage>.cpp, next to the modelling code it follows.
void rule_llama(const ConfigReader&, ModelConfig&);
void rule_mistral(const ConfigReader&, ModelConfig&);
void rule_mixtral(const ConfigReader&, ModelConfig&);
void rule_qwen2(const ConfigReader&, ModelConfig&);
void rule_qwen3(const ConfigReader&, ModelConfig&);
void rule_qwen3_moe(const ConfigReader&, ModelConfig&);
void rule_gemma(const ConfigReader&, ModelConfig&);
void rule_gemma2(const ConfigReader&, ModelConfig&);
void rule_gemma3_text(const ConfigReader&, ModelConfig&);
void rule_gpt_oss(const ConfigReader&, ModelConfig&);
void rule_deepseek_v2(const ConfigReader&, ModelConfig&);
void rule_deepseek_v3(const ConfigReader&, ModelConfig&);
// families_gpt.cpp, families_phi.cpp, families_cohere.cpp, families_olmo.cpp, families_nemotron.cpp, families_dbrx.cpp
void rule_gpt2(const ConfigReader&, ModelConfig&);
void rule_gpt_neox(const ConfigReader&, ModelConfig&);
void rule_gptj(const ConfigReader&, ModelConfig&);
void rule_falcon(const ConfigReader&, ModelConfig&);
void rule_starcoder2(const ConfigReader&, ModelConfig&);
void rule_phi(const ConfigReader&, ModelConfig&);
void rule_phi3(const ConfigReader&, ModelConfig&);
void rule_phimoe(const ConfigReader&, ModelConfig&);
void rule_cohere(const ConfigReader&, ModelConfig&);
void rule_cohere2(const ConfigReader&, ModelConfig&);
void rule_olmo(const ConfigReader&, ModelConfig&);
void rule_olmo2(const ConfigReader&, ModelConfig&);
void rule_nemotron(const ConfigReader&, ModelConfig&);
void rule_dbrx(const ConfigReader&, ModelConfig&);
// families_qwen2_moe.cpp, families_llama4.cpp, families_granite.cpp, families_internlm2.cpp, families_exaone.cpp, families_glm.cpp
void rule_qwen2_moe(const ConfigReader&, ModelConfig&);
void rule_llama4(const ConfigReader&, ModelConfig&);
void rule_granite(const ConfigReader&, ModelConfig&);
void rule_granitemoe(const ConfigReader&, ModelConfig&);
void rule_internlm2(const ConfigReader&, ModelConfig&);
void rule_exaone(const ConfigReader&, ModelConfig&);
void rule_glm(const ConfigReader&, ModelConfig&);
void rule_glm4(const ConfigReader&, ModelConfig&);

const std::vector<Family>& families() {
  static const std::vector<Family> table = {
      {"llama", rule_llama, "transformers models/llama/modeling_llama.py"},
      {"mistral", rule_mistral, "transformers models/mistral/modeling_mistral.py"},
      {"mixtral", rule_mixtral, "transformers models/mixtral/modeling_mixtral.py"},
      {"qwen2", rule_qwen2, "transformers models/qwen2/modeling_qwen2.py"},
      {"qwen3", rule_qwen3, "transformers models/qwen3/modeling_qwen3.py"},
      {"qwen3_moe", rule_qwen3_moe, "transformers models/qwen3_moe/modeling_qwen3_moe.py"},
      {"gemma", rule_gemma, "transformers models/gemma/modeling_gemma.py"},
      {"gemma2", rule_gemma2, "transformers models/gemma2/modeling_gemma2.py"},
      {"gemma3_text", rule_gemma3_text, "transformers models/gemma3/modeling_gemma3.py (Gemma3TextModel)"},
      {"gemma3", rule_gemma3_text, "transformers models/gemma3/modeling_gemma3.py (its text_config)"},
      {"gpt_oss", rule_gpt_oss, "openai/gpt-oss gpt_oss/torch/model.py; transformers models/gpt_oss/modeling_gpt_oss.py"},
      {"deepseek_v2", rule_deepseek_v2, "transformers models/deepseek_v2/modeling_deepseek_v2.py"},
      {"deepseek_v3", rule_deepseek_v3, "transformers models/deepseek_v3/modeling_deepseek_v3.py"},
      {"gpt2", rule_gpt2, "transformers models/gpt2/modeling_gpt2.py"},
      {"gpt_neox", rule_gpt_neox, "transformers models/gpt_neox/modeling_gpt_neox.py"},
      {"gptj", rule_gptj, "transformers models/gptj/modeling_gptj.py"},
      {"falcon", rule_falcon, "transformers models/falcon/modeling_falcon.py"},
      {"starcoder2", rule_starcoder2, "transformers models/starcoder2/modeling_starcoder2.py"},
      {"phi", rule_phi, "transformers models/phi/modeling_phi.py"},
      {"phi3", rule_phi3, "transformers models/phi3/modeling_phi3.py"},
      {"phimoe", rule_phimoe, "transformers models/phimoe/modeling_phimoe.py"},
      {"cohere", rule_cohere, "transformers models/cohere/modeling_cohere.py"},
      {"cohere2", rule_cohere2, "transformers models/cohere2/modeling_cohere2.py"},
      {"olmo", rule_olmo, "transformers models/olmo/modeling_olmo.py"},
      {"olmo2", rule_olmo2, "transformers models/olmo2/modeling_olmo2.py"},
      {"nemotron", rule_nemotron, "transformers models/nemotron/modeling_nemotron.py"},
      {"dbrx", rule_dbrx, "transformers models/dbrx/modeling_dbrx.py"},
      {"qwen2_moe", rule_qwen2_moe, "transformers models/qwen2_moe/modular_qwen2_moe.py"},
      {"llama4", rule_llama4, "transformers models/llama4/modeling_llama4.py (its text_config)"},
      {"llama4_text", rule_llama4, "transformers models/llama4/modeling_llama4.py (Llama4TextModel)"},
      {"granite", rule_granite, "transformers models/granite/modeling_granite.py"},
      {"granitemoe", rule_granitemoe, "transformers models/granitemoe/modeling_granitemoe.py"},
      {"internlm2", rule_internlm2, "the model repository's modeling_internlm2.py (remote code)"},
      {"exaone", rule_exaone, "the model repository's modeling_exaone.py (remote code; vLLM models/exaone.py ports it)"},
      {"glm", rule_glm, "transformers models/glm/modular_glm.py"},
      {"glm4", rule_glm4, "transformers models/glm4/modular_glm4.py"},
  };
  return table;
}

const Family* find_family(std::string_view model_type) {
  for (const Family& f : families())
    if (f.model_type == model_type) return &f;
  return nullptr;
}

// ---- ConfigReader ----------------------------------------------------------------------------

namespace {

/// Config integers are bounded so that counts and byte sizes cannot overflow 64-bit
/// arithmetic (a hidden size of 1e15 would wrap the parameter count).
constexpr std::int64_t kMaxConfigInt = 2147483647;

/// v as an integer when it is one (integral floats such as 4096.0 included), else nullopt.
/// Values above kMaxConfigInt are refused here, before any conversion.
std::optional<std::int64_t> integral(const nlohmann::json& v, std::string_view key) {
  if (v.is_number_unsigned()) {
    if (v.get<std::uint64_t>() > std::uint64_t(kMaxConfigInt))
      throw ConfigError(std::string(key), "must be at most " + std::to_string(kMaxConfigInt));
    return static_cast<std::int64_t>(v.get<std::uint64_t>());
  }
  if (v.is_number_integer()) {
    if (v.get<std::int64_t>() > kMaxConfigInt)
      throw ConfigError(std::string(key), "must be at most " + std::to_string(kMaxConfigInt));
    return v.get<std::int64_t>();
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d)) return std::nullopt;
    if (d > double(kMaxConfigInt))
      throw ConfigError(std::string(key), "must be at most " + std::to_string(kMaxConfigInt));
    if (d < -double(kMaxConfigInt)) return std::nullopt;
    if (std::floor(d) == d) return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

}  // namespace

const nlohmann::json* ConfigReader::find(std::string_view key) const {
  const auto it = j_.find(std::string(key));
  if (it == j_.end() || it->is_null()) return nullptr;
  return &*it;
}

bool ConfigReader::has(std::string_view key) const { return find(key) != nullptr; }

void ConfigReader::refuse(std::string_view key, const std::string& why) const {
  throw ConfigError(std::string(key), why);
}

std::optional<std::int64_t> ConfigReader::positive(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (const auto i = integral(*v, key); i && *i > 0) return i;
  refuse(key, "must be a positive integer");
}

std::optional<std::int64_t> ConfigReader::count(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (const auto i = integral(*v, key); i && *i >= 0) return i;
  refuse(key, "must be a non-negative integer");
}

std::int64_t ConfigReader::required(std::string_view key) const {
  if (auto v = positive(key)) return *v;
  refuse(key, "missing (a positive integer is required)");
}

std::optional<std::int64_t> ConfigReader::first_positive(std::initializer_list<std::string_view> keys) const {
  for (std::string_view k : keys)
    if (auto v = positive(k)) return v;
  return std::nullopt;
}

std::optional<bool> ConfigReader::boolean(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) refuse(key, "must be true or false");
  return v->get<bool>();
}

std::optional<double> ConfigReader::number(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_number() || !std::isfinite(v->get<double>())) refuse(key, "must be a finite number");
  return v->get<double>();
}

std::optional<std::string> ConfigReader::string(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_string()) refuse(key, "must be a string");
  return v->get<std::string>();
}

std::optional<std::vector<std::int64_t>> ConfigReader::int_list(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_array()) refuse(key, "must be an array of layer indices");
  if (v->size() > kMaxListLength) refuse(key, "has more than " + std::to_string(kMaxListLength) + " entries");
  std::vector<std::int64_t> out;
  out.reserve(v->size());
  for (const nlohmann::json& e : *v) {
    const auto i = integral(e, key);
    if (!i || *i < 0) refuse(key, "must be an array of non-negative integers");
    out.push_back(*i);
  }
  return out;
}

std::optional<std::vector<std::string>> ConfigReader::string_list(std::string_view key) const {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  if (!v->is_array()) refuse(key, "must be an array of strings");
  if (v->size() > kMaxListLength) refuse(key, "has more than " + std::to_string(kMaxListLength) + " entries");
  std::vector<std::string> out;
  out.reserve(v->size());
  for (const nlohmann::json& e : *v) {
    if (!e.is_string()) refuse(key, "must be an array of strings");
    out.push_back(e.get<std::string>());
  }
  return out;
}

// ---- building blocks ------------------------------------------------------------------------

void set_layer_count(const ConfigReader& r, ModelConfig& m, std::string_view key) {
  // The per-layer list is built from this; published models have at most a few hundred layers.
  if (const nlohmann::json* v = r.find(key); v && v->is_number() && v->get<double>() > double(kMaxLayers))
    r.refuse(key, "must be at most " + std::to_string(kMaxLayers));
  m.num_layers = r.required(key);
  m.layers.assign(static_cast<std::size_t>(m.num_layers), LayerSpec{});
}

void read_llama_trunk(const ConfigReader& r, ModelConfig& m, bool tie_default, std::int64_t default_vocab,
                      std::int64_t default_head_dim) {
  m.hidden_size = r.required("hidden_size");
  set_layer_count(r, m, "num_hidden_layers");
  m.num_heads = r.required("num_attention_heads");
  m.num_kv_heads = r.positive("num_key_value_heads").value_or(m.num_heads);
  if (auto hd = r.positive("head_dim")) {
    m.head_dim = *hd;
  } else if (default_head_dim > 0) {
    m.head_dim = default_head_dim;
  } else {
    if (m.hidden_size % m.num_heads != 0)
      r.refuse("head_dim", "missing, and hidden_size (" + std::to_string(m.hidden_size) +
                               ") is not a multiple of num_attention_heads (" + std::to_string(m.num_heads) + ")");
    m.head_dim = m.hidden_size / m.num_heads;
  }
  m.intermediate_size = r.required("intermediate_size");
  m.vocab_size = default_vocab > 0 && !r.has("vocab_size") ? default_vocab : r.required("vocab_size");
  m.max_position_embeddings = r.positive("max_position_embeddings").value_or(0);
  m.tie_word_embeddings = r.boolean("tie_word_embeddings").value_or(tie_default);
}

bool read_layer_types(const ConfigReader& r, ModelConfig& m, std::int64_t window, std::int64_t chunk) {
  const auto types = r.string_list("layer_types");
  if (!types) return false;
  if (static_cast<std::int64_t>(types->size()) != m.num_layers)
    r.refuse("layer_types", "has " + std::to_string(types->size()) + " entries, num_hidden_layers is " +
                                std::to_string(m.num_layers));
  for (std::size_t i = 0; i < types->size(); ++i) {
    const std::string& t = (*types)[i];
    LayerSpec& l = m.layers[i];
    if (t == "full_attention") {
      l.attention = AttentionKind::full;
      l.window = 0;
    } else if (t == "sliding_attention") {
      if (window <= 0) r.refuse("sliding_window", "missing, but layer_types has sliding_attention layers");
      l.attention = AttentionKind::sliding_window;
      l.window = window;
    } else if (t == "chunked_attention") {
      if (chunk <= 0) r.refuse("attention_chunk_size", "missing, but layer_types has chunked_attention layers");
      l.attention = AttentionKind::chunked;
      l.window = chunk;
    } else {
      r.refuse("layer_types", "entries must be full_attention, sliding_attention or chunked_attention, got '" +
                                  t.substr(0, 40) + "'");
    }
  }
  return true;
}

bool read_experts(const ConfigReader& r, ModelConfig& m, std::initializer_list<std::string_view> expert_keys) {
  const auto e = r.first_positive(expert_keys);
  if (!e) return false;
  m.num_experts = *e;
  if (auto k = r.first_positive({"num_experts_per_tok", "experts_per_token"})) m.experts_per_token = *k;
  else r.refuse("num_experts_per_tok", "missing for a mixture-of-experts model");
  if (m.experts_per_token > m.num_experts)
    r.refuse("num_experts_per_tok", "(" + std::to_string(m.experts_per_token) + ") exceeds the " +
                                        std::to_string(m.num_experts) + " experts");
  m.moe_intermediate_size = r.positive("moe_intermediate_size").value_or(m.intermediate_size);
  return true;
}

std::vector<bool> layer_mask(const ConfigReader& r, const ModelConfig& m, std::string_view key) {
  std::vector<bool> mask(static_cast<std::size_t>(m.num_layers), false);
  if (const auto list = r.int_list(key)) {
    for (const std::int64_t i : *list) {
      if (i >= m.num_layers)
        r.refuse(key, "lists layer " + std::to_string(i) + ", but there are " + std::to_string(m.num_layers) + " layers");
      mask[static_cast<std::size_t>(i)] = true;
    }
  }
  return mask;
}

}  // namespace tutor::b05
