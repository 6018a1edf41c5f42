// B07 exercise "bubble": checks exercise::pipeline_bubble (bubble.cpp, or the worked solution)
// against B07's simulator, tutor::b07::simulate, which orders and times every slot of every stage:
// the simulated bubble fraction and the first stage's simulated peak in flight.
//   1. the edges: one stage (no bubble), one micro-batch, fewer micro-batches than stages, a slow
//      or fast backward, interleaving at m == p (every forward first) and m > p;
//   2. a grid of p, m (and v) for each schedule;
//   3. random p, m, v, t_f and t_b from --seed.
#include <cstdint>
#include <random>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bubble.hpp"
#include "pipeline_schedule.hpp"
#include "tutor/exercise.hpp"

namespace tutor::b07 {
namespace {

void compare(tutor::exercise::Checker& ck, const std::string& label, Schedule s, int p, int m, int v, double tf = 1,
             double tb = 2) {
  PipelineParams params;
  params.schedule = s;
  params.stages = p;
  params.microbatches = m;
  params.virtual_stages = v;
  params.forward_time = tf;
  params.backward_time = tb;
  const PipelineRun run = simulate(params);
  const std::string label_full = fmt::format("{} p={} m={}{} t_f={:g} t_b={:g}{}", name(s), p, m,
                                       s == Schedule::interleaved ? fmt::format(" v={}", v) : "", tf, tb, label);
  const nlohmann::json parts = {{"bubble_fraction", run.bubble_fraction},
                                {"first_stage_peak_in_flight", run.stages.front().peak_in_flight}};
  if (auto got = ck.attempt(label_full, parts, [&] { return exercise::pipeline_bubble(s, p, m, v, tf, tb); })) {
    // Compared as step time over ideal time, 1 + bubble fraction: the simulator adds slot times one
    // by one, so a bubble of 0 comes out as a rounding error (-4e-16), which no relative tolerance
    // matches with an exact 0; 1 + it does.
    ck.number(label_full + ": 1 + bubble fraction", run.step_time / run.ideal_time, 1 + got->bubble_fraction);
    ck.integer(label_full + ": first stage peak in flight", run.stages.front().peak_in_flight,
               got->first_stage_peak_in_flight);
  }
}

void add_cases(tutor::exercise::Checker& ck, std::uint64_t seed) {
  // 1. The edges. By hand: GPipe p=4 m=8: (4 - 1) / 8 = 0.375, 8 in flight; 1F1B the same bubble,
  //    4 in flight; interleaved p=4 m=8 v=2: 3 / 16 = 0.1875.
  compare(ck, ": one stage has no bubble", Schedule::one_f_one_b, 1, 8, 1);
  compare(ck, ": the worked example", Schedule::gpipe, 4, 8, 1);
  compare(ck, ": the worked example", Schedule::one_f_one_b, 4, 8, 1);
  compare(ck, ": the worked example", Schedule::interleaved, 4, 8, 2);
  compare(ck, ": one micro-batch", Schedule::gpipe, 4, 1, 1);
  compare(ck, ": one micro-batch", Schedule::one_f_one_b, 4, 1, 1);
  compare(ck, ": fewer micro-batches than stages", Schedule::one_f_one_b, 8, 3, 1);
  compare(ck, ": a backward as fast as the forward", Schedule::gpipe, 4, 6, 1, 1, 1);
  compare(ck, ": a backward 3x the forward", Schedule::one_f_one_b, 6, 12, 1, 1, 3);
  compare(ck, ": m == p runs every forward first", Schedule::interleaved, 4, 4, 3);
  compare(ck, ": many micro-batches", Schedule::interleaved, 4, 64, 4);

  // 2. A grid.
  for (const int p : {2, 3, 4, 8})
    for (const int m : {1, 2, 4, 8, 16, 32}) {
      compare(ck, "", Schedule::gpipe, p, m, 1);
      compare(ck, "", Schedule::one_f_one_b, p, m, 1);
    }
  for (const int p : {2, 4, 8})
    for (const int mult : {1, 2, 4})
      for (const int v : {2, 3, 4}) compare(ck, "", Schedule::interleaved, p, p * mult, v);

  // 3. Random.
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> time(0.25, 4);
  for (int i = 0; i < 40; ++i) {
    const auto s = static_cast<Schedule>(rng() % 3);
    const int p = (s == Schedule::interleaved ? 2 : 1) + static_cast<int>(rng() % 12);
    const int m = s == Schedule::interleaved ? p * (1 + static_cast<int>(rng() % 6)) : 1 + static_cast<int>(rng() % 48);
    const int v = s == Schedule::interleaved ? 2 + static_cast<int>(rng() % 4) : 1;
    compare(ck, "", s, p, m, v, time(rng), time(rng));
  }
}

}  // namespace
}  // namespace tutor::b07

int main(int argc, char** argv) {
  return tutor::exercise::run_checker(
      argc, argv,
      {"b07_exercise_bubble", "B07", "bubble", "pipeline_bubble(schedule, p, m, v, t_f, t_b)",
       "trackB/b07_sharding/exercises/bubble.cpp", "tutor::b07::simulate (pipeline_schedule.hpp), slot by slot"},
      tutor::b07::add_cases);
}
