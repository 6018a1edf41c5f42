// B06 exercise "speculative": checks exercise::expected_tokens_per_step and exercise::speedup
// (speculative.cpp, or the worked solution) against B06's spec_decode.hpp:
//   1. the edges: a = 0 (only the target's token), a = 1 (k + 1: the closed form is 0 / 0),
//      just below 1 (a special case for a = 1 must not swallow it), a long draft, a free draft
//      (c = 0), a draft as slow as the target (c = 1: never pays);
//   2. a grid of a, k and c;
//   3. random a, k, c from --seed.
#include <cstdint>
#include <random>
#include <string>

#include <fmt/format.h>

#include "spec_decode.hpp"
#include "speculative.hpp"
#include "tutor/exercise.hpp"

namespace tutor::b06 {
namespace {

void compare(tutor::exercise::Checker& ck, const std::string& label, double a, int k, double c,
             bool with_tokens = true) {
  if (with_tokens) {
    const std::string tokens = fmt::format("E(k={}, a={:.15g}){}", k, a, label);
    const double expected_tokens = expected_tokens_per_step(a, k);
    if (auto got = ck.attempt(tokens, expected_tokens, [&] { return exercise::expected_tokens_per_step(a, k); }))
      ck.number(tokens, expected_tokens, *got);
  }
  const std::string fast = fmt::format("S(k={}, a={:.15g}, c={:.15g}){}", k, a, c, label);
  const double expected_speedup = speedup({a, k, c});
  if (auto got = ck.attempt(fast, expected_speedup, [&] { return exercise::speedup(a, k, c); }))
    ck.number(fast, expected_speedup, *got);
}

void add_cases(tutor::exercise::Checker& ck, std::uint64_t seed) {
  // 1. The edges. By hand: E(4, 0) = 1; E(4, 1) = 5; E(4, 0.8) = 1 + 0.8 + 0.64 + 0.512 + 0.4096
  //    = 3.3616 (eq. 1: (1 - 0.8^5) / 0.2 = 3.3616); S(4, 0.8, 0.05) = 3.3616 / 1.2 = 2.80133...
  compare(ck, ": every draft token rejected", 0.0, 4, 0.05);
  compare(ck, ": every draft token accepted (0 / 0 in the closed form)", 1.0, 4, 0.05);
  compare(ck, ": the paper's worked range", 0.8, 4, 0.05);
  compare(ck, ": just below 1 (not k + 1)", 1 - 1e-6, 4, 0.05);
  compare(ck, ": just below 1, long draft (not k + 1)", 1 - 1e-6, 4096, 0.01);
  compare(ck, ": one draft token", 0.6, 1, 0.1);
  compare(ck, ": a free draft", 0.9, 8, 0.0);
  compare(ck, ": a draft as slow as the target never pays", 0.95, 4, 1.0);
  compare(ck, ": a long draft at a low rate", 0.3, 128, 0.02);

  // 2. A grid (E once per a and k: it does not depend on c).
  for (const double a : {0.1, 0.5, 0.7, 0.9, 0.99})
    for (const int k : {1, 2, 3, 5, 8, 16})
      for (const double c : {0.0, 0.1, 0.5}) compare(ck, "", a, k, c, c == 0.0);

  // 3. Random.
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 40; ++i)
    compare(ck, fmt::format(": random {}", i), unit(rng), 1 + static_cast<int>(rng() % 32), 2 * unit(rng));
}

}  // namespace
}  // namespace tutor::b06

int main(int argc, char** argv) {
  return tutor::exercise::run_checker(
      argc, argv,
      {"b06_exercise_speculative", "B06", "speculative",
       "expected_tokens_per_step(a, k) and speedup(a, k, c)", "trackB/b06_serving/exercises/speculative.cpp",
       "tutor::b06::expected_tokens_per_step and tutor::b06::speedup (spec_decode.hpp)"},
      tutor::b06::add_cases);
}
