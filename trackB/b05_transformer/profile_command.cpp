// b05_transformer profile: one decoder layer of a Llama-style model on the GPU, sub-op by sub-op.
//
//   b05_transformer profile                          Llama-3.1-8B: prefill 1x2048, decode 1, 32, 256 @ 2048
//   b05_transformer profile --model llama-3.1-70b --seq 4096          one prefill step (--batch 1)
//   b05_transformer profile --config config.json --batch 64 --context 8192   one decode step
//   b05_transformer profile --model-gpu h200         the prediction alone, from the datasheet (no GPU)
//   b05_transformer profile --list                   the sub-ops
//
// Every sub-op is verified on small reduced layers (odd widths) and spot-checked at the timed
// size, then timed alone (L2 flushed before every launch), and the whole layer is timed as one
// sequence of its eleven launches. Beside each time: the calculator's roofline prediction on the
// roofs measured in this run (the vendor GEMM's bf16 rate on a large square GEMM, the copy
// bandwidth) and on the datasheet's (kind: model).
#include "profile_command.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model.hpp"
#include "profile_case.hpp"
#include "profile_kernels.hpp"
#include "profile_model.hpp"
#include "profile_reference.hpp"
#include "profile_report.hpp"
#include "tutor/cli.hpp"
#include "tutor/gpu.hpp"
#include "tutor/hardware.hpp"
#include "tutor/lab.hpp"
#include "tutor/ladder.hpp"
#include "tutor/launcher.hpp"
#include "tutor/number_option.hpp"
#include "tutor/report.hpp"

