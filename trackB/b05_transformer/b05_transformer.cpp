// b05_transformer: what a transformer costs, from its config.json alone (a model, not a
// measurement; no GPU is used), and, with `profile`, one layer of it measured on the GPU.
//
//   b05_transformer calc --model llama-3.1-8b [--context 8192] [--dtype bf16] [--kv-dtype fp8]
//   b05_transformer calc --config path/to/config.json --explain
//   b05_transformer calc --model deepseek-v3 --json out.json     (--json - : the record on stdout)
//   b05_transformer --list-models
//   b05_transformer --list-families     (the model_type values it reads, as a Markdown table)
//   b05_transformer table --context 32768  (every shipped model side by side, a Markdown table)
//   b05_transformer profile [--model llama-3.1-8b]  (one layer on the GPU, sub-op by sub-op:
//                                                  profile_command.cpp)
//
// Every number is one row: a value, the formula with this model's numbers in it, and where
// the formula comes from. The table, --explain and --json all print those same rows.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calculator.hpp"
#include "tensor_parallel.hpp"
#include "tutor/number_option.hpp"
#include "family.hpp"
#include "model.hpp"
#include "profile_command.hpp"
#include "tutor/cli.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"

namespace tutor::b05 {
namespace {

// ---- sources, cited once ------------------------------------------------------------------

constexpr const char* kSrcParams =
    "exact count of the tensors the family's modelling code builds (huggingface/transformers "
    "models/<family>/modeling_*.py; gpt-oss: openai/gpt-oss gpt_oss/torch/model.py)";
constexpr const char* kSrcVision =
    "exact count of the vision encoder and its projector into the text model, from vision_config "
    "(transformers models/siglip/modeling_siglip.py with gemma3/modeling_gemma3.py, llama4/modeling_llama4.py, "
    "pixtral/modeling_pixtral.py with mistral3/modular_mistral3.py)";
constexpr const char* kSrcActive =
    "routed experts a token skips are not active (Fedus et al. 2022, Switch Transformers); embedding and "
    "LM head counted, as the Mixtral paper (Jiang et al. 2024: 46.7B total, 12.9B active) does";
constexpr const char* kSrcWeights = "parameters x bytes per parameter (every parameter in one dtype)";
constexpr const char* kSrcKv =
    "K and V per KV head, not per query head: GQA (Ainslie et al. 2023), MQA (Shazeer 2019)";
constexpr const char* kSrcMla =
    "DeepSeek-V2 (Liu et al. 2024) sec. 2.1.2-2.1.3 and Table 1: MLA caches (d_c + d_h^R) elements per token "
    "per layer; DeepSeek-V3 technical report sec. 2.1 keeps the same MLA";
constexpr const char* kSrcWindow =
    "a sliding-window layer keeps min(context, window) tokens: Mistral 7B (Jiang et al. 2023) sec. 2 rolling "
    "buffer cache; Gemma 3 technical report (2025) sec. 2.2, 5 local (window 1024) : 1 global layers; "
    "gpt-oss model card (2025): alternating banded-window (128) and dense layers";
constexpr const char* kSrcChunked =
    "chunked local attention keeps at most one chunk: a token attends only to the earlier tokens of its own "
    "attention_chunk_size-token chunk (transformers models/llama4/modeling_llama4.py, chunked attention mask)";
constexpr const char* kSrcLinear =
    "2 FLOPs per multiply-accumulate, 2N per token for N weight-matrix parameters (Kaplan et al. 2020, "
    "Scaling Laws, Table 1: C_forward = 2N + 2 n_layer n_ctx d_attn)";
constexpr const char* kSrcAttention =
    "Q K^T and P V: 2 x heads x keys x (d_qk + d_v) per query per layer (Korthikanti et al. 2022 sec. 4.1; "
    "PaLM, Chowdhery et al. 2022 App. B); causal masking: query t sees min(t, window) keys";
constexpr const char* kSrcMlaFlops =
    "MLA prefill in the decompressed form (d_qk = nope + rope, d_v = v_head_dim), decode in the absorbed "
    "form (d_qk = kv_lora_rank + rope, d_v = kv_lora_rank): DeepSeek-V2 sec. 2.1.3, as vLLM's MLA backend runs";
constexpr const char* kSrcActivations =
    "inference keeps no activations across layers (contrast training, Korthikanti et al. 2022 eq. 1); the "
    "attention score matrix is never materialised (FlashAttention, Dao et al. 2022)";

// ---- rows -----------------------------------------------------------------------------------

/// One number of the report: its value, the formula with this model's numbers, the source.
struct Row {
  std::string key;      // JSON key ("params_total")
  std::string label;    // table label
  double value = 0;
  std::string unit;     // "parameters", "bytes", "FLOPs"
  std::string shown;    // the value as the table prints it
  std::string formula;
  std::string source;
};

std::string thousands(double v) {
  const auto n = static_cast<long long>(std::llround(v));
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string params_text(double p) { return fmt::format("{:.3f} B ({})", p / 1e9, thousands(p)); }

std::string bytes_text(double b) {
  if (b < 1e6) return fmt::format("{} B", thousands(b));
  if (b < 1e9) return fmt::format("{:.2f} MB ({:.2f} MiB)", b / 1e6, b / (1 << 20));
  return fmt::format("{:.2f} GB ({:.2f} GiB)", b / 1e9, b / double(1ull << 30));
}

std::string flops_text(double f) {
  if (f >= 1e15) return fmt::format("{:.3f} PFLOP", f / 1e15);
  if (f >= 1e12) return fmt::format("{:.3f} TFLOP", f / 1e12);
  return fmt::format("{:.3f} GFLOP", f / 1e9);
}

std::string i64(std::int64_t v) { return std::to_string(v); }

// ---- the report ------------------------------------------------------------------------------

struct CalcOptions {
  std::string config_path, model_name, dtype = "bf16", kv_dtype;
  std::int64_t context = 4096;
  int tp = 1;  ///< --tp: rows of one tensor-parallel rank when > 1 or given
  bool tp_given = false;
  bool explain = false, list_models = false;
};

std::string layer_summary(const ModelConfig& m) {
  std::string out;
  for (const auto& g : kv_layer_groups(m, 1)) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", g.layers, to_string(g.kind));
    if (g.kind == AttentionKind::sliding_window) out += fmt::format(" (window {})", g.window);
    if (g.kind == AttentionKind::chunked) out += fmt::format(" (chunk {})", g.window);
  }
  std::int64_t moe = 0;
  for (const auto& l : m.layers) moe += l.moe;
  if (m.is_moe())
    out += fmt::format("; {} MoE layers ({} routed experts, top-{}{}), {} dense", moe, m.num_experts,
                       m.experts_per_token, m.num_shared_experts ? fmt::format(", {} shared", m.num_shared_experts) : "",
                       m.num_layers - moe);
  return out;
}

std::vector<Row> build_rows(const ModelConfig& m, const CalcOptions& o, double wbytes, double kvbytes) {
  std::vector<Row> rows;
  const ParamCount p = count_params(m);
  const std::string h = i64(m.hidden_size), L = i64(m.num_layers), V = i64(m.vocab_size);

  // Parameters.
  std::string embed = m.tie_word_embeddings
                          ? fmt::format("vocab x hidden = {} x {} (tied: the LM head reuses it)", V, h)
                          : fmt::format("2 x vocab x hidden = 2 x {} x {} (input embedding + LM head)", V, h);
  if (m.position_embeddings > 0) embed += fmt::format(" + positions {} x {}", m.position_embeddings, h);
  if (m.lm_head_bias) embed += fmt::format(" + LM-head bias {}", V);
  rows.push_back({"params_embedding", "embedding", p.embedding, "parameters", params_text(p.embedding), embed, kSrcParams});
  std::string attn;
  if (m.is_mla()) {
    attn = fmt::format("{} x (", L);
    if (m.q_lora_rank) attn += fmt::format("q_a {}x{} + q_b {}x{}x{} + ", h, m.q_lora_rank, m.q_lora_rank, m.num_heads,
                                           m.qk_nope_head_dim + m.qk_rope_head_dim);
    else attn += fmt::format("q {}x{}x{} + ", h, m.num_heads, m.qk_nope_head_dim + m.qk_rope_head_dim);
    attn += fmt::format("kv_a {}x({}+{}) + kv_b {}x{}x({}+{}) + o {}x{}x{})", h, m.kv_lora_rank, m.qk_rope_head_dim,
                        m.kv_lora_rank, m.num_heads, m.qk_nope_head_dim, m.v_head_dim, m.num_heads, m.v_head_dim, h);
  } else {
    attn = fmt::format("{} x (q {}x{}x{} + k,v 2x{}x{}x{} + o {}x{}x{})", L, h, m.num_heads, m.head_dim, h,
                       m.num_kv_heads, m.head_dim, m.num_heads, m.head_dim, h);
  }
  if (m.qkv_bias || m.o_bias) attn += " + biases";
  if (m.attention_sinks) attn += fmt::format(" + {} sinks per layer", m.num_heads);
  rows.push_back({"params_attention", "attention", p.attention, "parameters", params_text(p.attention), attn, kSrcParams});

  const std::string mats = m.gated_mlp ? "3" : "2";
  std::string mlp;
  std::int64_t moe_layers = 0;
  for (const auto& l : m.layers) moe_layers += l.moe;
  if (m.is_moe()) {
    if (moe_layers < m.num_layers)
      mlp = fmt::format("{} dense x {} x {} x {} + ", m.num_layers - moe_layers, mats, h, m.intermediate_size);
    const std::int64_t shared_w = m.shared_expert_intermediate_size > 0 ? m.shared_expert_intermediate_size
                                                                         : m.moe_intermediate_size;
    mlp += fmt::format("{} MoE x ({} routed x {} x {} x {}{} + router {}x{}{})", moe_layers, m.num_experts, mats, h,
                       m.moe_intermediate_size,
                       m.num_shared_experts ? fmt::format(" + {} shared x {} x {} x {}", m.num_shared_experts, mats, h,
                                                          shared_w)
                                            : "",
                       h, m.num_experts, m.shared_expert_gate ? fmt::format(" + shared gate {}x1", h) : "");
  } else {
    mlp = fmt::format("{} x {} x {} x {} ({})", L, mats, h, m.intermediate_size,
                      m.gated_mlp ? "gate, up, down" : "up, down");
  }
  if (m.mlp_bias || m.router_bias) mlp += " + biases";
  rows.push_back({"params_mlp", "mlp", p.mlp, "parameters", params_text(p.mlp), mlp, kSrcParams});

  std::string norms = fmt::format("{} x ({} x {}", L, m.norms_per_layer, h);
  if (m.qk_norm == QkNorm::per_head) norms += fmt::format(" + 2 x {} q/k norms", m.head_dim);
  if (m.qk_norm == QkNorm::full_width)
    norms += fmt::format(" + ({} + {}) x {} q/k norms", m.num_heads, m.num_kv_heads, m.head_dim);
  if (m.is_mla()) norms += fmt::format(" + {} + {} latent norms", m.q_lora_rank, m.kv_lora_rank);
  norms += m.final_norm ? fmt::format(") + {} final", h) : std::string(")");
  if (m.norm == NormKind::layer) norms += " widths x 2 (LayerNorm: scale and bias)";
  if (m.norm == NormKind::non_parametric) norms = "none: LayerNorm without parameters";
  rows.push_back({"params_norms", "norms", p.norms, "parameters", params_text(p.norms), norms, kSrcParams});
  rows.push_back({"params_total", "total", p.total, "parameters", params_text(p.total),
                  "embedding + attention + mlp + norms", kSrcParams});
  if (m.vision_params > 0)
    rows.push_back({"params_total_with_vision", "total with the vision tower", p.total_with_vision, "parameters",
                    params_text(p.total_with_vision),
                    fmt::format("total (text model) + {} {} ({})", m.vision_model, params_text(p.vision),
                                "vision encoder and projector, counted apart"),
                    kSrcVision});
  rows.push_back({"params_active", "active per token", p.active, "parameters", params_text(p.active),
                  m.is_moe() ? fmt::format("total - {} MoE layers x ({} - {}) unused experts", moe_layers,
                                           m.num_experts, m.experts_per_token)
                             : std::string("dense model: every parameter is used by every token"),
                  kSrcActive});
  if (m.is_moe())
    rows.push_back({"params_active_without_input_embedding", "active, input embedding not counted",
                    p.active_without_input_embedding, "parameters", params_text(p.active_without_input_embedding),
                    fmt::format("active - vocab x hidden = active - {} x {}", V, h),
                    "the convention of the DeepSeek-V3 (36.6B) and gpt-oss (5.13B) model cards: the embedding is a "
                    "lookup, not a matmul"});

  // Weights.
  const double wb = weight_bytes(m, wbytes);
  rows.push_back({"weight_bytes", fmt::format("weights ({})", o.dtype), wb, "bytes", bytes_text(wb),
                  fmt::format("{} parameters x {:g} B", thousands(p.total), wbytes), kSrcWeights});
  if (m.vision_params > 0)
    rows.push_back({"weight_bytes_with_vision", fmt::format("weights with the vision tower ({})", o.dtype),
                    p.total_with_vision * wbytes, "bytes", bytes_text(p.total_with_vision * wbytes),
                    fmt::format("{} parameters x {:g} B (what an engine loads for the multimodal checkpoint)",
                                thousands(p.total_with_vision), wbytes),
                    kSrcWeights});
  for (const char* other : {"fp32", "bf16", "fp8", "fp4"}) {
    const double b = *dtype_bytes(other);
    if (b == wbytes) continue;
    rows.push_back({fmt::format("weight_bytes_{}", other), fmt::format("weights if stored as {}", other),
                    weight_bytes(m, b), "bytes", bytes_text(weight_bytes(m, b)),
                    fmt::format("{} parameters x {:g} B", thousands(p.total), b), kSrcWeights});
  }

  // KV cache.
  for (const auto& g : kv_layer_groups(m, kvbytes)) {
    std::string formula, source = kSrcKv, label;
    if (g.kind == AttentionKind::mla) {
      formula = fmt::format("(kv_lora_rank + qk_rope_head_dim) x {:g} B = ({} + {}) x {:g}", kvbytes, m.kv_lora_rank,
                            m.qk_rope_head_dim, kvbytes);
      source = kSrcMla;
      label = "KV per token per MLA layer";
    } else {
      formula = fmt::format("2 (K,V) x num_kv_heads x head_dim x {:g} B = 2 x {} x {} x {:g}", kvbytes, m.num_kv_heads,
                            m.head_dim, kvbytes);
      label = g.kind == AttentionKind::full      ? std::string("KV per token per full layer")
              : g.kind == AttentionKind::chunked ? fmt::format("KV per token per chunk-{} layer", g.window)
                                                 : fmt::format("KV per token per window-{} layer", g.window);
      if (g.kind == AttentionKind::sliding_window) source = std::string(kSrcKv) + "; " + kSrcWindow;
      if (g.kind == AttentionKind::chunked) source = std::string(kSrcKv) + "; " + kSrcChunked;
    }
    const std::string key = g.kind == AttentionKind::sliding_window ? fmt::format("kv_bytes_per_token_layer_window_{}", g.window)
                            : g.kind == AttentionKind::chunked
                                ? fmt::format("kv_bytes_per_token_layer_chunk_{}", g.window)
                                : fmt::format("kv_bytes_per_token_layer_{}", to_string(g.kind));
    rows.push_back({key, fmt::format("{} ({} layers)", label, g.layers), g.bytes_per_token_per_layer, "bytes",
                    bytes_text(g.bytes_per_token_per_layer), formula, source});
  }
  const double growth = kv_bytes_per_token_full(m, kvbytes);
  const double uncapped = kv_bytes_per_token_uncapped(m, kvbytes);
  const double seq = kv_bytes_for_context(m, kvbytes, o.context);
  const bool windows = growth != uncapped;
  rows.push_back({"kv_bytes_per_token",
                  windows ? fmt::format("KV growth per token past every window ({})", o.kv_dtype)
                          : fmt::format("KV per token, all layers ({})", o.kv_dtype),
                  growth, "bytes", bytes_text(growth),
                  windows ? "sum over full / MLA layers only: once the context is past every window, window layers "
                            "stop growing"
                          : "sum of the per-layer values over all layers",
                  windows ? std::string(kSrcKv) + "; " + kSrcWindow : std::string(m.is_mla() ? kSrcMla : kSrcKv)});
  if (windows)
    rows.push_back({"kv_bytes_per_token_uncapped", "KV per token if every layer kept every token", uncapped, "bytes",
                    bytes_text(uncapped), "sum over all layers, windows ignored (what a cache that never frees "
                                          "out-of-window entries allocates)", kSrcKv});
  if (windows)
    rows.push_back({"kv_bytes_per_token_average", fmt::format("KV per token at {} tokens (average)", thousands(double(o.context))),
                    seq / double(o.context), "bytes", bytes_text(seq / double(o.context)),
                    fmt::format("KV of one sequence / {} tokens", o.context), kSrcWindow});
  rows.push_back({"kv_bytes_for_context", fmt::format("KV of one sequence of {} tokens", thousands(double(o.context))),
                  seq, "bytes", bytes_text(seq),
                  windows ? fmt::format("sum over layers of per-layer bytes x min({}, window) (full layers: {})",
                                        o.context, o.context)
                          : fmt::format("{} x {} tokens", thousands(growth), o.context),
                  windows ? kSrcWindow : (m.is_mla() ? kSrcMla : kSrcKv)});

  // FLOPs.
  const TokenFlops pre = prefill_flops(m, o.context);
  const TokenFlops pre_tok = prefill_flops_per_token(m, o.context);
  const TokenFlops dec = decode_flops(m, o.context);
  const double N = dec.linear / 2;
  const std::string linear_formula = fmt::format(
      "2 x {} weight-matrix parameters a token multiplies by (attention, {}, LM head {}x{}; the embedding "
      "lookup is free)", thousands(N), m.is_moe() ? "router, top-k + shared experts" : "MLP", V, h);
  const std::string attn_src = m.is_mla() ? std::string(kSrcAttention) + "; " + kSrcMlaFlops : kSrcAttention;
  rows.push_back({"flops_linear_per_token", "linear FLOPs per token", dec.linear, "FLOPs", flops_text(dec.linear),
                  linear_formula, kSrcLinear});
  rows.push_back({"flops_prefill_linear", fmt::format("prefill {} tokens: linear", thousands(double(o.context))),
                  pre.linear, "FLOPs", flops_text(pre.linear), fmt::format("{} tokens x linear FLOPs per token", o.context),
                  kSrcLinear});
  rows.push_back({"flops_prefill_attention", fmt::format("prefill {} tokens: attention", thousands(double(o.context))),
                  pre.attention, "FLOPs", flops_text(pre.attention),
                  fmt::format("sum over layers of 2 x {} heads x (d_qk + d_v) x sum_t min(t, window), t = 1..{} "
                              "(causal: ~c^2/2 keys per full layer, not c^2)", m.num_heads, o.context),
                  attn_src});
  rows.push_back({"flops_prefill_per_token", "prefill: average per prompt token", pre_tok.total(), "FLOPs",
                  flops_text(pre_tok.total()),
                  fmt::format("(linear + attention) / {} = {} + {}", o.context, flops_text(pre_tok.linear),
                              flops_text(pre_tok.attention)),
                  kSrcLinear});
  rows.push_back({"flops_decode_attention", fmt::format("decode at context {}: attention", thousands(double(o.context))),
                  dec.attention, "FLOPs", flops_text(dec.attention),
                  fmt::format("sum over layers of 2 x {} heads x (d_qk + d_v) x min({}, window) keys", m.num_heads, o.context),
                  attn_src});
  rows.push_back({"flops_decode_per_token", fmt::format("decode at context {}: per token", thousands(double(o.context))),
                  dec.total(), "FLOPs", flops_text(dec.total()),
                  fmt::format("linear {} + attention {}", flops_text(dec.linear), flops_text(dec.attention)), kSrcLinear});

  // Activations.
  const ActivationMemory a = activation_memory(m, wbytes);
  rows.push_back({"activation_bytes_per_token", fmt::format("activation peak per token ({})", o.dtype),
                  a.peak_bytes_per_token, "bytes", bytes_text(a.peak_bytes_per_token),
                  fmt::format("max(attention stage {}, MLP stage {}) = the {} stage: residual + normed input + {}",
                              bytes_text(a.attention_bytes_per_token), bytes_text(a.mlp_bytes_per_token), a.peak_stage,
                              a.peak_stage == "mlp" ? (m.is_moe() ? "gate/up outputs of the top-k + shared experts + router logits"
                                                                  : "gate and up outputs")
                                                    : "q, k, v of the token and the attention output"),
                  kSrcActivations});
  rows.push_back({"logits_bytes_per_sequence", "logits per sampled position (fp32)", a.logits_bytes_per_sequence,
                  "bytes", bytes_text(a.logits_bytes_per_sequence), fmt::format("vocab x 4 B = {} x 4", V),
                  "engines keep fp32 logits for the last position of each sequence"});
  return rows;
}

/// --tp N: one rank's parameters, weights, KV and bytes per step (tensor_parallel.hpp).
void append_tensor_parallel_rows(std::vector<Row>& rows, const ModelConfig& m, int tp, double wbytes, double kvbytes,
                                 std::int64_t context) {
  TensorParallelShare s;
  try {
    s = tensor_parallel_share(m, tp, wbytes, kvbytes, context);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const char* src = "Megatron-LM (Shoeybi et al. 2019, sec. 3) as vLLM shards it (linear.py, vocab_parallel_embedding.py)";
  rows.push_back({"tp_params_per_gpu", "parameters per GPU", s.params_per_gpu, "parameters", params_text(s.params_per_gpu),
                  fmt::format("sharded {} / {}{} + replicated {} (norms, routers, row-parallel biases, MLA "
                              "down-projections) + KV-head copies {}", thousands(s.sharded_params), tp,
                              s.vision_params > 0 ? fmt::format(" (the {} vision tower's {} included: vLLM splits its "
                                                                "weights too, mm_encoder_tp_mode 'weights')",
                                                                m.vision_model, thousands(s.vision_params))
                                                  : std::string(),
                              thousands(s.replicated_params), thousands(s.kv_head_copy_params)),
                  src});
  rows.push_back({"tp_weight_bytes_per_gpu", "weights per GPU", s.weight_bytes_per_gpu, "bytes",
                  bytes_text(s.weight_bytes_per_gpu), fmt::format("{} parameters x {:g} B", thousands(s.params_per_gpu), wbytes),
                  src});
  if (s.mla)
    rows.push_back({"tp_kv_latent_bytes_per_token_per_layer", "KV per GPU: MLA latent per token per layer",
                    s.kv_latent_bytes_per_token_per_layer, "bytes", bytes_text(s.kv_latent_bytes_per_token_per_layer),
                    fmt::format("(kv_lora_rank {} + qk_rope_head_dim {}) x {:g} B on every GPU: the latent has no "
                                "heads to split", m.kv_lora_rank, m.qk_rope_head_dim, kvbytes),
                    std::string(kSrcMla) + "; vLLM vllm/config.py ModelConfig.get_num_kv_heads (1 under MLA)"});
  else
    rows.push_back({"tp_kv_heads_per_gpu", "KV heads per GPU", double(s.kv_heads_per_gpu), "heads",
                    std::to_string(s.kv_heads_per_gpu),
                    fmt::format("max(1, {} / {}){}", m.num_kv_heads, tp,
                                s.kv_heads_replicated ? ": fewer KV heads than GPUs, each head stored on several" : ""),
                    "vLLM vllm/config.py ModelConfig.get_num_kv_heads"});
  const bool windowed = s.kv_growth_bytes_per_token_per_gpu != s.kv_bytes_per_token_per_gpu;
  rows.push_back({"tp_kv_bytes_per_token_per_gpu", "KV per token per GPU (every layer)", s.kv_bytes_per_token_per_gpu,
                  "bytes",
                  windowed ? fmt::format("{}; {} once past every window", bytes_text(s.kv_bytes_per_token_per_gpu),
                                         bytes_text(s.kv_growth_bytes_per_token_per_gpu))
                           : bytes_text(s.kv_bytes_per_token_per_gpu),
                  windowed ? fmt::format("the model's KV per token x this GPU's share of the heads, windows ignored (what "
                                         "a page slot holds); past every window a token adds only the full-attention "
                                         "layers' {} B", thousands(s.kv_growth_bytes_per_token_per_gpu))
                           : std::string("the model's KV per token x this GPU's share of the heads"),
                  windowed ? std::string("vLLM CacheEngine.get_cache_block_size; ") + kSrcWindow
                           : std::string("vLLM CacheEngine.get_cache_block_size")});
  rows.push_back({"tp_prefill_bytes_per_gpu", fmt::format("prefill {} tokens: bytes moved per GPU", thousands(double(context))),
                  s.prefill_bytes_per_gpu, "bytes", bytes_text(s.prefill_bytes_per_gpu),
                  fmt::format("weights read once {} + KV written {}", bytes_text(s.weight_read_bytes_per_gpu),
                              bytes_text(s.kv_bytes_for_context_per_gpu)),
                  "Pope et al. 2022, Efficiently Scaling Transformer Inference, sec. 2 (weights once per step + KV)"});
  rows.push_back({"tp_decode_bytes_per_gpu", fmt::format("decode at context {}: bytes moved per GPU", thousands(double(context))),
                  s.decode_bytes_per_gpu, "bytes", bytes_text(s.decode_bytes_per_gpu),
                  fmt::format("weights read once {} + KV read {} (one sequence; the input embedding is a lookup)",
                              bytes_text(s.weight_read_bytes_per_gpu), bytes_text(s.kv_bytes_for_context_per_gpu)),
                  "Pope et al. 2022, Efficiently Scaling Transformer Inference, sec. 2 (weights once per step + KV)"});
}

int run_calc(CalcOptions o, Outputs& out, int argc, char** argv) {
  if (o.config_path.empty() == o.model_name.empty())
    throw UsageError("calc: give exactly one of --model NAME (a shipped config) or --config FILE");
  const auto wbytes = dtype_bytes(o.dtype);
  if (!wbytes) throw UsageError("--dtype: unknown '" + o.dtype + "'; allowed: " + known_dtypes());
  if (o.kv_dtype.empty()) o.kv_dtype = o.dtype;
  const auto kvbytes = dtype_bytes(o.kv_dtype);
  if (!kvbytes) throw UsageError("--kv-dtype: unknown '" + o.kv_dtype + "'; allowed: " + known_dtypes());

  ModelConfig m;
  try {
    m = o.model_name.empty() ? load_model_file(o.config_path) : load_shipped_model(o.model_name);
  } catch (const UnknownModelError& e) {
    throw UsageError(std::string("--model: ") + e.what());
  } catch (const ConfigError& e) {
    throw UsageError(o.model_name.empty() ? "--config " + o.config_path + ": " + e.what()
                                          : "--model " + o.model_name + ": " + e.what());
  }

  std::vector<Row> rows = build_rows(m, o, *wbytes, *kvbytes);
  if (o.tp_given) append_tensor_parallel_rows(rows, m, o.tp, *wbytes, *kvbytes, o.context);
  std::FILE* human = out.human();
  fmt::print(human, "kind: model (computed from the config's shapes; no GPU, nothing measured)\n");
  fmt::print(human, "model: {} ({}){}\n", m.name, m.model_type, m.source.empty() ? "" : "  [source: data/models/SOURCES.md]");
  const std::string heads =
      m.is_mla() ? fmt::format("{} heads, MLA (q/k head_dim {} = {} nope + {} rope, v_head_dim {})", m.num_heads,
                               m.head_dim, m.qk_nope_head_dim, m.qk_rope_head_dim, m.v_head_dim)
                 : fmt::format("{} query / {} KV heads x head_dim {}", m.num_heads, m.num_kv_heads, m.head_dim);
  const std::string mlp_shape =
      m.is_moe() ? fmt::format("MLP {} per expert{}", m.moe_intermediate_size,
                               m.first_dense_layers ? fmt::format(" / {} dense", m.intermediate_size) : "")
                 : fmt::format("MLP {}", m.intermediate_size);
  fmt::print(human, "shape: {} layers, hidden {}, {}, {} ({}), vocab {}, embeddings {}\n", m.num_layers,
             m.hidden_size, heads, mlp_shape, m.gated_mlp ? "gated" : "not gated", m.vocab_size,
             m.tie_word_embeddings ? "tied" : "untied");
  if (m.is_mla())
    fmt::print(human, "MLA latent: kv_lora_rank {}, qk_rope_head_dim {}, q_lora_rank {}\n", m.kv_lora_rank,
               m.qk_rope_head_dim, m.q_lora_rank);
  fmt::print(human, "layers: {}\n", layer_summary(m));
  fmt::print(human, "assumed: weights {} ({:g} B), KV cache {} ({:g} B), context {} tokens; 1 GB = 1e9 B, 1 GiB = 2^30 B\n",
             o.dtype, *wbytes, o.kv_dtype, *kvbytes, o.context);
  if (m.max_position_embeddings > 0 && o.context > m.max_position_embeddings)
    fmt::print(human, "note: --context {} exceeds the model's max_position_embeddings {}\n", o.context,
               m.max_position_embeddings);
  std::string section;
  for (const Row& r : rows) {
    const std::string s = r.key.rfind("tp_", 0) == 0 ? fmt::format("tensor parallel: one of {} GPUs", o.tp) :
                          r.unit == "parameters" ? "parameters" : r.unit == "FLOPs" ? "FLOPs" :
                          r.key.rfind("kv", 0) == 0 ? "KV cache" : r.key.rfind("weight", 0) == 0 ? "weights" : "activations";
    if (s != section) {
      fmt::print(human, "\n{}\n", s);
      section = s;
    }
    fmt::print(human, "  {:<48} {}\n", r.label, r.shown);
    if (o.explain) fmt::print(human, "      = {}\n      source: {}\n", r.formula, r.source);
  }
  if (!o.explain) fmt::print(human, "\n(--explain prints the formula and source of every number)\n");

  if (out.json()) {
    nlohmann::json quantities = nlohmann::json::object();
    for (const Row& r : rows)
      quantities[r.key] = {{"label", r.label}, {"value", r.value}, {"unit", r.unit}, {"formula", r.formula}, {"source", r.source}};
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& g : kv_layer_groups(m, *kvbytes))
      layers.push_back({{"kind", to_string(g.kind)}, {"window", g.window}, {"layers", g.layers},
                        {"kv_bytes_per_token_per_layer", g.bytes_per_token_per_layer}});
    nlohmann::json record = record_head("b05_transformer", "B05", "model", command_line(argc, argv), "calc");
    record["model"] = to_json(m);
    record["model"]["attention_layers"] = layers;
    record["problem"] = {{"context", o.context}, {"dtype", o.dtype}, {"bytes_per_param", *wbytes},
                         {"kv_dtype", o.kv_dtype}, {"kv_bytes_per_element", *kvbytes}};
    record["quantities"] = quantities;
    record["notes"] = {{"causal_masking", "attention FLOPs count only unmasked (query, key) pairs"},
                       {"flop", "2 FLOPs per multiply-accumulate"},
                       {"bytes", "bytes; 1 GB = 1e9 B"}};
    out.write_json(record);
  }
  return kExitOk;
}

// ---- every shipped model side by side ---------------------------------------------------------

/// One model's row of `table`.
std::string table_row(const std::string& stem, const ModelConfig& m, std::int64_t context, double wbytes,
                      double kvbytes) {
  const ParamCount p = count_params(m);
  // A context past the model's positions is still computed (a model, not a validator), and flagged.
  const bool past = m.max_position_embeddings > 0 && context > m.max_position_embeddings;
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} | {}{} | {} |\n", stem, m.model_type, thousands(p.total),
                     m.is_moe() ? thousands(p.active) : std::string("= total"),
                     m.vision_params > 0 ? thousands(p.total_with_vision) : std::string(""),
                     bytes_text(p.total_with_vision * wbytes), thousands(kv_bytes_per_token_full(m, kvbytes)),
                     thousands(kv_bytes_for_context(m, kvbytes, context)),
                     past ? fmt::format(" (past its {} positions)", thousands(double(m.max_position_embeddings))) : "",
                     layer_summary(m));
}

