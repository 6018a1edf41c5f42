#include "grade/grade_command.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "grade/gradebook.hpp"
#include "grade/grader.hpp"
#include "grade/lab_run.hpp"
#include "tutor/cli.hpp"
#include "tutor/input_file.hpp"
#include "tutor/number_option.hpp"
#include "tutor/report.hpp"
#include "tutor/verify.hpp"
#include "tutor/version.hpp"

namespace tutor::grade {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// The folder of the running executable: the labs are built beside it.
std::string own_folder() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : self.parent_path().string();
}

/// The rubric and assignment --run uses: the module's rubric (or --rubric, which must be the
/// module's), and --assignment or the first assignment with a run section.
std::pair<Rubric, std::size_t> run_target(const std::string& run_module, const std::string& rubric_path,
                                          const std::string& rubrics, const std::string& assignment) {
  std::string module = run_module;
  std::transform(module.begin(), module.end(), module.begin(), [](unsigned char c) { return std::toupper(c); });
  Rubric rubric = rubric_path.empty() ? find_rubric(rubrics, module, "--run " + run_module) : load_rubric(rubric_path);
  if (rubric.module != module)
    throw UsageError(fmt::format("--rubric: {} grades module {}, not {}", rubric.path, rubric.module, module));
  std::optional<std::size_t> chosen;
  for (std::size_t i = 0; i < rubric.assignments.size(); ++i) {
    const Assignment& a = rubric.assignments[i];
    if (!chosen && (assignment.empty() ? a.run.has_value() : a.name == assignment)) chosen = i;
  }
  if (!assignment.empty() && !chosen) choose_assignment(rubric, "", assignment);  // throws, naming them
  if (!chosen || !rubric.assignments[*chosen].run)
    throw UsageError(fmt::format("--run {}: {} has no {} with a run section", run_module, rubric.path,
                                 chosen ? "assignment '" + rubric.assignments[*chosen].name + "'" : "assignment"));
  return {std::move(rubric), *chosen};
}

/// One run of a lab by the grader and the grade of its record.
struct GradedRun {
  LabInvocation invocation;
  int exit_code = -1;
  std::optional<Grade> grade;
  std::string error;  ///< why there is no grade (no GPU, arguments refused, no record)
};

GradedRun run_and_grade(const Rubric& rubric, const Assignment& a, const std::string& exe, std::uint64_t seed,
                        const std::string& keep_record) {
  GradedRun out;
  out.invocation = plan_run(exe, *a.run, seed);
  const LabOutcome outcome = run_lab(out.invocation, a.lab);
  struct Cleanup {
    const LabOutcome& o;
    ~Cleanup() { remove_outcome(o); }
  } cleanup{outcome};
  out.exit_code = outcome.exit_code;
  if (outcome.exit_code == kExitNoGpu) {
    out.error = a.lab + " found no usable GPU (its exit 3); nothing to grade";
  } else if (outcome.exit_code == kExitBadInput) {
    out.error = fmt::format("{} refused the arguments of {}'s run section (its exit 2, message above)", a.lab,
                            rubric.path);
  } else if (!outcome.wrote_record) {
    out.error = fmt::format("{} exited {} and wrote no record", a.lab, outcome.exit_code);
  } else {
    const json record = read_record(outcome.record_path);
    if (!keep_record.empty()) write_output("--keep-record", keep_record, json_text(record));
    out.grade = grade_record(record, rubric, a);
  }
  return out;
}

std::uint64_t run_seed(const CLI::Option* given, std::uint64_t value) {
  return given->count() ? value : (fresh_seed() & std::uint64_t(INT64_MAX));
}

}  // namespace


