// B05 exercise "kv_cache": YOUR CODE. Fill in each TODO, then run
//   ./build-host/b05_exercise_kv_cache
// until every case passes (README.md in this folder: what each kind of layer stores).
#include "kv_cache.hpp"
#include "tutor/not_implemented.hpp"

namespace tutor::b05::exercise {

double kv_bytes_for_context(const ModelConfig& model, double bytes_per_element, std::int64_t context) {
  double total = 0;
  for (const LayerSpec& layer : model.layers) {
    switch (layer.attention) {
      case AttentionKind::full:
        // TODO: what one token stores in this layer (which heads? which widths?), times the
        // tokens the layer keeps, times bytes_per_element.
        throw tutor::exercise::NotImplemented("KV bytes of a full-attention layer (K and V per token)");
      case AttentionKind::sliding_window:
        // TODO: like a full layer, but how many of the `context` tokens does it keep?
        throw tutor::exercise::NotImplemented("KV bytes of a sliding-window layer (how many tokens it keeps)");
      case AttentionKind::chunked:
        // TODO: chunked local attention (Llama 4): at most one chunk of layer.window tokens.
        throw tutor::exercise::NotImplemented("KV bytes of a chunked-attention layer");
      case AttentionKind::mla:
        // TODO: multi-head latent attention (DeepSeek-V2/V3): what is cached per token?
        throw tutor::exercise::NotImplemented("KV bytes of an MLA layer (the latent and the RoPE key)");
    }
  }
  (void)bytes_per_element;
  (void)context;
  return total;
}

}  // namespace tutor::b05::exercise
