#pragma once
// The per-variant result every lab reports: one row of the table, one entry of the JSON
// record's "variants" array (ARCHITECTURE.md, "The result record").
#include <string>
#include <vector>

#include "tutor/gpu.hpp"
#include "tutor/stats.hpp"
#include "tutor/verify.hpp"

namespace tutor {

/// One verification of a variant: the case it ran on ("31x33", "16384x16384 after timed
/// loop") and what the comparison found.
struct ShapeCheck {
  std::string shape;
  Comparison cmp;
};

/// What a ceiling is measured in: a memory-bound lab divides its GB/s by a bandwidth,
/// a compute-bound lab its TFLOP/s by a rate.
enum class CeilingUnit { GBps, TFLOPs };

/// The ceiling a lab reports fractions of, measured on the same device in the same run.
struct Ceiling {
  std::string name;   ///< e.g. "device-to-device copy (cudaMemcpy)"
  double value = 0;   ///< in `unit`
  CeilingUnit unit = CeilingUnit::GBps;
};

/// One step of a ladder after it has been verified and timed.
struct StepResult {
  int number = 0;       ///< position in the ladder (0: a reference row or the exercise)
  std::string name;     ///< short id (`--variant NAME`)
  std::string change;   ///< one line: what the step changes and what it should buy
  std::string expect;   ///< the gain its declaration expects (not a measurement)
  std::string role = "ladder";  ///< "ladder", "reference" or "exercise"
  std::string params;   ///< extra parameters of the step ("tile 128x256x8, ...")
  int lines_of_code = 0;
  std::vector<gpu::KernelInfo> kernels;  ///< what the step launched, with each kernel's registers and shared memory  ///< non-blank, non-comment lines of its kernel section (0: not counted)
  std::string skipped;  ///< why the step did not run on this GPU ("needs sm_90a; this GPU is sm_80"); "" if it ran
  bool verified = false;       ///< every check passed
  std::vector<ShapeCheck> checks;
  double rel_err = 0;          ///< worst relative L2 error over `checks`
  bool timed = false;          ///< false when verification failed (a wrong kernel is not timed)
  Summary time_ms;             ///< per-launch kernel time from device events
  double bytes = 0;            ///< bytes the step must move through device memory per launch
  double flops = 0;            ///< floating-point operations per launch
  double GBps = 0;             ///< bytes / median time, 1e9 B/s
  double TFLOPs = 0;           ///< flops / median time, 1e12 FLOP/s
  double fraction_of_ceiling = 0;
  double speedup_vs_prev = 0;  ///< previous timed step's median / this median (0 for the first)
  double speedup_vs_first = 0; ///< first timed step's median / this median
};

/// Fills GBps, TFLOPs, fraction_of_ceiling and the speedups of every timed step, in order.
void finish_ladder(std::vector<StepResult>& steps, const Ceiling& ceiling);

}  // namespace tutor
