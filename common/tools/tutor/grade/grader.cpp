#include "grade/grader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "tutor/input_file.hpp"
#include "tutor/json_input.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"

namespace tutor::grade {
namespace {

using nlohmann::json;

bool finite(const json& j) { return j.is_number() && std::isfinite(j.get<double>()); }

/// The value at `key` of an object as a double, or NaN when absent, null or not a number.
double number_at(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !finite(j.at(key))) return std::nan("");
  return j.at(key).get<double>();
}

std::string text_at(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_string()) return "";
  return j.at(key).get<std::string>();
}

/// How a value reads in a message: its type and a short, printable rendering.
std::string shown(const json& v) {
  if (v.is_null()) return "null (NaN or Inf is written as null)";
  if (v.is_string()) return "the string \"" + printable(v.get<std::string>(), 40) + "\"";
  const char* type = v.is_boolean() ? "boolean" : v.is_number() ? "number" : v.is_array() ? "array" : "object";
  return fmt::format("the {} {}", type, printable(v.dump(), 40));
}

/// a and b agree within a relative tolerance (both zero agree).
bool close(double a, double b, double tol) {
  if (a == b) return true;
  return std::abs(a - b) <= tol * std::max(std::abs(a), std::abs(b));
}

std::string percent_off(double stored, double recomputed) {
  if (recomputed == 0) return "";
  return fmt::format(" ({:+.2f}%)", 100.0 * (stored - recomputed) / recomputed);
}

/// One run of a lab: the variants of a single run, or of one point of a sweep.
struct Run {
  std::string label;  ///< "" for a single run, "size=256" for a sweep point
  const json* variants = nullptr;
  const json* ceiling = nullptr;  ///< the run's "ceiling" object (may be null)
};

std::string where(const Run& run, const std::string& name) { return run.label.empty() ? name : run.label + ": " + name; }

const json* find_variant(const Run& run, const std::string& name) {
  for (const auto& v : *run.variants)
    if (v.is_object() && text_at(v, "name") == name) return &v;
  return nullptr;
}

/// The median time in ms of a timed variant, or NaN.
double median_ms(const json& v) {
  if (!v.contains("time_ms")) return std::nan("");
  return number_at(v.at("time_ms"), "median");
}

/// Rates recomputed from the record's own bytes, FLOPs and median time.
struct Rates {
  double GBps = std::nan(""), TFLOPs = std::nan("");
};
Rates recomputed_rates(const json& v) {
  const double ms = median_ms(v);
  if (!(ms > 0)) return {};
  const double s = ms * 1e-3;
  return {number_at(v, "bytes") / s / 1e9, number_at(v, "flops") / s / 1e12};
}

/// Where the first check of a variant that failed says why.
std::string failure_of(const json& v) {
  if (v.contains("checks") && v.at("checks").is_array())
    for (const auto& c : v.at("checks"))
      if (c.is_object() && c.value("passed", true) == false) {
        std::string reason = text_at(c, "reason");
        return fmt::format("at {}: {}", printable(text_at(c, "shape"), 40),
                           reason.empty() ? "failed" : printable(reason, 120));
      }
  return "verified is false";
}

/// The ceiling an assignment measures fractions against, in one run.
struct CeilingValue {
  bool known = false;
  double value = 0;
  bool by_bytes = true;  ///< GB/s (else TFLOP/s)
  std::string problem;   ///< why it is not known
};

class Grading {
 public:
  Grading(const json& record, const Rubric& rubric, const Assignment& a, std::string record_dir)
      : r_(record), rubric_(rubric), a_(a), record_dir_(std::move(record_dir)) {
    g_.rubric_path = rubric.path;
    g_.module = rubric.module;
    g_.assignment = a.name;
    g_.lab = text_at(record, "lab");
    g_.pass_score = a.pass_score;
  }

  Grade run() {
    head();
    if (a_.record == RecordType::lab)
      lab();
    else
      exercise();
    finish();
    return g_;
  }

 private:
  void check(const std::string& name, bool ok, const std::string& detail) { g_.checks.push_back({name, ok, detail}); }

