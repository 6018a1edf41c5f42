// a01_vector_add: the first kernel, inside the whole program around it.
//
// Part 1 runs the program a beginner writes (allocate, copy in, launch, copy out, verify,
// free) once, timing every phase with a host clock and the kernel with device events, and
// prints what fraction of the run the kernel was. Part 2 times the kernel alone from 2^10 to
// 2^28 elements: where launch latency stops dominating and memory bandwidth takes over.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tutor/cli.hpp"
#include "tutor/hardware.hpp"
#include "tutor/lab.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/gpu.hpp"
#include "tutor/ladder.hpp"
#include "tutor/launcher.hpp"
#include "tutor/report.hpp"
#include "tutor/svg_plot.hpp"
#include "vector_add.hpp"

namespace tutor::a01 {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// Reference in double: each fp32 sum is correctly rounded, so the relative error of the
/// GPU result is at most the unit roundoff 2^-24 (IEEE 754-2019, sec. 4.3).
std::vector<double> reference(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<double> c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) c[i] = double(a[i]) + double(b[i]);
  return c;
}
const double kTolerance = default_tolerance(DType::f32, 2);

/// One phase of the program and its host-clock time.
struct Phase {
  std::string name;
  std::string what;
  double ms;
};

// ---- part 1: the whole program ----------------------------------------------------------

struct ProgramRun {
  std::vector<Phase> phases;
  double kernel_first_ms = 0;  // device events around the first launch
  double kernel_warm_ms = 0;   // median of later launches, same buffers
  Comparison check;
  gpu::DeviceInfo info;
};

ProgramRun run_program(std::size_t n, int device, std::uint64_t seed) {
  ProgramRun r;
  auto t = Clock::now();
  r.info = gpu::open_device(device);  // loads the driver, creates the context
  r.phases.push_back({"runtime start", "find the GPU, create its context", ms_since(t)});

  t = Clock::now();
  std::vector<float> a(n), b(n), c(n);
  fill_random(a, seed);
  fill_random(b, seed + 1);
  r.phases.push_back({"host inputs", "allocate and fill a, b on the host", ms_since(t)});
  {
    t = Clock::now();
    gpu::DeviceBuffer da(n * 4), db(n * 4), dc(n * 4);
    r.phases.push_back({"device alloc", "cudaMalloc / hipMalloc of a, b, c", ms_since(t)});

    t = Clock::now();
    da.upload(a.data(), n * 4);
    db.upload(b.data(), n * 4);
    r.phases.push_back({"copy in", "a, b host -> device (pageable memory)", ms_since(t)});

    t = Clock::now();
    gpu::Event start, stop;
    dc.fill_u32(kPoisonBitsF32);
    {
      gpu::ProfilerRange nvtx("program_first_launch");  // ncu --nvtx --nvtx-include "program_first_launch/"
      start.record();
      TUTOR_LAUNCHER(launch_vector_add)(da.as<float>(), db.as<float>(), dc.as<float>(), n);
      stop.record();
      stop.synchronize();
    }
    gpu::check_last_error("vector_add");
    r.kernel_first_ms = stop.elapsed_ms_since(start);
    r.phases.push_back({"launch + kernel", "first launch (loads the kernel's module) and wait", ms_since(t)});

    t = Clock::now();
    dc.download(c.data(), n * 4);
    r.phases.push_back({"copy out", "c device -> host", ms_since(t)});

    t = Clock::now();
    r.check = compare(c, reference(a, b), kTolerance);
    r.phases.push_back({"verify", "compare c with a + b in double on the host", ms_since(t)});

    // Not part of the program's story: the same kernel warm, to show the first launch's cost.
    std::vector<double> warm;
    gpu::ProfilerRange warm_range("program_warm");
    for (int i = 0; i < 20; ++i) {
      start.record();
      TUTOR_LAUNCHER(launch_vector_add)(da.as<float>(), db.as<float>(), dc.as<float>(), n);
      stop.record();
      stop.synchronize();
      warm.push_back(stop.elapsed_ms_since(start));
    }
    r.kernel_warm_ms = summarize(warm).median;
    t = Clock::now();
  }  // buffers and events freed here
  r.phases.push_back({"free", "cudaFree / hipFree of a, b, c", ms_since(t)});
  return r;
}

