// A05 exercise 2, hist_vec (CUDA; HIP twin: ../hip/hist_vec.hip).
//
// Count 8-bit samples 16 at a time: each thread loads one 16-byte vector (uint4) of samples
// and counts its 16 bytes into its warp's own sub-histogram in shared memory. Then run
//   ./build/a05_histogram --variant exercise_vec --variant per_warp --variant per_warp_vec
// The lab verifies it exactly (sizes that are not multiples of 16: the tail must be counted)
// and times it beside per_warp_vec, the worked version; until the TODO is done every count is 0.
// fp32 samples (--dtype f32) take the same path with 4 floats per vector.
//
// Hints: the launcher passes `copies` sub-histograms of `bins` counters (one per warp when they
// fit in 48 KiB, else one); a thread's copy is local + (threadIdx.x / lanes) % copies * bins.
// Loop over n / per vectors grid-stride; count the last n % per samples one by one in one
// block; sum the copies per bin at the end. The worked solution: ../solutions/cuda/hist_vec.cu.
#include "histogram.hpp"
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
  TUTOR_GPU_CHECK(cudaMemsetAsync(a.counts, 0, sizeof(unsigned) * static_cast<std::size_t>(a.bins)));
}
}  // namespace

constexpr int kLanes = 32;

template <class T>
__global__ void hist_exercise_vec(const T* in, int n, int bins, int copies, unsigned* counts) {
  constexpr int kPer = 16 / sizeof(T);  // samples per 16-byte vector
  extern __shared__ unsigned local[];
  // TODO: zero bins * copies counters of local[]; count each 16-byte vector's kPer samples into
  // this thread's copy; count the n % kPer tail in block 0; sum the copies into counts[b].
  (void)in; (void)n; (void)bins; (void)copies; (void)counts; (void)local; (void)kPer; (void)kLanes;
}

void launch_exercise_vec(const HistogramArgs& a) {
  zero(a);
  constexpr int kHostLanes = 32;
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
