#pragma once
// B05 profile: one Llama-style decoder layer cut into the sub-ops a serving engine launches,
// each with the FLOPs and bytes the calculator assigns it and its roofline time on a GPU
// (a model, not a measurement; the `profile` subcommand measures the same sub-ops beside it).
//
// The layer, in order (the names are the sub-ops' names in the table, the record and the NVTX
// ranges):
//   attn_norm      RMSNorm of the residual stream x                      T x h  -> T x h
//   qkv_proj       x_n W_qkv^T, q, k and v fused in one GEMM             T x h  -> T x (n_q + 2 n_kv) d
//   rope           rotary positions on q and k; k and v stored to the KV cache
//   attention      softmax(q k^T / sqrt(d)) v over each sequence's cache, causal, GQA
//   o_proj         attention output x W_o^T                              T x n_q d -> T x h
//   attn_residual  x + o_proj                                            T x h
//   mlp_norm       RMSNorm                                               T x h
//   gate_up_proj   gate and up fused in one GEMM                         T x h  -> T x 2f
//   silu_mul       silu(gate) * up                                       T x 2f -> T x f
//   down_proj      T x f -> T x h
//   mlp_residual   + down_proj                                           T x h
// (transformers models/llama/modeling_llama.py LlamaDecoderLayer; vLLM's LlamaDecoderLayer
// fuses q/k/v and gate/up the same way.) T is the tokens of the step: batch x sequence in
// prefill, batch in decode. Every tensor is bf16 (2 bytes), every GEMM accumulates in fp32.
//
// Conventions are the calculator's (calculator.hpp): a multiply-accumulate is 2 FLOPs, so a
// GEMM of T tokens by an out x in weight is 2 T in out FLOPs (Kaplan et al. 2020, Table 1);
// attention is 2 n_q (d + d) FLOPs per (query, key) pair, causal pairs only (Korthikanti et al.
// 2022 sec. 4.1, halved by the mask); norms, RoPE, softmax, SiLU and residual adds count no
// FLOPs. Bytes are the minimum a sub-op must move through device memory: every input element
// read once, every weight once, every output written once (docs/METHODOLOGY.md, "Bytes counted
// as the minimum"; weights once per step and the KV cache once: Pope et al. 2022, sec. 2).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"

namespace tutor::b05 {

// ---- the layer ------------------------------------------------------------------------------

/// The sizes of one Llama-style decoder layer (counts, not bytes).
struct LayerShape {
  std::int64_t hidden = 0;        ///< h (hidden_size)
  std::int64_t heads = 0;         ///< n_q (num_attention_heads)
  std::int64_t kv_heads = 0;      ///< n_kv (num_key_value_heads; GQA when < n_q)
  std::int64_t head_dim = 0;      ///< d
  std::int64_t intermediate = 0;  ///< f (intermediate_size)
  std::int64_t q_width() const { return heads * head_dim; }
  std::int64_t kv_width() const { return kv_heads * head_dim; }
  std::int64_t qkv_width() const { return q_width() + 2 * kv_width(); }
};

/// The largest head_dim the profile's attention kernel holds in registers (one query row per warp).
inline constexpr std::int64_t kMaxProfileHeadDim = 256;

/// "" when `m` is a decoder this profile runs (the layer above: RMSNorm, two norms per layer,
/// a gated MLP, full attention on every layer, no biases, no q/k norms, no experts, no MLA, an
/// even head_dim of at most kMaxProfileHeadDim); otherwise one line naming the first feature
/// that differs ("gemma3_text has 4 norms per layer").
std::string llama_style_refusal(const ModelConfig& m);

/// The layer of `m`. Throws std::invalid_argument with llama_style_refusal's line when `m` is
/// not Llama-style.
LayerShape layer_shape(const ModelConfig& m);

// ---- a step: prefill or decode ------------------------------------------------------------

enum class PhaseKind { prefill, decode };

/// One step of the layer. Prefill: `batch` sequences of `length` new tokens, each token
/// attending causally to the tokens before it in its own sequence. Decode: `batch` sequences
/// of one new token, the length-th of its sequence, attending to `length` keys (the cache of
/// length - 1 earlier tokens and its own), the same keys decode_flops(cfg, length) counts.
struct Phase {
  PhaseKind kind = PhaseKind::prefill;
  std::int64_t batch = 1;
  std::int64_t length = 1;  ///< prefill: tokens per sequence; decode: context (keys) per sequence

