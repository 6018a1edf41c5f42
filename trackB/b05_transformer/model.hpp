#pragma once
// B05: a transformer's shape, read from a Hugging Face config.json.
//
// The calculator (calculator.hpp) needs only the shape of the network: widths, layer
// count, heads, the MLP and its experts, and which attention each layer uses. Those come
// from the config.json that ships with every checkpoint on the Hugging Face Hub, under
// the key names of the `transformers` configuration classes (LlamaConfig, MistralConfig,
// MixtralConfig, Qwen3Config, Gemma3TextConfig, GptOssConfig, DeepseekV3Config). What a
// config.json leaves implicit (norms per layer, which projections carry a bias, whether
// the MLP is gated) is fixed by the family (`model_type`), exactly as the modelling code
// of that family in `transformers` builds it; model.cpp keeps that table, with the file
// each row was read from. An unknown `model_type` is rejected rather than guessed.
//
// Units: every size is a count (elements, heads, layers, tokens), never bytes.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace tutor::b05 {

/// Most layers a config may declare (the planners build per-layer lists; published models
/// have at most a few hundred).
inline constexpr std::int64_t kMaxLayers = 100'000;

/// The attention a layer uses, which decides what it stores in the KV cache.
enum class AttentionKind {
  full,            ///< every earlier token: K and V of num_kv_heads heads of head_dim per token
  sliding_window,  ///< only the last `window` tokens (Mistral 7B, Gemma 3 local layers, gpt-oss)
  mla,             ///< multi-head latent attention (DeepSeek-V2/V3): one compressed latent per token
  chunked,         ///< chunked local attention (Llama 4): a token sees the tokens of its own `window`-token
                   ///< chunk only, so at most `window` tokens are kept
};

/// "full", "sliding_window", "mla", "chunked".
std::string_view to_string(AttentionKind kind);

/// What a norm of width w stores: RMSNorm a scale (w), LayerNorm a scale and a bias (2w),
/// LayerNorm without bias (Cohere, DBRX, OLMo-2's q/k norms are RMS) a scale (w), and a
/// non-parametric LayerNorm (OLMo-1: elementwise_affine=False) nothing.
enum class NormKind { rms, layer, layer_no_bias, non_parametric };
/// Parameters per unit of width: 1, 2, 1, 0.
double params_per_width(NormKind kind);
/// "rms", "layer", "layer_no_bias", "non_parametric".
std::string_view to_string(NormKind kind);

/// Query/key normalisation inside attention.
enum class QkNorm {
  none,
  per_head,    ///< one norm of head_dim shared by every head, on q and on k (Qwen3, Gemma 3): 2 x head_dim
  full_width,  ///< one norm over all heads (OLMo-2: q over heads x head_dim, k over kv_heads x head_dim;
               ///< Cohere: a (heads, head_dim) weight, the same count)
};

/// One decoder layer: its attention and whether its MLP is a mixture of experts.
struct LayerSpec {
  AttentionKind attention = AttentionKind::full;
  std::int64_t window = 0;  ///< tokens kept by a sliding_window layer (the config's sliding_window), the chunk of a
                            ///< chunked layer; 0 otherwise
  bool moe = false;         ///< true: routed experts (+ shared experts); false: one dense MLP of intermediate_size
};

/// The shape of a decoder-only transformer. Field comments give the config.json key(s).
struct ModelConfig {
  std::string name;          ///< file stem or what the caller named it ("llama-3.1-8b")
  std::string model_type;    ///< "model_type" (the family: llama, mistral, mixtral, qwen3, gemma3_text, gpt_oss, deepseek_v3, ...)
  std::string source;        ///< "_source" when present (where the numbers were copied from), else ""
  std::string follows;       ///< the modelling code the family's rule follows (Family::follows)

