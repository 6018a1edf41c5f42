// tutor grade against the committed H200 records and against known-bad records made from them
// here: each bad record must fail for its own reason (or be refused as bad input).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "grade/grade_command.hpp"
#include "grade/gradebook.hpp"
#include "grade/grader.hpp"
#include "grade/lab_run.hpp"
#include "grade/rubric.hpp"
#include "tutor/input_file.hpp"

namespace tutor::grade {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSource = TUTOR_SOURCE_DIR;
const std::string kRubrics = kSource + "/data/rubrics";
const std::string kA02 = kSource + "/docs/results/H200/a02_coalescing/a02_transpose.json";
const std::string kA07 = kSource + "/docs/results/H200/a07_tiled_gemm/a07_sgemm.json";
// The grader's own behaviour is tested against a fixed copy of A02's first rubric (assignments
// "exercise": step exercise against padded32; "ladder"), not the shipped one others extend.
const std::string kA02Rubric = std::string(TUTOR_SOURCE_DIR) + "/common/tools/tutor/tests/fixtures/a02_rubric.json";

json load(const std::string& path) { return read_record(path); }

Rubric rubric_of(const std::string& module) { return find_rubric(kRubrics, module, "--rubrics"); }

/// Grades against the fixed A02 rubric (module "A02") or the shipped rubric of another module.
Grade grade_as(const json& record, const std::string& module, const std::string& assignment) {
  const Rubric r = module == "A02" ? load_rubric(kA02Rubric) : rubric_of(module);
  return grade_record(record, r, choose_assignment(r, "", assignment));
}

/// The check of that name, or a failure naming the checks there are.
const Check& check_named(const Grade& g, const std::string& name) {
  for (const auto& c : g.checks)
    if (c.name == name) return c;
  static const Check none{"(absent)", true, ""};
  ADD_FAILURE() << "no check named " << name;
  return none;
}

/// A fresh temporary folder, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "tutor-grade-test-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

json& variant(json& record, const std::string& name) {
  for (auto& v : record["variants"])
    if (v["name"] == name) return v;
  throw std::runtime_error("no variant " + name);
}

/// A02's record with an exercise row: padded32's measurements under the exercise's name and
/// role, as the lab writes them for `--variant exercise --variant padded32` (same kernel, so
/// the same time: speed_vs = 1).
json a02_exercise_record() {
  json r = load(kA02);
  json ex = variant(r, "padded32");
  ex["name"] = "exercise";
  ex["role"] = "exercise";
  ex["number"] = 0;
  r["variants"].push_back(ex);
  return r;
}

// ---- rubrics

TEST(Rubrics, EveryShippedRubricLoads) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(kRubrics))
    if (e.path().extension() == ".json") {
      EXPECT_NO_THROW(load_rubric(e.path().string())) << e.path();
      ++n;
    }
  EXPECT_GE(n, 5u);
}

TEST(Rubrics, MistakesAreRefusedWithTheKey) {
  const json good = json::parse(std::ifstream(kRubrics + "/a02_coalescing.json"));
  auto refused = [&](json bad, const std::string& key) {
    try {
      parse_rubric(bad, "r.json");
      ADD_FAILURE() << "accepted a rubric that should fail at " << key;
    } catch (const InputError& e) {
      EXPECT_EQ(e.key(), key) << e.what();
    }
  };
  json r = good;
  r["assignments"][0]["correctness_points"] = 70;  // 70 + 40 = 110
  refused(r, "assignments/0");
  r = good;
  r["assignments"][0]["thresholds"][0]["zero_at"] = 0.95;  // above full_at 0.9
  refused(r, "assignments/0/thresholds/0/zero_at");
  r = good;
  r["assignments"][0]["thresholds"][0]["measure"] = "gflops";
  refused(r, "assignments/0/thresholds/0/measure");
  r = good;
  r["assignments"][1]["name"] = r["assignments"][0]["name"];
  refused(r, "assignments/1/name");
  r = good;
  r["assignments"][0]["run"]["args"].push_back("--json");
  refused(r, "assignments/0/run/args");
  r = good;
  r["rubric_version"] = 2;
  refused(r, "rubric_version");
  r = good;
  r["assignments"][0].erase("ceiling");
  refused(r, "assignments/0/ceiling");
}

/// The help text of a built executable ("" when it is not built in this configure).
std::string help_of(const std::string& exe) {
  if (!fs::exists(exe)) return "";
  std::string text;
  if (FILE* p = popen(("'" + exe + "' --help 2>&1").c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
    pclose(p);
  }
  return text;
}

/// The line of `help` that declares `option` ("  --rows N  rows of ... [1..65536; default 16384]"), or "".
std::string option_line(const std::string& help, const std::string& option) {
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find(option);
    if (at == std::string::npos || at + option.size() > line.size()) continue;
    const char before = at == 0 ? ' ' : line[at - 1];
    const char after = at + option.size() == line.size() ? ' ' : line[at + option.size()];
    if ((before == ' ' || before == ',') && (after == ' ' || after == ',' || after == '=')) return line;
  }
  return "";
}

