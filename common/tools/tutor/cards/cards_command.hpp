#pragma once
// `tutor cards`: the recall cards (docs/STUDY.md, "tutor cards").
//
//   tutor cards check [--module ID...] [--min-cards N] [--data DIR]
//   tutor cards due [--module ID...] [--json PATH|-] [--state-dir DIR] [--data DIR] [--now TIME]
//   tutor cards review [--module ID...] [--new N] [--limit N] [--state-dir DIR] [--data DIR] [--now TIME]
//   tutor cards export --anki FILE|- [--module ID...] [--data DIR]
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tutor/output.hpp"

namespace tutor::cards {

class CardsCommand {
 public:
  /// Adds the `cards` subcommand, and its own subcommands, to `app`.
  explicit CardsCommand(CLI::App& app);
  bool selected() const { return sub_->parsed(); }
  /// After parsing: does what the subcommand says and returns the exit code (0; 1 when check
  /// finds a problem); bad input throws UsageError (exit 2).
  int run();

 private:
  int check();
  int due();
  int review();
  int export_anki();

  CLI::App* sub_ = nullptr;
  CLI::App* check_ = nullptr;
  CLI::App* due_ = nullptr;
  CLI::App* review_ = nullptr;
  CLI::App* export_ = nullptr;
  std::unique_ptr<Outputs> due_out_;
  std::string data_, state_dir_, now_, anki_;
  std::vector<std::string> modules_;
  int min_cards_ = 0;
  int new_limit_ = 20;
  int limit_ = 0;
  CLI::Option* limit_option_ = nullptr;
};

}  // namespace tutor::cards
