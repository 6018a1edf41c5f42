// C07: the arithmetic of sizing a serving node (capstone.hpp has the formulas and sources).
#include "capstone.hpp"

#include "tutor/report.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "step_cost.hpp"
#include "tutor/cli.hpp"

namespace tutor::c07 {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string group(std::int64_t v) { return thousands(v); }

void require_fraction(double v, const char* option) {
  if (!(v > 0 && v <= 1)) throw UsageError(fmt::format("{}: must be in (0, 1], got {}", option, v));
}

}  // namespace

double nccl_ring_allreduce_latency_us(int ranks) {
  if (ranks < 1) throw std::invalid_argument("ranks must be >= 1");
  if (ranks == 1) return 0;
  return kNcclRingLlBaseLatencyUs + 2.0 * (ranks - 1) * kNcclRingLlNvlinkStepLatencyUs;
}

// ---- part 1: one decode step -------------------------------------------------------------

void validate(const DecodeStepModel& m) {
  require_non_negative(m.weight_bytes_read, "weight_bytes_read");
  require_non_negative(m.kv_bytes_per_sequence, "kv_bytes_per_sequence");
  require_non_negative(m.linear_flops_per_sequence, "linear_flops_per_sequence");
  require_non_negative(m.attention_flops_per_sequence, "attention_flops_per_sequence");
  require_positive(m.bandwidth_GBps, "bandwidth_GBps");
  require_positive(m.compute_TFLOPs, "compute_TFLOPs");
  require_non_negative(m.overhead_us, "overhead_us");
  require_non_negative(m.comm_fixed_us, "comm_fixed_us");
  require_non_negative(m.comm_per_sequence_us, "comm_per_sequence_us");
  if (m.context < 1) throw UsageError(fmt::format("context: must be >= 1 token, got {}", m.context));
  if (m.kv_bytes_per_sequence == 0 && m.flops_per_sequence() == 0 && m.comm_per_sequence_us == 0)
    throw UsageError("kv_bytes_per_sequence: a sequence must cost bytes, FLOPs or communication");
}

DecodeStepTime decode_step_time(const DecodeStepModel& m, std::int64_t batch) {
  validate(m);
  if (batch < 0) throw UsageError(fmt::format("batch: must be >= 0, got {}", batch));
  // B06's step model on per-token numbers: a decode step of B sequences at context c reads
  // B * c KV tokens and computes B tokens, each attending to c keys.
  const double c = static_cast<double>(m.context);
  b06::RooflineStepParams p;
  p.weight_bytes = m.weight_bytes_read;
  p.flops_per_token_linear = m.linear_flops_per_sequence;
  p.kv_bytes_per_token = m.kv_bytes_per_sequence / c;
  p.attention_flops_per_pair = m.attention_flops_per_sequence / c;
  p.peak_TFLOPs = m.compute_TFLOPs;
  p.hbm_GBps = m.bandwidth_GBps;
  p.overhead_us = m.overhead_us;
  const b06::RooflineStepCost cost(p);
  b06::StepShape shape;
  shape.decode_seqs = batch;
  shape.kv_tokens_read = batch * m.context;
  const b06::StepCostBreakdown b = cost.breakdown(shape);

  DecodeStepTime t;
  t.batch = batch;
  t.bytes = b.bytes;
  t.flops = b.flops;
  t.memory_ms = b.memory_s * 1e3;
  t.compute_ms = b.compute_s * 1e3;
  t.overhead_ms = b.overhead_s * 1e3;
  t.comm_ms = (m.comm_fixed_us + static_cast<double>(batch) * m.comm_per_sequence_us) * 1e-3;
  t.total_ms = b.total_s * 1e3 + t.comm_ms;
  return t;
}

