// B02 exercise 2, fuse (HIP; CUDA twin: ../cuda/fuse.cu).
//
// Fuse two memory-bound kernels. The lab's step unfused computes t = a * x + b into memory, then
// y = relu(t) from it: 16 bytes per element for 2 FLOPs. Write the one kernel that does both with
// t in a register (8 bytes per element), then run
//   ./build/b02_fusion --variant exercise_fuse --variant unfused
// Before you run: predict the speed-up from the roofline. Both kernels sit far below the ridge
// (1/8 FLOP/byte fused), so time = bytes / bandwidth. The lab verifies y bit for bit at 1,
// 1,000,003 and 2^26 elements (poisoned output, fresh random input) and times it beside unfused
// and fused (the worked version). Until the TODO is done it fails verification.
//
// Hints: one thread per element; y[i] = fmaxf(kFuseScale * x[i] + kFuseShift, 0.0f); leave
// scratch alone. The worked solution: ../solutions/hip/fuse.hip.
#include "fusion.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b02 {

namespace {
constexpr unsigned kExerciseThreads = 256;
}

__global__ void fuse_exercise(const float* x, float* y, std::size_t n) {
  // TODO: y[i] = relu(kFuseScale * x[i] + kFuseShift) for every i < n, in one pass.
  (void)x; (void)y; (void)n;
}

void launch_exercise_fuse(const float* x, float* y, float* scratch, std::size_t n) {
  (void)scratch;
  const unsigned blocks = static_cast<unsigned>((n + kExerciseThreads - 1) / kExerciseThreads);
  fuse_exercise<<<blocks, kExerciseThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(fuse_exercise);
}

}  // namespace tutor::b02
