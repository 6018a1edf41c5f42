// B05 profile: the layer's sub-ops, their FLOPs and bytes, and their roofline times
// (profile_model.hpp has the conventions and their sources).
#include "profile_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace tutor::b05 {
namespace {

constexpr double kBf16Bytes = 2;  // every tensor of the layer

double d(std::int64_t v) { return static_cast<double>(v); }

std::string_view attention_name(AttentionKind k) { return to_string(k); }

}  // namespace

std::string llama_style_refusal(const ModelConfig& m) {
  const std::string who = m.model_type.empty() ? std::string("this model") : m.model_type;
  if (m.is_mla()) return who + " uses multi-head latent attention (MLA)";
  if (m.is_moe()) return who + " has mixture-of-experts layers";
  if (m.norm != NormKind::rms) return who + " uses " + std::string(to_string(m.norm)) + " norms, not RMSNorm";
  if (m.norms_per_layer != 2) return fmt::format("{} has {} norms per layer, not 2", who, m.norms_per_layer);
  if (m.parallel_block) return who + " runs attention and MLP in parallel from one norm";
  if (!m.gated_mlp) return who + " has a plain (not gated) MLP";
  // Gemma gates its MLP with GELU (GeGLU: Gemma Team 2024, "Gemma: Open Models Based on Gemini
  // Research and Technology", sec. 2), not the SiLU that silu_mul computes and is checked against.
  if (m.model_type == "gemma") return who + " gates its MLP with GELU (GeGLU), not SiLU";
  if (m.qkv_bias || m.o_bias || m.mlp_bias) return who + " has biases on its projections";
  if (m.qk_norm != QkNorm::none) return who + " normalises q and k";
  if (m.attention_sinks) return who + " has attention sinks";
  if (m.position_embeddings > 0) return who + " has learned absolute positions, not RoPE";
  for (const LayerSpec& l : m.layers)
    if (l.attention != AttentionKind::full)
      return who + " has " + std::string(attention_name(l.attention)) + " attention layers, not only full attention";
  if (m.head_dim % 2 != 0) return fmt::format("{} has an odd head_dim {} (RoPE rotates pairs)", who, m.head_dim);
  if (m.head_dim > kMaxProfileHeadDim)
    return fmt::format("{} has head_dim {}; the profile's attention kernel holds at most {}", who, m.head_dim,
                       kMaxProfileHeadDim);
  return "";
}

LayerShape layer_shape(const ModelConfig& m) {
  if (const std::string why = llama_style_refusal(m); !why.empty())
    throw std::invalid_argument("profile runs Llama-style layers only: " + why);
  return {m.hidden_size, m.num_heads, m.num_kv_heads, m.head_dim, m.intermediate_size};
}

double Phase::key_visits() const {
  if (kind == PhaseKind::decode) return d(batch) * d(length);
  return d(batch) * d(length) * (d(length) + 1) / 2;  // query t sees t keys, t = 1..length
}

std::string Phase::label() const {
  return kind == PhaseKind::prefill ? fmt::format("prefill {}x{}", batch, length)
                                    : fmt::format("decode {} @ {}", batch, length);
}

std::string Phase::id() const {
  return kind == PhaseKind::prefill ? fmt::format("prefill_b{}_s{}", batch, length)
                                    : fmt::format("decode_b{}_c{}", batch, length);
}

std::vector<Phase> default_phases() {
  return {{PhaseKind::prefill, 1, 2048},
          {PhaseKind::decode, 1, 2048},
          {PhaseKind::decode, 32, 2048},
          {PhaseKind::decode, 256, 2048}};
}

std::string_view to_string(SubOp op) {
  switch (op) {
    case SubOp::attn_norm: return "attn_norm";
    case SubOp::qkv_proj: return "qkv_proj";
    case SubOp::rope: return "rope";
    case SubOp::attention: return "attention";
    case SubOp::o_proj: return "o_proj";
    case SubOp::attn_residual: return "attn_residual";
    case SubOp::mlp_norm: return "mlp_norm";
    case SubOp::gate_up_proj: return "gate_up_proj";
    case SubOp::silu_mul: return "silu_mul";
    case SubOp::down_proj: return "down_proj";
    case SubOp::mlp_residual: return "mlp_residual";
  }
  return "?";
}

std::string_view describe(SubOp op) {
  switch (op) {
    case SubOp::attn_norm: return "RMSNorm of the residual stream before attention";
    case SubOp::qkv_proj: return "q, k and v projections fused in one GEMM";
    case SubOp::rope: return "rotary positions on q and k; k and v stored to the KV cache";
    case SubOp::attention: return "softmax(q k^T / sqrt(d)) v over the sequence's cache, causal, GQA";
    case SubOp::o_proj: return "output projection (GEMM)";
    case SubOp::attn_residual: return "residual add after attention";
    case SubOp::mlp_norm: return "RMSNorm before the MLP";
    case SubOp::gate_up_proj: return "gate and up projections fused in one GEMM";
    case SubOp::silu_mul: return "silu(gate) * up";
    case SubOp::down_proj: return "down projection (GEMM)";
    case SubOp::mlp_residual: return "residual add after the MLP";
  }
  return "?";
}

bool is_gemm(SubOp op) {
  return op == SubOp::qkv_proj || op == SubOp::o_proj || op == SubOp::gate_up_proj || op == SubOp::down_proj;
}