namespace tutor::b05 {
namespace {

namespace gl = gpu_layer;

constexpr int kSampledRows = 4;            // token rows recomputed on the CPU per check at the timed size
constexpr std::int64_t kMaxStepTokens = 65536;      // prefill: batch x seq
constexpr std::int64_t kMaxCachedTokens = 1 << 22;  // decode: batch x context

struct ProfileOptions {
  std::string model, config, model_gpu;
  std::int64_t batch = 1, seq = 0, context = 0;
  int ceiling_gemm = 8192;  ///< n of the n x n x n GEMM whose rate is the compute roof
};

/// The reduced layers each sub-op is also verified on: odd widths (236 and 330 are no multiple of
/// 8, so rows start unaligned and the 16-byte path falls back to single elements; head_dim 40
/// leaves most lanes one element; GQA group 3) at one token and at a few sequences, and the
/// model's own head_dim and GQA group at a small width.
std::vector<std::pair<LayerShape, Phase>> verification_cases(const LayerShape& model, const Phase& p) {
  const LayerShape odd{236, 6, 2, 40, 330};
  const std::int64_t group = model.heads / model.kv_heads;
  const LayerShape own{264, 2 * group, 2, model.head_dim, 200};
  if (p.kind == PhaseKind::prefill)
    return {{odd, {PhaseKind::prefill, 1, 1}}, {odd, {PhaseKind::prefill, 2, 37}}, {own, {PhaseKind::prefill, 1, 67}}};
  return {{odd, {PhaseKind::decode, 1, 1}}, {odd, {PhaseKind::decode, 3, 53}}, {own, {PhaseKind::decode, 2, 75}}};
}

/// The compute roof: the vendor GEMM's bf16 rate on an n x n x n GEMM, the same call the
/// layer's projections make, spot-checked on two rows before it is timed.
struct GemmCeiling {
  double TFLOPs = 0;
  bool verified = false;
  Comparison check;
};

GemmCeiling measure_gemm_ceiling(int n, const TimingOptions& timing, std::uint64_t seed) {
  const std::size_t elements = std::size_t(n) * n;
  gpu::DeviceBuffer x(2 * elements), w(2 * elements), y(2 * elements);
  const float a = 1 / std::sqrt(float(n));
  TUTOR_LAUNCHER(gl::fill_uniform_bf16)(x.as<std::uint16_t>(), elements, seed, -1.0f, 1.0f);
  TUTOR_LAUNCHER(gl::fill_uniform_bf16)(w.as<std::uint16_t>(), elements, seed + 1, -a, a);
  TUTOR_LAUNCHER(gl::fill_rows_bf16)(y.as<std::uint16_t>(), 1, elements, elements, kPoisonBf16);
  const auto launch = [&] {
    TUTOR_LAUNCHER(gl::linear)(x.as<std::uint16_t>(), w.as<std::uint16_t>(), y.as<std::uint16_t>(), n, n, n);
  };
  launch();
  gpu::synchronize();
  gpu::check_last_error("gemm ceiling");
  std::vector<std::uint16_t> w_host(elements), x_row(static_cast<std::size_t>(n)), y_row(static_cast<std::size_t>(n));
  TUTOR_LAUNCHER(gl::copy_to_host)(w_host.data(), w.get(), 2 * elements);
  std::vector<float> got;
  std::vector<double> ref, r(static_cast<std::size_t>(n));
  for (const std::size_t row : {std::size_t(0), std::size_t(n - 1)}) {
    TUTOR_LAUNCHER(gl::copy_to_host)(x_row.data(), x.as<std::uint16_t>() + row * n, 2 * std::size_t(n));
    TUTOR_LAUNCHER(gl::copy_to_host)(y_row.data(), y.as<std::uint16_t>() + row * n, 2 * std::size_t(n));
    reference::linear_row(x_row, w_host, r);
    for (std::size_t i = 0; i < std::size_t(n); ++i) got.push_back(reference::bf16_to_float(y_row[i]));
    ref.insert(ref.end(), r.begin(), r.end());
  }
  GemmCeiling c;
  c.check = compare(got, ref, bf16_output_tolerance(n));
  c.verified = c.check.passed;
  if (!c.verified) return c;
  const Summary t = time_launches(fmt::format("gemm_ceiling_{}", n), launch, timing);
  c.TFLOPs = 2.0 * n * double(n) * n / (t.median * 1e-3) / 1e12;
  return c;
}

/// The device time of one empty kernel: the floor under any launch.
double measure_launch_ms(const TimingOptions& timing) {
  TimingOptions t = timing;
  t.flush_l2 = false;
  return time_launches("empty_kernel", [] { TUTOR_LAUNCHER(gl::launch_empty)(); }, t).median;
}

std::string shapes_label(const LayerCase& c, std::string_view how) { return fmt::format("{}: {}", c.label(), how); }

/// Verifies `op` on every case (the small ones on all rows, `timed` on sampled rows unless
/// `skip_large`), then, if all passed, times it on `timed` and checks `timed` again.
SubOpRun run_sub_op(SubOp op, std::size_t index, const SubOpCost& cost, std::vector<std::unique_ptr<LayerCase>>& small,
                    LayerCase& timed, const std::vector<std::int64_t>& rows, bool skip_large,
                    const TimingOptions& timing) {
  SubOpRun s;
  s.cost = cost;
  s.result = describe(declare(static_cast<int>(index) + 1, std::string(to_string(op)), std::string(describe(op)), ""));
  s.result.bytes = cost.bytes;
  s.result.flops = cost.flops;
  const auto verify = [&](LayerCase& c, std::span<const std::int64_t> which, std::string how, bool capture) {
    c.poison(op);
    if (capture) gpu::begin_kernel_capture();
    c.launch(op);
    if (capture) s.result.kernels = gpu::end_kernel_capture();
    gpu::synchronize();
    gpu::check_last_error(std::string(to_string(op)).c_str());
    s.result.checks.push_back({shapes_label(c, how), c.check(op, which)});
  };
  for (auto& c : small) verify(*c, c->all_rows(), "all rows", false);
  if (!skip_large) verify(timed, rows, fmt::format("{} sampled rows", rows.size()), true);
  s.result.verified = std::all_of(s.result.checks.begin(), s.result.checks.end(),
                                  [](const ShapeCheck& chk) { return chk.cmp.passed; });
  if (s.result.verified) {
    s.result.time_ms = time_launches(std::string(to_string(op)), [&] { timed.launch(op); }, timing);
    s.result.timed = true;
    if (!skip_large) {
      s.result.checks.push_back({shapes_label(timed, "sampled rows after the timed loop"), timed.check(op, rows)});
      s.result.verified = s.result.checks.back().cmp.passed;
    }
  } else if (skip_large) {
    timed.launch(op);  // untimed, so the sub-ops after it still have an input on the timed case
    gpu::synchronize();
  }
  for (const auto& chk : s.result.checks) s.result.rel_err = std::max(s.result.rel_err, chk.cmp.rel_l2);
  return s;
}

/// The whole layer as one sequence of its eleven launches, checked sub-op by sub-op after a
/// poisoned run and again after the timed loop.
StepResult run_layer(LayerCase& timed, const std::vector<std::int64_t>& rows, bool skip_large,
                     const TimingOptions& timing, const std::vector<SubOpRun>& sub_ops) {
  StepResult r = describe(declare(static_cast<int>(std::size(kSubOps)) + 1, "layer",
                                  "the eleven sub-ops launched back to back and timed as one", ""));
  for (const SubOpRun& s : sub_ops) r.bytes += s.cost.bytes, r.flops += s.cost.flops;
  const bool all_verified =
      std::all_of(sub_ops.begin(), sub_ops.end(), [](const SubOpRun& s) { return s.result.verified; });
  if (!all_verified) return r;
  const auto check_all = [&](const std::string& when) {
    if (skip_large) return;
    for (const SubOp op : kSubOps)
      r.checks.push_back({shapes_label(timed, fmt::format("{} {}", to_string(op), when)), timed.check(op, rows)});
  };
  timed.poison_layer();
  timed.launch_layer();
  gpu::synchronize();
  gpu::check_last_error("layer");
  check_all("after one poisoned run of the layer");
  r.verified = std::all_of(r.checks.begin(), r.checks.end(), [](const ShapeCheck& c) { return c.cmp.passed; });
  if (!r.verified) return r;
  r.time_ms = time_launches("layer", [&] { timed.launch_layer(); }, timing);
  r.timed = true;
  check_all("after the timed loop");
  r.verified = std::all_of(r.checks.begin(), r.checks.end(), [](const ShapeCheck& c) { return c.cmp.passed; });
  for (const auto& chk : r.checks) r.rel_err = std::max(r.rel_err, chk.cmp.rel_l2);
  return r;
}

/// A layer and steps the launches can take, or UsageError naming the option. The widths the
/// GEMMs and kernels take are ints (cublasGemmEx's m, n, k: profile_kernels.hpp), and attention
/// launches one block of 256 threads per (token, head): HIP launches fewer than 2^32 work items
/// in a dimension (HIP runtime API reference, hipModuleLaunchKernel), so at most 2^24 - 1 blocks
/// (CUDA's 2^31 - 1 blocks is looser; one bound for both).
void check_launch_limits(const std::string& source, const LayerShape& L, const std::vector<Phase>& phases) {
  constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
  constexpr std::int64_t kMaxAttentionBlocks = (std::int64_t(1) << 24) - 1;
  const std::pair<const char*, std::int64_t> widths[] = {{"(heads + 2 kv_heads) x head_dim", L.qkv_width()},
                                                         {"2 x intermediate_size", 2 * L.intermediate}};
  for (const auto& [what, width] : widths)
    if (width > kMaxInt)
      throw UsageError(fmt::format("{}: {} = {}; the GEMMs take widths of at most {}", source, what, width, kMaxInt));
  for (const Phase& p : phases)
    if (p.tokens() * L.heads > kMaxAttentionBlocks)
      throw UsageError(fmt::format("--batch/--seq/--context: {} tokens x {} heads = {} attention blocks; at most {}",
                                   p.tokens(), L.heads, p.tokens() * L.heads, kMaxAttentionBlocks));
}

/// A phase that fits the limits, or UsageError naming the options.
void check_phase(const Phase& p) {
  if (p.kind == PhaseKind::prefill && p.tokens() > kMaxStepTokens)
    throw UsageError(fmt::format("--batch x --seq: at most {} tokens in one step, got {} x {} = {}", kMaxStepTokens,
                                 p.batch, p.length, p.tokens()));
  if (p.kind == PhaseKind::decode && p.batch * p.length > kMaxCachedTokens)
    throw UsageError(fmt::format("--batch x --context: at most {} cached tokens, got {} x {} = {}", kMaxCachedTokens,
                                 p.batch, p.length, p.batch * p.length));
}

int run_model_gpu(const std::string& gpu_name, const ModelConfig& m, const LayerShape& layer,
                  const std::vector<Phase>& phases) {
  const hw::GpuSpec* spec = hw::find_gpu(gpu_name);
  if (!spec) throw UsageError("--model-gpu: unknown GPU '" + gpu_name + "'; allowed: " + hw::known_keys());
  const hw::Sourced* peak = hw::peak_TFLOPs(*spec, "bf16");
  if (!peak || !std::isfinite(peak->value))
    throw UsageError(fmt::format("--model-gpu: {} has no bf16 rate in the table", spec->name));
  print_model_tables(stdout, m.name, layer, phases, {peak->value, spec->hbm_bandwidth_GBps.value},
                     std::string(spec->name),
                     fmt::format("bf16: {}; HBM: {}", peak->source, spec->hbm_bandwidth_GBps.source));
  return kExitOk;
}

}  // namespace

int run_profile(int argc, char** argv) {
  GpuLab lab("b05_transformer", "B05",
             "b05_transformer profile: one decoder layer of a Llama-style model on the GPU (bf16, fp32 accumulation), "
             "sub-op by sub-op: each verified, timed and set beside the calculator's roofline prediction",
             {.csv = true, .plot = true, .csv_help = "write one row per phase and sub-op as CSV to PATH",
              .plot_help = "draw each phase's time breakdown, measured and predicted, as stacked bars (SVG) at PATH"});
  CLI::App& app = lab.app();
  app.name("b05_transformer profile");
  ProfileOptions o;
  lab.add_run_options({.reps = 50, .warmup = 5, .skip_large_check = true});
  auto* model_opt = app.add_option("--model", o.model, "a shipped config by file stem (b05_transformer --list-models; "
                                                       "default llama-3.1-8b)");
  app.add_option("--config", o.config, "a Hugging Face config.json (any path), instead of --model")->excludes(model_opt);
  auto* batch_opt = app.add_option("--batch", o.batch, "sequences in the step, with --seq or --context")
                        ->check(integer_in(1, 1024));
  auto* seq_opt = app.add_option("--seq", o.seq, "prefill: one step of --batch sequences of this many new tokens "
                                                 "(at most 65536 tokens in all). By default, without --seq and --context: "
                                                 "prefill 1x2048 and decode 1, 32 and 256 @ 2048")
                      ->check(integer_in(1, 32768));
  auto* context_opt = app.add_option("--context", o.context, "decode: one step of --batch sequences of one new token "
                                                             "at this context, keys per sequence (the default: see "
                                                             "--seq)")
                          ->check(integer_in(1, 131072));
  auto* model_gpu_opt = app.add_option("--model-gpu", o.model_gpu, "print the roofline prediction of every sub-op for "
                                                                   "a GPU of the table instead of running (no GPU "
                                                                   "needed; kind: model): h200, h100, mi300x, ...")
                            ->option_text("GPU");
  lab.run_only(app.add_option("--ceiling-gemm", o.ceiling_gemm, "n of the n x n x n bf16 GEMM whose measured rate is "
                                                                "the compute roof (small for compute-sanitizer runs)"))
      ->check(integer_in(256, 16384));
  lab.add_list_option("list the layer's sub-ops and what runs each");
  lab.set_no_gpu_views("--model-gpu GPU and --list");
  if (const int rc = lab.parse(argc - 1, argv + 1); rc >= 0) return rc;
  // An empty name is a mistake (an unset variable in a script), not a request for the default model.
  if (model_opt->count() > 0 && o.model.empty())
    throw UsageError("--model: the name is empty; give a shipped config (b05_transformer --list-models)");
  if (app.get_option("--config")->count() > 0 && o.config.empty())
    throw UsageError("--config: the path is empty; give a config.json");
  lab.outputs().check({{"--config", o.config}});

  if (lab.list_requested()) {
    for (const CLI::Option* opt : {model_opt, app.get_option("--config"), batch_opt, seq_opt, context_opt, model_gpu_opt})
      if (opt->count() > 0) throw UsageError(opt->get_name() + ": --list prints the sub-ops only");
    fmt::print("{}", sub_op_table());
    return kExitOk;
  }

  const ModelConfig m = load_model_option(o.model.empty() && o.config.empty() ? "llama-3.1-8b" : o.model, o.config);
  if (const std::string why = llama_style_refusal(m); !why.empty())
    throw UsageError(fmt::format("{}: profile runs Llama-style layers only: {}",
                                 o.config.empty() ? "--model " + m.name : "--config " + o.config, why));
  const LayerShape layer = layer_shape(m);

  std::vector<Phase> phases;
  if (seq_opt->count() > 0 && context_opt->count() > 0)
    throw UsageError("--seq/--context: give one of them (a prefill or a decode step), not both");
  if (seq_opt->count() > 0) phases = {{PhaseKind::prefill, o.batch, o.seq}};
  else if (context_opt->count() > 0) phases = {{PhaseKind::decode, o.batch, o.context}};
  else if (batch_opt->count() > 0)
    throw UsageError("--batch: give --seq S (a prefill of batch x S tokens) or --context L (a decode step at context L)");
  else phases = default_phases();
  for (const Phase& p : phases) check_phase(p);

  if (model_gpu_opt->count() > 0) {
    if (o.model_gpu.empty()) throw UsageError("--model-gpu: give a GPU of the table (h200, mi300x, ...)");
    lab.outputs().refuse("--model-gpu prints to standard output only (kind: model); it records nothing");
    lab.refuse_run_options("--model-gpu runs nothing");
    return run_model_gpu(o.model_gpu, m, layer, phases);
  }

  // ---- measure ------------------------------------------------------------------------------
  check_launch_limits(o.config.empty() ? "--model " + m.name : "--config " + o.config, layer, phases);
  const DeviceRecord& device = lab.open();
  if (!TUTOR_LAUNCHER(gl::blas_available)())
    lab.no_device(gpu::NoDevice(std::string("b05_transformer profile: ") + TUTOR_LAUNCHER(gl::blas_name)()));
  double largest = 0;
  for (const Phase& p : phases) largest = std::max(largest, LayerCase::device_bytes(layer, p));
  const double available = 0.9 * double(device.info.global_mem_bytes) - 2.0 * double(device.info.l2_bytes);
  if (largest > available)
    throw UsageError(fmt::format("--batch/--seq/--context: the step needs {:.1f} GB of device memory; this GPU has "
                                 "{:.1f} GB (90% of it, less the L2 flush buffer)",
                                 largest / 1e9, available / 1e9));
  std::FILE* human = lab.human();
  const std::uint64_t seed = lab.seed();
  const TimingOptions timing{lab.run().warmup, lab.run().reps, lab.run().flush_l2, {}};
  const bool skip_large = lab.run().skip_large_check;
  std::vector<std::string> failed;

  ProfileRoofs roofs;
  roofs.measured.memory_GBps = device.copy_GBps;
  roofs.memory_source = copy_ceiling_name(device.info.vendor) + ", bytes read + written";
  const int n_ceiling = o.ceiling_gemm;
  if (lab.progress()) fmt::print(stderr, "measuring the bf16 GEMM rate ({0} x {0} x {0}) and an empty launch...\n",
                                 n_ceiling);
  const GemmCeiling gemm = measure_gemm_ceiling(n_ceiling, timing, seed ^ 0x5bd1e995u);
  if (!gemm.verified) {
    fmt::print(stderr, "b05_transformer profile: the {0}^3 ceiling GEMM failed its check: {1}\n", n_ceiling,
               gemm.check.reason);
    failed.push_back(fmt::format("gemm_ceiling_{}", n_ceiling));
    nlohmann::json record = lab.record_head("measurement");
    record["command"] = command_line(argc, argv);
    record["subcommand"] = "profile";
    return lab.finish(record, failed);
  }
  roofs.measured.compute_TFLOPs = gemm.TFLOPs;
  roofs.compute_source = fmt::format("{}, {} x {} x {} (median)", TUTOR_LAUNCHER(gl::blas_name)(), n_ceiling,
                                     n_ceiling, n_ceiling);
  roofs.launch_ms = measure_launch_ms(timing);
  if (const hw::GpuSpec* spec = hw::match_runtime_name(device.info.name)) {
    const hw::Sourced* peak = hw::peak_TFLOPs(*spec, "bf16");
    if (peak && std::isfinite(peak->value)) {
      roofs.datasheet = Roofs{peak->value, spec->hbm_bandwidth_GBps.value};
      roofs.datasheet_gpu = std::string(spec->name);
      roofs.datasheet_sources = fmt::format("bf16: {}; HBM: {}", peak->source, spec->hbm_bandwidth_GBps.source);
    }
  }

  print_device_header(human, device);
  fmt::print(human, "model   : {} ({}): one decoder layer, h {}, {} query / {} KV heads x {}, MLP {} (gated); bf16, "
                    "fp32 accumulation\n",
             m.name, m.model_type, layer.hidden, layer.heads, layer.kv_heads, layer.head_dim, layer.intermediate);
  fmt::print(human, "roofs   : measured: bf16 GEMM {:.1f} TFLOP/s ({}^3), copy {:.0f} GB/s; empty kernel {:.4f} ms\n",
             roofs.measured.compute_TFLOPs, n_ceiling, roofs.measured.memory_GBps, roofs.launch_ms);
  if (roofs.datasheet)
    fmt::print(human, "          datasheet (kind: model): {}: bf16 dense {:g} TFLOP/s, HBM {:g} GB/s\n",
               roofs.datasheet_gpu, roofs.datasheet->compute_TFLOPs, roofs.datasheet->memory_GBps);
  fmt::print(human, "roofline ms = max(GFLOP / GEMM rate, MB / copy bandwidth) on the measured roofs; x roof = "
                    "measured median / roofline ms; bound: compute, memory, or launch when an empty kernel takes "
                    "longer than the roofline time\n");
  fmt::print(human, "attention is a simple kernel of our own on the fp32 pipes (not FlashAttention); GEMMs: {}\n",
             TUTOR_LAUNCHER(gl::blas_name)());

  std::vector<PhaseRun> runs;
  std::vector<std::string> verified_shapes;
  std::uint64_t case_seed = seed;
  for (const Phase& phase : phases) {
    PhaseRun run;
    run.phase = phase;
    std::vector<std::unique_ptr<LayerCase>> small;
    for (const auto& [shape, p] : verification_cases(layer, phase))
      small.push_back(std::make_unique<LayerCase>(shape, p, ++case_seed));
    LayerCase timed(layer, phase, ++case_seed);
    const std::vector<std::int64_t> rows = timed.sample_rows(kSampledRows, ++case_seed);
    for (const auto& c : small) verified_shapes.push_back(c->label());
    if (!skip_large) verified_shapes.push_back(fmt::format("{} ({} sampled rows)", timed.label(), rows.size()));
    const std::vector<SubOpCost> costs = layer_costs(layer, phase);
    for (std::size_t i = 0; i < std::size(kSubOps); ++i) {
      if (lab.progress()) fmt::print(stderr, "{}: {}...\n", phase.label(), to_string(kSubOps[i]));
      SubOpRun s = run_sub_op(kSubOps[i], i, costs[i], small, timed, rows, skip_large, timing);
      s.inputs_exceed_l2 = costs[i].bytes > double(device.info.l2_bytes);
      run.sub_ops.push_back(std::move(s));
    }
    if (lab.progress()) fmt::print(stderr, "{}: the whole layer...\n", phase.label());
    run.layer = run_layer(timed, rows, skip_large, timing, run.sub_ops);
    std::vector<StepResult> rates;
    for (const SubOpRun& s : run.sub_ops) rates.push_back(s.result);
    rates.push_back(run.layer);
    finish_ladder(rates, Ceiling{copy_ceiling_name(device.info.vendor), device.copy_GBps, CeilingUnit::GBps});
    for (std::size_t i = 0; i < run.sub_ops.size(); ++i) {
      run.sub_ops[i].result = rates[i];
      run.sub_ops[i].result.speedup_vs_prev = run.sub_ops[i].result.speedup_vs_first = 0;  // not a ladder
      predict_sub_op(run.sub_ops[i], roofs);
      if (!run.sub_ops[i].result.verified) failed.push_back(phase.id() + "/" + std::string(to_string(kSubOps[i])));
    }
    run.layer = rates.back();
    run.layer.speedup_vs_prev = run.layer.speedup_vs_first = 0;
    if (!run.layer.verified) failed.push_back(phase.id() + "/layer");
    print_phase(human, run, roofs, timing.flush_l2);
    runs.push_back(std::move(run));
  }
  print_gemm_summary(human, runs);

  nlohmann::json record = lab.record_head("measurement");
  record["command"] = command_line(argc, argv);
  record["subcommand"] = "profile";
  record["model"] = to_json(m);
  nlohmann::json phase_list = nlohmann::json::array();
  for (const Phase& p : phases)
    phase_list.push_back({{"id", p.id()}, {"kind", p.kind == PhaseKind::prefill ? "prefill" : "decode"},
                          {"batch", p.batch}, {p.kind == PhaseKind::prefill ? "seq" : "context", p.length},
                          {"tokens", p.tokens()}});
  record["problem"] = {{"layer", {{"hidden", layer.hidden}, {"heads", layer.heads}, {"kv_heads", layer.kv_heads},
                                  {"head_dim", layer.head_dim}, {"intermediate", layer.intermediate}}},
                       {"phases", phase_list},
                       {"dtype", "bf16"},
                       {"accumulate", "fp32"},
                       {"rope_base", kRopeBase},
                       {"rms_norm_eps", kRmsNormEps},
                       {"seed", seed},
                       {"sampled_rows_per_check", kSampledRows},
                       {"verified_shapes", verified_shapes}};
  record["ceiling"] = to_json(Ceiling{copy_ceiling_name(device.info.vendor), device.copy_GBps, CeilingUnit::GBps});
  record["variants"] = measurement_rows(runs);
  record["predictions"] = prediction_block(runs, roofs);
  record["notes"] = {
      {"timing", {{"warmup", timing.warmup}, {"reps", timing.reps}, {"flush_l2", timing.flush_l2},
                  {"clock", "device events, one pair per launch; the layer row: one pair around its eleven launches"}}},
      {"l2", "with flush_l2 every timed launch starts with a cold L2 (a decode step reads its weights cold too); "
             "inputs_exceed_l2 says which sub-ops move more bytes than the L2 holds"},
      {"gemm", TUTOR_LAUNCHER(gl::blas_name)()},
      {"gemm_ceiling", {{"n", n_ceiling}, {"rel_l2", gemm.check.rel_l2}, {"TFLOPs", gemm.TFLOPs}}},
      {"attention", "a simple kernel of our own: one block per (token, head), warps split the keys with an online "
                    "softmax, fp32 FMA pipes; not FlashAttention, later modules replace it"},
      {"tolerance", "relative L2 <= 2 u_bf16 + 8 u_fp32 sqrt(reduction) against a double reference from the same "
                    "bf16 inputs (bf16_output_tolerance, profile_model.hpp)"},
      {"rope", "default RoPE frequencies of rope_theta 500000 (Llama 3), half-split pairs; Llama 3.1's rope_scaling "
               "is not applied (it changes values, not costs)"},
      {"fraction_of_ceiling", "GB/s over the copy bandwidth; the roofline comparison is in predictions"}};
  lab.outputs().write_csv(profile_csv(runs));
  lab.outputs().write_plot(
      profile_svg(runs, fmt::format("{}: one decoder layer on {}, time by sub-op", m.name, device.info.name)));
  return lab.finish(record, failed);
}

}  // namespace tutor::b05
