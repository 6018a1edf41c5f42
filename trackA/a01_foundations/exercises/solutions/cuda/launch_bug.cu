// A01 exercise 1, launch_bug: the worked solution (CUDA; HIP twin: ../hip/launch_bug.hip).
// Build with -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the lab's exercise_launch step.
//
// The bug was `blocks = n / kThreads`: integer division rounds down, so the last n mod 256
// elements had no thread (1,000,003 elements: 3,906 blocks cover 999,936), and for n < 256
// the grid had zero blocks, which the runtime refuses as an invalid configuration. Rounding
// up, ceil(n / 256) = (n + 255) / 256, starts enough blocks for every n >= 1; the kernel's
// bounds check idles the extra threads of the last block.
#include "tutor_gpu_check.hpp"
#include "vector_add.hpp"

namespace tutor::a01 {

__global__ void launch_bug_add(const float* a, const float* b, float* c, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void launch_exercise_launch(const float* a, const float* b, float* c, std::size_t n) {
  constexpr unsigned kThreads = 256;
  const std::size_t blocks = (n + kThreads - 1) / kThreads;  // round up: blocks x 256 >= n
  launch_bug_add<<<static_cast<unsigned>(blocks), kThreads>>>(a, b, c, n);
  TUTOR_GPU_CHECK_LAUNCH(launch_bug_add);
}

}  // namespace tutor::a01
