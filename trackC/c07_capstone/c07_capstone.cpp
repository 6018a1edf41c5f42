// c07_capstone: size an LLM serving node for a model and a TPOT SLO, step by step.
//
//   c07_capstone --model NAME --gpu NAME --gpus N --slo-ms T [--tp N] [--context N] [--json PATH]
//
// Step 1 the node; step 2 the HBM-bound KV pool (B06's planner); step 3 the SLO-bound batch
// (the roofline of one decode step); step 4 which binds first; step 5 what fp8 changes.
// kind: model. The arithmetic lives in capstone.hpp; this file prints it and writes the record.
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "capstone.hpp"
#include "tutor/cli.hpp"
#include "tutor/number_option.hpp"
#include "tutor/option_blame.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"

namespace tutor::c07 {
namespace {

using nlohmann::json;

std::string group(std::int64_t v) { return thousands(v); }
std::string group(double v) { return thousands(static_cast<std::int64_t>(std::llround(v))); }
std::string gb(double bytes) { return fmt::format("{:.2f} GB", bytes / 1e9); }
std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / b06::kGiB); }
std::string billions(double params) { return fmt::format("{:.3f} B", params / 1e9); }
std::string factor(double f) { return std::isfinite(f) ? fmt::format("{:.2f}x", f) : "inf"; }
/// A JSON number, or null where the value is infinite or not defined.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

// ---- the human report --------------------------------------------------------------------

void print_step1(std::FILE* out, const NodeSizing& n) {
  const auto& m = n.model;
  const auto& g = n.gpu;
  const auto& r = n.request;
  const VariantSizing& base = n.variants.front();
  fmt::print(out, "\nStep 1. The node\n");
  fmt::print(out, "  GPUs          {} x {} ({}): {} per GPU as the engine budgets it; HBM {:g} GB/s; dense bf16 {:g} "
                  "TFLOP/s, fp8 {}; {} {}\n",
             r.gpus, g.name, g.key, gib(g.memory.total_bytes), g.hbm_bandwidth_GBps, g.bf16_TFLOPs,
             g.fp8_TFLOPs > 0 ? fmt::format("{:g} TFLOP/s", g.fp8_TFLOPs) : "none",
             g.interconnect.empty() ? "interconnect" : g.interconnect,
             g.interconnect_GBps > 0 ? fmt::format("{:g} GB/s (both directions)", g.interconnect_GBps)
                                     : "(bandwidth unknown)");
  fmt::print(out, "  sources       memory: {}\n", g.memory.source);
  fmt::print(out, "                HBM: {}\n", g.bandwidth_source);
  fmt::print(out, "                bf16: {}\n", g.bf16_source);
  if (g.fp8_TFLOPs > 0) fmt::print(out, "                fp8: {}\n", g.fp8_source);
  if (g.interconnect_GBps > 0) fmt::print(out, "                interconnect: {}\n", g.interconnect_source);
  fmt::print(out, "  parallelism   TP = {}{} -> {} replica{} of the model (GPUs / TP); each GPU of a replica holds 1/{} of "
                  "every layer\n",
             r.tp, r.tp == r.gpus ? " (default: --gpus)" : "", n.replicas, n.replicas == 1 ? "" : "s", r.tp);
  const std::string attention =
      m.is_mla() ? fmt::format("{} query heads with MLA (a cached latent of {} + {} per token per layer)", m.num_heads,
                               m.kv_lora_rank, m.qk_rope_head_dim)
                 : fmt::format("{} query / {} KV heads x {}", m.num_heads, m.num_kv_heads, m.head_dim);
  fmt::print(out, "  model         {} ({}): {} parameters, {} active per token; {} layers, hidden {}, {}{}\n", m.name,
             m.model_type, billions(n.params.total), billions(n.params.active), m.num_layers, m.hidden_size, attention,
             m.is_moe() ? fmt::format(", MoE top-{} of {} experts", m.experts_per_token, m.num_experts) : "");
  fmt::print(out, "  weights       {} x 2 B (bf16) = {} = {}; / TP {} = {} = {} per GPU\n", billions(n.params.total),
             gb(base.weights.resident_total), gib(base.weights.resident_total), r.tp, gb(base.weights.resident_per_gpu),
             gib(base.weights.resident_per_gpu));
  fmt::print(out, "  context       c = {} tokens per sequence (prompt + output{}); every sequence in a step is taken at "
                  "its full length, the worst step the SLO must cover\n",
             group(r.context), r.context == kDefaultContext ? "; default, set --context" : "");
}

