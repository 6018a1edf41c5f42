#pragma once
// B05: the sizes a model may have before its numbers stop being exact.
//
// The reader bounds each config field (at most 2^31 - 1, at most 100,000 layers), but the
// products of several fields are unbounded: 2^31 hidden x 100,000 layers is 1e24 parameters,
// and converting that to an integer for printing is undefined behaviour (C++ [conv.fpint]);
// it printed negative counts with exit 0. Every count here is a double, exact for integers up
// to 2^53 (about 9.0e15), so a model is refused when a count would pass that: its parameters,
// or the KV or activation elements of one token (these are multiplied by page sizes and
// contexts of up to 2^30 tokens downstream, so they are held to 2^36). The largest published
// models have about 2e12 parameters and 1e6 KV elements per token: far below either bound.
#include <cstdint>

#include "model.hpp"

namespace tutor::b05 {

inline constexpr double kMaxCountableParams = 9007199254740992.0;  ///< 2^53
inline constexpr double kMaxElementsPerToken = 68719476736.0;      ///< 2^36

/// Throws ConfigError naming the fields when count_params(m).total exceeds 2^53, or the KV
/// cache or activation elements of one token exceed 2^36.
void require_countable(const ModelConfig& m);

}  // namespace tutor::b05
