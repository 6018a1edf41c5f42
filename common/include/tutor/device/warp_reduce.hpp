#pragma once
// Warp (NVIDIA, 32 lanes) / wavefront (AMD, 64 lanes on CDNA) all-reduce by the butterfly
// pattern: every lane ends with the reduction of all lanes' values, in log2(lanes) shuffle
// steps and without shared memory.
//
// The butterfly is written once, as a template over the lane count and over two functions:
// `exchange` (fetch the partner lane's value) and `combine`. On the device the value is one
// lane's register and `exchange` is the vendor's xor shuffle (warp_reduce below); on the host
// the value is the whole warp's register, one entry per lane, and `exchange` permutes it, so
// a test runs the same loop with every lane in lock-step (tutor/device/lane_simulator.hpp).
//
// Step with lane_mask m (m = 1, 2, 4, ..., lanes / 2): lane l combines its value with lane
// l ^ m's. Before the step every aligned group of m lanes holds its group's reduction; after
// it, every aligned group of 2m lanes does. The lower-numbered lane's value is always the left
// operand (combine_in_lane_order), so both partners compute the same expression: every lane
// ends with bit-identical results even for an operation whose floating-point result depends
// on operand order (a Welford merge), and an associative but non-commutative operation
// reduces in lane order, lane 0 leftmost.
#include "tutor/device/portability.hpp"

namespace tutor::device {

struct Sum {
  template <class T>
  TUTOR_HOST_DEVICE T operator()(T a, T b) const { return a + b; }
};

// The larger operand; a NaN operand wins (as torch.max does), so a NaN in the input shows in
// the result instead of being dropped, which fmaxf would do.
struct Max {
  template <class T>
  TUTOR_HOST_DEVICE T operator()(T a, T b) const { return (a > b || a != a) ? a : b; }
};

struct Min {
  template <class T>
  TUTOR_HOST_DEVICE T operator()(T a, T b) const { return (a < b || a != a) ? a : b; }
};

// One lane's combine at the step with `lane_mask`: the partner is lane ^ lane_mask, and the
// operand from the lower-numbered lane goes left. Operands are selected first so the lanes
// of a warp do not diverge.
template <class T, class Op>
TUTOR_HOST_DEVICE T combine_in_lane_order(const T& mine, const T& partner, int lane, int lane_mask,
                                          Op op) {
  const bool upper = (lane & lane_mask) != 0;
  return op(upper ? partner : mine, upper ? mine : partner);
}

// All-reduce over aligned groups of `Lanes` lanes (Lanes a power of two, at most the
// hardware's lane count: Lanes = 16 reduces each half of a 32-lane warp on its own).
// exchange(value, lane_mask) -> the partner's value; combine(mine, partner, lane_mask) -> the
// combined value.
template <int Lanes, class V, class Exchange, class Combine>
TUTOR_HOST_DEVICE V butterfly_allreduce(V value, Exchange exchange, Combine combine) {
  static_assert(Lanes >= 1 && (Lanes & (Lanes - 1)) == 0, "lane count must be a power of two");
  TUTOR_UNROLL
  for (int lane_mask = 1; lane_mask < Lanes; lane_mask *= 2)
    value = combine(value, exchange(value, lane_mask), lane_mask);
  return value;
}

#if TUTOR_GPU_COMPILER
// The partner lane's value, read by the vendor's xor shuffle within groups of Width lanes.
template <int Width>
struct ShuffleXor {
  template <class T>
  TUTOR_DEVICE T operator()(T value, int lane_mask) const {
#if TUTOR_VENDOR_CUDA
    // Volta and later schedule a warp's threads independently: the _sync form names the
    // lanes taking part (all 32) and waits for them.
    return __shfl_xor_sync(kFullLaneMask, value, lane_mask, Width);
#else
    // ROCm 5.2 has no _sync forms: a wavefront's lanes always execute together. Lanes are
    // named by 64-bit masks on AMD (LaneMask); this call takes none.
    return __shfl_xor(value, lane_mask, Width);
#endif
  }
};

// combine_in_lane_order for the calling lane.
template <class Op>
struct LaneOrderedCombine {
  int lane;
  Op op;
  template <class T>
  TUTOR_DEVICE T operator()(const T& mine, const T& partner, int lane_mask) const {
    return combine_in_lane_order(mine, partner, lane, lane_mask, op);
  }
};

// Every lane gets op over the Width lanes of its group (default: the whole warp/wavefront).
// All lanes of the warp must call it together (no lane inactive or exited). T is a type the
// vendor's shuffle takes: int, unsigned, long long, unsigned long long, float, double.
template <int Width = kWarpLanes, class T, class Op>
TUTOR_DEVICE T warp_reduce(T value, Op op) {
  static_assert(Width <= kWarpLanes, "a group cannot be wider than the warp/wavefront");
  return butterfly_allreduce<Width>(value, ShuffleXor<Width>{},
                                    LaneOrderedCombine<Op>{lane_index(), op});
}

template <int Width = kWarpLanes, class T>
TUTOR_DEVICE T warp_reduce_sum(T value) { return warp_reduce<Width>(value, Sum{}); }

template <int Width = kWarpLanes, class T>
TUTOR_DEVICE T warp_reduce_max(T value) { return warp_reduce<Width>(value, Max{}); }
#endif

}  // namespace tutor::device
