// A03 exercise 1, reduce_first_add, WORKED SOLUTION (CUDA; HIP twin: ../hip/reduce_first_add.hip).
// The stub the learner edits: ../../cuda/reduce_first_add.cu.
//
// Each block sums 2 * kBlockThreads elements: every thread adds two elements a block apart on the
// way into shared memory, then the sequential-addressing tree halves the values until one is left.
#include "tutor_gpu_check.hpp"
#include "reduce.hpp"

#include "tutor/device/ceil_div.hpp"

namespace tutor::a03 {

__global__ void reduce_exercise_first_add(const float* in, float* out, std::size_t n) {
  __shared__ float sdata[kBlockThreads];
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * (2 * blockDim.x) + tid;
  float v = i < n ? in[i] : 0.0f;  // both loads guarded: n is not a multiple of the block
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();  // outside the if: every thread of the block must reach it
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Passes until one value is left: the input, then the partials (two arrays in the workspace, in
// turn), the last pass writing `out`.
void launch_exercise_first_add(const float* in, float* out, std::size_t n, void* workspace, std::size_t) {
  const float* src = in;
  std::size_t count = n;
  int which = 0;
  do {
    const std::size_t blocks = device::ceil_div(count, std::size_t(2 * kBlockThreads));
    float* dst = blocks == 1 ? out : static_cast<float*>(workspace) + std::size_t(which) * partials_capacity(n);
    reduce_exercise_first_add<<<static_cast<unsigned>(blocks), kBlockThreads>>>(src, dst, count);
    TUTOR_GPU_CHECK_LAUNCH(reduce_exercise_first_add);
    src = dst;
    count = blocks;
    which ^= 1;
  } while (count > 1);
}

}  // namespace tutor::a03