  void head() {
    const json& sv = r_.contains("schema_version") ? r_.at("schema_version") : json();
    if (sv.is_null())
      check("schema_version", false, "missing: a record written before the record schema; run the lab again");
    else
      check("schema_version", sv.is_number_integer() && sv.get<std::int64_t>() == kRecordSchemaVersion,
            sv.is_number_integer() && sv.get<std::int64_t>() == kRecordSchemaVersion
                ? std::to_string(kRecordSchemaVersion)
                : fmt::format("must be {}, got {}", kRecordSchemaVersion, shown(sv)));
    const json& version = r_.contains("version") ? r_.at("version") : json();
    const bool version_ok = version.is_string() && !version.get<std::string>().empty();
    check("version", version_ok,
          version_ok ? printable(version.get<std::string>(), 40)
                     : (r_.contains("version") ? "must be a non-empty string (git describe), got " + shown(version)
                                               : "missing"));
    const std::string lab = text_at(r_, "lab");
    check("lab", lab == a_.lab,
          lab == a_.lab ? lab
                        : fmt::format("the record is from '{}'; assignment '{}' grades {}",
                                      lab.empty() ? "(none)" : printable(lab, 40), a_.name, a_.lab));
    const std::string module = text_at(r_, "module");
    check("module", module == rubric_.module,
          module == rubric_.module ? module
                                   : fmt::format("the record is of module '{}'; the rubric grades {}",
                                                 module.empty() ? "(none)" : printable(module, 20), rubric_.module));
    const std::string want = a_.record == RecordType::lab ? "measurement" : "exercise";
    const std::string kind = text_at(r_, "kind");
    check("kind", kind == want,
          kind == want ? kind : fmt::format("must be '{}', got '{}'", want, kind.empty() ? "(none)" : printable(kind, 20)));
  }

  // ---- lab records

  void lab() {
    device();
    clocks();
    outputs();
    std::vector<Run> runs = collect_runs();
    if (runs.empty()) return;
    names_unique(runs);
    steps_present(runs);
    verdicts(runs);
    timings(runs);
    rates(runs);
    fractions(runs);
    thresholds(runs.back());
  }

  void device() {
    const json& d = r_.contains("device") ? r_.at("device") : json();
    if (!d.is_object()) {
      check("device", false, "missing: a GPU lab's record names the GPU it ran on");
      return;
    }
    const std::string name = text_at(d, "name"), vendor = text_at(d, "vendor"), arch = text_at(d, "arch");
    std::string why;
    if (name.empty() || vendor.empty() || arch.empty()) why = "device name, vendor and arch must be non-empty strings";
    const json& m = d.contains("measured") ? d.at("measured") : json();
    copy_GBps_ = number_at(m, "copy_GBps");
    fma_TFLOPs_ = number_at(m, "fma_TFLOPs");
    if (why.empty() && !(copy_GBps_ > 0)) why = "device/measured/copy_GBps must be a number > 0 (the copy ceiling)";
    if (why.empty() && (a_.ceiling == "fma" || a_.ceiling == "roofline") && !(fma_TFLOPs_ > 0))
      why = "device/measured/fma_TFLOPs must be a number > 0 (the compute ceiling)";
    check("device", why.empty(),
          why.empty() ? fmt::format("{} ({}, {}), copy {:.0f} GB/s", printable(name, 40), printable(vendor, 20),
                                    printable(arch, 20), copy_GBps_)
                      : why);
  }

  /// A throttle reason other than gpu_idle at the end of the run: the numbers were taken on a
  /// limited GPU (docs/METHODOLOGY.md); said, not graded (the ratios are of one run).
  void clocks() {
    const json& end = r_.contains("clocks") && r_.at("clocks").is_object() && r_.at("clocks").contains("end")
                          ? r_.at("clocks").at("end")
                          : json();
    if (!end.is_object() || !end.contains("throttle_reasons") || !end.at("throttle_reasons").is_array()) return;
    std::string reasons;
    for (const auto& t : end.at("throttle_reasons"))
      if (t.is_string() && t.get<std::string>() != "gpu_idle") reasons += (reasons.empty() ? "" : ", ") + printable(t.get<std::string>(), 30);
    if (!reasons.empty())
      g_.warnings.push_back("the GPU was throttled at the end of the run (" + reasons +
                            "): rerun before quoting its numbers (docs/METHODOLOGY.md)");
  }