void print_step2(std::FILE* out, const NodeSizing& n) {
  const VariantSizing& v = n.variants.front();
  const auto& p = v.plan;
  const auto& r = n.request;
  const b06::KvPoolInputs& in = p.pool_inputs;
  fmt::print(out, "\nStep 2. The HBM-bound KV pool (B06's planner, sized the way vLLM sizes it)\n");
  fmt::print(out, "  engine        vLLM {} start-up profile ({}){}; each term below says whether it is the profile's "
                  "or given\n",
             p.engine.name, p.engine.engine,
             r.vllm == b06::kDefaultEngineProfile ? " (the default, as B06's kv: give --vllm for another release)" : "");
  for (const EngineTerm& t : engine_terms(n))
    fmt::print(out, "  {:<13} {:>9}  {}\n", t.label,
               t.key == "memory_utilization" ? fmt::format("{:.2f}", t.value) : gib(t.value), t.source);
  fmt::print(out, "  profiling     max_num_batched_tokens {}, max_num_seqs {}: {}\n",
             group(p.scheduler.max_num_batched_tokens), group(p.scheduler.max_num_seqs), p.scheduler.why);
  fmt::print(out, "  budget        {} x {:.2f} (memory utilization) = {} per GPU\n", gib(n.gpu.memory.total_bytes),
             in.memory_utilization, gib(p.pool.budget_bytes));
  if (!v.fits) {
    fmt::print(out, "  !             {}\n", v.does_not_fit_why);
    fmt::print(out, "                no KV pool, so no sequence is served in bf16; step 5 shows the precisions that "
                    "fit\n");
    return;
  }
  fmt::print(out, "  pool          {} - {} (weights) - {} (activation peak) - {} (non-torch){} = {} = {} per GPU\n",
             gib(p.pool.budget_bytes), gib(p.weight_bytes_per_gpu), gib(in.activation_bytes), gib(in.non_torch_bytes),
             in.cuda_graph_bytes > 0 ? fmt::format(" - {} (CUDA graphs)", gib(in.cuda_graph_bytes)) : std::string(),
             gib(p.pool.pool_bytes), gb(p.pool.pool_bytes));
  if (n.model.is_mla())
    fmt::print(out, "  KV per token  MLA latent: {} B (bf16), all of it on every GPU\n",
               group(p.kv_bytes_per_token_model));
  else
    fmt::print(out, "  KV per token  2 (K, V) x {} layers x {} KV heads x {} x 2 B (bf16) = {} B{}; per GPU ({} KV head{} "
                    "of {}): {} B\n",
               n.model.num_layers, n.model.num_kv_heads, n.model.head_dim, group(p.kv_bytes_per_token_model),
               p.kv_bytes_per_token_model !=
                       2.0 * n.model.num_layers * n.model.num_kv_heads * n.model.head_dim * 2.0
                   ? " (as the layers store it)"
                   : "",
               p.kv_heads_per_gpu, p.kv_heads_per_gpu == 1 ? "" : "s", n.model.num_kv_heads,
               group(p.kv_bytes_per_token_per_gpu));
  fmt::print(out, "  pages         floor({} / ({} tokens x {} B)) = {} pages = {} tokens per replica; x {} = {} tokens in "
                  "the node\n",
             gb(p.pool.pool_bytes), r.block_size, group(p.kv_bytes_per_token_per_gpu), group(p.pool.blocks),
             group(p.pool.tokens), p.replicas, group(p.tokens_total));
  fmt::print(out, "  sequences     {} tokens = {} pages each -> B_pool = {} / {} = {} sequences per replica\n",
             group(r.context), group(p.blocks_per_sequence), group(p.pool.blocks), group(p.blocks_per_sequence),
             group(v.pool_sequences));
}

