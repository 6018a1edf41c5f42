#pragma once
// A rubric: what `tutor grade` checks in a module's records (data/rubrics/README.md is the
// schema, field by field). Loading checks every rule of that schema, so a rubric mistake is one
// line naming the file and the key (exit 2) before any record is read.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tutor::grade {

/// Which records an assignment grades: a GPU lab's, or a host exercise checker's.
enum class RecordType { lab, exercise };

/// How a threshold's ratio is measured, always inside one record.
enum class Measure {
  speed_vs,             ///< median time of `against` / median time of `step`
  fraction_of_ceiling,  ///< the step's rate over the ceiling, both recomputed from the record
};

struct Threshold {
  std::string name;
  Measure measure = Measure::speed_vs;
  std::string step, against;
  double full_at = 1, zero_at = 0, points = 0;
};

/// An exercise variant and the variant (worked solution) it is timed against.
struct ExerciseStep {
  std::string step, solution;
};

/// An integer option `tutor grade --run` draws for the lab from the run's seed.
struct DrawnOption {
  std::string option;
  std::int64_t min = 0, max = 0, multiple_of = 1;
};

struct RunSpec {
  std::vector<std::string> args;
  std::vector<DrawnOption> draw;
  std::string seed_option;  ///< "" when the lab has none
};

struct Assignment {
  std::string name, about, lab;
  RecordType record = RecordType::lab;
  double correctness_points = 0, pass_score = 0;
  std::optional<RunSpec> run;
  // lab records
  std::vector<std::string> required_steps;
  std::vector<ExerciseStep> exercises;
  std::string ceiling = "none";  ///< copy | fma | reference:<step> | roofline | none
  int min_reps = 1;
  std::vector<Threshold> thresholds;
  // exercise records
  std::string exercise;
  int min_cases = 1;
  std::vector<std::string> required_cases;
  double case_tolerance = 0;
};

struct Rubric {
  std::string path, module, title;
  std::vector<Assignment> assignments;
};

/// The schema version this grader reads.
inline constexpr int kRubricVersion = 1;

/// Parses and checks a rubric; throws InputError(source, key, why).
Rubric parse_rubric(const nlohmann::json& doc, const std::string& source);

/// Reads `path` through the bounded JSON reader (1 MiB) and parses it.
Rubric load_rubric(const std::string& path);

/// The rubric in `dir` whose "module" is `module` (every *.json there is loaded, so a broken
/// rubric is reported even when another module is asked for). Throws UsageError naming `option`
/// when the folder cannot be read or no rubric names the module.
Rubric find_rubric(const std::string& dir, const std::string& module, const std::string& option);

/// `name` when given (UsageError naming --assignment and the names when absent); else the first
/// assignment of `lab` whose exercise rows are all among `variants` (the record's variant names:
/// a record of `--variant exercise_ilp4 ...` is graded as that exercise); else the first
/// assignment of `lab`; else the first assignment (whose lab check will then fail).
const Assignment& choose_assignment(const Rubric& rubric, const std::string& lab, const std::string& name,
                                    const std::set<std::string>& variants = {});

}  // namespace tutor::grade
