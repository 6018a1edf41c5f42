// tutor_baselines on NVIDIA: the CUDA runtime, cuBLAS and CUB, enqueued on the default
// stream. The host driver (../tutor_baselines.cpp) times and checks everything.
// HIP twin: ../hip/baselines.hip (same functions, same order).
#include <cublas_v2.h>

#include "tutor_cublas.hpp"
#include <cuda_bf16.h>

#include <climits>
#include <cub/cub.cuh>
#include <string>

#include "baselines.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::baselines {

namespace {
// The SM count and how many blocks of `threads` fit on one SM, for a one-wave grid.
unsigned one_wave_blocks(const void* kernel, int threads) {
  int device = 0, sms = 0, per_sm = 0;
  TUTOR_GPU_CHECK(cudaGetDevice(&device));
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TUTOR_GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return static_cast<unsigned>(sms * (per_sm > 0 ? per_sm : 1));
}

// CUB's and the histogram's item counts are int here; the driver caps inputs at 2^30.
int item_count(std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX)) throw gpu::Error("tutor_baselines: more than INT_MAX items");
  return static_cast<int>(n);
}
}  // namespace

// ---- inputs ------------------------------------------------------------------------------

// SplitMix64's output function (Steele, Lea, Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014) on the counter seed + (i + 1) * golden gamma; the top 24 bits
// make a float in [0, 1) exactly.
__global__ void fill_uniform_kernel(float* out, std::size_t n, std::uint64_t seed, float lo, float hi) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const float u = static_cast<float>(z >> 40) * 0x1p-24f;
    out[i] = lo + (hi - lo) * u;
  }
}
void fill_uniform(float* out, std::size_t n, std::uint64_t seed, float lo, float hi) {
  if (n == 0) return;
  const unsigned blocks = one_wave_blocks(reinterpret_cast<const void*>(fill_uniform_kernel), 256);
  fill_uniform_kernel<<<blocks, 256>>>(out, n, seed, lo, hi);
  TUTOR_GPU_CHECK_LAUNCH(fill_uniform_kernel);
}

__global__ void round_to_bf16_kernel(const float* in, std::uint16_t* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = __bfloat16_as_ushort(__float2bfloat16_rn(in[i]));
}
void round_to_bf16(const float* in, std::uint16_t* out, std::size_t n) {
  if (n == 0) return;
  const unsigned blocks = one_wave_blocks(reinterpret_cast<const void*>(round_to_bf16_kernel), 256);
  round_to_bf16_kernel<<<blocks, 256>>>(in, out, n);
  TUTOR_GPU_CHECK_LAUNCH(round_to_bf16_kernel);
}

// ---- memory ------------------------------------------------------------------------------

void runtime_copy(void* dst, const void* src, std::size_t bytes) {
  TUTOR_GPU_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0));
}

// Four independent 16-byte loads per thread before any store: enough bytes in flight per SM
// to cover HBM latency at one wave of blocks (Little's law: bandwidth x latency).
constexpr int kCopyUnroll = 4;
__global__ void float4_copy_kernel(float4* __restrict__ dst, const float4* __restrict__ src, std::size_t n4,
                                   float* __restrict__ dst_tail, const float* __restrict__ src_tail,
                                   std::size_t tail) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < tail) dst_tail[i] = src_tail[i];
  for (; i + (kCopyUnroll - 1) * stride < n4; i += kCopyUnroll * stride) {
    float4 v[kCopyUnroll];
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) v[u] = src[i + u * stride];
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) dst[i + u * stride] = v[u];
  }
  for (; i < n4; i += stride) dst[i] = src[i];
}
void float4_copy(float* dst, const float* src, std::size_t n) {
  if (n == 0) return;
  const std::size_t n4 = n / 4;
  const unsigned blocks = one_wave_blocks(reinterpret_cast<const void*>(float4_copy_kernel), 256);
  float4_copy_kernel<<<blocks, 256>>>(reinterpret_cast<float4*>(dst), reinterpret_cast<const float4*>(src), n4,
                                      dst + 4 * n4, src + 4 * n4, n - 4 * n4);
  TUTOR_GPU_CHECK_LAUNCH(float4_copy_kernel);
}

// ---- launch overhead -----------------------------------------------------------------------

__global__ void empty_kernel() {}

void empty_kernels(int count) {
  for (int i = 0; i < count; ++i) empty_kernel<<<1, 1>>>();
  TUTOR_GPU_CHECK_LAUNCH(empty_kernel);
}

namespace {
struct KernelGraph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};
}  // namespace

