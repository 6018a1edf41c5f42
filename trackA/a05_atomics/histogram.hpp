#pragma once
// A05 Atomics and histograms: the histogram ladder's interface (host-only types).
//
// Every step counts n samples into `bins` even bins and writes the counts (unsigned 32-bit)
// to `counts`, zeroing them first: the launch is the whole operation, as the vendor's is.
//   8-bit samples (image-like): bin = (sample * bins) / 256, bins a power of two 16..256.
//   fp32 samples in [0, 1):     bin = int(sample * float(bins)), bins 16..65,536.
// (histogram_reference.hpp says it once for the host; the kernels use the same expressions.)
// The launchers live in cuda/histogram.cu and hip/histogram.hip (same names, same order).
// Kernel files include this header, so it stays C++17 (GPU sources compile as C++17).
#include <cstddef>

namespace tutor::a05 {

/// One launch's operands. Exactly one of u8 / f32 is non-null (device pointers from
/// cudaMalloc / hipMalloc, 256-byte aligned).
struct HistogramArgs {
  const unsigned char* u8 = nullptr;
  const float* f32 = nullptr;
  int n = 0;                        ///< samples, >= 1
  int bins = 0;                     ///< 16 .. 65,536
  unsigned* counts = nullptr;       ///< `bins` counters
  void* workspace = nullptr;        ///< the vendor step's scratch (vendor_workspace_bytes)
  std::size_t workspace_bytes = 0;
};

using HistogramLauncher = void (*)(const HistogramArgs&);

void launch_global_atomics(const HistogramArgs& a);
void launch_shared_private(const HistogramArgs& a);
void launch_warp_aggregated(const HistogramArgs& a);
void launch_per_warp(const HistogramArgs& a);
void launch_per_warp_vec(const HistogramArgs& a);
/// The learner's exercises (exercises/cuda|hip/, worked solutions in exercises/solutions/):
/// TODO kernels the driver runs only when named (--variant exercise_private, exercise_vec).
void launch_exercise_private(const HistogramArgs& a);
void launch_exercise_vec(const HistogramArgs& a);
/// CUB's DeviceHistogram::HistogramEven (NVIDIA) / rocPRIM's histogram_even (AMD).
void launch_vendor(const HistogramArgs& a);
/// The scratch bytes launch_vendor needs for these operands (a null-workspace query).
std::size_t vendor_workspace_bytes(const HistogramArgs& a);

/// Shared-memory bytes a block may use without opting in; privatised steps fall back to
/// global atomics (shared_private, warp_aggregated) or to one block-wide copy (per_warp)
/// when their copies do not fit.
constexpr std::size_t kSharedBytes = 48 * 1024;
constexpr int kThreads = 256;  ///< threads per block in every step

/// Blocks for a grid-stride launch of `kernel` (kThreads threads, `smem` dynamic shared bytes)
/// over n samples, per_thread each: enough to fill the GPU once (occupancy x SMs), no more than
/// the samples need. Every step and exercise launcher sizes its grid with it.
unsigned grid_for(const void* kernel, std::size_t smem, int n, int per_thread);

}  // namespace tutor::a05
