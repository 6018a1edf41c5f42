#pragma once
// B05 exercise "kv_cache": the KV-cache bytes of one sequence, from a model's shape.
//
// Write kv_bytes_for_context in kv_cache.cpp. The checker (check_kv_cache.cpp) compares it with
// the calculator's own tutor::b05::kv_bytes_for_context on every shipped config, on random
// shapes and on the cases public calculators get wrong. README.md in this folder says how.
#include <cstdint>

#include "model.hpp"

namespace tutor::b05::exercise {

/// Bytes the KV cache of ONE sequence holds once it has `context` tokens (context >= 1), summed
/// over every layer of `model` (model.layers: one LayerSpec per layer), at `bytes_per_element`
/// bytes per stored element (bf16 2, fp8 1, fp4 0.5).
double kv_bytes_for_context(const ModelConfig& model, double bytes_per_element, std::int64_t context);

}  // namespace tutor::b05::exercise
