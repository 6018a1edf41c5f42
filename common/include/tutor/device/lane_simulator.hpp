#pragma once
// A host model of warp-level code (a simulation, not a measurement): one register of a warp
// or wavefront is a std::array with one entry per lane, and an xor shuffle is one step that
// every lane takes together, reading its partner's value from before the step, as the
// hardware's lock-step execution does. It runs the same butterfly_allreduce and
// combine_partials that warp_reduce and block_reduce run on the device, with the device's
// exchange (a shuffle) replaced by shuffle_xor below, so tests can check the reduction at 32
// and at 64 lanes on a machine without a GPU.
#include <array>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "tutor/device/block_reduce.hpp"
#include "tutor/device/warp_reduce.hpp"

namespace tutor::device {

template <class T, int Lanes>
struct LaneSimulator {
  static_assert(Lanes >= 1 && (Lanes & (Lanes - 1)) == 0, "lane count must be a power of two");
  using Register = std::array<T, Lanes>;  // entry l: the value lane l holds

  // Lane l receives lane (l ^ lane_mask)'s value; all reads happen before any lane writes.
  static Register shuffle_xor(const Register& value, int lane_mask) {
    Register out;
    for (int lane = 0; lane < Lanes; ++lane) out[lane] = value[lane ^ lane_mask];
    return out;
  }

  // warp_reduce<Width>(value, op) executed by all Lanes lanes at once.
  template <int Width = Lanes, class Op>
  static Register warp_reduce(const Register& value, Op op) {
    static_assert(Width <= Lanes, "a group cannot be wider than the warp/wavefront");
    const auto exchange = [](const Register& v, int lane_mask) { return shuffle_xor(v, lane_mask); };
    const auto combine = [op](const Register& mine, const Register& partner, int lane_mask) {
      Register out;
      for (int lane = 0; lane < Lanes; ++lane)
        out[lane] = combine_in_lane_order(mine[lane], partner[lane], lane, lane_mask, op);
      return out;
    };
    return butterfly_allreduce<Width>(value, exchange, combine);
  }

  // What block_reduce computes for a block with one value per thread: `partials` is what
  // lane 0 of each warp writes to shared memory, `per_thread` what each thread returns.
  struct BlockResult {
    std::vector<T> partials;
    std::vector<T> per_thread;
  };

  template <class Op>
  static BlockResult block_reduce(const std::vector<T>& values, Op op) {
    if (values.empty() || values.size() % Lanes != 0)
      throw std::invalid_argument("block_reduce: the thread count must be a positive multiple of the lane count");
    const int threads = static_cast<int>(values.size());
    BlockResult result;
    for (int warp = 0; warp < warps_in_block(threads, Lanes); ++warp) {
      Register lanes;
      for (int lane = 0; lane < Lanes; ++lane) lanes[lane] = values[std::size_t(warp) * Lanes + lane];
      result.partials.push_back(warp_reduce(lanes, op)[0]);
    }
    const T total = combine_partials(result.partials.data(), static_cast<int>(result.partials.size()), op);
    result.per_thread.assign(values.size(), total);
    return result;
  }
};

}  // namespace tutor::device