GradeCommand::GradeCommand(CLI::App& app) {
  sub_ = app.add_subcommand("grade",
                            "grade a lab's or an exercise's record against its module's rubric (data/rubrics/); "
                            "or run the lab on shapes the learner did not choose and grade that (--run); or grade "
                            "a folder of records into a gradebook (--folder). Exit 0 pass, 1 fail, 2 bad input, "
                            "3 no GPU for --run");
  sub_->add_option("record", record_, "the record to grade (a lab's or exercise checker's --json output)")
      ->option_text("RECORD.json");
  sub_->add_option("--rubric", rubric_, "grade against this rubric file (default: the rubric in --rubrics whose "
                                        "module is the record's)")
      ->option_text("FILE");
  sub_->add_option("--rubrics", rubrics_, "folder of rubrics searched by module [default: data/rubrics]")
      ->option_text("DIR");
  sub_->add_option("--assignment", assignment_, "the rubric's assignment to grade (default: the first whose "
                                                "exercise steps the record holds, else the record's lab's whole-run "
                                                "assignment; with --run, the first that has a run section)")
      ->option_text("NAME")
      ->check(CLI::Validator(
          [](const std::string& v) { return v.empty() ? std::string("a name is needed, not ''") : ""; },
          "NAME"));
  auto* run = sub_->add_option("--run", run_module_, "run MODULE's lab (built beside tutor, or in --labs) with "
                                                    "options drawn from the seed, then grade its record")
                  ->option_text("MODULE");
  seed_option_ = sub_->add_option("--seed", seed_, "with --run: the seed options and inputs are drawn from (an "
                                                   "integer in [0, 2^63 - 1]; default: fresh every run, printed)")
                     ->check(integer_in(0, INT64_MAX))
                     ->needs(run);
  sub_->add_option("--labs", labs_, "with --run: folder of the lab executables (default: tutor's own folder)")
      ->option_text("DIR")
      ->needs(run);
  sub_->add_option("--keep-record", keep_record_, "with --run: also write the lab's record to PATH")
      ->option_text("PATH")
      ->needs(run);
  auto* folder = sub_->add_option("--folder", folder_, "grade every *.json record in DIR (one per learner: the "
                                                       "file's stem is the learner); with --run MODULE, run the "
                                                       "lab in each folder of DIR (one per learner, their build) "
                                                       "with one seed for all")
                     ->option_text("DIR");
  sub_->add_option("--gradebook", gradebook_, "with --folder: write the gradebook as CSV to PATH ('-': standard "
                                              "output)")
      ->option_text("PATH")
      ->needs(folder);
  sub_->add_flag("--summary", summary_, "with --folder: print the counts and the mean score after the rows")
      ->needs(folder);
  out_ = std::make_unique<Outputs>(*sub_);
}

json GradeCommand::verdict_head() const {
  // Not a measurement, model or simulation: a verdict on one ("kind": "grade", docs/GRADING.md).
  return {{"schema_version", kRecordSchemaVersion}, {"lab", "tutor"},       {"module", "common"},
          {"version", kVersion},                   {"timestamp", utc_timestamp()}, {"command", command_},
          {"kind", "grade"},                       {"subcommand", "grade"}};
}

int GradeCommand::run(const std::string& command) {
  command_ = command;
  const bool batch = !folder_.empty();
  const int modes = int(!record_.empty()) + int(batch) + int(!run_module_.empty() && !batch);
  if (modes != 1)
    throw UsageError("grade: give exactly one of RECORD.json, --run MODULE or --folder DIR (with --run MODULE: "
                     "run each learner's lab)");
  if (batch && !labs_.empty()) throw UsageError("--labs: with --folder, each learner's folder holds their labs");
  if (batch && !keep_record_.empty()) throw UsageError("--keep-record: one record, not with --folder");
  std::vector<std::pair<std::string, std::string>> inputs;
  if (!record_.empty()) inputs.push_back({"RECORD", record_});
  if (!rubric_.empty()) inputs.push_back({"--rubric", rubric_});
  out_->check(inputs);
  if (!gradebook_.empty()) {
    require_writable("--gradebook", gradebook_);
    require_distinct_outputs({{"--json", out_->json_path()}, {"--gradebook", gradebook_}}, inputs);
  }
  if (!keep_record_.empty()) {
    require_writable("--keep-record", keep_record_);
    require_distinct_outputs({{"--json", out_->json_path()}, {"--keep-record", keep_record_}}, inputs);
  }
  if (batch) return run_module_.empty() ? grade_batch() : grade_batch_runs();
  if (!run_module_.empty()) return grade_run();
  return grade_one();
}

int GradeCommand::grade_one() {
  RubricSource source;
  if (!rubric_.empty()) source.rubric = load_rubric(rubric_);
  source.folder = rubrics_;
  source.assignment = assignment_;
  const Grade g = grade_file(record_, source);
  print_grade(out_->human(), record_, g);
  json verdict = verdict_head();
  verdict["record"] = record_;
  verdict["grade"] = to_json(g);
  out_->write_json(verdict);
  return g.passed ? kExitOk : kExitCheckFailed;
}


