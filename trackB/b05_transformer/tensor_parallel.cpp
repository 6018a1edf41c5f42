#include "tensor_parallel.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "calculator.hpp"

namespace tutor::b05 {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

}  // namespace

TensorParallelShare tensor_parallel_share(const ModelConfig& m, int tp, double bytes_per_param,
                                          double kv_bytes_per_element, std::int64_t context) {
  require(tp >= 1 && tp <= 1024, "--tp: must be an integer in [1, 1024], got " + std::to_string(tp));
  require(m.num_heads % tp == 0, "--tp: " + std::to_string(m.num_heads) + " attention heads of " + m.name +
                                     " do not split over " + std::to_string(tp) + " GPUs (num_attention_heads % tp "
                                     "must be 0)");
  if (!m.is_mla()) {
    const auto h = m.num_kv_heads;
    require(h >= tp ? h % tp == 0 : tp % h == 0,
            "--tp: " + std::to_string(h) + " KV heads of " + m.name + " neither split evenly over " +
                std::to_string(tp) + " GPUs nor replicate evenly");
  }
  const ParamCount p = count_params(m);
  const double H = double(m.hidden_size);
  TensorParallelShare s;
  s.tp = tp;
  s.mla = m.is_mla();
  s.params_total = p.total_with_vision;
  s.vision_params = p.vision;

  // Replicated: every norm; per layer the row-parallel biases, the sinks, the router, MLA's
  // down-projections.
  double replicated = p.norms;
  for (const auto& layer : m.layers) {
    if (m.o_bias) replicated += H;
    if (m.attention_sinks) replicated += double(m.num_heads);
    if (layer.moe) {
      replicated += double(m.num_experts) * H + (m.router_bias ? double(m.num_experts) : 0);
      if (m.mlp_bias) replicated += double(m.num_experts) * H;  // each expert's down bias, full width
    } else if (m.mlp_bias) {
      replicated += H;  // down_proj bias
    }
    if (layer.attention == AttentionKind::mla)
      replicated += H * double((m.q_lora_rank > 0 ? m.q_lora_rank : 0) + m.kv_lora_rank + m.qk_rope_head_dim);
  }
  s.replicated_params = std::min(replicated, p.total);
  // The vision tower is split with the text model (vLLM's default mm_encoder_tp_mode "weights").
  s.sharded_params = p.total - s.replicated_params + p.vision;

  // K/V heads: max(1, kv_heads / tp) per rank; with fewer heads than ranks each rank holds one
  // whole head's k and v weights (and biases), not 1/tp of them.
  if (s.mla) {
    s.kv_heads_per_gpu = 1;
  } else {
    s.kv_heads_per_gpu = std::max<std::int64_t>(1, m.num_kv_heads / tp);
    s.kv_heads_replicated = m.num_kv_heads < tp;
    if (s.kv_heads_replicated) {
      const double per_head = 2 * (H + (m.qkv_bias ? 1 : 0)) * double(m.head_dim);  // k and v of one head
      const double held = per_head;                                                  // one whole head per rank
      const double share = per_head * double(m.num_kv_heads) / tp;                  // what an even split would give
      s.kv_head_copy_params = double(m.layers.size()) * (held - share);
    }
  }
  s.params_per_gpu = s.sharded_params / tp + s.replicated_params + s.kv_head_copy_params;
  s.weight_bytes_per_gpu = s.params_per_gpu * bytes_per_param;

  const double share = s.mla ? 1.0 : double(s.kv_heads_per_gpu) / double(m.num_kv_heads);
  s.kv_bytes_per_token_per_gpu = kv_bytes_per_token_uncapped(m, kv_bytes_per_element) * share;
  s.kv_growth_bytes_per_token_per_gpu = kv_bytes_per_token_full(m, kv_bytes_per_element) * share;
  s.kv_bytes_for_context_per_gpu = kv_bytes_for_context(m, kv_bytes_per_element, context) * share;
  if (s.mla) s.kv_latent_bytes_per_token_per_layer = double(m.kv_lora_rank + m.qk_rope_head_dim) * kv_bytes_per_element;

  // A step streams this rank's weights once; the untied input embedding is a lookup of the
  // step's rows, not a read of the table, and the vision tower runs once per image, not per token.
  const double input_embedding = m.tie_word_embeddings ? 0 : double(m.vocab_size) * H / tp;
  s.weight_read_bytes_per_gpu = (s.params_per_gpu - input_embedding - s.vision_params / tp) * bytes_per_param;
  s.prefill_bytes_per_gpu = s.weight_read_bytes_per_gpu + s.kv_bytes_for_context_per_gpu;
  s.decode_bytes_per_gpu = s.weight_read_bytes_per_gpu + s.kv_bytes_for_context_per_gpu;
  // Counts are printed as exact integers: refuse what an int64 cannot hold (a config far beyond
  // any model) rather than print a wrapped number.
  for (const double v : {s.params_per_gpu, s.weight_bytes_per_gpu, s.kv_bytes_per_token_per_gpu})
    require(std::isfinite(v) && v >= 0 && v < 9e15,
            "--tp: the config's per-GPU sizes exceed what this tool reports (" + std::to_string(v) +
                "); check hidden_size, num_hidden_layers, intermediate_size and vocab_size");
  // The bytes of a step grow with the context: past the bound, the context is what to change
  // (a 2^30-token context on a wide config), not --tp.
  for (const double v : {s.prefill_bytes_per_gpu, s.decode_bytes_per_gpu})
    require(std::isfinite(v) && v >= 0 && v < 9e15,
            "--context: " + std::to_string(context) + " tokens give one GPU " + fmt::format("{:.3g}", v) +
                " B to read per step, past what this tool reports (9e15 B); give a shorter --context");
  return s;
}

double weight_bytes_per_gpu(const ModelConfig& cfg, int tp, double bytes_per_param) {
  return tensor_parallel_share(cfg, tp, bytes_per_param, 1, 1).weight_bytes_per_gpu;
}

}  // namespace tutor::b05
