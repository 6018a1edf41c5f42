#include "grade/grade_command.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "grade/gradebook.hpp"
#include "grade/grader.hpp"
#include "grade/lab_run.hpp"
#include "tutor/cli.hpp"
#include "tutor/input_file.hpp"
#include "tutor/number_option.hpp"
#include "tutor/verify.hpp"

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
  sub_->add_option("--assignment", assignment_, "the rubric's assignment to grade (default: the first whose lab "
                                                "is the record's; with --run, the first that has a run section)")
      ->option_text("NAME");
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
                                                       "file's stem is the learner)")
                     ->option_text("DIR");
  sub_->add_option("--gradebook", gradebook_, "with --folder: write the gradebook as CSV to PATH ('-': standard "
                                              "output)")
      ->option_text("PATH")
      ->needs(folder);
  sub_->add_flag("--summary", summary_, "with --folder: print the counts and the mean score after the rows")
      ->needs(folder);
  out_ = std::make_unique<Outputs>(*sub_);
}

int GradeCommand::run() {
  const int modes = int(!record_.empty()) + int(!run_module_.empty()) + int(!folder_.empty());
  if (modes != 1)
    throw UsageError("grade: give exactly one of RECORD.json, --run MODULE or --folder DIR");
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
  if (!folder_.empty()) return grade_batch();
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
  out_->write_json({{"tool", "tutor grade"}, {"record", record_}, {"grade", to_json(g)}});
  return g.passed ? kExitOk : kExitCheckFailed;
}

int GradeCommand::grade_run() {
  std::string module = run_module_;
  std::transform(module.begin(), module.end(), module.begin(), [](unsigned char c) { return std::toupper(c); });
  const Rubric rubric = rubric_.empty() ? find_rubric(rubrics_, module, "--run " + run_module_) : load_rubric(rubric_);
  if (rubric.module != module)
    throw UsageError(fmt::format("--rubric: {} grades module {}, not {}", rubric.path, rubric.module, module));
  const Assignment* chosen = nullptr;
  if (!assignment_.empty()) {
    chosen = &choose_assignment(rubric, "", assignment_);
  } else {
    for (const auto& a : rubric.assignments)
      if (a.run && !chosen) chosen = &a;
  }
  if (!chosen || !chosen->run)
    throw UsageError(fmt::format("--run {}: {} has no {} with a run section", run_module_, rubric.path,
                                 chosen ? "assignment '" + chosen->name + "'" : "assignment"));
  const std::string folder = labs_.empty() ? own_folder() : labs_;
  const std::string exe = (fs::path(folder) / chosen->lab).string();
  std::error_code ec;
  if (!fs::is_regular_file(exe, ec))
    throw UsageError(fmt::format("--run {}: {} is not built in {} (build the target {}, or give --labs DIR)",
                                 run_module_, chosen->lab, folder, chosen->lab));
  const std::uint64_t seed = seed_option_->count() ? seed_ : (fresh_seed() & std::uint64_t(INT64_MAX));
  const LabInvocation invocation = plan_run(exe, *chosen->run, seed);
  std::FILE* human = out_->human();
  fmt::print(human, "running : {}\nseed    : {}{}\n\n", command_text(invocation), seed,
             seed_option_->count() ? " (given)" : " (drawn for this run; --seed repeats it)");
  std::fflush(human);
  const LabOutcome outcome = run_lab(invocation, chosen->lab);
  struct Cleanup {
    const LabOutcome& o;
    ~Cleanup() { remove_outcome(o); }
  } cleanup{outcome};
  if (outcome.exit_code == kExitNoGpu) {
    std::fprintf(stderr, "tutor grade: --run %s: %s found no usable GPU (its exit 3); nothing to grade\n",
                 run_module_.c_str(), chosen->lab.c_str());
    return kExitNoGpu;
  }
  if (outcome.exit_code == kExitBadInput)
    throw UsageError(fmt::format("--run {}: {} refused the arguments of {}'s run section (its exit 2, message above)",
                                 run_module_, chosen->lab, rubric.path));
  if (!outcome.wrote_record) {
    std::fprintf(stderr, "tutor grade: --run %s: %s exited %d and wrote no record: FAIL\n", run_module_.c_str(),
                 chosen->lab.c_str(), outcome.exit_code);
    return kExitCheckFailed;
  }
  const json record = read_record(outcome.record_path);
  if (!keep_record_.empty()) write_output("--keep-record", keep_record_, json_text(record));
  const Grade g = grade_record(record, rubric, *chosen);
  fmt::print(human, "\n");
  print_grade(human, fmt::format("{} (run by the grader, exit {})", chosen->lab, outcome.exit_code), g);
  json drawn = json::object();
  for (const auto& [option, value] : invocation.drawn) drawn[option] = value;
  out_->write_json({{"tool", "tutor grade"},
                    {"run", {{"command", command_text(invocation)}, {"seed", seed}, {"drawn", drawn},
                             {"lab_exit", outcome.exit_code}}},
                    {"grade", to_json(g)}});
  return g.passed ? kExitOk : kExitCheckFailed;
}

int GradeCommand::grade_batch() {
  RubricSource source;
  if (!rubric_.empty()) source.rubric = load_rubric(rubric_);
  source.folder = rubrics_;
  source.assignment = assignment_;
  const auto rows = grade_folder(folder_, source);
  const GradebookSummary summary = summarize(rows);
  std::FILE* human = gradebook_ == "-" ? stderr : out_->human();
  print_gradebook(human, rows);
  if (summary_) print_summary(human, summary);
  if (!gradebook_.empty()) write_output("--gradebook", gradebook_, gradebook_csv(rows));
  out_->write_json({{"tool", "tutor grade"}, {"folder", folder_}, {"gradebook", to_json(rows, summary)}});
  return summary.passed == summary.records ? kExitOk : kExitCheckFailed;
}

}  // namespace tutor::grade
