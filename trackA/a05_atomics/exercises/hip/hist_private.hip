// A05 exercise 1, hist_private (HIP; CUDA twin: ../cuda/hist_private.cu).
//
// Privatise the histogram: give each block its own copy of the counts in shared memory, count
// into it, and add the copy to the global counts once at the end. Then run
//   ./build/a05_histogram --variant exercise_private --variant shared_private --hot-percent 0,50,100
// The lab verifies it exactly against the host histogram on 1, 33, 1000 and 2^20+7 samples
// (uniform, one bin, Zipf) and on the timed size, and times it beside shared_private, the
// ladder's worked version; until the TODO is done it fails verification (every count is 0).
//
// Hints: `extern __shared__ unsigned local[]` holds `bins` counters (the launcher passes the
// bytes); zero them, __syncthreads(), count with atomicAdd on local[...], __syncthreads() again, then add each
// non-zero counter to `counts`. Why does the one_bin run gain far more than the uniform one?
// The worked solution: ../solutions/hip/hist_private.hip.
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

template <class T>
__global__ void hist_exercise_private(const T* in, int n, int bins, unsigned* counts) {
  extern __shared__ unsigned local[];
  // TODO: zero `bins` counters of local[], count every sample i < n into local[bin_of(in[i], bins)]
  // (grid-stride), then add each non-zero local counter to counts[b] with atomicAdd.
  (void)in; (void)n; (void)bins; (void)counts; (void)local;
}

void launch_exercise_private(const HistogramArgs& a) {
  zero(a);
  const std::size_t smem = sizeof(unsigned) * static_cast<std::size_t>(a.bins);
  if (smem > kSharedBytes) throw gpu::Error("exercise_private: the counts do not fit in 48 KiB; use fewer bins");
  if (a.u8) {
    hist_exercise_private<unsigned char><<<grid_for((const void*)hist_exercise_private<unsigned char>, smem, a.n, 4), kThreads, smem>>>(a.u8, a.n, a.bins, a.counts);
    TUTOR_GPU_CHECK_LAUNCH(hist_exercise_private<unsigned char>);
  } else {
    hist_exercise_private<float><<<grid_for((const void*)hist_exercise_private<float>, smem, a.n, 4), kThreads, smem>>>(a.f32, a.n, a.bins, a.counts);
    TUTOR_GPU_CHECK_LAUNCH(hist_exercise_private<float>);
  }
}

}  // namespace tutor::a05
