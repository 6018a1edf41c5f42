#pragma once
// Batch grading for an instructor: a folder of records (one per learner, the file's stem is the
// learner) graded into one row each, a CSV gradebook and a summary. A file that cannot be read
// (truncated, too large, not a record, no rubric for its module) gets a row saying why and never
// stops the rest.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grade/grader.hpp"
#include "grade/rubric.hpp"

namespace tutor::grade {

/// Reads one record through the bounded JSON reader (at most kMaxRecordBytes; nesting, list
/// lengths and numbers bounded as for configs). Throws InputError(path, key, why).
nlohmann::json read_record(const std::string& path);

/// The largest record read: the largest committed record (a sweep with every check of every
/// point) is well under 1 MiB; 16 MiB leaves room for long sweeps and refuses a 1 GB file unread.
inline constexpr std::size_t kMaxRecordBytes = std::size_t(16) << 20;

/// Where rubrics come from: one given file, or the folder searched by the record's module.
struct RubricSource {
  std::optional<Rubric> rubric;      ///< --rubric FILE
  std::string folder = "data/rubrics";  ///< --rubrics DIR
  std::string assignment;            ///< --assignment NAME ("" = chosen by the record's lab)
};

/// Grades the record at `path`: reads it, finds the rubric and the assignment, grades.
/// Throws InputError / UsageError when the file or its rubric cannot be used.
Grade grade_file(const std::string& path, const RubricSource& source);

struct GradebookRow {
  std::string learner, file;
  std::string source = "record";  ///< "record" (a file read), or "run, seed N" (the grader ran the lab)
  std::string module, lab, assignment;
  std::optional<double> score;  ///< none when the file could not be graded
  std::string result;           ///< "pass", "fail" or "error"
  std::string reason;
};

struct GradebookSummary {
  std::size_t records = 0, passed = 0, failed = 0, errors = 0;
  double mean_score = 0;  ///< over the graded records (errors excluded); 0 when none
};

/// Every regular *.json file directly in `folder`, in name order. Throws UsageError naming
/// --folder when it is not a readable folder.
std::vector<GradebookRow> grade_folder(const std::string& folder, const RubricSource& source);

GradebookSummary summarize(const std::vector<GradebookRow>& rows);

/// RFC 4180 CSV: learner,file,source,module,lab,assignment,score,result,reason. A cell that begins
/// with = + - @ is prefixed with ' so a spreadsheet does not run it as a formula (OWASP CSV
/// injection): a learner names their own file.
std::string gradebook_csv(const std::vector<GradebookRow>& rows);

void print_gradebook(std::FILE* out, const std::vector<GradebookRow>& rows);
void print_summary(std::FILE* out, const GradebookSummary& summary);

nlohmann::json to_json(const std::vector<GradebookRow>& rows, const GradebookSummary& summary);

}  // namespace tutor::grade
