// B07 exercise "zero": checks exercise::zero_states (zero.cpp, or the worked solution) against
// B07's memory planner, tutor::b07::zero_model_states, state by state:
//   1. the ZeRO paper's Figure 1 and the edges: one GPU (nothing to divide), a group too large to
//      matter, no parameters;
//   2. every shipped config's parameter count (B05's count_params) at every stage, on 8 and 64 GPUs;
//   3. random sizes, stages and groups from --seed.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calculator.hpp"
#include "memory_planner.hpp"
#include "model.hpp"
#include "tutor/exercise.hpp"
#include "zero.hpp"

namespace tutor::b07 {
namespace {

void compare(tutor::exercise::Checker& ck, const std::string& label, double params, int stage, int dp) {
  const ModelStates e = zero_model_states(params, stage, dp);
  const std::string name = fmt::format("{}: {:.6g} params, ZeRO {}, N_d = {}", label, params, stage, dp);
  const nlohmann::json parts = {
      {"weights", e.weight_bytes}, {"gradients", e.gradient_bytes}, {"optimizer", e.optimizer_bytes}};
  if (auto got = ck.attempt(name, parts, [&] { return exercise::zero_states(params, stage, dp); })) {
    ck.number(name + ": weight bytes", e.weight_bytes, got->weight_bytes);
    ck.number(name + ": gradient bytes", e.gradient_bytes, got->gradient_bytes);
    ck.number(name + ": optimizer bytes", e.optimizer_bytes, got->optimizer_bytes);
  }
}

void add_cases(tutor::exercise::Checker& ck, std::uint64_t seed) {
  // 1. Figure 1 of the ZeRO paper, Psi = 7.5e9, N_d = 64: 16 Psi = 120 GB; 4 Psi + 12 Psi / 64
  //    = 31.4 GB; 2 Psi + 14 Psi / 64 = 16.6 GB; 16 Psi / 64 = 1.875 GB.
  for (int stage = 0; stage <= 3; ++stage) compare(ck, "ZeRO Figure 1", 7.5e9, stage, 64);
  for (int stage = 0; stage <= 3; ++stage) compare(ck, "one GPU divides nothing", 7e9, stage, 1);
  compare(ck, "stage 1 divides only the optimizer state", 70e9, 1, 8);
  compare(ck, "stage 2 divides the gradients too", 70e9, 2, 8);
  compare(ck, "stage 3 divides the weights too", 70e9, 3, 8);
  compare(ck, "a very large group", 1e12, 3, 4096);
  compare(ck, "no parameters", 0, 2, 8);

  // 2. Every shipped config.
  for (const std::string& stem : b05::shipped_models()) {
    const double params = b05::count_params(b05::load_shipped_model(stem)).total;
    for (const int dp : {8, 64})
      for (int stage = 0; stage <= 3; ++stage) compare(ck, stem, params, stage, dp);
  }

  // 3. Random.
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> log_params(6, 12.5);
  for (int i = 0; i < 40; ++i)
    compare(ck, fmt::format("random {}", i), std::round(std::pow(10.0, log_params(rng))), static_cast<int>(rng() % 4),
            1 + static_cast<int>(rng() % 1024));
}

}  // namespace
}  // namespace tutor::b07

int main(int argc, char** argv) {
  return tutor::exercise::run_checker(
      argc, argv,
      {"b07_exercise_zero", "B07", "zero", "zero_states(params, zero_stage, dp)", "trackB/b07_sharding/exercises/zero.cpp",
       "tutor::b07::zero_model_states (memory_planner.hpp)"},
      tutor::b07::add_cases);
}
