#pragma once
// A12 Fused RoPE + RMSNorm: the ladder's interface (host-only types, C++17: kernel files include it).
//
// The problem is the step between the QKV projection and attention in a QK-norm model (Qwen3,
// OLMo 2, Gemma 3): every q and k head of every token is RMS-normalised over its head_dim with
// its own weight (q_norm for q heads, k_norm for k heads), then rotated by the rotary embedding
// of the token's position. Tensors are bf16, held as their 16 bits (std::uint16_t), row-major:
//   x, y (and the unfused step's tmp): [tokens][q_heads + kv_heads][head_dim], q heads first;
//   q_weight, k_weight: [head_dim]; positions: [tokens] int32;
//   cos_sin: [max_position][rotary_dim / 2] pairs of fp32 (cos, sin) (the table steps);
//   inv_freq: [rotary_dim / 2] fp32 (the steps that compute cos and sin in the kernel).
// The launchers live in cuda/rope_rmsnorm.cu and hip/rope_rmsnorm.hip (same names, same
// order); each enqueues on the default stream and checks each launch.
#include <cstddef>
#include <cstdint>

namespace tutor::a12 {

/// Which elements of a head a rotation pairs (rotary_dim r, pair p < r / 2):
/// rotate_half (Llama, GPT-NeoX, Qwen3, Hugging Face's rotate_half): (p, p + r/2);
/// interleaved (GPT-J, Meta's original Llama code): (2p, 2p + 1).
enum class Layout { rotate_half, interleaved };

/// Element indices of pair p in a head (rotary_dim even, p < rotary_dim / 2).
struct PairIndex {
  int first, second;
};
inline constexpr PairIndex pair_index(Layout layout, int rotary_dim, int p) {
  return layout == Layout::rotate_half ? PairIndex{p, p + rotary_dim / 2} : PairIndex{2 * p, 2 * p + 1};
}

/// Threads per block of every step: a multiple of 64, so whole warps (32) and whole
/// wavefronts (64) fill it on either vendor.
inline constexpr int kBlockThreads = 256;
/// bf16 elements per 16-byte access (the widest global memory access).
inline constexpr int kVec = 8;
/// The largest head_dim: one 16-byte vector per lane of a 32-lane group.
inline constexpr int kMaxHeadDim = 256;

/// Lanes that hold one head row, one 16-byte vector each: the power of two at or above
/// ceil(head_dim / 8), so that an aligned group of lanes reduces its row with xor shuffles
/// (tutor/device/warp_reduce.hpp, Width). head_dim 64 -> 8, 96 -> 16, 128 -> 16, 256 -> 32.
inline constexpr int lanes_per_row(int head_dim) {
  const int vectors = (head_dim + kVec - 1) / kVec;
  int lanes = 1;
  while (lanes < vectors) lanes *= 2;
  return lanes;
}

/// Head rows a step covers: tokens x (q_heads + kv_heads).
inline constexpr std::size_t head_rows(int tokens, int q_heads, int kv_heads) {
  return std::size_t(tokens) * std::size_t(q_heads + kv_heads);
}

/// Everything a launcher needs. All pointers are device memory.
struct RopeNormArgs {
  const std::uint16_t* x = nullptr;
  std::uint16_t* y = nullptr;
  std::uint16_t* tmp = nullptr;  ///< the unfused step's intermediate (same shape as x)
  const std::uint16_t* q_weight = nullptr;
  const std::uint16_t* k_weight = nullptr;
  const std::int32_t* positions = nullptr;
  const float* cos_sin = nullptr;
  const float* inv_freq = nullptr;
  int tokens = 0, q_heads = 0, kv_heads = 0, head_dim = 0, rotary_dim = 0;
  Layout layout = Layout::rotate_half;
  float eps = 1e-6f;
};

/// The signature every step's launcher shares.
using RopeNormLauncher = void (*)(const RopeNormArgs& a);

void launch_unfused(const RopeNormArgs& a);
void launch_fused_table(const RopeNormArgs& a);
void launch_fused_compute(const RopeNormArgs& a);
void launch_fused_batched(const RopeNormArgs& a);

/// The learner's exercises (exercises/cuda|hip/, worked solutions in exercises/solutions/):
/// TODO kernels the lab runs only when named (--variant exercise, exercise_compute).
void launch_exercise_fused(const RopeNormArgs& a);
void launch_exercise_compute(const RopeNormArgs& a);

}  // namespace tutor::a12
