// B05 exercise "layer_params": YOUR CODE. Fill in each TODO, then run
//   ./build-host/b05_exercise_layer_params
// until every case passes (README.md in this folder: which fields of ModelConfig matter).
#include "layer_params.hpp"
#include "tutor/not_implemented.hpp"

namespace tutor::b05::exercise {
namespace {

double attention_params(const ModelConfig& model, const LayerSpec& layer) {
  // TODO: q and o are hidden x (num_heads x head_dim); what are k and v under GQA?
  // Then the biases the family has (qkv_bias, o_bias), attention_sinks, and the MLA case
  // (layer.attention == AttentionKind::mla: q_lora_rank, kv_lora_rank, qk_*_head_dim, v_head_dim).
  (void)model;
  (void)layer;
  throw tutor::exercise::NotImplemented("parameters of the attention block (q, k, v, o, biases, sinks, MLA)");
}

double mlp_params(const ModelConfig& model, const LayerSpec& layer) {
  // TODO: a dense MLP (gated: 3 matrices, plain: 2; mlp_bias) or, when layer.moe, the routed
  // experts, the shared experts (their own width when set), the router and the shared-expert gate.
  (void)model;
  (void)layer;
  throw tutor::exercise::NotImplemented("parameters of the MLP (dense, routed and shared experts, router)");
}

double norm_params(const ModelConfig& model, const LayerSpec& layer) {
  // TODO: norms_per_layer norms of hidden_size (what does each NormKind store?), the q/k norms
  // (qk_norm) and MLA's latent norms.
  (void)model;
  (void)layer;
  throw tutor::exercise::NotImplemented("parameters of the norms (norm kind, q/k norms, MLA latent norms)");
}

}  // namespace

LayerParams decoder_layer_params(const ModelConfig& model, std::int64_t layer) {
  const LayerSpec& spec = model.layers.at(static_cast<std::size_t>(layer));
  return {attention_params(model, spec), mlp_params(model, spec), norm_params(model, spec)};
}

}  // namespace tutor::b05::exercise
