// B02 intensity sweep, NVIDIA (CUDA). HIP twin: ../hip/sweep.hip.
//
// One kernel per data type; the FLOPs per element are a run-time argument, so one binary
// walks the roofline from memory-bound (1 FLOP per 8 bytes) to compute-bound (8192 FLOPs per
// 8 bytes). Each thread streams 8 elements per step (two 128-bit loads for fp32) and keeps
// 8 independent FMA chains, enough to hide FMA latency at high intensity.
#include <cuda_bf16.h>

#include <algorithm>

#include "sweep.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b02 {

namespace {
constexpr int kThreads = 256;
// Enough resident blocks to fill every SM; the grid-stride loops cover any n.
unsigned grid_for(std::size_t work_items) {
  int device = 0, sms = 0;
  TUTOR_GPU_CHECK(cudaGetDevice(&device));
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t wanted = (work_items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, std::size_t(sms) * 8)));
}
}  // namespace

template <class T>
__device__ __forceinline__ T apply(T y, int flops, T a, T b) {
  if (flops == 1) return y * a;
  for (int i = 0; i < flops / 2; ++i) y = y * a + b;  // contracted to one FMA
  return y;
}

// ---- fp32: 8 bytes per element ----------------------------------------------------------
__global__ void sweep_fp32(const float* in, float* out, std::size_t n, int flops) {
  const std::size_t n8 = n / 8, stride = std::size_t(gridDim.x) * blockDim.x;
  const float a = kSweepA, b = kSweepB;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n8; i += stride) {
    float4 u = reinterpret_cast<const float4*>(in)[2 * i];
    float4 v = reinterpret_cast<const float4*>(in)[2 * i + 1];
    if (flops == 1) {
      u.x *= a; u.y *= a; u.z *= a; u.w *= a; v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    } else {
      for (int k = 0; k < flops / 2; ++k) {  // 8 independent chains
        u.x = fmaf(u.x, a, b); u.y = fmaf(u.y, a, b); u.z = fmaf(u.z, a, b); u.w = fmaf(u.w, a, b);
        v.x = fmaf(v.x, a, b); v.y = fmaf(v.y, a, b); v.z = fmaf(v.z, a, b); v.w = fmaf(v.w, a, b);
      }
    }
    reinterpret_cast<float4*>(out)[2 * i] = u;
    reinterpret_cast<float4*>(out)[2 * i + 1] = v;
  }
  // The last n % 8 elements, one per thread of the first block.
  const std::size_t tail = 8 * n8 + threadIdx.x;
  if (blockIdx.x == 0 && tail < n) out[tail] = apply(in[tail], flops, a, b);
}
void launch_sweep_fp32(const float* in, float* out, std::size_t n, int flops_per_element) {
  sweep_fp32<<<grid_for(n / 8 + 1), kThreads>>>(in, out, n, flops_per_element);
  TUTOR_GPU_CHECK_LAUNCH(sweep_fp32);
}

// ---- bf16: 4 bytes per element, paired FMAs (HFMA2.BF16), no tensor cores ----------------
__global__ void sweep_bf16(const std::uint16_t* in, std::uint16_t* out, std::size_t n, int flops) {
  const std::size_t n8 = n / 8, stride = std::size_t(gridDim.x) * blockDim.x;
  const __nv_bfloat162 a = __float2bfloat162_rn(kSweepA), b = __float2bfloat162_rn(kSweepB);
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n8; i += stride) {
    uint4 raw = reinterpret_cast<const uint4*>(in)[i];  // 8 bf16 = 4 pairs = 16 bytes
    __nv_bfloat162* p = reinterpret_cast<__nv_bfloat162*>(&raw);
    if (flops == 1) {
      for (int j = 0; j < 4; ++j) p[j] = __hmul2(p[j], a);
    } else {
      for (int k = 0; k < flops / 2; ++k) {  // 4 independent paired chains = 8 elements
        p[0] = __hfma2(p[0], a, b); p[1] = __hfma2(p[1], a, b);
        p[2] = __hfma2(p[2], a, b); p[3] = __hfma2(p[3], a, b);
      }
    }
    reinterpret_cast<uint4*>(out)[i] = raw;
  }
  const std::size_t tail = 8 * n8 + threadIdx.x;
  if (blockIdx.x == 0 && tail < n) {
    __nv_bfloat16 y = __ushort_as_bfloat16(in[tail]);
    y = apply(y, flops, __float2bfloat16_rn(kSweepA), __float2bfloat16_rn(kSweepB));
    out[tail] = __bfloat16_as_ushort(y);
  }
}
void launch_sweep_bf16(const std::uint16_t* in, std::uint16_t* out, std::size_t n, int flops_per_element) {
  sweep_bf16<<<grid_for(n / 8 + 1), kThreads>>>(in, out, n, flops_per_element);
  TUTOR_GPU_CHECK_LAUNCH(sweep_bf16);
}

}  // namespace tutor::b02