TEST(Rubrics, RunSectionsNameOnlyOptionsTheLabHasWithinItsRanges) {
  std::size_t checked = 0;
  for (const auto& e : fs::directory_iterator(kRubrics)) {
    if (e.path().extension() != ".json") continue;
    const Rubric rubric = load_rubric(e.path().string());
    for (const auto& a : rubric.assignments) {
      if (!a.run) continue;
      const std::string help = help_of(std::string(TUTOR_BINARY_DIR) + "/" + a.lab);
      if (help.empty()) continue;  // the lab is not built in this configure
      ++checked;
      const std::string where = e.path().filename().string() + " " + a.name + ": ";
      for (const auto& arg : a.run->args) {
        if (arg.rfind("--", 0) == 0) {
          EXPECT_NE(option_line(help, arg), "") << where << a.lab << " has no " << arg;
        }
      }
      if (!a.run->seed_option.empty()) {
        EXPECT_NE(option_line(help, a.run->seed_option), "") << where << a.lab << " has no " << a.run->seed_option;
      }
      for (const auto& d : a.run->draw) {
        const std::string line = option_line(help, d.option);
        EXPECT_NE(line, "") << where << a.lab << " has no " << d.option;
        // CLI11 prints an integer range as [lo..hi]; the draws must stay inside it.
        static const std::regex range(R"(\[(-?[0-9]+)\.\.(-?[0-9]+)[;\]])");
        std::smatch m;
        if (!std::regex_search(line, m, range)) continue;
        const long long lo = std::stoll(m[1].str()), hi = std::stoll(m[2].str());
        EXPECT_GE(d.min, lo) << where << d.option << " draws below " << lo;
        EXPECT_LE(d.max, hi) << where << d.option << " draws above " << hi;
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "no lab of a rubric's run section is built in this configure";
}

TEST(Rubrics, HostExerciseSolutionsPassAndStubsFail) {
  // Each host exercise's checker, built against the worked solution and against the stub, writes
  // its record; the module's rubric passes the first and fails the second on its cases.
  TempDir dir;
  std::size_t checked = 0;
  for (const auto& e : fs::directory_iterator(kRubrics)) {
    if (e.path().extension() != ".json") continue;
    const Rubric rubric = load_rubric(e.path().string());
    for (const auto& a : rubric.assignments) {
      if (a.record != RecordType::exercise) continue;
      for (const std::string suffix : {"_solution", ""}) {
        const std::string exe = std::string(TUTOR_BINARY_DIR) + "/" + a.lab + suffix;
        if (!fs::exists(exe)) continue;  // not built in this configure
        const std::string out = (dir.path / (a.lab + suffix + ".json")).string();
        const int rc = std::system(("'" + exe + "' --json '" + out + "' > /dev/null 2>&1").c_str());
        ASSERT_TRUE(WIFEXITED(rc)) << exe;
        EXPECT_EQ(WEXITSTATUS(rc), suffix.empty() ? 1 : 0) << exe;
        const json record = read_record(out);
        const Grade g = grade_record(record, rubric, choose_assignment(rubric, a.lab, a.name));
        if (suffix.empty()) {
          EXPECT_FALSE(g.passed) << exe;
          EXPECT_FALSE(check_named(g, "every case passed").passed) << exe << ": " << g.reason;
          EXPECT_TRUE(check_named(g, "counts agree with the cases").passed) << exe;
        } else {
          EXPECT_TRUE(g.passed) << exe << ": " << g.reason;
        }
        ++checked;
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "no host exercise checker is built in this configure";
}

TEST(Rubrics, CreditIsLinearBetweenZeroAndFull) {
  Threshold t;
  t.zero_at = 0.5;
  t.full_at = 0.9;
  EXPECT_EQ(credit(0.4, t), 0.0);
  EXPECT_EQ(credit(0.5, t), 0.0);
  EXPECT_DOUBLE_EQ(credit(0.7, t), 0.5);  // halfway: (0.7 - 0.5) / (0.9 - 0.5)
  EXPECT_EQ(credit(0.9, t), 1.0);
  EXPECT_EQ(credit(3.0, t), 1.0);  // faster than the solution earns no more than full marks
  EXPECT_EQ(credit(std::nan(""), t), 0.0);
}

// ---- the committed H200 records

/// Which assignment each committed single-run or sweep record is graded under: the lab records
/// are not exercise submissions. A committed record of schema 1 with a rubric for its module
/// must be listed here (the next test fails otherwise).
const std::map<std::string, std::string> kCommittedAssignments = {
    {"a01_foundations/a01_vector_add.json", "sweep"},
    {"a02_coalescing/a02_transpose.json", "ladder"},
    {"a03_reduction/a03_reduction.json", "ladder"},
    {"a04_scan/a04_scan.json", "ladder"},
    {"a04_scan/a04_scan_int32_exclusive.json", "ladder"},
    {"a05_atomics/a05_histogram.json", "ladder"},
    {"a05_atomics/a05_histogram_zipf.json", "ladder"},
    {"a05_atomics/a05_histogram_f32.json", "ladder"},
    {"a05_atomics/a05_histogram_sweep.json", "ladder"},  // every point of the sweep graded as a ladder
    {"a07_tiled_gemm/a07_sgemm.json", "ladder"},
    {"a11_softmax/a11_softmax.json", "ladder"},
    {"a11_softmax/a11_softmax_bf16.json", "ladder"},
    {"a11_softmax/a11_softmax_sweep_fp32.json", "ladder"},  // every point of the sweep graded as a ladder
    {"a11_softmax/a11_softmax_sweep_bf16.json", "ladder"},
    {"a12_rope_rmsnorm/a12_rope_rmsnorm.json", "ladder"},
    {"a12_rope_rmsnorm/a12_rope_rmsnorm_interleaved.json", "ladder"},
    {"a07_tiled_gemm/a07_sgemm_sizes.json", "sizes"},
    {"b01_architecture/b01_device_info.json", "device_report"},  // once re-run with the schema
    {"b02_roofline/b02_roofline.json", "sweep"},
    {"b03_profiling/b03_mystery.json", "diagnose"},
};

// Records of a graded lab that no assignment covers, on purpose: B03's kernel 6 alone at four
// fixed seeds, the planted race's evidence (seeds 3 and 6 fail verification by design).
const std::set<std::string> kUngradedRecords = {
    "b03_profiling/b03_mystery_kernel6_seed1.json",
    "b03_profiling/b03_mystery_kernel6_seed3.json",
    "b03_profiling/b03_mystery_kernel6_seed4.json",
    "b03_profiling/b03_mystery_kernel6_seed6.json",
};

TEST(CommittedRecords, EveryRecordARubricCoversPassesIt) {
  const fs::path root = kSource + "/docs/results/H200";
  std::size_t graded = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".json") continue;
    const std::string rel = fs::relative(e.path(), root).string();
    const json record = load(e.path().string());
    const std::string module = record.value("module", "");
    if (module.empty()) continue;
    std::optional<Rubric> rubric;
    try {
      rubric = rubric_of(module);
    } catch (const UsageError&) {
      continue;  // no rubric for this module (common's baselines)
    }
    bool has_lab = false;
    for (const auto& a : rubric->assignments) has_lab = has_lab || a.lab == record.value("lab", "");
    if (!has_lab) continue;  // a tool the rubric does not grade (a07_sass_banks, a kind: model)
    if (kUngradedRecords.count(rel)) continue;
    const std::string name = e.path().filename().string();
    std::string assignment;
    if (auto it = kCommittedAssignments.find(rel); it != kCommittedAssignments.end()) assignment = it->second;
    const Grade g = grade_record(record, *rubric,
                                 choose_assignment(*rubric, record.value("lab", ""), assignment, variant_names(record)),
                                 e.path().parent_path().string());  // with its CSV and plot
    if (!record.contains("schema_version")) {
      // Written before the record schema: refused for that reason, whatever else it holds.
      EXPECT_FALSE(g.passed) << rel;
      EXPECT_FALSE(check_named(g, "schema_version").passed) << rel;
      continue;
    }
    if (name.rfind("exercises_", 0) == 0 && name.find("stub") != std::string::npos) {
      // A stub's record: the exercise row is there and fails verification.
      EXPECT_FALSE(g.passed) << rel;
      EXPECT_NE(g.reason.find("not verified"), std::string::npos) << rel << ": " << g.reason;
      continue;
    }
    if (name.rfind("exercises_", 0) != 0) {
      EXPECT_TRUE(kCommittedAssignments.count(rel)) << rel << ": add it to kCommittedAssignments";
    }
    EXPECT_TRUE(g.passed) << rel << " (assignment " << g.assignment << "): " << g.reason;
    ++graded;
  }
  EXPECT_GE(graded, 5u);
  for (const auto& [rel, assignment] : kCommittedAssignments)
    EXPECT_TRUE(fs::exists(root / rel)) << rel << " is listed but not committed";
  for (const auto& rel : kUngradedRecords) EXPECT_TRUE(fs::exists(root / rel)) << rel << " is listed but not committed";
}

TEST(CommittedRecords, RecordWithoutSchemaVersionIsRefusedForIt) {
  json r = load(kA02);
  r.erase("schema_version");  // as B01's record of version 1f9f343, written before the schema
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(g.passed);
  EXPECT_EQ(g.reason, "schema_version: missing: a record written before the record schema; run the lab again");
}

TEST(CommittedRecords, HonestRoundingToFourDigitsStillPasses) {
  json r = load(kA02);
  // Every floating-point number to 4 significant digits, as a hand-written summary would be.
  std::function<void(json&)> round4 = [&](json& j) {
    if (j.is_number_float()) {
      const double v = j.get<double>();
      if (v != 0) {
        const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::abs(v))));
        j = std::round(v * scale) / scale;
      }
    } else if (j.is_structured()) {
      for (auto& x : j) round4(x);
    }
  };
  round4(r);
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_TRUE(g.passed) << g.reason;
}

TEST(CommittedRecords, WorkedSolutionBuildIsNoted) {
  json r = a02_exercise_record();
  r["variants"].back()["params"] = "worked solution from exercises/solutions/";
  const Grade g = grade_as(r, "A02", "exercise");
  EXPECT_TRUE(g.passed) << g.reason;  // the lead's H200 solution records pass, and say what ran
  ASSERT_EQ(g.warnings.size(), 1u);
  EXPECT_NE(g.warnings[0].find("ran the worked solution"), std::string::npos);
}

TEST(CommittedRecords, ExerciseAsFastAsTheSolutionEarnsFullMarks) {
  const Grade g = grade_as(a02_exercise_record(), "A02", "exercise");
  EXPECT_TRUE(g.passed) << g.reason;
  ASSERT_EQ(g.thresholds.size(), 1u);
  EXPECT_DOUBLE_EQ(g.thresholds[0].ratio, 1.0);
  EXPECT_DOUBLE_EQ(g.score, 100.0);
}

// ---- known-bad records, each made from a good one

TEST(KnownBad, UnverifiedStep) {
  json r = load(kA02);
  json& v = variant(r, "tile32");
  v["verified"] = false;
  v["checks"][1]["passed"] = false;
  v["checks"][1]["reason"] = "3 of 1023 elements differ; first at index 5";
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(g.passed);
  EXPECT_FALSE(check_named(g, "step tile32").passed);
  EXPECT_NE(check_named(g, "step tile32").detail.find("3 of 1023 elements differ"), std::string::npos);
  EXPECT_FALSE(check_named(g, "every variant verified").passed);
  EXPECT_TRUE(check_named(g, "verdicts agree with the errors").passed);  // honest: it says it failed
  EXPECT_EQ(g.score, 0.0);
}

TEST(KnownBad, VerifiedDespiteAFailedCheck) {
  json r = load(kA02);
  variant(r, "tile32")["checks"][1]["passed"] = false;  // verified stays true
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(g.passed);
  EXPECT_NE(check_named(g, "verdicts agree with the errors").detail.find("verified, but a check of it failed"),
            std::string::npos);
}

TEST(KnownBad, ErrorAboveItsToleranceMarkedPassed) {
  json r = load(kA02);
  variant(r, "padded32")["checks"][2]["rel_l2"] = 0.5;  // tolerance 0 (a transpose is exact)
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(g.passed);
  EXPECT_NE(check_named(g, "verdicts agree with the errors").detail.find("exceeds its tolerance"), std::string::npos);
}

TEST(KnownBad, NaNErrorWrittenAsNull) {
  json r = load(kA02);
  json& v = variant(r, "padded32");
  v["checks"][0]["rel_l2"] = nullptr;  // nlohmann writes NaN as null
  v["rel_err"] = nullptr;
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(g.passed);
  const Check& c = check_named(g, "verdicts agree with the errors");
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.find("null"), std::string::npos) << c.detail;
}

