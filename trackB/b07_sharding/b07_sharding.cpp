// b07_sharding: the arithmetic of distributed training, no GPU needed.
//
//   b07_sharding memory      per-GPU memory of training a model with DP / TP / PP / SP, ZeRO 0-3,
//                            mixed-precision Adam and activation recomputation; what does not fit
//                            (kind: model; memory_planner.hpp)
//   b07_sharding collective  time, algorithm and bus bandwidth of a collective by the alpha-beta
//                            model, in nccl-tests' units (kind: model; collective_model.hpp)
//   b07_sharding bubble      a pipeline schedule (GPipe, 1F1B, interleaved 1F1B) built slot by
//                            slot and timed: bubble, step time, in-flight micro-batches, timeline
//                            (kind: simulation; pipeline_schedule.hpp)
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calculator.hpp"
#include "collective_model.hpp"
#include "memory_planner.hpp"
#include "model.hpp"
#include "pipeline_schedule.hpp"
#include "tutor/cli.hpp"
#include "tutor/number_option.hpp"
#include "tutor/hardware.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"

namespace tutor::b07 {
namespace {

using nlohmann::json;

constexpr double kGB = 1e9;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr const char* kProgram = "b07_sharding";
/// Simulated slot count above which the tool refuses (about a second of list scheduling).
constexpr double kMaxSlots = 4e6;

// ---- shared helpers ---------------------------------------------------------------------




std::string gb(double bytes) { return fmt::format("{:.2f} GB", bytes / kGB); }
std::string mb(double bytes) { return fmt::format("{:.1f} MB", bytes / 1e6); }

/// "7/32" for (p-1)/(v m), reduced.
std::string ratio(long long num, long long den) {
  const long long g = std::gcd(num, den);
  return g == 0 ? "0" : fmt::format("{}/{}", num / g, den / g);
}

// ---- memory -----------------------------------------------------------------------------

struct MemoryOptions {
  std::string model, config, gpu = "h100-sxm", schedule = "1f1b", recompute = "none";
  double params = 0;
  bool params_given = false;
  ParallelConfig parallel;
  double gpu_memory_gib = 0;
  bool gpu_memory_given = false, virtual_given = false, microbatches_given = false;
  bool no_dropout = false, flash = false, sp = false, explain = false;
};

b05::ModelConfig load_model(const MemoryOptions& o) { return b05::load_model_option(o.model, o.config); }

struct Capacity {
  std::string name;
  double bytes = 0;
  std::string source;        ///< full, for --explain and the JSON record
  std::string short_source;  ///< one phrase, for the table
};

Capacity gpu_capacity(const MemoryOptions& o) {
  const hw::GpuSpec* spec = hw::find_gpu(o.gpu);
  if (!spec) throw UsageError(fmt::format("--gpu: unknown GPU '{}'; allowed: {}", o.gpu, hw::known_keys()));
  Capacity c{std::string(spec->name), spec->memory_GB.value * kGB,
             fmt::format("datasheet {:g} GB x 1e9 B: {}", spec->memory_GB.value, spec->memory_GB.source),
             fmt::format("datasheet {:g} GB x 1e9 B; what the runtime reports differs: --gpu-memory-gib overrides",
                         spec->memory_GB.value)};
  if (o.gpu_memory_given) {
    if (!(std::isfinite(o.gpu_memory_gib) && o.gpu_memory_gib > 0))
      throw UsageError(fmt::format("--gpu-memory-gib: must be a finite number > 0, got {}", o.gpu_memory_gib));
    c.bytes = o.gpu_memory_gib * kGiB;
    c.source = c.short_source = fmt::format("--gpu-memory-gib {:g}", o.gpu_memory_gib);
  }
  return c;
}

constexpr const char* kZeroSource =
    "S. Rajbhandari, J. Rasley, O. Ruwase, Y. He, ZeRO: Memory Optimizations Toward Training Trillion Parameter "
    "Models, SC'20 (arXiv:1910.02054), sec. 3.1 (2 + 2 + K bytes per parameter, K = 12 for mixed-precision Adam) "
    "and sec. 5 / Figure 1 (P_os, P_os+g, P_os+g+p)";
constexpr const char* kTensorParallelSource =
    "M. Shoeybi et al., Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism, "
    "arXiv:1909.08053 (2019), sec. 3 (weight matrices, embedding and LM head split over the TP group; layer "
    "normalization duplicated on every GPU of the group)";
constexpr const char* kActivationSource =
    "V. Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, MLSys 2023 "
    "(arXiv:2205.05198), sec. 4.1 (per-layer terms), Table 2, sec. 4.2.3 (first pipeline stage: p micro-batches x "
    "L/p layers; interleaved: x (1 + (p-1)/(p v))), sec. 4.3 (embedding and output-layer extras)";
constexpr const char* kScheduleSource =
    "D. Narayanan et al., Memory-Efficient Pipeline-Parallel DNN Training, ICML 2021, sec. 3.1 (PipeDream-Flush / "
    "1F1B); D. Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM, "
    "SC'21, sec. 2.2 (interleaved schedule); Megatron-LM schedules.py (warm-up counts)";

void explain_memory(std::FILE* out) {
  fmt::print(out,
             "\nhow these numbers are computed (kind: model)\n"
             "  model states per GPU, Psi = parameters this GPU holds (its stage; matrices, embedding and LM head / TP,\n"
             "    norm weights replicated on every TP rank), N_d = DP degree:\n"
             "    ZeRO-0: (2 + 2 + 12) Psi   ZeRO-1: 4 Psi + 12 Psi / N_d   ZeRO-2: 2 Psi + 14 Psi / N_d   "
             "ZeRO-3: 16 Psi / N_d\n"
             "    sources: {}; {}\n"
             "  activations of one layer for one micro-batch (s tokens, b sequences, h hidden, a heads, t = TP):\n"
             "    no parallelism s b h (34 + 5 a s / h); TP s b h (10 + 24/t + 5 a s / (h t)); TP + SP s b h (34/t + "
             "5 a s / (h t));\n"
             "    selective recomputation drops the 5 a s^2 b term; full recomputation keeps 2 s b h (the layer "
             "input)\n"
             "    assumptions: 2-byte activations, 1-byte dropout masks, the s x s score matrix stored (no "
             "FlashAttention),\n"
             "    GPT MLP (4h, GeLU); this tool counts the same terms for the model's own shape (GQA K/V heads, "
             "gated MLP width),\n"
             "    --flash-attention replaces the s x s tensors by an fp32 log-sum-exp, --no-dropout drops the masks\n"
             "    source: {}\n"
             "  first stage holds peak-in-flight x L/(p v) layers of activations; the peak comes from the simulated "
             "schedule:\n"
             "    gpipe m, 1f1b min(p, m), interleaved (v-1) p + 2 (p-1) + 1 chunk-micro-batches (m == p: m v)\n"
             "    source: {}\n"
             "  not counted: fragmentation, NCCL buffers, CUDA context, workspaces, temporary all-gathered weights "
             "of ZeRO-3,\n"
             "    fp32 gradient accumulation buffers (Megatron-LM's default keeps fp32 main grads: +2 B/param)\n",
             kTensorParallelSource, kZeroSource, kActivationSource, kScheduleSource);
}

/// --params: model states only (no shape, no activations).
int run_memory_params(const MemoryOptions& o, const Capacity& cap, Outputs& outputs, const std::string& command) {
  const ParallelConfig& c = o.parallel;
  if (!(std::isfinite(o.params) && o.params >= 1))
    throw UsageError(fmt::format("--params: must be a parameter count >= 1, got {}", o.params));
  if (c.gpus % (c.tp * c.pp) != 0)
    throw UsageError(fmt::format("--gpus: must be a multiple of --tp x --pp = {}, got {}", c.tp * c.pp, c.gpus));
  const int dp = c.gpus / (c.tp * c.pp);
  const double psi = o.params / (double(c.tp) * c.pp);
  std::FILE* out = outputs.human();
  fmt::print(out, "kind: model (model states only: ZeRO's bytes per parameter; no shape given, so no activations)\n");
  fmt::print(out, "parameters: {:.4g} in all, {:.4g} per GPU before ZeRO (/ TP {} / PP {}); DP degree N_d = {}\n",
             o.params, psi, c.tp, c.pp, dp);
  fmt::print(out, "gpu: {}: {} ({})\n\n", cap.name, gb(cap.bytes), cap.short_source);
  fmt::print(out, "  ZeRO  {:>12} {:>12} {:>12} {:>12}  {}\n", "weights", "gradients", "optimizer", "total", "");
  json stages = json::array();
  for (int z = 0; z <= 3; ++z) {
    const ModelStates m = as_usage([&] { return zero_model_states(psi, z, dp); });
    fmt::print(out, "  {}{}    {:>12} {:>12} {:>12} {:>12}  {}\n", z, z == c.zero ? "*" : " ", gb(m.weight_bytes),
               gb(m.gradient_bytes), gb(m.optimizer_bytes), gb(m.total()),
               m.total() <= cap.bytes ? "fits (states alone)" : "does not fit");
    stages.push_back({{"zero", z}, {"weight_bytes", m.weight_bytes}, {"gradient_bytes", m.gradient_bytes},
                      {"optimizer_bytes", m.optimizer_bytes}, {"total_bytes", m.total()},
                      {"fits_capacity", m.total() <= cap.bytes}});
  }
  fmt::print(out, "  (* the --zero asked for; GB = 1e9 B)\n");
  if (o.explain) explain_memory(out);
  if (outputs.json()) {
    json j = record_head(kProgram, "B07", "model", command, "memory");
    j["inputs"] = {{"params", o.params}, {"gpus", c.gpus}, {"tp", c.tp}, {"pp", c.pp}, {"dp", dp}, {"zero", c.zero}};
    j["gpu"] = {{"name", cap.name}, {"capacity_bytes", cap.bytes}, {"capacity_source", cap.source}};
    j["params_per_gpu_before_zero"] = psi;
    j["model_states_by_zero"] = stages;
    j["formula"] = "ZeRO-0 16 Psi; ZeRO-1 4 Psi + 12 Psi/N_d; ZeRO-2 2 Psi + 14 Psi/N_d; ZeRO-3 16 Psi/N_d";
    j["source"] = kZeroSource;
    outputs.write_json(j);
  }
  return kExitOk;
}

json stage_json(const StageMemory& s) {
  return {{"stage", s.stage},
          {"params", s.params},
          {"weight_bytes", s.states.weight_bytes},
          {"gradient_bytes", s.states.gradient_bytes},
          {"optimizer_bytes", s.states.optimizer_bytes},
          {"peak_in_flight", s.peak_in_flight},
          {"layer_passes", s.layer_passes},
          {"layer_activation_bytes", s.layer_activation_bytes},
          {"extra_activation_bytes", s.extra_activation_bytes},
          {"recompute_working_bytes", s.recompute_working_bytes},
          {"activation_bytes", s.activation_bytes()},
          {"total_bytes", s.total_bytes()}};
}

int run_memory(MemoryOptions o, Outputs& outputs, const std::string& command) {
  const int given = int(!o.model.empty()) + int(!o.config.empty()) + int(o.params_given);
  if (given != 1)
    throw UsageError("--model: give exactly one of --model NAME (a shipped config), --config FILE or --params N");
  ParallelConfig& c = o.parallel;
  if (c.gpus < 1) throw UsageError(fmt::format("--gpus: must be >= 1, got {}", c.gpus));
  if (c.tp < 1) throw UsageError(fmt::format("--tp: must be >= 1, got {}", c.tp));
  if (c.pp < 1) throw UsageError(fmt::format("--pp: must be >= 1, got {}", c.pp));
  if (c.zero < 0 || c.zero > 3) throw UsageError(fmt::format("--zero: must be 0, 1, 2 or 3, got {}", c.zero));
  if (o.microbatches_given && c.microbatches < 1)
    throw UsageError(fmt::format("--microbatches: must be >= 1, got {}", c.microbatches));
  if (c.microbatches > 4096) throw UsageError(fmt::format("--microbatches: at most 4096, got {}", c.microbatches));
  const auto schedule = parse_schedule(o.schedule);
  if (!schedule) throw UsageError(fmt::format("--schedule: unknown schedule '{}'; allowed: gpipe, 1f1b, interleaved",
                                              o.schedule));
  c.schedule = *schedule;
  if (c.schedule == Schedule::interleaved && !o.virtual_given) c.virtual_stages = 2;
  {
    // The schedule is simulated slot by slot: bound the work (and the pipeline-depth sweep's).
    const double m = c.microbatches > 0 ? c.microbatches : 4.0 * c.pp;
    const double v = std::max(1, c.virtual_stages);
    if (double(c.pp) * m * v * 2 > kMaxSlots)
      throw UsageError(fmt::format("--pp: {} stages x {} micro-batches x {} chunks x 2 = {:.3g} schedule slots exceed "
                                   "the {:.0e} this tool simulates", c.pp, m, v, double(c.pp) * m * v * 2, kMaxSlots));
  }
  const auto recompute = parse_recompute(o.recompute);
  if (!recompute) throw UsageError(fmt::format("--recompute: unknown mode '{}'; allowed: none, selective, full",
                                               o.recompute));
  c.activations.recompute = *recompute;
  c.activations.sequence_parallel = o.sp;
  c.activations.flash_attention = o.flash;
  c.activations.dropout = !o.no_dropout;
  const Capacity cap = gpu_capacity(o);
  if (o.params_given) return run_memory_params(o, cap, outputs, command);

  const b05::ModelConfig model = load_model(o);  // num_hidden_layers <= 100,000 (b05's reader)
  const MemoryPlan plan = [&] {
    try {
      return as_usage([&] { return plan_memory(model, c, cap.bytes); });
    } catch (const UsageError& e) {
      // --schedule interleaved sets 2 chunks per GPU when --virtual-stages is not given: a
      // layer count they do not divide is the schedule's doing, not an option never typed.
      const std::string what = e.what(), prefix = "--virtual-stages: ";
      if (o.virtual_given || what.rfind(prefix, 0) != 0) throw;
      throw UsageError("--schedule: " + o.schedule + " takes 2 chunks per GPU (--virtual-stages was not given): " +
                       what.substr(prefix.size()) + "; give --virtual-stages");
    }
  }();
  const ParallelConfig& pc = plan.config;
  // A layer's activations grow as s b h and a s^2 b: past 2^53 B no byte count is exact, and
  // printing one as an integer is undefined behaviour (it printed "-0 B").
  if (!(plan.layer.all_bytes <= 9007199254740992.0))
    throw UsageError(fmt::format("--seq-len {} x --micro-batch {}: one layer's activations would be {:.3g} B (hidden "
                                 "{}); at most 2^53 = 9.0e15 B: lower them",
                                 pc.seq_len, pc.micro_batch, plan.layer.all_bytes, model.hidden_size));
  std::FILE* out = outputs.human();

  fmt::print(out, "kind: model (per-GPU training memory from ZeRO's and Korthikanti et al.'s accounting; nothing "
                  "measured)\n");
  fmt::print(out, "model: {} ({}): {} layers, hidden {}, {} heads ({} K/V) x {}, MLP {} {}, vocab {}; {:.3f} B "
                  "parameters\n",
             model.name, model.model_type, model.num_layers, model.hidden_size, model.num_heads,
             model.is_mla() ? model.num_heads : model.num_kv_heads, model.head_dim, plan.shape.mlp_width,
             plan.shape.gated ? "gated" : "GeLU", model.vocab_size, plan.params_total / 1e9);
  fmt::print(out, "layout: {} GPUs = DP {} x TP {} x PP {}{}; {}, m = {} micro-batches of b = {} x s = {} tokens\n",
             pc.gpus, plan.dp, pc.tp, pc.pp,
             pc.schedule == Schedule::interleaved ? fmt::format(" (v = {} chunks per GPU)", pc.virtual_stages) : "",
             pc.pp == 1 ? std::string("no pipeline (micro-batches run one after another)")
                        : fmt::format("{} schedule", name(pc.schedule)),
             pc.microbatches, pc.micro_batch, pc.seq_len);
  fmt::print(out, "training: mixed-precision Adam (2 + 2 + 12 B/param), ZeRO-{}, SP {}, recompute {}, attention {}, "
                  "dropout {}\n",
             pc.zero, pc.activations.sequence_parallel ? "on" : "off", name(pc.activations.recompute),
             pc.activations.flash_attention ? "FlashAttention (no s x s tensor)" : "standard (s x s scores stored)",
             pc.activations.dropout ? "on (masks stored)" : "off");
  fmt::print(out, "gpu: {}: {} ({})\n", cap.name, gb(cap.bytes), cap.short_source);

  // One layer, one micro-batch.
  const double sbh = double(pc.seq_len) * pc.micro_batch * double(model.hidden_size);
  fmt::print(out, "\none layer, one micro-batch: stores {} ({} B = {:.2f} s b h) of the {} ({:.2f} s b h) its "
                  "forward makes{}\n",
             mb(plan.layer.stored_bytes), thousands(std::int64_t(std::llround(plan.layer.stored_bytes))),
             plan.layer.stored_bytes / sbh, mb(plan.layer.all_bytes),
             plan.layer.all_bytes / sbh,
             pc.activations.recompute == Recompute::selective ? " (selective: the a s^2 b tensors are recomputed)"
             : pc.activations.recompute == Recompute::full    ? " (full: only the layer input is kept)"
                                                              : "");
  if (o.explain) {
    for (const auto& t : plan.layer.terms)
      fmt::print(out, "    {:<44} {:>12}  {:>6.3f} sbh  divided by {}{}\n", t.name, mb(t.bytes), t.bytes / sbh,
                 t.divided_by, t.quadratic ? "  [dropped by selective recomputation]" : "");
  }

  // Per stage.
  const bool two = pc.pp > 1;
  auto row = [&](const std::string& label, double a, double b) {
    if (two) fmt::print(out, "  {:<38} {:>15} {:>15}\n", label, gb(a), gb(b));
    else fmt::print(out, "  {:<38} {:>15}\n", label, gb(a));
  };
  const StageMemory& f = plan.first;
  const StageMemory& l = plan.last;
  fmt::print(out, "\n{:<40} {}\n", "per GPU",
             two ? fmt::format("{:>15} {:>15}", "first stage", fmt::format("last stage {}", pc.pp - 1))
                 : fmt::format("{:>15}", "the one stage"));
  if (two) fmt::print(out, "  {:<38} {:>15.4g} {:>15.4g}\n", "parameters held (before ZeRO)", f.params, l.params);
  else fmt::print(out, "  {:<38} {:>15.4g}\n", "parameters held (before ZeRO)", f.params);
  row("weights (2 B/param)", f.states.weight_bytes, l.states.weight_bytes);
  row("gradients (2 B/param)", f.states.gradient_bytes, l.states.gradient_bytes);
  row("optimizer states (12 B/param)", f.states.optimizer_bytes, l.states.optimizer_bytes);
  const std::string in_flight_label =
      two ? fmt::format("activations: {:g} / {:g} layer passes", f.layer_passes, l.layer_passes)
          : fmt::format("activations: {:g} layer passes", f.layer_passes);
  row(in_flight_label, f.layer_activation_bytes, l.layer_activation_bytes);
  row("activations: embedding / output extras", f.extra_activation_bytes, l.extra_activation_bytes);
  if (pc.activations.recompute == Recompute::full)
    row("recompute working set (one layer)", f.recompute_working_bytes, l.recompute_working_bytes);
  row("total", f.total_bytes(), l.total_bytes());
  fmt::print(out, "  peak in-flight (micro-batch, chunk) passes: first stage {}{} (simulated {} schedule)\n",
             f.peak_in_flight, two ? fmt::format(", last stage {}", l.peak_in_flight) : "", name(pc.schedule));
  const StageMemory& bind = plan.binding();
  const double used = bind.total_bytes();
  if (plan.fits())
    fmt::print(out, "verdict: fits: {} of {} on the {} ({:.0f}%), {} left for buffers and fragmentation\n", gb(used),
               gb(cap.bytes), bind.stage == 0 ? "first stage" : "last stage", 100 * used / cap.bytes,
               gb(cap.bytes - used));
  else
    fmt::print(out, "verdict: DOES NOT FIT: the {} needs {}, {} over the {} of one {}\n",
               bind.stage == 0 ? "first stage" : "last stage", gb(used), gb(used - cap.bytes), gb(cap.bytes), cap.name);

  // ZeRO comparison for the first stage.
  fmt::print(out, "\nZeRO stages for the first stage (N_d = {}; activations {} as above)\n", plan.dp,
             gb(f.activation_bytes()));
  fmt::print(out, "  ZeRO  {:>12} {:>12} {:>12} {:>12} {:>12}\n", "weights", "gradients", "optimizer", "states",
             "per GPU");
  json zero_rows = json::array();
  for (int z = 0; z <= 3; ++z) {
    const ModelStates& m = plan.first_states_by_zero[std::size_t(z)];
    const double total = m.total() + f.activation_bytes();
    fmt::print(out, "  {}{}    {:>12} {:>12} {:>12} {:>12} {:>12}  {}\n", z, z == pc.zero ? "*" : " ",
               gb(m.weight_bytes), gb(m.gradient_bytes), gb(m.optimizer_bytes), gb(m.total()), gb(total),
               total <= cap.bytes ? "fits" : "does not fit");
    zero_rows.push_back({{"zero", z}, {"weight_bytes", m.weight_bytes}, {"gradient_bytes", m.gradient_bytes},
                         {"optimizer_bytes", m.optimizer_bytes}, {"state_bytes", m.total()},
                         {"total_bytes", total}, {"fits", total <= cap.bytes}});
  }

  // The lesson: pipelining does not shrink the first stage's activations.
  const auto sweep = as_usage([&] { return pipeline_depth_sweep(model, pc, cap.bytes); });
  fmt::print(out, "\npipeline depth under 1F1B (same DP {}, TP {}, m = {}, b, s): activations of the first stage\n",
             plan.dp, pc.tp, pc.microbatches);
  fmt::print(out, "  {:>4} {:>6} {:>13} {:>10} {:>14} {:>14} {:>16}\n", "pp", "GPUs", "layers/stage", "in flight",
             "activations", "model states", "bubble (p-1)/m");
  json sweep_rows = json::array();
  for (const auto& r : sweep) {
    fmt::print(out, "  {:>4} {:>6} {:>13} {:>10} {:>14} {:>14} {:>16.4g}{}\n", r.pp, r.gpus, r.layers_per_stage,
               r.peak_in_flight, gb(r.activation_bytes), gb(r.state_bytes), r.bubble_fraction,
               r.peak_in_flight < r.pp ? "  (m < p: fewer in flight, bubble >= 1)" : "");
    sweep_rows.push_back({{"pp", r.pp}, {"gpus", r.gpus}, {"layers_per_stage", r.layers_per_stage},
                          {"peak_in_flight", r.peak_in_flight}, {"activation_bytes", r.activation_bytes},
                          {"state_bytes", r.state_bytes}, {"bubble_fraction", r.bubble_fraction}});
  }
  fmt::print(out, "  each stage holds L/p layers but the first keeps p micro-batches in flight: p x L/p = L layer "
                  "passes, whatever p.\n  Pipelining cuts the model states per GPU, not the activations.\n");
  for (const auto& n : plan.notes) fmt::print(out, "note: {}\n", n);
  if (o.explain) explain_memory(out);
  else fmt::print(out, "\n(--explain prints the per-layer terms, the formulas and their sources)\n");

  if (outputs.json()) {
    json j = record_head(kProgram, "B07", "model", command, "memory");
    json terms = json::array();
    for (const auto& t : plan.layer.terms)
      terms.push_back({{"name", t.name}, {"bytes", t.bytes}, {"divided_by", t.divided_by}, {"quadratic", t.quadratic}});
    // The model as B05 writes it everywhere, plus what the planner derived from it.
    j["model"] = b05::to_json(model);
    j["model"].update({{"planner_kv_heads", plan.shape.kv_heads}, {"mlp_width", plan.shape.mlp_width},
                       {"gated_mlp", plan.shape.gated}, {"params", plan.params_total}});
    j["inputs"] = {{"gpus", pc.gpus}, {"dp", plan.dp}, {"tp", pc.tp}, {"pp", pc.pp},
                   {"virtual_stages", pc.virtual_stages}, {"schedule", name(pc.schedule)},
                   {"microbatches", pc.microbatches}, {"micro_batch", pc.micro_batch}, {"seq_len", pc.seq_len},
                   {"zero", pc.zero}, {"sequence_parallel", pc.activations.sequence_parallel},
                   {"recompute", name(pc.activations.recompute)},
                   {"flash_attention", pc.activations.flash_attention}, {"dropout", pc.activations.dropout}};
    j["gpu"] = {{"name", cap.name}, {"capacity_bytes", cap.bytes}, {"capacity_source", cap.source}};
    j["layer"] = {{"stored_bytes", plan.layer.stored_bytes}, {"all_bytes", plan.layer.all_bytes},
                  {"recompute_working_bytes", plan.layer.recompute_working_bytes}, {"terms", terms}};
    j["first_stage"] = stage_json(f);
    j["last_stage"] = stage_json(l);
    j["binding_stage"] = bind.stage;
    j["fits"] = plan.fits();
    j["bubble_fraction"] = plan.bubble_fraction;
    j["zero_comparison"] = zero_rows;
    j["pipeline_depth_sweep"] = sweep_rows;
    j["notes"] = plan.notes;
    j["sources"] = {kTensorParallelSource, kZeroSource, kActivationSource, kScheduleSource};
    outputs.write_json(j);
  }
  return kExitOk;
}

// ---- collective -------------------------------------------------------------------------

struct CollectiveOptions {
  std::string op, algo = "ring", link = "h100-sxm", bytes, max_bytes;
  int ranks = 0;
  double alpha_us = 0, beta_GBps = 0;
  bool alpha_given = false, beta_given = false, link_given = false, explain = false;
};

constexpr const char* kCollectiveSource =
    "alpha-beta model: R. Thakur, R. Rabenseifner, W. Gropp, Optimization of Collective Communication Operations "
    "in MPICH, IJHPCA 19(1), 2005; P. Patarasuk, X. Yuan, Bandwidth optimal all-reduce algorithms for clusters of "
    "workstations, JPDC 69(2), 2009; E. Chan et al., Collective communication: theory, practice, and experience, "
    "CCPE 19(13), 2007; P. Sanders, J. Speck, J. L. Traff, Two-tree algorithms for full bandwidth broadcast, "
    "reduction and scan, Parallel Computing 35(12), 2009; bus bandwidth: NVIDIA nccl-tests doc/PERFORMANCE.md";



int run_collective(CollectiveOptions o, Outputs& outputs, const std::string& command) {
  const auto op = parse_collective(o.op);
  if (!op) throw UsageError(fmt::format("--op: unknown collective '{}'; allowed: {}", o.op, known_collectives()));
  const auto algo = parse_algorithm(o.algo);
  if (!algo) throw UsageError(fmt::format("--algo: unknown algorithm '{}'; allowed: ring, tree", o.algo));
  if (o.ranks < 1) throw UsageError(fmt::format("--ranks: must be >= 1, got {}", o.ranks));
  if (o.ranks > 1 << 20) throw UsageError(fmt::format("--ranks: must be at most 1048576, got {}", o.ranks));
  const auto bytes = parse_size(o.bytes);
  if (!bytes) throw UsageError(fmt::format("--bytes: '{}' is not a size > 0 (bytes, or with K/M/G = KiB/MiB/GiB, "
                                           "KB/MB/GB = 1e3/1e6/1e9)", o.bytes));
  // No GPU holds a terabyte buffer; past that the printed nccl-tests command makes no sense.
  constexpr double kMaxCollectiveBytes = 1099511627776.0;  // 1 TiB
  if (*bytes > kMaxCollectiveBytes) throw UsageError(fmt::format("--bytes: at most 1024G (1 TiB), got '{}'", o.bytes));
  double max_bytes = *bytes;
  if (!o.max_bytes.empty()) {
    const auto m = parse_size(o.max_bytes);
    if (!m || *m < *bytes)
      throw UsageError(fmt::format("--max-bytes: '{}' must be a size >= --bytes", o.max_bytes));
    if (*m / *bytes > double(1 << 30)) throw UsageError("--max-bytes: at most 2^30 x --bytes (31 sizes)");
    if (*m > kMaxCollectiveBytes) throw UsageError(fmt::format("--max-bytes: at most 1024G (1 TiB), got '{}'", o.max_bytes));
    max_bytes = *m;
  }
  std::optional<LinkParams> link;
  try {
    link = link_preset(o.link);
  } catch (const std::invalid_argument& e) {
    if (!o.alpha_given || !o.beta_given) throw UsageError(e.what());
  }
  if (!link && !(o.alpha_given && o.beta_given))
    throw UsageError(fmt::format("--link: unknown link '{}'; allowed: {}", o.link, known_links()));
  LinkParams params = link ? *link : LinkParams{0, 1, ""};
  std::string source = link ? params.source : "";
  if (o.alpha_given || o.beta_given) {
    if (o.alpha_given && !(std::isfinite(o.alpha_us) && o.alpha_us >= 0))
      throw UsageError(fmt::format("--alpha-us: must be a finite number >= 0, got {}", o.alpha_us));
    if (o.beta_given && !(std::isfinite(o.beta_GBps) && o.beta_GBps > 0))
      throw UsageError(fmt::format("--beta-GBps: must be a finite number > 0, got {}", o.beta_GBps));
    if (o.alpha_given) params.alpha_us = o.alpha_us;
    if (o.beta_given) params.beta_GBps = o.beta_GBps;
    source = fmt::format("command line: {}{}{}", o.alpha_given ? fmt::format("--alpha-us {:g}", o.alpha_us) : "",
                         o.alpha_given && o.beta_given ? ", " : "",
                         o.beta_given ? fmt::format("--beta-GBps {:g}", o.beta_GBps) : "");
    if (link && !(o.alpha_given && o.beta_given))
      source += fmt::format("; the rest from --link {}: {}", o.link, link->source);
  }
  params.source = source;

  std::vector<double> sizes;
  for (double s = *bytes; s <= max_bytes * (1 + 1e-12); s *= 2) sizes.push_back(s);
  std::FILE* out = outputs.human();
  const double factor = bus_bandwidth_factor(*op, o.ranks);
  fmt::print(out, "kind: model (alpha-beta latency-bandwidth model; not a measurement: compare with nccl-tests / "
                  "rccl-tests)\n");
  fmt::print(out, "{} over n = {} ranks, {} algorithm; S = nccl-tests 'size' = {}\n", name(*op), o.ranks, name(*algo),
             size_meaning(*op));
  fmt::print(out, "link: alpha = {:g} us per step, B = {:g} GB/s per direction per rank ({})\n", params.alpha_us,
             params.beta_GBps, params.source);
  fmt::print(out, "bus bandwidth factor (nccl-tests): {} = {:.4f}\n",
             *op == Collective::allreduce ? "2(n-1)/n" : *op == Collective::broadcast ? "1" : "(n-1)/n", factor);
  const double s_half = as_usage([&] { return half_bandwidth_bytes(*op, *algo, o.ranks, params); });
  if (s_half > 0)
    fmt::print(out, "half-bandwidth size S_1/2 = {:.4g} B: below it the {} start-ups dominate (latency-bound), above it "
                    "the link does\n", s_half, name(*algo));
  else
    fmt::print(out, "half-bandwidth size S_1/2 = 0 B: no start-up cost, bandwidth-bound at every size\n");
  json rows = json::array();
  const Algorithm other = *algo == Algorithm::ring ? Algorithm::tree : Algorithm::ring;
  if (sizes.size() == 1) {
    const CollectivePrediction p = as_usage([&] { return predict(*op, *algo, o.ranks, *bytes, params); });
    const CollectivePrediction q = as_usage([&] { return predict(*op, other, o.ranks, *bytes, params); });
    fmt::print(out, "\n  time {:.2f} us   algbw {:.2f} GB/s   busbw {:.2f} GB/s\n", p.time_us, p.algbw_GBps,
               p.busbw_GBps);
    fmt::print(out, "  {}\n", p.formula);
    fmt::print(out, "  ({} for comparison: time {:.2f} us, busbw {:.2f} GB/s)\n", name(other), q.time_us, q.busbw_GBps);
    rows.push_back({{"bytes", *bytes}, {"time_us", p.time_us}, {"algbw_GBps", p.algbw_GBps},
                    {"busbw_GBps", p.busbw_GBps}, {"formula", p.formula},
                    {"other_algorithm", {{"name", name(other)}, {"time_us", q.time_us}, {"busbw_GBps", q.busbw_GBps}}}});
  } else {
    fmt::print(out, "\n  {:>14} {:>12} {:>10} {:>10}   {:>12} {:>10}\n", "size (B)", "time (us)", "algbw", "busbw",
               fmt::format("{} (us)", name(other)), "busbw");
    for (double s : sizes) {
      const CollectivePrediction p = as_usage([&] { return predict(*op, *algo, o.ranks, s, params); });
      const CollectivePrediction q = as_usage([&] { return predict(*op, other, o.ranks, s, params); });
      fmt::print(out, "  {:>14.0f} {:>12.2f} {:>10.2f} {:>10.2f}   {:>12.2f} {:>10.2f}\n", s, p.time_us, p.algbw_GBps,
                 p.busbw_GBps, q.time_us, q.busbw_GBps);
      rows.push_back({{"bytes", s}, {"time_us", p.time_us}, {"algbw_GBps", p.algbw_GBps}, {"busbw_GBps", p.busbw_GBps},
                      {"other_algorithm", {{"name", name(other)}, {"time_us", q.time_us}, {"busbw_GBps", q.busbw_GBps}}}});
    }
    fmt::print(out, "  (GB/s = 1e9 B/s, as nccl-tests prints them)\n");
  }
  fmt::print(out, "\nto measure it: {} -b {:.0f} -e {:.0f} -f 2 -g {} (nccl-tests; rccl-tests has the same binaries), "
                  "then read its busbw column\n",
             nccl_tests_binary(*op), *bytes, max_bytes, o.ranks);
  if (o.explain) {
    fmt::print(out,
               "\nhow these numbers are computed (kind: model)\n"
               "  t = (steps) x alpha + (share of S over the busiest link) x S / B; algbw = S / t; busbw = algbw x "
               "factor\n"
               "  ring:  allreduce 2(n-1) alpha + 2(n-1)/n S/B; allgather, reducescatter, alltoall (n-1) alpha + "
               "(n-1)/n S/B;\n"
               "         broadcast (n-1) alpha + S/B (pipelined chain)\n"
               "  tree:  allreduce 2 L alpha + 2 S/B (pipelined double binary tree, NCCL Tree); allgather / "
               "reducescatter\n"
               "         L alpha + (n-1)/n S/B (recursive doubling / halving); alltoall L alpha + (S/2) L / B "
               "(Bruck);\n"
               "         broadcast L (alpha + S/B) (binomial); L = ceil(log2 n). NCCL runs only ring for all but "
               "allreduce.\n"
               "  B is per direction: the GPU table's interconnect_GBps is a bidirectional total, halved here.\n"
               "  not modelled: NCCL's base latency per call (about 8 us, tuning.cc baseLat), protocol overheads "
               "(LL, LL128),\n"
               "  the number of channels, NVLink SHARP (NVLS), topology (PCIe switches, NIC placement), "
               "contention.\n"
               "  source: {}\n",
               kCollectiveSource);
  }
  if (outputs.json()) {
    json j = record_head(kProgram, "B07", "model", command, "collective");
    j["inputs"] = {{"op", name(*op)}, {"algorithm", name(*algo)}, {"ranks", o.ranks}, {"bytes", *bytes},
                   {"max_bytes", max_bytes}, {"size_convention", size_meaning(*op)}};
    j["link"] = {{"alpha_us", params.alpha_us}, {"beta_GBps_per_direction", params.beta_GBps},
                 {"source", params.source}};
    j["bus_bandwidth_factor"] = factor;
    j["half_bandwidth_bytes"] = s_half;
    j["predictions"] = rows;
    j["source"] = kCollectiveSource;
    outputs.write_json(j);
  }
  return kExitOk;
}

// ---- bubble -----------------------------------------------------------------------------

struct BubbleOptions {
  PipelineParams params;
  std::string schedule = "1f1b";
  int layers = 0;
  bool layers_given = false, virtual_given = false, explain = false;
};

int run_bubble(BubbleOptions o, Outputs& outputs, const std::string& command) {
  auto& pp = o.params;
  const auto schedule = parse_schedule(o.schedule);
  if (!schedule)
    throw UsageError(fmt::format("--schedule: unknown schedule '{}'; allowed: gpipe, 1f1b, interleaved", o.schedule));
  pp.schedule = *schedule;
  if (pp.schedule == Schedule::interleaved && !o.virtual_given) pp.virtual_stages = 2;
  if (pp.stages < 1) throw UsageError(fmt::format("--stages: must be >= 1, got {}", pp.stages));
  if (pp.microbatches < 1) throw UsageError(fmt::format("--microbatches: must be >= 1, got {}", pp.microbatches));
  if (o.layers_given) {
    if (o.layers < 1) throw UsageError(fmt::format("--layers: must be >= 1, got {}", o.layers));
    if (pp.stages > o.layers)
      throw UsageError(fmt::format("--stages: {} stages for {} layers; allowed: 1 to {}", pp.stages, o.layers, o.layers));
    if (o.layers % (pp.stages * std::max(1, pp.virtual_stages)) != 0)
      throw UsageError(fmt::format("--layers: {} layers do not split evenly into --stages x --virtual-stages = {} "
                                   "chunks", o.layers, pp.stages * std::max(1, pp.virtual_stages)));
  }
  as_usage([&] { validate(pp); });
  if (double(pp.stages) * pp.microbatches * pp.virtual_stages * 2 > kMaxSlots)
    throw UsageError(fmt::format("--microbatches: stages x micro-batches x chunks x 2 = {:.3g} slots exceeds the {:.0e} "
                                 "this tool simulates", double(pp.stages) * pp.microbatches * pp.virtual_stages * 2,
                                 kMaxSlots));
  const PipelineRun run = simulate(pp);
  const int p = pp.stages, m = pp.microbatches, v = pp.virtual_stages;
  const bool interleaved = pp.schedule == Schedule::interleaved;

  std::FILE* out = outputs.human();
  fmt::print(out, "kind: simulation (an idealized {} schedule timed slot by slot: equal stages, no communication time; "
                  "nothing measured)\n", name(pp.schedule));
  fmt::print(out, "p = {} stages, m = {} micro-batches{}; t_f = {:g}, t_b = {:g} per micro-batch per stage{}\n", p, m,
             interleaved ? fmt::format(", v = {} chunks per GPU", v) : "", pp.forward_time, pp.backward_time,
             o.layers_given ? fmt::format(" ({} layers: {} per chunk)", o.layers, o.layers / (p * v)) : "");
  fmt::print(out, "step time {:g}; ideal m (t_f + t_b) = {:g}; bubble {:g} = (p-1)(t_f + t_b){}\n", run.step_time,
             run.ideal_time, run.bubble_time, interleaved ? " / v" : "");
  fmt::print(out, "bubble fraction (bubble / ideal time): simulated {:.6g}; closed form (p-1)/{} = {} = {:.6g}  {}\n",
             run.bubble_fraction, interleaved ? "(v m)" : "m", ratio(p - 1, (long long)(interleaved ? v : 1) * m),
             run.closed_form_bubble_fraction,
             std::abs(run.bubble_fraction - run.closed_form_bubble_fraction) <= 1e-9 * (1 + run.bubble_fraction)
                 ? "(agree)" : "(differ: the closed form assumes t_b is the same multiple of t_f on every stage)");
  fmt::print(out, "a GPU idles {:.2f}% of the step (bubble / step time)\n", 100 * run.idle_share);
  const int closed_peak = first_stage_peak_in_flight(pp.schedule, p, m, v);
  fmt::print(out, "first stage holds at most {} {} in flight (closed form {}){}\n", run.stages[0].peak_in_flight,
             interleaved ? "(micro-batch, chunk) passes" : "micro-batches", closed_peak,
             interleaved ? fmt::format(": {:g} x L/(p v) layers = L x {:.4f}", double(run.stages[0].peak_in_flight),
                                       double(run.stages[0].peak_in_flight) / (p * v))
             : pp.schedule == Schedule::one_f_one_b && m >= p ? ": p x L/p = L layer passes, whatever p is"
                                                              : "");

  fmt::print(out, "\n  {:>6} {:>10} {:>10} {:>16}\n", "stage", "busy", "idle", "peak in flight");
  json stages = json::array();
  for (std::size_t s = 0; s < run.stages.size(); ++s) {
    const auto& st = run.stages[s];
    fmt::print(out, "  {:>6} {:>10g} {:>10g} {:>16}\n", s, st.busy_time, run.step_time - st.busy_time,
               st.peak_in_flight);
    json slots = json::array();
    for (const Slot& sl : st.slots)
      slots.push_back({{"pass", sl.pass == Pass::forward ? "F" : "B"}, {"microbatch", sl.microbatch},
                       {"chunk", sl.chunk}, {"start", sl.start}, {"end", sl.end}});
    stages.push_back({{"stage", s}, {"busy", st.busy_time}, {"idle", run.step_time - st.busy_time},
                      {"peak_in_flight", st.peak_in_flight}, {"slots", slots}});
  }

  // The same p and m under each schedule.
  fmt::print(out, "\nthe same p = {}, m = {} under each schedule (t_f = {:g}, t_b = {:g})\n", p, m, pp.forward_time,
             pp.backward_time);
  fmt::print(out, "  {:<18} {:>10} {:>16}   {}\n", "schedule", "step time", "bubble fraction",
             "first stage in flight");
  json compare = json::array();
  std::vector<PipelineParams> variants;
  for (Schedule s : {Schedule::gpipe, Schedule::one_f_one_b}) {
    PipelineParams q = pp;
    q.schedule = s, q.virtual_stages = 1;
    variants.push_back(q);
  }
  if (p >= 2 && m % p == 0) {
    PipelineParams q = pp;
    q.schedule = Schedule::interleaved, q.virtual_stages = interleaved ? v : 2;
    variants.push_back(q);
  }
  for (const auto& q : variants) {
    const PipelineRun r = simulate(q);
    const std::string label = q.schedule == Schedule::interleaved
                                  ? fmt::format("interleaved v={}", q.virtual_stages) : std::string(name(q.schedule));
    const std::string in_flight = q.schedule == Schedule::interleaved
                                      ? fmt::format("{} chunk passes = {:.4g} x L/p layers", r.stages[0].peak_in_flight,
                                                    double(r.stages[0].peak_in_flight) / q.virtual_stages)
                                      : fmt::format("{} micro-batches = {} x L/p layers", r.stages[0].peak_in_flight,
                                                    r.stages[0].peak_in_flight);
    fmt::print(out, "  {:<18} {:>10g} {:>16.6g}   {}\n", label, r.step_time, r.bubble_fraction, in_flight);
    compare.push_back({{"schedule", name(q.schedule)}, {"virtual_stages", q.virtual_stages},
                       {"step_time", r.step_time}, {"bubble_fraction", r.bubble_fraction},
                       {"closed_form_bubble_fraction", r.closed_form_bubble_fraction},
                       {"first_stage_peak_in_flight", r.stages[0].peak_in_flight}});
  }
  if (!(p >= 2 && m % p == 0))
    fmt::print(out, "  (interleaved left out: it needs p >= 2 and m a multiple of p)\n");

  const std::string text = render_text(run);
  if (!text.empty()) {
    fmt::print(out, "\ntimeline (one column = t_f / v = {:g}; A-Z forward of micro-batch 0-25 (mod 26), a-z its "
                    "backward, '.' idle: the bubble)\n{}", pp.forward_time / v, text);
  } else {
    fmt::print(out, "\n(timeline too wide or times off the t_f / v grid for text: use --plot FILE.svg)\n");
  }
  if (outputs.plot()) {
    outputs.write_plot(render_svg(run));
    fmt::print(out, "wrote {}\n", outputs.plot_path() == "-" ? "the timeline SVG to standard output"
                                                             : outputs.plot_path());
  }
  if (o.explain) {
    fmt::print(out,
               "\nhow these numbers are computed (kind: simulation, checked against the closed form)\n"
               "  every stage runs its (forward | backward, micro-batch, chunk) slots in the schedule's order; a "
               "slot starts when\n"
               "  its stage is free and its input is ready (forward: the previous virtual stage's forward; "
               "backward: the next\n"
               "  virtual stage's backward). Bubble = step time - m (t_f + t_b).\n"
               "  closed forms: GPipe and 1F1B (p-1)/m, interleaved (p-1)/(v m) of the ideal time\n"
               "  first stage in flight: GPipe m, 1F1B min(p, m), interleaved (v-1) p + 2(p-1) + 1 chunk passes\n"
               "  sources: GPipe: Y. Huang et al., GPipe, NeurIPS 2019; {}\n",
               kScheduleSource);
  }
  if (outputs.json()) {
    json j = record_head(kProgram, "B07", "simulation", command, "bubble");
    j["inputs"] = {{"schedule", name(pp.schedule)}, {"stages", p}, {"microbatches", m}, {"virtual_stages", v},
                   {"forward_time", pp.forward_time}, {"backward_time", pp.backward_time}};
    if (o.layers_given) j["inputs"]["layers"] = o.layers;
    j["step_time"] = run.step_time;
    j["ideal_time"] = run.ideal_time;
    j["bubble_time"] = run.bubble_time;
    j["bubble_fraction"] = run.bubble_fraction;
    j["closed_form"] = {{"kind", "model"}, {"bubble_fraction", run.closed_form_bubble_fraction},
                        {"formula", interleaved ? "(p-1)/(v m)" : "(p-1)/m"},
                        {"first_stage_peak_in_flight", closed_peak}};
    j["idle_share"] = run.idle_share;
    j["first_stage_peak_in_flight"] = run.stages[0].peak_in_flight;
    j["stages"] = stages;
    j["schedules_compared"] = compare;
    j["source"] = kScheduleSource;
    outputs.write_json(j);
  }
  return kExitOk;
}

// ---- main -------------------------------------------------------------------------------

int run(int argc, char** argv) {
  CLI::App app{"B07 Distributed training and sharding: a per-GPU memory planner (memory), a collective cost model "
               "(collective) and a pipeline-bubble simulator (bubble). Models and simulations: no GPU needed.",
               kProgram};
  app.require_subcommand(1, 1);
  const std::string command = command_line(argc, argv);

  MemoryOptions mem;
  auto* mem_cmd = app.add_subcommand("memory", "per-GPU memory of training: weights, gradients, optimizer states "
                                               "(ZeRO 0-3), activations (TP/SP/PP, recomputation); what does not fit "
                                               "(kind: model)");
  mem_cmd->add_option("--model", mem.model, "shipped model: the stem of a config under data/models/ (llama-3.1-8b, "
                                            "gpt-3-175b, ...)");
  mem_cmd->add_option("--config", mem.config, "any Hugging Face config.json (instead of --model)");
  mem_cmd->add_option("--params", mem.params, "a bare parameter count (e.g. 7.5e9) instead of a model: model states "
                                              "only, no activations (default: not given)")->transform(number_in(1.0, 1e15));
  mem_cmd->add_option("--gpus", mem.parallel.gpus, "GPUs in all, N = DP x TP x PP")->required()
      ->check(integer_in(1, 1 << 20));
  mem_cmd->add_option("--tp", mem.parallel.tp, "tensor-parallel degree t (divides the attention heads)")->check(integer_in(1, 1024));
  mem_cmd->add_option("--pp", mem.parallel.pp, "pipeline stages p (at most the layer count, and dividing it)")->check(integer_in(1, 1024));
  mem_cmd->add_option("--virtual-stages", mem.parallel.virtual_stages, "chunks per GPU of the interleaved schedule "
                                                                       "(default 2 with --schedule interleaved)")->check(integer_in(1, 64));
  mem_cmd->add_option("--schedule", mem.schedule, "pipeline schedule: gpipe, 1f1b (default), interleaved");
  mem_cmd->add_option("--microbatches", mem.parallel.microbatches, "micro-batches per step per pipeline m "
                                                                   "(default 4 x --pp)")->check(integer_in(1, 4096));
  mem_cmd->add_flag("--sp", mem.sp, "sequence parallelism: norms and dropouts split over the TP group");
  mem_cmd->add_option("--zero", mem.parallel.zero, "ZeRO stage 0-3 (1 = Megatron's distributed optimizer; default 0)")
      ->check(integer_in(0, 3));
  mem_cmd->add_option("--recompute", mem.recompute, "activation recomputation: none (default), selective, full");
  mem_cmd->add_option("--micro-batch", mem.parallel.micro_batch, "sequences per micro-batch b")
      ->check(integer_in(1, 65536));
  mem_cmd->add_option("--seq-len", mem.parallel.seq_len, "tokens per sequence s")
      ->check(integer_in(1, 1 << 24));
  mem_cmd->add_flag("--flash-attention", mem.flash, "FlashAttention: no s x s score tensor stored (default: stored, "
                                                    "as in Korthikanti et al.)");
  mem_cmd->add_flag("--no-dropout", mem.no_dropout, "dropout-free training (Llama-style): no masks stored (default: "
                                                    "dropout on, as in Korthikanti et al.)");
  mem_cmd->add_option("--gpu", mem.gpu, "GPU of common's table for the capacity (default h100-sxm; " +
                                            hw::known_keys() + ")");
  mem_cmd->add_option("--gpu-memory-gib", mem.gpu_memory_gib, "capacity of one GPU, GiB (overrides --gpu's "
                                                              "datasheet figure; default: not given)")->transform(number_in(1e-6, 1e6));
  Outputs mem_out(*mem_cmd);
  mem_cmd->add_flag("--explain", mem.explain, "print the per-layer terms, the formulas and their sources");

  CollectiveOptions col;
  auto* col_cmd = app.add_subcommand("collective", "time, algorithm and bus bandwidth of a collective by the "
                                                   "alpha-beta model, in nccl-tests' units (kind: model)");
  col_cmd->add_option("--op", col.op, "collective: " + known_collectives())->required();
  col_cmd->add_option("--ranks", col.ranks, "ranks (GPUs) n")->required()->check(integer_in(1, 1 << 20));
  col_cmd->add_option("--bytes", col.bytes, "size S as nccl-tests' 'size' column: bytes, or 4K / 128M / 1G (x 2^10, "
                                            "2^20, 2^30, as nccl-tests -b reads them), 1GB (1e9)")->required();
  col_cmd->add_option("--max-bytes", col.max_bytes, "sweep S from --bytes to this, doubling (nccl-tests -e, -f 2)");
  col_cmd->add_option("--algo", col.algo, "ring (default) or tree");
  col_cmd->add_option("--link", col.link, "link: " + known_links() + " (default h100-sxm)");
  col_cmd->add_option("--alpha-us", col.alpha_us, "per-step latency alpha, microseconds (overrides the "
                                                  "link's; default: the link's)")->transform(number_in(0.0, 1e6));
  col_cmd->add_option("--beta-GBps", col.beta_GBps, "bandwidth per direction per rank B, GB/s "
                                                    "(overrides the link's; default: the link's)")->transform(number_in(1e-3, 1e6));
  Outputs col_out(*col_cmd);
  col_cmd->add_flag("--explain", col.explain, "print the formulas and their sources");

  BubbleOptions bub;
  auto* bub_cmd = app.add_subcommand("bubble", "a pipeline schedule (gpipe, 1f1b, interleaved) built slot by slot: "
                                               "bubble fraction, step time, in-flight micro-batches, timeline (kind: "
                                               "simulation)");
  bub_cmd->add_option("--stages", bub.params.stages, "pipeline stages p")->required()
      ->check(integer_in(1, 1024));
  bub_cmd->add_option("--microbatches", bub.params.microbatches, "micro-batches per step m (interleaved: a "
                                                                "multiple of p)")->required()->check(integer_in(1, 4096));
  bub_cmd->add_option("--schedule", bub.schedule, "gpipe, 1f1b (default), interleaved");
  bub_cmd->add_option("--virtual-stages", bub.params.virtual_stages, "chunks per GPU v of the interleaved schedule "
                                                                     "(default 2 with --schedule interleaved)")->check(integer_in(1, 64));
  bub_cmd->add_option("--layers", bub.layers, "the model's layer count L, to check p (x v) divides it (default: not checked)")
      ->check(integer_in(1, 100000));
  bub_cmd->add_option("--forward-time", bub.params.forward_time, "t_f, one micro-batch's forward on one stage")->transform(number_in(1e-6, 1e6));
  bub_cmd->add_option("--backward-time", bub.params.backward_time, "t_b, its backward")
      ->transform(number_in(1e-6, 1e6));
  Outputs bub_out(*bub_cmd, {.plot = true, .plot_help = "draw the timeline as SVG to PATH"});
  bub_cmd->add_flag("--explain", bub.explain, "print the formulas and their sources");

  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  if (mem_cmd->parsed()) {
    mem_out.check({{"--config", mem.config}});
    mem.params_given = mem_cmd->count("--params") > 0;
    mem.gpu_memory_given = mem_cmd->count("--gpu-memory-gib") > 0;
    mem.virtual_given = mem_cmd->count("--virtual-stages") > 0;
    mem.microbatches_given = mem_cmd->count("--microbatches") > 0;
    return run_memory(mem, mem_out, command);
  }
  if (col_cmd->parsed()) {
    col_out.check();
    col.alpha_given = col_cmd->count("--alpha-us") > 0;
    col.beta_given = col_cmd->count("--beta-GBps") > 0;
    col.link_given = col_cmd->count("--link") > 0;
    return run_collective(col, col_out, command);
  }
  bub_out.check();
  bub.layers_given = bub_cmd->count("--layers") > 0;
  bub.virtual_given = bub_cmd->count("--virtual-stages") > 0;
  return run_bubble(bub, bub_out, command);
}

}  // namespace
}  // namespace tutor::b07

int main(int argc, char** argv) {
  return tutor::run_main(tutor::b07::kProgram, [&] { return tutor::b07::run(argc, argv); });
}