// ---- part 2: kernel time against size ------------------------------------------------------

/// One size of the sweep (or of an exercise run): a, b of fresh random floats, c poisoned
/// before each checked launch.
class AddCase {
 public:
  AddCase(std::size_t n, std::uint64_t seed) : n_(n), a_(n * 4), b_(n * 4), c_(n * 4), got_(n) {
    std::vector<float> a(n), b(n);
    fill_random(a, seed);
    fill_random(b, seed + 1);
    a_.upload(a.data(), n * 4);
    b_.upload(b.data(), n * 4);
    ref_ = reference(a, b);
  }
  std::string label() const { return fmt::format("n={}", n_); }
  void poison() {
    c_.fill_u32(kPoisonBitsF32);
    launch_error_.clear();
  }
  Comparison check(const StepInfo& step) {
    c_.download(got_.data(), n_ * 4);
    Comparison c = compare(got_, ref_, kTolerance);
    if (!launch_error_.empty()) {  // the launch itself was refused: nothing ran
      c.passed = false;
      c.reason = "the launch failed: " + launch_error_;
    } else if (step.role == StepRole::exercise && !c.passed && c.nonfinite == c.count) {
      c.reason = "nothing written: every element still holds the NaN poison; " + c.reason;
    }
    return c;
  }
  double bytes() const { return 12.0 * double(n_); }  // read a and b, write c
  double flops() const { return double(n_); }
  /// A launch the runtime refuses (a zero-block grid, too many threads) fails this case's check
  /// with the runtime's message instead of ending the run, so an exercise with a bad launch
  /// configuration is reported like any wrong result.
  void run(AddLauncher launcher) {
    try {
      launcher(a_.as<float>(), b_.as<float>(), c_.as<float>(), n_);
    } catch (const gpu::Error& e) {
      launch_error_ = e.what();
      // The runtime's words only: the source path and line after " at " name the build machine.
      if (const auto at = launch_error_.rfind(" at "); at != std::string::npos) launch_error_.resize(at);
      try {
        gpu::check_last_error("");  // reads and clears the launch error, so later calls succeed
      } catch (const gpu::Error&) {
      }
    }
  }

 private:
  std::size_t n_;
  gpu::DeviceBuffer a_, b_, c_;
  std::vector<double> ref_;
  std::vector<float> got_;
  std::string launch_error_;
};

Step<AddCase> add_step(StepInfo info, AddLauncher launcher) {
  if (kExerciseSolutions && info.role == StepRole::exercise) {  // tutor/exercise_build.hpp
    info.change = "the worked solution from exercises/solutions/" + info.change.substr(info.change.find(':'));
    info.params = kExerciseSolutionParams;
  }
  return {std::move(info), [launcher](AddCase& c) { c.run(launcher); }};
}

/// The lab's kernel and the exercises (run only with --variant), declared once: --list, the
/// tables and the record read this.
std::vector<Step<AddCase>> steps() {
  return {
      add_step(declare(1, "vector_add", "c = a + b, one thread per element", "bandwidth-bound above the crossover"),
               TUTOR_LAUNCHER(launch_vector_add)),
      add_step(declare(0, "exercise_launch", "your launcher from exercises/: the same kernel, a launch-configuration "
                                             "bug to find", "as vector_add", StepRole::exercise),
               TUTOR_LAUNCHER(launch_exercise_launch)),
      add_step(declare(0, "exercise_grid_stride", "your kernel from exercises/: a grid-stride loop over a fixed grid "
                                                  "of 1024 x 256 threads", "as vector_add", StepRole::exercise),
               TUTOR_LAUNCHER(launch_exercise_grid_stride)),
  };
}

/// Sizes every exercise run verifies besides the timed one: a single element, a partial only
/// block, and a prime (a partial last block among thousands).
constexpr std::size_t kExerciseChecks[] = {1, 255, 1000003};

