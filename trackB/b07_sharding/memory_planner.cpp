// B07: the training memory planner (formulas and sources: memory_planner.hpp).
#include "memory_planner.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "calculator.hpp"

namespace tutor::b07 {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

constexpr double kActivationBytes = 2;  // 16-bit activations (Korthikanti sec. 4.1)
constexpr double kMaskBytes = 1;        // dropout masks, one byte per element (sec. 4.1)
constexpr double kFp32Bytes = 4;        // log-sum-exp of FlashAttention; logits for the loss

/// The first stage's (and the last stage's) peak of micro-batches whose chunk-0 (last chunk)
/// forward has run and backward has not: the embedding (output layer) holds one activation
/// set per such micro-batch.
int peak_in_flight_of_chunk(const StageTimeline& stage, int chunk) {
  int in_flight = 0, peak = 0;
  for (const Slot& s : stage.slots) {
    if (s.chunk != chunk) continue;
    in_flight += s.pass == Pass::forward ? 1 : -1;
    peak = std::max(peak, in_flight);
  }
  return peak;
}

}  // namespace

ModelStates zero_model_states(double params, int zero_stage, int dp) {
  require(zero_stage >= 0 && zero_stage <= 3, fmt::format("--zero: must be 0, 1, 2 or 3, got {}", zero_stage));
  require(dp >= 1, fmt::format("--gpus: the data-parallel degree must be >= 1, got {}", dp));
  require(std::isfinite(params) && params >= 0, fmt::format("--params: must be a finite count >= 0, got {}", params));
  const double n = dp;
  ModelStates m;
  m.weight_bytes = kWeightBytesPerParam * params / (zero_stage >= 3 ? n : 1);
  m.gradient_bytes = kGradientBytesPerParam * params / (zero_stage >= 2 ? n : 1);
  m.optimizer_bytes = kOptimizerBytesPerParam * params / (zero_stage >= 1 ? n : 1);
  return m;
}

std::optional<Recompute> parse_recompute(std::string_view text) {
  std::string s;
  for (char c : text) s += char(std::tolower(static_cast<unsigned char>(c)));
  if (s == "none") return Recompute::none;
  if (s == "selective") return Recompute::selective;
  if (s == "full") return Recompute::full;
  return std::nullopt;
}

std::string_view name(Recompute r) {
  switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "?";
}

double korthikanti_layer_bytes(double s, double b, double h, double a, int t, bool sp, Recompute r) {
  require(s >= 1 && b >= 1 && h >= 1 && a >= 1 && t >= 1, "korthikanti_layer_bytes: every size must be >= 1");
  const double sbh = s * b * h;
  const double quadratic = 5 * a * s / (h * t);  // 5as/(ht): softmax, its dropout mask, dropout output
  const double linear = sp ? 34.0 / t : 10 + 24.0 / t;
  switch (r) {
    case Recompute::none: return sbh * (linear + quadratic);
    case Recompute::selective: return sbh * linear;
    case Recompute::full: return 2 * sbh / (sp ? t : 1);
  }
  return 0;
}

LayerShape layer_shape(const b05::ModelConfig& cfg) {
  LayerShape s;
  s.hidden = double(cfg.hidden_size);
  s.heads = double(cfg.num_heads);
  s.head_dim = double(cfg.head_dim);
  if (cfg.is_mla()) {
    // Training runs MLA in its decompressed form: per-head keys of qk_nope + qk_rope and
    // per-head values of v_head_dim (DeepSeek-V2 paper sec. 2.1.2).
    s.kv_heads = s.heads;
    s.v_head_dim = double(cfg.v_head_dim);
  } else {
    s.kv_heads = double(cfg.num_kv_heads);
    s.v_head_dim = s.head_dim;
  }
  s.gated = cfg.gated_mlp;
  s.mlp_width = cfg.is_moe()
                    ? double(cfg.experts_per_token + cfg.num_shared_experts) * double(cfg.moe_intermediate_size)
                    : double(cfg.intermediate_size);
  s.vocab = double(cfg.vocab_size);
  return s;
}

LayerShape gpt_layer_shape(double hidden, double heads) {
  LayerShape s;
  s.hidden = hidden;
  s.heads = heads;
  s.kv_heads = heads;
  s.head_dim = hidden / heads;
  s.v_head_dim = hidden / heads;
  s.mlp_width = 4 * hidden;
  s.gated = false;
  s.vocab = 0;
  return s;
}

