// B05: vision towers, counted from the modelling code that builds them (vision.hpp says why
// they are reported apart).
//
// Sources (huggingface/transformers, src/transformers/models/):
//   siglip/modeling_siglip.py   SiglipVisionEmbeddings, SiglipAttention, SiglipMLP,
//                               SiglipEncoderLayer, SiglipVisionTransformer,
//                               SiglipMultiheadAttentionPoolingHead
//   gemma3/modeling_gemma3.py   Gemma3MultiModalProjector
//   gemma3/configuration_gemma3.py  Gemma3Config: vision_config becomes a SiglipVisionConfig
//   llama4/modeling_llama4.py   Llama4UnfoldConvolution, Llama4VisionAttention, Llama4VisionMLP,
//                               Llama4VisionEncoderLayer, Llama4VisionModel,
//                               Llama4VisionPixelShuffleMLP, Llama4VisionMLP2,
//                               Llama4MultiModalProjector
//   pixtral/modeling_pixtral.py PixtralVisionModel, PixtralAttentionLayer, PixtralAttention,
//                               PixtralMLP, PixtralRMSNorm
//   mistral3/modular_mistral3.py  Mistral3MultiModalProjector, Mistral3PatchMerger;
//                               configuration_mistral3.py (spatial_merge_size=2,
//                               multimodal_projector_bias=False, vision_feature_layer=-1)
#include "vision.hpp"

#include <cstdio>
#include <string_view>

#include <nlohmann/json.hpp>

#include "family.hpp"
#include "model.hpp"

