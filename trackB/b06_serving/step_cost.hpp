#pragma once
// B06: what one scheduler iteration costs on the GPU.
//
// The simulator (batch_sim.hpp) builds each iteration's batch and describes it as a
// StepShape: how many prompt tokens it prefills, how many sequences decode one token,
// and how much attention work and KV-cache traffic that implies. A StepCostModel turns
// the shape into seconds. RooflineStepCost is the model the `batch` subcommand uses:
// the roofline (Williams, Waterman and Patterson, "Roofline: an insightful visual
// performance model for multicore architectures", CACM 52(4), 2009, eq. 1) applied to
// the whole step, plus a fixed per-step overhead. It is a model: it ignores kernel
// efficiency below the roofs, activation traffic and communication, so its times are a
// lower bound of what an engine achieves unless the rates passed in are derated.
#include <cstdint>
#include <string_view>

namespace tutor::b06 {

/// One iteration's batch, as the cost model sees it. "Context length" of a decoding
/// sequence counts the token it feeds this step: a sequence with P prompt tokens that
/// has generated g tokens has context P + g, of which P + g - 1 are read from the KV
/// cache and one is written.
struct StepShape {
  std::int64_t prefill_tokens = 0;   ///< prompt tokens (chunks) computed this step
  std::int64_t decode_seqs = 0;      ///< sequences that decode one token this step
  std::int64_t kv_tokens_read = 0;   ///< sum of the context lengths of the decoding sequences
  /// KV tokens the prefill chunks move: a chunk of n tokens starting at position s reads
  /// the s earlier tokens' keys and values once and writes its own n: s + n per chunk.
  std::int64_t prefill_kv_tokens = 0;
  /// Causal (query, key) pairs of the prefill chunks: a chunk of n tokens starting at
  /// position s has query i attend to keys 0..i, so sum_{i=s}^{s+n-1} (i + 1)
  /// = n * s + n (n + 1) / 2 pairs (a whole prompt: P (P + 1) / 2).
  std::int64_t prefill_attention_pairs = 0;

  /// Tokens through the linear layers this step: every prefill token and every decode token.
  std::int64_t tokens() const { return prefill_tokens + decode_seqs; }
};

/// Seconds one iteration takes. Implementations must return a finite value >= 0.
struct StepCostModel {
  virtual ~StepCostModel() = default;
  virtual double step_seconds(const StepShape& shape) const = 0;
};

/// The plain numbers RooflineStepCost needs; the CLI fills them from B05's calculator and
/// common's GPU table, so this file needs neither.
struct RooflineStepParams {
  double weight_bytes = 0;            ///< bytes of weights read once per step (all layers)
  double flops_per_token_linear = 0;  ///< FLOPs per token in the linear layers (2 x active linear params)
  double kv_bytes_per_token = 0;      ///< KV-cache bytes of one token, all layers
  /// FLOPs of one (query token, context token) pair summed over layers and heads:
  /// Q.K^T and P.V are 2 * head_dim each per head, so 4 * n_layers * n_heads * head_dim.
  double attention_flops_per_pair = 0;
  double peak_TFLOPs = 0;             ///< compute roof, 1e12 FLOP/s
  double hbm_GBps = 0;                ///< memory roof, 1e9 byte/s
  double overhead_us = 0;             ///< fixed per-step cost (scheduling, launches, sampling), microseconds
};

/// What the roofline says about one step.
struct StepCostBreakdown {
  double flops = 0;       ///< linear + attention FLOPs
  double bytes = 0;       ///< weights + KV traffic
  double compute_s = 0;   ///< flops / (peak_TFLOPs * 1e12)
  double memory_s = 0;    ///< bytes / (hbm_GBps * 1e9)
  double overhead_s = 0;  ///< overhead_us * 1e-6
  double total_s = 0;     ///< max(compute_s, memory_s) + overhead_s
  std::string_view bound() const { return compute_s > memory_s ? "compute" : "memory"; }
};

/// The roofline cost of a step (Williams et al. 2009, eq. 1, in time form):
///   flops = tokens * flops_per_token_linear
///         + (prefill_attention_pairs + kv_tokens_read) * attention_flops_per_pair
///   bytes = weight_bytes + (kv_tokens_read + prefill_kv_tokens) * kv_bytes_per_token
///   time  = max(flops / peak, bytes / bandwidth) + overhead
/// Weights are read once per step whatever the batch (that is what batching buys).
/// Activations are assumed to stay on chip or be negligible next to weights and KV.
class RooflineStepCost final : public StepCostModel {
 public:
  /// Throws tutor::UsageError naming the field if a rate is not > 0 or a count is
  /// negative or not finite.
  explicit RooflineStepCost(const RooflineStepParams& params);
  double step_seconds(const StepShape& shape) const override;
  StepCostBreakdown breakdown(const StepShape& shape) const;
  const RooflineStepParams& params() const { return params_; }

 private:
  RooflineStepParams params_;
  double flops_per_s_;
  double bytes_per_s_;
};

}  // namespace tutor::b06
