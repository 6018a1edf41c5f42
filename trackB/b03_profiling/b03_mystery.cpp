// b03_mystery: six unlabelled kernels, each verified and timed like every lab step, each placed on
// the roofline measured in the same run, and a question per kernel: what limits it? The lab
// prints only what a learner can measure without a profiler (time, GB/s, FLOP/s, arithmetic
// intensity, the roof above it); the profiler's counters that answer the question are the
// exercise (exercises/README.md), and the answer key is in exercises/solutions/, not here.
//
// Reads top to bottom: the kernels (declared once, as data: what each computes, its Case, its
// launcher), the exercises that fix them, the run (verify, time, place on the roofline), the
// table and record, and main.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "mystery.hpp"
#include "mystery_cases.hpp"
#include "tutor/cli.hpp"
#include "tutor/exercise_build.hpp"
#include "tutor/lab.hpp"
#include "tutor/ladder.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"
#include "tutor/report.hpp"
#include "tutor/roofline.hpp"

namespace tutor::b03 {
namespace {

/// The kernel the default run leaves out: its verification fails on some runs, on purpose.
constexpr int kPlantedBug = 6;

/// One row of the lab: a mystery kernel or an exercise that fixes one, with what it computes,
/// how to run it (every verification shape, then the timed shape) and its floor for --model.
struct Row {
  StepInfo info;
  int kernel = 0;  ///< the mystery it is (or fixes): 1..6
  std::function<std::string(bool small)> problem;
  std::function<ModelRow(bool small)> model;  ///< bytes and FLOPs at the timed shape, for --model
  std::function<StepResult(bool small, std::uint64_t seed, const TimingOptions& timing)> run;
};

/// A row of a Case type: verified on Case::verify_shapes, timed on Case::timed_shape.
template <class Case>
Row make_row(int kernel, StepInfo info, typename Case::Launcher launcher) {
  Row row;
  row.info = std::move(info);
  row.kernel = kernel;
  row.problem = [](bool small) { return Case::describe(Case::timed_shape(small)); };
  row.model = [name = row.info.name](bool small) {
    const auto shape = Case::timed_shape(small);
    return ModelRow{name, Case::bytes(shape), Case::flops(shape), Case::describe(shape)};
  };
  row.run = [step = Step<Case>{row.info, [launcher](Case& c) { c.run(launcher); }}](
                bool small, std::uint64_t seed, const TimingOptions& timing) {
    std::vector<std::unique_ptr<Case>> cases;
    std::vector<Case*> checks;
    std::vector<typename Case::Shape> shapes;
    if constexpr (requires { Case::verify_shapes(small, seed); })
      shapes = Case::verify_shapes(small, seed);  // shapes drawn from the run's seed
    else
      shapes = Case::verify_shapes(small);
    for (const auto& shape : shapes) {
      cases.push_back(std::make_unique<Case>(shape, ++seed));
      checks.push_back(cases.back().get());
    }
    Case timed(Case::timed_shape(small), ++seed);
    return run_step(step, std::span<Case* const>(checks.data(), checks.size()), timed, timing);
  };
  return row;
}

/// What each kernel computes (never what limits it: that is the question).
StepInfo mystery(int n, std::string computes) {
  return declare(n, fmt::format("mystery_{}", n), std::move(computes), "unlabelled: what limits it?");
}

std::vector<Row> mysteries() {
  return {
      make_row<ResidualAddCase>(1, mystery(1, "a scaled residual add, out = x + alpha r"),
                                TUTOR_LAUNCHER(launch_mystery_1)),
      make_row<PolynomialCase>(2, mystery(2, "a polynomial of degree 256 at every element, by Horner's rule"),
                               TUTOR_LAUNCHER(launch_mystery_2)),
      make_row<RowSumsCase>(3, mystery(3, "the sum of each row of a short, wide matrix"),
                            TUTOR_LAUNCHER(launch_mystery_3)),
      make_row<GroupScoresCase>(4, mystery(4, "block-local scores: each row against every row of its group of 32"),
                                TUTOR_LAUNCHER(launch_mystery_4)),
      make_row<QkvSplitCase>(5, mystery(5, "the split of a fused QKV projection into head-major Q, K, V, scaled"),
                             TUTOR_LAUNCHER(launch_mystery_5)),
      make_row<SmoothingCase>(6, mystery(6, "a 3-point moving average of a long signal"),
                              TUTOR_LAUNCHER(launch_mystery_6)),
  };
}

/// The exercises: your kernel from exercises/, the same output as mystery N, without what limits it
/// (kernel 6: without its bug; it has no limiter to remove).
StepInfo fix(int n) {
  return declare(0, fmt::format("fix_{}", n),
                 fmt::format("your kernel from exercises/: mystery_{} without {}", n,
                             n == 6 ? "its bug" : "what limits it"),
                 fmt::format("faster than mystery_{}", n), StepRole::exercise);
}

std::vector<Row> fixes() {
  return {
      make_row<RowSumsCase>(3, fix(3), TUTOR_LAUNCHER(launch_fix_3)),
      make_row<GroupScoresCase>(4, fix(4), TUTOR_LAUNCHER(launch_fix_4)),
      make_row<QkvSplitCase>(5, fix(5), TUTOR_LAUNCHER(launch_fix_5)),
      make_row<SmoothingCase>(6, fix(6), TUTOR_LAUNCHER(launch_fix_6)),
  };
}

/// The question the lab asks about a kernel; the answer is the learner's to find.
std::string question(int kernel) {
  if (kernel == kPlantedBug)
    return fmt::format("mystery_{0} is wrong on some runs and right on others. Why? Find the line with "
                       "compute-sanitizer, then say why verification misses it on some runs.", kernel);
  return fmt::format("What limits mystery_{}? Name it, then prove it with two counters.", kernel);
}

// ---- the run ----------------------------------------------------------------------------------

/// Where a rate sits under the roofline measured in this run (Williams, Waterman and Patterson,
/// CACM 52(4) 2009, eq. 1): the roof at the row's intensity, which roof it is, and the fraction.
struct Placement {
  double intensity = 0, roof_TFLOPs = 0, fraction = 0;
  std::string roof;  // "memory" or "compute"
};
Placement place(const StepResult& r, const DeviceRecord& device) {
  Placement p;
  p.intensity = roofline::arithmetic_intensity(r.flops, r.bytes);
  p.roof_TFLOPs = roofline::attainable_TFLOPs(p.intensity, device.fma_TFLOPs, device.copy_GBps);
  p.roof = std::string(roofline::bound(p.intensity, device.fma_TFLOPs, device.copy_GBps));
  p.fraction = r.timed && p.roof_TFLOPs > 0 ? r.TFLOPs / p.roof_TFLOPs : 0;
  return p;
}

std::string verdict(const StepResult& r) {
  if (r.verified) return fmt::format("yes ({:.1e})", r.rel_err);
  for (const auto& c : r.checks)
    if (!c.cmp.passed) return fmt::format("NO at {}: {}", c.shape, c.cmp.reason);
  return "NO";
}

void print_table(std::FILE* out, const std::vector<StepResult>& rows, const DeviceRecord& device) {
  fmt::print(out, "\n{:<10} {:>26} {:>8} {:>8} {:>8} {:>16} {:>8}  {}\n", "kernel", "time ms: median (min-max)", "GB/s",
             "TFLOP/s", "FLOP/B", "roof TFLOP/s", "of roof", "verified (worst rel err)");
  for (const auto& r : rows) {
    if (!r.timed) {
      fmt::print(out, "{:<10} {:>26} {:>8} {:>8} {:>8} {:>16} {:>8}  {}\n", r.name, "not timed", "-", "-", "-", "-",
                 "-", verdict(r));
      continue;
    }
    const Placement p = place(r, device);
    fmt::print(out, "{:<10} {:>26} {:>8.1f} {:>8.3f} {:>8.3g} {:>16} {:>7.1f}%  {}\n", r.name,
               fmt::format("{:.4f} ({:.4f}-{:.4f})", r.time_ms.median, r.time_ms.min, r.time_ms.max), r.GBps,
               r.TFLOPs, p.intensity, fmt::format("{:.3g} {}", p.roof_TFLOPs, p.roof), 100 * p.fraction, verdict(r));
  }
  fmt::print(out, "roofline of this run: memory roof {:.0f} GB/s ({}), compute roof {:.2f} TFLOP/s (fp32 FMA), "
                  "ridge {:.2f} FLOP/B\n",
             device.copy_GBps, copy_ceiling_name(device.info.vendor), device.fma_TFLOPs,
             roofline::ridge_point(device.fma_TFLOPs, device.copy_GBps));
}

std::string rows_csv(const std::vector<StepResult>& rows, const DeviceRecord& device) {
  std::string csv = "kernel,role,verified,median_ms,min_ms,max_ms,bytes,flops,GBps,TFLOPs,flop_per_byte,roof_TFLOPs,"
                    "roof,fraction_of_roof\n";
  for (const auto& r : rows) {
    const Placement p = place(r, device);
    csv += fmt::format("{},{},{},{:.6f},{:.6f},{:.6f},{},{},{:.3f},{:.5f},{:.6g},{:.6g},{},{:.4f}\n", r.name, r.role,
                       r.verified ? 1 : 0, r.time_ms.median, r.time_ms.min, r.time_ms.max, r.bytes, r.flops, r.GBps,
                       r.TFLOPs, p.intensity, p.roof_TFLOPs, p.roof, p.fraction);
  }
  return csv;
}

// ---- main -------------------------------------------------------------------------------------

struct Options {
  std::vector<int> kernels, exercises;
  bool small = false;
};

/// The rows a run selects, in order: the mysteries named by --kernel (1-5 when none is named: the
/// planted bug only when asked for), then the exercises named by --exercise.
std::vector<Row> selected(const Options& o) {
  std::set<int> want(o.kernels.begin(), o.kernels.end());
  if (o.kernels.empty() && o.exercises.empty())
    for (int k = 1; k <= 6; ++k)
      if (k != kPlantedBug) want.insert(k);
  std::vector<Row> rows;
  for (auto& r : mysteries())
    if (want.count(r.kernel)) rows.push_back(std::move(r));
  const std::set<int> fixes_wanted(o.exercises.begin(), o.exercises.end());
  for (auto& r : fixes())
    if (fixes_wanted.count(r.kernel)) rows.push_back(std::move(r));
  return rows;
}

void print_list() {
  fmt::print("| kernel | NVTX range | what it computes | timed problem | runs |\n| --- | --- | --- | --- | --- |\n");
  for (const auto& r : mysteries())
    fmt::print("| {} | `{}/` | {} | {} | {} |\n", r.kernel, r.info.name, r.info.change, r.problem(false),
               r.kernel == kPlantedBug ? "with --kernel 6" : "by default");
  for (const auto& r : fixes())
    fmt::print("| {} | `{}/` | {} | as mystery_{} | with --exercise {} |\n", r.kernel, r.info.name, r.info.change,
               r.kernel, r.kernel);
}

int run_lab(GpuLab& lab, const Options& o) {
  const std::vector<Row> rows = selected(o);
  if (lab.list_requested()) {
    print_list();
    return kExitOk;
  }
  if (lab.model_requested()) {
    std::vector<ModelRow> model;
    for (const auto& r : rows) model.push_back(r.model(o.small));
    print_model_table(lab.model_gpu(), "fp32",
                      "each kernel at its timed size; bytes: each input read once, each output written once", model);
    return kExitOk;
  }
  const DeviceRecord& device = lab.open();
  const TimingOptions timing{lab.run().warmup, lab.run().reps, lab.run().flush_l2, {}};
  std::vector<StepResult> results;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (lab.progress())
      fmt::print(stderr, "[{}/{}] {}: verifying, then timing {}...\n", i + 1, rows.size(), rows[i].info.name,
                 rows[i].problem(o.small));
    // Each kernel's inputs come from its own seeds, so `--kernel N --seed S` repeats any run's inputs.
    results.push_back(rows[i].run(o.small, lab.seed() + 1000 * std::uint64_t(rows[i].kernel), timing));
  }
  const Ceiling roof{"measured roofline: min(fp32 FMA rate, intensity x copy bandwidth)", device.fma_TFLOPs,
                     CeilingUnit::TFLOPs};
  finish_ladder(results, roof);
  for (auto& r : results) {
    r.speedup_vs_prev = r.speedup_vs_first = 0;  // the kernels are not a ladder
    r.fraction_of_ceiling = place(r, device).fraction;
  }
#ifdef TUTOR_STEP_LINES
  detail::attach_step_lines(results, TUTOR_STEP_LINES);
#endif