SloBatch slo_batch(const DecodeStepModel& m, double slo_ms) {
  validate(m);
  if (!(std::isfinite(slo_ms) && slo_ms > 0))
    throw UsageError(fmt::format("--slo-ms: must be a number of milliseconds > 0, got {}", slo_ms));
  SloBatch s;
  s.slo_ms = slo_ms;
  s.budget_ms = slo_ms - m.overhead_us * 1e-3 - m.comm_fixed_us * 1e-3;
  const double comm_per_seq_ms = m.comm_per_sequence_us * 1e-3;
  // Both roofs are straight lines in B, so t(B) <= SLO splits into two linear inequalities:
  //   memory:  W/BW + B (KV/BW + comm) <= budget   ->  B <= (budget - W/BW) / (KV/BW + comm)
  //   compute:        B (F/peak + comm) <= budget  ->  B <= budget / (F/peak + comm)
  const double memory_per_seq = m.kv_ms_per_sequence() + comm_per_seq_ms;
  const double compute_per_seq = m.compute_ms_per_sequence() + comm_per_seq_ms;
  const double memory_room = s.budget_ms - m.weights_ms();
  s.memory_limit = memory_per_seq > 0 ? memory_room / memory_per_seq : (memory_room >= 0 ? kInf : -kInf);
  s.compute_limit = compute_per_seq > 0 ? s.budget_ms / compute_per_seq : (s.budget_ms >= 0 ? kInf : -kInf);
  // Where the weights alone (or the fixed terms) take the whole SLO, no batch fits: 0, never a
  // negative batch.
  s.memory_limit = std::max(0.0, s.memory_limit);
  s.compute_limit = std::max(0.0, s.compute_limit);
  s.budget_ms = std::max(0.0, s.budget_ms);  // what the roofs may use: nothing, not a negative time
  s.limited_by = s.compute_limit < s.memory_limit ? "compute" : "memory";
  const double limit = std::min(s.memory_limit, s.compute_limit);
  if (!std::isfinite(limit) && limit > 0)
    throw UsageError("kv_bytes_per_sequence: a sequence costs nothing, so no SLO limits the batch");
  // Roofs cross where W/BW + B KV/BW = B F/peak.
  const double slope = m.compute_ms_per_sequence() - m.kv_ms_per_sequence();
  s.ridge_batch = slope > 0 ? m.weights_ms() / slope : kInf;

  // The floor of the closed form, checked (and nudged past rounding) against the step model.
  std::int64_t b = limit > 0 ? static_cast<std::int64_t>(std::floor(limit)) : 0;
  while (b > 0 && decode_step_time(m, b).total_ms > slo_ms) --b;
  while (decode_step_time(m, b + 1).total_ms <= slo_ms) ++b;
  s.batch = b;
  s.at_batch = decode_step_time(m, b);
  s.above_batch = decode_step_time(m, b + 1);
  return s;
}

// ---- part 2: the node --------------------------------------------------------------------

const std::vector<Precision>& precisions() {
  static const std::vector<Precision> list = {
      {"bf16", "bf16 weights, bf16 KV (baseline)", 2, 2, false},
      {"fp8-weights", "fp8 weights, bf16 compute (W8A16)", 1, 2, false},
      {"fp8-kv", "fp8 KV cache", 2, 1, false},
      {"w8a8", "fp8 weights + activations (W8A8)", 1, 2, true},
      {"w8a8+fp8-kv", "W8A8 + fp8 KV cache", 1, 1, true},
  };
  return list;
}

