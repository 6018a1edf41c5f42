// B05: reading a Hugging Face config.json into a ModelConfig.
//
// A config.json names the sizes; the family's modelling code in `transformers` decides what
// they build. The table below records, per model_type, what the config.json leaves
// implicit, each row read from that family's modeling_*.py / configuration_*.py in
// huggingface/transformers (and openai/gpt-oss gpt_oss/torch/model.py for gpt-oss).
#include "model.hpp"

#include "family.hpp"
#include "model_bounds.hpp"
#include "vision.hpp"

#include "tutor/cli.hpp"
#include "tutor/json_input.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#ifndef TUTOR_DATA_DIR
#define TUTOR_DATA_DIR "data"
#endif

namespace tutor::b05 {
namespace {

using nlohmann::json;

/// A multimodal config keeps the language model under "text_config": read that, with the
/// top-level keys filling in what it lacks (tie_word_embeddings is sometimes top-level).
json flatten_text_config(const json& config) {
  if (!config.contains("text_config")) return config;
  if (!config.at("text_config").is_object()) throw ConfigError("text_config", "must be an object");
  json out = config;
  out.erase("text_config");
  out.erase("vision_config");
  for (auto it = config.at("text_config").begin(); it != config.at("text_config").end(); ++it) out[it.key()] = it.value();
  return out;
}

std::string str(std::int64_t v) { return std::to_string(v); }

/// What every model must satisfy, whatever its family's rule set.
void validate(const ModelConfig& m) {
  const auto need = [](bool ok, const char* field, const std::string& why) {
    if (!ok) throw ConfigError(field, why);
  };
  need(m.hidden_size > 0, "hidden_size", "missing (a positive integer is required)");
  need(m.num_layers > 0 && static_cast<std::int64_t>(m.layers.size()) == m.num_layers, "num_hidden_layers",
       "missing (a positive integer is required)");
  need(m.num_heads > 0 && m.num_kv_heads > 0 && m.head_dim > 0, "num_attention_heads", "missing (a positive integer is required)");
  need(m.vocab_size > 0, "vocab_size", "missing (a positive integer is required)");
  need(m.intermediate_size > 0, "intermediate_size", "missing (a positive integer is required)");
  if (!m.is_mla())
    need(m.num_heads % m.num_kv_heads == 0, "num_key_value_heads",
         "must divide num_attention_heads (" + str(m.num_heads) + "), got " + str(m.num_kv_heads));
  if (m.is_moe()) {
    need(m.experts_per_token > 0 && m.experts_per_token <= m.num_experts, "num_experts_per_tok",
         "(" + str(m.experts_per_token) + ") exceeds the " + str(m.num_experts) + " experts");
    need(m.moe_intermediate_size > 0, "moe_intermediate_size", "must be a positive integer");
    // Expert counts are bounded like every config integer; their product with the widths is a
    // double, so no count below can wrap.
  }
  for (const LayerSpec& l : m.layers)
    if (l.attention == AttentionKind::sliding_window || l.attention == AttentionKind::chunked)
      need(l.window > 0, l.attention == AttentionKind::chunked ? "attention_chunk_size" : "sliding_window",
           "must be a positive integer");
}

}  // namespace

std::string_view to_string(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::full: return "full";
    case AttentionKind::sliding_window: return "sliding_window";
    case AttentionKind::mla: return "mla";
    case AttentionKind::chunked: return "chunked";
  }
  return "?";
}

double params_per_width(NormKind kind) {
  switch (kind) {
    case NormKind::rms: return 1;
    case NormKind::layer: return 2;
    case NormKind::layer_no_bias: return 1;
    case NormKind::non_parametric: return 0;
  }
  return 1;
}

std::string_view to_string(NormKind kind) {
  switch (kind) {
    case NormKind::rms: return "rms";
    case NormKind::layer: return "layer";
    case NormKind::layer_no_bias: return "layer_no_bias";
    case NormKind::non_parametric: return "non_parametric";
  }
  return "?";
}

std::string known_families() {
  std::string out;
  for (const Family& f : families()) out += (out.empty() ? "" : ", ") + std::string(f.model_type);
  return out;
}

