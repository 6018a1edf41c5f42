// B05 exercise "kv_cache": the worked solution.
//
// What one token stores in one layer:
//   full, sliding_window, chunked: a key and a value vector for each KV head, head_dim wide:
//     2 x num_kv_heads x head_dim elements. KV heads, not query heads: grouped-query attention
//     (Ainslie et al. 2023) shares one K/V head among num_heads / num_kv_heads query heads, and
//     multi-query attention (Shazeer 2019) has one. Counting num_heads overstates Llama-3.1-70B's
//     cache 8x (64 query heads, 8 KV heads).
//   mla: the compressed latent c^KV (kv_lora_rank) and the decoupled RoPE key k^R shared by all
//     heads (qk_rope_head_dim): kv_lora_rank + qk_rope_head_dim elements, and no per-head K or V
//     (DeepSeek-V2 paper, sec. 2.1.2-2.1.3 and Table 1). num_key_value_heads in an MLA config
//     (128 in DeepSeek-V3's) describes the decompressed heads, which are never cached.
// How many tokens a layer keeps after `context` tokens:
//   full and mla: all of them;
//   sliding_window: the last `window` (Mistral 7B's rolling buffer cache, Jiang et al. 2023,
//     sec. 2): min(context, window);
//   chunked (Llama 4): a token sees only its own chunk of `window` tokens, so at most one chunk
//     is kept: min(context, window).
// Head width is model.head_dim, which need not be hidden_size / num_heads (Gemma 3 27B: 128,
// where 5376 / 32 = 168).
#include <algorithm>

#include "kv_cache.hpp"

namespace tutor::b05::exercise {

double kv_bytes_for_context(const ModelConfig& model, double bytes_per_element, std::int64_t context) {
  const double kv_heads = static_cast<double>(model.num_kv_heads), head_dim = static_cast<double>(model.head_dim);
  double total = 0;
  for (const LayerSpec& layer : model.layers) {
    double elements_per_token = 2 * kv_heads * head_dim;
    std::int64_t tokens = context;
    switch (layer.attention) {
      case AttentionKind::full: break;
      case AttentionKind::sliding_window:
      case AttentionKind::chunked: tokens = std::min(context, layer.window); break;
      case AttentionKind::mla:
        elements_per_token = static_cast<double>(model.kv_lora_rank + model.qk_rope_head_dim);
        break;
    }
    total += elements_per_token * static_cast<double>(tokens) * bytes_per_element;
  }
  return total;
}

}  // namespace tutor::b05::exercise
