// B05: reading a Hugging Face config.json into a ModelConfig.
//
// A config.json names the sizes; the family's modelling code in `transformers` decides what
// they build. The table below records, per model_type, what the config.json leaves
// implicit, each row read from that family's modeling_*.py / configuration_*.py in
// huggingface/transformers (and openai/gpt-oss gpt_oss/torch/model.py for gpt-oss).
#include "model.hpp"

#include "tutor/atomic_file.hpp"
#include "tutor/cli.hpp"

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

/// How a family places sliding-window layers when the config has no "layer_types".
enum class SlidingRule {
  none,              ///< every layer full (Llama, Mixtral with sliding_window null, DeepSeek)
  all_if_set,        ///< every layer sliding when sliding_window is set (Mistral, Mixtral)
  qwen,              ///< layers >= max_window_layers slide, only if use_sliding_window (Qwen2/Qwen3)
  every_nth_global,  ///< layer i global iff (i+1) % sliding_window_pattern == 0 (Gemma 3, default 6)
  even_sliding,      ///< even layers slide, odd layers global (Gemma 2, gpt-oss)
};

/// What a family builds that its config.json does not spell out.
struct Family {
  std::string_view model_type;
  int norms_per_layer;       // RMSNorms of hidden_size per decoder layer
  bool qk_norm;              // q_norm / k_norm of head_dim
  bool qkv_bias;             // q/k/v biases regardless of attention_bias (Qwen2)
  bool attention_bias_key;   // "attention_bias" adds q/k/v/o biases
  bool mlp_bias_key;         // "mlp_bias" adds MLP biases (Llama)
  bool expert_bias;          // experts and router carry biases (gpt-oss)
  bool sinks;                // per-head attention sinks (gpt-oss)
  bool tie_default;          // tie_word_embeddings when the key is absent
  SlidingRule sliding;
  std::int64_t default_vocab;  // vocab_size when absent (0: required)
  bool mla;                  // DeepSeek-V2/V3 multi-head latent attention
};

// Sources (huggingface/transformers, src/transformers/models/<family>/):
//  llama:   modeling_llama.py: q/k/v/o bias=config.attention_bias, MLP bias=config.mlp_bias,
//           input_layernorm + post_attention_layernorm; LlamaConfig tie_word_embeddings=False.
//  mistral: modeling_mistral.py: no biases, 2 norms; configuration_mistral.py sliding_window
//           (4096 in Mistral-7B-v0.1, applied to every layer: Mistral 7B paper sec. 2).
//  mixtral: modeling_mixtral.py: experts w1/w2/w3 and router gate without bias, 2 norms.
//  qwen2:   modeling_qwen2.py: q/k/v bias=True, o_proj bias=False; sliding on layers
//           >= max_window_layers when use_sliding_window.
//  qwen3 / qwen3_moe: modeling_qwen3*.py: bias=config.attention_bias, q_norm/k_norm (head_dim).
//  gemma:   modeling_gemma.py: 2 norms, tied. gemma2: modeling_gemma2.py: 4 norms
//           (input, post_attention, pre_feedforward, post_feedforward), even layers slide.
//  gemma3:  modeling_gemma3.py: 4 norms + q_norm/k_norm; configuration_gemma3.py:
//           vocab_size=262_208, tie_word_embeddings=True, sliding_window_pattern=6.
//  gpt_oss: openai/gpt-oss gpt_oss/torch/model.py: qkv and out Linear with bias, sinks
//           (num_attention_heads), router Linear with bias, mlp1/mlp2 biases, 2 norms,
//           sliding window on even layers.
//  deepseek_v2 / deepseek_v3: modeling_deepseek_v3.py: MLA projections, q_a_layernorm and
//           kv_a_layernorm, MoE gate (+ e_score_correction_bias in V3), 2 norms.
constexpr Family kFamilies[] = {
    // type          norms qk   qkvb  attnb mlpb  expb  sinks tie   sliding                       vocab  mla
    {"llama",        2, false, false, true,  true,  false, false, false, SlidingRule::none,        0, false},
    {"mistral",      2, false, false, false, false, false, false, false, SlidingRule::all_if_set,  0, false},
    {"mixtral",      2, false, false, false, false, false, false, false, SlidingRule::all_if_set,  0, false},
    {"qwen2",        2, false, true,  false, false, false, false, false, SlidingRule::qwen,        0, false},
    {"qwen3",        2, true,  false, true,  false, false, false, false, SlidingRule::qwen,        0, false},
    {"qwen3_moe",    2, true,  false, true,  false, false, false, false, SlidingRule::qwen,        0, false},
    {"gemma",        2, false, false, true,  false, false, false, true,  SlidingRule::none,        0, false},
    {"gemma2",       4, false, false, true,  false, false, false, true,  SlidingRule::even_sliding, 0, false},
    {"gemma3_text",  4, true,  false, true,  false, false, false, true,  SlidingRule::every_nth_global, 262208, false},
    {"gpt_oss",      2, false, false, true,  false, true,  true,  false, SlidingRule::even_sliding, 0, false},
    {"deepseek_v2",  2, false, false, true,  false, false, false, false, SlidingRule::none,        0, true},
    {"deepseek_v3",  2, false, false, true,  false, false, false, false, SlidingRule::none,        0, true},
};

