#pragma once
// B07 exercise "zero": the model-state memory one GPU holds under each ZeRO stage.
//
// Write zero_states in zero.cpp. The checker (check_zero.cpp) compares it with B07's memory
// planner, tutor::b07::zero_model_states (memory_planner.hpp), on the ZeRO paper's own example,
// every shipped config's parameter count, random sizes and the edges of each stage.

namespace tutor::b07::exercise {

/// Bytes of each model state on one GPU, mixed-precision Adam: 2 B of fp16/bf16 weights, 2 B of
/// gradients and 12 B of optimizer state (fp32 master weights, momentum, variance) per parameter.
struct ZeroStates {
  double weight_bytes = 0;
  double gradient_bytes = 0;
  double optimizer_bytes = 0;
};

/// `params` parameters held by each GPU of a data-parallel group of `dp` GPUs before ZeRO, and
/// ZeRO stage `zero_stage` (0: plain data parallelism; 1, 2, 3: ZeRO's P_os, P_os+g, P_os+g+p).
ZeroStates zero_states(double params, int zero_stage, int dp);

}  // namespace tutor::b07::exercise