  std::FILE* human = lab.human();
  print_device_header(human, device);
  for (const auto& r : rows) fmt::print(human, "{}: {}\n", r.info.name, r.problem(o.small));
  print_table(human, results, device);
  for (const auto& r : results)
    if (r.name.ends_with("_6")) {
      std::string shapes;
      for (const auto& c : r.checks) shapes += (shapes.empty() ? "" : ", ") + c.shape;
      fmt::print(human, "{} verified at: {}\n", r.name, shapes);
    }
  fmt::print(human, "seed {0}: --seed {0} repeats this run's inputs and mystery_6's drawn length\n", lab.seed());
  std::set<int> asked;
  for (const auto& r : rows)
    if (r.info.role != StepRole::exercise) asked.insert(r.kernel);
  if (!asked.empty())
    fmt::print(human, "\nQuestions (the answers are not printed: exercises/README.md says how to find them):\n");
  for (int k : asked) fmt::print(human, "  {}\n", question(k));
  // README section 4's command: clocks left as they are (never locked on a shared machine), one
  // launch of the kernel alone, the flush memsets in the range left out.
  fmt::print(human,
             "Profile one kernel (README section 4): ncu --clock-control none --nvtx --nvtx-include \"mystery_N/\" "
             "-k regex:mystery_ -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis "
             "--section ComputeWorkloadAnalysis --section LaunchStats --section Occupancy --section WarpStateStats "
             "--section SchedulerStats --section InstructionStats ./build/{} --kernel N --reps 1 --warmup 0\n",
             lab.name());

