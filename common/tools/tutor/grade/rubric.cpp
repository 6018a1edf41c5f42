#include "grade/rubric.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "tutor/cli.hpp"
#include "tutor/input_file.hpp"
#include "tutor/json_input.hpp"

namespace tutor::grade {
namespace {

using nlohmann::json;

/// Reads the fields of one JSON object, naming the key (a JSON pointer without the leading '/')
/// in every error.
class Fields {
 public:
  Fields(const json& j, std::string source, std::string at) : j_(j), source_(std::move(source)), at_(std::move(at)) {
    if (!j_.is_object()) fail("", "must be an object");
  }
  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    throw InputError(source_, key.empty() ? at_ : (at_.empty() ? key : at_ + "/" + key), why);
  }
  std::string key(const std::string& k) const { return at_.empty() ? k : at_ + "/" + k; }
  bool has(const std::string& k) const { return j_.contains(k); }
  const json& raw(const std::string& k) const {
    if (!j_.contains(k)) fail(k, "missing");
    return j_.at(k);
  }
  std::string text(const std::string& k) const {
    const json& v = raw(k);
    if (!v.is_string() || v.get<std::string>().empty()) fail(k, "must be a non-empty string");
    return v.get<std::string>();
  }
  double number(const std::string& k, double lo, double hi) const {
    const json& v = raw(k);
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo || v.get<double>() > hi)
      fail(k, fmt::format("must be a number in [{}, {}]", lo, hi));
    return v.get<double>();
  }
  std::int64_t integer(const std::string& k, std::int64_t lo, std::int64_t hi) const {
    const json& v = raw(k);
    if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
      fail(k, fmt::format("must be an integer in [{}, {}]", lo, hi));
    return v.get<std::int64_t>();
  }
  std::vector<std::string> texts(const std::string& k) const {
    const json& v = raw(k);
    if (!v.is_array()) fail(k, "must be an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string() || v[i].get<std::string>().empty())
        fail(k + "/" + std::to_string(i), "must be a non-empty string");
      out.push_back(v[i].get<std::string>());
    }
    return out;
  }
  const json& array(const std::string& k) const {
    const json& v = raw(k);
    if (!v.is_array()) fail(k, "must be an array");
    return v;
  }

 private:
  const json& j_;
  std::string source_, at_;
};

constexpr double kHuge = 1e9;

RunSpec parse_run(const json& j, const std::string& source, const std::string& at) {
  Fields f(j, source, at);
  RunSpec run;
  run.args = f.texts("args");
  for (const auto& a : run.args)
    if (a == "--json") f.fail("args", "must not hold --json (the grader adds it)");
  const json& draw = f.array("draw");
  for (std::size_t i = 0; i < draw.size(); ++i) {
    Fields d(draw[i], source, f.key("draw/" + std::to_string(i)));
    DrawnOption o;
    o.option = d.text("option");
    if (o.option.rfind("--", 0) != 0) d.fail("option", "must be a long option (--rows)");
    o.min = d.integer("min", 0, std::int64_t(1) << 53);
    o.max = d.integer("max", o.min, std::int64_t(1) << 53);
    if (d.has("multiple_of")) o.multiple_of = d.integer("multiple_of", 1, std::int64_t(1) << 30);
    if ((o.max / o.multiple_of) * o.multiple_of < o.min)
      d.fail("multiple_of", "no multiple of it lies in [min, max]");
    run.draw.push_back(o);
  }
  const json& seed = f.raw("seed_option");
  if (seed.is_null()) {
    run.seed_option.clear();
  } else {
    run.seed_option = f.text("seed_option");
    if (run.seed_option.rfind("--", 0) != 0) f.fail("seed_option", "must be a long option (--seed) or null");
  }
  return run;
}

Threshold parse_threshold(const json& j, const std::string& source, const std::string& at) {
  Fields f(j, source, at);
  Threshold t;
  t.name = f.text("name");
  const std::string measure = f.text("measure");
  if (measure == "speed_vs") {
    t.measure = Measure::speed_vs;
    t.against = f.text("against");
  } else if (measure == "fraction_of_ceiling") {
    t.measure = Measure::fraction_of_ceiling;
    if (f.has("against")) f.fail("against", "only with measure speed_vs");
  } else {
    f.fail("measure", "must be speed_vs or fraction_of_ceiling, got '" + printable(measure) + "'");
  }
  t.step = f.text("step");
  t.full_at = f.number("full_at", 1e-9, kHuge);
  t.zero_at = f.number("zero_at", 0, kHuge);
  if (t.zero_at >= t.full_at) f.fail("zero_at", "must be below full_at");
  t.points = f.number("points", 1e-9, 100);
  return t;
}

