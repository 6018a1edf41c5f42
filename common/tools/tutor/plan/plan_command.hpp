#pragma once
// `tutor plan`: the learner's progress through the curriculum (no action), and the actions that
// change it: done, start, undo, reset. tutor.cpp registers it with the other subcommands.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tutor/output.hpp"

namespace tutor::plan {

class PlanCommand {
 public:
  /// Adds the `plan` subcommand, its actions and options to `app`.
  explicit PlanCommand(CLI::App& app);
  bool selected() const { return sub_->parsed(); }
  /// After parsing: reads (and for an action, changes) the state and prints the plan. Returns
  /// 0; bad input (an unknown module, a corrupt state file, reset without --yes) throws
  /// UsageError (exit 2).
  int run(const std::string& command);

 private:
  CLI::App* sub_ = nullptr;
  CLI::App* done_ = nullptr;
  CLI::App* start_ = nullptr;
  CLI::App* undo_ = nullptr;
  CLI::App* reset_ = nullptr;
  std::unique_ptr<Outputs> out_;
  std::string state_dir_, data_, now_;
  std::vector<std::string> done_ids_, start_ids_, undo_ids_;
  bool yes_ = false;
};

}  // namespace tutor::plan
