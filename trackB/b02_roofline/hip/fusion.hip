// B02 fusion lab, AMD (HIP). CUDA twin: ../cuda/fusion.cu.
//
// The same two operations, as two kernels and as one. Both steps are memory-bound (2 FLOPs per
// element, far below any GPU's ridge), so their times follow their bytes.
#include "fusion.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b02 {

namespace {
constexpr unsigned kThreads = 256;
unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }
}  // namespace

// ---- Step 1: unfused -----------------------------------------------------------------------
// t = a * x + b written to memory, then read back for y = relu(t): 16 bytes per element.
__global__ void scale_shift(const float* x, float* t, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) t[i] = kFuseScale * x[i] + kFuseShift;
}
__global__ void relu(const float* t, float* y, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = fmaxf(t[i], 0.0f);
}
void launch_unfused(const float* x, float* y, float* scratch, std::size_t n) {
  scale_shift<<<blocks_for(n), kThreads>>>(x, scratch, n);
  TUTOR_GPU_CHECK_LAUNCH(scale_shift);
  relu<<<blocks_for(n), kThreads>>>(scratch, y, n);
  TUTOR_GPU_CHECK_LAUNCH(relu);
}

// ---- Step 2: fused -------------------------------------------------------------------------
// One kernel: t stays in a register; x read once, y written once, 8 bytes per element.
__global__ void scale_shift_relu(const float* x, float* y, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = fmaxf(kFuseScale * x[i] + kFuseShift, 0.0f);
}
void launch_fused(const float* x, float* y, float*, std::size_t n) {
  scale_shift_relu<<<blocks_for(n), kThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(scale_shift_relu);
}

}  // namespace tutor::b02
