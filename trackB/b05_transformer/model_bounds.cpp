#include "model_bounds.hpp"

#include <cmath>

#include <fmt/format.h>

#include "calculator.hpp"

namespace tutor::b05 {

void require_countable(const ModelConfig& m) {
  const ParamCount p = count_params(m);
  if (!(std::isfinite(p.total_with_vision) && p.total_with_vision <= kMaxCountableParams))
    throw ConfigError("hidden_size, intermediate_size, num_hidden_layers, vocab_size, expert counts",
                      fmt::format("these sizes give {:.3g} parameters; at most 2^53 = {:.3g}, where counts in a "
                                  "double stop being exact",
                                  p.total_with_vision, kMaxCountableParams));
  const double kv = kv_bytes_per_token_uncapped(m, 1);  // 1 B per element: elements
  if (!(std::isfinite(kv) && kv <= kMaxElementsPerToken))
    throw ConfigError("num_key_value_heads, head_dim, num_hidden_layers",
                      fmt::format("these sizes give {:.3g} KV-cache elements per token; at most 2^36 = {:.3g}", kv,
                                  kMaxElementsPerToken));
  const double act = activation_memory(m, 1).peak_bytes_per_token;
  if (!(std::isfinite(act) && act <= kMaxElementsPerToken))
    throw ConfigError("hidden_size, intermediate_size, num_experts_per_tok",
                      fmt::format("these sizes give {:.3g} activation elements per token; at most 2^36 = {:.3g}", act,
                                  kMaxElementsPerToken));
}

}  // namespace tutor::b05
