#pragma once
// B05 exercise "layer_params": the parameters of one decoder layer, from its family's features.
//
// Write decoder_layer_params in layer_params.cpp. The checker (check_layer_params.cpp) compares
// each part with what the calculator's tutor::b05::count_params counts for that layer, on every
// shipped config, on random shapes and on the families public calculators get wrong.
#include <cstdint>

#include "model.hpp"

namespace tutor::b05::exercise {

/// One decoder layer's parameters, split the way tutor::b05::ParamCount splits a model's.
struct LayerParams {
  double attention = 0;  ///< q, k, v, o projections (MLA: its down and up projections), their biases, attention sinks
  double mlp = 0;        ///< the dense MLP, or every routed and shared expert, the router and the shared-expert gate,
                         ///< with their biases
  double norms = 0;      ///< the layer's norms of hidden_size, its q/k norms and MLA's latent norms
};

/// The parameters of decoder layer `layer` (0-based, < model.layers.size()) of `model`.
LayerParams decoder_layer_params(const ModelConfig& model, std::int64_t layer);

}  // namespace tutor::b05::exercise
