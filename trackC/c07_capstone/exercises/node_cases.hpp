#pragma once
// The nodes the C07 exercise checkers take their cases from: every shipped config sized by the
// capstone (size_node) on H200s at the largest tensor-parallel degree up to 8 its heads allow,
// a 4,096-token context (or the model's limit) and a TPOT SLO. Shared by both checkers.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "capstone.hpp"
#include "model.hpp"

namespace tutor::c07::exercise {

/// vLLM's split rule (B06's planner refuses the others): query heads split evenly over TP, KV
/// heads split or replicate evenly.
inline bool splits(const b05::ModelConfig& m, int tp) {
  if (m.num_heads % tp != 0) return false;
  if (m.is_mla()) return true;
  return m.num_kv_heads >= tp ? m.num_kv_heads % tp == 0 : tp % m.num_kv_heads == 0;
}

struct NodeCase {
  std::string label;
  NodeSizing node;
};

/// Every shipped config on `gpu`, at the SLO given.
inline std::vector<NodeCase> shipped_nodes(const std::string& gpu, double slo_ms) {
  std::vector<NodeCase> nodes;
  const GpuChoice choice = choose_gpu(gpu);
  for (const std::string& stem : b05::shipped_models()) {
    const b05::ModelConfig m = b05::load_shipped_model(stem);
    int tp = 8;
    while (tp > 1 && !splits(m, tp)) tp /= 2;
    NodeRequest r;
    r.gpus = tp;
    r.tp = tp;
    r.slo_ms = slo_ms;
    r.context = m.max_position_embeddings > 0 ? std::min<std::int64_t>(kDefaultContext, m.max_position_embeddings)
                                              : kDefaultContext;
    nodes.push_back({stem + " on " + std::to_string(tp) + " x " + gpu, size_node(m, choice, r)});
  }
  return nodes;
}

}  // namespace tutor::c07::exercise