Assignment parse_assignment(const json& j, const std::string& source, const std::string& at) {
  Fields f(j, source, at);
  Assignment a;
  a.name = f.text("name");
  a.about = f.text("about");
  a.lab = f.text("lab");
  const std::string record = f.text("record");
  if (record == "lab") {
    a.record = RecordType::lab;
  } else if (record == "exercise") {
    a.record = RecordType::exercise;
  } else {
    f.fail("record", "must be lab or exercise, got '" + printable(record) + "'");
  }
  a.correctness_points = f.number("correctness_points", 0, 100);
  a.pass_score = f.number("pass_score", 0, 100);
  if (f.has("run")) a.run = parse_run(f.raw("run"), source, f.key("run"));
  double total = a.correctness_points;
  if (a.record == RecordType::lab) {
    a.required_steps = f.texts("required_steps");
    const json& ex = f.array("exercises");
    for (std::size_t i = 0; i < ex.size(); ++i) {
      Fields e(ex[i], source, f.key("exercises/" + std::to_string(i)));
      a.exercises.push_back({e.text("step"), e.text("solution")});
    }
    a.ceiling = f.text("ceiling");
    const bool ok = a.ceiling == "copy" || a.ceiling == "fma" || a.ceiling == "roofline" || a.ceiling == "none" ||
                    (a.ceiling.rfind("reference:", 0) == 0 && a.ceiling.size() > 10);
    if (!ok) f.fail("ceiling", "must be copy, fma, reference:<step>, roofline or none");
    if (f.has("min_reps")) a.min_reps = int(f.integer("min_reps", 1, 100000));
    const json& th = f.array("thresholds");
    for (std::size_t i = 0; i < th.size(); ++i) {
      a.thresholds.push_back(parse_threshold(th[i], source, f.key("thresholds/" + std::to_string(i))));
      total += a.thresholds.back().points;
      if (a.thresholds.back().measure == Measure::fraction_of_ceiling && a.ceiling == "none")
        f.fail("thresholds/" + std::to_string(i), "fraction_of_ceiling needs a ceiling other than none");
    }
  } else {
    for (const char* lab_only : {"required_steps", "exercises", "ceiling", "thresholds", "min_reps"})
      if (f.has(lab_only)) f.fail(lab_only, "only in assignments of lab records");
    a.exercise = f.text("exercise");
    a.min_cases = int(f.integer("min_cases", 1, 1000000));
    a.required_cases = f.texts("required_cases");
    a.case_tolerance = f.number("case_tolerance", 0, 1);
  }
  if (std::abs(total - 100) > 1e-9)
    f.fail("", fmt::format("correctness_points and the thresholds' points sum to {:g}, not 100", total));
  if (a.pass_score > 100) f.fail("pass_score", "must be at most 100");
  return a;
}

}  // namespace

Rubric parse_rubric(const json& doc, const std::string& source) {
  Fields f(doc, source, "");
  if (f.integer("rubric_version", 0, 1000) != kRubricVersion)
    f.fail("rubric_version", fmt::format("this grader reads version {}", kRubricVersion));
  Rubric r;
  r.path = source;
  r.module = f.text("module");
  r.title = f.text("title");
  const json& list = f.array("assignments");
  if (list.empty()) f.fail("assignments", "must hold at least one assignment");
  std::set<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    r.assignments.push_back(parse_assignment(list[i], source, "assignments/" + std::to_string(i)));
    if (!names.insert(r.assignments.back().name).second)
      f.fail("assignments/" + std::to_string(i) + "/name", "'" + r.assignments.back().name + "' is used twice");
  }
  return r;
}

Rubric load_rubric(const std::string& path) {
  JsonLimits limits;
  limits.max_bytes = std::size_t(1) << 20;
  return parse_rubric(read_json_file(path, limits), path);
}

Rubric find_rubric(const std::string& dir, const std::string& module, const std::string& option) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw UsageError(fmt::format("{}: {} is not a folder of rubrics", option, dir));
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json") files.push_back(it->path());
  if (ec) throw UsageError(fmt::format("{}: cannot list {}: {}", option, dir, ec.message()));
  std::sort(files.begin(), files.end());
  std::optional<Rubric> found;
  for (const auto& p : files) {
    Rubric r = load_rubric(p.string());
    if (r.module == module) {
      if (found) throw UsageError(fmt::format("{}: {} and {} both grade module {}", option, found->path, r.path, module));
      found = std::move(r);
    }
  }
  if (!found)
    throw UsageError(fmt::format("{}: no rubric in {} grades module '{}' (give one with --rubric)", option, dir,
                                 printable(module)));
  return *found;
}

const Assignment& choose_assignment(const Rubric& rubric, const std::string& lab, const std::string& name,
                                    const std::set<std::string>& variants) {
  if (!name.empty()) {
    std::string names;
    for (const auto& a : rubric.assignments) {
      if (a.name == name) return a;
      names += (names.empty() ? "" : ", ") + a.name;
    }
    throw UsageError(fmt::format("--assignment: {} has no assignment '{}'; it has: {}", rubric.path, printable(name), names));
  }
  for (const auto& a : rubric.assignments) {
    if (a.lab != lab || a.exercises.empty()) continue;
    const bool all = std::all_of(a.exercises.begin(), a.exercises.end(),
                                 [&](const ExerciseStep& e) { return variants.count(e.step) > 0; });
    if (all) return a;
  }
  // A record without every row of an exercise (a whole ladder run): the lab's whole-run
  // assignment, the one that names no exercise step.
  for (const auto& a : rubric.assignments)
    if (a.lab == lab && a.exercises.empty()) return a;
  for (const auto& a : rubric.assignments)
    if (a.lab == lab) return a;
  return rubric.assignments.front();
}

}  // namespace tutor::grade
