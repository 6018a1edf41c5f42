// A11 exercise 1, softmax_online (HIP; CUDA twin: ../cuda/softmax_online.cu). Worked solution.
//
// One block per row, the online normaliser (Milakov and Gimelshein 2018, alg. 3): each thread
// folds its elements into (m, d) with online_update, the block merges the pairs (block_merge),
// and a second loop writes exp(x - m) / d. The row is read twice, not three times.
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
  MaxSum s{to_f32(minus_infinity<T>()), 0.0f};
  for (int j = threadIdx.x; j < cols; j += blockDim.x) s = online_update(s, to_f32(x[j]));
  s = block_merge(s, scratch);
  for (int j = threadIdx.x; j < cols; j += blockDim.x) y[j] = from_f32<T>(shifted_exp(to_f32(x[j]), s.m) / s.d);
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