LayerActivations layer_activations(const LayerShape& shape, double seq_len, double micro_batch,
                                   const ActivationOptions& o) {
  require(seq_len >= 1, fmt::format("--seq-len: must be >= 1, got {}", seq_len));
  require(micro_batch >= 1, fmt::format("--micro-batch: must be >= 1, got {}", micro_batch));
  require(o.tp >= 1, fmt::format("--tp: must be >= 1, got {}", o.tp));
  const double s = seq_len, b = micro_batch, h = shape.hidden, a = shape.heads, t = o.tp;
  const double sb = s * b;
  const double sp_div = o.sequence_parallel ? t : 1;
  // K and V are split by heads; with fewer K/V heads than t each GPU still holds one head.
  const double kv_heads_per_gpu = std::max(shape.kv_heads / t, 1.0);
  const double f_inner = shape.mlp_width;
  LayerActivations out;
  auto add = [&](std::string name, double bytes, std::string divided_by, bool quadratic = false) {
    out.terms.push_back({std::move(name), bytes, std::move(divided_by), quadratic});
  };
  const std::string by_sp = o.sequence_parallel ? "t (SP)" : "none (replicated without SP)";
  // Attention block (sec. 4.1, "Attention block").
  add("attention norm input", kActivationBytes * sb * h / sp_div, by_sp);
  add("QKV projection input", kActivationBytes * sb * h / sp_div, by_sp);
  add("Q", kActivationBytes * sb * a * shape.head_dim / t, "t");
  add("K", kActivationBytes * sb * kv_heads_per_gpu * shape.head_dim, "t");
  add("V", kActivationBytes * sb * kv_heads_per_gpu * shape.v_head_dim, "t");
  if (o.flash_attention) {
    add("softmax log-sum-exp (fp32, FlashAttention)", kFp32Bytes * a * s * b / t, "t");
  } else {
    add("softmax output (a s^2 b)", kActivationBytes * a * s * s * b / t, "t", true);
    if (o.dropout) {
      add("softmax dropout mask", kMaskBytes * a * s * s * b / t, "t", true);
      add("softmax dropout output", kActivationBytes * a * s * s * b / t, "t", true);
    }
  }
  add("output projection input", kActivationBytes * sb * a * shape.v_head_dim / t, "t");
  if (o.dropout) add("attention dropout mask", kMaskBytes * sb * h / sp_div, by_sp);
  // MLP block (sec. 4.1, "MLP"): GeLU needs its input and the second linear its input;
  // a gated MLP needs the gate and up outputs (the activation's inputs) and the product.
  add("MLP norm input", kActivationBytes * sb * h / sp_div, by_sp);
  add("MLP input", kActivationBytes * sb * h / sp_div, by_sp);
  add(shape.gated ? "gate and up outputs (activation input)" : "activation input",
      kActivationBytes * sb * f_inner * (shape.gated ? 2 : 1) / t, "t");
  add("activation output (down projection input)", kActivationBytes * sb * f_inner / t, "t");
  if (o.dropout) add("MLP dropout mask", kMaskBytes * sb * h / sp_div, by_sp);

  for (const auto& term : out.terms) out.all_bytes += term.bytes;
  switch (o.recompute) {
    case Recompute::none: out.stored_bytes = out.all_bytes; break;
    case Recompute::selective:
      for (const auto& term : out.terms)
        if (!term.quadratic) out.stored_bytes += term.bytes;
      break;
    case Recompute::full:
      // Only the layer's input is kept (Korthikanti sec. 4.3 / Table 2: 2sbh); the layer is
      // rebuilt, all of it, when its backward runs.
      out.stored_bytes = kActivationBytes * sb * h / sp_div;
      out.recompute_working_bytes = out.all_bytes;
      break;
  }
  return out;
}