void print_step3(std::FILE* out, const NodeSizing& n) {
  const VariantSizing& v = n.variants.front();
  const DecodeStepModel& s = v.step;
  const SloBatch& b = v.slo;
  const auto& r = n.request;
  fmt::print(out, "\nStep 3. The SLO-bound batch: one decode step on one GPU (the roofline, Williams et al. 2009)\n");
  if (!v.fits) {
    fmt::print(out, "  skipped       the bf16 weights do not fit (step 2): there is no batch to time\n");
    return;
  }
  fmt::print(out, "  rates         HBM {:g} GB/s x {:.2f} = {:.0f} GB/s; tensor cores {:g} TFLOP/s x {:.2f} = {:.2f} "
                  "TFLOP/s (bf16)\n",
             n.gpu.hbm_bandwidth_GBps, r.bandwidth_efficiency, n.bandwidth_GBps, n.gpu.bf16_TFLOPs,
             r.compute_efficiency, n.bf16_TFLOPs);
  fmt::print(out, "  weights       {} params streamed{} x 2 B / {} = {} -> {:.3f} ms per step, whatever B\n",
             billions(n.params.total - v.weights.input_embedding_params),
             v.weights.input_embedding_params > 0 ? " (all but the input embedding: a lookup of B rows)" : "", r.tp,
             gb(s.weight_bytes_read), s.weights_ms());
  const double uncapped = v.plan.kv_bytes_per_token_per_gpu * double(r.context);
  if (std::abs(s.kv_bytes_per_sequence - uncapped) > 0.5)
    fmt::print(out, "  KV            one sequence: {:.1f} MB, its sliding-window layers capped at their window (every "
                    "layer full would be {} B x {} = {:.1f} MB) -> {:.5f} ms per sequence\n",
               s.kv_bytes_per_sequence / 1e6, group(v.plan.kv_bytes_per_token_per_gpu), group(r.context),
               uncapped / 1e6, s.kv_ms_per_sequence());
  else
    fmt::print(out, "  KV            one sequence: {} B x {} tokens = {:.1f} MB -> {:.5f} ms per sequence\n",
               group(v.plan.kv_bytes_per_token_per_gpu), group(r.context), s.kv_bytes_per_sequence / 1e6,
               s.kv_ms_per_sequence());
  fmt::print(out, "  FLOPs         one sequence: ({:.3f} linear + {:.3f} attention at c) GFLOP / {} = {:.3f} GFLOP -> "
                  "{:.5f} ms per sequence\n",
             n.decode_flops.linear / 1e9, n.decode_flops.attention / 1e9, r.tp, s.flops_per_sequence() / 1e9,
             s.compute_ms_per_sequence());
  if (n.comm_modelled)
    fmt::print(out, "  all-reduce    TP {}: 2 per layer x {} layers = {} per step (Megatron-LM); each {:.1f} us latency "
                  "({}) + B x {} x 2 B x 2({}-1)/{} / {:g} GB/s -> {:.3f} ms + {:.5f} ms per sequence\n",
               r.tp, n.model.num_layers, n.allreduces_per_step, n.allreduce_latency_us,
               n.allreduce_latency_from_nccl_model ? "NCCL's ring/LL model" : "--allreduce-latency-us",
               n.model.hidden_size, r.tp, r.tp, n.link_GBps, s.comm_fixed_us * 1e-3, s.comm_per_sequence_us * 1e-3);
  else
    fmt::print(out, "  all-reduce    none{}\n", r.tp == 1 ? " (TP = 1)" : " (interconnect bandwidth unknown: left out)");
  fmt::print(out, "  overhead      {:g} us per step (--overhead-us; 0 = the roofline floor)\n", r.overhead_us);
  const double fixed_ms = (s.comm_fixed_us + s.overhead_us) * 1e-3;
  const double comm_seq_ms = s.comm_per_sequence_us * 1e-3;
  // The extra terms are printed only where they are not zero, so TP = 1 reads as the plain roofline.
  const std::string fixed_term = fixed_ms > 0 ? fmt::format(" - {:.3f}", fixed_ms) : "";
  const std::string comm_term = comm_seq_ms > 0 ? fmt::format(" + {:.5f}", comm_seq_ms) : "";
  fmt::print(out, "  t(B)          = max({:.3f} + {:.5f} B, {:.5f} B){} ms\n", s.weights_ms(), s.kv_ms_per_sequence(),
             s.compute_ms_per_sequence(),
             fixed_ms > 0 || comm_seq_ms > 0 ? fmt::format(" + {:.3f} + {:.5f} B", fixed_ms, comm_seq_ms) : "");
  if (std::isfinite(b.ridge_batch))
    fmt::print(out, "  roofs         a sequence costs {:.5f} ms of HBM time and {:.5f} ms of compute: the step turns "
                    "compute-bound beyond B = {:.1f} (the ridge batch)\n",
               s.kv_ms_per_sequence(), s.compute_ms_per_sequence(), b.ridge_batch);
  else
    fmt::print(out, "  roofs         a sequence costs {:.5f} ms of HBM time and {:.5f} ms of compute: the step is "
                    "memory-bound at every batch (no ridge batch at c = {})\n",
               s.kv_ms_per_sequence(), s.compute_ms_per_sequence(), group(r.context));
  const std::string compute_numerator =
      fixed_ms > 0 ? fmt::format("({:g}{})", r.slo_ms, fixed_term) : fmt::format("{:g}", r.slo_ms);
  const std::string memory_denominator = comm_seq_ms > 0
                                             ? fmt::format("({:.5f}{})", s.kv_ms_per_sequence(), comm_term)
                                             : fmt::format("{:.5f}", s.kv_ms_per_sequence());
  const std::string compute_denominator = comm_seq_ms > 0
                                              ? fmt::format("({:.5f}{})", s.compute_ms_per_sequence(), comm_term)
                                              : fmt::format("{:.5f}", s.compute_ms_per_sequence());
  // A roof with no room left is 0 (the weights alone miss the SLO), not a negative quotient.
  const std::string memory_roof =
      r.slo_ms - fixed_ms - s.weights_ms() < 0
          ? fmt::format("0 (the weights alone take {:.3f} ms > {:g}{} ms)", s.weights_ms(), r.slo_ms, fixed_term)
          : fmt::format("({:g}{} - {:.3f}) / {} = {:.1f}", r.slo_ms, fixed_term, s.weights_ms(), memory_denominator,
                        b.memory_limit);
  const std::string compute_roof =
      r.slo_ms - fixed_ms < 0 ? fmt::format("0 ({:g}{} ms < 0)", r.slo_ms, fixed_term)
                      : fmt::format("{} / {} = {:.1f}", compute_numerator, compute_denominator, b.compute_limit);
  fmt::print(out, "  B_max         memory roof: {}; compute roof: {}\n", memory_roof, compute_roof);
  if (b.batch > 0)
    fmt::print(out, "  B_slo         floor(min) = {} sequences ({} roof); checked with B06's RooflineStepCost: t({}) = "
                    "{:.3f} ms <= {:g} ms < t({}) = {:.3f} ms\n",
               group(b.batch), b.limited_by, group(b.batch), b.at_batch.total_ms, r.slo_ms, group(b.batch + 1),
               b.above_batch.total_ms);
  else
    fmt::print(out, "  B_slo         0: even one sequence misses the SLO, t(1) = {:.3f} ms > {:g} ms (B06's "
                    "RooflineStepCost)\n",
               b.above_batch.total_ms, r.slo_ms);
  fmt::print(out, "  token budget  {} tokens computed per step (one per sequence: Sarathi-Serve's per-iteration token "
                  "budget), reading {} x {} = {} tokens of KV\n",
             group(b.batch), group(b.batch), group(r.context), group(b.batch * r.context));
}