namespace tutor::b05 {
namespace {

double d(std::int64_t v) { return static_cast<double>(v); }

constexpr double kMaxExactCount = 9007199254740992.0;  // 2^53

/// At most 40 characters of a config string, control characters shown as '?', so that an
/// error stays one line.
std::string quoted(const std::string& s) {
  std::string out = s.substr(0, 40);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return "'" + out + "'";
}

/// nn.Linear(in, out, bias): a weight of in x out, and out more with a bias.
double linear(double in, double out, bool bias) { return in * out + (bias ? out : 0); }
/// nn.LayerNorm(w) (elementwise_affine, bias default True): a scale and a bias.
double layer_norm(double w) { return 2 * w; }

/// The sizes every vision config names the same way.
struct EncoderShape {
  std::int64_t hidden = 0, intermediate = 0, layers = 0, heads = 0, channels = 3, image = 0, patch = 0;
};

EncoderShape read_encoder_shape(const ConfigReader& v) {
  EncoderShape s;
  s.hidden = v.required("hidden_size");
  s.intermediate = v.required("intermediate_size");
  if (const nlohmann::json* n = v.find("num_hidden_layers"); n && n->is_number() && n->get<double>() > double(kMaxLayers))
    v.refuse("num_hidden_layers", "must be at most " + std::to_string(kMaxLayers));
  s.layers = v.required("num_hidden_layers");
  s.heads = v.required("num_attention_heads");
  // SiglipAttention raises, and Llama4VisionAttention would build q/k/v narrower than the model,
  // when the width does not split evenly into heads.
  if (s.hidden % s.heads != 0)
    v.refuse("num_attention_heads", "(" + std::to_string(s.heads) + ") does not divide hidden_size (" +
                                        std::to_string(s.hidden) + ")");
  s.channels = v.positive("num_channels").value_or(3);
  s.image = v.required("image_size");
  s.patch = v.required("patch_size");
  if (s.patch > s.image)
    v.refuse("patch_size", "(" + std::to_string(s.patch) + ") exceeds image_size (" + std::to_string(s.image) + ")");
  return s;
}

/// Pre-norm encoder layers with biased q/k/v/o and a two-matrix MLP with biases (SiglipEncoderLayer:
/// layer_norm1, self_attn, layer_norm2, mlp fc1/fc2; Llama4VisionEncoderLayer: input_layernorm,
/// self_attn, post_attention_layernorm, mlp fc1/fc2; every Linear with bias=True).
double encoder_layers(const EncoderShape& s) {
  const double h = d(s.hidden), i = d(s.intermediate);
  const double per_layer = 2 * layer_norm(h) + 4 * linear(h, h, true) + linear(h, i, true) + linear(i, h, true);
  return d(s.layers) * per_layer;
}

/// (image_size // patch_size)^2 patches (SiglipVisionEmbeddings.num_patches; Llama4VisionModel).
double patches(const EncoderShape& s) {
  const double side = d(s.image / s.patch);
  return side * side;
}

/// The projector's keys that Mistral3Config keeps at the top level, not in vision_config.
struct ParentKeys {
  std::int64_t spatial_merge_size = 2;  ///< patches merged per side before the projector
  bool projector_bias = false;          ///< multimodal_projector_bias
  std::int64_t feature_layers = 1;      ///< vision_feature_layer: one layer (an int) or a list
};

ParentKeys read_mistral3_keys(const ConfigReader& top) {
  ParentKeys k;
  k.spatial_merge_size = top.positive("spatial_merge_size").value_or(2);
  k.projector_bias = top.boolean("multimodal_projector_bias").value_or(false);
  if (const nlohmann::json* f = top.find("vision_feature_layer"); f && !f->is_number_integer()) {
    if (!f->is_array() || f->empty() || f->size() > std::size_t(kMaxLayers))
      top.refuse("vision_feature_layer", "must be a layer index or a non-empty list of them");
    for (const nlohmann::json& e : *f)
      if (!e.is_number_integer()) top.refuse("vision_feature_layer", "must be a layer index or a non-empty list of them");
    k.feature_layers = static_cast<std::int64_t>(f->size());
  }
  return k;
}

VisionTower siglip_for_gemma3(const ConfigReader& v, const ParentKeys&, std::int64_t text_hidden) {
  const EncoderShape s = read_encoder_shape(v);
  const double h = d(s.hidden), i = d(s.intermediate);
  VisionTower t;
  t.model_type = "siglip_vision_model";
  t.follows = "transformers models/siglip/modeling_siglip.py (SiglipVisionTransformer), "
              "models/gemma3/modeling_gemma3.py (Gemma3MultiModalProjector)";
  // SiglipVisionEmbeddings: patch_embedding Conv2d(num_channels, hidden, patch, stride patch) with
  // its bias; position_embedding Embedding(num_patches, hidden).
  t.encoder = d(s.channels) * d(s.patch) * d(s.patch) * h + h + patches(s) * h;
  t.encoder += encoder_layers(s);
  t.encoder += layer_norm(h);  // post_layernorm
  // SiglipVisionTransformer builds the attention-pooling head unless vision_use_head is false
  // (absent: the head is built). Gemma 3 sets it false.
  if (v.boolean("vision_use_head").value_or(true)) {
    // probe (1, 1, hidden); nn.MultiheadAttention(hidden): in_proj 3h x h + 3h, out_proj h x h + h;
    // layernorm; SiglipMLP.
    t.encoder += h + (3 * h * h + 3 * h) + linear(h, h, true) + layer_norm(h) + linear(h, i, true) + linear(i, h, true);
  }
  // Gemma3MultiModalProjector: mm_input_projection_weight (vision hidden, text hidden) and
  // mm_soft_emb_norm, a Gemma3RMSNorm of the vision width; its average pooling has no weights.
  t.projector = h * d(text_hidden) + h;
  return t;
}

VisionTower llama4_vision(const ConfigReader& v, const ParentKeys&, std::int64_t text_hidden) {
  const EncoderShape s = read_encoder_shape(v);
  const double h = d(s.hidden);
  const double projector_in = d(v.required("projector_input_dim"));
  const double projector_out = d(v.required("projector_output_dim"));
  const double output = d(v.required("vision_output_dim"));
  VisionTower t;
  t.model_type = "llama4_vision_model";
  t.follows = "transformers models/llama4/modeling_llama4.py (Llama4VisionModel, Llama4MultiModalProjector)";
  // Llama4UnfoldConvolution: Linear(num_channels x patch x patch, hidden, bias=False);
  // class_embedding (hidden); positional_embedding_vlm (num_patches + 1, hidden): the + 1 is the
  // class token's.
  t.encoder = d(s.channels) * d(s.patch) * d(s.patch) * h + h + (patches(s) + 1) * h;
  t.encoder += 2 * layer_norm(h);  // layernorm_pre, layernorm_post
  t.encoder += encoder_layers(s);
  // vision_adapter (Llama4VisionPixelShuffleMLP -> Llama4VisionMLP2): fc1 Linear(intermediate_size,
  // projector_input_dim) and fc2 Linear(projector_output_dim, projector_output_dim), no biases.
  t.encoder += linear(d(s.intermediate), projector_in, false) + linear(projector_out, projector_out, false);
  // Llama4MultiModalProjector: linear_1 Linear(vision_output_dim, text hidden_size, bias=False)
  // (built without a bias whatever multi_modal_projector_bias says).
  t.projector = linear(output, d(text_hidden), false);
  return t;
}

VisionTower pixtral_for_mistral3(const ConfigReader& v, const ParentKeys& p, std::int64_t text_hidden) {
  const EncoderShape s = read_encoder_shape(v);
  const double h = d(s.hidden), i = d(s.intermediate), t_h = d(text_hidden);
  VisionTower t;
  t.model_type = "pixtral";
  t.follows = "transformers models/pixtral/modeling_pixtral.py (PixtralVisionModel), "
              "models/mistral3/modular_mistral3.py (Mistral3MultiModalProjector)";
  // PixtralVisionModel: patch_conv Conv2d(num_channels, hidden, patch, stride patch, bias=False);
  // ln_pre RMSNorm; no position table (2-D rotary positions).
  t.encoder = d(s.channels) * d(s.patch) * d(s.patch) * h + h;
  // PixtralAttentionLayer: attention_norm and ffn_norm (RMSNorm), q/k/v/o_proj without bias,
  // PixtralMLP gate/up/down without bias.
  t.encoder += d(s.layers) * (2 * h + 4 * h * h + 3 * h * i);
  // Mistral3MultiModalProjector: norm (RMSNorm of the vision width); patch_merger.merging_layer
  // Linear(hidden x spatial_merge_size^2, hidden, bias=False); linear_1 Linear(hidden x feature
  // layers, text hidden) and linear_2 Linear(text hidden, text hidden), biased per
  // multimodal_projector_bias.
  const double merged = d(p.spatial_merge_size) * d(p.spatial_merge_size);
  t.projector = h + linear(h * merged, h, false) + linear(h * d(p.feature_layers), t_h, p.projector_bias) +
                linear(t_h, t_h, p.projector_bias);
  return t;
}

struct TowerKind {
  std::string_view parent;       ///< the top-level model_type that builds it
  std::string_view vision_type;  ///< its vision_config's model_type
  VisionTower (*count)(const ConfigReader&, const ParentKeys&, std::int64_t);
};

constexpr TowerKind kTowers[] = {
    {"gemma3", "siglip_vision_model", siglip_for_gemma3},
    {"llama4", "llama4_vision_model", llama4_vision},
    {"mistral3", "pixtral", pixtral_for_mistral3},
};

/// Re-throws a ConfigError about a vision_config key under "vision_config.<key>".
[[noreturn]] void rethrow_nested(const ConfigError& e) {
  const std::string what = e.what();
  const std::size_t cut = e.field().size() + 2;  // "<field>: "
  throw ConfigError("vision_config." + e.field(), what.size() >= cut ? what.substr(cut) : what);
}

}  // namespace

std::string known_vision_models() {
  std::string out;
  for (const TowerKind& k : kTowers) {
    if (!out.empty()) out += ", ";
    out += std::string(k.vision_type) + " (" + std::string(k.parent) + ")";
  }
  return out;
}

std::optional<VisionTower> read_vision_tower(const nlohmann::json& config, std::int64_t text_hidden_size) {
  if (!config.is_object()) return std::nullopt;
  const ConfigReader top(config);
  const nlohmann::json* vision = top.find("vision_config");
  if (!vision) return std::nullopt;
  if (!vision->is_object()) top.refuse("vision_config", "must be an object");
  if (text_hidden_size <= 0) top.refuse("hidden_size", "the text model's width is needed to count the vision projector");

  const std::string parent = top.string("model_type").value_or("");
  const ParentKeys parent_keys = parent == "mistral3" ? read_mistral3_keys(top) : ParentKeys{};
  const ConfigReader v(*vision);
  try {
    const std::optional<std::string> declared = v.string("model_type");
    for (const TowerKind& k : kTowers) {
      const bool parent_matches = parent == k.parent;
      const bool declared_matches = declared && *declared == k.vision_type;
      if (!parent_matches && !declared_matches) continue;
      if (!parent_matches)  // the projector belongs to the parent model: another parent's is not known
        v.refuse("model_type", std::string(k.vision_type) + " is counted under model_type " + std::string(k.parent) +
                                   " only (with its projector), got model_type " + quoted(parent));
      if (declared && !declared_matches)
        v.refuse("model_type", "model_type " + parent + " builds a " + std::string(k.vision_type) + " tower, got " +
                                   quoted(*declared));
      const VisionTower t = k.count(v, parent_keys, text_hidden_size);
      // Counts are doubles holding integers: above 2^53 they stop being exact (and the printed
      // integer would be wrong), far beyond any published tower (Llama 4's is 8.7e8).
      if (!(t.params() <= kMaxExactCount)) {
        char count[32];
        std::snprintf(count, sizeof count, "%.3g", t.params());
        v.refuse("hidden_size", std::string("the sizes give a tower of ") + count +
                                    " parameters, more than 2^53 (the largest count stated exactly)");
      }
      return t;
    }
    v.refuse("model_type", "unknown vision model " + quoted(declared.value_or("")) + " (model_type " + quoted(parent) +
                               "); supported: " + known_vision_models());
  } catch (const ConfigError& e) {
    rethrow_nested(e);
  }
}

}  // namespace tutor::b05
