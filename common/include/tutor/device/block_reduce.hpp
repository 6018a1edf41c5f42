#pragma once
// Block all-reduce built on the warp butterfly: each warp reduces its lanes (warp_reduce),
// lane 0 of each warp writes the warp's result to shared memory, and after a barrier every
// thread folds those partial results in warp order. How many partials there are depends on
// the vendor: a block of 256 threads is 8 warps of 32 lanes on NVIDIA, 4 wavefronts of 64
// lanes on AMD CDNA.
//
// The second stage is a sequential fold that every thread does for itself, not a second
// shuffle round: at most kMaxWarpsPerBlock shared-memory reads, each a broadcast (all lanes
// read one address, no bank conflict), it needs no identity element for the lanes past the
// last warp, and every thread evaluates the same expression, so all get bit-identical results.
#include "tutor/device/ceil_div.hpp"
#include "tutor/device/portability.hpp"
#include "tutor/device/warp_reduce.hpp"

namespace tutor::device {

// 1024 threads per block is the limit on NVIDIA (CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability") and on AMD (HIP's maxThreadsPerBlock), and 32
// is the smallest lane count, so a scratch array of 32 partials serves any block on either.
inline constexpr int kMaxThreadsPerBlock = 1024;
inline constexpr int kMaxWarpsPerBlock = kMaxThreadsPerBlock / 32;

// Warps (wavefronts) in a block of `threads` threads; the last one is partial when threads is
// not a multiple of lanes.
TUTOR_HOST_DEVICE constexpr int warps_in_block(int threads, int lanes) { return ceil_div(threads, lanes); }

// op folded over partials[0..count) left to right; count >= 1.
template <class T, class Op>
TUTOR_HOST_DEVICE T combine_partials(const T* partials, int count, Op op) {
  T total = partials[0];
  for (int w = 1; w < count; ++w) total = op(total, partials[w]);
  return total;
}

#if TUTOR_GPU_COMPILER
// Every thread of the block gets op over all threads' values. Every thread must call it (it
// holds barriers), and the block's thread count must be a multiple of kWarpLanes, so that no
// warp has missing lanes (multiples of 64 suit both vendors). `scratch` points to shared
// memory for kMaxWarpsPerBlock values of T; it is free again when the call returns (a second
// barrier waits until every thread has read it), so consecutive calls may share it.
template <class T, class Op>
TUTOR_DEVICE T block_reduce(T value, Op op, T* scratch) {
  const int thread = linear_thread_index();
  value = warp_reduce(value, op);
  if (thread % kWarpLanes == 0) scratch[thread / kWarpLanes] = value;
  __syncthreads();
  value = combine_partials(scratch, warps_in_block(threads_in_block(), kWarpLanes), op);
  __syncthreads();
  return value;
}

template <class T>
TUTOR_DEVICE T block_reduce_sum(T value, T* scratch) { return block_reduce(value, Sum{}, scratch); }

template <class T>
TUTOR_DEVICE T block_reduce_max(T value, T* scratch) { return block_reduce(value, Max{}, scratch); }
#endif

}  // namespace tutor::device
