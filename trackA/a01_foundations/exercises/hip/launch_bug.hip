// A01 exercise 1, launch_bug (HIP; CUDA twin: ../cuda/launch_bug.cu).
//
// This vector add has a bug in its launch configuration: the kernel is right, the launcher is
// not. It passes the test its author ran (2^20 elements) and fails others. Find it and fix it:
//   ./build/a01_vector_add --variant exercise_launch
// The lab verifies it at 1, 255 and 1,000,003 elements and at 2^--log2-elements (default 2^20)
// on fresh random inputs with a NaN-poisoned output, and times it beside vector_add (the
// lab's own kernel, ../../hip/vector_add.hip); until the bug is fixed the check says which
// sizes fail and why.
//
// Hints: how many blocks does the launch start for n = 1? For n = 1,000,003, which elements
// does no thread write (the check names the first)? What must the block count be so that
// blocks x threads >= n for every n >= 1? The kernel's bounds check is there for a reason.
// Worked solution: ../solutions/hip/launch_bug.hip.
#include "tutor_gpu_check.hpp"
#include "vector_add.hpp"

namespace tutor::a01 {

__global__ void launch_bug_add(const float* a, const float* b, float* c, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void launch_exercise_launch(const float* a, const float* b, float* c, std::size_t n) {
  constexpr unsigned kThreads = 256;
  // TODO: this block count is wrong for some n. Fix it.
  const std::size_t blocks = n / kThreads;
  launch_bug_add<<<static_cast<unsigned>(blocks), kThreads>>>(a, b, c, n);
  TUTOR_GPU_CHECK_LAUNCH(launch_bug_add);
}

}  // namespace tutor::a01
