#pragma once
// Host exercises: a learner writes one function in a small C++ file; a checker compares it
// with the module's own library on many inputs and writes an exercise record.
//
// A checker is one source file built twice, once linked with the stub the learner edits and
// once with the worked solution (cmake/TutorExercises.cmake). It declares its cases through a
// Checker and hands them to run_checker, which owns the options (--json PATH|-, --seed N,
// --failures), the table, the record and the exit code (0 every case passed, 1 one failed,
// 2 bad input). A stub throws NotImplemented where code is missing, so each case it reaches
// fails with a message that says what to write next, never a crash.
//
// The record (kind "exercise"): {"schema_version", "lab", "module", "kind", "version",
// "timestamp", "command", "exercise", "function", "seed", "cases": [{"name", "expected", "got",
// "passed"}], "passed", "failed", "verified"}; `tutor grade` grades it with the module's rubric.
// Header-only: the checkers are the only users, and common's library stays as it is.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tutor/cli.hpp"
#include "tutor/not_implemented.hpp"
#include "tutor/number_option.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"
#include "tutor/version.hpp"

namespace tutor::exercise {

/// One comparison of the learner's value with the library's.
struct CaseResult {
  std::string name;
  nlohmann::json expected;
  nlohmann::json got;  ///< the learner's value, or the message of what it threw
  bool passed = false;
};

/// Relative tolerance of floating-point cases: the learner's formula and the library's may add
/// the same terms in another order, which moves the last bits (a few ulp, 1e-16 each), never 1e-9.
inline constexpr double kRelativeTolerance = 1e-9;

class Checker {
 public:
  /// Runs `f` (the learner's function). When it throws, records one failed case `name` whose
  /// "got" is the message (and whose "expected" is `expected`: the value, or what the parts
  /// are), and returns std::nullopt; the caller skips that case's comparisons.
  template <class F>
  auto attempt(const std::string& name, const nlohmann::json& expected, F&& f) -> std::optional<decltype(f())> {
    try {
      return f();
    } catch (const NotImplemented& e) {
      add(name, expected, e.what(), false);
    } catch (const std::exception& e) {
      add(name, expected, std::string("threw: ") + e.what(), false);
    }
    return std::nullopt;
  }

  /// Passes when |got - expected| <= rel_tol * |expected|, the rule `tutor grade` re-checks (an
  /// expected 0 needs an exact 0; NaN never passes).
  void number(const std::string& name, double expected, double got, double rel_tol = kRelativeTolerance) {
    const bool ok = std::isfinite(got) && std::abs(got - expected) <= rel_tol * std::abs(expected);
    add(name, json_number(expected), json_number(got), ok);
  }
  void integer(const std::string& name, std::int64_t expected, std::int64_t got) {
    add(name, expected, got, expected == got);
  }
  void text(const std::string& name, const std::string& expected, const std::string& got) {
    add(name, expected, got, expected == got);
  }

  const std::vector<CaseResult>& cases() const { return cases_; }

