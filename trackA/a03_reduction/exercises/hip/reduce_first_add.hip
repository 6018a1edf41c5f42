// A03 exercise 1, reduce_first_add (HIP; CUDA twin: ../cuda/reduce_first_add.cu).
//
// Step 2 (sequential) leaves half its threads idle from the first level of the tree. Make every
// thread add two input elements while loading them into shared memory, so a block of
// kBlockThreads threads sums 2 * kBlockThreads elements, then run
//   ./build/a03_reduction --variant exercise --variant first_add
// The lab verifies it at n = 1, 33, 2^20 + 7 and 2^28 (fresh random inputs, and integer-valued
// inputs that must match exactly) and times it beside the ladder's steps; until the TODO is done
// it fails verification: the output keeps its NaN poison.
//
// Hints: which element does thread tid of block b load first, and which second? Guard both loads
// (n is not a multiple of the block). Where must __syncthreads() sit so that every thread reaches
// it? The launcher below is done: it repeats passes over the partials until one value is left.
// The worked solution: ../solutions/hip/reduce_first_add.hip.
#include "tutor_gpu_check.hpp"
#include "reduce.hpp"

#include "tutor/device/ceil_div.hpp"

namespace tutor::a03 {

__global__ void reduce_exercise_first_add(const float* in, float* out, std::size_t n) {
  // TODO: out[blockIdx.x] = the sum of in[i] for the 2 * kBlockThreads indices i < n this block covers.
  (void)in; (void)out; (void)n;
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
