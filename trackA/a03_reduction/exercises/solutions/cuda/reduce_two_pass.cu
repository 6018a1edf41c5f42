// A03 exercise 2, reduce_two_pass, WORKED SOLUTION (CUDA; HIP twin: ../hip/reduce_two_pass.hip).
// The stub the learner edits: ../../cuda/reduce_two_pass.cu.
//
// Pass 1: a fixed grid of blocks reads the input in a grid-stride loop of 16-byte vectors and each
// block writes its sum to its own slot. Pass 2: one block adds the slots in a fixed order. No
// atomics: the same bits on every run, at the price of a second (tiny) launch.
#include "tutor_gpu_check.hpp"
#include "reduce.hpp"

#include "tutor/device/block_reduce.hpp"
#include "tutor/device/ceil_div.hpp"
#include "tutor/device/vector_io.hpp"

namespace tutor::a03 {

namespace {
constexpr unsigned kTwoPassBlocks = 1024;  // pass 1's grid; pass 2's block folds 4 slots per thread
}

__global__ void reduce_exercise_two_pass_blocks(const float* in, float* partial, std::size_t n) {
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  float sum = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x * 4;
  for (std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) * 4; i < n; i += stride) {
    const device::Vec<float, 4> v = device::load_vec<4>(in, i, n, 0.0f);  // the tail reads as 0
    sum += (v[0] + v[1]) + (v[2] + v[3]);
  }
  sum = device::block_reduce_sum(sum, scratch);
  if (threadIdx.x == 0) partial[blockIdx.x] = sum;
}

__global__ void reduce_exercise_two_pass_final(const float* partial, float* out, unsigned count) {
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  float sum = 0;
  for (unsigned b = threadIdx.x; b < count; b += blockDim.x) sum += partial[b];
  sum = device::block_reduce_sum(sum, scratch);
  if (threadIdx.x == 0) out[0] = sum;
}

void launch_exercise_two_pass(const float* in, float* out, std::size_t n, void* workspace, std::size_t) {
  const std::size_t wanted = device::ceil_div(n, std::size_t(4 * kBlockThreads));
  const unsigned blocks = static_cast<unsigned>(wanted < kTwoPassBlocks ? wanted : kTwoPassBlocks);
  float* partial = static_cast<float*>(workspace);
  reduce_exercise_two_pass_blocks<<<blocks, kBlockThreads>>>(in, partial, n);
  TUTOR_GPU_CHECK_LAUNCH(reduce_exercise_two_pass_blocks);
  reduce_exercise_two_pass_final<<<1, kBlockThreads>>>(partial, out, blocks);
  TUTOR_GPU_CHECK_LAUNCH(reduce_exercise_two_pass_final);
}

}  // namespace tutor::a03