void print_step4(std::FILE* out, const NodeSizing& n) {
  const VariantSizing& v = n.variants.front();
  const auto& r = n.request;
  fmt::print(out, "\nStep 4. Which binds first\n");
  if (!v.fits) {
    fmt::print(out, "  binds         the weights: they do not fit in HBM in bf16 (step 2)\n");
    return;
  }
  fmt::print(out, "  HBM pool      {} sequences per replica ({} tokens)\n", group(v.pool_sequences),
             group(v.pool_tokens_replica));
  fmt::print(out, "  SLO           {} sequences per replica ({} tokens of KV read per step)\n", group(v.slo.batch),
             group(v.slo.batch * r.context));
  switch (v.binds) {
    case Binding::weights:  // !v.fits, handled above
      return;
    case Binding::hbm_pool:
      if (v.pool_sequences == 0)
        fmt::print(out, "  binds         the HBM pool: {}\n", v.plan.binds_why);
      else
        fmt::print(out, "  binds         the HBM pool, by {} / {} = {}: the SLO would allow more sequences than HBM "
                        "holds\n",
                   group(v.slo.batch), group(v.pool_sequences), factor(v.binds_factor));
      break;
    case Binding::slo:
      if (v.slo.batch == 0)
        fmt::print(out, "  binds         the SLO: not even one sequence meets {:g} ms (streaming the weights alone "
                        "takes {:.3f} ms)\n",
                   r.slo_ms, v.step.weights_ms());
      else
        fmt::print(out, "  binds         the SLO, by {} / {} = {}: HBM holds more sequences than a step may serve\n",
                   group(v.pool_sequences), group(v.slo.batch), factor(v.binds_factor));
      break;
  }
  if (v.batch > 0)
    fmt::print(out, "  operating     B = {}: t = {:.3f} ms ({}-bound) -> {:.1f} tokens/s per sequence, {} tokens/s per "
                    "node ({} replica{} x {} / {:.3f} ms)\n",
               group(v.batch), v.at_batch.total_ms, v.at_batch.roof(), v.tokens_per_s_sequence,
               group(v.tokens_per_s_node), n.replicas, n.replicas == 1 ? "" : "s", group(v.batch),
               v.at_batch.total_ms);
  if (std::isfinite(v.crossover_slo_ms))
    fmt::print(out, "  crossover     t(B_pool) = {:.2f} ms: SLOs tighter than that bind before the pool, looser ones "
                    "leave the pool binding\n",
               v.crossover_slo_ms);
  if (v.pool_tokens_replica > 0) {
    fmt::print(out, "  the classic finding: \"HBM allows a pool of millions of tokens, but the latency SLO caps the "
                    "scheduler at a fraction of it\"\n");
    fmt::print(out, "    per-step tokens: a step computes {} tokens against {} tokens stored = {:.3f}% of the pool: {}\n",
               group(v.slo.batch), group(v.pool_tokens_replica), 100 * v.token_budget_fraction,
               v.token_budget_fraction < 0.01 ? "holds (storing a token's KV is cheap; computing a token is not)"
                                              : "does not hold here");
    if (v.kv_budget_ratio < 1)
      fmt::print(out, "    KV tokens: a step may read {} of {} tokens = {:.1f}% of the pool: holds, because the SLO "
                      "({:g} ms) is tighter than t(B_pool) = {:.2f} ms\n",
                 group(v.slo.batch * r.context), group(v.pool_tokens_replica), 100 * v.kv_budget_ratio, r.slo_ms,
                 v.crossover_slo_ms);
    else
      fmt::print(out, "    KV tokens: a step may read {} tokens, {:.2f}x the {} the pool holds: does not hold at "
                      "{:g} ms, since a step can stream the weights and the whole pool in t(B_pool) = {:.2f} ms; it "
                      "holds for SLOs under that\n",
                 group(v.slo.batch * r.context), v.kv_budget_ratio, group(v.pool_tokens_replica), r.slo_ms,
                 v.crossover_slo_ms);
  }
}

