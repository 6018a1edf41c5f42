// B02 intensity sweep, NVIDIA (CUDA). HIP twin: ../hip/sweep.hip.
//
// One kernel per data type; the FLOPs per element are a run-time argument, so one binary
// walks the roofline from memory-bound (1 FLOP per 8 bytes) to compute-bound (8192 FLOPs per
// 8 bytes). Each thread streams 4 vectors of 16 bytes per step (64 bytes in flight) and keeps
// 16 independent FMA chains, enough to hide FMA latency at high intensity.
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
// Each thread handles kVectors float4s per iteration, kVectors * 16 bytes in flight per load
// phase; consecutive lanes read consecutive 16-byte vectors, so every load is coalesced.
constexpr int kVectors = 4;
__global__ void sweep_fp32(const float* in, float* out, std::size_t n, int flops) {
  const std::size_t n4 = n / 4, threads = std::size_t(gridDim.x) * blockDim.x;
  const float a = kSweepA, b = kSweepB;
  const float4* in4 = reinterpret_cast<const float4*>(in);
  float4* out4 = reinterpret_cast<float4*>(out);
  for (std::size_t base = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; base < n4;
       base += kVectors * threads) {
    float4 v[kVectors];
#pragma unroll
    for (int j = 0; j < kVectors; ++j) {
      const std::size_t idx = base + j * threads;
      v[j] = idx < n4 ? in4[idx] : make_float4(0, 0, 0, 0);
    }
    if (flops == 1) {
#pragma unroll
      for (int j = 0; j < kVectors; ++j) { v[j].x *= a; v[j].y *= a; v[j].z *= a; v[j].w *= a; }
    } else {
      for (int k = 0; k < flops / 2; ++k) {  // 4 * kVectors = 16 independent chains
#pragma unroll
        for (int j = 0; j < kVectors; ++j) {
          v[j].x = fmaf(v[j].x, a, b); v[j].y = fmaf(v[j].y, a, b);
          v[j].z = fmaf(v[j].z, a, b); v[j].w = fmaf(v[j].w, a, b);
        }
      }
    }
#pragma unroll
    for (int j = 0; j < kVectors; ++j) {
      const std::size_t idx = base + j * threads;
      if (idx < n4) out4[idx] = v[j];
    }
  }
  // The last n % 4 elements, one per thread of the first block.
  const std::size_t tail = 4 * n4 + threadIdx.x;
  if (blockIdx.x == 0 && tail < n) out[tail] = apply(in[tail], flops, a, b);
}
void launch_sweep_fp32(const float* in, float* out, std::size_t n, int flops_per_element) {
  sweep_fp32<<<grid_for(n / (4 * kVectors) + 1), kThreads>>>(in, out, n, flops_per_element);
  TUTOR_GPU_CHECK_LAUNCH(sweep_fp32);
}

// ---- bf16: 4 bytes per element, paired FMAs (HFMA2.BF16), no tensor cores ----------------
// Same shape: kVectors 16-byte vectors of 8 bf16 each per thread and iteration.
__global__ void sweep_bf16(const std::uint16_t* in, std::uint16_t* out, std::size_t n, int flops) {
  const std::size_t n8 = n / 8, threads = std::size_t(gridDim.x) * blockDim.x;
  const __nv_bfloat162 a = __float2bfloat162_rn(kSweepA), b = __float2bfloat162_rn(kSweepB);
  const uint4* in8 = reinterpret_cast<const uint4*>(in);
  uint4* out8 = reinterpret_cast<uint4*>(out);
  for (std::size_t base = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; base < n8;
       base += kVectors * threads) {
    uint4 raw[kVectors];
#pragma unroll
    for (int j = 0; j < kVectors; ++j) {
      const std::size_t idx = base + j * threads;
      raw[j] = idx < n8 ? in8[idx] : make_uint4(0, 0, 0, 0);
    }
    __nv_bfloat162* p = reinterpret_cast<__nv_bfloat162*>(raw);  // 4 pairs per vector
    if (flops == 1) {
#pragma unroll
      for (int j = 0; j < 4 * kVectors; ++j) p[j] = __hmul2(p[j], a);
    } else {
      for (int k = 0; k < flops / 2; ++k) {  // 16 independent paired chains = 32 elements
#pragma unroll
        for (int j = 0; j < 4 * kVectors; ++j) p[j] = __hfma2(p[j], a, b);
      }
    }
#pragma unroll
    for (int j = 0; j < kVectors; ++j) {
      const std::size_t idx = base + j * threads;
      if (idx < n8) out8[idx] = raw[j];
    }
  }
  const std::size_t tail = 8 * n8 + threadIdx.x;
  if (blockIdx.x == 0 && tail < n) {
    // One rounding per step, as in the paired path above (__hfma rounds once, like __hfma2).
    const __nv_bfloat16 a1 = __float2bfloat16_rn(kSweepA), b1 = __float2bfloat16_rn(kSweepB);
    __nv_bfloat16 y = __ushort_as_bfloat16(in[tail]);
    if (flops == 1) y = __hmul(y, a1);
    for (int k = 0; flops > 1 && k < flops / 2; ++k) y = __hfma(y, a1, b1);
    out[tail] = __bfloat16_as_ushort(y);
  }
}
void launch_sweep_bf16(const std::uint16_t* in, std::uint16_t* out, std::size_t n, int flops_per_element) {
  sweep_bf16<<<grid_for(n / (8 * kVectors) + 1), kThreads>>>(in, out, n, flops_per_element);
  TUTOR_GPU_CHECK_LAUNCH(sweep_bf16);
}

}  // namespace tutor::b02
