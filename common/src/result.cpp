#include "tutor/result.hpp"

namespace tutor {

void finish_ladder(std::vector<StepResult>& steps, const Ceiling& ceiling) {
  const StepResult* first = nullptr;
  const StepResult* prev = nullptr;
  for (auto& s : steps) {
    if (!s.timed || s.time_ms.median <= 0) continue;
    const double seconds = s.time_ms.median * 1e-3;
    s.GBps = s.bytes / seconds / 1e9;
    s.TFLOPs = s.flops / seconds / 1e12;
    const double achieved = ceiling.unit == CeilingUnit::GBps ? s.GBps : s.TFLOPs;
    s.fraction_of_ceiling = ceiling.value > 0 ? achieved / ceiling.value : 0;
    if (!first) first = &s;
    s.speedup_vs_first = first->time_ms.median / s.time_ms.median;
    s.speedup_vs_prev = prev ? prev->time_ms.median / s.time_ms.median : 0;
    prev = &s;
  }
}

}  // namespace tutor
