#pragma once
// B05 profile: the CPU reference of every sub-op of the layer (profile_model.hpp), one output
// row at a time, in double from the same bf16 inputs the GPU read. The GPU's output of a sub-op
// is compared with this reference computed from that sub-op's own inputs as the GPU left them,
// so an error is charged to the sub-op that made it, not to the ones before it.
//
// bf16 values are held as their 16 bits (std::uint16_t): the top half of an IEEE binary32.
#include <cstdint>
#include <span>
#include <vector>

namespace tutor::b05::reference {

/// The value of bf16 bits (exact: bf16 is the top 16 bits of a float).
float bf16_to_float(std::uint16_t bits);

/// `v` rounded to the nearest bf16, ties to even (Kalamkar et al. 2019, sec. 2); a NaN stays a
/// (quiet) NaN.
std::uint16_t float_to_bf16(float v);

/// RMSNorm (Zhang and Sennrich 2019, "Root Mean Square Layer Normalization", eq. 4; the scale g
/// as Llama applies it): out_i = x_i / sqrt(mean_j x_j^2 + eps) * g_i.
void rmsnorm_row(std::span<const std::uint16_t> x, std::span<const std::uint16_t> weight, double eps,
                 std::span<double> out);

/// y = x W^T for one token: `weight` is out x in, row-major (a PyTorch nn.Linear weight), so
/// y_o = sum_i x_i W[o][i].
void linear_row(std::span<const std::uint16_t> x, std::span<const std::uint16_t> weight, std::span<double> out);

/// RoPE's inverse frequencies for a head of `head_dim` (even) elements: inv_freq_i =
/// base^(-2i / head_dim), i < head_dim / 2 (Su et al. 2021, RoFormer, eq. 15), computed in double
/// and rounded once to fp32: the table the GPU kernel reads too.
std::vector<float> rope_inv_freq(std::int64_t head_dim, double base);

/// RoPE of one head of `head.size()` (even) elements at `position`, the half-split pairing of
/// transformers' rotate_half (element i with element i + d/2; RoFormer, eq. 34, pairs adjacent
/// elements instead; the rotation is the same): with the angle a = position x inv_freq_i taken
/// as an fp32 product, as transformers computes it,
///   out_i       = x_i cos a - x_{i+d/2} sin a
///   out_{i+d/2} = x_{i+d/2} cos a + x_i sin a.
void rope_head(std::span<const std::uint16_t> head, std::int64_t position, std::span<const float> inv_freq,
               std::span<double> out);

/// Scaled dot-product attention of one query token (Vaswani et al. 2017, eq. 1) over `keys`
/// cached tokens: q is heads x d, k_cache and v_cache are keys x kv_heads x d (token-major), out
/// is heads x d. Query head j reads KV head j / (heads / kv_heads) (GQA, Ainslie et al. 2023).
void attention_row(std::span<const std::uint16_t> q, std::span<const std::uint16_t> k_cache,
                   std::span<const std::uint16_t> v_cache, std::int64_t keys, std::int64_t heads,
                   std::int64_t kv_heads, std::int64_t head_dim, std::span<double> out);

/// SwiGLU's gate (Shazeer 2020, "GLU Variants Improve Transformer", eq. 6, with Swish_1 = SiLU):
/// out_i = silu(gate_i) * up_i, silu(g) = g / (1 + e^-g). `gate_up` is [gate | up], 2 x out.size().
void silu_mul_row(std::span<const std::uint16_t> gate_up, std::span<double> out);

/// out_i = a_i + b_i.
void residual_row(std::span<const std::uint16_t> a, std::span<const std::uint16_t> b, std::span<double> out);

}  // namespace tutor::b05::reference