namespace {

/// Parameters of one GPU of stage `stage` before ZeRO: its share of the embedding, its
/// layers, and (last stage) the final norm and the LM head. Megatron-LM splits the embedding and
/// the LM head by vocabulary and every linear layer by TP (Shoeybi et al. 2019, sec. 3), but
/// keeps a whole copy of every LayerNorm / RMSNorm weight on each TP rank: the paper duplicates
/// the layer normalization across the GPUs of a tensor-parallel group (sec. 3), and with
/// sequence parallelism the norms' inputs are split along the sequence, not their weights
/// (Korthikanti et al. 2022, sec. 4.2.2). The row-parallel linears' output biases (o_proj and
/// the MLP's down projection, where a model has them) are replicated in Megatron-LM too; they
/// are counted here as split, at most 2h parameters per layer.
double stage_params(const b05::ModelConfig& cfg, const b05::ParamCount& pc, int stage, int pp, int tp) {
  const double h = double(cfg.hidden_size), vocab = double(cfg.vocab_size), L = double(cfg.num_layers);
  const double input_embedding = vocab * h;
  const double final_norm = cfg.final_norm ? h * b05::params_per_width(cfg.norm) : 0.0;
  const double split_per_layer = (pc.attention + pc.mlp) / L;  // divided by TP
  const double norms_per_layer = (pc.norms - final_norm) / L;  // replicated on every TP rank
  double split = split_per_layer * L / pp;
  double replicated = norms_per_layer * L / pp;
  if (stage == 0) split += input_embedding;
  if (stage == pp - 1) {
    replicated += final_norm;
    // The LM head: its own matrix, or with tied embeddings a copy on the last stage when the
    // embedding lives on another stage (Megatron-LM keeps both and all-reduces their grads).
    if (!cfg.tie_word_embeddings || pp > 1) split += vocab * h;
  }
  return split / tp + replicated;
}

StageMemory plan_stage(const b05::ModelConfig& cfg, const b05::ParamCount& pc, const MemoryPlan& plan,
                       const PipelineRun& run, int stage) {
  const ParallelConfig& c = plan.config;
  const ActivationOptions& o = c.activations;
  StageMemory st;
  st.stage = stage;
  st.params = stage_params(cfg, pc, stage, c.pp, c.tp);
  st.states = zero_model_states(st.params, c.zero, plan.dp);
  st.peak_in_flight = run.stages[std::size_t(stage)].peak_in_flight;
  st.layer_passes = double(st.peak_in_flight) * plan.layers_per_chunk;
  st.layer_activation_bytes = st.layer_passes * plan.layer.stored_bytes;
  st.recompute_working_bytes = plan.layer.recompute_working_bytes;
  const double s = c.seq_len, b = c.micro_batch, h = double(cfg.hidden_size), t = o.tp;
  const double sp_div = o.sequence_parallel ? t : 1;
  // Korthikanti sec. 4.3: the input embedding's dropout mask, one per micro-batch in flight
  // through the first chunk; the last stage's final norm input, output-layer input and fp32
  // logits for the cross entropy, for the one micro-batch whose loss is being computed.
  if (stage == 0 && o.dropout)
    st.extra_activation_bytes += kMaskBytes * s * b * h / sp_div * peak_in_flight_of_chunk(run.stages[0], 0);
  if (stage == c.pp - 1)
    st.extra_activation_bytes +=
        2 * kActivationBytes * s * b * h / sp_div + kFp32Bytes * s * b * double(cfg.vocab_size) / t;
  return st;
}

}  // namespace