  /// The CSV and plot the record names, compared by SHA-256 with the files of those names beside
  /// it: a CSV from another run (or edited) is told apart from this run's.
  void outputs() {
    if (record_dir_.empty() || !r_.contains("outputs") || !r_.at("outputs").is_object()) return;
    std::string why, seen;
    for (const auto& [kind, o] : r_.at("outputs").items()) {
      const std::string path = text_at(o, "path"), sha = text_at(o, "sha256");
      if (path.empty() || sha.empty()) {
        why = "outputs/" + printable(kind, 20) + ": needs a path and a sha256";
        break;
      }
      const std::filesystem::path beside = std::filesystem::path(record_dir_) / std::filesystem::path(path).filename();
      std::error_code ec;
      if (!std::filesystem::exists(beside, ec)) continue;  // not handed in with the record: nothing to compare
      try {
        InputFile file(beside.string(), std::size_t(256) << 20);
        if (sha256_hex(file.read_all()) != sha) {
          why = "tampered: " + printable(beside.filename().string(), 60) +
                " beside the record is not the one this run wrote (its SHA-256 differs from outputs/" +
                printable(kind, 20) + ")";
          break;
        }
        seen += (seen.empty() ? "" : ", ") + printable(beside.filename().string(), 60);
      } catch (const InputError& e) {
        why = e.what();
        break;
      }
    }
    check("outputs match the record", why.empty(),
          why.empty() ? (seen.empty() ? "none beside the record to compare" : seen + ": SHA-256 as recorded") : why);
  }

  std::vector<Run> collect_runs() {
    std::vector<Run> runs;
    if (r_.contains("variants") && r_.at("variants").is_array()) {
      runs.push_back({"", &r_.at("variants"), r_.contains("ceiling") ? &r_.at("ceiling") : nullptr});
    } else if (r_.contains("sweep") && r_.at("sweep").is_array() && !r_.at("sweep").empty()) {
      for (const auto& point : r_.at("sweep")) {
        if (!point.is_object() || !point.contains("variants") || !point.at("variants").is_array()) {
          check("variants", false, "a sweep point without a variants array");
          return {};
        }
        std::string label;
        for (const auto& [key, value] : point.items())
          if (key != "ceiling" && key != "problem" && key != "variants" && value.is_number())
            label += (label.empty() ? "" : ", ") + printable(key, 20) + "=" + value.dump();
        runs.push_back({label.empty() ? "point" : label, &point.at("variants"),
                        point.contains("ceiling") ? &point.at("ceiling") : nullptr});
      }
    } else {
      check("variants", false, "the record has no variants array and no sweep");
      return {};
    }
    for (const auto& run : runs)
      for (std::size_t i = 0; i < run.variants->size(); ++i)
        if (!(*run.variants)[i].is_object() || text_at((*run.variants)[i], "name").empty()) {
          check("variants", false, where(run, fmt::format("variants/{} is not an object with a name", i)));
          return {};
        }
    return runs;
  }

  void names_unique(const std::vector<Run>& runs) {
    for (const auto& run : runs) {
      std::set<std::string> seen;
      for (const auto& v : *run.variants)
        if (!seen.insert(text_at(v, "name")).second) {
          check("variant names unique", false,
                where(run, "'" + printable(text_at(v, "name"), 40) + "' appears twice (which one ran?)"));
          return;
        }
    }
    check("variant names unique", true, "");
  }

  /// A variant the assignment needs: present, run, timed and verified, in every run.
  void require_step(const std::vector<Run>& runs, const std::string& label, const std::string& name, bool exercise) {
    for (const auto& run : runs) {
      const json* v = find_variant(run, name);
      std::string why;
      if (!v) {
        std::string names;
        for (const auto& x : *run.variants) names += (names.empty() ? "" : ", ") + printable(text_at(x, "name"), 30);
        why = fmt::format("missing (the record has: {})", names.empty() ? "no variants" : names);
      } else if (!text_at(*v, "skipped").empty()) {
        why = "skipped: " + printable(text_at(*v, "skipped"), 80);
      } else if (exercise && text_at(*v, "role") != "exercise") {
        why = fmt::format("role is '{}', not exercise", printable(text_at(*v, "role"), 20));
      } else if (!v->contains("verified") || !v->at("verified").is_boolean() || !v->at("verified").get<bool>()) {
        why = "not verified " + failure_of(*v);
      } else if (!(median_ms(*v) > 0)) {
        why = "not timed";
      }
      if (!why.empty()) {
        check(label, false, where(run, why));
        return;
      }
    }
    const json* v = find_variant(runs.back(), name);
    check(label, true, fmt::format("verified, worst rel err {:.1e}, median {:.4g} ms", number_at(*v, "rel_err"),
                                   median_ms(*v)));
  }

