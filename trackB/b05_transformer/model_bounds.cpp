#include "model_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "calculator.hpp"

namespace tutor::b05 {
namespace {

/// The three largest of `sizes` ("head_dim 1000000, hidden_size 5376, num_hidden_layers 62"):
/// a product past a bound is the doing of its largest factors, so the message names those
/// with their values, not a fixed list of keys that may not be the culprits (or not even in
/// the config: DBRX spells the width d_model).
std::string largest(std::vector<std::pair<const char*, std::int64_t>> sizes) {
  std::stable_sort(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (std::size_t i = 0; i < sizes.size() && i < 3 && sizes[i].second > 0; ++i)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", sizes[i].first, sizes[i].second);
  return out;
}

}  // namespace

void require_countable(const ModelConfig& m) {
  const ParamCount p = count_params(m);
  if (!(std::isfinite(p.total_with_vision) && p.total_with_vision <= kMaxCountableParams))
    throw ConfigError(largest({{"hidden_size", m.hidden_size}, {"intermediate_size", m.intermediate_size},
                               {"num_hidden_layers", m.num_layers}, {"vocab_size", m.vocab_size},
                               {"head_dim", m.head_dim}, {"num_attention_heads", m.num_heads},
                               {"num_experts", m.num_experts}, {"moe_intermediate_size", m.moe_intermediate_size},
                               {"n_shared_experts", m.num_shared_experts},
                               {"shared_expert_intermediate_size", m.shared_expert_intermediate_size},
                               {"q_lora_rank", m.q_lora_rank}, {"kv_lora_rank", m.kv_lora_rank},
                               {"qk_nope_head_dim", m.qk_nope_head_dim}, {"qk_rope_head_dim", m.qk_rope_head_dim},
                               {"v_head_dim", m.v_head_dim}}),
                      fmt::format("these sizes give {:.3g} parameters; at most 2^53 = {:.3g}, where counts in a "
                                  "double stop being exact",
                                  p.total_with_vision, kMaxCountableParams));
  const double kv = kv_bytes_per_token_uncapped(m, 1);  // 1 B per element: elements
  if (!(std::isfinite(kv) && kv <= kMaxElementsPerToken))
    throw ConfigError(m.is_mla() ? largest({{"kv_lora_rank", m.kv_lora_rank}, {"qk_rope_head_dim", m.qk_rope_head_dim},
                                            {"num_hidden_layers", m.num_layers}})
                                 : largest({{"num_key_value_heads", m.num_kv_heads}, {"head_dim", m.head_dim},
                                            {"num_hidden_layers", m.num_layers}}),
                      fmt::format("these sizes give {:.3g} KV-cache elements per token; at most 2^36 = {:.3g}", kv,
                                  kMaxElementsPerToken));
  const double act = activation_memory(m, 1).peak_bytes_per_token;
  if (!(std::isfinite(act) && act <= kMaxElementsPerToken))
    throw ConfigError(largest({{"hidden_size", m.hidden_size}, {"intermediate_size", m.intermediate_size},
                               {"moe_intermediate_size", m.moe_intermediate_size},
                               {"num_experts_per_tok", m.experts_per_token}, {"head_dim", m.head_dim},
                               {"num_attention_heads", m.num_heads}, {"v_head_dim", m.v_head_dim},
                               {"qk_nope_head_dim", m.qk_nope_head_dim}, {"kv_lora_rank", m.kv_lora_rank}}),
                      fmt::format("these sizes give {:.3g} activation elements per token; at most 2^36 = {:.3g}", act,
                                  kMaxElementsPerToken));
}

}  // namespace tutor::b05
