#pragma once
// The ladder runner: every step of a lab is verified on every case, timed the same way,
// and verified again after its timed loop. A lab declares its steps as data (Step) and a
// Case type; the runner does the rest.
//
// A Case is one problem instance with device buffers and a host reference. It provides:
//   std::string label() const;   // "4099x3001"
//   void poison();               // fill the device output with a poison pattern
//   Comparison check();          // download the output and compare with the reference
//   double bytes() const;        // bytes a launch must move (each input read once,
//                                // each output written once)
//   double flops() const;        // floating-point operations per launch
// and optionally
//   void restore();              // put back inputs that a launch overwrites (GEMM's C when
//                                // beta != 0), called before every timed launch, untimed
#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "tutor/gpu.hpp"
#include "tutor/result.hpp"

namespace tutor {

/// How a verified step is timed.
struct TimingOptions {
  int warmup = 5;         ///< untimed launches first (module load, clocks ramping, caches)
  int reps = 50;          ///< timed launches, one pair of device events each
  bool flush_l2 = true;   ///< evict L2 before each timed launch (outside the events)
  /// Called before each launch (warm-up and timed), outside the events: restores inputs that
  /// a launch overwrites, so every timed launch computes the same thing. Empty: nothing.
  std::function<void()> before_each;
};

/// One step of a ladder, declared once: the table, the JSON and --list read it.
template <class Case>
struct Step {
  std::string name;     ///< short id used by --variant and in the JSON record
  std::string change;   ///< one line: what changed and what it should buy
  std::function<void(Case&)> launch;  ///< enqueues the step on the default stream
};

/// Times `launch`: `warmup` untimed launches, then `reps` launches each bracketed by
/// device events (L2 flushed before each if requested), inside a profiler range `name`.
/// Returns the per-launch times in milliseconds. Throws gpu::Error on a failed launch.
Summary time_launches(const std::string& name, const std::function<void()>& launch,
                      const TimingOptions& options);

/// Runs one launch of `launch` on a poisoned output and compares it with the reference.
template <class Case>
ShapeCheck verify_once(const Step<Case>& step, Case& c) {
  c.poison();
  step.launch(c);
  gpu::synchronize();
  gpu::check_last_error(step.name.c_str());
  return {c.label(), c.check()};
}

/// Verifies `step` on every case in `checks` and on `timed`, times it on `timed`, then
/// verifies the output the timed loop left behind. A step that fails any check before
/// timing is not timed (its `timed` stays false).
template <class Case>
StepResult run_step(const Step<Case>& step, std::span<Case* const> checks, Case& timed,
                    const TimingOptions& options) {
  StepResult r;
  r.name = step.name;
  r.change = step.change;
  r.bytes = timed.bytes();
  r.flops = timed.flops();
  for (Case* c : checks) r.checks.push_back(verify_once(step, *c));
  r.checks.push_back(verify_once(step, timed));
  r.verified = true;
  for (const auto& chk : r.checks) r.verified = r.verified && chk.cmp.passed;
  if (r.verified) {
    TimingOptions opts = options;
    if constexpr (requires { timed.restore(); }) opts.before_each = [&] { timed.restore(); };
    r.time_ms = time_launches(step.name, [&] { step.launch(timed); }, opts);
    r.timed = true;
    ShapeCheck after{timed.label() + " after timed loop", timed.check()};
    r.verified = after.cmp.passed;
    r.checks.push_back(std::move(after));
  }
  for (const auto& chk : r.checks) r.rel_err = std::max(r.rel_err, chk.cmp.rel_l2);
  return r;
}

}  // namespace tutor