TEST(KnownBad, NaNErrorAsALiteralIsNotJson) {
  TempDir dir;
  std::string text = load(kA02).dump();
  const auto at = text.find("\"rel_err\":0.0");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 13, "\"rel_err\":NaN");
  const std::string path = dir.write("nan.json", text);
  EXPECT_THROW(read_record(path), InputError);
}

TEST(Rubrics, AssignmentFollowsTheExerciseRowsTheRecordHolds) {
  const Rubric r = parse_rubric(json::parse(R"({"rubric_version": 1, "module": "A02", "title": "t", "assignments": [
    {"name": "ladder", "about": "a", "record": "lab", "lab": "a02_transpose", "required_steps": [], "exercises": [],
     "ceiling": "copy", "thresholds": [], "correctness_points": 100, "pass_score": 100},
    {"name": "tile", "about": "a", "record": "lab", "lab": "a02_transpose", "required_steps": [],
     "exercises": [{"step": "exercise", "solution": "padded32"}], "ceiling": "copy", "thresholds": [],
     "correctness_points": 100, "pass_score": 100},
    {"name": "ilp4", "about": "a", "record": "lab", "lab": "a02_transpose", "required_steps": [],
     "exercises": [{"step": "exercise_ilp4", "solution": "padded32_ilp4"}], "ceiling": "copy", "thresholds": [],
     "correctness_points": 100, "pass_score": 100}]})"), "r.json");
  EXPECT_EQ(choose_assignment(r, "a02_transpose", "", {"exercise_ilp4", "padded32_ilp4"}).name, "ilp4");
  EXPECT_EQ(choose_assignment(r, "a02_transpose", "", {"exercise", "padded32"}).name, "tile");
  EXPECT_EQ(choose_assignment(r, "a02_transpose", "", {"padded32"}).name, "ladder");  // no exercise row: the first
  EXPECT_EQ(choose_assignment(r, "a02_transpose", "ilp4", {"exercise"}).name, "ilp4");  // named: as named
  EXPECT_EQ(variant_names(a02_exercise_record()).count("exercise"), 1u);
}

