#pragma once
// `tutor sheets`: fills the reference-sheet templates (docs/cheatsheets/src/<id>.md) and writes
// each sheet as Markdown and as a printable HTML page, with the index README.md; --check
// compares instead of writing (a ctest test keeps the committed sheets in sync).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tutor::sheets {

class SheetsCommand {
 public:
  /// Adds the `sheets` subcommand and its options to `app`.
  explicit SheetsCommand(CLI::App& app);
  bool selected() const { return sub_->parsed(); }
  /// After parsing: 0 written or in sync; 1 --check found a difference (the first differing
  /// file and line named); 2 bad input (a placeholder, a template, an option).
  int run();

 private:
  CLI::App* sub_ = nullptr;
  std::string out_, src_, data_;
  bool check_ = false;
  std::vector<std::string> only_;
};

}  // namespace tutor::sheets