int GradeCommand::grade_run() {
  const auto [rubric, index] = run_target(run_module_, rubric_, rubrics_, assignment_);
  const Assignment& a = rubric.assignments[index];
  const std::string folder = labs_.empty() ? own_folder() : labs_;
  const std::string exe = (fs::path(folder) / a.lab).string();
  std::error_code ec;
  if (!fs::is_regular_file(exe, ec))
    throw UsageError(fmt::format("--run {}: {} is not built in {} (build the target {}, or give --labs DIR)",
                                 run_module_, a.lab, folder, a.lab));
  const std::uint64_t seed = run_seed(seed_option_, seed_);
  std::FILE* human = out_->human();
  fmt::print(human, "running : {}\nseed    : {}{}\n\n", command_text(plan_run(exe, *a.run, seed)), seed,
             seed_option_->count() ? " (given)" : " (drawn for this run; --seed repeats it)");
  std::fflush(human);
  const GradedRun run = run_and_grade(rubric, a, exe, seed, keep_record_);
  if (!run.grade) {
    if (run.exit_code == kExitBadInput) throw UsageError("--run " + run_module_ + ": " + run.error);
    std::fprintf(stderr, "tutor grade: --run %s: %s\n", run_module_.c_str(), run.error.c_str());
    return run.exit_code == kExitNoGpu ? kExitNoGpu : kExitCheckFailed;
  }
  fmt::print(human, "\n");
  print_grade(human, fmt::format("{} (run by the grader, exit {})", a.lab, run.exit_code), *run.grade);
  json drawn = json::object();
  for (const auto& [option, value] : run.invocation.drawn) drawn[option] = value;
  json verdict = verdict_head();
  verdict["run"] = {{"command", command_text(run.invocation)}, {"seed", seed}, {"drawn", drawn},
                    {"lab_exit", run.exit_code}};
  verdict["grade"] = to_json(*run.grade);
  out_->write_json(verdict);
  return run.grade->passed ? kExitOk : kExitCheckFailed;
}

/// --folder DIR --run MODULE: DIR holds one folder per learner with the learner's build of the
/// lab; each is run with the same seed (the same shapes for everyone) and graded.
int GradeCommand::grade_batch_runs() {
  const auto [rubric, index] = run_target(run_module_, rubric_, rubrics_, assignment_);
  const Assignment& a = rubric.assignments[index];
  std::error_code ec;
  if (!fs::is_directory(folder_, ec)) throw UsageError(fmt::format("--folder: {} is not a folder", folder_));
  std::vector<fs::path> learners;
  for (fs::directory_iterator it(folder_, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) learners.push_back(it->path());
  if (ec) throw UsageError(fmt::format("--folder: cannot list {}: {}", folder_, ec.message()));
  std::sort(learners.begin(), learners.end());
  const std::uint64_t seed = run_seed(seed_option_, seed_);
  std::FILE* human = gradebook_ == "-" ? stderr : out_->human();
  fmt::print(human, "running {} in each of {} learner folders of {}, seed {}{}\n\n", a.lab, learners.size(), folder_,
             seed, seed_option_->count() ? " (given)" : " (drawn for this batch; --seed repeats it)");
  std::fflush(human);
  std::vector<GradebookRow> rows;
  std::size_t no_gpu = 0;
  for (const auto& dir : learners) {
    GradebookRow row;
    row.learner = dir.filename().string();
    row.file = (fs::path(row.learner) / a.lab).string();
    row.source = fmt::format("run, seed {}", seed);
    row.module = rubric.module;
    row.lab = a.lab;
    row.assignment = a.name;
    const std::string exe = (dir / a.lab).string();
    try {
      if (!fs::is_regular_file(exe, ec)) throw UsageError(fmt::format("{} is not built in {}", a.lab, dir.string()));
      const GradedRun run = run_and_grade(rubric, a, exe, seed, "");
      if (run.grade) {
        row.score = run.grade->score;
        row.result = run.grade->passed ? "pass" : "fail";
        row.reason = run.grade->reason;
      } else {
        row.result = "error";
        row.reason = run.error;
        no_gpu += run.exit_code == kExitNoGpu ? 1 : 0;
      }
    } catch (const std::exception& e) {
      row.result = "error";
      row.reason = e.what();
    }
    rows.push_back(std::move(row));
  }
  return finish_gradebook(rows, !rows.empty() && no_gpu == rows.size());
}

int GradeCommand::grade_batch() {
  RubricSource source;
  if (!rubric_.empty()) source.rubric = load_rubric(rubric_);
  source.folder = rubrics_;
  source.assignment = assignment_;
  return finish_gradebook(grade_folder(folder_, source), false);
}

int GradeCommand::finish_gradebook(const std::vector<GradebookRow>& rows, bool no_gpu) {
  const GradebookSummary summary = summarize(rows);
  std::FILE* human = gradebook_ == "-" ? stderr : out_->human();
  print_gradebook(human, rows);
  if (summary_) print_summary(human, summary);
  if (!gradebook_.empty()) write_output("--gradebook", gradebook_, gradebook_csv(rows));
  json verdict = verdict_head();
  verdict["folder"] = folder_;
  verdict["gradebook"] = to_json(rows, summary);
  out_->write_json(verdict);
  if (no_gpu) return kExitNoGpu;
  return summary.passed == summary.records ? kExitOk : kExitCheckFailed;
}

}  // namespace tutor::grade
