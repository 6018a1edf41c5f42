// tutor_baselines on AMD: the HIP runtime, and rocPRIM where it was found at configure time,
// enqueued on the default stream. The host driver (../tutor_baselines.cpp) times and checks
// everything. CUDA twin: ../cuda/baselines.cu (same functions, same order).
#include <hip/hip_bfloat16.h>
#include <hip/hip_runtime.h>

#include <climits>
#include <string>

#if defined(TUTOR_HAVE_ROCPRIM)
#include <rocprim/rocprim.hpp>
#endif

#include "baselines.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::baselines {

namespace {
// The CU count and how many blocks of `threads` fit on one CU, for a one-wave grid.
unsigned one_wave_blocks(const void* kernel, int threads) {
  int device = 0, sms = 0, per_sm = 0;
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device));
  TUTOR_GPU_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return static_cast<unsigned>(sms * (per_sm > 0 ? per_sm : 1));
}

// rocPRIM's histogram takes an unsigned int count; the driver caps inputs at 2^30.
[[maybe_unused]] int item_count(std::size_t n) {
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

// HIP 5.2 has no __float2bfloat16_rn; hip_bfloat16's float constructor rounds to nearest even.
__global__ void round_to_bf16_kernel(const float* in, std::uint16_t* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = hip_bfloat16(in[i]).data;
}
void round_to_bf16(const float* in, std::uint16_t* out, std::size_t n) {
  if (n == 0) return;
  const unsigned blocks = one_wave_blocks(reinterpret_cast<const void*>(round_to_bf16_kernel), 256);
  round_to_bf16_kernel<<<blocks, 256>>>(in, out, n);
  TUTOR_GPU_CHECK_LAUNCH(round_to_bf16_kernel);
}

// ---- memory ------------------------------------------------------------------------------

void runtime_copy(void* dst, const void* src, std::size_t bytes) {
  TUTOR_GPU_CHECK(hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, 0));
}

// Four independent 16-byte loads per thread before any store: enough bytes in flight per CU
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
  hipGraph_t graph = nullptr;
  hipGraphExec_t exec = nullptr;
};
}  // namespace

// Stream capture records the launches as graph nodes instead of running them; the null
// stream cannot be captured, so capture uses a stream of its own.
void* capture_empty_kernel_graph(int count) {
  auto* g = new KernelGraph;
  hipStream_t stream = nullptr;
  TUTOR_GPU_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
  TUTOR_GPU_CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeThreadLocal));
  for (int i = 0; i < count; ++i) empty_kernel<<<1, 1, 0, stream>>>();
  TUTOR_GPU_CHECK_LAUNCH(empty_kernel);
  TUTOR_GPU_CHECK(hipStreamEndCapture(stream, &g->graph));
  TUTOR_GPU_CHECK(hipStreamDestroy(stream));
  // HIP 5.2 keeps the CUDA 11 signature: error node and log buffer (unused here).
  TUTOR_GPU_CHECK(hipGraphInstantiate(&g->exec, g->graph, nullptr, nullptr, 0));
  return g;
}
void launch_graph(void* graph) {
  TUTOR_GPU_CHECK(hipGraphLaunch(static_cast<KernelGraph*>(graph)->exec, 0));
}
void destroy_graph(void* graph) {
  auto* g = static_cast<KernelGraph*>(graph);
  if (!g) return;
  if (g->exec) (void)hipGraphExecDestroy(g->exec);
  if (g->graph) (void)hipGraphDestroy(g->graph);
  delete g;
}

// ---- the vendor BLAS: none in this build ---------------------------------------------------

// AMD's counterparts of cuBLAS are rocBLAS (rocblas_sgemm, rocblas_gemm_ex with bf16 inputs) and
// hipBLAS; Debian 12, where this project's HIP build is checked, packages neither, so the GEMM
// rows say so instead of inventing a number.
bool blas_available() { return false; }

const char* blas_name(GemmMath) {
  return "no vendor BLAS in this HIP build (rocBLAS/hipBLAS not installed)";
}

void gemm(GemmMath, int, int, int, const void*, const void*, void*) {
  throw gpu::Error("tutor_baselines: this HIP build has no rocBLAS or hipBLAS");
}

// ---- device-wide primitives: rocPRIM where found --------------------------------------------

#if defined(TUTOR_HAVE_ROCPRIM)

bool primitives_available() { return true; }

const char* primitives_name() { return "rocPRIM: reduce, inclusive_scan, histogram_even"; }

// A null workspace asks rocPRIM for the size it needs; nothing is launched.
std::size_t sum_workspace_bytes(std::size_t n) {
  std::size_t bytes = 0;
  TUTOR_GPU_CHECK(rocprim::reduce(nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr), n));
  return bytes;
}
std::size_t inclusive_scan_workspace_bytes(std::size_t n) {
  std::size_t bytes = 0;
  TUTOR_GPU_CHECK(rocprim::inclusive_scan(nullptr, bytes, static_cast<const float*>(nullptr),
                                          static_cast<float*>(nullptr), n));
  return bytes;
}
std::size_t histogram_workspace_bytes(std::size_t n, int bins) {
  std::size_t bytes = 0;
  TUTOR_GPU_CHECK(rocprim::histogram_even(nullptr, bytes, static_cast<const float*>(nullptr),
                                          static_cast<unsigned>(item_count(n)), static_cast<int*>(nullptr),
                                          static_cast<unsigned>(bins + 1), 0.0f, 1.0f));
  return bytes;
}

void sum(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes) {
  TUTOR_GPU_CHECK(rocprim::reduce(workspace, workspace_bytes, in, out, n));
}
void inclusive_scan(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes) {
  TUTOR_GPU_CHECK(rocprim::inclusive_scan(workspace, workspace_bytes, in, out, n));
}
void histogram_even(const float* in, int* counts, std::size_t n, int bins, float lower, float upper,
                    void* workspace, std::size_t workspace_bytes) {
  // bins + 1 boundaries, evenly spaced from lower to upper.
  TUTOR_GPU_CHECK(rocprim::histogram_even(workspace, workspace_bytes, in, static_cast<unsigned>(item_count(n)), counts,
                                          static_cast<unsigned>(bins + 1), lower, upper));
}

#else  // no rocPRIM: the primitive rows are reported as not available

bool primitives_available() { return false; }

const char* primitives_name() {
  return "no rocPRIM in this HIP build (librocprim-dev not found at configure time)";
}

std::size_t sum_workspace_bytes(std::size_t) { return 0; }
std::size_t inclusive_scan_workspace_bytes(std::size_t) { return 0; }
std::size_t histogram_workspace_bytes(std::size_t, int) { return 0; }

void sum(const float*, float*, std::size_t, void*, std::size_t) {
  throw gpu::Error("tutor_baselines: this HIP build has no rocPRIM");
}
void inclusive_scan(const float*, float*, std::size_t, void*, std::size_t) {
  throw gpu::Error("tutor_baselines: this HIP build has no rocPRIM");
}
void histogram_even(const float*, int*, std::size_t, int, float, float, void*, std::size_t) {
  throw gpu::Error("tutor_baselines: this HIP build has no rocPRIM");
}

#endif

}  // namespace tutor::baselines
