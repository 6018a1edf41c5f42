#include "step_cost.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "tutor/cli.hpp"

namespace tutor::b06 {

RooflineStepCost::RooflineStepCost(const RooflineStepParams& params) : params_(params) {
  require_non_negative(params.weight_bytes, "weight_bytes");
  require_non_negative(params.flops_per_token_linear, "flops_per_token_linear");
  require_non_negative(params.kv_bytes_per_token, "kv_bytes_per_token");
  require_non_negative(params.attention_flops_per_pair, "attention_flops_per_pair");
  require_positive(params.peak_TFLOPs, "peak_TFLOPs");
  require_positive(params.hbm_GBps, "hbm_GBps");
  require_non_negative(params.overhead_us, "overhead_us");
  flops_per_s_ = params.peak_TFLOPs * 1e12;
  bytes_per_s_ = params.hbm_GBps * 1e9;
}

StepCostBreakdown RooflineStepCost::breakdown(const StepShape& shape) const {
  const auto& p = params_;
  StepCostBreakdown b;
  const double attention_pairs =
      static_cast<double>(shape.prefill_attention_pairs) + static_cast<double>(shape.kv_tokens_read);
  b.flops = static_cast<double>(shape.tokens()) * p.flops_per_token_linear +
            attention_pairs * p.attention_flops_per_pair;
  b.bytes = p.weight_bytes +
            static_cast<double>(shape.kv_tokens_read + shape.prefill_kv_tokens) * p.kv_bytes_per_token;
  b.compute_s = b.flops / flops_per_s_;
  b.memory_s = b.bytes / bytes_per_s_;
  b.overhead_s = p.overhead_us * 1e-6;
  b.total_s = std::max(b.compute_s, b.memory_s) + b.overhead_s;
  return b;
}

double RooflineStepCost::step_seconds(const StepShape& shape) const {
  return breakdown(shape).total_s;
}

}  // namespace tutor::b06
