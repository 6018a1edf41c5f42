// B01 occupancy lab, AMD (HIP). CUDA twin: ../cuda/occupancy.cu.
//
// One grid-stride kernel, three grids. A block runs on one SM, so one block uses one SM of the
// device, whatever its size; a block per SM uses every SM, but each holds only kBlockThreads
// threads, too few loads in flight to cover DRAM latency; the occupancy calculator's count of
// resident blocks per SM fills every SM to its thread limit.
#include "occupancy.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b01 {

namespace {
int multiprocessors() {
  int device = 0, sms = 0;
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device));
  return sms;
}
}  // namespace

__global__ void scale_shift(const float* x, float* y, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
    y[i] = kScale * x[i] + kShift;
}

// ---- Step 1: one_block ---------------------------------------------------------------------
// One block: one SM streams the whole array; the others idle.
void launch_one_block(const float* x, float* y, std::size_t n) {
  scale_shift<<<1, kBlockThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(scale_shift);
}

// ---- Step 2: one_block_per_sm --------------------------------------------------------------
// One block per SM: every SM works, each with kBlockThreads threads resident.
void launch_one_block_per_sm(const float* x, float* y, std::size_t n) {
  scale_shift<<<multiprocessors(), kBlockThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(scale_shift);
}

// ---- Step 3: full_occupancy ----------------------------------------------------------------
// As many blocks as fit on every SM at once (the occupancy calculator: threads, registers and
// shared memory per SM against this kernel's needs).
void launch_full_occupancy(const float* x, float* y, std::size_t n) {
  int per_sm = 0;
  TUTOR_GPU_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scale_shift, kBlockThreads, 0));
  scale_shift<<<multiprocessors() * per_sm, kBlockThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(scale_shift);
}

}  // namespace tutor::b01