void print_step5(std::FILE* out, const NodeSizing& n) {
  fmt::print(out, "\nStep 5. What fp8 changes (the same arithmetic per precision; per replica unless marked node)\n");
  fmt::print(out, "  {:<34} {:>13} {:>8} {:>8} {:>18} {:>8} {:>9} {:>12}\n", "variant", "pool tokens", "B_pool",
             "B_slo", "binds first", "roof", "step ms", "tok/s node");
  for (const VariantSizing& v : n.variants) {
    if (!v.applicable) {
      fmt::print(out, "  {:<34} n/a: {}\n", v.precision.label, v.not_applicable_why);
      continue;
    }
    if (!v.fits) {
      fmt::print(out, "  {:<34} does not fit in HBM: {:.2f} GiB of weights per GPU, + {:.2f} GiB of reserves, "
                      "against a {:.2f} GiB budget\n",
                 v.precision.label, v.plan.weight_bytes_per_gpu / b06::kGiB,
                 (v.plan.pool_inputs.activation_bytes + v.plan.pool_inputs.non_torch_bytes +
                  v.plan.pool_inputs.cuda_graph_bytes) /
                     b06::kGiB,
                 v.plan.pool.budget_bytes / b06::kGiB);
      continue;
    }
    const std::string binds = v.batch == 0 ? fmt::format("{} (none)", to_string(v.binds))
                                           : fmt::format("{} {}", to_string(v.binds), factor(v.binds_factor));
    fmt::print(out, "  {:<34} {:>13} {:>8} {:>8} {:>18} {:>8} {:>9} {:>12}\n", v.precision.label,
               group(v.pool_tokens_node), group(v.pool_sequences), group(v.slo.batch), binds,
               v.batch > 0 ? v.at_batch.roof() : "-", v.batch > 0 ? fmt::format("{:.3f}", v.at_batch.total_ms) : "-",
               v.batch > 0 ? group(v.tokens_per_s_node) : "-");
  }
  fmt::print(out, "  (pool tokens: node; step ms and tok/s at the operating batch min(B_pool, B_slo))\n");
  for (const auto& f : fp8_findings(n)) fmt::print(out, "  - {}.\n", f);
}

void print_report(std::FILE* out, const NodeSizing& n) {
  fmt::print(out, "c07_capstone: {} on {} x {} at a TPOT SLO of {:g} ms\n", n.model.name, n.request.gpus, n.gpu.name,
             n.request.slo_ms);
  fmt::print(out, "kind: model (roofline arithmetic on datasheet numbers derated by measured efficiencies; no GPU is "
                  "used and nothing is measured)\n");
  print_step1(out, n);
  print_step2(out, n);
  print_step3(out, n);
  print_step4(out, n);
  print_step5(out, n);
  fmt::print(out, "\nAssumptions\n");
  for (const auto& a : assumptions()) fmt::print(out, "  - {}\n", a);
  for (const auto& a : n.notes) fmt::print(out, "  - {}\n", a);
  fmt::print(out, "\nSources\n");
  for (const auto& s : sources()) fmt::print(out, "  - {}\n", s);
}

// ---- the record --------------------------------------------------------------------------

json step_time_json(const DecodeStepTime& t) {
  return {{"batch", t.batch},         {"bytes", t.bytes},           {"flops", t.flops},
          {"memory_ms", t.memory_ms}, {"compute_ms", t.compute_ms}, {"comm_ms", t.comm_ms},
          {"overhead_ms", t.overhead_ms}, {"total_ms", t.total_ms}, {"roof", t.roof()},
          {"arithmetic_intensity_flop_per_byte", t.arithmetic_intensity()}};
}

