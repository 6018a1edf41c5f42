#pragma once
// A12's host side: bf16 conversions, the rotary frequencies and the cos/sin table the GPU
// steps read, the fp64 reference of RMSNorm then RoPE on each head, the bound a bf16 output is
// judged against, and the bytes each step moves as the lab counts them.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rope_rmsnorm.hpp"

namespace tutor::a12 {

/// bf16 is the top 16 bits of an fp32 (Kalamkar et al. 2019, "A Study of BFLOAT16 for Deep
/// Learning Training", sec. 2): widening is exact.
float bf16_to_float(std::uint16_t bits);
/// fp32 -> bf16, round to nearest, ties to even (the same paper, sec. 2); a NaN stays a quiet NaN.
std::uint16_t float_to_bf16(float v);

/// The rotary frequencies of RoFormer (Su et al. 2021, eq. 15): theta_i = base^(-2i / rotary_dim)
/// for i < rotary_dim / 2, computed in fp64 and rounded to fp32 (the GPU steps read these floats).
std::vector<float> inv_freq(double base, int rotary_dim);

/// The phase of pair i at `position`, as the GPU steps and Hugging Face's rotary embedding form it:
/// the fp32 product position x inv_freq[i], rounded once (IEEE 754 multiplication).
float phase(int position, float inv_freq);

/// (cos, sin) of every phase for positions 0 .. max_position - 1: [max_position][rotary_dim / 2]
/// pairs of fp32, each the fp64 cos/sin of the fp32 phase, rounded to fp32.
std::vector<float> cos_sin_table(std::span<const float> inv_freq, int max_position);

/// One problem's sizes, as the reference and the byte counts need them.
struct Dims {
  int tokens = 1, q_heads = 1, kv_heads = 0, head_dim = 2, rotary_dim = 2;
  Layout layout = Layout::rotate_half;
  double eps = 1e-6;
};

/// y = RoPE(RMSNorm(x)) of every head row, in fp64 from the bf16 inputs (Zhang & Sennrich 2019,
/// eq. 4: x_i / sqrt(mean(x^2) + eps) * w_i; then each pair (a, b) of the layout becomes
/// (a cos - b sin, b cos + a sin) with the angle of `phase`, RoFormer eq. 34), elements at and
/// past rotary_dim passed through. No rounding between the two: the error of a GPU step is
/// measured against the exact result of its own inputs.
std::vector<double> reference(const Dims& d, std::span<const std::uint16_t> x, std::span<const std::uint16_t> q_weight,
                              std::span<const std::uint16_t> k_weight, std::span<const std::int32_t> positions,
                              std::span<const float> inv_freq);

/// The relative L2 error a step may have against `reference`: each output element is rounded to
/// bf16 once (unit roundoff u = 2^-8), the unfused step twice (its intermediate too; the rotation
/// is orthogonal, so it carries the first rounding's error at the same norm), plus the fp32
/// arithmetic: a sum of head_dim squares (gamma_{head_dim}, Higham, Accuracy and Stability of
/// Numerical Algorithms, 2nd ed., sec. 3.1) and a few more operations, taken as 8.
/// 2 u_bf16 + (head_dim + 8) u_fp32.
double tolerance(int head_dim);

/// The bytes a launch must move at least: x read once, y written once, the positions and the two
/// weights read once (the cos/sin of a step that computes them cost no bytes).
double minimum_bytes(const Dims& d);

/// The bytes each step moves as the lab counts them (every array it reads or writes once):
/// unfused: x read, tmp written, tmp read, y written, plus positions, weights and the table rows
/// of every token; fused_table (and the exercise): x read, y written, plus the same small arrays;
/// fused_compute, fused_batched (and exercise_compute): minimum_bytes plus inv_freq.
double unfused_bytes(const Dims& d);
double fused_table_bytes(const Dims& d);
double fused_compute_bytes(const Dims& d);

// ---- a12_add_rmsnorm: the residual add and RMSNorm of Llama-style blocks (add_rmsnorm.hpp) ----

/// s = bf16(x + residual), the sum formed in fp32 (exact for two bf16 of similar magnitude,
/// rounded once otherwise) and rounded to bf16 once: the GPU steps form it the same way, so s
/// must match bit for bit.
std::vector<std::uint16_t> residual_sum(std::span<const std::uint16_t> x, std::span<const std::uint16_t> residual);

/// y = s / sqrt(mean(s^2) + eps) * weight per row of `hidden`, in fp64 from the bf16 s.
std::vector<double> rmsnorm_reference(std::span<const std::uint16_t> s, std::span<const std::uint16_t> weight,
                                      int hidden, double eps);

/// One bf16 rounding of each output and the fp32 sum of `hidden` squares: u_bf16 + (hidden + 8) u_fp32.
double add_norm_tolerance(int hidden);

/// Bytes per launch: the minimum (x and the residual read, the new stream and y written, the
/// weight read) and the two-kernel form's (the stream read back once more).
double add_norm_minimum_bytes(int tokens, int hidden);
double add_then_norm_bytes(int tokens, int hidden);

}  // namespace tutor::a12
