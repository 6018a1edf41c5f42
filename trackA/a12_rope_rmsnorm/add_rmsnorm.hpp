#pragma once
// A12's second lab, a12_add_rmsnorm: where Llama-style models fuse RMSNorm. The pre-attention
// (and pre-MLP) RMSNorm there sits before a GEMM, so RoPE cannot join it; its neighbour is the
// residual add of the sublayer before it. Per token row of `hidden` bf16:
//   s = x + residual   (the new residual stream, stored as bf16)
//   y = s / sqrt(mean(s^2) + eps) * weight, with s as stored (bf16), squares summed in fp32.
// Launchers in cuda/add_rmsnorm.cu and hip/add_rmsnorm.hip (C++17: kernel files include this).
#include <cstdint>

namespace tutor::a12 {

/// The widest row: 256 threads x 4 vectors of 8 bf16 held in registers.
inline constexpr int kMaxHidden = 8192;

struct AddNormArgs {
  const std::uint16_t* x = nullptr;         ///< the sublayer's output [tokens][hidden]
  const std::uint16_t* residual = nullptr;  ///< the residual stream before the add
  const std::uint16_t* weight = nullptr;    ///< [hidden]
  std::uint16_t* sum = nullptr;             ///< s = x + residual, bf16
  std::uint16_t* y = nullptr;               ///< RMSNorm(s) * weight, bf16
  int tokens = 0, hidden = 0;
  float eps = 1e-5f;
};

using AddNormLauncher = void (*)(const AddNormArgs& a);

void launch_add_then_norm(const AddNormArgs& a);
void launch_add_norm_fused(const AddNormArgs& a);

}  // namespace tutor::a12