std::vector<SubOpCost> layer_costs(const LayerShape& L, const Phase& p) {
  for (const std::int64_t v : {L.hidden, L.heads, L.kv_heads, L.head_dim, L.intermediate, p.batch, p.length})
    if (v < 1) throw std::invalid_argument("layer_costs: every size must be >= 1");
  const std::int64_t T = p.tokens(), h = L.hidden, f = L.intermediate;
  std::vector<SubOpCost> costs;

  const auto add = [&costs](SubOp op, double flops, double bytes, double weight_bytes, std::int64_t reduction,
                            std::string flops_formula, std::string bytes_formula) {
    SubOpCost c;
    c.op = op;
    c.flops = flops;
    c.bytes = bytes;
    c.weight_bytes = weight_bytes;
    c.reduction = reduction;
    c.flops_formula = std::move(flops_formula);
    c.bytes_formula = std::move(bytes_formula);
    costs.push_back(std::move(c));
  };
  // A GEMM of T tokens by an out x in weight: 2 T in out FLOPs; x, W and y each moved once.
  const auto gemm = [&](SubOp op, std::int64_t in, std::int64_t out) {
    add(op, 2 * d(T) * d(in) * d(out), kBf16Bytes * (d(T) * d(in) + d(in) * d(out) + d(T) * d(out)),
        kBf16Bytes * d(in) * d(out), in, fmt::format("2 x {} x {} x {}", T, in, out),
        fmt::format("2 B x ({} x {} + {} x {} + {} x {})", T, in, in, out, T, out));
  };
  // An RMSNorm: the rows and their output, plus the h weights.
  const auto norm = [&](SubOp op) {
    add(op, 0, kBf16Bytes * (2 * d(T) * d(h) + d(h)), kBf16Bytes * d(h), h, "0 (norms are not counted)",
        fmt::format("2 B x (2 x {} x {} + {})", T, h, h));
  };
  // A residual add: two rows read, one written.
  const auto residual = [&](SubOp op) {
    add(op, 0, kBf16Bytes * 3 * d(T) * d(h), 0, 1, "0 (residual adds are not counted)",
        fmt::format("2 B x 3 x {} x {}", T, h));
  };

  norm(SubOp::attn_norm);
  gemm(SubOp::qkv_proj, h, L.qkv_width());
  // rope: q, k, v of every token read once; q written beside them, k and v into the cache.
  add(SubOp::rope, 0, kBf16Bytes * 2 * d(T) * d(L.qkv_width()), 0, 1, "0 (RoPE is not counted)",
      fmt::format("2 B x 2 x {} x {}", T, L.qkv_width()));
  // attention: 4 n_q d FLOPs per (query, key) pair; q read, each cache entry read once, output written.
  add(SubOp::attention, 4 * d(L.heads) * d(L.head_dim) * p.key_visits(),
      kBf16Bytes * (2 * d(T) * d(L.q_width()) + 2 * d(p.batch) * d(p.cache_tokens()) * d(L.kv_width())), 0,
      std::max(p.length, L.head_dim),
      p.kind == PhaseKind::prefill
          ? fmt::format("4 x {} x {} x ({} x {} x {} / 2)", L.heads, L.head_dim, p.batch, p.length, p.length + 1)
          : fmt::format("4 x {} x {} x ({} x {})", L.heads, L.head_dim, p.batch, p.length),
      fmt::format("2 B x (2 x {} x {} + 2 x {} x {} x {})", T, L.q_width(), p.batch, p.cache_tokens(), L.kv_width()));
  gemm(SubOp::o_proj, L.q_width(), h);
  residual(SubOp::attn_residual);
  norm(SubOp::mlp_norm);
  gemm(SubOp::gate_up_proj, h, 2 * f);
  // silu_mul: gate and up read, their product written.
  add(SubOp::silu_mul, 0, kBf16Bytes * 3 * d(T) * d(f), 0, 1, "0 (activations are not counted)",
      fmt::format("2 B x (2 x {} x {} + {} x {})", T, f, T, f));
  gemm(SubOp::down_proj, f, h);
  residual(SubOp::mlp_residual);
  return costs;
}

Prediction predict(double flops, double bytes, const Roofs& roofs) {
  if (!(flops >= 0) || !(bytes >= 0) || (flops == 0 && bytes == 0))
    throw std::invalid_argument("predict: FLOPs and bytes must be >= 0, not both 0");
  if (!(roofs.compute_TFLOPs > 0) || !(roofs.memory_GBps > 0) || !std::isfinite(roofs.compute_TFLOPs) ||
      !std::isfinite(roofs.memory_GBps))
    throw std::invalid_argument("predict: the roofs must be finite and > 0");
  Prediction p;
  p.compute_ms = flops / (roofs.compute_TFLOPs * 1e12) * 1e3;
  p.memory_ms = bytes / (roofs.memory_GBps * 1e9) * 1e3;
  p.time_ms = std::max(p.compute_ms, p.memory_ms);
  p.bound = p.compute_ms >= p.memory_ms ? "compute" : "memory";
  return p;
}

std::string_view bound_with_launch(const Prediction& p, double launch_ms) {
  return launch_ms > p.time_ms ? "launch" : p.bound;
}

double bf16_output_tolerance(std::int64_t reduction) {
  const double u_bf16 = std::ldexp(1.0, -8), u_fp32 = std::ldexp(1.0, -24);
  return 2 * u_bf16 + 8 * u_fp32 * std::sqrt(static_cast<double>(std::max<std::int64_t>(reduction, 1)));
}

}  // namespace tutor::b05