  nlohmann::json record = lab.record_head();
  record["ceiling"] = to_json(roof);
  nlohmann::json problem = nlohmann::json::object();
  for (const auto& r : rows) problem[r.info.name] = r.problem(o.small);
  record["problem"] = {{"kernels", problem}, {"small", o.small}, {"seed", lab.seed()}};
  record["variants"] = detail::rows_json(results);
  nlohmann::json questions = nlohmann::json::array();
  for (int k : asked) questions.push_back(question(k));
  record["notes"] = {
      {"timing", {{"warmup", timing.warmup}, {"reps", timing.reps}, {"flush_l2", timing.flush_l2},
                  {"clock", "device events, one pair per launch"}}},
      {"fraction_of_ceiling", "TFLOP/s over min(measured fp32 FMA rate, intensity x measured copy bandwidth) at the "
                              "kernel's intensity"},
      {"roofline", {{"copy_GBps", device.copy_GBps}, {"fma_TFLOPs", device.fma_TFLOPs},
                    {"ridge_flop_per_byte", roofline::ridge_point(device.fma_TFLOPs, device.copy_GBps)}}},
      {"questions", questions},
      {"nvtx", "each kernel's warm-up and timed launches run inside an NVTX range named after it (mystery_N, fix_N)"}};
  for (const auto& r : rows)
    if (r.info.role == StepRole::exercise) record["notes"]["exercise_code"] = kExerciseCode;
  lab.outputs().write_csv(rows_csv(results, device));
  return lab.finish(record, detail::failed_rows(results));
}

int run(int argc, char** argv) {
  GpuLab lab("b03_mystery", "B03",
             "B03 Profiling: six unlabelled kernels, each verified, timed and placed on this GPU's measured "
             "roofline; what limits each one is the question (exercises/README.md)",
             {.csv = true, .csv_help = "write one row per kernel (times, rates, place on the roofline) as CSV to PATH"});
  Options o;
  lab.add_run_options({.reps = 50, .reps_per = "kernel", .warmup = 5});
  CLI::App& app = lab.app();
  app.add_option("--kernel", o.kernels, "run these mystery kernels (1-6, repeatable or comma-separated; default "
                                        "1-5: kernel 6 fails verification on some runs, on purpose)")
      ->delimiter(',')->check(decimal_integer())->check(CLI::Range(1, 6))->option_text("N");
  app.add_option("--exercise", o.exercises, "run your fix of mystery N from exercises/ (3-6, repeatable or "
                                            "comma-separated); with no --kernel, only the fixes run")
      ->delimiter(',')->check(decimal_integer())->check(CLI::Range(3, 6))->option_text("N");
  app.add_flag("--small", o.small, "small problems, for compute-sanitizer runs; their times are launch-bound and "
                                   "say nothing about the kernels");
  lab.add_list_option("list the kernels: what each computes, its NVTX range and its timed problem");
  lab.add_model_option("print each kernel's floor (bytes over HBM bandwidth, FLOPs over the fp32 peak)");
  if (const int rc = lab.parse(argc, argv); rc >= 0) return rc;
  return run_lab(lab, o);
}

}  // namespace
}  // namespace tutor::b03

int main(int argc, char** argv) {
  return tutor::run_main("b03_mystery", [&] { return tutor::b03::run(argc, argv); });
}
