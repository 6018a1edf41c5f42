// C07 exercise "capacity": checks exercise::capacity (capacity.cpp, or the worked solution)
// against what the capstone's tutor::c07::size_node decides for each precision of a node: B_slo,
// B_pool, which binds, and the batch.
//   1. the edges: no page fits (the weights bind), an SLO shorter than streaming the weights
//      (B_slo = 0), a loose SLO (the pool binds), an SLO at the crossover (B_slo = B_pool: a tie),
//      a tight one (the SLO binds), a context so long that one sequence needs more pages than the
//      pool has (B_pool = 0);
//   2. every shipped config on H200s (node_cases.hpp), every precision, at a 30 ms SLO;
//   3. random nodes (GPU, TP, replicas, context, SLO, overhead) from --seed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "capacity.hpp"
#include "capstone.hpp"
#include "node_cases.hpp"
#include "tutor/exercise.hpp"

namespace tutor::c07 {
namespace {

/// The case is named by `label`, the precision and the SLO (left out where the SLO is computed, so
/// a rubric can name the case whatever the library's numbers).
void compare(tutor::exercise::Checker& ck, const std::string& label, const NodeSizing& node, const VariantSizing& v,
             bool name_the_slo = true) {
  const std::string name = name_the_slo ? fmt::format("{}, {}, SLO {:g} ms", label, v.precision.key, node.request.slo_ms)
                                        : fmt::format("{}, {}", label, v.precision.key);
  const nlohmann::json parts = {{"slo_batch", v.slo.batch},
                                {"pool_sequences", v.pool_sequences},
                                {"binds", to_string(v.binds)},
                                {"batch", v.batch}};
  if (auto got = ck.attempt(name, parts, [&] {
        return exercise::capacity(v.step, node.request.slo_ms, v.plan.pool.blocks, v.plan.blocks_per_sequence);
      })) {
    ck.integer(name + ": B_slo", v.slo.batch, got->slo_batch);
    ck.integer(name + ": B_pool", v.pool_sequences, got->pool_sequences);
    ck.text(name + ": binds", to_string(v.binds), to_string(got->binds));
    ck.integer(name + ": batch", v.batch, got->batch);
  }
}

NodeSizing node(const std::string& model, const std::string& gpu, int gpus, int tp, double slo_ms,
                std::int64_t context = kDefaultContext) {
  NodeRequest r;
  r.gpus = gpus;
  r.tp = tp;
  r.slo_ms = slo_ms;
  r.context = context;
  return size_node(b05::load_shipped_model(model), choose_gpu(gpu), r);
}

void add_cases(tutor::exercise::Checker& ck, std::uint64_t seed) {
  // 1. The edges (bf16, the first variant, unless said).
  const NodeSizing huge = node("llama-3.1-405b", "h200", 1, 1, 50);
  compare(ck, "no page fits beside the weights: llama-3.1-405b on 1 x h200", huge, huge.variants.front());
  // Llama-3.1-8B's 16 GB of bf16 weights take about 4 ms to stream at 0.8 x 4.8 TB/s.
  const NodeSizing tight = node("llama-3.1-8b", "h200", 1, 1, 1);
  compare(ck, "an SLO shorter than streaming the weights: llama-3.1-8b on 1 x h200", tight, tight.variants.front());
  const NodeSizing loose = node("llama-3.1-8b", "h200", 1, 1, 1000);
  compare(ck, "a loose SLO: llama-3.1-8b on 1 x h200", loose, loose.variants.front());
  // A tie: at an SLO of exactly t(B_pool), the crossover, the SLO allows B_pool sequences and no more.
  const NodeSizing at_crossover = node("llama-3.1-8b", "h200", 1, 1, loose.variants.front().crossover_slo_ms);
  compare(ck, "an SLO at the crossover t(B_pool), a tie: llama-3.1-8b on 1 x h200", at_crossover,
          at_crossover.variants.front(), false);
  const NodeSizing tp8 = node("llama-3.1-70b", "h200", 8, 8, 15);
  compare(ck, "a tight SLO with all-reduces: llama-3.1-70b on 8 x h200", tp8, tp8.variants.front());
  const NodeSizing replicas = node("llama-3.1-70b", "h100-sxm", 8, 4, 40, 32768);
  compare(ck, "two replicas of TP 4, 32k tokens: llama-3.1-70b on 8 x h100", replicas, replicas.variants.front());
  const NodeSizing long_context = node("llama-3.1-70b", "h100-sxm", 2, 2, 100, 131072);
  compare(ck, "one 128k-token sequence needs more pages than the pool: llama-3.1-70b on 2 x h100", long_context,
          long_context.variants.front());
  for (const VariantSizing& v : tp8.variants) compare(ck, "every precision: llama-3.1-70b on 8 x h200", tp8, v);

  // 2. Every shipped config.
  for (const exercise::NodeCase& n : exercise::shipped_nodes("h200", 30))
    for (const VariantSizing& v : n.node.variants)
      if (v.applicable) compare(ck, n.label, n.node, v);

  // 3. Random nodes.
  std::mt19937_64 rng(seed);
  const std::vector<std::string> stems = b05::shipped_models();
  const std::vector<std::string> gpus = {"h100-sxm", "h200", "a100-80gb", "mi300x"};
  for (int i = 0; i < 40; ++i) {
    const b05::ModelConfig m = b05::load_shipped_model(stems[rng() % stems.size()]);
    std::vector<int> tps;
    for (const int tp : {1, 2, 4, 8})
      if (exercise::splits(m, tp)) tps.push_back(tp);
    NodeRequest r;
    r.tp = tps[rng() % tps.size()];
    r.gpus = r.tp * static_cast<int>(1 + rng() % 2);
    r.slo_ms = std::pow(10.0, std::uniform_real_distribution<double>(0, 2.7)(rng));
    const std::int64_t limit = m.max_position_embeddings > 0 ? m.max_position_embeddings : 131072;
    r.context = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(limit));
    r.overhead_us = rng() % 2 ? std::uniform_real_distribution<double>(0, 300)(rng) : 0;
    const std::string& gpu = gpus[rng() % gpus.size()];
    const NodeSizing n = size_node(m, choose_gpu(gpu), r);
    const VariantSizing& v = n.variants[rng() % n.variants.size()];
    if (v.applicable)
      compare(ck, fmt::format("random {}: {} on {} x {}, TP {}, {} tokens", i, m.name, r.gpus, gpu, r.tp, r.context), n,
              v);
  }
}

}  // namespace
}  // namespace tutor::c07

int main(int argc, char** argv) {
  return tutor::exercise::run_checker(
      argc, argv,
      {"c07_exercise_capacity", "C07", "capacity", "capacity(step, slo_ms, pool_blocks, blocks_per_sequence)",
       "trackC/c07_capstone/exercises/capacity.cpp", "tutor::c07::size_node (capstone.hpp): each precision's budgets"},
      tutor::c07::add_cases);
}