TEST(KnownBad, MissingExercise) {
  json r = a02_exercise_record();
  r["variants"].erase(r["variants"].size() - 1);
  const Grade g = grade_as(r, "A02", "exercise");
  EXPECT_FALSE(g.passed);
  EXPECT_EQ(g.reason.rfind("exercise exercise: missing", 0), 0u) << g.reason;
}

TEST(KnownBad, ExerciseRowThatIsNotAnExercise) {
  json r = a02_exercise_record();
  r["variants"].back()["role"] = "ladder";
  const Grade g = grade_as(r, "A02", "exercise");
  EXPECT_FALSE(g.passed);
  EXPECT_NE(g.reason.find("not exercise"), std::string::npos) << g.reason;
}

TEST(KnownBad, StubExerciseFailsVerification) {
  json r = a02_exercise_record();
  json& ex = r["variants"].back();
  ex["verified"] = false;
  ex["checks"] = json::array({{{"shape", "1x1"}, {"passed", false}, {"rel_l2", nullptr}, {"tolerance", 0.0},
                               {"nonfinite", 1}, {"reason", "1 of 1 elements are NaN/Inf (unwritten or overflowed)"}}});
  for (const char* k : {"time_ms", "GBps", "TFLOPs", "fraction_of_ceiling"}) ex[k] = nullptr;
  ex["timed"] = false;
  const Grade g = grade_as(r, "A02", "exercise");
  EXPECT_FALSE(g.passed);
  EXPECT_NE(g.reason.find("not verified at 1x1: 1 of 1 elements are NaN/Inf"), std::string::npos) << g.reason;
  EXPECT_FALSE(g.thresholds[0].measured);
}

