// A05 histogram ladder, AMD (HIP). CUDA twin: ../cuda/histogram.cu, same kernels in the
// same order; lines that differ say why. Counts n samples (8-bit or fp32) into `bins` even bins (histogram.hpp).
//
// Atomics in one sentence: an atomic add to one address is serialised where that address
// lives (an L2 slice for global memory, a bank for shared memory), so the cost of a histogram
// is set by how many threads hit the same counter at once: the contention, not the size.
#include <hip/hip_runtime.h>

#if defined(TUTOR_HAVE_ROCPRIM)
#include <rocprim/rocprim.hpp>
#endif

#include "histogram.hpp"
#include "tutor/device/portability.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a05 {

// Declared in histogram.hpp (the exercises size their grids with it too): enough blocks to fill
// the GPU once (occupancy x SMs), no more than the samples need.
unsigned grid_for(const void* kernel, std::size_t smem, int n, int per_thread) {
  int device = 0, sms = 0, per_sm = 0;
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device));
  TUTOR_GPU_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem));
  const long long need = (static_cast<long long>(n) + kThreads * per_thread - 1) / (kThreads * per_thread);
  const long long wave = static_cast<long long>(sms) * (per_sm > 0 ? per_sm : 1);
  return static_cast<unsigned>(need < wave ? (need > 0 ? need : 1) : wave);
}

namespace {
// Host code sizes the per-wavefront copies for 64 lanes (CDNA); device code takes its wavefront
// from the compiler (kWarpLanes) and folds wider counts onto the copies that exist (% copies).
constexpr int kWarps = kThreads / 64;
using device::kWarpLanes;

// The binning rule of histogram.hpp (the host reference uses the same expressions).
__device__ __forceinline__ int bin_of(unsigned char s, int bins) { return (int(s) * bins) >> 8; }
__device__ __forceinline__ int bin_of(float s, int bins) {
  const int b = int(s * float(bins));
  return b < bins ? b : bins - 1;
}


void zero_counts(const HistogramArgs& a) {
  TUTOR_GPU_CHECK(hipMemsetAsync(a.counts, 0, sizeof(unsigned) * static_cast<std::size_t>(a.bins)));
}

// Adds a block's private counts into the global histogram (only non-zero ones: most of a
// 65,536-bin copy stays empty on small inputs).
__device__ void flush(const unsigned* local, unsigned* counts, int bins, int copies, int stride) {
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned sum = 0;
    for (int c = 0; c < copies; ++c) sum += local[c * stride + b];
    if (sum) atomicAdd(&counts[b], sum);
  }
}
}  // namespace

// ---- Step 1: global_atomics ---------------------------------------------------------------
// One atomicAdd to global memory per sample. Uniform data spreads the adds over all counters;
// one hot bin makes every add in the GPU queue at one address in one L2 slice.
template <class T>
__global__ void hist_global(const T* in, int n, int bins, unsigned* counts) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&counts[bin_of(in[i], bins)], 1u);
}
template <class T>
void global_atomics(const T* in, const HistogramArgs& a) {
  hist_global<T><<<grid_for((const void*)hist_global<T>, 0, a.n, 4), kThreads>>>(in, a.n, a.bins, a.counts);
  TUTOR_GPU_CHECK_LAUNCH(hist_global<T>);
}
void launch_global_atomics(const HistogramArgs& a) {
  zero_counts(a);
  a.u8 ? global_atomics(a.u8, a) : global_atomics(a.f32, a);
}

// ---- Step 2: shared_private ---------------------------------------------------------------
// Privatisation: each block counts into its own copy in shared memory (atomics there are
// served by the SM, not L2), then adds its copy to the global counts once. Contention is now
// among one block's threads, and the global adds drop from n to blocks x bins.
template <class T>
__global__ void hist_shared(const T* in, int n, int bins, unsigned* counts) {
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[bin_of(in[i], bins)], 1u);
  __syncthreads();
  flush(local, counts, bins, 1, bins);
}
template <class T>
void shared_private(const T* in, const HistogramArgs& a) {
  const std::size_t smem = sizeof(unsigned) * static_cast<std::size_t>(a.bins);
  if (smem > kSharedBytes) return global_atomics(in, a);  // does not fit: global memory
  hist_shared<T><<<grid_for((const void*)hist_shared<T>, smem, a.n, 4), kThreads, smem>>>(in, a.n, a.bins, a.counts);
  TUTOR_GPU_CHECK_LAUNCH(hist_shared<T>);
}
void launch_shared_private(const HistogramArgs& a) {
  zero_counts(a);
  a.u8 ? shared_private(a.u8, a) : shared_private(a.f32, a);
}