  void steps_present(const std::vector<Run>& runs) {
    std::vector<std::string> steps = a_.required_steps;
    for (const auto& e : a_.exercises) {
      require_step(runs, "exercise " + e.step, e.step, true);
      // A lab built with -DTUTOR_EXERCISE_SOLUTIONS=ON says so in the exercise row's params (and
      // in notes/exercise_code): the shipped worked solution ran, not the learner's kernel.
      const json* v = find_variant(runs.back(), e.step);
      const bool params_say = v && v->contains("params") && v->at("params").is_string() &&
                              v->at("params").get<std::string>().find("exercises/solutions") != std::string::npos;
      const json& notes = r_.contains("notes") && r_.at("notes").is_object() ? r_.at("notes") : json();
      const bool notes_say = text_at(notes, "exercise_code").find("exercises/solutions") != std::string::npos;
      if (params_say || notes_say)
        g_.warnings.push_back(e.step + " ran the worked solution from exercises/solutions/ (a build with "
                                       "-DTUTOR_EXERCISE_SOLUTIONS=ON), not a learner's kernel");
      if (std::find(steps.begin(), steps.end(), e.solution) == steps.end()) steps.push_back(e.solution);
    }
    for (const auto& s : steps) require_step(runs, "step " + s, s, false);
  }

  /// Every stored verdict against the stored errors: a check passes only when its relative L2
  /// error is a finite number within its tolerance with no non-finite element
  /// (docs/METHODOLOGY.md); a variant is verified only when all its checks passed; its rel_err is
  /// the worst check's.
  void verdicts(const std::vector<Run>& runs) {
    std::string failed, tampered;
    for (const auto& run : runs)
      for (const auto& v : *run.variants) {
        const std::string name = where(run, printable(text_at(v, "name"), 40));
        if (!text_at(v, "skipped").empty()) continue;
        const json& verified = v.contains("verified") ? v.at("verified") : json();
        if (!verified.is_boolean()) {
          if (tampered.empty()) tampered = name + ": verified is " + shown(verified) + ", not a boolean";
          continue;
        }
        const json& checks = v.contains("checks") ? v.at("checks") : json();
        if (!checks.is_array() || checks.empty()) {
          if (verified.get<bool>() && tampered.empty()) tampered = name + ": verified with no checks";
          if (!verified.get<bool>() && failed.empty()) failed = name + ": not verified";
          continue;
        }
        bool all = true;
        double worst = 0;
        for (std::size_t i = 0; i < checks.size(); ++i) {
          const json& c = checks[i];
          const json& passed = c.is_object() && c.contains("passed") ? c.at("passed") : json();
          const std::string at = fmt::format("{}: checks/{} ({})", name, i, printable(text_at(c, "shape"), 30));
          if (!passed.is_boolean()) {
            if (tampered.empty()) tampered = at + ": passed is " + shown(passed);
            all = false;
            continue;
          }
          const json& rel = c.contains("rel_l2") ? c.at("rel_l2") : json();
          const json& tol = c.contains("tolerance") ? c.at("tolerance") : json();
          if (finite(rel)) worst = std::max(worst, rel.get<double>());
          if (passed.get<bool>()) {
            std::string why;
            if (!finite(rel))
              why = "passed, but its rel_l2 is " + shown(rel);
            else if (!finite(tol))
              why = "passed, but its tolerance is " + shown(tol);
            else if (rel.get<double>() > tol.get<double>())
              why = fmt::format("passed, but rel_l2 {:.3g} exceeds its tolerance {:.3g}", rel.get<double>(),
                                tol.get<double>());
            else if (c.contains("nonfinite") && !(finite(c.at("nonfinite")) && c.at("nonfinite").get<double>() == 0))
              why = "passed, but it counts non-finite elements: " + shown(c.at("nonfinite"));
            if (!why.empty() && tampered.empty()) tampered = at + ": " + why;
          }
          all = all && passed.get<bool>();
        }
        if (verified.get<bool>() && !all && tampered.empty())
          tampered = name + ": verified, but a check of it failed";
        const json& rel_err = v.contains("rel_err") ? v.at("rel_err") : json();
        if (verified.get<bool>()) {
          if (!finite(rel_err)) {
            if (tampered.empty()) tampered = name + ": verified, but its rel_err is " + shown(rel_err);
          } else if (!close(rel_err.get<double>(), worst, kConsistencyTolerance) && tampered.empty()) {
            tampered = fmt::format("{}: rel_err {:.3g}, but its worst check's rel_l2 is {:.3g}", name,
                                   rel_err.get<double>(), worst);
          }
        } else if (failed.empty()) {
          failed = name + ": " + failure_of(v);
        }
      }
    check("verdicts agree with the errors", tampered.empty(), tampered.empty() ? "" : "tampered: " + tampered);
    check("every variant verified", failed.empty(), failed);
  }