 private:
  /// Case names are unique in a record (the grader refuses repeats, and rubrics require cases by
  /// name); a checker that repeats one by accident gets " (2)", " (3)"... rather than a record
  /// no grader reads.
  void add(const std::string& name, nlohmann::json expected, nlohmann::json got, bool passed) {
    std::string unique = name;
    for (int n = 2; !names_.insert(unique).second; ++n) unique = fmt::format("{} ({})", name, n);
    cases_.push_back({unique, std::move(expected), std::move(got), passed});
  }
  std::vector<CaseResult> cases_;
  std::set<std::string> names_;
};

/// What a checker says about itself: the record's names and the table's heading.
struct ExerciseInfo {
  std::string lab;        ///< "b05_exercise_kv_cache"
  std::string module;     ///< "B05"
  std::string exercise;   ///< "kv_cache"
  std::string function;   ///< what the learner writes: "kv_bytes_for_context(model, bytes_per_element, context)"
  std::string file;       ///< the file the learner edits: "trackB/b05_transformer/exercises/kv_cache.cpp"
  std::string reference;  ///< what it is checked against: "tutor::b05::kv_bytes_for_context (calculator.hpp)"
};

namespace detail {

inline std::string cell(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return thousands(v.get<std::int64_t>());
  if (v.is_number_float()) return fmt::format("{:.12g}", v.get<double>());
  if (v.is_object()) {  // the parts of one answer: "attention 41943040, mlp 176160768"
    std::string parts;
    for (const auto& [key, part] : v.items()) parts += (parts.empty() ? "" : ", ") + key + " " + cell(part);
    return parts;
  }
  return v.dump();
}

}  // namespace detail

/// The main of a checker: parses the options, lets `add_cases(checker, seed)` declare and run
/// every case, prints the table (every case, or only the failed ones with --failures), writes
/// the record and returns the exit code. Random cases draw from `seed` (default fixed, so a run
/// is reproducible; `tutor grade --run` passes one the learner did not choose).
inline int run_checker(int argc, char** argv, const ExerciseInfo& info,
                       const std::function<void(Checker&, std::uint64_t)>& add_cases) {
  return run_main(info.lab, [&]() -> int {
    CLI::App app{fmt::format("{} exercise '{}': checks {} in {} against {} on shipped configs, random inputs "
                             "and edge cases. Exit 0: every case passed; 1: a case failed; 2: bad input.",
                             info.module, info.exercise, info.function, info.file, info.reference),
                 info.lab};
    std::uint64_t seed = 15;
    bool failures_only = false;
    app.add_option("--seed", seed, "seed of the random cases (an integer in [0, 2^63 - 1]; default 15)")
        ->check(integer_in(0, INT64_MAX));
    app.add_flag("--failures", failures_only, "list only the failed cases (the summary counts all)");
    Outputs out(app);
    if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
    out.check();

    Checker checker;
    add_cases(checker, seed);
    const auto& cases = checker.cases();
    std::int64_t passed = 0;
    const CaseResult* first_failure = nullptr;
    std::size_t name_width = 4, expected_width = 8;
    for (const auto& c : cases) {
      passed += c.passed ? 1 : 0;
      if (!c.passed && !first_failure) first_failure = &c;
      name_width = std::max(name_width, c.name.size());
      expected_width = std::max(expected_width, detail::cell(c.expected).size());
    }
    const std::int64_t failed = static_cast<std::int64_t>(cases.size()) - passed;

    std::FILE* h = out.human();
    fmt::print(h, "{} exercise {}: {}\n  your code: {}\n  checked against: {}\n  seed {}\n\n", info.module,
               info.exercise, info.function, info.file, info.reference, seed);
    fmt::print(h, "  {:<4}  {:<{}}  {:<{}}  {}\n", "", "case", name_width, "expected", expected_width, "got");
    for (const auto& c : cases) {
      if (failures_only && c.passed) continue;
      fmt::print(h, "  {:<4}  {:<{}}  {:<{}}  {}\n", c.passed ? "ok" : "FAIL", c.name, name_width,
                 detail::cell(c.expected), expected_width, detail::cell(c.got));
    }
    fmt::print(h, "\n{} of {} cases passed", passed, cases.size());
    if (first_failure)
      fmt::print(h, "; first failure: {}: {}", first_failure->name, detail::cell(first_failure->got));
    fmt::print(h, "\n");

    nlohmann::json record = {{"schema_version", kRecordSchemaVersion},
                             {"lab", info.lab},
                             {"module", info.module},
                             {"kind", "exercise"},
                             {"version", kVersion},
                             {"timestamp", utc_timestamp()},
                             {"command", command_line(argc, argv)},
                             {"exercise", info.exercise},
                             {"function", info.function},
                             {"seed", seed}};
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& c : cases)
      rows.push_back({{"name", c.name}, {"expected", c.expected}, {"got", c.got}, {"passed", c.passed}});
    record["cases"] = std::move(rows);
    record["passed"] = passed;
    record["failed"] = failed;
    record["verified"] = failed == 0 && !cases.empty();
    out.write_json(std::move(record));
    return failed == 0 && !cases.empty() ? kExitOk : kExitCheckFailed;
  });
}

}  // namespace tutor::exercise
