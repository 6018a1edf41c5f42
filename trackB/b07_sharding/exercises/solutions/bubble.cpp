// B07 exercise "bubble": the worked solution.
//
// Bubble. With no communication cost, the first micro-batch's forward reaches the last stage after
// (p - 1) t_f, and the last backward leaves the first stage (p - 1) t_b after the last stage
// finished it: every stage idles (p - 1)(t_f + t_b) of the step, in GPipe (Huang et al. 2019)
// and in 1F1B alike (Narayanan et al., SC'21, sec. 2.2.1), whatever m is. Over a stage's own work
// m (t_f + t_b) that is (p - 1) / m: t_f and t_b cancel. Interleaving v chunks per GPU makes each
// pipeline fill and drain in steps of t_f / v and t_b / v: (p - 1)(t_f + t_b) / v, a fraction
// (p - 1) / (v m) (sec. 2.2.2).
//
// Peak in flight on the first stage. GPipe runs all m forwards before any backward: m. 1F1B runs
// p - 1 warm-up forwards then one forward before its first backward: min(p, m) (Narayanan et al.,
// ICML'21, sec. 3.1). Interleaved: the warm-up of the first stage is 2(p - 1) + (v - 1) p
// chunk-forwards, plus the one of the first forward-backward pair, capped at all m v; when m == p
// Megatron-LM runs every forward first, m v.
#include <algorithm>

#include "bubble.hpp"

namespace tutor::b07::exercise {

BubbleAnswer pipeline_bubble(Schedule schedule, int p, int m, int v, double, double) {
  BubbleAnswer a;
  switch (schedule) {
    case Schedule::gpipe:
      a.bubble_fraction = double(p - 1) / m;
      a.first_stage_peak_in_flight = m;
      break;
    case Schedule::one_f_one_b:
      a.bubble_fraction = double(p - 1) / m;
      a.first_stage_peak_in_flight = std::min(p, m);
      break;
    case Schedule::interleaved:
      a.bubble_fraction = double(p - 1) / (double(v) * m);
      a.first_stage_peak_in_flight = m == p ? m * v : std::min(m * v, (v - 1) * p + 2 * (p - 1) + 1);
      break;
  }
  return a;
}

}  // namespace tutor::b07::exercise