const Family* find_family(std::string_view model_type) {
  if (model_type == "gemma3") model_type = "gemma3_text";  // the multimodal wrapper's text model
  for (const Family& f : kFamilies)
    if (f.model_type == model_type) return &f;
  return nullptr;
}

bool present(const json& j, const char* key) { return j.contains(key) && !j.at(key).is_null(); }

/// Config integers are bounded so that counts and byte sizes cannot overflow 64-bit
/// arithmetic (a hidden size of 1e15 would wrap the parameter count).
constexpr std::int64_t kMaxConfigInt = 2147483647;
/// Most layers a config may declare (the planners build per-layer lists).
constexpr std::int64_t kMaxLayers = 100'000;

/// A positive integer at `key`, or nullopt when absent or null. Integral floats (4096.0) pass.
std::optional<std::int64_t> positive_int(const json& j, const char* key) {
  if (!present(j, key)) return std::nullopt;
  const json& v = j.at(key);
  if (v.is_number_integer() || v.is_number_unsigned()) {
    const auto i = v.get<std::int64_t>();
    if (i > kMaxConfigInt) throw ConfigError(key, "must be at most 2147483647");
    if (i > 0) return i;
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d > double(kMaxConfigInt)) throw ConfigError(key, "must be at most 2147483647");
    if (d > 0 && std::floor(d) == d) return static_cast<std::int64_t>(d);
  }
  throw ConfigError(key, "must be a positive integer");
}

/// A non-negative integer (0 allowed: n_shared_experts, first_k_dense_replace).
std::optional<std::int64_t> count_int(const json& j, const char* key) {
  if (!present(j, key)) return std::nullopt;
  const json& v = j.at(key);
  if ((v.is_number_integer() || v.is_number_unsigned()) && v.get<std::int64_t>() >= 0) return v.get<std::int64_t>();
  if (v.is_number_float() && v.get<double>() >= 0 && std::floor(v.get<double>()) == v.get<double>())
    return static_cast<std::int64_t>(v.get<double>());
  throw ConfigError(key, "must be a non-negative integer");
}

std::int64_t required_int(const json& j, const char* key) {
  if (auto v = positive_int(j, key)) return *v;
  throw ConfigError(key, "missing (a positive integer is required)");
}

std::optional<bool> boolean(const json& j, const char* key) {
  if (!present(j, key)) return std::nullopt;
  if (!j.at(key).is_boolean()) throw ConfigError(key, "must be true or false");
  return j.at(key).get<bool>();
}

/// The first key of `keys` present in `j` (config families spell the expert count differently).
std::optional<std::int64_t> first_positive(const json& j, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (auto v = positive_int(j, k)) return v;
  return std::nullopt;
}

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

std::vector<LayerSpec> layers_from_types(const json& types, std::int64_t num_layers, std::int64_t window) {
  if (!types.is_array()) throw ConfigError("layer_types", "must be an array of strings");
  if (static_cast<std::int64_t>(types.size()) != num_layers)
    throw ConfigError("layer_types", "has " + std::to_string(types.size()) + " entries, num_hidden_layers is " +
                                         std::to_string(num_layers));
  std::vector<LayerSpec> layers;
  for (const json& t : types) {
    const std::string s = t.is_string() ? t.get<std::string>() : "";
    if (s == "full_attention") {
      layers.push_back({AttentionKind::full, 0, false});
    } else if (s == "sliding_attention") {
      if (window <= 0) throw ConfigError("sliding_window", "missing, but layer_types has sliding_attention layers");
      layers.push_back({AttentionKind::sliding_window, window, false});
    } else {
      throw ConfigError("layer_types", "entries must be \"full_attention\" or \"sliding_attention\", got " + t.dump());
    }
  }
  return layers;
}

}  // namespace

