// A03 exercise 2, reduce_two_pass (HIP; CUDA twin: ../cuda/reduce_two_pass.cu).
//
// A deterministic sum without atomics and without the last-block ticket of step 7: pass 1, a
// fixed grid, writes one partial sum per block to its own slot of the workspace; pass 2, one
// block, adds the slots. Fill in both kernels (the launcher is done), then run
//   ./build/a03_reduction --variant exercise_two_pass --variant single_pass_deterministic
// The lab verifies it on every size (integer-valued inputs must match exactly) and times it
// beside step 7; until the TODO is done it fails verification (the NaN poison stays).
//
// Hints: read the input in a grid-stride loop of 16-byte vectors with tutor::device::load_vec<4>
// (it handles the tail); reduce each block with tutor::device::block_reduce_sum, do not write your
// own warp reduction. Why are the bits the same on every run? Would they be on another GPU?
// The worked solution: ../solutions/hip/reduce_two_pass.hip.
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
  // TODO: partial[blockIdx.x] = this block's share of the sum of in[0..n) (grid-stride loop).
  (void)in; (void)partial; (void)n;
}

__global__ void reduce_exercise_two_pass_final(const float* partial, float* out, unsigned count) {
  // TODO: out[0] = partial[0] + ... + partial[count - 1], in an order that never changes.
  (void)partial; (void)out; (void)count;
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