// ---- Step 3: warp_aggregated --------------------------------------------------------------
// Lanes of a wavefront that hold the same bin elect one leader, which adds the group's size.
// AMD has no match_any: each round the lowest unfinished lane broadcasts its bin, its peers
// vote (__ballot) and drop out, so a round per distinct bin in the wavefront. All 64 lanes in
// one bin become one atomic; uniform data pays up to 64 rounds for little gain.
template <class T>
__global__ void hist_aggregated(const T* in, int n, int bins, unsigned* counts) {
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const int lane = device::lane_index();
  // Whole warps iterate together (the loop bound is rounded up) so every lane reaches the match.
  const int stride = gridDim.x * blockDim.x;
  const int rounded = (n + stride - 1) / stride * stride;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rounded; i += stride) {
    const bool valid = i < n;
    const int bin = valid ? bin_of(in[i], bins) : -1;
    bool done = !valid;
    for (;;) {
      const unsigned long long pending = __ballot(!done);
      if (pending == 0) break;
      const int leader = __ffsll(pending) - 1;
      const int leader_bin = __shfl(bin, leader);
      const unsigned long long peers = __ballot(!done && bin == leader_bin);
      if (lane == leader) atomicAdd(&local[leader_bin], static_cast<unsigned>(__popcll(peers)));
      done = done || bin == leader_bin;
    }
  }
  __syncthreads();
  flush(local, counts, bins, 1, bins);
}
template <class T>
void warp_aggregated(const T* in, const HistogramArgs& a) {
  const std::size_t smem = sizeof(unsigned) * static_cast<std::size_t>(a.bins);
  if (smem > kSharedBytes) return global_atomics(in, a);
  hist_aggregated<T><<<grid_for((const void*)hist_aggregated<T>, smem, a.n, 4), kThreads, smem>>>(in, a.n, a.bins,
                                                                                                   a.counts);
  TUTOR_GPU_CHECK_LAUNCH(hist_aggregated<T>);
}
void launch_warp_aggregated(const HistogramArgs& a) {
  zero_counts(a);
  a.u8 ? warp_aggregated(a.u8, a) : warp_aggregated(a.f32, a);
}

// ---- Step 4: per_warp ---------------------------------------------------------------------
// One sub-histogram per warp in shared memory: only the 32 lanes of a warp can collide on a
// counter, and the copies are summed once at the end. Needs kWarps x bins counters; where
// they do not fit, one block-wide copy (step 2's layout).
template <class T>
__global__ void hist_per_warp(const T* in, int n, int bins, int copies, unsigned* counts) {
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < bins * copies; b += blockDim.x) local[b] = 0;
  __syncthreads();
  unsigned* mine = local + (threadIdx.x / kWarpLanes) % copies * bins;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&mine[bin_of(in[i], bins)], 1u);
  __syncthreads();
  flush(local, counts, bins, copies, bins);
}
int copies_for(int bins) {
  const std::size_t one = sizeof(unsigned) * static_cast<std::size_t>(bins);
  return one * kWarps <= kSharedBytes ? kWarps : 1;
}
template <class T>
void per_warp(const T* in, const HistogramArgs& a) {
  const int copies = copies_for(a.bins);
  const std::size_t smem = sizeof(unsigned) * static_cast<std::size_t>(a.bins) * copies;
  if (smem > kSharedBytes) return global_atomics(in, a);
  hist_per_warp<T><<<grid_for((const void*)hist_per_warp<T>, smem, a.n, 4), kThreads, smem>>>(in, a.n, a.bins, copies,
                                                                                             a.counts);
  TUTOR_GPU_CHECK_LAUNCH(hist_per_warp<T>);
}
void launch_per_warp(const HistogramArgs& a) {
  zero_counts(a);
  a.u8 ? per_warp(a.u8, a) : per_warp(a.f32, a);
}

