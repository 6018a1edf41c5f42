#pragma once
// B05 profile: one decoder layer on the GPU for one step (a Phase), with fresh random weights,
// inputs and KV cache: it launches each sub-op, poisons its outputs, and checks them against the
// CPU reference (profile_reference.hpp) computed from the sub-op's own inputs as the GPU left
// them. Host code, written once for both vendors (the launchers are profile_kernels.hpp).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "profile_model.hpp"
#include "tutor/gpu.hpp"
#include "tutor/verify.hpp"

namespace tutor::b05 {

/// RoPE base and RMSNorm epsilon of the profiled layer: Llama 3's (rope_theta 500000 and
/// rms_norm_eps 1e-5 in its config.json). Llama 3.1's rope_scaling changes the low frequencies'
/// values, not what a sub-op moves or computes; it is not applied.
inline constexpr double kRopeBase = 500000;
inline constexpr double kRmsNormEps = 1e-5;

/// The bf16 pattern every output is filled with before a checked launch: a quiet NaN, so an
/// element a kernel never wrote fails the check.
inline constexpr std::uint16_t kPoisonBf16 = 0x7fed;

class LayerCase {
 public:
  /// Allocates the layer's weights, the step's activations and the KV cache, and fills weights,
  /// input and cache with uniform random bf16 from `seed` (weights in +-1/sqrt(fan_in), so
  /// activations stay of order one through the layer; norm scales in [0.5, 1.5)).
  LayerCase(const LayerShape& layer, const Phase& phase, std::uint64_t seed);

  /// Device bytes a case of this layer and step allocates (weights, activations, cache).
  static double device_bytes(const LayerShape& layer, const Phase& phase);

  /// "prefill 2x37 (h 236, 6/2 heads x 40, f 330)".
  std::string label() const;
  const Phase& phase() const { return phase_; }

  /// Enqueues one sub-op; launch_layer enqueues all eleven in order.
  void launch(SubOp op);
  void launch_layer();

  /// Fills the outputs of `op` (poison_layer: of every sub-op) with kPoisonBf16.
  void poison(SubOp op);
  /// The buffer sub-op `op` writes (rope: q; it also writes this step's K and V cache slots).
  const gpu::DeviceBuffer& output(SubOp op) const;
  void poison_layer();

  /// Checks the output of `op`: the token rows `rows` against the CPU reference (relative L2
  /// within bf16_output_tolerance), and every element the sub-op writes for NaN or infinity
  /// (an element left poisoned). Needs the sub-op's inputs as the previous sub-ops left them.
  Comparison check(SubOp op, std::span<const std::int64_t> rows);

  /// Every token row, 0 .. T-1.
  std::vector<std::int64_t> all_rows() const;
  /// `count` token rows: the first, the last (the longest causal attention) and others drawn
  /// from `seed` (all rows when T <= count).
  std::vector<std::int64_t> sample_rows(int count, std::uint64_t seed) const;

 private:
  std::vector<std::uint16_t> download(const gpu::DeviceBuffer& buffer, std::int64_t offset, std::int64_t count) const;
  std::vector<std::uint16_t> row(const gpu::DeviceBuffer& buffer, std::int64_t width, std::int64_t token) const;
  const std::vector<std::uint16_t>& weight_on_host(const gpu::DeviceBuffer& buffer, std::vector<std::uint16_t>& copy);
  std::int64_t position_of(std::int64_t token) const;
  std::int64_t sequence_of(std::int64_t token) const;
  std::int64_t cache_offset(std::int64_t seq, std::int64_t slot) const;
  std::size_t unwritten(SubOp op) const;

  LayerShape layer_;
  Phase phase_;
  std::int64_t tokens_, tokens_per_seq_, first_position_, cache_len_;
  std::vector<float> inv_freq_host_;
  gpu::DeviceBuffer x_, attn_norm_w_, x_norm_, w_qkv_, qkv_, inv_freq_, q_, k_cache_, v_cache_, attn_, w_o_,
      attn_out_, x1_, mlp_norm_w_, x1_norm_, w_gate_up_, gate_up_, act_, w_down_, mlp_out_, out_;
  std::vector<std::uint16_t> w_qkv_host_, w_o_host_, w_gate_up_host_, w_down_host_;
};

}  // namespace tutor::b05