void validate(const b05::ModelConfig& model, NodeRequest& r) {
  if (r.gpus < 1) throw UsageError(fmt::format("--gpus: must be a positive integer, got {}", r.gpus));
  if (r.tp == 0) r.tp = r.gpus;
  if (r.tp < 1) throw UsageError(fmt::format("--tp: must be a positive integer, got {}", r.tp));
  if (r.gpus % r.tp != 0)
    throw UsageError(fmt::format("--tp: {} does not divide --gpus {} (replicas = GPUs / TP must be whole)", r.tp,
                                 r.gpus));
  if (!(std::isfinite(r.slo_ms) && r.slo_ms > 0))
    throw UsageError(fmt::format("--slo-ms: must be a number of milliseconds > 0, got {}", r.slo_ms));
  if (r.context < 1) throw UsageError(fmt::format("--context: must be >= 1 token, got {}", r.context));
  if (model.max_position_embeddings > 0 && r.context > model.max_position_embeddings)
    throw UsageError(fmt::format("--context: {} tokens exceeds max_position_embeddings {} of {}", r.context,
                                 model.max_position_embeddings, model.name));
  require_fraction(r.bandwidth_efficiency, "--bandwidth-efficiency");
  require_fraction(r.compute_efficiency, "--compute-efficiency");
  if (r.memory_utilization) require_fraction(*r.memory_utilization, "--memory-utilization");
  if (r.block_size < 1) throw UsageError(fmt::format("--block-size: must be >= 1 token, got {}", r.block_size));
  const auto require_reserve = [](const std::optional<double>& bytes, const char* option) {
    if (bytes && !(std::isfinite(*bytes) && *bytes >= 0))
      throw UsageError(fmt::format("{}: must be >= 0, got {}", option, *bytes / b06::kGiB));
  };
  require_reserve(r.activation_reserve_bytes, "--activation-reserve-gib");
  require_reserve(r.non_torch_bytes, "--non-torch-gib");
  require_reserve(r.cuda_graph_bytes, "--cuda-graph-gib");
  try {
    b06::engine_profile(r.vllm);  // "--vllm: unknown engine profile 'x'; allowed: ..."
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (!(std::isfinite(r.overhead_us) && r.overhead_us >= 0))
    throw UsageError(fmt::format("--overhead-us: must be >= 0 microseconds, got {}", r.overhead_us));
  if (!std::isfinite(r.allreduce_latency_us))
    throw UsageError(fmt::format("--allreduce-latency-us: must be >= 0 microseconds, got {}", r.allreduce_latency_us));
}

const char* to_string(Binding b) {
  switch (b) {
    case Binding::hbm_pool: return "hbm_pool";
    case Binding::slo: return "slo";
    case Binding::weights: return "weights";
  }
  return "?";
}

namespace {

WeightBytes weight_bytes(const b05::ModelConfig& m, const b05::ParamCount& p, double linear_bytes, int tp) {
  constexpr double kBf16 = 2;
  WeightBytes w;
  w.linear_params = p.attention + p.mlp;
  w.other_params = p.embedding + p.norms;
  // Untied: the input embedding is a table lookup of B rows per step, never streamed whole;
  // the LM head (its own matrix) is. Tied: the LM head reads the shared matrix every step.
  w.input_embedding_params = m.tie_word_embeddings ? 0 : static_cast<double>(m.vocab_size) * m.hidden_size;
  w.resident_total = w.linear_params * linear_bytes + w.other_params * kBf16;
  w.resident_per_gpu = w.resident_total / tp;
  w.read_per_gpu = (w.resident_total - w.input_embedding_params * kBf16) / tp;
  w.bytes_per_param = w.resident_total / p.total;
  return w;
}

/// Why a precision serves nothing, with the numbers: the weights per GPU and the engine's
/// reserves against the budget (utilisation x the total), and against the whole GPU when the
/// weights alone exceed it.
std::string does_not_fit(const NodeSizing& node, const VariantSizing& v) {
  const NodeRequest& r = node.request;
  const b06::KvPool& pool = v.plan.pool;
  const b06::KvPoolInputs& in = v.plan.pool_inputs;
  const double weights = v.plan.weight_bytes_per_gpu;
  const double reserves = in.activation_bytes + in.non_torch_bytes + in.cuda_graph_bytes;
  std::string why = fmt::format(
      "weights do not fit in HBM: {:.2f} GiB of {} weights per GPU ({:.2f} GB over TP {}, the tensors vLLM keeps "
      "whole on every GPU counted on each: B05 calc --tp) + {:.2f} GiB of engine "
      "reserves (activation peak {:.2f}, non-torch {:.2f}{}) = {:.2f} GiB against a budget of {:.2f} GiB per GPU "
      "({:.2f} x {:.2f} GiB)",
      weights / b06::kGiB, v.precision.weight_dtype(), v.weights.resident_total / 1e9, r.tp, reserves / b06::kGiB,
      in.activation_bytes / b06::kGiB, in.non_torch_bytes / b06::kGiB,
      in.cuda_graph_bytes > 0 ? fmt::format(", CUDA graphs {:.2f}", in.cuda_graph_bytes / b06::kGiB) : std::string(),
      (weights + reserves) / b06::kGiB, pool.budget_bytes / b06::kGiB, in.memory_utilization,
      node.gpu.memory.total_bytes / b06::kGiB);
  if (weights > node.gpu.memory.total_bytes)
    why += fmt::format("; the weights alone exceed the GPU's {:.2f} GiB", node.gpu.memory.total_bytes / b06::kGiB);
  else if (pool.pool_bytes > 0)
    why += fmt::format("; the {:.4f} GiB left is less than one KV page of {} B", pool.pool_bytes / b06::kGiB,
                       group(std::llround(pool.block_bytes)));
  return why;
}

VariantSizing size_variant(const NodeSizing& node, const Precision& precision) {
  const NodeRequest& r = node.request;
  const b05::ModelConfig& m = node.model;
  VariantSizing v;
  v.precision = precision;
  if (precision.fp8_compute && !(node.gpu.fp8_TFLOPs > 0)) {
    v.applicable = false;
    v.not_applicable_why = fmt::format("no fp8 tensor-core rate for {} ({})", node.gpu.name,
                                       node.gpu.fp8_source.empty() ? "not in the GPU file" : node.gpu.fp8_source);
    return v;
  }
  v.weights = weight_bytes(m, node.params, precision.linear_weight_bytes, r.tp);

  b06::KvPlanRequest kv;
  kv.memory = node.gpu.memory;
  kv.gpus = r.gpus;
  kv.tp = r.tp;
  kv.weight_bytes_per_param = v.weights.bytes_per_param;
  kv.kv_bytes_per_element = precision.kv_bytes;
  // The same request B06's kv builds: unset terms stay unset, so the planner fills them from
  // the release profile and its activation model, and the scheduler defaults follow the GPU.
  kv.engine = r.vllm;
  kv.memory_utilization = r.memory_utilization;
  kv.activation_reserve_bytes = r.activation_reserve_bytes;
  kv.non_torch_bytes = r.non_torch_bytes;
  kv.cuda_graph_bytes = r.cuda_graph_bytes;
  kv.gpu_name = node.gpu.name;
  kv.block_size = r.block_size;
  kv.context = r.context;
  try {
    v.plan = b06::plan_kv(m, kv);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  v.pool_tokens_node = v.plan.tokens_total;
  if (v.plan.pool.blocks == 0) {
    // No KV page fits beside the weights: nothing is served, so there is no batch to size
    // and no step to time.
    v.fits = false;
    v.does_not_fit_why = does_not_fit(node, v);
    v.binds = Binding::weights;
    v.binds_factor = kInf;
    return v;
  }

  // Rates: the linear layers at the fp8 rate under W8A8, everything else at bf16.
  v.attention_TFLOPs = node.bf16_TFLOPs;
  v.linear_TFLOPs = precision.fp8_compute ? node.gpu.fp8_TFLOPs * r.compute_efficiency : node.bf16_TFLOPs;
  const double fp8_linear_flops = precision.fp8_compute ? node.decode_flops.linear - node.lm_head_flops : 0;
  const double bf16_flops = node.decode_flops.total() - fp8_linear_flops;
  const double seconds_per_sequence = fp8_linear_flops / (v.linear_TFLOPs * 1e12) + bf16_flops / (v.attention_TFLOPs * 1e12);

  v.step.weight_bytes_read = v.weights.read_per_gpu;
  v.step.kv_bytes_per_sequence = v.plan.sequence_bytes_per_gpu;
  v.step.linear_flops_per_sequence = node.decode_flops.linear / r.tp;
  v.step.attention_flops_per_sequence = node.decode_flops.attention / r.tp;
  v.step.bandwidth_GBps = node.bandwidth_GBps;
  // One effective rate for the whole step: the mix of fp8 and bf16 FLOPs is the same for
  // every sequence, so FLOPs / (time at the two rates) is exact at every batch.
  v.step.compute_TFLOPs = node.decode_flops.total() / seconds_per_sequence / 1e12;
  v.step.overhead_us = r.overhead_us;
  if (node.comm_modelled) {
    v.step.comm_fixed_us = node.allreduces_per_step * node.allreduce_latency_us;
    v.step.comm_per_sequence_us = node.allreduces_per_step * 2.0 * (r.tp - 1) / r.tp *
                                  node.allreduce_bytes_per_sequence / (node.link_GBps * 1e9) * 1e6;
  }
  v.step.context = r.context;
  v.slo = slo_batch(v.step, r.slo_ms);

  v.pool_sequences = v.plan.max_sequences / v.plan.replicas;
  v.pool_tokens_replica = v.plan.pool.tokens;
  if (v.slo.batch < v.pool_sequences) {
    v.binds = Binding::slo;
    v.batch = v.slo.batch;
    v.binds_factor = v.slo.batch > 0 ? double(v.pool_sequences) / double(v.slo.batch) : kInf;
  } else {
    v.binds = Binding::hbm_pool;
    v.batch = v.pool_sequences;
    v.binds_factor = v.pool_sequences > 0 ? double(v.slo.batch) / double(v.pool_sequences) : kInf;
  }
  v.at_batch = decode_step_time(v.step, v.batch);
  if (v.batch > 0) {
    v.tokens_per_s_sequence = 1e3 / v.at_batch.total_ms;
    v.tokens_per_s_node = double(node.replicas) * double(v.batch) * v.tokens_per_s_sequence;
  }
  if (v.pool_sequences > 0) v.crossover_slo_ms = decode_step_time(v.step, v.pool_sequences).total_ms;
  if (v.pool_tokens_replica > 0) {
    v.token_budget_fraction = double(v.slo.batch) / double(v.pool_tokens_replica);
    v.kv_budget_ratio = double(v.slo.batch) * double(r.context) / double(v.pool_tokens_replica);
  }
  return v;
}

}  // namespace

NodeSizing size_node(const b05::ModelConfig& model, const GpuChoice& gpu, NodeRequest request) {
  validate(model, request);
  NodeSizing n;
  n.model = model;
  n.gpu = gpu;
  n.request = request;
  n.replicas = request.gpus / request.tp;
  n.params = b05::count_params(model);
  n.decode_flops = b05::decode_flops(model, request.context);
  n.lm_head_flops = 2.0 * static_cast<double>(model.vocab_size) * static_cast<double>(model.hidden_size);
  n.bandwidth_GBps = gpu.hbm_bandwidth_GBps * request.bandwidth_efficiency;
  n.bf16_TFLOPs = gpu.bf16_TFLOPs * request.compute_efficiency;

  // Tensor parallelism: Megatron-LM's f/g operators put one all-reduce after attention and
  // one after the MLP of every layer (Shoeybi et al. 2019, sec. 3); each carries B x hidden
  // activations in bf16.
  n.allreduces_per_step = request.tp > 1 ? 2 * static_cast<int>(model.num_layers) : 0;
  n.allreduce_bytes_per_sequence = static_cast<double>(model.hidden_size) * 2.0;
  n.allreduce_latency_from_nccl_model = request.allreduce_latency_us < 0;
  n.allreduce_latency_us =
      n.allreduce_latency_from_nccl_model ? nccl_ring_allreduce_latency_us(request.tp) : request.allreduce_latency_us;
  if (request.tp > 1) {
    if (gpu.interconnect_GBps > 0) {
      n.comm_modelled = true;
      n.link_GBps = gpu.interconnect_GBps / 2;  // the datasheets print both directions together
    } else {
      n.notes.push_back(fmt::format("TP {} all-reduces are left out: no interconnect bandwidth is known for {}, so "
                                    "step times are lower bounds",
                                    request.tp, gpu.name));
    }
  }

  for (const Precision& p : precisions()) n.variants.push_back(size_variant(n, p));

  // Notes that depend on this model and node.
  const VariantSizing& base = n.variants.front();
  for (const auto& note : base.plan.notes)  // the max-num-seqs cap is in assumptions() already
    if (note.find("max-num-seqs") == std::string::npos) n.notes.push_back("KV planner: " + note);
  // The MoE note quotes the operating batch of the first precision that serves anything.
  const auto serving = std::find_if(n.variants.begin(), n.variants.end(),
                                    [](const VariantSizing& v) { return v.applicable && v.fits && v.batch > 0; });
  if (model.is_moe() && serving != n.variants.end()) {
    const double k = double(model.experts_per_token), e = double(model.num_experts);
    const auto touched = [&](std::int64_t b) { return 1.0 - std::pow(1.0 - k / e, double(b)); };
    n.notes.push_back(fmt::format(
        "MoE: every expert is assumed read every step. With uniform routing a batch of B touches 1 - (1 - k/E)^B "
        "of the routed experts per layer: {:.1f}% at B = 1, {:.1f}% at B = {} ({}, top-{} of {}); below that the "
        "step reads fewer weight bytes than counted here",
        100 * touched(1), 100 * touched(serving->batch), serving->batch, serving->precision.label,
        model.experts_per_token, model.num_experts));
  }
  if (!n.gpu.memory.runtime_reported)
    n.notes.push_back("GPU memory: " + n.gpu.memory.source);
  return n;
}

std::vector<EngineTerm> engine_terms(const NodeSizing& n) {
  const NodeRequest& r = n.request;
  const b06::KvPlan& p = n.variants.front().plan;
  const b06::KvPoolInputs& in = p.pool_inputs;
  const b06::EngineProfile& e = p.engine;
  const b06::ActivationPeak& a = p.activation;
  const std::string profile = fmt::format("vLLM {} profile", e.name);
  std::vector<EngineTerm> terms;
  terms.push_back({"memory_utilization", "utilization", "--memory-utilization", in.memory_utilization, r.memory_utilization.has_value(),
                   r.memory_utilization ? "given"
                                        : fmt::format("{}: the release's default --gpu-memory-utilization", profile)});
  terms.push_back(
      {"activation_reserve", "activation", "--activation-reserve-gib", in.activation_bytes, r.activation_reserve_bytes.has_value(),
       r.activation_reserve_bytes
           ? fmt::format("given (B06's model says {:.2f} GiB)", a.peak_bytes / b06::kGiB)
           : fmt::format("{}: modelled peak of the profiling pass at {} batched tokens and {} sequences, the {} "
                         "binds (B06 activation_peak)",
                         profile, group(a.max_num_batched_tokens), group(a.max_num_seqs), a.binds)});
  terms.push_back({"non_torch", "non-torch", "--non-torch-gib", in.non_torch_bytes, r.non_torch_bytes.has_value(),
                   r.non_torch_bytes ? "given"
                                     : fmt::format("{}: from the release's start-up logs at {}", profile,
                                                   r.tp > 1 ? "TP > 1" : "TP=1")});
  terms.push_back({"cuda_graph", "CUDA graphs", "--cuda-graph-gib", in.cuda_graph_bytes, r.cuda_graph_bytes.has_value(),
                   r.cuda_graph_bytes ? "given"
                   : in.cuda_graph_bytes > 0
                       ? fmt::format("{}: the estimate one log printed (vLLM >= v0.21 subtracts its own; give yours)",
                                     profile)
                       : fmt::format("{}: none, this release captures CUDA graphs after sizing the pool", profile)});
  return terms;
}

double ridge_point(const DecodeStepModel& m) { return m.compute_TFLOPs * 1e12 / (m.bandwidth_GBps * 1e9); }

std::vector<std::string> fp8_findings(const NodeSizing& n) {
  std::vector<std::string> out;
  const VariantSizing& base = n.variants.front();
  const auto find = [&](const std::string& key) -> const VariantSizing* {
    for (const auto& v : n.variants)
      if (v.precision.key == key && v.applicable && v.fits) return &v;
    return nullptr;
  };
  if (!base.fits) {
    // No baseline to compare with: say which precisions fit and what they serve.
    out.push_back(fmt::format("{}: the weights do not fit in HBM ({:.2f} GiB per GPU), so there is no bf16 "
                              "baseline to compare the fp8 variants with",
                              base.precision.label, base.plan.weight_bytes_per_gpu / b06::kGiB));
    for (const auto& v : n.variants) {
      if (&v == &base) continue;
      if (!v.applicable)
        out.push_back(fmt::format("{} is not applicable: {}", v.precision.label, v.not_applicable_why));
      else if (!v.fits)
        out.push_back(fmt::format("{}: does not fit either, {:.2f} GiB of weights per GPU", v.precision.label,
                                  v.plan.weight_bytes_per_gpu / b06::kGiB));
      else if (v.pool_sequences == 0)
        out.push_back(fmt::format("{}: the weights fit ({:.2f} GiB per GPU), but the pool of {} tokens per replica "
                                  "holds no sequence of {} tokens",
                                  v.precision.label, v.plan.weight_bytes_per_gpu / b06::kGiB,
                                  group(v.pool_tokens_replica), group(n.request.context)));
      else
        out.push_back(fmt::format(
            "{}: fits, {:.2f} GiB of weights per GPU; pool {} tokens in the node, B_pool = {}, B_slo = {}, the {} "
            "binds, {} tokens/s per node",
            v.precision.label, v.plan.weight_bytes_per_gpu / b06::kGiB, group(v.pool_tokens_node),
            group(v.pool_sequences), group(v.slo.batch), v.binds == Binding::slo ? "SLO" : "HBM pool",
            group(std::llround(v.tokens_per_s_node))));
    }
    return out;
  }
  // Every variant is compared at the baseline's operating batch (at least 1), so the
  // differences are the precision's alone.
  const std::int64_t b0 = std::max<std::int64_t>(1, base.batch);
  const DecodeStepTime t0 = decode_step_time(base.step, b0);
  const auto share = [](double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; };
  // "x1.15", or "up from none" when the baseline had nothing to multiply.
  const auto ratio = [](double a, double b) { return b > 0 ? fmt::format("x{:.2f}", a / b) : std::string("up from none"); };

  if (const VariantSizing* w = find("fp8-weights")) {
    const DecodeStepTime t1 = decode_step_time(w->step, b0);
    const double saved_bytes = base.step.weight_bytes_read - w->step.weight_bytes_read;
    const double saved_ms = saved_bytes / (n.bandwidth_GBps * 1e9) * 1e3;
    std::string s = fmt::format(
        "fp8 weights, bf16 compute (W8A16): each GPU streams {:.2f} GB of weights per step instead of {:.2f} GB, "
        "{:.3f} ms less memory time; at B = {} the step goes {:.3f} -> {:.3f} ms ({:.1f}% faster) because weights "
        "are {:.0f}% of the bytes it reads",
        w->step.weight_bytes_read / 1e9, base.step.weight_bytes_read / 1e9, saved_ms, b0, t0.total_ms, t1.total_ms,
        share(t0.total_ms - t1.total_ms, t0.total_ms), share(base.step.weight_bytes_read, t0.bytes));
    if (t0.compute_bound())
      s += "; the step is compute-bound, so halving bytes saves no step time";
    else if (t1.compute_bound())
      s += "; with fp8 weights the step is compute-bound: weight-only quantisation keeps the matmuls at bf16, so "
           "it moved the binding roof and the saving stops at the compute time";
    const DecodeStepTime at_slo = decode_step_time(w->step, std::max<std::int64_t>(1, w->slo.batch));
    s += fmt::format(
        ". It frees {:.2f} GB per GPU for KV (pool {} -> {} tokens, {}) and lifts the SLO batch {} -> {}. "
        "It stops paying as KV takes over the bytes: at its SLO batch of {} weights are only {:.0f}% of what a step "
        "reads",
        (base.weights.resident_per_gpu - w->weights.resident_per_gpu) / 1e9, group(base.pool_tokens_node),
        group(w->pool_tokens_node), ratio(double(w->pool_tokens_node), double(base.pool_tokens_node)),
        group(base.slo.batch), group(w->slo.batch), group(w->slo.batch), share(w->step.weight_bytes_read, at_slo.bytes));
    out.push_back(s);
  }

  if (const VariantSizing* k = find("fp8-kv")) {
    const DecodeStepTime t1 = decode_step_time(k->step, b0);
    const DecodeStepTime one = decode_step_time(base.step, 1);
    std::string s = fmt::format(
        "fp8 KV cache: KV per token per GPU {} -> {} B, so the pool holds {} -> {} tokens ({}) and, "
        "each sequence costing half the HBM time, the SLO batch rises {} -> {} ({}); at B = {} the step goes "
        "{:.3f} -> {:.3f} ms because KV is {:.0f}% of the bytes. It stops paying where the weights dominate the "
        "bytes (at B = 1 KV is {:.1f}% of them) and once the step is compute-bound",
        group(std::llround(base.plan.kv_bytes_per_token_per_gpu)), group(std::llround(k->plan.kv_bytes_per_token_per_gpu)),
        group(base.pool_tokens_node), group(k->pool_tokens_node),
        ratio(double(k->pool_tokens_node), double(base.pool_tokens_node)), group(base.slo.batch),
        group(k->slo.batch), ratio(double(k->slo.batch), double(base.slo.batch)), b0, t0.total_ms, t1.total_ms,
        share(t0.bytes - base.step.weight_bytes_read, t0.bytes), share(one.bytes - base.step.weight_bytes_read, one.bytes));
    s += std::isfinite(base.slo.ridge_batch)
             ? fmt::format(" (bf16 decode at c = {} turns compute-bound beyond B = {:.0f})", n.request.context,
                           base.slo.ridge_batch)
             : fmt::format(" (bf16 decode at c = {} is memory-bound at every batch: each sequence costs more HBM time "
                           "than compute time)",
                           n.request.context);
    out.push_back(s);
  }

  const VariantSizing* w8 = find("w8a8");
  const VariantSizing* w16 = find("fp8-weights");
  if (w8 && w16) {
    const DecodeStepTime a = decode_step_time(w16->step, b0);
    const DecodeStepTime b = decode_step_time(w8->step, b0);
    std::string s = fmt::format(
        "fp8 weights and activations (W8A8): the bytes of fp8 weights, with the linear layers at {:.1f} instead of "
        "{:.1f} TFLOP/s (effective). At B = {} compute goes {:.3f} -> {:.3f} ms against {:.3f} ms of memory time, so "
        "the faster tensor cores buy {:.3f} ms over fp8 weights alone",
        w8->linear_TFLOPs, w16->linear_TFLOPs, b0, a.compute_ms, b.compute_ms, b.memory_ms, a.total_ms - b.total_ms);
    s += a.compute_bound() ? "" : ": nothing, while the memory roof binds (decode); they pay in compute-bound steps "
                                  "(prefill, or decode past the ridge batch)";
    out.push_back(s);
  } else if (const VariantSizing* skipped = [&]() -> const VariantSizing* {
               for (const auto& v : n.variants)
                 if (v.precision.key == "w8a8" && !v.applicable) return &v;
               return nullptr;
             }()) {
    out.push_back("W8A8 is not applicable: " + skipped->not_applicable_why);
  }

  if (const VariantSizing* all8 = find("w8a8+fp8-kv")) {
    const DecodeStepTime b = decode_step_time(all8->step, b0);
    std::string s = fmt::format(
        "Which roof binds: at B = {} the bf16 step has intensity {:.1f} FLOP/B against a ridge of {:.1f} FLOP/B "
        "({}-bound); W8A8 + fp8 KV halves (nearly) every byte and doubles the matmul rate, so intensity {:.1f} and "
        "ridge {:.1f} move together and the step stays {}-bound",
        b0, t0.arithmetic_intensity(), ridge_point(base.step), t0.roof(), b.arithmetic_intensity(),
        ridge_point(all8->step), b.roof());
    if (w16) {
      const DecodeStepTime a = decode_step_time(w16->step, b0);
      // Weight-only fp8 can cross the ridge only where its intensity reaches it: say which happened here.
      s += fmt::format("; weight-only fp8 raises the intensity to {:.1f} with the ridge left at {:.1f}", a.arithmetic_intensity(),
                       ridge_point(w16->step));
      s += a.compute_bound() != t0.compute_bound()
               ? ", which carries this step across to the other roof"
               : fmt::format(", so this step stays {}-bound (a bf16-compute quantisation crosses the ridge only where "
                             "its intensity reaches it)",
                             a.roof());
    }
    out.push_back(s);
  }
  return out;
}

std::vector<std::string> assumptions() {
  return {
      "every sequence in a decode step is at the full context c (prompt + output): the worst step the SLO must cover",
      "a decode step streams the weights once (all but the input embedding table, a lookup of B rows) and every "
      "sequence's KV once; activations stay on chip",
      "MoE: every expert is read every step (an upper bound on bytes below B x top_k ~ experts)",
      "rates are datasheet numbers derated by the bandwidth and compute efficiencies (measured on the H200 measured here, "
      "applied to every GPU)",
      "the roofs do not overlap with the tensor-parallel all-reduces: t(B) = max(memory, compute) + all-reduce + "
      "overhead",
      "tensor parallelism: 2 all-reduces per layer of B x hidden bf16 activations; ring cost alpha + 2(p-1)/p x "
      "bytes / (interconnect / 2), alpha from NCCL's tuning model (ring, LL protocol, NVLink): a lower bound",
      "fp8 weights quantise the decoder layers' linear weights; embeddings, LM head and norms stay bf16",
      "W8A8: linear layers except the LM head at the fp8 tensor-core rate; attention at the bf16 rate; the same "
      "compute efficiency for both",
      "fp8 weights and KV keep the step's FLOPs unchanged (dequantisation cost ignored)",
      "KV pool as vLLM sizes it (B06): memory utilization x total - weights - activation peak - non-torch memory - "
      "CUDA graphs (vLLM >= v0.21), in pages of block_size tokens; every term not given takes the same default as "
      "B06's kv: the --vllm release profile's utilisation, non-torch and CUDA-graph figures (from its start-up logs), "
      "and the activation peak modelled from the layer shapes at the profiling pass's scheduler defaults",
      "the scheduler's own cap on running sequences (vLLM --max-num-seqs; V1's default 1024 on a GPU of >= 70 GiB "
      "that is not an A100, else 256) is a setting, not applied to the operating batch",
      "per-step overhead (scheduling, launches, sampling) is --overhead-us, 0 by default: the roofline floor",
  };
}

std::vector<std::string> sources() {
  return {
      "roofline: Williams, Waterman and Patterson, 'Roofline: an insightful visual performance model for multicore "
      "architectures', CACM 52(4), 2009, eq. 1 (applied per step: B06 RooflineStepCost, step_cost.hpp)",
      "KV pool: vLLM Worker.determine_num_available_blocks, CacheEngine.get_cache_block_size, "
      "ModelConfig.get_num_kv_heads; EngineArgs defaults (B06 kv_planner.hpp); the start-up profile of each "
      "release and the logs behind its numbers (B06 engine_profile.hpp)",
      "parameters, KV bytes per token, decode FLOPs: B05 calculator.hpp (Kaplan et al. 2020 Table 1; GQA, Ainslie "
      "et al. 2023; sliding windows, Jiang et al. 2023; MLA, DeepSeek-V2 sec. 2.1)",
      "token budget per step under a TBT SLO: Agrawal et al., 'Taming Throughput-Latency Tradeoff in LLM Inference "
      "with Sarathi-Serve', OSDI 2024",
      "tensor parallelism, 2 all-reduces per layer: Shoeybi et al., 'Megatron-LM', arXiv:1909.08053, 2019, sec. 3",
      "ring all-reduce volume 2(p-1)/p x bytes: Patarasuk and Yuan, JPDC 69(2), 2009",
      "all-reduce latency: NCCL src/graph/tuning.cc ncclTopoTuneModel, baseLat[Ring][LL] 6.6 us, "
      "hwLat[NVLINK][Ring][LL] 0.6 us per step (NCCL 2.18+)",
      "bandwidth efficiency 0.80: docs/results/H200/b02_roofline/history/b02_roofline_a1f5e90.json, notes.fit.fp32.memory_roof_GBps 3824.6 / "
      "4800 GB/s",
      "compute efficiency 0.70: cublasGemmEx bf16 8192^3 on the H200 measured here, 686-779 TFLOP/s over 50 samples (median "
      "740.0) of 989.5: docs/results/H200/baselines/tutor_baselines.json; 0.70 is the slow end",
      "fp8 checkpoints keep lm_head in bf16: llm-compressor FP8 recipe, QuantizationModifier(targets='Linear', "
      "ignore=['lm_head'])",
      "GPU rates: the datasheet line each number of the GPU table cites (common/src/hardware.cpp), printed in "
      "step 1 and recorded under gpu.sources; runtime memory totals: B06 gpu_memory (kv_planner.cpp)",
  };
}

}  // namespace tutor::c07
