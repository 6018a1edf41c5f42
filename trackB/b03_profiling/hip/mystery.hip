// B03 mystery kernels, AMD (HIP). CUDA twin: ../cuda/mystery.cu, same kernels in the same order;
// the lines that differ say why.
//
// Each section says what its kernel computes, not what limits it: finding that out with a
// profiler is the exercise (exercises/README.md; the answer key is in exercises/solutions/).
// Every kernel is correct at any size, except one, on purpose: one of them has a bug that
// verification catches only on some runs. Finding it is an exercise too.
#include "mystery.hpp"
#include "tutor/device/block_reduce.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b03 {

namespace {
constexpr int kThreads = 256;  // a multiple of 64: whole wavefronts on AMD and whole warps on NVIDIA

// Enough blocks to keep every SM busy; the grid-stride loops cover any n.
unsigned resident_grid(std::size_t work_items) {
  int device = 0, sms = 0;
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device));
  const std::size_t wanted = work_items / kThreads + 1;
  const std::size_t most = static_cast<std::size_t>(sms) * 8;
  return static_cast<unsigned>(wanted < most ? wanted : most);
}
}  // namespace

// ---- Step 1: mystery_1 ---------------------------------------------------------------------
// out = x + alpha * r: four elements per thread and step as 16-byte vectors, the n % 4 tail
// element by element.
__global__ void mystery_1(const float* x, const float* r, float* out, std::size_t n, float alpha) {
  const std::size_t n4 = n / 4, stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  const float4* r4 = reinterpret_cast<const float4*>(r);
  float4* out4 = reinterpret_cast<float4*>(out);
  for (std::size_t i = first; i < n4; i += stride) {
    const float4 a = x4[i], b = r4[i];
    out4[i] = make_float4(fmaf(alpha, b.x, a.x), fmaf(alpha, b.y, a.y), fmaf(alpha, b.z, a.z), fmaf(alpha, b.w, a.w));
  }
  for (std::size_t i = 4 * n4 + first; i < n; i += stride) out[i] = fmaf(alpha, r[i], x[i]);
}
void launch_mystery_1(const float* x, const float* r, float* out, std::size_t n, float alpha) {
  mystery_1<<<resident_grid(n / 4), kThreads>>>(x, r, out, n, alpha);
  TUTOR_GPU_CHECK_LAUNCH(mystery_1);
}

// ---- Step 2: mystery_2 ---------------------------------------------------------------------
// y = p(x / 2) by Horner's rule, the coefficients compiled in: four elements per thread and
// step (one 16-byte vector), the n % 4 tail element by element.
__device__ __forceinline__ float horner(float x) {
  const float t = 0.5f * x;
  float y = poly_coefficient(0);
#pragma unroll
  for (int k = 1; k <= kPolyDegree; ++k) y = fmaf(y, t, poly_coefficient(k));
  return y;
}
__global__ void mystery_2(const float* x, float* y, std::size_t n) {
  const std::size_t n4 = n / 4, stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float4* y4 = reinterpret_cast<float4*>(y);
  for (std::size_t i = first; i < n4; i += stride) {
    const float4 v = x4[i];
    y4[i] = make_float4(horner(v.x), horner(v.y), horner(v.z), horner(v.w));
  }
  for (std::size_t i = 4 * n4 + first; i < n; i += stride) y[i] = horner(x[i]);
}
void launch_mystery_2(const float* x, float* y, std::size_t n) {
  mystery_2<<<resident_grid(n / 4), kThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(mystery_2);
}

// ---- Step 3: mystery_3 ---------------------------------------------------------------------
// sums[r] = the sum of row r: one block per row; each thread adds every kThreads-th element of
// the row, then the block adds its threads' partial sums.
__global__ void mystery_3(const float* a, float* sums, int cols) {
  __shared__ float partials[device::kMaxWarpsPerBlock];
  const float* row = a + std::size_t(blockIdx.x) * cols;
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += row[c];
  sum = device::block_reduce_sum(sum, partials);
  if (threadIdx.x == 0) sums[blockIdx.x] = sum;
}
void launch_mystery_3(const float* a, float* sums, int rows, int cols) {
  mystery_3<<<rows, kThreads>>>(a, sums, cols);
  TUTOR_GPU_CHECK_LAUNCH(mystery_3);
}

