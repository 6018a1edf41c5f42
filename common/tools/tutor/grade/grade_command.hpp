#pragma once
// `tutor grade`: the subcommand's options and what it does with them (one record, --run, or a
// folder into a gradebook). tutor.cpp registers it with the other subcommands.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "grade/gradebook.hpp"
#include "tutor/output.hpp"

namespace tutor::grade {

class GradeCommand {
 public:
  /// Adds the `grade` subcommand and its options to `app`.
  explicit GradeCommand(CLI::App& app);
  bool selected() const { return sub_->parsed(); }
  /// After parsing: grades and returns the exit code (0 pass, 1 fail, 2 bad input, 3 no GPU
  /// for a --run whose lab found none).
  int run(const std::string& command);

 private:
  nlohmann::json verdict_head() const;
  int grade_one();
  int grade_run();
  int grade_batch();
  int grade_batch_runs();
  int finish_gradebook(const std::vector<GradebookRow>& rows, bool no_gpu);

  CLI::App* sub_ = nullptr;
  std::unique_ptr<Outputs> out_;
  std::string record_, rubric_, rubrics_ = "data/rubrics", assignment_;
  std::string run_module_, labs_, keep_record_;
  std::uint64_t seed_ = 0;
  CLI::Option* seed_option_ = nullptr;
  std::string folder_, gradebook_;
  bool summary_ = false;
  std::string command_;
};

}  // namespace tutor::grade