ModelConfig parse_hf_config(const json& config_in, std::string name) {
  if (!config_in.is_object()) throw ConfigError("config", "must be a JSON object");
  const json j = flatten_text_config(config_in);
  const ConfigReader r(j);

  ModelConfig m;
  m.name = std::move(name);
  if (const auto* src = r.find("_source"); src && src->is_string()) m.source = src->get<std::string>();

  const auto type = r.string("model_type");
  if (!type) throw ConfigError("model_type", "missing; known: " + known_families());
  m.model_type = *type;
  const Family* fam = find_family(m.model_type);
  if (!fam)
    throw ConfigError("model_type", "'" + m.model_type.substr(0, 64) +
                                        "' is not a family this calculator knows (its biases, norms and layer "
                                        "pattern would be guessed); known: " + known_families());
  try {
    fam->rule(r, m);
    validate(m);
  } catch (const ConfigError& e) {
    // The rules read the merged object: a key that came from text_config is named there.
    const std::string field = e.field();
    const std::string top = field.substr(0, field.find_first_of("./"));
    const auto tc = config_in.find("text_config");
    if (tc == config_in.end() || !tc->is_object() || !tc->contains(top)) throw;
    throw ConfigError("text_config/" + field, std::string(e.what()).substr(field.size() + 2));
  }
  m.follows = std::string(fam->follows);
  // A window at least as long as every context the model takes keeps every token: the layer
  // is full attention (Phi-3-mini-128k's sliding_window 262144 > its 131072 positions).
  if (m.max_position_embeddings > 0)
    for (LayerSpec& l : m.layers)
      if ((l.attention == AttentionKind::sliding_window || l.attention == AttentionKind::chunked) &&
          l.window >= m.max_position_embeddings)
        l = {AttentionKind::full, 0, l.moe};
  // The tower is chosen by the top-level model_type, which the text_config merge overwrites.
  if (const auto tower = read_vision_tower(config_in, m.hidden_size)) {
    m.vision_params = tower->params();
    m.vision_model = tower->model_type;
  }
  return m;
}

ModelConfig load_model_file(const std::string& path) {
  json j;
  try {
    j = read_json_file(path);  // bounded depth, list lengths and numbers (tutor/json_input.hpp)
  } catch (const InputError& e) {
    throw ConfigError(e.key().empty() ? path : e.key(), e.what_only());
  }
  ModelConfig m = parse_hf_config(j, std::filesystem::path(path).stem().string());
  require_countable(m);  // products of bounded fields can still pass what a double counts exactly
  return m;
}

std::string models_dir() {
  const char* env = std::getenv("TUTOR_DATA_DIR");
  const std::string data = env && *env ? env : TUTOR_DATA_DIR;
  return (std::filesystem::path(data) / "models").string();
}

std::vector<std::string> shipped_models() {
  std::vector<std::string> stems;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(models_dir(), ec))
    // is_regular_file(ec): a link loop or a dangling link is skipped, not thrown (it broke every --model).
    if (entry.is_regular_file(ec) && entry.path().extension() == ".json") stems.push_back(entry.path().stem().string());
  std::sort(stems.begin(), stems.end());
  return stems;
}

ModelConfig load_shipped_model(std::string_view stem) {
  const auto stems = shipped_models();
  if (std::find(stems.begin(), stems.end(), stem) == stems.end()) {
    std::string allowed;
    for (const auto& s : stems) allowed += (allowed.empty() ? "" : ", ") + s;
    if (allowed.empty()) allowed = "(none found in " + models_dir() + ")";
    throw UnknownModelError("unknown model '" + std::string(stem) + "'; allowed: " + allowed);
  }
  return load_model_file((std::filesystem::path(models_dir()) / (std::string(stem) + ".json")).string());
}

}  // namespace tutor::b05

namespace tutor::b05 {

ModelConfig load_model_option(const std::string& model, const std::string& config) {
  if (model.empty() == config.empty())
    throw UsageError("--model: give exactly one of --model NAME (a shipped config) or --config FILE");
  try {
    return model.empty() ? load_model_file(config) : load_shipped_model(model);
  } catch (const UnknownModelError& e) {
    throw UsageError(std::string("--model: ") + e.what());
  } catch (const ConfigError& e) {
    throw UsageError(std::string(model.empty() ? "--config" : "--model") + ": " + e.what());
  }
}

nlohmann::json to_json(const ModelConfig& m) {
  return {{"name", m.name},
          {"model_type", m.model_type},
          {"source", m.source},
          {"hidden_size", m.hidden_size},
          {"num_layers", m.num_layers},
          {"num_heads", m.num_heads},
          {"num_kv_heads", m.num_kv_heads},
          {"head_dim", m.head_dim},
          {"intermediate_size", m.intermediate_size},
          {"vocab_size", m.vocab_size},
          {"max_position_embeddings", m.max_position_embeddings},
          {"tie_word_embeddings", m.tie_word_embeddings},
          {"num_experts", m.num_experts},
          {"experts_per_token", m.experts_per_token},
          {"num_shared_experts", m.num_shared_experts},
          {"moe_intermediate_size", m.moe_intermediate_size},
          {"kv_lora_rank", m.kv_lora_rank},
          {"qk_rope_head_dim", m.qk_rope_head_dim},
          {"follows", m.follows},
          {"vision_model", m.vision_model},
          {"vision_params", m.vision_params}};
}

}  // namespace tutor::b05
