#include "tutor/ladder.hpp"

#include <stdexcept>
#include <vector>

namespace tutor {

StepResult describe(const StepInfo& info) {
  StepResult r;
  r.number = info.number;
  r.name = info.name;
  r.change = info.change;
  r.expect = info.expect;
  r.role = info.role == StepRole::ladder ? "ladder" : info.role == StepRole::reference ? "reference" : "exercise";
  r.params = info.params;
  return r;
}

Summary time_launches(const std::string& name, const std::function<void()>& launch,
                      const TimingOptions& options) {
  if (options.reps < 1) throw std::invalid_argument("timing needs at least one repetition");
  gpu::ProfilerRange range(name.c_str());
  for (int i = 0; i < options.warmup; ++i) {
    if (options.before_each) options.before_each();
    launch();
  }
  gpu::synchronize();
  gpu::check_last_error(name.c_str());

  // One event pair per launch, so each sample is one launch and the spread is visible.
  // The input restore and the L2 flush run before the start event and are not timed.
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(options.reps));
  gpu::Event start, stop;
  for (int i = 0; i < options.reps; ++i) {
    if (options.before_each) options.before_each();
    if (options.flush_l2) gpu::flush_l2();
    start.record();
    launch();
    stop.record();
    stop.synchronize();
    samples.push_back(stop.elapsed_ms_since(start));
  }
  gpu::check_last_error(name.c_str());
  return summarize(samples);
}

}  // namespace tutor
