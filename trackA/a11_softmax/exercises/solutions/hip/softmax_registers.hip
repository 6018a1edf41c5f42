// A11 exercise 2, softmax_registers (HIP; CUDA twin: ../cuda/softmax_registers.cu). Worked solution.
//
// One warp per row, the row held in registers: each lane loads its elements once (lane, lane +
// 32, ... up to kPerLane of them), takes the maximum and the sum from its registers with the
// warp's shuffles, and writes exp(x - m) / d from the same registers. The row crosses HBM once
// each way. Rows longer than the registers hold (32 x kPerLane) take the ladder's online step.
#include <cstdint>

#include "softmax.hpp"
#include "softmax_device.hpp"
#include "tutor/device/ceil_div.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a11 {

constexpr int kPerLane = 16;  // elements a lane holds: rows up to 16 x the warp's lanes

template <class T>
__global__ void softmax_exercise_registers(const T* in, T* out, int rows, int cols) {
  const int row = static_cast<int>(blockIdx.x * (blockDim.x / device::kWarpLanes) + threadIdx.x / device::kWarpLanes);
  if (row >= rows) return;  // the whole warp leaves together
  const int lane = device::lane_index();
  const T* x = in + static_cast<std::size_t>(row) * static_cast<std::size_t>(cols);
  T* y = out + static_cast<std::size_t>(row) * static_cast<std::size_t>(cols);
  float v[kPerLane];
  float m = to_f32(minus_infinity<T>());
  TUTOR_UNROLL
  for (int k = 0; k < kPerLane; ++k) {
    const int j = k * device::kWarpLanes + lane;
    v[k] = j < cols ? to_f32(x[j]) : to_f32(minus_infinity<T>());
    m = device::Max{}(m, v[k]);
  }
  m = device::warp_reduce_max(m);
  float d = 0.0f;
  TUTOR_UNROLL
  for (int k = 0; k < kPerLane; ++k) {
    v[k] = k * device::kWarpLanes + lane < cols ? shifted_exp(v[k], m) : 0.0f;
    d += v[k];
  }
  d = device::warp_reduce_sum(d);
  TUTOR_UNROLL
  for (int k = 0; k < kPerLane; ++k) {
    const int j = k * device::kWarpLanes + lane;
    if (j < cols) y[j] = from_f32<T>(v[k] / d);
  }
}

void launch_exercise_registers(const SoftmaxArgs& a) {
  int device = 0, lanes = 0;
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&lanes, hipDeviceAttributeWarpSize, device));
  if (a.cols > lanes * kPerLane) {
    launch_online(a);
    return;
  }
  const unsigned blocks = static_cast<unsigned>(device::ceil_div(a.rows, kBlockThreads / lanes));
  if (a.bf16) {
    softmax_exercise_registers<std::uint16_t><<<blocks, kBlockThreads>>>(
        static_cast<const std::uint16_t*>(a.in), static_cast<std::uint16_t*>(a.out), a.rows, a.cols);
    TUTOR_GPU_CHECK_LAUNCH(softmax_exercise_registers<std::uint16_t>);
  } else {
    softmax_exercise_registers<float><<<blocks, kBlockThreads>>>(static_cast<const float*>(a.in),
                                                                 static_cast<float*>(a.out), a.rows, a.cols);
    TUTOR_GPU_CHECK_LAUNCH(softmax_exercise_registers<float>);
  }
}

}  // namespace tutor::a11