  void timings(const std::vector<Run>& runs) {
    std::string why;
    for (const auto& run : runs)
      for (const auto& v : *run.variants) {
        if (!why.empty()) break;
        if (!v.contains("time_ms") || v.at("time_ms").is_null()) continue;
        const std::string name = where(run, printable(text_at(v, "name"), 40));
        const json& t = v.at("time_ms");
        const double lo = number_at(t, "min"), med = number_at(t, "median"), hi = number_at(t, "max"),
                     n = number_at(t, "n");
        if (!(lo > 0 && med > 0 && hi > 0))
          why = name + ": time_ms min, median and max must be numbers > 0";
        else if (!(lo <= med && med <= hi))
          why = fmt::format("{}: time_ms is not ordered: min {:.4g} <= median {:.4g} <= max {:.4g}", name, lo, med, hi);
        else if (!(n >= a_.min_reps) || n != std::floor(n))
          why = fmt::format("{}: timed over {} launches; the rubric needs at least {}", name,
                            std::isnan(n) ? "?" : fmt::format("{:g}", n), a_.min_reps);
      }
    check("timings", why.empty(), why.empty() ? fmt::format("ordered, at least {} launches each", a_.min_reps) : why);
  }

  /// GB/s and TFLOP/s recomputed from bytes, FLOPs and the median time.
  void rates(const std::vector<Run>& runs) {
    std::string why;
    std::size_t n = 0;
    for (const auto& run : runs)
      for (const auto& v : *run.variants) {
        if (!why.empty() || !(median_ms(v) > 0)) continue;
        const std::string name = where(run, printable(text_at(v, "name"), 40));
        const double bytes = number_at(v, "bytes"), flops = number_at(v, "flops");
        if (!(bytes >= 0) || !(flops >= 0)) {
          why = name + ": bytes and flops must be numbers >= 0";
          continue;
        }
        const Rates want = recomputed_rates(v);
        for (const auto& [key, expected] : {std::pair<const char*, double>{"GBps", want.GBps}, {"TFLOPs", want.TFLOPs}}) {
          const json& stored = v.contains(key) ? v.at(key) : json();
          if (!why.empty()) break;
          if (!finite(stored))
            why = fmt::format("{}: {} is {}", name, key, shown(stored));
          else if (!close(stored.get<double>(), expected, kConsistencyTolerance))
            why = fmt::format("{}: {} is {:.6g}, but {} / median time = {:.6g}{}", name, key, stored.get<double>(),
                              key == std::string("GBps") ? "bytes" : "FLOPs", expected,
                              percent_off(stored.get<double>(), expected));
        }
        ++n;
      }
    check("rates agree with bytes, FLOPs and time", why.empty(),
          why.empty() ? fmt::format("{} timed variants recomputed", n) : "tampered: " + why);
  }

  CeilingValue ceiling_of(const Run& run, const json* v) const {
    CeilingValue c;
    if (a_.ceiling == "copy") {
      c = {copy_GBps_ > 0, copy_GBps_, true, "no measured copy bandwidth"};
    } else if (a_.ceiling == "fma") {
      c = {fma_TFLOPs_ > 0, fma_TFLOPs_, false, "no measured FMA rate"};
    } else if (a_.ceiling == "roofline") {
      if (!v) return {fma_TFLOPs_ > 0, fma_TFLOPs_, false, "no measured FMA rate"};
      const double intensity = number_at(*v, "flops") / number_at(*v, "bytes");
      const double attainable = std::min(fma_TFLOPs_, intensity * copy_GBps_ / 1e3);
      c = {attainable > 0, attainable, false, "no intensity or measured roofs"};
    } else if (a_.ceiling.rfind("reference:", 0) == 0) {
      const std::string step = a_.ceiling.substr(10);
      const json* ref = find_variant(run, step);
      const bool by_bytes = run.ceiling && text_at(*run.ceiling, "unit") == "GB/s";
      if (!ref) return {false, 0, by_bytes, "the reference row " + step + " is missing"};
      const Rates r = recomputed_rates(*ref);
      const double value = by_bytes ? r.GBps : r.TFLOPs;
      c = {value > 0, value, by_bytes, "the reference row " + step + " is not timed"};
    }
    return c;
  }

