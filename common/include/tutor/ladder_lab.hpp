#pragma once
// run_ladder_lab: the main of every GPU ladder lab. A lab declares its steps, its Case (one
// problem instance: device buffers, fresh random inputs, a reference in higher precision), the
// shapes it verifies on and the one it times, and its own options; this does the rest:
//
//   options   --variant --list --model --json --reps --warmup --seed --device --no-flush-l2
//             [--skip-large-check] [a sweep option with --csv --plot], plus the lab's own
//   --list    the declaration of every step (no GPU)
//   --model   every step's floor for a GPU of the table (no GPU; kind: model)
//   a run     device, ceilings and clocks; every selected step verified on every shape, timed,
//             verified again; steps this GPU cannot run are skipped with the reason; the table;
//             the record; exit 0, 1 (a step failed verification), 2 (bad input), 3 (no GPU)
//   a sweep   the selected steps (and reference rows) at each point of the sweep option, a
//             table per point, one CSV row per step and point, a plot of rate against the point
//
// The Case type (tutor/ladder.hpp lists what the runner calls) adds here: a nested `Shape`
// (its sizes, comparable with ==) and a constructor Case(const Shape&, std::uint64_t seed).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tutor/cli.hpp"
#include "tutor/exercise_build.hpp"
#include "tutor/ladder.hpp"
#include "tutor/lab.hpp"
#include "tutor/report.hpp"
#include "tutor/svg_plot.hpp"

namespace tutor {

/// What the fraction column divides by, measured on the same device in the same run.
enum class CeilingFrom {
  copy,       ///< device-to-device copy bandwidth (memory-bound labs)
  fma,        ///< the fp32 FMA rate of a kernel that does nothing else
  reference,  ///< a reference step's rate in this run (A07: cublasSgemm fp32)
};

template <class Case>
struct LadderRun;

/// A lab's declaration. Everything not marked optional is required.
template <class Case>
struct LadderLab {
  using Shape = typename Case::Shape;

  std::string name, module, summary;  ///< "a02_transpose", "A02", the first line of --help
  std::vector<Step<Case>> steps;      ///< in order; references and the exercise by their role
  RunDefaults run_defaults;
  CeilingFrom ceiling = CeilingFrom::copy;
  std::string ceiling_step;           ///< with CeilingFrom::reference: the reference step's name
  CeilingUnit unit = CeilingUnit::GBps;  ///< what the table reports: GB/s or TFLOP/s
  std::string model_dtype = "fp32";   ///< the datasheet peak --model divides FLOPs by

  std::vector<Shape> verify_shapes;   ///< verified on every run, besides the timed shape
  std::function<Shape()> timed_shape; ///< from the lab's options, after parsing
  std::function<bool(const Shape&)> is_large;     ///< optional: dropped by --skip-large-check
  std::function<std::string(const Shape&)> describe;  ///< "transpose fp32 16384x16384, 2.1 GB per launch"
  std::function<nlohmann::json(const Shape&)> problem;  ///< the record's "problem" (sizes, dtype, layout)
  std::function<ModelRow(const StepInfo&, const Shape&)> model_row;  ///< --model: bytes and FLOPs of a step
  std::function<double(const Shape&)> device_bytes;  ///< optional: device memory a case needs

  std::function<void(GpuLab&)> add_options;   ///< optional: the lab's own options (lab.app(), lab.run_only())
  std::function<void()> check_options;         ///< optional: after parsing (throw UsageError)
  std::function<void(LadderRun<Case>&)> before_steps;  ///< optional: after the cases exist (A07: --tune)
  std::function<void(LadderRun<Case>&, nlohmann::json& record)> after_steps;  ///< optional: more record