TEST(KnownBad, StepRenamed) {
  json r = load(kA02);
  variant(r, "tile32")["name"] = "tile_32";
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(g.passed);
  EXPECT_EQ(g.reason.rfind("step tile32: missing", 0), 0u) << g.reason;
}

TEST(KnownBad, DuplicatedStep) {
  json r = load(kA02);
  r["variants"].push_back(variant(r, "tile64_vec4"));
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(check_named(g, "variant names unique").passed);
}

TEST(KnownBad, GBpsEditedWithoutTheTime) {
  json r = load(kA02);
  json& v = variant(r, "padded32");
  v["GBps"] = v["GBps"].get<double>() * 1.5;
  v["fraction_of_ceiling"] = v["fraction_of_ceiling"].get<double>() * 1.5;
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(g.passed);
  const Check& c = check_named(g, "rates agree with bytes, FLOPs and time");
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.find("padded32: GBps"), std::string::npos) << c.detail;
  EXPECT_NE(c.detail.find("+50.00%"), std::string::npos) << c.detail;
}

TEST(KnownBad, TimeEditedWithoutTheRates) {
  json r = load(kA02);
  variant(r, "padded32")["time_ms"]["median"] = 0.6;  // min 1.202 > median: also out of order
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(check_named(g, "rates agree with bytes, FLOPs and time").passed);
  EXPECT_FALSE(check_named(g, "timings").passed);
}

TEST(KnownBad, FractionEditedAlone) {
  json r = load(kA02);
  variant(r, "tile64_vec4")["fraction_of_ceiling"] = 0.99;
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(check_named(g, "ceiling and fractions agree").passed);
}

TEST(KnownBad, CeilingLoweredToRaiseEveryFraction) {
  json r = load(kA02);
  r["ceiling"]["value"] = 3000.0;  // the device's measured copy stays 4229 GB/s
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(check_named(g, "ceiling and fractions agree").passed);
}

TEST(KnownBad, TooFewRepetitions) {
  json r = load(kA02);
  variant(r, "padded32")["time_ms"]["n"] = 1;
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_NE(check_named(g, "timings").detail.find("at least 10"), std::string::npos);
}

TEST(KnownBad, RecordFromAnotherLab) {
  const Rubric a02 = load_rubric(kA02Rubric);
  const json r = load(kA07);
  const Grade g = grade_record(r, a02, choose_assignment(a02, r.value("lab", ""), ""));
  EXPECT_FALSE(g.passed);
  EXPECT_EQ(g.reason, "lab: the record is from 'a07_sgemm'; assignment 'exercise' grades a02_transpose");
  EXPECT_FALSE(check_named(g, "module").passed);
}