// ---- Step 5: per_warp_vec -----------------------------------------------------------------
// Step 4 reading 16 bytes per load (16 8-bit samples or 4 floats): fewer load instructions
// in flight per byte, so the counting, not the issue of loads, sets the pace. The tail (n not
// a multiple of the vector) is counted one sample at a time by the first block.
template <class T>
__global__ void hist_per_warp_vec(const T* in, int n, int bins, int copies, unsigned* counts) {
  constexpr int kPer = 16 / sizeof(T);
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < bins * copies; b += blockDim.x) local[b] = 0;
  __syncthreads();
  unsigned* mine = local + (threadIdx.x / kWarpLanes) % copies * bins;
  const int vectors = n / kPer;
  const uint4* vin = reinterpret_cast<const uint4*>(in);
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < vectors; v += gridDim.x * blockDim.x) {
    const uint4 raw = vin[v];
    const T* s = reinterpret_cast<const T*>(&raw);
#pragma unroll
    for (int k = 0; k < kPer; ++k) atomicAdd(&mine[bin_of(s[k], bins)], 1u);
  }
  if (blockIdx.x == 0)
    for (int i = vectors * kPer + threadIdx.x; i < n; i += blockDim.x) atomicAdd(&mine[bin_of(in[i], bins)], 1u);
  __syncthreads();
  flush(local, counts, bins, copies, bins);
}
template <class T>
void per_warp_vec(const T* in, const HistogramArgs& a) {
  const int copies = copies_for(a.bins);
  const std::size_t smem = sizeof(unsigned) * static_cast<std::size_t>(a.bins) * copies;
  if (smem > kSharedBytes) return global_atomics(in, a);
  const int per = 16 / static_cast<int>(sizeof(T));
  hist_per_warp_vec<T><<<grid_for((const void*)hist_per_warp_vec<T>, smem, a.n, per), kThreads, smem>>>(
      in, a.n, a.bins, copies, a.counts);
  TUTOR_GPU_CHECK_LAUNCH(hist_per_warp_vec<T>);
}
void launch_per_warp_vec(const HistogramArgs& a) {
  zero_counts(a);
  a.u8 ? per_warp_vec(a.u8, a) : per_warp_vec(a.f32, a);
}

// ---- Reference: rocPRIM histogram_even ---------------------------------------------------
// bins + 1 even levels over [0, 256) for 8-bit samples (integer levels) or [0, 1) for fp32.
// rocPRIM zeroes the counts itself. A null workspace asks for the size and launches nothing.
#if defined(TUTOR_HAVE_ROCPRIM)
namespace {
hipError_t rocprim_histogram(void* ws, std::size_t& bytes, const HistogramArgs& a) {
  const unsigned n = static_cast<unsigned>(a.n), levels = static_cast<unsigned>(a.bins + 1);
  if (a.u8) return rocprim::histogram_even(ws, bytes, a.u8, n, a.counts, levels, 0, 256);
  return rocprim::histogram_even(ws, bytes, a.f32, n, a.counts, levels, 0.0f, 1.0f);
}
}  // namespace
std::size_t vendor_workspace_bytes(const HistogramArgs& a) {
  std::size_t bytes = 0;
  TUTOR_GPU_CHECK(rocprim_histogram(nullptr, bytes, a));
  return bytes;
}
void launch_vendor(const HistogramArgs& a) {
  std::size_t bytes = a.workspace_bytes;
  TUTOR_GPU_CHECK(rocprim_histogram(a.workspace, bytes, a));
}
#else  // no rocPRIM at configure time: the vendor row fails with the reason
std::size_t vendor_workspace_bytes(const HistogramArgs&) { return 0; }
void launch_vendor(const HistogramArgs&) {
  throw gpu::Error("no rocPRIM in this HIP build (librocprim-dev not found at configure time)");
}
#endif

}  // namespace tutor::a05