  // --- the dense trunk ----------------------------------------------------------------
  std::int64_t hidden_size = 0;        ///< "hidden_size" (d_model)
  std::int64_t num_layers = 0;         ///< "num_hidden_layers" (MTP / next-token-prediction modules excluded)
  std::int64_t num_heads = 0;          ///< "num_attention_heads" (query heads)
  std::int64_t num_kv_heads = 0;       ///< "num_key_value_heads"; default num_heads (MHA). GQA/MQA when smaller.
                                       ///< MLA layers ignore it: they cache the latent, not per-head K/V
  std::int64_t head_dim = 0;           ///< "head_dim" when present (Gemma 3, Qwen3, gpt-oss set it and it need not be
                                       ///< hidden/heads: Gemma 3 27B has 32 x 128 = 4096 != 5376); else hidden_size / num_heads;
                                       ///< MLA: the query/key width qk_nope_head_dim + qk_rope_head_dim (DeepSeek-V3: 192)
  std::int64_t intermediate_size = 0;  ///< "intermediate_size": the dense MLP's inner width (also each expert's for
                                       ///< Mixtral and gpt-oss, which have no moe_intermediate_size)
  std::int64_t vocab_size = 0;         ///< "vocab_size"
  std::int64_t max_position_embeddings = 0;  ///< "max_position_embeddings" (informational; 0 if absent)
  bool tie_word_embeddings = false;    ///< "tie_word_embeddings": the LM head reuses the input embedding matrix
  std::int64_t position_embeddings = 0;  ///< rows of a learned absolute position table (GPT-2 "n_positions"); 0: none
                                          ///< (rotary, ALiBi or no positions add no parameters)
  bool gated_mlp = true;               ///< SwiGLU / GeGLU: gate, up and down (3 matrices); false: up and down (2)
  bool parallel_block = false;         ///< attention and MLP read the same normed input and add to the residual
                                       ///< together (GPT-J, Falcon, Phi-1/2, Cohere): no parameters of its own

  // --- biases and norms (set from the family; config keys where the family has one) --
  bool qkv_bias = false;      ///< q/k/v projections carry a bias ("attention_bias"; Qwen2 always; gpt-oss: true)
  bool o_bias = false;        ///< output projection carries a bias ("attention_bias" for Llama-style and gpt-oss)
  bool mlp_bias = false;      ///< dense MLP / expert projections carry biases ("mlp_bias"; gpt-oss experts: true)
  bool router_bias = false;   ///< the router has one bias per expert (gpt-oss router bias; DeepSeek-V3
                              ///< e_score_correction_bias)
  bool lm_head_bias = false;  ///< the LM head carries a bias of vocab_size (Phi-1/2, GPT-J, PhiMoE)
  bool attention_sinks = false;  ///< one learned sink logit per query head per layer (gpt-oss)
  NormKind norm = NormKind::rms;     ///< the kind of every norm of hidden_size (and of the q/k and MLA latent norms)
  std::int64_t norms_per_layer = 2;  ///< norms of hidden_size per layer: 2 (pre-attention, pre-MLP); 1 (a parallel block
                                     ///< with one norm); 4 (Gemma 2/3, GLM-4: pre and post around both)
  bool final_norm = true;     ///< one more norm of hidden_size after the last layer
  QkNorm qk_norm = QkNorm::none;

  // --- mixture of experts (num_experts == 0: dense model) ----------------------------
  std::int64_t num_experts = 0;            ///< routed experts: "num_local_experts" (Mixtral, gpt-oss),
                                           ///< "n_routed_experts" (DeepSeek), "num_experts" (Qwen3-MoE)
  std::int64_t experts_per_token = 0;      ///< "num_experts_per_tok" (top-k)
  std::int64_t num_shared_experts = 0;     ///< "n_shared_experts" (DeepSeek): always-active experts
  std::int64_t shared_expert_intermediate_size = 0;  ///< each shared expert's inner width (Qwen2-MoE
                                                     ///< "shared_expert_intermediate_size"); 0: moe_intermediate_size
  bool shared_expert_gate = false;         ///< a hidden_size -> 1 sigmoid gate on the shared expert (Qwen2-MoE)
  std::int64_t moe_intermediate_size = 0;  ///< "moe_intermediate_size"; default intermediate_size
  std::int64_t first_dense_layers = 0;     ///< "first_k_dense_replace" (DeepSeek: 3): leading layers with a dense MLP

