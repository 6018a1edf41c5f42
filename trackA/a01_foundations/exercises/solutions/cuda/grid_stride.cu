// A01 exercise 2, grid_stride: the worked solution (CUDA; HIP twin: ../hip/grid_stride.hip).
// Build with -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the lab's exercise_grid_stride step.
//
// Each thread starts at its global index and steps by the number of threads in the grid, so a
// fixed grid covers any n; at every step a warp still touches 32 consecutive elements
// (coalesced). Against one thread per element, each thread does several elements and the grid
// does not grow with n; whether that is faster on a given GPU is what the lab measures.
#include "tutor_gpu_check.hpp"
#include "vector_add.hpp"

namespace tutor::a01 {

namespace {
constexpr unsigned kGridThreads = 256;
constexpr unsigned kGridBlocks = 1024;  // fixed: the kernel must cover any n with these threads
}

__global__ void grid_stride_add(const float* a, const float* b, float* c, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;  // threads in the grid
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

void launch_exercise_grid_stride(const float* a, const float* b, float* c, std::size_t n) {
  grid_stride_add<<<kGridBlocks, kGridThreads>>>(a, b, c, n);
  TUTOR_GPU_CHECK_LAUNCH(grid_stride_add);
}

}  // namespace tutor::a01