TEST(KnownBad, TruncatedFile) {
  TempDir dir;
  const std::string text = load(kA02).dump(1);
  const std::string path = dir.write("truncated.json", text.substr(0, text.size() / 2));
  try {
    read_record(path);
    FAIL() << "a truncated record was read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

TEST(KnownBad, OneGigabyteFileIsRefusedUnread) {
  TempDir dir;
  const std::string path = (dir.path / "huge.json").string();
  ASSERT_EQ(truncate(dir.write("huge.json", "{").c_str(), off_t(1) << 30), 0);  // sparse: no disk used
  try {
    read_record(path);
    FAIL() << "a 1 GiB record was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("16 MiB"), std::string::npos) << e.what();
  }
}

TEST(KnownBad, VersionThatIsNotAString) {
  json r = load(kA02);
  r["version"] = 545;
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_FALSE(g.passed);
  EXPECT_EQ(g.reason, "version: must be a non-empty string (git describe), got the number 545");
}

TEST(KnownBad, SchemaVersionFromTheFuture) {
  json r = load(kA02);
  r["schema_version"] = 2;
  EXPECT_FALSE(check_named(grade_as(r, "A02", "ladder"), "schema_version").passed);
}

TEST(KnownBad, NoDevice) {
  json r = load(kA02);
  r.erase("device");
  EXPECT_FALSE(check_named(grade_as(r, "A02", "ladder"), "device").passed);
}

TEST(KnownBad, CsvBesideTheRecordFromAnotherRun) {
  TempDir dir;
  const std::string a01 = kSource + "/docs/results/H200/a01_foundations/";
  fs::copy_file(a01 + "a01_vector_add.json", dir.path / "a01_vector_add.json");
  fs::copy_file(a01 + "a01_vector_add.svg", dir.path / "a01_vector_add.svg");
  const std::string record = (dir.path / "a01_vector_add.json").string();
  RubricSource source;
  source.folder = kRubrics;
  source.assignment = "sweep";
  Grade g = grade_file(record, source);  // the plot is there and matches; the CSV is not handed in
  EXPECT_TRUE(g.passed) << g.reason;
  EXPECT_EQ(check_named(g, "outputs match the record").detail, "a01_vector_add.svg: SHA-256 as recorded");
  dir.write("a01_vector_add.csv", "n,GBps\n268435456,4800\n");  // a CSV edited (or of another run)
  g = grade_file(record, source);
  EXPECT_FALSE(g.passed);
  EXPECT_NE(g.reason.find("a01_vector_add.csv beside the record is not the one this run wrote"), std::string::npos)
      << g.reason;
}

TEST(CommittedRecords, ThrottledRunIsNotedNotGraded) {
  const json r = load(kSource + "/docs/results/H200/a07_tiled_gemm/a07_sgemm_sizes.json");  // sw_power_cap at the end
  const Grade g = grade_as(r, "A07", "sizes");
  EXPECT_TRUE(g.passed) << g.reason;
  ASSERT_EQ(g.warnings.size(), 1u);
  EXPECT_NE(g.warnings[0].find("sw_power_cap"), std::string::npos);
}

TEST(KnownBad, ModelOutputIsNotAMeasurement) {
  json r = load(kA02);
  r["kind"] = "model";  // --model's floors, presented as a run
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_EQ(g.reason, "kind: must be 'measurement', got 'model'");
}

TEST(KnownBad, RequiredStepSkippedOnThisGpu) {
  json r = load(kA02);
  json& v = variant(r, "tile64_vec4");
  v["skipped"] = "needs sm_90; this GPU is sm_75";
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_EQ(g.reason, "step tile64_vec4: skipped: needs sm_90; this GPU is sm_75");
}

TEST(KnownBad, TopLevelThatIsNotAnObject) {
  TempDir dir;
  EXPECT_THROW(read_record(dir.write("list.json", "[1, 2]")), InputError);
}

// ---- thresholds

TEST(Thresholds, SlowerStepEarnsPartialCreditLinearly) {
  json r = load(kA02);
  json& v = variant(r, "tile64_vec4");
  // Halfway between zero_at 0.5 and full_at 0.85: a fraction of 0.675, consistent everywhere.
  const double ceiling = r["ceiling"]["value"].get<double>();
  const double GBps = 0.675 * ceiling;
  const double median = v["bytes"].get<double>() / GBps / 1e6;
  v["time_ms"] = {{"min", median}, {"p10", median}, {"median", median}, {"p90", median}, {"max", median},
                  {"mean", median}, {"n", 50}};
  v["GBps"] = GBps;
  v["fraction_of_ceiling"] = 0.675;
  const Grade g = grade_as(r, "A02", "ladder");
  EXPECT_TRUE(g.passed) << g.reason;
  EXPECT_NEAR(g.thresholds[0].earned, 10.0, 1e-6);  // half of 20
  EXPECT_NEAR(g.score, 90.0, 1e-6);
}

TEST(Thresholds, BelowThePassScoreFails) {
  json r = a02_exercise_record();
  json& ex = r["variants"].back();
  // Twice as slow as the solution: speed 0.5 = zero_at, no threshold points; 60 passes at 60.
  for (auto& [k, t] : ex["time_ms"].items())
    if (k != "n") t = t.get<double>() * 2;
  ex["GBps"] = ex["GBps"].get<double>() / 2;
  ex["fraction_of_ceiling"] = ex["fraction_of_ceiling"].get<double>() / 2;
  Grade g = grade_as(r, "A02", "exercise");
  EXPECT_NEAR(g.score, 60.0, 1e-6);
  EXPECT_TRUE(g.passed) << g.reason;
  Rubric strict = load_rubric(kA02Rubric);
  strict.assignments[0].pass_score = 80;
  g = grade_record(r, strict, strict.assignments[0]);
  EXPECT_FALSE(g.passed);
  EXPECT_EQ(g.reason, "score 60.0 is below the pass score 80");
}

// ---- exercise records of host exercises

Rubric exercise_rubric() {
  return parse_rubric(json::parse(R"({
    "rubric_version": 1, "module": "B05", "title": "t",
    "assignments": [{"name": "kv", "about": "a", "record": "exercise", "lab": "b05_exercise_kv",
                     "exercise": "kv", "min_cases": 3, "required_cases": ["gqa"], "case_tolerance": 1e-9,
                     "correctness_points": 100, "pass_score": 100}]})"),
                      "kv.json");
}

json exercise_record() {
  return json::parse(R"({"schema_version": 1, "lab": "b05_exercise_kv", "module": "B05", "kind": "exercise",
    "version": "abc1234", "timestamp": "2026-12-02T00:00:00Z", "command": "x", "exercise": "kv",
    "cases": [{"name": "mha", "expected": 524288, "got": 524288, "passed": true},
              {"name": "gqa", "expected": 131072.5, "got": 131072.50000000001, "passed": true},
              {"name": "parts", "expected": {"attention": 4, "mlp": 8}, "got": {"attention": 4, "mlp": 8}, "passed": true}],
    "passed": 3, "failed": 0, "verified": true})");
}

Grade grade_exercise(const json& r) {
  const Rubric rubric = exercise_rubric();
  return grade_record(r, rubric, rubric.assignments[0]);
}

TEST(ExerciseRecords, AllCasesPassedPasses) {
  const Grade g = grade_exercise(exercise_record());
  EXPECT_TRUE(g.passed) << g.reason;
  EXPECT_EQ(g.score, 100.0);
}