/// --variant: vector_add (the worked reference) and the named exercises, verified at the
/// sizes above and at 2^log2 elements, timed at 2^log2, in one table and record.
int run_variants(GpuLab& lab, const std::vector<std::string>& names, int log2_elements) {
  std::vector<Step<AddCase>> selected;
  const auto all = steps();
  for (const auto& s : all)
    if (s.info.role != StepRole::exercise || std::find(names.begin(), names.end(), s.info.name) != names.end())
      selected.push_back(s);
  const DeviceRecord& device = lab.open();
  const std::uint64_t seed = lab.seed();
  Ceiling ceiling{copy_ceiling_name(device.info.vendor), device.copy_GBps, CeilingUnit::GBps};
  std::vector<std::unique_ptr<AddCase>> cases;
  std::vector<AddCase*> checks;
  std::vector<std::string> shapes;
  for (std::size_t n : kExerciseChecks) {
    cases.push_back(std::make_unique<AddCase>(n, seed + 2 * cases.size() + 3));
    checks.push_back(cases.back().get());
    shapes.push_back(cases.back()->label());
  }
  const std::size_t n = std::size_t(1) << log2_elements;
  AddCase timed(n, seed + 1);
  shapes.push_back(timed.label());
  const TimingOptions timing{lab.run().warmup, lab.run().reps, lab.run().flush_l2, {}};
  std::vector<StepResult> rows =
      run_steps(lab, selected, std::span<AddCase* const>(checks.data(), checks.size()), timed, timing);
  detail::finish_rows(rows, ceiling, CeilingFrom::copy, "");

  std::FILE* human = lab.human();
  print_device_header(human, device);
  fmt::print(human, "problem : c = a + b, fp32, {} elements (2^{}), {:.3f} MB moved per launch\nverified: {}\n", n,
             log2_elements, 12.0 * double(n) / 1e6, fmt::join(shapes, ", "));
  detail::print_steps(human, rows, ceiling);

  nlohmann::json record = lab.record_head();
  record["ceiling"] = to_json(ceiling);
  record["problem"] = {{"op", "c = a + b"}, {"dtype", "fp32"}, {"elements", n}, {"log2_elements", log2_elements},
                       {"bytes_per_launch", 12.0 * double(n)}, {"verified_shapes", shapes}, {"seed", seed}};
  record["variants"] = detail::rows_json(rows);
  record["notes"] = {{"exercise_code", kExerciseCode},
                     {"timing", {{"warmup", timing.warmup}, {"reps", timing.reps}, {"flush_l2", timing.flush_l2},
                                 {"clock", "device events, one pair per launch"}}}};
  return lab.finish(record, detail::failed_rows(rows));
}

struct Options {
  int log2_elements = 20, min_log2 = 10, max_log2 = 28;
  double launch_us = 3.488;  // the latency floor of docs/results/H200/a01_foundations/a01_vector_add.json
};

/// --model: the kernel's floor at each size of the sweep, t(n) = t_launch + 12 n / B (the bytes
/// of a, b and c over the datasheet HBM bandwidth B, plus a fixed launch-and-latency cost), and
/// the crossover n* = t_launch B / 12 where the two terms are equal: below it the kernel's time
/// is mostly launch and latency, above it mostly bandwidth (the latency-bandwidth model of
/// Hockney, "The communication challenge for MPP", Parallel Computing 20(3), 1994, eq. 1).
void print_model(const std::string& gpu, const Options& o) {
  const hw::GpuSpec* spec = hw::find_gpu(gpu);
  if (!spec) throw UsageError("--model: unknown GPU '" + gpu + "'; allowed: " + hw::known_keys());
  const double bw = spec->hbm_bandwidth_GBps.value * 1e9;
  const double t0 = o.launch_us * 1e-6;
  fmt::print("kind: model (no GPU used): t(n) = t_launch + 12 n / HBM bandwidth for c = a + b in fp32\n");
  fmt::print("gpu    : {}: HBM {:.0f} GB/s (datasheet); t_launch {:.3f} us (--launch-us)\n\n", spec->name, bw / 1e9,
             o.launch_us);
  fmt::print("{:<8} {:>12} {:>14} {:>14} {:>10}\n", "n", "MB moved", "floor (us)", "of which launch", "GB/s");
  for (int k = o.min_log2; k <= o.max_log2; ++k) {
    const double n = std::ldexp(1.0, k), t = t0 + 12 * n / bw;
    fmt::print("{:<8} {:>12.3f} {:>14.3f} {:>13.1f}% {:>10.1f}\n", fmt::format("n=2^{}", k), 12 * n / 1e6, t * 1e6,
               100 * t0 / t, 12 * n / t / 1e9);
  }
  const double crossover = t0 * bw / 12;
  fmt::print("\ncrossover: n* = t_launch x bandwidth / 12 = {:.3g} elements ({:.3g} MB moved): below it launch and "
             "latency dominate, above it bandwidth\n", crossover, 12 * crossover / 1e6);
  fmt::print("sources: HBM: {}\n         t_launch: the latency floor of docs/results/H200/a01_foundations/"
             "a01_vector_add.json (an H200; measure yours with the lab)\n", spec->hbm_bandwidth_GBps.source);
}

