#pragma once
// B05: the vision tower of a multimodal checkpoint, counted apart from the text model.
//
// A multimodal config.json (Gemma 3, Llama 4, Mistral 3) nests its language model under
// "text_config" and its image encoder under "vision_config". The encoder, and the projector that
// maps its output into the text model's width, are weights like any other: they are loaded with
// the model and the published totals include them (Gemma 3 27B: 27.4B; Llama 4 Scout: 109B).
// They do not run for generated tokens, only once per image, so B05 reports them apart:
// text-only and total.
//
// Which encoder a checkpoint builds is fixed by its top-level model_type, not by vision_config
// (Gemma3Config turns vision_config into a SiglipVisionConfig, Llama4Config into a
// Llama4VisionConfig, Mistral3Config into a PixtralVisionConfig unless it names another);
// vision_config's own model_type, when present, must agree. Any other
// tower is refused (one line), never left out of the total in silence.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace tutor::b05 {

/// One vision tower, counted layer by layer from its modelling code.
struct VisionTower {
  std::string model_type;  ///< "siglip_vision_model" (Gemma 3), "llama4_vision_model" (Llama 4), "pixtral" (Mistral 3)
  std::string follows;     ///< the modelling code the count follows
  double encoder = 0;      ///< patch embedding, positions, encoder layers and norms (Llama 4: and its
                           ///< pixel-shuffle adapter, which transformers builds inside the vision model)
  double projector = 0;    ///< the multimodal projector into the text model's hidden size
  double params() const { return encoder + projector; }
};

/// The vision tower that `config` (the whole config.json object, not its text_config) describes,
/// projected into a text model of width `text_hidden_size`; std::nullopt when there is no
/// "vision_config". Every size it reads is required (the vision config classes' defaults differ
/// between transformers versions: SigLIP's patch_size was 32, is 16), except num_channels (3).
/// Throws ConfigError naming the key ("vision_config.hidden_size: missing ..."), and for a tower
/// it does not count: "vision_config.model_type: unknown vision model 'clip_vision_model';
/// supported: ...".
std::optional<VisionTower> read_vision_tower(const nlohmann::json& config, std::int64_t text_hidden_size);

/// The towers read_vision_tower counts, with the model_type each belongs to:
/// "siglip_vision_model (gemma3), llama4_vision_model (llama4), pixtral (mistral3)".
std::string known_vision_models();

}  // namespace tutor::b05
