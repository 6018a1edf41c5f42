// A11 exercise 2, softmax_registers (HIP; CUDA twin: ../cuda/softmax_registers.cu).
//
// Keep a short row in registers: one warp per row, each lane loading its elements once (lane,
// lane + 32, ... up to kPerLane of them), so the row crosses HBM once each way. Then run
//   ./build-hip/a11_softmax --variant exercise_registers --variant warp_row --variant vectorised --cols 512
// The lab verifies it against the fp64 host reference at every verification shape (rows longer
// than 32 x kPerLane take the ladder's online step, already written) and times it beside
// warp_row (two reads) and vectorised (16-byte loads); until the TODO is done it fails
// verification (the outputs are still the poison NaN).
//
// Hints: fill v[k] with element k * kWarpLanes + lane, or -infinity past the row's end; the
// maximum is device::warp_reduce_max of the lane's maximum; turn v[k] into shifted_exp(v[k], m)
// (0 past the end), device::warp_reduce_sum gives d; write v[k] / d where j < cols. What limits
// kPerLane, and what happens to occupancy if you double it?
// The worked solution: ../solutions/hip/softmax_registers.hip.
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
  // TODO: load the lane's elements into v, reduce the maximum and the sum of exp(v - m) across
  // the warp, and write v[k] / d as T where the element is inside the row.
  (void)lane; (void)x; (void)y; (void)v;
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
