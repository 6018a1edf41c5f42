#include "grade/gradebook.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "tutor/cli.hpp"
#include "tutor/input_file.hpp"
#include "tutor/json_input.hpp"

namespace tutor::grade {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string type_name(const json& j) {
  return j.is_array() ? "an array" : j.is_string() ? "a string" : j.is_number() ? "a number" : j.is_null() ? "null" : "a boolean";
}

std::string csv_cell(const std::string& text) {
  std::string cell = text;
  if (!cell.empty() && std::string("=+-@").find(cell.front()) != std::string::npos) cell = "'" + cell;
  if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string quoted = "\"";
  for (char c : cell) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

json read_record(const std::string& path) {
  JsonLimits limits;
  limits.max_bytes = kMaxRecordBytes;
  json record = read_json_file(path, limits);
  if (!record.is_object()) throw InputError(path, "", "not a record: the top level is " + type_name(record));
  return record;
}

Grade grade_file(const std::string& path, const RubricSource& source) {
  const json record = read_record(path);
  const std::string module = record.contains("module") && record.at("module").is_string()
                                 ? record.at("module").get<std::string>()
                                 : "";
  const std::string lab =
      record.contains("lab") && record.at("lab").is_string() ? record.at("lab").get<std::string>() : "";
  const std::string dir = fs::path(path).parent_path().empty() ? "." : fs::path(path).parent_path().string();
  if (source.rubric) {
    return grade_record(record, *source.rubric, choose_assignment(*source.rubric, lab, source.assignment, variant_names(record)), dir);
  }
  if (module.empty()) throw InputError(path, "module", "missing: no rubric can be chosen (give one with --rubric)");
  const Rubric rubric = find_rubric(source.folder, module, "--rubrics");
  return grade_record(record, rubric, choose_assignment(rubric, lab, source.assignment, variant_names(record)), dir);
}

std::vector<GradebookRow> grade_folder(const std::string& folder, const RubricSource& source) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw UsageError(fmt::format("--folder: {} is not a folder", folder));
  std::vector<fs::path> files;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json") files.push_back(it->path());
  if (ec) throw UsageError(fmt::format("--folder: cannot list {}: {}", folder, ec.message()));
  std::sort(files.begin(), files.end());
  std::vector<GradebookRow> rows;
  for (const auto& p : files) {
    GradebookRow row;
    row.learner = p.stem().string();
    row.file = p.filename().string();
    try {
      const Grade g = grade_file(p.string(), source);
      row.module = g.module;
      row.lab = g.lab;
      row.assignment = g.assignment;
      row.score = g.score;
      row.result = g.passed ? "pass" : "fail";
      row.reason = g.reason;
    } catch (const std::exception& e) {  // InputError, UsageError (no rubric), anything else: one row
      row.result = "error";
      row.reason = e.what();
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

GradebookSummary summarize(const std::vector<GradebookRow>& rows) {
  GradebookSummary s;
  double sum = 0;
  for (const auto& r : rows) {
    ++s.records;
    if (r.result == "pass") ++s.passed;
    if (r.result == "fail") ++s.failed;
    if (r.result == "error") ++s.errors;
    if (r.score) sum += *r.score;
  }
  const std::size_t graded = s.passed + s.failed;
  s.mean_score = graded ? sum / double(graded) : 0;
  return s;
}

std::string gradebook_csv(const std::vector<GradebookRow>& rows) {
  std::string out = "learner,file,source,module,lab,assignment,score,result,reason\n";
  for (const auto& r : rows)
    out += fmt::format("{},{},{},{},{},{},{},{},{}\n", csv_cell(r.learner), csv_cell(r.file), csv_cell(r.source),
                       csv_cell(r.module),
                       csv_cell(r.lab), csv_cell(r.assignment), r.score ? fmt::format("{:.1f}", *r.score) : "",
                       r.result, csv_cell(r.reason));
  return out;
}

void print_gradebook(std::FILE* out, const std::vector<GradebookRow>& rows) {
  std::size_t lw = 7, aw = 10;
  for (const auto& r : rows) {
    lw = std::max(lw, printable(r.learner, 40).size());
    aw = std::max(aw, r.assignment.size());
  }
  fmt::print(out, "{:<{}}  {:<{}}  {:>5}  {:<6}  {}\n", "learner", lw, "assignment", aw, "score", "result", "why");
  for (const auto& r : rows)
    fmt::print(out, "{:<{}}  {:<{}}  {:>5}  {:<6}  {}\n", printable(r.learner, 40), lw, r.assignment, aw,
               r.score ? fmt::format("{:.1f}", *r.score) : "-", r.result, printable(r.reason, 160));
}

void print_summary(std::FILE* out, const GradebookSummary& s) {
  fmt::print(out, "\n{} records: {} passed, {} failed, {} could not be graded; mean score {:.1f} of 100 over the {} graded\n",
             s.records, s.passed, s.failed, s.errors, s.mean_score, s.passed + s.failed);
}

json to_json(const std::vector<GradebookRow>& rows, const GradebookSummary& s) {
  json list = json::array();
  for (const auto& r : rows)
    list.push_back({{"learner", r.learner},
                    {"file", r.file},
                    {"source", r.source},
                    {"module", r.module},
                    {"lab", r.lab},
                    {"assignment", r.assignment},
                    {"score", r.score ? json(*r.score) : json(nullptr)},
                    {"result", r.result},
                    {"reason", r.reason}});
  return {{"rows", list},
          {"summary",
           {{"records", s.records}, {"passed", s.passed}, {"failed", s.failed}, {"errors", s.errors},
            {"mean_score", s.mean_score}}}};
}

}  // namespace tutor::grade