  static double rate_of(const json& v, bool by_bytes) {
    const Rates r = recomputed_rates(v);
    return by_bytes ? r.GBps : r.TFLOPs;
  }

  /// The run's ceiling and each timed variant's fraction of it, recomputed.
  void fractions(const std::vector<Run>& runs) {
    if (a_.ceiling == "none") return;
    std::string why;
    for (const auto& run : runs) {
      if (!why.empty()) break;
      const CeilingValue run_ceiling = ceiling_of(run, nullptr);
      const double stored = run.ceiling ? number_at(*run.ceiling, "value") : std::nan("");
      if (!run_ceiling.known) {
        why = where(run, run_ceiling.problem);
        break;
      }
      if (!close(stored, run_ceiling.value, kConsistencyTolerance)) {
        why = where(run, fmt::format("ceiling value is {:.6g}, but the {} ceiling in the record is {:.6g}{}", stored,
                                     a_.ceiling, run_ceiling.value, percent_off(stored, run_ceiling.value)));
        break;
      }
      for (const auto& v : *run.variants) {
        if (!(median_ms(v) > 0)) continue;
        const CeilingValue c = ceiling_of(run, &v);
        const json& f = v.contains("fraction_of_ceiling") ? v.at("fraction_of_ceiling") : json();
        const double want = rate_of(v, c.by_bytes) / c.value;
        const std::string name = where(run, printable(text_at(v, "name"), 40));
        if (!finite(f)) {
          why = name + ": fraction_of_ceiling is " + shown(f);
        } else if (!close(f.get<double>(), want, kConsistencyTolerance)) {
          why = fmt::format("{}: fraction_of_ceiling is {:.4g}, but its rate over the {} ceiling is {:.4g}", name,
                            f.get<double>(), a_.ceiling, want);
        }
        if (!why.empty()) break;
      }
    }
    check("ceiling and fractions agree", why.empty(),
          why.empty() ? fmt::format("ceiling: {}", a_.ceiling) : "tampered: " + why);
  }

  void thresholds(const Run& run) {
    for (const auto& t : a_.thresholds) {
      ThresholdScore s;
      s.threshold = t;
      const json* step = find_variant(run, t.step);
      auto usable = [](const json* v) {
        return v && median_ms(*v) > 0 && v->contains("verified") && v->at("verified").is_boolean() &&
               v->at("verified").get<bool>();
      };
      if (!usable(step)) {
        s.detail = t.step + " is missing, unverified or untimed";
      } else if (t.measure == Measure::speed_vs) {
        const json* against = find_variant(run, t.against);
        if (!usable(against)) {
          s.detail = t.against + " is missing, unverified or untimed";
        } else {
          s.measured = true;
          s.ratio = median_ms(*against) / median_ms(*step);
          s.detail = fmt::format("{} {:.4g} ms / {} {:.4g} ms", t.against, median_ms(*against), t.step, median_ms(*step));
        }
      } else {
        const CeilingValue c = ceiling_of(run, step);
        if (!c.known) {
          s.detail = c.problem;
        } else {
          s.measured = true;
          s.ratio = rate_of(*step, c.by_bytes) / c.value;
          s.detail = fmt::format("{:.4g} of {:.4g} {}", rate_of(*step, c.by_bytes), c.value, c.by_bytes ? "GB/s" : "TFLOP/s");
        }
      }
      if (s.measured) s.earned = t.points * credit(s.ratio, t);
      if (!run.label.empty()) s.detail = run.label + ": " + s.detail;
      g_.thresholds.push_back(s);
    }
  }

  // ---- exercise records

  static bool agree(const json& expected, const json& got, double tol) {
    if (expected.is_number() && got.is_number()) {
      if (expected.is_number_integer() && got.is_number_integer()) return expected == got;
      const double e = expected.get<double>(), g = got.get<double>();
      return std::isfinite(g) && std::abs(g - e) <= tol * std::abs(e);
    }
    if (expected.is_object() && got.is_object()) {
      if (expected.size() != got.size()) return false;
      for (const auto& [key, value] : expected.items())
        if (!got.contains(key) || !agree(value, got.at(key), tol)) return false;
      return true;
    }
    if (expected.is_array() && got.is_array()) {
      if (expected.size() != got.size()) return false;
      for (std::size_t i = 0; i < expected.size(); ++i)
        if (!agree(expected[i], got[i], tol)) return false;
      return true;
    }
    return expected == got;
  }

