// A11 exercise 1, softmax_online (HIP; CUDA twin: ../cuda/softmax_online.cu). //
// Write step 3 yourself: one block per row, the online normaliser (Milakov and Gimelshein 2018,
// alg. 3), reading the row twice instead of three times. Then run
//   ./build-hip/a11_softmax --variant exercise_online --variant online --variant block_fused
// The lab verifies it against the fp64 host reference (rows of random logits, a fully masked
// row, a partly masked row, equal and large values; cols 1 to 262,144) and times it beside
// `online`, the ladder's worked version; until the TODO is done it fails verification (nothing
// is written: every output is still the poison NaN).
//
// Hints (softmax_device.hpp): start from MaxSum{-infinity, 0}; online_update(s, x) folds one
// element in; block_merge(s, scratch) gives every thread the row's (m, d); the output is
// shifted_exp(x, m) / d. Why must a merge of two -infinity maxima not compute exp(m1 - m)?
// The worked solution: ../solutions/hip/softmax_online.hip.
#include <cstdint>

#include "softmax.hpp"
#include "softmax_device.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a11 {

template <class T>
__global__ void softmax_exercise_online(const T* in, T* out, int cols) {
  __shared__ MaxSum scratch[device::kMaxWarpsPerBlock];
  const T* x = in + static_cast<std::size_t>(blockIdx.x) * static_cast<std::size_t>(cols);
  T* y = out + static_cast<std::size_t>(blockIdx.x) * static_cast<std::size_t>(cols);
  // TODO: fold x[j] (j = threadIdx.x, += blockDim.x) into a MaxSum, merge it across the block,
  // then write y[j] = exp(x[j] - m) / d in T.
  (void)x; (void)y; (void)scratch;
}

void launch_exercise_online(const SoftmaxArgs& a) {
  if (a.bf16) {
    softmax_exercise_online<std::uint16_t><<<a.rows, kBlockThreads>>>(
        static_cast<const std::uint16_t*>(a.in), static_cast<std::uint16_t*>(a.out), a.cols);
    TUTOR_GPU_CHECK_LAUNCH(softmax_exercise_online<std::uint16_t>);
  } else {
    softmax_exercise_online<float><<<a.rows, kBlockThreads>>>(static_cast<const float*>(a.in),
                                                              static_cast<float*>(a.out), a.cols);
    TUTOR_GPU_CHECK_LAUNCH(softmax_exercise_online<float>);
  }
}

}  // namespace tutor::a11
