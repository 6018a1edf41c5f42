// C07 exercise "decode_step": checks exercise::decode_step (decode_step.cpp, or the worked
// solution) against the capstone's tutor::c07::decode_step_time: the step's time and its roof.
//   1. the edges: no sequence (the weights alone), one sequence, a compute-bound batch, a step
//      whose sequences never make it compute-bound, overhead and all-reduces on top;
//   2. the bf16 and W8A8 steps the capstone builds for every shipped config (node_cases.hpp) at
//      1, 64 and 4,096 sequences;
//   3. random steps and batches from --seed.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "capstone.hpp"
#include "decode_step.hpp"
#include "node_cases.hpp"
#include "tutor/exercise.hpp"

namespace tutor::c07 {
namespace {

exercise::DecodeStep plain(const DecodeStepModel& m) {
  return {m.weight_bytes_read, m.kv_bytes_per_sequence, m.linear_flops_per_sequence, m.attention_flops_per_sequence,
          m.bandwidth_GBps,    m.compute_TFLOPs,        m.overhead_us,               m.comm_fixed_us,
          m.comm_per_sequence_us};
}

void compare(tutor::exercise::Checker& ck, const std::string& label, const DecodeStepModel& m, std::int64_t batch) {
  const DecodeStepTime t = decode_step_time(m, batch);
  const std::string name = fmt::format("{}, batch {}", label, batch);
  const nlohmann::json parts = {{"total_ms", t.total_ms}, {"roof", t.roof()}};
  if (auto got = ck.attempt(name, parts, [&] { return exercise::decode_step(plain(m), batch); })) {
    ck.number(name + ": ms", t.total_ms, got->total_ms);
    ck.text(name + ": roof", t.roof(), got->roof);
  }
}

void add_cases(tutor::exercise::Checker& ck, std::uint64_t seed) {
  // 1. The edges, on one hand-built step: 10 GB of weights and 100 MB of KV per sequence at
  //    1,000 GB/s, 1 GFLOP per sequence at 100 TFLOP/s. By hand: batch 0: 10 ms; batch 1:
  //    10.1 GB / 1,000 GB/s = 10.1 ms (compute 0.01 ms); never compute-bound (a sequence reads
  //    0.1 ms of KV and computes 0.01 ms).
  DecodeStepModel hand;
  hand.weight_bytes_read = 10e9;
  hand.kv_bytes_per_sequence = 100e6;
  hand.linear_flops_per_sequence = 0.8e9;
  hand.attention_flops_per_sequence = 0.2e9;
  hand.bandwidth_GBps = 1000;
  hand.compute_TFLOPs = 100;
  hand.context = 4096;
  compare(ck, "the weights alone", hand, 0);
  compare(ck, "one sequence", hand, 1);
  compare(ck, "KV outgrows the weights, still memory-bound", hand, 1000);
  // 1 MB of KV and 10 GFLOP per sequence: 0.001 ms of HBM and 0.1 ms of compute each, so the
  // compute roof overtakes the 10 ms of weights at B = 10 / (0.1 - 0.001) ~ 101.
  DecodeStepModel light = hand;
  light.kv_bytes_per_sequence = 1e6;
  light.linear_flops_per_sequence = 9e9;
  light.attention_flops_per_sequence = 1e9;
  compare(ck, "below the ridge", light, 50);
  compare(ck, "past the ridge: compute-bound", light, 5000);
  DecodeStepModel extras = hand;
  extras.overhead_us = 250;
  extras.comm_fixed_us = 1920;
  extras.comm_per_sequence_us = 0.4;
  compare(ck, "overhead and all-reduces on top", extras, 0);
  compare(ck, "overhead and all-reduces on top", extras, 300);

  // 2. The capstone's own steps.
  for (const exercise::NodeCase& n : exercise::shipped_nodes("h200", 50))
    for (const VariantSizing& v : n.node.variants) {
      if (!v.fits || (v.precision.key != "bf16" && v.precision.key != "w8a8")) continue;
      for (const std::int64_t batch : {std::int64_t{1}, std::int64_t{64}, std::int64_t{4096}})
        compare(ck, fmt::format("{}, {}", n.label, v.precision.key), v.step, batch);
    }

  // 3. Random steps.
  std::mt19937_64 rng(seed);
  auto log_uniform = [&](double lo, double hi) {
    return std::pow(10.0, std::uniform_real_distribution<double>(std::log10(lo), std::log10(hi))(rng));
  };
  for (int i = 0; i < 40; ++i) {
    DecodeStepModel m;
    m.weight_bytes_read = log_uniform(1e8, 1e12);
    m.kv_bytes_per_sequence = log_uniform(1e4, 1e10);
    m.linear_flops_per_sequence = log_uniform(1e8, 1e12);
    m.attention_flops_per_sequence = log_uniform(1e5, 1e10);
    m.bandwidth_GBps = log_uniform(300, 8000);
    m.compute_TFLOPs = log_uniform(20, 2000);
    m.overhead_us = rng() % 2 ? log_uniform(1, 500) : 0;
    m.comm_fixed_us = rng() % 2 ? log_uniform(1, 2000) : 0;
    m.comm_per_sequence_us = rng() % 2 ? log_uniform(0.01, 10) : 0;
    m.context = 1 + static_cast<std::int64_t>(rng() % 131072);
    compare(ck, fmt::format("random {}", i), m, static_cast<std::int64_t>(rng() % 4097));
  }
}

}  // namespace
}  // namespace tutor::c07

int main(int argc, char** argv) {
  return tutor::exercise::run_checker(
      argc, argv,
      {"c07_exercise_decode_step", "C07", "decode_step", "decode_step(step, batch)",
       "trackC/c07_capstone/exercises/decode_step.cpp", "tutor::c07::decode_step_time (capstone.hpp)"},
      tutor::c07::add_cases);
}
