// A05 exercise 2, hist_vec: the worked solution (HIP; CUDA twin: ../cuda/hist_vec.cu).
//
// Count 8-bit samples 16 at a time: each thread loads one 16-byte vector (uint4) of samples
// and counts its 16 bytes into its wavefront's own sub-histogram in shared memory. Then run
//   ./build/a05_histogram --variant exercise_vec --variant per_warp --variant per_warp_vec
// The lab verifies it exactly (sizes that are not multiples of 16: the tail must be counted)
// and times it beside per_warp_vec, the worked version; until the TODO is done every count is 0.
// fp32 samples (--dtype f32) take the same path with 4 floats per vector.
//
// Hints: the launcher passes `copies` sub-histograms of `bins` counters (one per wavefront when they
// fit in 48 KiB, else one); a thread's copy is local + (threadIdx.x / lanes) % copies * bins.
// Loop over n / per vectors grid-stride; count the last n % per samples one by one in one
// block; sum the copies per bin at the end. The worked solution: ../solutions/hip/hist_vec.hip.
#include <hip/hip_runtime.h>

#include "histogram.hpp"
#include "tutor/device/portability.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a05 {

// The binning rule of histogram.hpp (the ladder's kernels use the same expressions).
__device__ __forceinline__ int bin_of(unsigned char s, int bins) { return (int(s) * bins) >> 8; }
__device__ __forceinline__ int bin_of(float s, int bins) {
  const int b = int(s * float(bins));
  return b < bins ? b : bins - 1;
}

namespace {
void zero(const HistogramArgs& a) {
  TUTOR_GPU_CHECK(hipMemsetAsync(a.counts, 0, sizeof(unsigned) * static_cast<std::size_t>(a.bins)));
}
}  // namespace

constexpr int kLanes = device::kWarpLanes;  // 64 on CDNA, from the compiler

template <class T>
__global__ void hist_exercise_vec(const T* in, int n, int bins, int copies, unsigned* counts) {
  constexpr int kPer = 16 / sizeof(T);  // samples per 16-byte vector
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < bins * copies; b += blockDim.x) local[b] = 0;
  __syncthreads();
  unsigned* mine = local + (threadIdx.x / kLanes) % copies * bins;  // this wavefront's copy
  const int vectors = n / kPer;
  const uint4* vin = reinterpret_cast<const uint4*>(in);  // hipMalloc'd: 16-byte aligned
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < vectors; v += gridDim.x * blockDim.x) {
    const uint4 raw = vin[v];  // one 16-byte load, kPer samples
    const T* s = reinterpret_cast<const T*>(&raw);
    for (int k = 0; k < kPer; ++k) atomicAdd(&mine[bin_of(s[k], bins)], 1u);
  }
  if (blockIdx.x == 0)  // the tail: fewer than kPer samples
    for (int i = vectors * kPer + threadIdx.x; i < n; i += blockDim.x) atomicAdd(&mine[bin_of(in[i], bins)], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned sum = 0;
    for (int c = 0; c < copies; ++c) sum += local[c * bins + b];
    if (sum) atomicAdd(&counts[b], sum);
  }
}

void launch_exercise_vec(const HistogramArgs& a) {
  zero(a);
  constexpr int kHostLanes = 64;  // host code sizes copies for a 64-lane wavefront
  const std::size_t one = sizeof(unsigned) * static_cast<std::size_t>(a.bins);
  const int copies = one * (kThreads / kHostLanes) <= kSharedBytes ? kThreads / kHostLanes : 1;
  const std::size_t smem = one * copies;
  if (smem > kSharedBytes) throw gpu::Error("exercise_vec: the counts do not fit in 48 KiB; use fewer bins");
  if (a.u8) {
    hist_exercise_vec<unsigned char><<<grid_for((const void*)hist_exercise_vec<unsigned char>, smem, a.n, 16), kThreads, smem>>>(a.u8, a.n, a.bins, copies, a.counts);
    TUTOR_GPU_CHECK_LAUNCH(hist_exercise_vec<unsigned char>);
  } else {
    hist_exercise_vec<float><<<grid_for((const void*)hist_exercise_vec<float>, smem, a.n, 4), kThreads, smem>>>(a.f32, a.n, a.bins, copies, a.counts);
    TUTOR_GPU_CHECK_LAUNCH(hist_exercise_vec<float>);
  }
}

}  // namespace tutor::a05