json variant_json(const NodeSizing& n, const VariantSizing& v) {
  json j = {{"key", v.precision.key},
            {"label", v.precision.label},
            {"weight_dtype", v.precision.weight_dtype()},
            {"kv_dtype", v.precision.kv_dtype()},
            {"compute_dtype", v.precision.compute_dtype()},
            {"applicable", v.applicable}};
  if (!v.applicable) {
    j["not_applicable_why"] = v.not_applicable_why;
    return j;
  }
  const auto& s = v.step;
  j["fits"] = v.fits;
  j["weights"] = {{"linear_params", v.weights.linear_params},
                  {"other_params_bf16", v.weights.other_params},
                  {"input_embedding_params_not_streamed", v.weights.input_embedding_params},
                  {"resident_bytes_total", v.weights.resident_total},
                  {"resident_bytes_per_gpu", v.weights.resident_per_gpu},
                  {"read_bytes_per_gpu_per_step", v.weights.read_per_gpu},
                  {"bytes_per_param", v.weights.bytes_per_param}};
  j["kv_pool"] = b06::to_json(v.plan);  // the same plan object B06's kv record writes
  if (!v.fits) {
    j["does_not_fit_why"] = v.does_not_fit_why;
    j["binds"] = to_string(v.binds);
    return j;
  }
  j["decode_step_per_gpu"] = {{"weight_bytes_read", s.weight_bytes_read},
                              {"kv_bytes_per_sequence", s.kv_bytes_per_sequence},
                              {"linear_flops_per_sequence", s.linear_flops_per_sequence},
                              {"attention_flops_per_sequence", s.attention_flops_per_sequence},
                              {"bandwidth_GBps_effective", s.bandwidth_GBps},
                              {"compute_TFLOPs_effective", s.compute_TFLOPs},
                              {"linear_TFLOPs_effective", v.linear_TFLOPs},
                              {"attention_TFLOPs_effective", v.attention_TFLOPs},
                              {"ridge_point_flop_per_byte", ridge_point(s)},
                              {"weights_ms", s.weights_ms()},
                              {"kv_ms_per_sequence", s.kv_ms_per_sequence()},
                              {"compute_ms_per_sequence", s.compute_ms_per_sequence()},
                              {"comm_fixed_us", s.comm_fixed_us},
                              {"comm_per_sequence_us", s.comm_per_sequence_us},
                              {"overhead_us", s.overhead_us},
                              {"context", s.context}};
  j["slo"] = {{"slo_ms", v.slo.slo_ms},
              {"budget_ms", v.slo.budget_ms},
              {"memory_limit", number(v.slo.memory_limit)},
              {"compute_limit", number(v.slo.compute_limit)},
              {"batch", v.slo.batch},
              {"limited_by", v.slo.limited_by},
              {"ridge_batch", number(v.slo.ridge_batch)},
              {"at_batch", step_time_json(v.slo.at_batch)},
              {"above_batch", step_time_json(v.slo.above_batch)},
              {"token_budget_per_step", v.slo.batch},
              {"kv_tokens_read_per_step", v.slo.batch * n.request.context}};
  j["binds"] = to_string(v.binds);
  j["binds_factor"] = number(v.binds_factor);
  j["operating_batch"] = v.batch;
  j["at_operating_batch"] = step_time_json(v.at_batch);
  j["tokens_per_s_node"] = v.tokens_per_s_node;
  j["tokens_per_s_sequence"] = v.tokens_per_s_sequence;
  j["crossover_slo_ms"] = number(v.crossover_slo_ms);
  j["token_budget_fraction_of_pool"] = v.token_budget_fraction;
  j["kv_budget_ratio_to_pool"] = v.kv_budget_ratio;
  return j;
}

json record(const NodeSizing& n, const std::string& command) {
  const auto& r = n.request;
  const auto& m = n.model;
  json variants = json::array();
  for (const auto& v : n.variants) variants.push_back(variant_json(n, v));
  const VariantSizing& base = n.variants.front();
  json model = b05::to_json(m);
  model.update({{"params_total", n.params.total}, {"params_active", n.params.active},
                {"decode_flops_linear_per_token", n.decode_flops.linear},
                {"decode_flops_attention_per_token", n.decode_flops.attention},
                {"lm_head_flops_per_token", n.lm_head_flops}});
  json baseline = {{"fits", base.fits}, {"binds", to_string(base.binds)}};
  if (base.fits)
    baseline.update(
        {{"pool_sequences", base.pool_sequences}, {"pool_tokens_node", base.pool_tokens_node},
         {"slo_batch", base.slo.batch}, {"binds_factor", number(base.binds_factor)},
         {"crossover_slo_ms", number(base.crossover_slo_ms)},
         {"classic_finding",
          {{"per_step_token_budget_fraction_of_pool", base.token_budget_fraction},
           {"holds_in_per_step_tokens", base.pool_tokens_replica > 0 && base.token_budget_fraction < 0.01},
           {"kv_tokens_read_per_step_over_pool", base.kv_budget_ratio},
           {"holds_in_kv_tokens", base.pool_tokens_replica > 0 && base.kv_budget_ratio < 1}}}});
  else
    baseline["does_not_fit_why"] = base.does_not_fit_why;
  // Which start-up term came from the --vllm profile and which from the user.
  json terms = json::object();
  for (const EngineTerm& t : engine_terms(n))
    terms[t.key] = {{"value", t.value}, {"unit", t.key == "memory_utilization" ? "fraction" : "bytes"},
                    {"from", t.given ? "given" : "profile"}, {"option", t.option}, {"source", t.source}};
  json j = record_head("c07_capstone", "C07", "model", command);
  j.update({
      {"inputs",
       {{"model", m.name}, {"gpu", n.gpu.key}, {"gpus", r.gpus}, {"tp", r.tp}, {"slo_ms", r.slo_ms},
        {"context", r.context}, {"vllm", r.vllm},
        {"memory_utilization", base.plan.pool_inputs.memory_utilization},
        {"activation_reserve_GiB", base.plan.pool_inputs.activation_bytes / b06::kGiB},
        {"non_torch_GiB", base.plan.pool_inputs.non_torch_bytes / b06::kGiB},
        {"cuda_graph_GiB", base.plan.pool_inputs.cuda_graph_bytes / b06::kGiB},
        {"engine_terms", terms},
        {"max_num_batched_tokens", base.plan.scheduler.max_num_batched_tokens},
        {"max_num_seqs", base.plan.scheduler.max_num_seqs},
        {"block_size", r.block_size},
        {"bandwidth_efficiency", r.bandwidth_efficiency}, {"compute_efficiency", r.compute_efficiency},
        {"overhead_us", r.overhead_us}, {"allreduce_latency_us", n.allreduce_latency_us},
        {"allreduce_latency_source", n.allreduce_latency_from_nccl_model ? "NCCL tuning model" : "--allreduce-latency-us"}}},
      {"model", model},
      {"gpu", b06::to_json(n.gpu)},
      {"node",
       {{"gpus", r.gpus}, {"tp", r.tp}, {"replicas", n.replicas}, {"bandwidth_GBps_effective", n.bandwidth_GBps},
        {"bf16_TFLOPs_effective", n.bf16_TFLOPs}, {"comm_modelled", n.comm_modelled},
        {"allreduces_per_step", n.allreduces_per_step}, {"allreduce_bytes_per_sequence", n.allreduce_bytes_per_sequence},
        {"link_GBps_one_direction", n.link_GBps}}},
      {"baseline", baseline},
      {"variants", variants},
      {"fp8_findings", fp8_findings(n)},
      {"formulas",
       {{"kv_pool", "pool per GPU = total x utilization - weights/TP - activation peak - non-torch - CUDA graphs; pages "
                    "= floor(pool / (block_size x KV bytes per token per GPU)); B_pool = pages / ceil(KV of one "
                    "sequence / page)"},
        {"step_time", "t(B) = max((W_read + B x KV(c)) / BW, B x (F_linear + F_attention(c)) / peak) + 2L x (alpha + "
                      "2(p-1)/p x B x hidden x 2 B / link) + overhead, all per GPU of a TP group"},
        {"slo_batch", "B_slo = floor(min((SLO - overhead - 2L alpha - W_read/BW) / (KV(c)/BW + comm per sequence), "
                      "(SLO - overhead - 2L alpha) / (F/peak + comm per sequence)))"},
        {"throughput", "tokens/s per node = replicas x B / t(B) at B = min(B_pool, B_slo)"}}},
      {"assumptions", assumptions()},
      {"notes", n.notes},
      {"sources", sources()},
  });
  return j;
}

