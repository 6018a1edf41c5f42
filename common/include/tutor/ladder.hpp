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
#include <optional>
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

/// What a step is in its lab: a rung of the ladder, a library reference row beside it (cuBLAS,
/// CUB, rocPRIM: timed and verified like a step, never part of the speedups), or the learner's
/// exercise (run only when asked for by name).
enum class StepRole { ladder, reference, exercise };

/// A step declared once: --list, the table, the record (and so the grader) and the README's
/// step table (a test compares it with --list) all read this. `change` says what the step
/// changes and why it should be faster; `expect` the gain the mechanism predicts, as a range
/// over the previous step (never a measurement: measured numbers live in records and READMEs).
struct StepInfo {
  int number = 0;             ///< position in the ladder, 1-based (0 for references and the exercise)
  std::string name;           ///< short id (`--variant NAME`, the record's "name")
  std::string change;         ///< one line: what changed and why it should be faster
  std::string expect;         ///< the expected gain over the previous step ("~2x", "+10-20%")
  StepRole role = StepRole::ladder;
  std::optional<DType> dtype; ///< the arithmetic the step is judged in, where it differs from the lab's (TF32)
  std::string min_arch;       ///< lowest architecture it runs on (tutor::arch_supports); "" any
  std::string params;         ///< extra parameters as text ("tile 128x256x8, warp 32x64")
};

/// A declaration with the common fields; set dtype, min_arch and params on the result.
inline StepInfo declare(int number, std::string name, std::string change, std::string expect,
                        StepRole role = StepRole::ladder) {
  StepInfo s;
  s.number = number;
  s.name = std::move(name);
  s.change = std::move(change);
  s.expect = std::move(expect);
  s.role = role;
  return s;
}

/// One step: its declaration and how to launch it on a Case (enqueued on the default stream).
template <class Case>
struct Step {
  StepInfo info;
  std::function<void(Case&)> launch;
};

/// A step whose launch hands `launcher` to the Case (`c.run(launcher)`): the usual shape, where
/// every step of a lab shares one launcher signature.
template <class Case, class Launcher>
Step<Case> launcher_step(int number, std::string name, std::string change, std::string expect, Launcher launcher,
                         StepRole role = StepRole::ladder) {
  return {declare(number, std::move(name), std::move(change), std::move(expect), role),
          [launcher](Case& c) { c.run(launcher); }};
}

/// Times `launch`: `warmup` untimed launches, then `reps` launches each bracketed by
/// device events (L2 flushed before each if requested), inside a profiler range `name`.
/// Returns the per-launch times in milliseconds. Throws gpu::Error on a failed launch.
Summary time_launches(const std::string& name, const std::function<void()>& launch,
                      const TimingOptions& options);

/// A result with the step's declaration filled in, nothing run yet.
StepResult describe(const StepInfo& info);

/// Compares the output a launch left in `c` with its reference (no launch).
template <class Case>
ShapeCheck verify_output(const Step<Case>& step, Case& c) {
  if constexpr (requires { c.check(step.info); }) return {c.label(), c.check(step.info)};
  else return {c.label(), c.check()};
}

/// Runs one launch of `launch` on a poisoned output and compares it with the reference. With
/// `kernels`, the kernels the launch ran are noted there (registers, shared memory).
template <class Case>
ShapeCheck verify_once(const Step<Case>& step, Case& c, std::vector<gpu::KernelInfo>* kernels = nullptr) {
  c.poison();
  if (kernels) gpu::begin_kernel_capture();
  step.launch(c);
  if (kernels) *kernels = gpu::end_kernel_capture();
  gpu::synchronize();
  gpu::check_last_error(step.info.name.c_str());
  return verify_output(step, c);
}

/// Verifies `step` on every case in `checks` and on `timed`, times it on `timed`, then
/// verifies the output the timed loop left behind. A step that fails any check before
/// timing is not timed (its `timed` stays false).
template <class Case>
StepResult run_step(const Step<Case>& step, std::span<Case* const> checks, Case& timed,
                    const TimingOptions& options) {
  StepResult r = describe(step.info);
  r.bytes = timed.bytes();
  r.flops = timed.flops();
  for (Case* c : checks) r.checks.push_back(verify_once(step, *c));
  r.checks.push_back(verify_once(step, timed, &r.kernels));  // and what it launches, for the record
  r.verified = true;
  for (const auto& chk : r.checks) r.verified = r.verified && chk.cmp.passed;
  if (r.verified) {
    TimingOptions opts = options;
    if constexpr (requires { timed.restore(); }) opts.before_each = [&] { timed.restore(); };
    r.time_ms = time_launches(step.info.name, [&] { step.launch(timed); }, opts);
    r.timed = true;
    ShapeCheck after = verify_output(step, timed);
    after.shape += " after timed loop";
    r.verified = after.cmp.passed;
    r.checks.push_back(std::move(after));
  }
  for (const auto& chk : r.checks) r.rel_err = std::max(r.rel_err, chk.cmp.rel_l2);
  return r;
}

}  // namespace tutor
