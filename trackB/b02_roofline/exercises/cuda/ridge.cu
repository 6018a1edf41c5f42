// B02 exercise 1, ridge (CUDA; HIP twin: ../hip/ridge.hip).
//
// Two things to write, then run
//   ./build/b02_ridge --variant exercise_ridge
// 1. exercise_flops_per_element: the k that puts f_k on this GPU's ridge. The lab measures the
//    fp32 FMA rate (TFLOP/s) and the copy bandwidth (GB/s) first and passes them in; f_k moves 8
//    bytes per element and does k FLOPs, so its intensity is k / 8 FLOP/byte. Return 1 or an even
//    number. The lab accepts k within 0.8x-1.25x of the ridge and says where yours landed.
// 2. ridge_exercise: out[i] = f_k(in[i]) (ridge.hpp), for any n, fast enough to sit on the ridge:
//    at the ridge a kernel must keep the memory system busy and the FMA units busy at once.
// The lab verifies the output at 1, 1,000,003 and 2^26 elements (poisoned first, every element
// checked for being written, 65,544 against an fp64 reference) and times it beside sweep_kernel,
// B02's own kernel at the same k. Until the TODOs are done it fails verification.
//
// Hints: a grid-stride loop over float4s (16-byte loads) with the tail done element by element;
// keep several independent FMA chains per thread (the 4 lanes of a float4 are 4 chains) so FMA
// latency is hidden; fmaf(y, a, b) is one instruction. Ridge = FLOP/s / (byte/s): mind the units
// (TFLOP/s = 1e12, GB/s = 1e9). The worked solution: ../solutions/cuda/ridge.cu.
#include "ridge.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b02 {

namespace {
constexpr unsigned kExerciseThreads = 256;
}

int exercise_flops_per_element(double fma_TFLOPs, double copy_GBps) {
  // TODO: the FLOPs per element at the ridge: intensity k / 8 FLOP/byte = FMA rate / bandwidth.
  (void)fma_TFLOPs; (void)copy_GBps;
  return 0;
}

__global__ void ridge_exercise(const float* in, float* out, std::size_t n, int flops) {
  // TODO: out[i] = f_k(in[i]) for every i < n: y = in[i] * a when flops == 1, else flops / 2 times
  // y = y * a + b (a = kSweepA, b = kSweepB), with enough independent chains per thread.
  (void)in; (void)out; (void)n; (void)flops;
}

void launch_exercise_ridge(const float* in, float* out, std::size_t n, int flops_per_element) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>((n + kExerciseThreads - 1) / kExerciseThreads);
  ridge_exercise<<<blocks, kExerciseThreads>>>(in, out, n, flops_per_element);
  TUTOR_GPU_CHECK_LAUNCH(ridge_exercise);
}

}  // namespace tutor::b02