  /// An optional sweep: an option taking comma-separated integers; each becomes a timed Shape.
  /// With `series`, a second option does the same and the sweep covers every pair (a 2-D sweep:
  /// one line per step and series value in the plot, both values in each CSV row); `shape` then
  /// receives the series value as its second argument (0 without one).
  struct Axis {
    std::string option, help, label;
    int lo = 1, hi = 1;
  };
  struct Sweep {
    std::string option, help, x_label;
    int lo = 1, hi = 1;
    std::function<Shape(int x, int series)> shape;
    std::optional<Axis> series;
  };
  std::optional<Sweep> sweep;
};

/// What the hooks see while a lab runs.
template <class Case>
struct LadderRun {
  GpuLab& lab;
  std::vector<Step<Case>>& steps;      ///< the selected steps, in order
  std::vector<Case*> checks;           ///< verification cases (not the timed one)
  Case* timed = nullptr;
  TimingOptions timing;
  nlohmann::json notes = nlohmann::json::object();  ///< lands in the record's "notes"
};

namespace detail {

/// "device-to-device copy (cudaMemcpy)" etc.
std::string ceiling_name(CeilingFrom from, const std::string& vendor, const std::string& step);

/// The table of one run: ladder rows, then reference rows under a rule; skipped rows say why.
void print_steps(std::FILE* out, const std::vector<StepResult>& rows, const Ceiling& ceiling);

/// The declaration table --list prints (markdown, so a README can show it verbatim).
void print_declaration(const std::vector<StepInfo>& steps);

/// One point of a sweep: its x, its series value (2-D sweeps) and the rows measured there.
struct SweepPoint {
  int x = 0;
  std::optional<int> series;
  std::vector<StepResult> rows;
};

/// The CSV of a sweep, one row per point and step (a series column in 2-D sweeps).
std::string sweep_csv(const std::string& x_label, const std::string& series_label, const std::vector<SweepPoint>& points);

/// The plot of a sweep: rate against x, one line per step (and series value), reference rows dashed.
std::string sweep_svg(const std::string& title, const std::string& x_label, const std::string& series_label,
                      CeilingUnit unit, const std::vector<SweepPoint>& points);

/// Rates, fractions and speedups: ladder rows as a ladder; reference rows get rates and
/// fractions only. The ceiling is filled in from the reference step when asked for.
void finish_rows(std::vector<StepResult>& rows, Ceiling& ceiling, CeilingFrom from, const std::string& ceiling_step);

/// Sets each row's lines_of_code from "name=lines,name=lines" (the build counts each step's
/// section of the kernel source: cmake/TutorAddLab.cmake).
void attach_step_lines(std::vector<StepResult>& rows, const std::string& step_lines);

/// Names of rows that failed verification.
std::vector<std::string> failed_rows(const std::vector<StepResult>& rows);

nlohmann::json rows_json(const std::vector<StepResult>& rows);

}  // namespace detail

/// Selects the steps named by --variant (all ladder and reference steps when none is named;
/// the exercise only by name). Reference rows always run: they are the ceiling and the
/// comparison every step is read against. Throws UsageError naming the allowed names, or the
/// step named twice.
template <class Case>
std::vector<Step<Case>> select_steps(const std::vector<Step<Case>>& all, const std::vector<std::string>& names) {
  std::vector<Step<Case>> out;
  if (names.empty()) {
    for (const auto& s : all)
      if (s.info.role != StepRole::exercise) out.push_back(s);
    return out;
  }
  std::string allowed;
  for (const auto& s : all) allowed += (allowed.empty() ? "" : ", ") + s.info.name;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& want = names[i];
    auto it = std::find_if(all.begin(), all.end(), [&](const auto& s) { return s.info.name == want; });
    if (it == all.end()) throw UsageError("--variant: unknown step '" + want + "'; allowed: " + allowed);
    // A step named twice would give the record two rows of one name, which no grade accepts.
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), want) != names.begin() + static_cast<std::ptrdiff_t>(i))
      throw UsageError("--variant: step '" + want + "' is named twice; name each step once");
    if (it->info.role != StepRole::reference) out.push_back(*it);
  }
  for (const auto& s : all)
    if (s.info.role == StepRole::reference) out.push_back(s);
  return out;
}

/// Verifies and times `steps` on `timed` (after `checks`), skipping steps this GPU cannot run.
template <class Case>
std::vector<StepResult> run_steps(GpuLab& lab, const std::vector<Step<Case>>& steps, std::span<Case* const> checks,
                                  Case& timed, const TimingOptions& timing) {
  std::vector<StepResult> rows;
  const std::string& arch = lab.device().info.arch;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step<Case>& s = steps[i];
    if (!arch_supports(arch, s.info.min_arch)) {
      StepResult r = describe(s.info);
      r.skipped = "needs " + s.info.min_arch + "; this GPU is " + arch;
      r.verified = true;  // nothing ran, nothing failed: the row says why
      rows.push_back(std::move(r));
      continue;
    }
    if (lab.progress())
      fmt::print(stderr, "[{}/{}] {}: verifying on {} shapes, timing {}...\n", i + 1, steps.size(), s.info.name,
                 checks.size() + 1, timed.label());
    rows.push_back(run_step(s, checks, timed, timing));
  }
  return rows;
}