int run(int argc, char** argv) {
  const auto program_start = Clock::now();
  Options o;
  GpuLab lab("a01_vector_add", "A01",
             "A01 Foundations: a vector add, the whole program around it, and kernel time from 2^10 to 2^28 elements",
             {.csv = true, .plot = true, .csv_beside_json = true, .csv_help = "write the sweep as CSV to PATH",
              .plot_help = "draw kernel time and GB/s against size as an SVG at PATH"});
  lab.add_run_options({.reps = 30, .reps_per = "size", .warmup = 5});
  lab.add_model_option("print the kernel's floor at each size and the latency/bandwidth crossover");
  lab.add_list_option("list the lab's kernel and the exercises (--variant NAME)");
  CLI::App& app = lab.app();
  std::vector<std::string> exercise_names;
  std::string allowed;
  for (const auto& s : steps())
    if (s.info.role == StepRole::exercise) allowed += (allowed.empty() ? "" : ", ") + s.info.name;
  CLI::Option* variant_opt =
      lab.run_only(app.add_option("--variant", exercise_names, "run an exercise (repeatable: " + allowed + ") beside "
                                                         "vector_add instead of the two parts; see --list")
                       ->option_text("NAME"));
  lab.run_only(app.add_option("--log2-elements", o.log2_elements, "elements of the whole-program run, as a power of "
                                                                  "two (with --variant: the size timed)")
                   ->check(decimal_integer())->check(CLI::Range(0, 29)));
  CLI::Option* min_opt = app.add_option("--min-log2", o.min_log2, "smallest sweep size, log2 of elements")
                             ->check(decimal_integer())->check(CLI::Range(0, 29));
  CLI::Option* max_opt = app.add_option("--max-log2", o.max_log2, "largest sweep size, log2 of elements")
                             ->check(decimal_integer())->check(CLI::Range(0, 29));
  CLI::Option* launch_us = app.add_option("--launch-us", o.launch_us, "with --model: the launch-and-latency cost of one kernel, in "
                                             "microseconds (default: the H200 record's latency floor)")
      ->check(finite_number())->check(CLI::Range(0.0, 1000.0));
  if (const int rc = lab.parse(argc, argv); rc >= 0) return rc;
  if (o.min_log2 > o.max_log2) throw UsageError("--min-log2: must not exceed --max-log2");
  if (launch_us->count() > 0 && !lab.model_requested())
    throw UsageError("--launch-us: a parameter of --model; a run measures the launch cost itself");
  if (lab.model_requested()) {
    print_model(lab.model_gpu(), o);
    return kExitOk;
  }
  if (lab.list_requested()) {
    std::vector<StepInfo> infos;
    for (const auto& s : steps()) infos.push_back(s.info);
    detail::print_declaration(infos);
    return kExitOk;
  }
  if (variant_opt->count() > 0) {
    const auto all = steps();
    for (const auto& v : exercise_names)
      if (std::none_of(all.begin(), all.end(),
                       [&](const auto& s) { return s.info.role == StepRole::exercise && s.info.name == v; }))
        throw UsageError("--variant: unknown exercise '" + v + "'; allowed: " + allowed);
    if (min_opt->count() > 0 || max_opt->count() > 0)
      throw UsageError(std::string(min_opt->count() > 0 ? "--min-log2" : "--max-log2") +
                       ": a sweep option; --variant runs no sweep");
    return run_variants(lab, exercise_names, o.log2_elements);
  }
  std::FILE* human = lab.human();

  // Part 1 first: only the first use of the GPU in a process pays for starting the runtime.
  const std::size_t n_program = std::size_t(1) << o.log2_elements;
  const std::uint64_t given_seed = lab.run().seed;
  ProgramRun prog;
  try {
    prog = run_program(n_program, lab.run().device, given_seed ? given_seed : fresh_seed());
  } catch (const gpu::NoDevice& e) {
    lab.no_device(e);
  }
  double total_ms = 0;
  for (const auto& p : prog.phases) total_ms += p.ms;
  const double since_main_ms = ms_since(program_start);
  const DeviceRecord& device = lab.open();
  const std::uint64_t seed = lab.seed();
  const Ceiling ceiling{copy_ceiling_name(device.info.vendor), device.copy_GBps, CeilingUnit::GBps};

  print_device_header(human, device);
  fmt::print(human, "\nPart 1: the whole program, vector add of {} floats (2^{}), host clock per phase\n",
             n_program, o.log2_elements);
  fmt::print(human, "{:<16} {:>10} {:>8}  {}\n", "phase", "ms", "of run", "what happens");
  for (const auto& p : prog.phases)
    fmt::print(human, "{:<16} {:>10.3f} {:>7.1f}%  {}\n", p.name, p.ms, 100 * p.ms / total_ms, p.what);
  fmt::print(human, "{:<16} {:>10.3f} {:>7.1f}%  (main() to here: {:.3f} ms)\n", "total", total_ms, 100.0,
             since_main_ms);
  fmt::print(human, "kernel (device events): first launch {:.4f} ms, warm {:.4f} ms = {:.3f}% of the "
                    "program; verified: {}\n", prog.kernel_first_ms, prog.kernel_warm_ms,
             100 * prog.kernel_first_ms / total_ms, prog.check.passed ? "yes" : "NO: " + prog.check.reason);

  // Part 2: the sweep.
  const TimingOptions timing{lab.run().warmup, lab.run().reps, lab.run().flush_l2, {}};
  const Step<AddCase> step = steps().front();
  std::string csv = "elements,bytes,time_ms_median,time_ms_min,time_ms_max,GBps,fraction_of_copy,verified\n";
  std::vector<std::pair<double, double>> time_us, gbps;
  std::optional<std::size_t> crossover;
  std::vector<StepResult> variants;
  // Sizes that leave the last block partly empty (the bounds check at work) are verified with
  // every point: 1 element, and a prime number of elements.
  AddCase one(1, seed + 3), prime(1000003, seed + 5);
  AddCase* odd_sizes[] = {&one, &prime};
  for (int k = o.min_log2; k <= o.max_log2; ++k) {
    const std::size_t n = std::size_t(1) << k;
    if (lab.progress()) fmt::print(stderr, "sweep: 2^{} elements...\n", k);
    AddCase c(n, seed + 2 * std::uint64_t(k) + 10);
    StepResult r = run_step(step, std::span<AddCase* const>(odd_sizes), c, timing);
    r.name = fmt::format("n=2^{}", k);
    variants.push_back(std::move(r));
  }
  finish_ladder(variants, ceiling);
  fmt::print(human, "\nPart 2: kernel time against size (device events, median of {}, L2 flushed)\n", timing.reps);
  fmt::print(human, "{:<8} {:>12} {:>26} {:>9} {:>8}  {}\n", "n", "MB moved", "kernel us: median (min-max)",
             "GB/s", "of copy", "verified");
  for (auto& r : variants) {
    r.speedup_vs_prev = r.speedup_vs_first = 0;  // a size sweep is not a ladder
    if (!r.timed) { fmt::print(human, "{:<8} not timed: {}\n", r.name, r.checks.back().cmp.reason); continue; }
    const double n = r.bytes / 12;
    if (!crossover && r.fraction_of_ceiling >= 0.5) crossover = std::size_t(n);
    time_us.push_back({n, 1e3 * r.time_ms.median});
    gbps.push_back({n, r.GBps});
    fmt::print(human, "{:<8} {:>12.3f} {:>26} {:>9.1f} {:>7.1f}%  {}\n", r.name, r.bytes / 1e6,
               fmt::format("{:.2f} ({:.2f}-{:.2f})", 1e3 * r.time_ms.median, 1e3 * r.time_ms.min,
                           1e3 * r.time_ms.max), r.GBps, 100 * r.fraction_of_ceiling, r.verified ? "yes" : "NO");
    csv += fmt::format("{},{},{},{},{},{},{},{}\n", std::llround(n), r.bytes, r.time_ms.median, r.time_ms.min,
                       r.time_ms.max, r.GBps, r.fraction_of_ceiling, r.verified);
  }
  const double floor_us = time_us.empty() ? 0 : time_us.front().second;
  if (crossover)
    fmt::print(human, "kernel time stays near {:.1f} us (launch and latency) for small n; from {} elements "
                      "({:.1f} MB moved) the kernel reaches half the copy bandwidth: bandwidth takes over\n",
               floor_us, *crossover, 12.0 * double(*crossover) / 1e6);

  nlohmann::json phases = nlohmann::json::array();
  for (const auto& p : prog.phases) phases.push_back({{"name", p.name}, {"what", p.what}, {"ms", p.ms},
                                                      {"fraction", p.ms / total_ms}});
  nlohmann::json record = lab.record_head();
  record["ceiling"] = to_json(ceiling);
  record["problem"] = {{"op", "c = a + b"}, {"dtype", "fp32"}, {"program_elements", n_program},
                       {"verified_with_every_point", {one.label(), prime.label()}},
                       {"sweep_log2", {o.min_log2, o.max_log2}}, {"seed", seed}};
  record["variants"] = detail::rows_json(variants);
  record["notes"] = {{"program", {{"phases", phases}, {"total_ms", total_ms}, {"main_to_end_ms", since_main_ms},
                                  {"kernel_first_launch_ms", prog.kernel_first_ms},
                                  {"kernel_warm_ms", prog.kernel_warm_ms},
                                  {"kernel_fraction_of_program", prog.kernel_first_ms / total_ms},
                                  {"verified", prog.check.passed}, {"clock", "std::chrono::steady_clock per phase"}}},
                     {"sweep", {{"latency_floor_us", floor_us},
                                {"half_copy_bandwidth_from_elements", crossover ? nlohmann::json(*crossover) : nlohmann::json(nullptr)},
                                {"timing", {{"warmup", timing.warmup}, {"reps", timing.reps}, {"flush_l2", timing.flush_l2}}}}}};
  lab.outputs().write_csv(csv);  // beside --json unless given
  if (!time_us.empty()) {
    std::vector<std::pair<double, double>> copy_line = {{gbps.front().first, device.copy_GBps},
                                                        {gbps.back().first, device.copy_GBps}};
    lab.outputs().write_plot(render_svg({fmt::format("Vector add on {}: kernel time and bandwidth", prog.info.name),
                                         "elements", "kernel time (us) / GB/s", true, true, 10,
                                         {{"kernel time, us (median)", time_us, PlotSeries::Style::line, "#1f77b4"},
                                          {"achieved GB/s", gbps, PlotSeries::Style::line, "#d62728"},
                                          {"copy ceiling, GB/s", copy_line, PlotSeries::Style::dashed, "#7f7f7f"}},
                                         {}}));
  }
  std::vector<std::string> failed = detail::failed_rows(variants);
  if (!prog.check.passed) failed.insert(failed.begin(), "the whole-program run");
  return lab.finish(record, failed);
}

}  // namespace
}  // namespace tutor::a01

int main(int argc, char** argv) {
  return tutor::run_main("a01_vector_add", [&] { return tutor::a01::run(argc, argv); });
}