// ---- main --------------------------------------------------------------------------------

int run(int argc, char** argv) {
  CLI::App app{"C07 Capstone: size an LLM serving node. The HBM-bound KV pool against the batch a TPOT SLO allows "
               "(the roofline of one decode step), which binds first, and what fp8 weights, fp8 KV and W8A8 change. "
               "kind: model; no GPU needed.",
               "c07_capstone"};
  const std::string command = command_line(argc, argv);
  std::string model, config, gpu;
  NodeRequest r;
  // The engine's start-up terms: unset, each is the --vllm profile's value (B06's kv defaults).
  double memory_utilization = 0, activation_reserve_gib = 0, non_torch_gib = 0, cuda_graph_gib = 0;
  app.add_option("--model", model, "shipped model: the file stem of a config under data/models/ (llama-3.1-70b, "
                                   "...); one of --model or --config is required");
  app.add_option("--config", config, "any Hugging Face config.json, instead of --model");
  app.add_option("--gpu", gpu, "GPU of common's table (h100, h200, a100-80gb, mi300x, ...) or a .json file with the "
                               "table's fields (memory_GB, hbm_bandwidth_GBps, bf16_TFLOPs; fp8_TFLOPs, "
                               "interconnect_GBps optional)")
      ->required();
  // Integers are plain decimals: CLI11 alone would read "010" as octal 8.
  app.add_option("--gpus", r.gpus, "GPUs in the node (1 .. 1024)")->required()->check(integer_in(1, 1024));
  app.add_option("--slo-ms", r.slo_ms, "TPOT SLO: the longest a decode step may take, milliseconds (0.01 .. 100000)")
      ->required()
      ->transform(number_in(0.01, 100000.0));
  app.add_option("--tp", r.tp, "tensor-parallel degree (1 .. 1024, dividing --gpus; default: --gpus)")
      ->check(integer_in(1, 1024));
  app.add_option("--context", r.context, "tokens per sequence, prompt + output (1 .. the model's "
                                         "max_position_embeddings; default 4096, or the model's max_position_embeddings when smaller)")
      ->check(integer_in(1, 1 << 30));
  app.add_option("--bandwidth-efficiency", r.bandwidth_efficiency,
                 "fraction of the datasheet HBM bandwidth a step reaches, 0.01 .. 1 (default 0.80: the memory roof "
                 "B02 fitted on an H200, 3824.6 of 4800 GB/s, docs/results/H200/b02_roofline/history/b02_roofline_a1f5e90.json)")
      ->transform(number_in(0.01, 1));
  app.add_option("--compute-efficiency", r.compute_efficiency,
                 "fraction of the datasheet dense tensor-core rate a step reaches, 0.01 .. 1 (default 0.70: the "
                 "slow end of 50 cuBLAS bf16 GEMMs at 8192^3 on an H200, 686-779 of 989.5 TFLOP/s, median 740.0, "
                 "docs/results/H200/baselines/tutor_baselines.json)")
      ->transform(number_in(0.01, 1));
  // --vllm and the four terms below read as B06's kv options do, so the two tools take the same defaults.
  app.add_option("--vllm", r.vllm,
                 "the vLLM release whose start-up memory profile the defaults follow: " + b06::known_engine_profiles() +
                     " (default " + b06::kDefaultEngineProfile + ", the newest checked against published logs)")
      ->option_text("VERSION");
  app.add_option("--memory-utilization", memory_utilization,
                 "fraction of each GPU's total memory the engine may use, in (0, 1] (vLLM "
                 "--gpu-memory-utilization; default the release's: 0.9, 0.92 from v0.21)")
      ->transform(number_in(NumberRange{0, 1, true}));
  app.add_option("--activation-reserve-gib", activation_reserve_gib,
                 "peak activation memory of the engine's profiling pass, GiB per GPU, in [0, 4096] (default: "
                 "modelled from the layer shapes at the release's max_num_batched_tokens and max_num_seqs, as B06's "
                 "kv does; vLLM logs it as 'PyTorch activation peak memory' or 'peak activation')")
      ->transform(number_in(0, 4096));
  app.add_option("--non-torch-gib", non_torch_gib,
                 "memory outside the tensor allocator that the engine's profile counts (NCCL, all-reduce buffers), "
                 "GiB per GPU, in [0, 4096] (default the release's, from its logs: v0.19 0.25 at TP=1, 2.07 at TP>1)")
      ->transform(number_in(0, 4096));
  app.add_option("--cuda-graph-gib", cuda_graph_gib,
                 "CUDA-graph memory the engine subtracts before sizing the pool, GiB per GPU, in [0, 4096] (default 0 "
                 "before v0.21, which captures graphs after sizing it; --vllm v0.21: 0.84, give its 'Estimated CUDA "
                 "graph memory')")
      ->transform(number_in(0, 4096));
  app.add_option("--block-size", r.block_size, "tokens per KV page (1 .. 4096; vLLM default 16)")->check(integer_in(1, 4096));
  app.add_option("--overhead-us", r.overhead_us, "fixed cost per decode step, microseconds (0 .. 1e6; default 0: "
                                                 "the roofline floor)")
      ->transform(number_in(0, 1e6));
  app.add_option("--allreduce-latency-us", r.allreduce_latency_us,
                 "latency of one tensor-parallel all-reduce, microseconds (0 .. 1e6; default: NCCL's ring/LL "
                 "model, 6.6 + 2(TP-1) x 0.6)")
      ->transform(number_in(0, 1e6));
  Outputs out(app);
  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  out.check({{"--config", config}, {"--gpu", gpu}});
  if (app.count("--allreduce-latency-us") > 0 && !(r.allreduce_latency_us >= 0))
    throw UsageError(fmt::format("--allreduce-latency-us: must be >= 0 microseconds, got {}", r.allreduce_latency_us));
  // Only what the user gave overrides the profile; validate() checks the ranges again.
  if (app.count("--memory-utilization") > 0) r.memory_utilization = memory_utilization;
  if (app.count("--activation-reserve-gib") > 0) r.activation_reserve_bytes = activation_reserve_gib * b06::kGiB;
  if (app.count("--non-torch-gib") > 0) r.non_torch_bytes = non_torch_gib * b06::kGiB;
  if (app.count("--cuda-graph-gib") > 0) r.cuda_graph_bytes = cuda_graph_gib * b06::kGiB;

  // Cheap checks first, so a bad number is reported before a model file is read.
  if (r.gpus < 1) throw UsageError(fmt::format("--gpus: must be a positive integer, got {}", r.gpus));
  if (!(std::isfinite(r.slo_ms) && r.slo_ms > 0))
    throw UsageError(fmt::format("--slo-ms: must be a number of milliseconds > 0, got {}", r.slo_ms));
  const GpuChoice g = choose_gpu(gpu);
  const b05::ModelConfig m = b05::load_model_option(model, config);
  // The default context is 4096 tokens, or the model's positions when it has fewer (GPT-2's
  // 1024): a default the model cannot hold would blame --context, which was not given.
  if (app.count("--context") == 0 && m.max_position_embeddings > 0 && r.context > m.max_position_embeddings)
    r.context = m.max_position_embeddings;
  const NodeSizing n = blame_given(app.count("--tp") > 0, "--tp", "--gpus", [&] { return size_node(m, g, r); });

  print_report(out.human(), n);
  out.write_json(record(n, command));
  return kExitOk;
}

}  // namespace
}  // namespace tutor::c07

int main(int argc, char** argv) {
  return tutor::run_main("c07_capstone", [&] { return tutor::c07::run(argc, argv); });
}