TEST(ExerciseRecords, StubFailsWithItsMessage) {
  json r = exercise_record();
  r["cases"][1]["got"] = "not implemented yet: kv_bytes_per_token for grouped-query attention";
  r["cases"][1]["passed"] = false;
  r["passed"] = 2;
  r["failed"] = 1;
  r["verified"] = false;
  const Grade g = grade_exercise(r);
  EXPECT_FALSE(g.passed);
  EXPECT_NE(g.reason.find("not implemented yet"), std::string::npos) << g.reason;
  EXPECT_TRUE(check_named(g, "counts agree with the cases").passed);
}

TEST(ExerciseRecords, CaseMarkedPassedWithAWrongValueIsTampered) {
  json r = exercise_record();
  r["cases"][0]["got"] = 262144;  // MHA counted as if it were GQA, still "passed"
  EXPECT_FALSE(check_named(grade_exercise(r), "verdicts agree with the values").passed);
  r = exercise_record();
  r["cases"][2]["got"]["mlp"] = 9;
  EXPECT_FALSE(check_named(grade_exercise(r), "verdicts agree with the values").passed);
}

TEST(ExerciseRecords, CountsThatDisagreeAreTampered) {
  json r = exercise_record();
  r["cases"][1]["passed"] = false;  // the totals still say 3 passed
  EXPECT_FALSE(check_named(grade_exercise(r), "counts agree with the cases").passed);
}

TEST(ExerciseRecords, TrimmedToItsEasyCases) {
  json r = exercise_record();
  r["cases"].erase(1);  // gqa gone: fewer than min_cases and a required case missing
  r["passed"] = 2;
  const Grade g = grade_exercise(r);
  EXPECT_FALSE(check_named(g, "cases").passed);
  EXPECT_EQ(check_named(g, "required cases").detail, "missing: gqa");
}

TEST(ExerciseRecords, WrongExerciseOrKind) {
  json r = exercise_record();
  r["exercise"] = "bubble";
  r["kind"] = "measurement";
  const Grade g = grade_exercise(r);
  EXPECT_FALSE(check_named(g, "exercise").passed);
  EXPECT_FALSE(check_named(g, "kind").passed);
}

// ---- the gradebook

TEST(Gradebook, GoodBadAndBrokenRecordsEachGetTheirRow) {
  TempDir dir;
  const json good = load(kA02);
  json bad = good;
  variant(bad, "tile32")["name"] = "tile_32";
  json tampered = good;
  variant(tampered, "padded32")["GBps"] = 9999.0;
  json alien = good;
  alien["module"] = "Z99";
  dir.write("ada.json", good.dump());
  dir.write("bob.json", bad.dump());
  dir.write("cy.json", good.dump().substr(0, 200));
  dir.write("dee.json", tampered.dump());
  dir.write("=eve.json", alien.dump());
  ASSERT_EQ(truncate(dir.write("fay.json", "{").c_str(), off_t(1) << 30), 0);
  dir.write("notes.txt", "not a record");
  RubricSource source;
  source.folder = kRubrics;
  source.assignment = "ladder";
  const auto rows = grade_folder(dir.path.string(), source);
  ASSERT_EQ(rows.size(), 6u);  // notes.txt is not a record
  EXPECT_EQ(rows[0].learner, "=eve");  // '=' sorts before letters
  EXPECT_EQ(rows[0].result, "error");
  EXPECT_NE(rows[0].reason.find("no rubric in"), std::string::npos) << rows[0].reason;
  EXPECT_EQ(rows[1].learner, "ada");
  EXPECT_EQ(rows[1].result, "pass");
  EXPECT_EQ(rows[1].score, 100.0);
  EXPECT_EQ(rows[2].result, "fail");
  EXPECT_EQ(rows[2].reason.rfind("step tile32: missing", 0), 0u) << rows[2].reason;
  EXPECT_EQ(rows[2].score, 0.0);
  EXPECT_EQ(rows[3].result, "error");  // truncated
  EXPECT_FALSE(rows[3].score.has_value());
  EXPECT_EQ(rows[4].result, "fail");
  EXPECT_NE(rows[4].reason.find("tampered: padded32: GBps"), std::string::npos) << rows[4].reason;
  EXPECT_EQ(rows[5].result, "error");  // 1 GiB
  EXPECT_NE(rows[5].reason.find("16 MiB"), std::string::npos) << rows[5].reason;

  const GradebookSummary s = summarize(rows);
  EXPECT_EQ(s.records, 6u);
  EXPECT_EQ(s.passed, 1u);
  EXPECT_EQ(s.failed, 2u);
  EXPECT_EQ(s.errors, 3u);
  EXPECT_NEAR(s.mean_score, 100.0 / 3, 1e-9);  // over the three graded: 100, 0, 0

  const std::string csv = gradebook_csv(rows);
  std::istringstream lines(csv);
  std::string header, first, second;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(header, "learner,file,source,module,lab,assignment,score,result,reason");
  EXPECT_EQ(first.rfind("'=eve,'=eve.json,record,,,,,error,", 0), 0u) << first;  // no formula for a spreadsheet
  EXPECT_EQ(second, "ada,ada.json,record,A02,a02_transpose,ladder,100.0,pass,");
}

// ---- --run