/// `table`: one Markdown row per shipped model at one context and dtype: the numbers a reader
/// compares across models, each the same value `calc` prints for that model.
int run_table(std::int64_t context, const std::string& dtype, std::string kv_dtype) {
  if (kv_dtype.empty()) kv_dtype = dtype;
  const auto wbytes = dtype_bytes(dtype);
  if (!wbytes) throw UsageError("--dtype: unknown '" + dtype + "'; allowed: " + known_dtypes());
  const auto kvbytes = dtype_bytes(kv_dtype);
  if (!kvbytes) throw UsageError("--kv-dtype: unknown '" + kv_dtype + "'; allowed: " + known_dtypes());
  const auto stems = shipped_models();
  if (stems.empty()) throw UsageError("table: no configs found in " + models_dir());
  // Every row is computed before the first line is printed: a bad config in the models folder
  // is one line naming its file and key, exit 2, never half a table.
  std::vector<std::string> rows;
  for (const auto& stem : stems) {
    const std::string path = (std::filesystem::path(models_dir()) / (stem + ".json")).string();
    try {
      rows.push_back(table_row(stem, load_shipped_model(stem), context, *wbytes, *kvbytes));
    } catch (const ConfigError& e) {
      throw UsageError("table: " + path + ": " + e.what());
    } catch (const UsageError& e) {
      throw UsageError("table: " + path + ": " + e.what());
    }
  }
  fmt::print("kind: model (computed from each config's shapes; weights {}, KV cache {}, context {} tokens)\n\n", dtype,
             kv_dtype, thousands(double(context)));
  fmt::print("| model | model_type | parameters | active per token | with vision tower | weights ({}) | KV per token past "
             "every window (B) | KV of one {}-token sequence (B) | layers |\n",
             dtype, thousands(double(context)));
  fmt::print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
  for (const auto& row : rows) fmt::print("{}", row);
  return kExitOk;
}

