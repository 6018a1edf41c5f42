// B06 exercise "kv_pool": the worked solution, vLLM's arithmetic (kv_planner.hpp names the files).
//
//   KV heads per GPU = max(1, kv_heads / TP): vLLM splits KV heads over the TP ranks, and when there
//     are fewer heads than ranks it replicates them, one per GPU (ModelConfig.get_num_kv_heads);
//     an MLA model caches one latent per token that has no heads to split: every rank holds all
//     of it. So a GPU's share of a token's KV is heads_per_gpu / kv_heads (1 under MLA).
//   pool per GPU = total x utilization - this GPU's weights - activation peak - non-torch - CUDA graphs,
//     the weights being one rank's share of every parameter the engine loads (a multimodal
//     checkpoint's vision tower and projector too): the split tensors / TP plus those vLLM keeps
//     whole on every rank (norms, routers, MLA down-projections), b05::weight_bytes_per_gpu;
//   page bytes = block_size x (one token of every layer on this GPU, windows ignored: a page spans
//     all layers); pages = floor(pool / page bytes), 0 when the pool is negative.
//   sequence pages = ceil(window-capped KV bytes of one sequence on this GPU / page bytes): the
//     division of two doubles that are equal in exact arithmetic can land a hair above an
//     integer, so the ceiling forgives 1e-12.
//   sequences = replicas x floor(pages / sequence pages); none when the context is longer than the
//     model's positions or no page fits.
#include <algorithm>
#include <cmath>

#include "calculator.hpp"
#include "kv_pool.hpp"
#include "tensor_parallel.hpp"

namespace tutor::b06::exercise {

KvPoolAnswer kv_pool(const b05::ModelConfig& model, const EngineStartup& s) {
  KvPoolAnswer a;
  double share = 1;
  if (model.is_mla()) {
    a.kv_heads_per_gpu = 1;
  } else {
    a.kv_heads_per_gpu = std::max<std::int64_t>(1, model.num_kv_heads / s.tp);
    share = static_cast<double>(a.kv_heads_per_gpu) / static_cast<double>(model.num_kv_heads);
  }
  // Not total / TP: norms, routers and MLA's down-projections are whole on every rank, and a
  // multimodal checkpoint's vision tower is loaded (and split) with the text model.
  const double weights_per_gpu = b05::weight_bytes_per_gpu(model, s.tp, s.weight_bytes_per_param);
  const double pool = s.total_memory_bytes * s.memory_utilization - weights_per_gpu - s.activation_bytes -
                      s.non_torch_bytes - s.cuda_graph_bytes;
  const double page = s.block_size * b05::kv_bytes_per_token_uncapped(model, s.kv_bytes_per_element) * share;
  a.blocks = pool > 0 ? static_cast<std::int64_t>(std::floor(pool / page)) : 0;
  const int replicas = s.gpus / s.tp;
  a.tokens_node = a.blocks * s.block_size * replicas;

  const bool too_long = model.max_position_embeddings > 0 && s.context > model.max_position_embeddings;
  if (too_long || a.blocks == 0) return a;
  const double sequence = b05::kv_bytes_for_context(model, s.kv_bytes_per_element, s.context) * share;
  const auto sequence_pages = static_cast<std::int64_t>(std::ceil(sequence / page - 1e-12));
  a.max_sequences = replicas * (a.blocks / sequence_pages);
  return a;
}

}  // namespace tutor::b06::exercise