// Stream capture records the launches as graph nodes instead of running them; the legacy
// default stream cannot be captured, so capture uses a stream of its own.
void* capture_empty_kernel_graph(int count) {
  auto* g = new KernelGraph;
  cudaStream_t stream = nullptr;
  TUTOR_GPU_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  TUTOR_GPU_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < count; ++i) empty_kernel<<<1, 1, 0, stream>>>();
  TUTOR_GPU_CHECK_LAUNCH(empty_kernel);
  TUTOR_GPU_CHECK(cudaStreamEndCapture(stream, &g->graph));
  TUTOR_GPU_CHECK(cudaStreamDestroy(stream));
  TUTOR_GPU_CHECK(cudaGraphInstantiate(&g->exec, g->graph, 0));
  return g;
}
void launch_graph(void* graph) {
  TUTOR_GPU_CHECK(cudaGraphLaunch(static_cast<KernelGraph*>(graph)->exec, 0));
}
void destroy_graph(void* graph) {
  auto* g = static_cast<KernelGraph*>(graph);
  if (!g) return;
  if (g->exec) (void)cudaGraphExecDestroy(g->exec);
  if (g->graph) (void)cudaGraphDestroy(g->graph);
  delete g;
}

// ---- the vendor BLAS: cuBLAS -------------------------------------------------------------

using gpu::check_cublas;
using gpu::cublas_handle;

bool blas_available() { return true; }

const char* blas_name(GemmMath math) {
  switch (math) {
    case GemmMath::fp32: return "cublasSgemm, CUBLAS_DEFAULT_MATH (fp32 FMA, no tensor cores)";
    case GemmMath::tf32: return "cublasSgemm, CUBLAS_TF32_TENSOR_OP_MATH (TF32 tensor cores, fp32 accumulation)";
    case GemmMath::bf16: return "cublasGemmEx, bf16 A and B, fp32 C, CUBLAS_COMPUTE_32F (bf16 tensor cores, fp32 accumulation)";
  }
  return "";
}

void gemm(GemmMath math, int m, int n, int k, const void* a, const void* b, void* c) {
  cublasHandle_t h = cublas_handle();
  const float alpha = 1.0f, beta = 0.0f;
  // Row-major C (m x n) = A B is column-major C^T (n x m) = B^T A^T: swap the operands.
  if (math == GemmMath::bf16) {
    check_cublas(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    check_cublas(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16BF, n, a, CUDA_R_16BF, k, &beta, c,
                       CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  } else {
    check_cublas(cublasSetMathMode(h, math == GemmMath::fp32 ? CUBLAS_DEFAULT_MATH : CUBLAS_TF32_TENSOR_OP_MATH),
          "cublasSetMathMode");
    check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, static_cast<const float*>(b), n,
                      static_cast<const float*>(a), k, &beta, static_cast<float*>(c), n),
          "cublasSgemm");
  }
  TUTOR_GPU_CHECK(cudaPeekAtLastError());
}

// ---- device-wide primitives: CUB ---------------------------------------------------------

bool primitives_available() { return true; }

const char* primitives_name() {
  return "CUB (CUDA toolkit): DeviceReduce::Sum, DeviceScan::InclusiveSum, DeviceHistogram::HistogramEven";
}

// A null workspace asks CUB for the size it needs; nothing is launched.
std::size_t sum_workspace_bytes(std::size_t n) {
  std::size_t bytes = 0;
  TUTOR_GPU_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr),
                                         static_cast<float*>(nullptr), item_count(n)));
  return bytes;
}
std::size_t inclusive_scan_workspace_bytes(std::size_t n) {
  std::size_t bytes = 0;
  TUTOR_GPU_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const float*>(nullptr),
                                                static_cast<float*>(nullptr), item_count(n)));
  return bytes;
}
std::size_t histogram_workspace_bytes(std::size_t n, int bins) {
  std::size_t bytes = 0;
  TUTOR_GPU_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const float*>(nullptr),
                                                      static_cast<int*>(nullptr), bins + 1, 0.0f, 1.0f,
                                                      item_count(n)));
  return bytes;
}

void sum(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes) {
  TUTOR_GPU_CHECK(cub::DeviceReduce::Sum(workspace, workspace_bytes, in, out, item_count(n)));
}
void inclusive_scan(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes) {
  TUTOR_GPU_CHECK(cub::DeviceScan::InclusiveSum(workspace, workspace_bytes, in, out, item_count(n)));
}
void histogram_even(const float* in, int* counts, std::size_t n, int bins, float lower, float upper,
                    void* workspace, std::size_t workspace_bytes) {
  // bins + 1 boundaries, evenly spaced from lower to upper.
  TUTOR_GPU_CHECK(cub::DeviceHistogram::HistogramEven(workspace, workspace_bytes, in, counts, bins + 1, lower, upper,
                                                      item_count(n)));
}

}  // namespace tutor::baselines
