// B03 exercise 6, fix_6 (CUDA; HIP twin: ../hip/fix_6.hip).
//
// First find mystery_6's bug (exercises/README.md: the kind of error and the line). Then write a
// kernel that computes the same moving average correctly on every run, and run
//   ./build/b03_mystery --kernel 1 --exercise 6
// (fix_6 is timed beside mystery_1: the rubric's fix_6 assignment grades that record). The lab
// verifies it at n = 1, at a length drawn from the run's seed (printed; --seed repeats it), at the
// timed 2^26 = 67108864, and again after its timed loop (with --small: 1, 100, 1000 and 3000), on
// fresh random inputs, and times it; until the TODO is done it fails verification: the output
// keeps its NaN poison ("nothing written").
// Passing once proves little for a bug that shows only on some runs: run it under
// compute-sanitizer too, with each tool of README section 4 (memcheck, racecheck, synccheck),
//   compute-sanitizer --tool <tool> ./build/b03_mystery --exercise 6 --small --reps 2 --warmup 1
// and expect no error and no hazard.
//
// What to compute: the TODO below; mystery_6 in ../../cuda/mystery.cu computes the same thing.
// The worked solution, to read after your own attempt: ../solutions/cuda/fix_6.cu.
#include "mystery.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b03 {

namespace {
constexpr int kFixThreads = 256;
}

// ---- Step 0: fix_6 ---------------------------------------------------------------------------
__global__ void fix_6_smoothing(const float* x, float* y, int n) {
  // TODO: y[i] = kSmoothW0 * x[i - 1] + kSmoothW1 * x[i] + kSmoothW2 * x[i + 1] for every i < n,
  // with x[-1] = x[n] = 0.
  (void)x; (void)y; (void)n;
}

void launch_fix_6(const float* x, float* y, int n) {
  fix_6_smoothing<<<static_cast<unsigned>(n / kFixThreads + (n % kFixThreads != 0)), kFixThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(fix_6_smoothing);
}

}  // namespace tutor::b03