// ---- Step 4: mystery_4 ---------------------------------------------------------------------
// One block of kGroup x kGroup threads per group of kGroup rows: the group is staged in shared
// memory, then thread (r, c) takes the dot product of rows r and c of the group.
__global__ void mystery_4(const float* x, float* g, int rows) {
  __shared__ float group[kGroup][kGroup];
  const int r = threadIdx.y, c = threadIdx.x;
  const int first = blockIdx.x * kGroup;
  group[r][c] = first + r < rows ? x[std::size_t(first + r) * kGroup + c] : 0.0f;
  __syncthreads();
  float score = 0.0f;
#pragma unroll
  for (int k = 0; k < kGroup; ++k) score = fmaf(group[r][k], group[c][k], score);
  if (first + r < rows) g[std::size_t(first + r) * kGroup + c] = score;
}
void launch_mystery_4(const float* x, float* g, int rows) {
  const unsigned groups = static_cast<unsigned>(rows / kGroup + (rows % kGroup != 0));
  mystery_4<<<groups, dim3(kGroup, kGroup)>>>(x, g, rows);
  TUTOR_GPU_CHECK_LAUNCH(mystery_4);
}

// ---- Step 5: mystery_5 ---------------------------------------------------------------------
// out = a * (strided view of x) + b, one output element per thread and step: its coordinates
// from its flat index, dimension by dimension, then the input offset from them.
__global__ void mystery_5(const float* x, float* out, StridedView view, std::int64_t n, float a, float b) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    std::int64_t rest = i, offset = 0;
#pragma unroll
    for (int d = kViewDims - 1; d >= 0; --d) {
      offset += (rest % view.size[d]) * view.stride[d];
      rest /= view.size[d];
    }
    out[i] = fmaf(a, x[offset], b);
  }
}
void launch_mystery_5(const float* x, float* out, const StridedView& view, float a, float b) {
  std::int64_t n = 1;
  for (int d = 0; d < kViewDims; ++d) n *= view.size[d];
  mystery_5<<<resident_grid(static_cast<std::size_t>(n)), kThreads>>>(x, out, view, n, a, b);
  TUTOR_GPU_CHECK_LAUNCH(mystery_5);
}

// ---- Step 6: mystery_6 ---------------------------------------------------------------------
// y = w0 x[i-1] + w1 x[i] + w2 x[i+1]: each block stages its kThreads elements and the two
// neighbours beyond them in shared memory. The last tile, usually partial, takes its own path.
__global__ void mystery_6(const float* x, float* y, int n) {
  __shared__ float tile[kThreads + 2];
  const int first = blockIdx.x * kThreads, t = threadIdx.x, i = first + t;
  if (first + kThreads <= n) {  // a full tile
    tile[t + 1] = x[i];
    if (t == 0) tile[0] = first > 0 ? x[first - 1] : 0.0f;
    if (t == kThreads - 1) tile[kThreads + 1] = i + 1 < n ? x[i + 1] : 0.0f;
    __syncthreads();
    y[i] = kSmoothW0 * tile[t] + kSmoothW1 * tile[t + 1] + kSmoothW2 * tile[t + 2];
  } else {  // the last tile: fewer than kThreads elements, the rest of the tile reads as zero
    tile[t + 1] = i < n ? x[i] : 0.0f;
    if (t == 0) tile[0] = first > 0 ? x[first - 1] : 0.0f;
    __builtin_amdgcn_wave_barrier();  // ROCm 5.2 has no __syncwarp; a wavefront (64 lanes) runs in lockstep
    if (i < n) y[i] = kSmoothW0 * tile[t] + kSmoothW1 * tile[t + 1] + kSmoothW2 * tile[t + 2];
  }
}
void launch_mystery_6(const float* x, float* y, int n) {
  mystery_6<<<static_cast<unsigned>(n / kThreads + (n % kThreads != 0)), kThreads>>>(x, y, n);
  TUTOR_GPU_CHECK_LAUNCH(mystery_6);
}

}  // namespace tutor::b03
