// B07: the simulated pipeline schedules against the closed forms of GPipe, 1F1B and
// interleaved 1F1B, and against a timeline derived by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "pipeline_schedule.hpp"

using namespace tutor::b07;

namespace {

PipelineRun run(Schedule s, int p, int m, int v = 1, double tf = 1, double tb = 2) {
  PipelineParams pp;
  pp.schedule = s;
  pp.stages = p;
  pp.microbatches = m;
  pp.virtual_stages = v;
  pp.forward_time = tf;
  pp.backward_time = tb;
  return simulate(pp);
}

std::string what_of(const PipelineParams& pp) {
  try {
    validate(pp);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// Narayanan et al. SC'21 sec. 2.2.1: bubble fraction (p-1)/m. p = 8, m = 32: 7/32 = 0.21875,
// i.e. a bubble of (p-1)(t_f + t_b) = 7 x 3 = 21 on an ideal m (t_f + t_b) = 96.
TEST(PipelineBubble, OneFOneB_P8_M32_IsSevenThirtySeconds) {
  const PipelineRun r = run(Schedule::one_f_one_b, 8, 32);
  EXPECT_DOUBLE_EQ(r.ideal_time, 96);
  EXPECT_DOUBLE_EQ(r.bubble_time, 21);
  EXPECT_DOUBLE_EQ(r.step_time, 117);
  EXPECT_DOUBLE_EQ(r.bubble_fraction, 7.0 / 32);
  EXPECT_DOUBLE_EQ(r.closed_form_bubble_fraction, 7.0 / 32);
  EXPECT_DOUBLE_EQ(r.idle_share, 21.0 / 117);
}

// Narayanan et al. SC'21 sec. 2.2.2: interleaving v chunks per GPU divides the bubble by v.
// p = 8, m = 32, v = 2: 7/64, half of 1F1B's 7/32.
TEST(PipelineBubble, InterleavedWithTwoChunksHalvesIt) {
  const PipelineRun one = run(Schedule::one_f_one_b, 8, 32);
  const PipelineRun two = run(Schedule::interleaved, 8, 32, 2);
  EXPECT_DOUBLE_EQ(two.bubble_fraction, 7.0 / 64);
  EXPECT_DOUBLE_EQ(two.bubble_fraction, one.bubble_fraction / 2);
  EXPECT_DOUBLE_EQ(two.bubble_time, 10.5);
  const PipelineRun four = run(Schedule::interleaved, 8, 32, 4);
  EXPECT_DOUBLE_EQ(four.bubble_fraction, 7.0 / 128);
}

// GPipe has the same bubble as 1F1B (Narayanan et al. ICML'21 sec. 3.1): only the memory differs.
TEST(PipelineBubble, GpipeEqualsOneFOneB) {
  EXPECT_DOUBLE_EQ(run(Schedule::gpipe, 4, 8).bubble_fraction, 3.0 / 8);
  EXPECT_DOUBLE_EQ(run(Schedule::gpipe, 8, 32).step_time, run(Schedule::one_f_one_b, 8, 32).step_time);
}

// The simulation is not fitted to the closed form: for every small p, m (interleaved: m a
// multiple of p) and backward/forward ratio the two must agree.
TEST(PipelineBubble, SimulationEqualsClosedFormEverywhere) {
  for (double tb : {1.0, 2.0, 3.0})
    for (int p = 1; p <= 8; ++p)
      for (int m = 1; m <= 3 * p + 2; ++m) {
        for (Schedule s : {Schedule::gpipe, Schedule::one_f_one_b}) {
          const PipelineRun r = run(s, p, m, 1, 1, tb);
          EXPECT_NEAR(r.bubble_fraction, double(p - 1) / m, 1e-12) << name(s) << " p=" << p << " m=" << m << " tb=" << tb;
        }
        if (p >= 2 && m % p == 0)
          for (int v : {2, 3, 4}) {
            const PipelineRun r = run(Schedule::interleaved, p, m, v, 1, tb);
            EXPECT_NEAR(r.bubble_fraction, double(p - 1) / (v * m), 1e-12)
                << "interleaved p=" << p << " m=" << m << " v=" << v << " tb=" << tb;
          }
      }
}

// Peak in-flight micro-batches: GPipe m on every stage; 1F1B min(p - s, m) on stage s
// (Narayanan et al. ICML'21 sec. 3.1); interleaved (v-1) p + 2(p-1) + 1 on the first stage,
// which times L/(pv) layers is L (1 + (p-1)/(pv)) (Korthikanti et al. 2022 sec. 4.2.3).
TEST(PipelineInFlight, FirstStageHoldsWhatTheClosedFormsSay) {
  const PipelineRun g = run(Schedule::gpipe, 4, 12);
  for (const auto& st : g.stages) EXPECT_EQ(st.peak_in_flight, 12);
  const PipelineRun f = run(Schedule::one_f_one_b, 8, 32);
  for (int s = 0; s < 8; ++s) EXPECT_EQ(f.stages[std::size_t(s)].peak_in_flight, 8 - s) << s;
  EXPECT_EQ(run(Schedule::one_f_one_b, 8, 3).stages[0].peak_in_flight, 3);  // m < p: min(p, m)
  const PipelineRun i = run(Schedule::interleaved, 8, 32, 2);
  EXPECT_EQ(i.stages[0].peak_in_flight, 23);  // (2-1) x 8 + 2 x 7 + 1
  EXPECT_DOUBLE_EQ(i.stages[0].peak_in_flight / 16.0, 1 + 7.0 / 16);
  EXPECT_EQ(run(Schedule::interleaved, 4, 4, 3).stages[0].peak_in_flight, 12);  // m == p: all forwards first
  for (Schedule s : {Schedule::gpipe, Schedule::one_f_one_b})
    for (int p = 1; p <= 8; ++p)
      for (int m = 1; m <= 20; ++m)
        EXPECT_EQ(run(s, p, m).stages[0].peak_in_flight, first_stage_peak_in_flight(s, p, m, 1)) << p << " " << m;
  for (int p = 2; p <= 8; ++p)
    for (int k = 1; k <= 4; ++k)
      for (int v = 2; v <= 4; ++v)
        EXPECT_EQ(run(Schedule::interleaved, p, k * p, v).stages[0].peak_in_flight,
                  first_stage_peak_in_flight(Schedule::interleaved, p, k * p, v))
            << p << " " << k * p << " " << v;
}

// Every stage runs every (pass, micro-batch, chunk) once, and no slot starts before its input.
TEST(PipelineSchedule, EverySlotOnceAndDependenciesHold) {
  for (const auto& [s, p, m, v] : {std::tuple{Schedule::gpipe, 4, 6, 1}, std::tuple{Schedule::one_f_one_b, 5, 9, 1},
                                   std::tuple{Schedule::interleaved, 4, 8, 3}}) {
    const PipelineRun r = run(s, p, m, v);
    std::map<std::tuple<int, int, int>, std::pair<double, double>> f, b;  // (mb, virtual stage) -> (start, end)
    for (int st = 0; st < p; ++st) {
      const auto& slots = r.stages[std::size_t(st)].slots;
      EXPECT_EQ(slots.size(), std::size_t(2 * m * v));
      for (std::size_t k = 1; k < slots.size(); ++k) EXPECT_GE(slots[k].start, slots[k - 1].end - 1e-12);
      for (const Slot& sl : slots) {
        auto& where = sl.pass == Pass::forward ? f : b;
        const auto key = std::tuple{sl.microbatch, sl.chunk * p + st, 0};
        EXPECT_EQ(where.count(key), 0u);
        where[key] = {sl.start, sl.end};
      }
    }
    EXPECT_EQ(f.size(), std::size_t(m * p * v));
    for (const auto& [key, t] : f) {
      const auto [mb, vs, unused] = key;
      if (vs > 0) {
        EXPECT_GE(t.first, f.at({mb, vs - 1, 0}).second - 1e-12);
      }
      const auto& back = b.at({mb, vs, 0});
      EXPECT_GE(back.first, t.second - 1e-12);
      if (vs + 1 < p * v) {
        EXPECT_GE(back.first, b.at({mb, vs + 1, 0}).second - 1e-12);
      }
    }
  }
}

// p = 2, m = 2, 1F1B, t_f = 1, t_b = 2, derived by hand:
//   stage 0: F0 [0,1]  F1 [1,2]                 B0 [4,6]      B1 [7,9]
//   stage 1:      F0 [1,2]  B0 [2,4]  F1 [4,5]  B1 [5,7]
// step time 9, ideal 6, bubble 3 = (p-1)(t_f + t_b).
TEST(PipelineTimeline, TwoStagesTwoMicrobatchesByHand) {
  const PipelineRun r = run(Schedule::one_f_one_b, 2, 2);
  EXPECT_DOUBLE_EQ(r.step_time, 9);
  EXPECT_EQ(render_text(r), "stage 0 |AB..aa.bb|\nstage 1 |.AaaBbb..|\n");
  const std::string svg = render_svg(r);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("backward micro-batch 1: 7 - 9"), std::string::npos);
  EXPECT_EQ(render_text(r, 5), "");  // wider than allowed
}

TEST(PipelineValidate, BadInputNamesTheOption) {
  PipelineParams pp;
  pp.stages = 0;
  EXPECT_EQ(what_of(pp).rfind("--stages", 0), 0u);
  pp = {};
  pp.microbatches = 0;
  EXPECT_EQ(what_of(pp).rfind("--microbatches", 0), 0u);
  pp = {};
  pp.virtual_stages = 2;  // 1f1b with chunks
  EXPECT_EQ(what_of(pp).rfind("--virtual-stages", 0), 0u);
  pp = {};
  pp.schedule = Schedule::interleaved;
  pp.stages = 4;
  pp.microbatches = 6;  // not a multiple of p
  pp.virtual_stages = 2;
  EXPECT_EQ(what_of(pp).rfind("--microbatches", 0), 0u);
  pp.microbatches = 8;
  pp.virtual_stages = 1;
  EXPECT_EQ(what_of(pp).rfind("--virtual-stages", 0), 0u);
  pp = {};
  pp.backward_time = 0;
  EXPECT_EQ(what_of(pp).rfind("--backward-time", 0), 0u);
  EXPECT_EQ(parse_schedule("1F1B"), Schedule::one_f_one_b);
  EXPECT_EQ(parse_schedule("zero-bubble"), std::nullopt);
}
