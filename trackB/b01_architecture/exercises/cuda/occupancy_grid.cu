// B01 exercise 1, occupancy_grid (CUDA; HIP twin: ../hip/occupancy_grid.hip).
//
// Fill the GPU from its own description. Write the grid-stride loop, then choose the grid from
// the device's properties (what b01_device_info prints): enough blocks of kBlockThreads threads
// to fill every SM to its limit of resident threads. Then run
//   ./build/b01_occupancy --variant exercise_grid --variant full_occupancy
// The lab verifies your kernel at 1, 1,000,003 and 2^26 elements (poisoned output, fresh random
// input) and times it beside full_occupancy, which asks the runtime's occupancy calculator.
// Until the TODOs are done it fails verification: the output keeps its poison.
//
// Before you run: predict each step's GB/s from b01_device_info's numbers. One block runs on one
// SM; how much of the copy bandwidth can one SM draw? What does a block per SM leave idle?
//
// Hints: cudaDeviceGetAttribute with cudaDevAttrMultiProcessorCount and
// cudaDevAttrMaxThreadsPerMultiProcessor. In the loop the index and stride are std::size_t
// (n may pass 2^31). The worked solution: ../solutions/cuda/occupancy_grid.cu.
#include "occupancy.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b01 {

__global__ void scale_shift_exercise(const float* x, float* y, std::size_t n) {
  // TODO: a grid-stride loop: y[i] = kScale * x[i] + kShift for every i < n.
  (void)x; (void)y; (void)n;
}

void launch_exercise_grid(const float* x, float* y, std::size_t n) {
  // TODO: blocks = SMs x (resident threads per SM / kBlockThreads), from the device's properties.
  const int blocks = 1;
  scale_shift_exercise<<<blocks, kBlockThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(scale_shift_exercise);
}

}  // namespace tutor::b01