MemoryPlan plan_memory(const b05::ModelConfig& cfg, ParallelConfig c, double capacity_bytes) {
  const int L = int(cfg.num_layers);
  require(c.gpus >= 1, fmt::format("--gpus: must be >= 1, got {}", c.gpus));
  require(c.tp >= 1, fmt::format("--tp: must be >= 1, got {}", c.tp));
  require(c.pp >= 1, fmt::format("--pp: must be >= 1, got {}", c.pp));
  require(c.pp <= L, fmt::format("--pp: {} stages for {} layers; allowed: 1 to {} (and dividing {})", c.pp, L, L, L));
  require(L % c.pp == 0, fmt::format("--pp: must divide the model's {} layers, got {}", L, c.pp));
  require(c.gpus % (c.tp * c.pp) == 0,
          fmt::format("--gpus: must be a multiple of --tp x --pp = {}, got {}", c.tp * c.pp, c.gpus));
  require(cfg.num_heads % c.tp == 0,
          fmt::format("--tp: must divide the {} attention heads, got {}", cfg.num_heads, c.tp));
  require(c.virtual_stages >= 1, fmt::format("--virtual-stages: must be >= 1, got {}", c.virtual_stages));
  require(L % (c.pp * c.virtual_stages) == 0,
          fmt::format("--virtual-stages: --pp x --virtual-stages = {} must divide the model's {} layers",
                      c.pp * c.virtual_stages, L));
  require(c.micro_batch >= 1, fmt::format("--micro-batch: must be >= 1, got {}", c.micro_batch));
  require(c.seq_len >= 1, fmt::format("--seq-len: must be >= 1, got {}", c.seq_len));
  require(!c.activations.sequence_parallel || c.seq_len % c.tp == 0,
          fmt::format("--seq-len: sequence parallelism splits the sequence over --tp {}: {} is not a multiple",
                      c.tp, c.seq_len));
  require(std::isfinite(capacity_bytes) && capacity_bytes > 0, "--gpu-memory-gib: GPU memory must be > 0");
  if (c.microbatches == 0) c.microbatches = 4 * c.pp;
  require(c.microbatches >= 1, fmt::format("--microbatches: must be >= 1, got {}", c.microbatches));
  c.activations.tp = c.tp;

  MemoryPlan plan;
  plan.config = c;
  plan.dp = c.gpus / (c.tp * c.pp);
  plan.layers = L;
  plan.layers_per_stage = L / c.pp;
  plan.layers_per_chunk = L / (c.pp * c.virtual_stages);
  plan.capacity_bytes = capacity_bytes;
  const b05::ParamCount pc = b05::count_params(cfg);
  plan.params_total = pc.total;
  plan.shape = layer_shape(cfg);
  plan.layer = layer_activations(plan.shape, c.seq_len, c.micro_batch, c.activations);

  // The schedule decides how many micro-batches each stage holds: simulate it.
  PipelineParams pp;
  pp.schedule = c.schedule;
  pp.stages = c.pp;
  pp.microbatches = c.microbatches;
  pp.virtual_stages = c.virtual_stages;
  if (c.pp == 1 && c.schedule == Schedule::interleaved)
    throw std::invalid_argument("--schedule: interleaved needs --pp >= 2");
  const PipelineRun run = simulate(pp);
  plan.bubble_fraction = run.bubble_fraction;
  plan.first = plan_stage(cfg, pc, plan, run, 0);
  plan.last = c.pp > 1 ? plan_stage(cfg, pc, plan, run, c.pp - 1) : plan.first;
  for (int z = 0; z <= 3; ++z) plan.first_states_by_zero[std::size_t(z)] = zero_model_states(plan.first.params, z, plan.dp);

  if (cfg.is_moe())
    plan.notes.push_back(fmt::format(
        "mixture of experts: MLP activations counted for the top-{} routed + {} shared experts of every token "
        "(capacity factor 1); expert parallelism is not modelled: experts are counted as TP-sharded weights",
        cfg.experts_per_token, cfg.num_shared_experts));
  if (cfg.is_mla())
    plan.notes.push_back("multi-head latent attention: activations counted for the decompressed per-head keys and "
                         "values; the latent projections' inputs are not counted");
  if (cfg.num_kv_heads < c.tp && !cfg.is_mla())
    plan.notes.push_back(fmt::format("{} K/V heads over TP {}: each GPU keeps one K/V head (replicated)",
                                     cfg.num_kv_heads, c.tp));
  if (c.activations.sequence_parallel && c.tp == 1)
    plan.notes.push_back("--sp with --tp 1 changes nothing: sequence parallelism splits over the TP group");
  if (cfg.max_position_embeddings > 0 && c.seq_len > cfg.max_position_embeddings)
    plan.notes.push_back(fmt::format("--seq-len {} is longer than the model's max_position_embeddings {}", c.seq_len,
                                     cfg.max_position_embeddings));
  if (c.activations.flash_attention && c.activations.recompute == Recompute::selective)
    plan.notes.push_back("with FlashAttention there is no s x s tensor to drop: selective recomputation saves "
                         "nothing more");
  bool sliding = false;
  for (const auto& l : cfg.layers) sliding = sliding || l.attention == b05::AttentionKind::sliding_window;
  if (sliding && !c.activations.flash_attention)
    plan.notes.push_back("sliding-window layers are counted with full s x s score tensors (an upper bound)");
  return plan;
}

std::vector<PipelineDepthRow> pipeline_depth_sweep(const b05::ModelConfig& cfg, const ParallelConfig& config,
                                                   double capacity_bytes) {
  const int L = int(cfg.num_layers);
  std::set<int> depths{config.pp};
  for (int p = 1; p <= L && p <= 128; p *= 2) depths.insert(p);
  const int dp = config.gpus / (config.tp * config.pp);
  std::vector<PipelineDepthRow> rows;
  for (int p : depths) {
    if (L % p != 0) continue;
    ParallelConfig c = config;
    c.pp = p;
    c.gpus = dp * c.tp * p;
    c.schedule = Schedule::one_f_one_b;
    c.virtual_stages = 1;
    c.microbatches = config.microbatches;  // the same m for every depth: a fixed global batch
    const MemoryPlan plan = plan_memory(cfg, c, capacity_bytes);
    rows.push_back({p, c.gpus, plan.layers_per_stage, plan.first.peak_in_flight, plan.first.activation_bytes(),
                    plan.first.states.total(), plan.bubble_fraction});
  }
  return rows;
}

}  // namespace tutor::b07