  // --- multi-head latent attention (DeepSeek-V2 paper, sec. 2.1; kv_lora_rank == 0: not MLA)
  std::int64_t q_lora_rank = 0;       ///< "q_lora_rank" (d_c'): query compression; 0 = queries not compressed
  std::int64_t kv_lora_rank = 0;      ///< "kv_lora_rank" (d_c): the cached latent's width
  std::int64_t qk_rope_head_dim = 0;  ///< "qk_rope_head_dim" (d_h^R): the decoupled RoPE key, cached, shared by heads
  std::int64_t qk_nope_head_dim = 0;  ///< "qk_nope_head_dim": per-head query/key width without RoPE
  std::int64_t v_head_dim = 0;        ///< "v_head_dim": per-head value width

  // --- a vision tower, reported apart (multimodal checkpoints; 0: none described) -------
  double vision_params = 0;    ///< the vision encoder and the projector into the text model, counted by vision.cpp
  std::string vision_model;    ///< "siglip_vision_model", ... ("" when none)

  /// One entry per layer, num_layers entries: attention kind (and window) and dense or MoE MLP.
  /// From "layer_types" when present; else the family's rule (Gemma 3: every
  /// sliding_window_pattern-th layer global; Mistral: all sliding when sliding_window is set;
  /// DeepSeek: all MLA, MoE from layer first_k_dense_replace on).
  std::vector<LayerSpec> layers;

  bool is_moe() const { return num_experts > 0; }
  bool is_mla() const { return kv_lora_rank > 0; }
};

/// A config.json that cannot describe a model: the message starts with the field (the
/// config.json key, or the file path when the file cannot be read or parsed), e.g.
/// "num_key_value_heads: must be a positive integer", "num_hidden_layers: missing".
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string field, const std::string& what)
      : std::runtime_error(field + ": " + what), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

/// A --model stem with no file under data/models/. The message lists the allowed stems:
/// "unknown model 'llama-9'; allowed: deepseek-v3, gemma-3-27b, ...".
class UnknownModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Reads a config.json object (a multimodal config with a "text_config" object is read from
/// its text_config, with top-level keys filling in what text_config lacks). Keys starting
/// with '_' are ignored (shipped files keep their "_source" there). Required: hidden_size,
/// num_hidden_layers, num_attention_heads, intermediate_size, vocab_size, model_type (a
/// family in the table, see known_families()). Every size must be a positive integer;
/// num_attention_heads must be a multiple of num_key_value_heads; without "head_dim",
/// hidden_size must be a multiple of num_attention_heads; top-k must not exceed the experts.
/// Throws ConfigError naming the field.
ModelConfig parse_hf_config(const nlohmann::json& config, std::string name);

/// Reads and parses the file at `path`; the model's name is the file stem ("config" for
/// ".../config.json"). Throws ConfigError (field = path) when the file cannot be read or is
/// not JSON, and ConfigError naming the key when a field is wrong.
ModelConfig load_model_file(const std::string& path);

/// Loads data/models/<stem>.json. The data folder is $TUTOR_DATA_DIR when set, else the
/// compile-time TUTOR_DATA_DIR (the source tree's data/). Throws UnknownModelError listing
/// shipped_models() when there is no such file.
ModelConfig load_shipped_model(std::string_view stem);

/// The stems of data/models/*.json, sorted ("deepseek-v3", "gemma-3-27b", ...).
std::vector<std::string> shipped_models();

/// What the command-line tools (B06, B07, C07) do with --model NAME / --config FILE: loads
/// exactly one of them. Throws tutor::UsageError starting with "--model:" (unknown stem, listing
/// the shipped ones, or neither/both given) or "--config:" (unreadable or invalid file).
ModelConfig load_model_option(const std::string& model, const std::string& config);

/// The folder shipped configs are read from (see load_shipped_model).
std::string models_dir();

/// The shape for a record, under the names of this struct (num_layers, num_kv_heads, ...):
/// the one "model" object B05, B06 and C07 write.
nlohmann::json to_json(const ModelConfig& model);

/// The model_type values the parser knows, comma-separated (for messages and --help).
std::string known_families();

}  // namespace tutor::b05