int run(int argc, char** argv) {
  // `profile` is a GPU lab with options of its own (profile_command.cpp): it parses the rest.
  if (argc >= 2 && std::string(argv[1]) == "profile") return run_profile(argc, argv);
  CLI::App app{"B05 Transformer performance: parameters, FLOPs, weight / KV-cache / activation bytes of a model "
               "from its Hugging Face config.json (an analytic model; no GPU needed); `profile` measures one layer "
               "on the GPU", "b05_transformer"};
  app.require_subcommand(0, 1);
  bool list_models = false;
  app.add_flag("--list-models", list_models, "list the shipped model configs (--model NAME)");
  bool list_families = false;
  app.add_flag("--list-families", list_families,
               "list the model_type values the config reader knows and the modelling code each rule follows");

  CalcOptions o;
  auto* calc = app.add_subcommand("calc", "compute every number for one model");
  auto* model_opt = calc->add_option("--model", o.model_name, "a shipped config by file stem (see --list-models); "
                                                               "one of --model or --config is required");
  auto* config_opt = calc->add_option("--config", o.config_path, "a Hugging Face config.json (any path), instead of --model");
  model_opt->excludes(config_opt);
  calc->add_option("--context", o.context, "context length in tokens (>= 1; default 4096)")
      ->check(decimal_integer())->check(CLI::Range(1, 1 << 30));
  calc->add_option("--dtype", o.dtype, "weight and activation dtype: " + known_dtypes() + " (default bf16)");
  calc->add_option("--kv-dtype", o.kv_dtype, "KV-cache dtype (default: --dtype)");
  calc->add_option("--tp", o.tp, "tensor-parallel degree: also print one GPU's weights, KV and bytes per step "
                                 "(1 .. 1024; must divide num_attention_heads)")
      ->check(integer_in(1, 1024));
  Outputs out(*calc);
  calc->add_flag("--explain", o.explain, "print each number's formula and source");
  calc->add_flag("--list-models", o.list_models, "list the shipped model configs");

  std::int64_t table_context = 32768;
  std::string table_dtype = "bf16", table_kv_dtype;
  auto* table = app.add_subcommand("table", "every shipped model side by side: parameters, active parameters, KV "
                                            "per token and per sequence (a Markdown table)");
  table->add_option("--context", table_context, "context length in tokens (>= 1; default 32768)")
      ->check(integer_in(1, 1 << 30));
  table->add_option("--dtype", table_dtype, "weight dtype: " + known_dtypes() + " (default bf16)");
  table->add_option("--kv-dtype", table_kv_dtype, "KV-cache dtype (default: --dtype)");

  auto* profile = app.add_subcommand("profile", "one decoder layer on the GPU, sub-op by sub-op, verified, timed and "
                                               "beside its roofline prediction (b05_transformer profile --help)");
  profile->prefix_command();  // its options are read by run_profile, which needs the word first

  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  if (profile->parsed()) throw UsageError("profile: give it first: b05_transformer profile [OPTIONS]");
  if (list_families) {
    if (calc->parsed() || table->parsed()) throw UsageError("--list-families: give it alone, without a subcommand");
    fmt::print("| model_type | the rule follows |\n| --- | --- |\n");
    for (const Family& f : families()) fmt::print("| `{}` | {} |\n", f.model_type, f.follows);
    return kExitOk;
  }
  if (list_models || o.list_models) {
    out.refuse("--list-models only prints the shipped configs");
    const auto stems = shipped_models();
    if (stems.empty()) throw UsageError("--list-models: no configs found in " + models_dir());
    for (const auto& s : stems) fmt::print("{}\n", s);
    return kExitOk;
  }
  if (table->parsed()) return run_table(table_context, table_dtype, table_kv_dtype);
  if (!calc->parsed())
    throw UsageError("missing subcommand: b05_transformer calc --model NAME | --config FILE, table, or profile (or "
                     "--list-models)");
  out.check({{"--config", o.config_path}});
  o.tp_given = calc->count("--tp") > 0;
  return run_calc(o, out, argc, argv);
}

}  // namespace
}  // namespace tutor::b05

int main(int argc, char** argv) {
  return tutor::run_main("b05_transformer", [&] { return tutor::b05::run(argc, argv); });
}