  /// Tokens of the step, T: batch x length (prefill), batch (decode).
  std::int64_t tokens() const { return kind == PhaseKind::prefill ? batch * length : batch; }
  /// (query, key) pairs of the step: batch x length (length + 1) / 2 causal pairs (prefill),
  /// batch x length (decode).
  double key_visits() const;
  /// Keys each sequence's cache holds after the step: `length` in both phases.
  std::int64_t cache_tokens() const { return length; }
  /// "prefill 1x2048", "decode 32 @ 2048".
  std::string label() const;
  /// "prefill_b1_s2048", "decode_b32_c2048": a name for records, CSV rows and files.
  std::string id() const;
};

/// The phases the table asks for: prefill of one 2048-token sequence, and decode at
/// a 2048-token context with batches of 1, 32 and 256.
std::vector<Phase> default_phases();

// ---- the sub-ops ---------------------------------------------------------------------------

enum class SubOp {
  attn_norm, qkv_proj, rope, attention, o_proj, attn_residual,
  mlp_norm, gate_up_proj, silu_mul, down_proj, mlp_residual,
};

/// The eleven sub-ops in layer order.
inline constexpr SubOp kSubOps[] = {
    SubOp::attn_norm, SubOp::qkv_proj, SubOp::rope, SubOp::attention, SubOp::o_proj, SubOp::attn_residual,
    SubOp::mlp_norm, SubOp::gate_up_proj, SubOp::silu_mul, SubOp::down_proj, SubOp::mlp_residual,
};

/// "attn_norm", "qkv_proj", ...: the name in tables, records and NVTX ranges.
std::string_view to_string(SubOp op);
/// One line: what the sub-op computes.
std::string_view describe(SubOp op);
/// Whether the sub-op is a GEMM with a weight matrix (run by the vendor BLAS).
bool is_gemm(SubOp op);

/// What one sub-op of one step costs, with the arithmetic written out.
struct SubOpCost {
  SubOp op = SubOp::attn_norm;
  double flops = 0;
  double bytes = 0;          ///< the minimum: inputs, weights and KV read once, outputs written once
  double weight_bytes = 0;   ///< the part of `bytes` that is weights (what a decode step reads cold)
  std::int64_t reduction = 1;  ///< terms summed per output element (GEMM: in; attention: keys and d; norm: h)
  std::string flops_formula; ///< "2 x 2048 x 4096 x 6144"
  std::string bytes_formula; ///< "2 B x (2048 x 4096 + 6144 x 4096 + 2048 x 6144)"
};

/// The eleven sub-ops of `layer` in `phase`, in layer order, bf16 everywhere (2 bytes).
/// Throws std::invalid_argument for a non-positive size.
std::vector<SubOpCost> layer_costs(const LayerShape& layer, const Phase& phase);

// ---- the roofline prediction ---------------------------------------------------------------

/// The two roofs a prediction divides by.
struct Roofs {
  double compute_TFLOPs = 0;  ///< bf16 tensor rate (measured: the vendor GEMM's; datasheet: dense bf16)
  double memory_GBps = 0;     ///< HBM bandwidth (measured: the runtime's device-to-device copy)
};

/// A sub-op's time on the roofline (Williams, Waterman and Patterson, CACM 52(4) 2009, eq. 1,
/// read as a time: t = max(F / P, Q / B)).
struct Prediction {
  double compute_ms = 0;  ///< F / P
  double memory_ms = 0;   ///< Q / B
  double time_ms = 0;     ///< max of the two: the roofline's floor
  std::string_view bound; ///< "compute" when F / P >= Q / B, else "memory"
};

/// The roofline time of `flops` and `bytes` under `roofs`. Throws std::invalid_argument for a
/// negative count, a non-positive roof, or both counts zero.
Prediction predict(double flops, double bytes, const Roofs& roofs);

/// "launch" when `launch_ms` (the device time of an empty kernel, measured) exceeds the
/// roofline's time: the roofline cannot see a fixed cost per launch. Otherwise p.bound.
std::string_view bound_with_launch(const Prediction& p, double launch_ms);

// ---- verification tolerance ----------------------------------------------------------------

/// The relative-L2 tolerance of a sub-op's bf16 output against a reference computed in double
/// from the same bf16 inputs: the kernel rounds each output once to bf16 (relative error at most
/// u = 2^-8, round to nearest: Kalamkar et al. 2019, "A Study of BFLOAT16 for Deep Learning
/// Training", sec. 2), allowed twice, plus fp32 accumulation of `reduction` terms (u_32 = 2^-24
/// times sqrt(reduction) for random rounding errors, times 8: Higham, Accuracy and Stability of
/// Numerical Algorithms, 2nd ed., sec. 2.8 and 3.1):  2 u + 8 u_32 sqrt(reduction).
double bf16_output_tolerance(std::int64_t reduction);

}  // namespace tutor::b05
