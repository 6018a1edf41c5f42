// A01 exercise 2, grid_stride (HIP; CUDA twin: ../cuda/grid_stride.cu).
//
// The launcher below starts a fixed grid, 1,024 blocks of 256 threads, whatever n is: a grid
// sized for the GPU rather than for the problem. The kernel was written for one thread per
// element, so with more elements than threads it leaves the rest unwritten. Rewrite it as a
// grid-stride loop, so that any grid covers any n, then run
//   ./build/a01_vector_add --variant exercise_grid_stride
// The lab verifies it at 1, 255 and 1,000,003 elements and at 2^--log2-elements (default 2^20)
// and times it beside vector_add (one thread per element); until the TODO is done the check
// names the first element no thread wrote (262,144 = 1,024 x 256).
//
// Hints: thread t of the grid handles elements t, t + T, t + 2T, ... below n, where T =
// gridDim.x x blockDim.x is the number of threads in the grid. Compute indices in size_t (n may
// pass 2^31). Consecutive threads still touch consecutive elements at every step: coalesced.
// Worked solution: ../solutions/hip/grid_stride.hip.
#include "tutor_gpu_check.hpp"
#include "vector_add.hpp"

namespace tutor::a01 {

namespace {
constexpr unsigned kGridThreads = 256;
constexpr unsigned kGridBlocks = 1024;  // fixed: the kernel must cover any n with these threads
}

__global__ void grid_stride_add(const float* a, const float* b, float* c, std::size_t n) {
  // TODO: make this a grid-stride loop over every i < n.
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void launch_exercise_grid_stride(const float* a, const float* b, float* c, std::size_t n) {
  grid_stride_add<<<kGridBlocks, kGridThreads>>>(a, b, c, n);
  TUTOR_GPU_CHECK_LAUNCH(grid_stride_add);
}

}  // namespace tutor::a01
