// B02 intensity sweep, AMD (HIP). CUDA twin: ../cuda/sweep.cu; lines that differ say why.
//
// One kernel per data type; the FLOPs per element are a run-time argument, so one binary
// walks the roofline from memory-bound (1 FLOP per 8 bytes) to compute-bound (8192 FLOPs per
// 8 bytes). Each thread streams 4 vectors of 16 bytes per step (64 bytes in flight) and keeps
// 16 independent FMA chains, enough to hide FMA latency at high intensity.
#include <hip/hip_bfloat16.h>  // ROCm 5.2: a bf16 storage type, no packed bf16 math

#include <algorithm>

#include "sweep.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b02 {

namespace {
constexpr int kThreads = 256;
// Enough resident blocks to fill every SM; the grid-stride loops cover any n.
unsigned grid_for(std::size_t work_items) {
  int device = 0, sms = 0;
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device));
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

// ---- bf16: 4 bytes per element, no matrix cores -----------------------------------------
// ROCm 5.2's HIP has no packed bf16 FMA (the CUDA twin uses __hfma2 on bf16x2), so each
// step widens to fp32, does one FMA and rounds back to bf16: the same values as the twin,
// computed on the fp32 vector units with conversion instructions in between.
// Same shape: kVectors 16-byte vectors of 8 bf16 each per thread and iteration.
__global__ void sweep_bf16(const std::uint16_t* in, std::uint16_t* out, std::size_t n, int flops) {
  const std::size_t n8 = n / 8, threads = std::size_t(gridDim.x) * blockDim.x;
  const float a = kSweepA, b = kSweepB;
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
    hip_bfloat16* p = reinterpret_cast<hip_bfloat16*>(raw);  // 8 elements per vector
    if (flops == 1) {
#pragma unroll
      for (int j = 0; j < 8 * kVectors; ++j) p[j] = hip_bfloat16(static_cast<float>(p[j]) * a);
    } else {
      for (int k = 0; k < flops / 2; ++k) {  // 32 independent chains, rounded to bf16 each step
#pragma unroll
        for (int j = 0; j < 8 * kVectors; ++j) p[j] = hip_bfloat16(fmaf(static_cast<float>(p[j]), a, b));
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
    // One rounding per step, as in the widened path above.
    hip_bfloat16 y = reinterpret_cast<const hip_bfloat16*>(in)[tail];
    if (flops == 1) y = hip_bfloat16(static_cast<float>(y) * a);
    for (int k = 0; flops > 1 && k < flops / 2; ++k) y = hip_bfloat16(fmaf(static_cast<float>(y), a, b));
    reinterpret_cast<hip_bfloat16*>(out)[tail] = y;
  }
}
void launch_sweep_bf16(const std::uint16_t* in, std::uint16_t* out, std::size_t n, int flops_per_element) {
  sweep_bf16<<<grid_for(n / (8 * kVectors) + 1), kThreads>>>(in, out, n, flops_per_element);
  TUTOR_GPU_CHECK_LAUNCH(sweep_bf16);
}

}  // namespace tutor::b02