template <class Case>
int run_ladder_lab(LadderLab<Case>& spec, int argc, char** argv) {
  using Shape = typename Case::Shape;
  const bool sweepable = spec.sweep.has_value();
  GpuLab lab(spec.name, spec.module, spec.summary,
             sweepable ? OutputSet{.csv = true, .plot = true, .csv_beside_json = false,
                                   .csv_help = "with " + spec.sweep->option + ": write the sweep as CSV to PATH",
                                   .plot_help = "with " + spec.sweep->option + ": draw rate against " +
                                                spec.sweep->x_label + " as an SVG at PATH"}
                      : OutputSet{});
  lab.add_run_options(spec.run_defaults);
  std::vector<std::string> variants;
  lab.app().add_option("--variant", variants, "run only these steps (repeatable; see --list); 'exercise' runs "
                                              "your kernel from exercises/ where the lab has one")
      ->option_text("NAME");
  lab.add_list_option("list the steps: what each changes and what it should buy");
  lab.add_model_option("print each step's floor (bytes over HBM bandwidth, FLOPs over peak)");
  std::vector<int> points, series;
  CLI::Option* sweep_opt = nullptr;
  if (sweepable) {
    sweep_opt = lab.app().add_option(spec.sweep->option, points, spec.sweep->help)
                    ->delimiter(',')->check(decimal_integer())->check(CLI::Range(spec.sweep->lo, spec.sweep->hi));
    if (const auto& axis = spec.sweep->series)
      lab.app().add_option(axis->option, series, axis->help)->delimiter(',')->check(decimal_integer())
          ->check(CLI::Range(axis->lo, axis->hi))->needs(sweep_opt);
  }
  if (spec.add_options) spec.add_options(lab);
  if (const int rc = lab.parse(argc, argv); rc >= 0) return rc;
  if (sweepable && points.empty() && (lab.outputs().csv() || lab.outputs().plot()))
    throw UsageError("--csv/--plot: only with " + spec.sweep->option);
  if (sweep_opt && lab.model_requested() && sweep_opt->count() > 0)
    throw UsageError("--model: prints the floors of one shape; not with " + spec.sweep->option);
  if (spec.check_options) spec.check_options();
  std::vector<Step<Case>> steps = select_steps(spec.steps, variants);

  if (lab.list_requested()) {
    std::vector<StepInfo> infos;
    for (const auto& s : spec.steps) infos.push_back(s.info);
    detail::print_declaration(infos);
    return kExitOk;
  }
  const Shape timed_shape = spec.timed_shape();
  if (lab.model_requested()) {
    std::vector<ModelRow> rows;
    for (const auto& s : steps)
      if (s.info.role != StepRole::reference) rows.push_back(spec.model_row(s.info, timed_shape));
    print_model_table(lab.model_gpu(), spec.model_dtype, spec.describe(timed_shape), rows);
    return kExitOk;
  }

  const DeviceRecord& device = lab.open();
  if (spec.device_bytes) {
    // The verification cases and the timed case live together; sweep points one at a time.
    double need = spec.device_bytes(timed_shape);
    for (const Shape& s : spec.verify_shapes)
      if (!(s == timed_shape)) need += spec.device_bytes(s);
    for (int p : points)
      for (int y : series.empty() ? std::vector<int>{0} : series)
        need = std::max(need, spec.device_bytes(spec.sweep->shape(p, y)));
    if (need > 0.9 * double(device.info.global_mem_bytes))
      throw UsageError(fmt::format("the problem needs {:.1f} GiB of device memory; this GPU has {:.1f} GiB: "
                                   "choose smaller sizes", need / 1073741824.0,
                                   device.info.global_mem_bytes / 1073741824.0));
  }
  const TimingOptions timing{lab.run().warmup, lab.run().reps, lab.run().flush_l2, {}};
  std::uint64_t case_seed = lab.seed();
  nlohmann::json record = lab.record_head();
  Ceiling ceiling{detail::ceiling_name(spec.ceiling, device.info.vendor, spec.ceiling_step),
                  spec.ceiling == CeilingFrom::copy ? device.copy_GBps : device.fma_TFLOPs, spec.unit};
  std::FILE* human = lab.human();
  std::vector<std::string> failed;

  if (!points.empty()) {  // ---- a sweep: the selected steps at each point (and series value)
    const std::string x_label = spec.sweep->x_label;
    const std::string y_label = spec.sweep->series && !series.empty() ? spec.sweep->series->label : "";
    std::vector<detail::SweepPoint> results;
    nlohmann::json sweep = nlohmann::json::array();
    print_device_header(human, device);
    for (int y : series.empty() ? std::vector<int>{0} : series)
      for (int p : points) {
        Case timed(spec.sweep->shape(p, y), ++case_seed);
        LadderRun<Case> run{lab, steps, {}, &timed, timing};
        if (spec.before_steps) spec.before_steps(run);
        std::vector<StepResult> rows = run_steps(lab, steps, std::span<Case* const>(), timed, timing);
        Ceiling c = ceiling;
        detail::finish_rows(rows, c, spec.ceiling, spec.ceiling_step);
        const std::string at = y_label.empty() ? fmt::format("{} = {}", x_label, p)
                                               : fmt::format("{} = {}, {} = {}", x_label, p, y_label, y);
        fmt::print(human, "\n{}: {}\n", at, spec.describe(timed.shape()));
        detail::print_steps(human, rows, c);
        for (auto& f : detail::failed_rows(rows)) failed.push_back(f + " at " + at);
        nlohmann::json point = {{x_label, p}, {"ceiling", to_json(c)},
                                {"problem", spec.problem(timed.shape())}, {"variants", detail::rows_json(rows)}};
        if (!y_label.empty()) point[y_label] = y;
        sweep.push_back(point);
        results.push_back({p, y_label.empty() ? std::nullopt : std::optional<int>(y), std::move(rows)});
      }
    lab.outputs().write_csv(detail::sweep_csv(x_label, y_label, results));
    lab.outputs().write_plot(detail::sweep_svg(spec.name + " on " + device.info.name, x_label, y_label, spec.unit,
                                               results));
    record["problem"] = {{"sweep", spec.sweep->option}, {"points", points}, {"seed", lab.seed()}};
    if (!y_label.empty()) record["problem"]["series"] = series;
    record["sweep"] = sweep;
    record["notes"] = {{"timing", {{"warmup", timing.warmup}, {"reps", timing.reps}, {"flush_l2", timing.flush_l2}}}};
    return lab.finish(record, failed);
  }

  // ---- the ladder: every step verified on every shape, timed on the timed shape
  if (lab.progress()) fmt::print(stderr, "preparing inputs and references...\n");
  std::vector<std::unique_ptr<Case>> cases;
  std::vector<Case*> checks;
  std::vector<std::string> shapes;
  for (const Shape& s : spec.verify_shapes) {
    if (s == timed_shape) continue;  // the timed case is verified anyway
    if (lab.run().skip_large_check && spec.is_large && spec.is_large(s)) continue;
    cases.push_back(std::make_unique<Case>(s, ++case_seed));
    checks.push_back(cases.back().get());
    shapes.push_back(cases.back()->label());
  }
  Case timed(timed_shape, ++case_seed);
  shapes.push_back(timed.label());
  LadderRun<Case> run{lab, steps, checks, &timed, timing};
  if (spec.before_steps) spec.before_steps(run);
  std::vector<StepResult> rows =
      run_steps(lab, steps, std::span<Case* const>(checks.data(), checks.size()), timed, timing);
  detail::finish_rows(rows, ceiling, spec.ceiling, spec.ceiling_step);
#ifdef TUTOR_STEP_LINES
  detail::attach_step_lines(rows, TUTOR_STEP_LINES);
#endif
  failed = detail::failed_rows(rows);

  print_device_header(human, device);
  fmt::print(human, "problem : {}\nverified: {}\n", spec.describe(timed_shape), fmt::join(shapes, ", "));
  detail::print_steps(human, rows, ceiling);
  nlohmann::json problem = spec.problem(timed_shape);
  problem["verified_shapes"] = shapes;
  problem["seed"] = lab.seed();
  record["ceiling"] = to_json(ceiling);
  record["problem"] = problem;
  record["variants"] = detail::rows_json(rows);
  run.notes["timing"] = {{"warmup", timing.warmup}, {"reps", timing.reps}, {"flush_l2", timing.flush_l2},
                         {"clock", "device events, one pair per launch"}};
  for (const auto& step : run.steps)
    if (step.info.role == StepRole::exercise) run.notes["exercise_code"] = kExerciseCode;
  if (spec.after_steps) spec.after_steps(run, record);
  record["notes"] = run.notes;
  return lab.finish(record, failed);
}

/// main() of a ladder lab: run_ladder_lab inside run_main (exceptions become exit codes).
template <class Case>
int ladder_main(LadderLab<Case>& spec, int argc, char** argv) {
  if (kExerciseSolutions)  // an exercise row built from the worked solution says so (--list, table, record)
    for (auto& step : spec.steps)
      if (step.info.role == StepRole::exercise) {
        step.info.params = kExerciseSolutionParams;
        // "your kernel from exercises/: what it does" -> "the worked solution from exercises/solutions/: ..."
        if (const auto colon = step.info.change.find(':'); colon != std::string::npos)
          step.info.change = "the worked solution from exercises/solutions/" + step.info.change.substr(colon);
      }
  return run_main(spec.name, [&] { return run_ladder_lab(spec, argc, argv); });
}

}  // namespace tutor