  void exercise() {
    const std::string name = text_at(r_, "exercise");
    check("exercise", name == a_.exercise,
          name == a_.exercise ? name
                              : fmt::format("the record is of exercise '{}'; the assignment grades '{}'",
                                            name.empty() ? "(none)" : printable(name, 40), a_.exercise));
    const json& cases = r_.contains("cases") ? r_.at("cases") : json();
    if (!cases.is_array()) {
      check("cases", false, "the record has no cases array");
      return;
    }
    std::set<std::string> names;
    std::string malformed, tampered, first_failed;
    std::int64_t passed = 0, failed = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const json& c = cases[i];
      const std::string case_name = text_at(c, "name");
      if (case_name.empty() || !c.contains("expected") || !c.contains("got") || !c.contains("passed") ||
          !c.at("passed").is_boolean()) {
        if (malformed.empty()) malformed = fmt::format("cases/{}: needs name, expected, got and a boolean passed", i);
        continue;
      }
      if (!names.insert(case_name).second && malformed.empty())
        malformed = fmt::format("cases/{}: '{}' appears twice", i, printable(case_name, 40));
      const bool ok = c.at("passed").get<bool>();
      (ok ? passed : failed) += 1;
      if (!ok && first_failed.empty())
        first_failed = fmt::format("{}: expected {}, got {}", printable(case_name, 100), printable(c.at("expected").dump(), 40),
                                   printable(c.at("got").dump(), 80));
      const double tol = c.contains("tolerance") && finite(c.at("tolerance")) ? c.at("tolerance").get<double>()
                                                                                : a_.case_tolerance;
      if (ok && !agree(c.at("expected"), c.at("got"), tol) && tampered.empty())
        tampered = fmt::format("{}: passed, but got {} is not expected {} within {:g}", printable(case_name, 40),
                               printable(c.at("got").dump(), 40), printable(c.at("expected").dump(), 40), tol);
    }
    const std::int64_t total = passed + failed;
    check("cases", malformed.empty() && total >= a_.min_cases,
          !malformed.empty() ? malformed
          : total >= a_.min_cases
              ? fmt::format("{} cases", total)
              : fmt::format("{} cases; the rubric needs at least {}", total, a_.min_cases));
    std::string missing;
    for (const auto& req : a_.required_cases)
      if (!names.count(req)) missing += (missing.empty() ? "" : ", ") + req;
    if (!a_.required_cases.empty())
      check("required cases", missing.empty(), missing.empty() ? fmt::format("all {} present", a_.required_cases.size())
                                                               : "missing: " + missing);
    check("verdicts agree with the values", tampered.empty(), tampered.empty() ? "" : "tampered: " + tampered);
    const json& stored_passed = r_.contains("passed") ? r_.at("passed") : json();
    const json& stored_failed = r_.contains("failed") ? r_.at("failed") : json();
    const json& verified = r_.contains("verified") ? r_.at("verified") : json();
    const bool counts = stored_passed.is_number_integer() && stored_passed.get<std::int64_t>() == passed &&
                        stored_failed.is_number_integer() && stored_failed.get<std::int64_t>() == failed &&
                        verified.is_boolean() && verified.get<bool>() == (failed == 0 && total > 0);
    check("counts agree with the cases", counts,
          counts ? "" : fmt::format("tampered: the record says passed {}, failed {}, verified {}; its cases: {} passed, {} failed",
                                   printable(stored_passed.dump(), 20), printable(stored_failed.dump(), 20),
                                   printable(verified.dump(), 20), passed, failed));
    check("every case passed", failed == 0 && total > 0,
          failed == 0 ? fmt::format("{} of {}", passed, total)
                      : fmt::format("{} of {} failed; first: {}", failed, total, first_failed));
  }

  void finish() {
    bool ok = true;
    for (const auto& c : g_.checks)
      if (!c.passed) {
        if (ok) g_.reason = c.name + ": " + c.detail;
        ok = false;
      }
    g_.score = 0;
    if (ok) {
      g_.score = a_.correctness_points;
      for (const auto& t : g_.thresholds) g_.score += t.earned;
    }
    g_.passed = ok && g_.score >= a_.pass_score - 1e-9;
    if (ok && !g_.passed) g_.reason = fmt::format("score {:.1f} is below the pass score {:g}", g_.score, a_.pass_score);
  }

  const json& r_;
  const Rubric& rubric_;
  const Assignment& a_;
  std::string record_dir_;
  Grade g_;
  double copy_GBps_ = std::nan(""), fma_TFLOPs_ = std::nan("");
};

}  // namespace

