// C07 exercise "decode_step": the worked solution, the roofline (Williams, Waterman and Patterson,
// CACM 52(4), 2009, eq. 1) in time form, applied to a whole decode step.
//
// A step of B sequences streams the weights once and each sequence's KV once, and computes one
// token per sequence:
//   bytes = W + B x KV           time on the memory roof  = bytes / (GB/s x 1e9)
//   flops = B x (linear + attn)  time on the compute roof = flops / (TFLOP/s x 1e12)
// The two overlap (the GPU streams while it computes), so the step takes the larger; the
// tensor-parallel all-reduces sit between layers and do not overlap, nor does the fixed overhead:
//   t = max(memory, compute) + comm_fixed + B x comm_per_sequence + overhead.
// At B = 0 only the weights remain. Weights make small batches memory-bound; a batch past the
// ridge (where B x F / peak overtakes (W + B x KV) / BW) is compute-bound, if it ever is: when a
// sequence's KV takes longer to read than its FLOPs take to compute, never.
#include <algorithm>

#include "decode_step.hpp"

namespace tutor::c07::exercise {

StepAnswer decode_step(const DecodeStep& s, std::int64_t batch) {
  const double b = static_cast<double>(batch);
  const double bytes = s.weight_bytes_read + b * s.kv_bytes_per_sequence;
  const double flops = b * (s.linear_flops_per_sequence + s.attention_flops_per_sequence);
  const double memory_ms = bytes / (s.bandwidth_GBps * 1e9) * 1e3;
  const double compute_ms = flops / (s.compute_TFLOPs * 1e12) * 1e3;
  const double comm_ms = (s.comm_fixed_us + b * s.comm_per_sequence_us) * 1e-3;
  return {std::max(memory_ms, compute_ms) + comm_ms + s.overhead_us * 1e-3,
          compute_ms > memory_ms ? "compute" : "memory"};
}

}  // namespace tutor::c07::exercise