std::string_view to_string(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::full: return "full";
    case AttentionKind::sliding_window: return "sliding_window";
    case AttentionKind::mla: return "mla";
  }
  return "?";
}

std::string known_families() {
  std::string out;
  for (const Family& f : kFamilies) out += (out.empty() ? "" : ", ") + std::string(f.model_type);
  return out + ", gemma3 (read from its text_config)";
}

ModelConfig parse_hf_config(const json& config_in, std::string name) {
  if (!config_in.is_object()) throw ConfigError("config", "must be a JSON object");
  const json j = flatten_text_config(config_in);

  ModelConfig m;
  m.name = std::move(name);
  if (present(j, "_source") && j.at("_source").is_string()) m.source = j.at("_source").get<std::string>();

  if (!present(j, "model_type")) throw ConfigError("model_type", "missing; known: " + known_families());
  if (!j.at("model_type").is_string()) throw ConfigError("model_type", "must be a string");
  m.model_type = j.at("model_type").get<std::string>();
  const Family* fam = find_family(m.model_type);
  if (!fam)
    throw ConfigError("model_type", "'" + m.model_type + "' is not a family this calculator knows (its biases, "
                                    "norms and layer pattern would be guessed); known: " + known_families());

  m.hidden_size = required_int(j, "hidden_size");
  // The per-layer list is built below; published models have at most a few hundred layers.
  if (const auto it = j.find("num_hidden_layers"); it != j.end() && it->is_number() && it->get<double>() > kMaxLayers)
    throw ConfigError("num_hidden_layers", "must be at most " + std::to_string(kMaxLayers));
  m.num_layers = required_int(j, "num_hidden_layers");
  m.num_heads = required_int(j, "num_attention_heads");
  m.num_kv_heads = positive_int(j, "num_key_value_heads").value_or(m.num_heads);
  if (m.num_heads % m.num_kv_heads != 0)
    throw ConfigError("num_key_value_heads", "must divide num_attention_heads (" + std::to_string(m.num_heads) +
                                                 "), got " + std::to_string(m.num_kv_heads));
  if (auto hd = positive_int(j, "head_dim")) {
    m.head_dim = *hd;
  } else {
    if (m.hidden_size % m.num_heads != 0)
      throw ConfigError("head_dim", "missing, and hidden_size (" + std::to_string(m.hidden_size) +
                                        ") is not a multiple of num_attention_heads (" + std::to_string(m.num_heads) + ")");
    m.head_dim = m.hidden_size / m.num_heads;
  }
  m.intermediate_size = required_int(j, "intermediate_size");
  if (fam->default_vocab > 0 && !present(j, "vocab_size")) m.vocab_size = fam->default_vocab;
  else m.vocab_size = required_int(j, "vocab_size");
  m.max_position_embeddings = positive_int(j, "max_position_embeddings").value_or(0);
  m.tie_word_embeddings = boolean(j, "tie_word_embeddings").value_or(fam->tie_default);

  // Biases and norms.
  const bool attention_bias = fam->attention_bias_key && boolean(j, "attention_bias").value_or(false);
  m.qkv_bias = fam->qkv_bias || attention_bias;
  m.o_bias = attention_bias;
  m.mlp_bias = fam->expert_bias || (fam->mlp_bias_key && boolean(j, "mlp_bias").value_or(false));
  m.router_bias = fam->expert_bias || m.model_type == "deepseek_v3";
  m.attention_sinks = fam->sinks;
  m.norms_per_layer = fam->norms_per_layer;
  m.qk_norm = fam->qk_norm;

  // Mixture of experts.
  if (auto e = first_positive(j, {"num_local_experts", "n_routed_experts", "num_experts"})) {
    m.num_experts = *e;
    if (auto k = first_positive(j, {"num_experts_per_tok", "experts_per_token"})) m.experts_per_token = *k;
    else throw ConfigError("num_experts_per_tok", "missing for a mixture-of-experts model");
    if (m.experts_per_token > m.num_experts)
      throw ConfigError("num_experts_per_tok", "(" + std::to_string(m.experts_per_token) + ") exceeds the " +
                                                   std::to_string(m.num_experts) + " experts");
    m.num_shared_experts = count_int(j, "n_shared_experts").value_or(0);
    m.moe_intermediate_size = positive_int(j, "moe_intermediate_size").value_or(m.intermediate_size);
    m.first_dense_layers = count_int(j, "first_k_dense_replace").value_or(0);
    if (m.first_dense_layers > m.num_layers)
      throw ConfigError("first_k_dense_replace", "exceeds num_hidden_layers");
  }

  // Multi-head latent attention.
  if (fam->mla) {
    m.kv_lora_rank = required_int(j, "kv_lora_rank");
    m.qk_rope_head_dim = required_int(j, "qk_rope_head_dim");
    m.qk_nope_head_dim = required_int(j, "qk_nope_head_dim");
    m.v_head_dim = required_int(j, "v_head_dim");
    m.q_lora_rank = positive_int(j, "q_lora_rank").value_or(0);  // null in DeepSeek-V2-Lite
    m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;        // q/k width per head
  }

  // Per-layer attention and MLP.
  std::int64_t window = positive_int(j, "sliding_window").value_or(0);
  if (present(j, "layer_types")) {
    m.layers = layers_from_types(j.at("layer_types"), m.num_layers, window);
  } else {
    m.layers.assign(static_cast<std::size_t>(m.num_layers), LayerSpec{});
    for (std::int64_t i = 0; i < m.num_layers; ++i) {
      bool sliding = false;
      switch (fam->sliding) {
        case SlidingRule::none: break;
        case SlidingRule::all_if_set: sliding = window > 0; break;
        case SlidingRule::qwen:
          sliding = window > 0 && boolean(j, "use_sliding_window").value_or(false) &&
                    i >= positive_int(j, "max_window_layers").value_or(m.num_layers);
          break;
        case SlidingRule::every_nth_global: {
          if (window <= 0) window = 4096;  // Gemma3TextConfig default
          const std::int64_t pattern = positive_int(j, "sliding_window_pattern").value_or(6);
          sliding = (i + 1) % pattern != 0;
          break;
        }
        case SlidingRule::even_sliding:
          if (window <= 0) throw ConfigError("sliding_window", "missing for a family with sliding-window layers");
          sliding = i % 2 == 0;
          break;
      }
      if (sliding) m.layers[i] = {AttentionKind::sliding_window, window, false};
    }
  }
  if (fam->mla)
    for (auto& l : m.layers) l = {AttentionKind::mla, 0, false};
  if (m.is_moe()) {
    // DeepSeek: MoE from first_k_dense_replace on, every moe_layer_freq-th layer; Qwen3-MoE:
    // every decoder_sparse_step-th layer except mlp_only_layers; others: every layer.
    const std::int64_t freq = positive_int(j, "moe_layer_freq").value_or(1);
    const std::int64_t step = positive_int(j, "decoder_sparse_step").value_or(1);
    std::vector<std::int64_t> mlp_only;
    if (present(j, "mlp_only_layers")) {
      if (!j.at("mlp_only_layers").is_array()) throw ConfigError("mlp_only_layers", "must be an array of layer indices");
      for (const json& v : j.at("mlp_only_layers")) {
        if (!v.is_number_integer()) throw ConfigError("mlp_only_layers", "must be an array of layer indices");
        mlp_only.push_back(v.get<std::int64_t>());
      }
    }
    for (std::int64_t i = 0; i < m.num_layers; ++i) {
      const bool listed = std::find(mlp_only.begin(), mlp_only.end(), i) != mlp_only.end();
      m.layers[i].moe = i >= m.first_dense_layers && (i - m.first_dense_layers) % freq == 0 &&
                        (i + 1) % step == 0 && !listed;
    }
  }
  return m;
}

ModelConfig load_model_file(const std::string& path) {
  std::string text;
  try {
    text = read_text_file(path, std::size_t(16) << 20);
  } catch (const std::runtime_error& e) {
    throw ConfigError(path, e.what());
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw ConfigError(path, "not valid JSON (" + what + ")");
  }
  return parse_hf_config(j, std::filesystem::path(path).stem().string());
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
    if (entry.is_regular_file() && entry.path().extension() == ".json") stems.push_back(entry.path().stem().string());
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
          {"qk_rope_head_dim", m.qk_rope_head_dim}};
}

}  // namespace tutor::b05