std::set<std::string> variant_names(const json& record) {
  std::set<std::string> names;
  const json* variants = nullptr;
  if (record.is_object() && record.contains("variants") && record.at("variants").is_array()) {
    variants = &record.at("variants");
  } else if (record.is_object() && record.contains("sweep") && record.at("sweep").is_array() &&
             !record.at("sweep").empty() && record.at("sweep").back().is_object() &&
             record.at("sweep").back().contains("variants") && record.at("sweep").back().at("variants").is_array()) {
    variants = &record.at("sweep").back().at("variants");
  }
  if (variants)
    for (const auto& v : *variants)
      if (!text_at(v, "name").empty()) names.insert(text_at(v, "name"));
  return names;
}

double credit(double ratio, const Threshold& t) {
  if (!(ratio > t.zero_at)) return 0;  // NaN earns nothing
  if (ratio >= t.full_at) return 1;
  return (ratio - t.zero_at) / (t.full_at - t.zero_at);
}

Grade grade_record(const json& record, const Rubric& rubric, const Assignment& assignment,
                   const std::string& record_dir) {
  return Grading(record, rubric, assignment, record_dir).run();
}

void print_grade(std::FILE* out, const std::string& record_name, const Grade& g) {
  fmt::print(out, "record    : {}\nrubric    : {} (module {}), assignment '{}'\n\n", printable(record_name, 200),
             g.rubric_path, g.module, g.assignment);
  std::size_t width = 5;
  for (const auto& c : g.checks) width = std::max(width, c.name.size());
  fmt::print(out, "{:<{}}  {:<6}  {}\n", "check", width, "result", "detail");
  for (const auto& c : g.checks) fmt::print(out, "{:<{}}  {:<6}  {}\n", c.name, width, c.passed ? "ok" : "FAIL", c.detail);
  if (!g.thresholds.empty()) {
    std::size_t tw = 9;
    for (const auto& t : g.thresholds) tw = std::max(tw, t.threshold.name.size());
    fmt::print(out, "\n{:<{}}  {:>7}  {:>7}  {:>7}  {:>13}  {}\n", "threshold", tw, "ratio", "zero at", "full at",
               "points", "measured");
    for (const auto& t : g.thresholds)
      fmt::print(out, "{:<{}}  {:>7}  {:>7.3g}  {:>7.3g}  {:>13}  {}\n", t.threshold.name, tw,
                 t.measured ? fmt::format("{:.3f}", t.ratio) : "-", t.threshold.zero_at, t.threshold.full_at,
                 fmt::format("{:.1f} of {:g}", t.earned, t.threshold.points), t.detail);
  }
  for (const auto& w : g.warnings) fmt::print(out, "\nnote      : {}", w);
  fmt::print(out, "\nscore     : {:.1f} of 100 (pass at {:g}): {}\n", g.score, g.pass_score, g.passed ? "PASS" : "FAIL");
  if (!g.passed) fmt::print(out, "why       : {}\n", g.reason);
}

json to_json(const Grade& g) {
  json checks = json::array();
  for (const auto& c : g.checks) checks.push_back({{"name", c.name}, {"passed", c.passed}, {"detail", c.detail}});
  json thresholds = json::array();
  for (const auto& t : g.thresholds)
    thresholds.push_back({{"name", t.threshold.name},
                          {"measure", t.threshold.measure == Measure::speed_vs ? "speed_vs" : "fraction_of_ceiling"},
                          {"step", t.threshold.step},
                          {"ratio", t.measured ? json(t.ratio) : json(nullptr)},
                          {"zero_at", t.threshold.zero_at},
                          {"full_at", t.threshold.full_at},
                          {"points", t.threshold.points},
                          {"earned", t.earned},
                          {"detail", t.detail}});
  return {{"rubric", g.rubric_path}, {"module", g.module}, {"assignment", g.assignment}, {"lab", g.lab},
          {"checks", checks},        {"thresholds", thresholds}, {"score", g.score},    {"pass_score", g.pass_score},
          {"passed", g.passed},      {"reason", g.reason},         {"warnings", g.warnings}};
}

}  // namespace tutor::grade
