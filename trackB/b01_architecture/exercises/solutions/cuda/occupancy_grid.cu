// B01 exercise 1, occupancy_grid: the worked solution (CUDA; HIP twin: ../hip/occupancy_grid.hip).
//
// The grid from the device's properties: every SM can hold maxThreadsPerMultiProcessor threads, so
// SMs x (that / kBlockThreads) blocks are resident at once, one full wave; a grid-stride loop lets
// that fixed grid cover any n. This kernel uses few registers and no shared memory, so the thread
// limit is the one that binds; the occupancy calculator (step full_occupancy) also weighs registers
// and shared memory, and agrees here.
#include "occupancy.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b01 {

__global__ void scale_shift_exercise(const float* x, float* y, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
    y[i] = kScale * x[i] + kShift;
}

void launch_exercise_grid(const float* x, float* y, std::size_t n) {
  int device = 0, sms = 0, threads_per_sm = 0;
  TUTOR_GPU_CHECK(cudaGetDevice(&device));
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  const int blocks = sms * (threads_per_sm / kBlockThreads);
  scale_shift_exercise<<<blocks, kBlockThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(scale_shift_exercise);
}

}  // namespace tutor::b01
