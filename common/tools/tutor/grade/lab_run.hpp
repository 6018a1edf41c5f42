#pragma once
// `tutor grade --run MODULE`: the grader runs the lab itself, on options drawn from a seed the
// learner did not choose, into a record in a private temporary folder, so the graded record
// is the grader's and not one the learner wrote.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "grade/rubric.hpp"

namespace tutor::grade {

/// The arguments a run passes to the lab: the rubric's fixed ones, each drawn option with its
/// value, and the seed option; `--json PATH` is added when it runs.
struct LabInvocation {
  std::string executable;
  std::vector<std::string> args;
  std::map<std::string, std::int64_t> drawn;
  std::uint64_t seed = 0;
};

/// Draws each option of `run.draw` from `seed` (SplitMix64, Steele et al., OOPSLA 2014: the same
/// seed gives the same options on every platform, unlike std::uniform_int_distribution).
LabInvocation plan_run(const std::string& executable, const RunSpec& run, std::uint64_t seed);

/// What came back: the lab's exit code and, when it wrote one, the record's text.
struct LabOutcome {
  int exit_code = -1;
  bool wrote_record = false;
  std::string record_path;  ///< in a private temporary folder, removed by the caller
  std::string folder;
};

/// Runs the lab with `--json <tmp>/<lab>.json` appended, its standard output sent to standard
/// error (the grader's standard output stays for `--json -`). Throws UsageError when it cannot
/// be started.
LabOutcome run_lab(const LabInvocation& invocation, const std::string& lab);

/// Removes the outcome's temporary folder and what is in it.
void remove_outcome(const LabOutcome& outcome);

/// The command as a shell would type it, for the table and the JSON.
std::string command_text(const LabInvocation& invocation);

}  // namespace tutor::grade
