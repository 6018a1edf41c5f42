// B07 exercise "zero": the worked solution (Rajbhandari et al., "ZeRO: Memory Optimizations Toward
// Training Trillion Parameter Models", SC'20, sec. 3.1 and 5, Figure 1).
//
// Mixed-precision Adam keeps, per parameter, 2 B of fp16/bf16 weights, 2 B of gradients and
// K = 12 B of optimizer state. Plain data parallelism replicates all of it on every GPU. Each
// ZeRO stage partitions one more state over the N_d GPUs of the group, each GPU keeping 1/N_d:
//   stage 1 (P_os):      the optimizer state;
//   stage 2 (P_os+g):    and the gradients;
//   stage 3 (P_os+g+p):  and the weights.
// With N_d = 1 nothing is divided, whatever the stage. The paper's example (Psi = 7.5e9 params,
// N_d = 64): 120 GB, 31.4 GB, 16.6 GB and 1.88 GB per GPU.
#include "zero.hpp"

namespace tutor::b07::exercise {

ZeroStates zero_states(double params, int zero_stage, int dp) {
  const double n = dp;
  ZeroStates s{2 * params, 2 * params, 12 * params};
  if (zero_stage >= 1) s.optimizer_bytes /= n;
  if (zero_stage >= 2) s.gradient_bytes /= n;
  if (zero_stage >= 3) s.weight_bytes /= n;
  return s;
}

}  // namespace tutor::b07::exercise
