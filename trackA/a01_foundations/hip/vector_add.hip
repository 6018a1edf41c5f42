// A01 the first kernel, AMD (HIP). CUDA twin: ../cuda/vector_add.cu.
//
// A kernel is the body of a loop, run once per thread: thread i computes c[i] = a[i] + b[i].
// Threads come in blocks (here 256 = 4 wavefronts of 64); the grid has enough blocks to cover n,
// and the last block's extra threads do nothing because of the bounds check.
#include "tutor_gpu_check.hpp"
#include "vector_add.hpp"

namespace tutor::a01 {

__global__ void vector_add(const float* a, const float* b, float* c, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void launch_vector_add(const float* a, const float* b, float* c, std::size_t n) {
  constexpr unsigned kThreads = 256;  // a multiple of 64: whole warps here, whole wavefronts on AMD
  const std::size_t blocks = (n + kThreads - 1) / kThreads;  // 2^31-1 blocks allowed in x
  vector_add<<<static_cast<unsigned>(blocks), kThreads>>>(a, b, c, n);
  TUTOR_GPU_CHECK_LAUNCH(vector_add);
}

}  // namespace tutor::a01
