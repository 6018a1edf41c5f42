#pragma once
// Grades one record against one assignment of a rubric (data/rubrics/README.md): the record's
// head, the device, each required step and exercise present and verified (the stored verdicts
// re-checked against the stored errors and tolerances), the rates recomputed from bytes, FLOPs
// and times (a record that disagrees with itself is tampered), and the thresholds' credit.
// docs/GRADING.md explains the scoring and what a grader cannot detect.
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grade/rubric.hpp"

namespace tutor::grade {

/// One line of the verdict: a check that held or did not, and why.
struct Check {
  std::string name;
  bool passed = false;
  std::string detail;
};

/// A threshold's measured ratio and the points it earned.
struct ThresholdScore {
  Threshold threshold;
  bool measured = false;  ///< false: a variant it needs is missing or untimed (0 points)
  double ratio = 0;
  double earned = 0;
  std::string detail;
};

struct Grade {
  std::string rubric_path, module, assignment, lab;
  std::vector<Check> checks;
  std::vector<ThresholdScore> thresholds;
  double score = 0, pass_score = 0;
  bool passed = false;
  std::string reason;  ///< "" when passed; else the first failed check, or the score below the pass mark
  std::vector<std::string> warnings;  ///< worth a look, not graded (a GPU throttled by the end of the run)
};

/// Relative tolerance of the recomputed rates: a record written with every number rounded to
/// four significant digits (at most 5e-4 off each, 1e-3 in a quotient of two) passes with a
/// margin; an edit that changes a grade moves a rate by percents.
inline constexpr double kConsistencyTolerance = 2e-3;

/// The credit of a ratio under a threshold: 0 at or below zero_at, 1 at or above full_at,
/// linear in between.
double credit(double ratio, const Threshold& t);

/// Grades `record` (already parsed) against `assignment` of `rubric`. Never throws on record
/// content: everything wrong with a record is a failed check. With `record_dir` (the folder the
/// record was read from), the CSV and plot the record names in "outputs" are compared with the
/// files of those names beside it by SHA-256, where they are there.
Grade grade_record(const nlohmann::json& record, const Rubric& rubric, const Assignment& assignment,
                   const std::string& record_dir = "");

/// The names of a record's variants (a sweep's: those of its last point), for choosing an
/// assignment; empty for a record without them.
std::set<std::string> variant_names(const nlohmann::json& record);

/// The verdict as the table people read.
void print_grade(std::FILE* out, const std::string& record_name, const Grade& grade);

/// The verdict as JSON (the "grade" of `tutor grade --json`).
nlohmann::json to_json(const Grade& grade);

}  // namespace tutor::grade