TEST(Run, DrawnOptionsAreInRangeAndFollowTheSeed) {
  RunSpec spec;
  spec.args = {"--variant", "exercise"};
  spec.draw = {{"--rows", 1000, 16384, 1}, {"--cols", 1000, 16384, 64}};
  spec.seed_option = "--seed";
  const LabInvocation a = plan_run("lab", spec, 42), b = plan_run("lab", spec, 42), c = plan_run("lab", spec, 43);
  EXPECT_EQ(a.args, b.args);
  EXPECT_NE(a.args, c.args);
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const LabInvocation x = plan_run("lab", spec, seed);
    EXPECT_GE(x.drawn.at("--rows"), 1000);
    EXPECT_LE(x.drawn.at("--rows"), 16384);
    EXPECT_EQ(x.drawn.at("--cols") % 64, 0);
    EXPECT_GE(x.drawn.at("--cols"), 1024);  // the first multiple of 64 at or above 1000
  }
  ASSERT_EQ(a.args.size(), 8u);
  EXPECT_EQ(a.args[6], "--seed");
  EXPECT_EQ(a.args[7], "42");
}

TEST(Run, TheLabGetsItsArgumentsAndItsRecordIsRead) {
  TempDir dir;
  // A stand-in lab: writes its arguments and a record to --json, and exits 0.
  const std::string lab = dir.write("fake_lab", "#!/bin/sh\n"
                                                "echo \"$@\" > \"" + (dir.path / "args.txt").string() + "\"\n"
                                                "while [ $# -gt 1 ]; do [ \"$1\" = --json ] && out=$2; shift; done\n"
                                                "echo '{\"lab\": \"fake_lab\"}' > \"$out\"\n"
                                                "echo 'the table' \n");
  ASSERT_EQ(chmod(lab.c_str(), 0755), 0);
  RunSpec spec;
  spec.args = {"--variant", "exercise"};
  spec.seed_option = "--seed";
  const LabInvocation inv = plan_run(lab, spec, 7);
  const LabOutcome out = run_lab(inv, "fake_lab");
  EXPECT_EQ(out.exit_code, 0);
  ASSERT_TRUE(out.wrote_record);
  EXPECT_EQ(read_record(out.record_path).value("lab", ""), "fake_lab");
  std::ifstream args(dir.path / "args.txt");
  std::string line;
  std::getline(args, line);
  EXPECT_EQ(line, "--variant exercise --seed 7 --json " + out.record_path);
  remove_outcome(out);
  EXPECT_FALSE(fs::exists(out.folder));
}

/// Runs `tutor grade ARGS...` in-process; returns its exit code.
int tutor_grade(std::vector<std::string> args) {
  CLI::App app{"tutor", "tutor"};
  GradeCommand grade(app);
  args.insert(args.begin(), "grade");
  std::reverse(args.begin(), args.end());  // CLI11 parses a vector from its back
  app.parse(args);
  return grade.run("tutor grade");
}

TEST(Run, EachLearnersLabRunWithOneSeedIntoTheGradebook) {
  TempDir dir;
  const fs::path root = dir.path / "builds";
  // A learner's build, reduced to a stand-in lab that copies a record to --json, or exits 3.
  auto learner = [&](const std::string& name, const std::string& body) {
    fs::create_directories(root / name);
    const std::string lab = (root / name / "a02_transpose").string();
    std::ofstream(lab) << "#!/bin/sh\n"
                          "while [ $# -gt 1 ]; do [ \"$1\" = --json ] && out=$2; shift; done\n" << body;
    ASSERT_EQ(chmod(lab.c_str(), 0755), 0);
  };
  json bad = a02_exercise_record();
  bad["variants"].back()["verified"] = false;
  bad["variants"].back()["checks"][0]["passed"] = false;
  const std::string good_path = dir.write("good.json", a02_exercise_record().dump());
  const std::string bad_path = dir.write("bad.json", bad.dump());
  learner("ada", "cp '" + good_path + "' \"$out\"\n");
  learner("bob", "cp '" + bad_path + "' \"$out\"\n");
  learner("cy", "echo 'a02_transpose: no usable GPU' >&2; exit 3\n");
  fs::create_directories(root / "dee");  // nothing built
  const std::string csv = (dir.path / "grades.csv").string();
  EXPECT_EQ(tutor_grade({"--folder", root.string(), "--run", "A02", "--rubric", kA02Rubric, "--seed", "5",
                         "--gradebook", csv}),
            1);
  std::ifstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[1], "ada,ada/a02_transpose,\"run, seed 5\",A02,a02_transpose,exercise,100.0,pass,");
  EXPECT_EQ(lines[2].rfind("bob,bob/a02_transpose,\"run, seed 5\",A02,a02_transpose,exercise,0.0,fail,"
                           "exercise exercise: not verified", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3].rfind("cy,", 0), 0u);
  EXPECT_NE(lines[3].find(",error,a02_transpose found no usable GPU (its exit 3)"), std::string::npos) << lines[3];
  EXPECT_NE(lines[4].find(",error,a02_transpose is not built in"), std::string::npos) << lines[4];
}

TEST(Run, ALabThatCannotStartIsBadInput) {
  RunSpec spec;
  EXPECT_THROW(run_lab(plan_run("/nonexistent/lab", spec, 1), "lab"), UsageError);
}

}  // namespace
}  // namespace tutor::grade
