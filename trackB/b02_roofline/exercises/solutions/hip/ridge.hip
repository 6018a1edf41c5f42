// B02 exercise 1, ridge: the worked solution (HIP; CUDA twin: ../cuda/ridge.cu).
//
// The ridge: I* = FMA rate / bandwidth (Williams et al., CACM 52(4) 2009), here from the roofs the
// lab measured in this run; f_k moves 8 bytes per element, so k = 8 * I*, rounded to an even count
// (k / 2 fused multiply-adds). The kernel keeps both roofs busy: every thread loads whole float4s
// (16 bytes per load, coalesced across the warp), runs the 4 lanes as 4 independent FMA chains,
// and a grid of a few blocks per SM strides over the array; the n % 4 tail is done element by
// element by the first threads.
#include <algorithm>
#include <cmath>

#include "ridge.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b02 {

namespace {
constexpr unsigned kExerciseThreads = 256;

__device__ float f_k(float y, int flops) {
  if (flops == 1) return y * kSweepA;
  for (int i = 0; i < flops / 2; ++i) y = fmaf(y, kSweepA, kSweepB);
  return y;
}
}  // namespace

int exercise_flops_per_element(double fma_TFLOPs, double copy_GBps) {
  const double ridge = (fma_TFLOPs * 1e12) / (copy_GBps * 1e9);  // FLOP per byte
  const long k = 2 * std::lround(8.0 * ridge / 2.0);               // 8 bytes per element, even
  return static_cast<int>(std::clamp(k, 2L, long(kMaxRidgeFlops)));
}

__global__ void ridge_exercise(const float* in, float* out, std::size_t n, int flops) {
  const std::size_t n4 = n / 4, stride = std::size_t(gridDim.x) * blockDim.x;
  const float4* in4 = reinterpret_cast<const float4*>(in);
  float4* out4 = reinterpret_cast<float4*>(out);
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4; i += stride) {
    float4 v = in4[i];
    if (flops == 1) {
      v.x *= kSweepA; v.y *= kSweepA; v.z *= kSweepA; v.w *= kSweepA;
    } else {
      for (int k = 0; k < flops / 2; ++k) {  // 4 independent chains
        v.x = fmaf(v.x, kSweepA, kSweepB); v.y = fmaf(v.y, kSweepA, kSweepB);
        v.z = fmaf(v.z, kSweepA, kSweepB); v.w = fmaf(v.w, kSweepA, kSweepB);
      }
    }
    out4[i] = v;
  }
  const std::size_t tail = 4 * n4 + blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (tail < n) out[tail] = f_k(in[tail], flops);
}

void launch_exercise_ridge(const float* in, float* out, std::size_t n, int flops_per_element) {
  if (n == 0) return;
  int device = 0, sms = 0, threads_per_sm = 0;
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&threads_per_sm, hipDeviceAttributeMaxThreadsPerMultiProcessor, device));
  // Every SM full of resident threads, and no more blocks than there are float4s to give out.
  const std::size_t full = std::size_t(sms) * std::size_t(threads_per_sm / kExerciseThreads);
  const std::size_t wanted = (n / 4 + kExerciseThreads - 1) / kExerciseThreads;
  const unsigned blocks = static_cast<unsigned>(std::max<std::size_t>(1, std::min(full, wanted)));
  ridge_exercise<<<blocks, kExerciseThreads>>>(in, out, n, flops_per_element);
  TUTOR_GPU_CHECK_LAUNCH(ridge_exercise);
}

}  // namespace tutor::b02
