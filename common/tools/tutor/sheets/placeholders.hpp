#pragma once
// The placeholders of a reference-sheet template (docs/cheatsheets/src/<id>.md), filled from
// the GPU table and the committed records, so a sheet never types a number that can drift:
//   {{gpu:<key>:<field>[:<fmt>]}}               a cell of tutor::hw::gpu_table()
//   {{record:<path>:<JSON pointer>[:<fmt>]}}    a number in a committed record (repository-relative)
//   {{modules:planned:<track>}}                 the track's planned modules, "A03 Scan, ..."
// <fmt> is a format spec of the {fmt} library ("{:<fmt>}": .0f, .1f, .3g, d), or one ending in
// '%' for a fraction shown as a percentage (".1%": 0.951 -> 95.1%). Each GPU cell's
// source document and each record's path becomes a footnote ([^n], GitHub-flavoured Markdown).
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tutor/cli.hpp"
#include "tutor/curriculum.hpp"

namespace tutor::sheets {

/// A placeholder that cannot be filled, or a malformed one: exit 2 with the one line
/// "<file>:<line>: <placeholder>: <why>".
class PlaceholderError : public UsageError {
 public:
  PlaceholderError(const std::string& file, std::size_t line, std::string_view placeholder, const std::string& why);
};

/// One footnote of a sheet: its number (order of first use) and its text (Markdown).
struct Footnote {
  int number = 0;
  std::string text;
};

/// Fills the placeholders of one sheet. Footnotes are numbered in order of first use and
/// shared by every placeholder that cites the same document or record.
class Filler {
 public:
  /// `repository_root`: where record paths are resolved; `curriculum`: for {{modules:...}}.
  Filler(std::filesystem::path repository_root, const curriculum::Curriculum& curriculum);

  /// `text` with every placeholder replaced; `file` names the template in error messages.
  /// Throws PlaceholderError at the first placeholder that cannot be filled.
  std::string fill(std::string_view text, const std::string& file);

  const std::vector<Footnote>& footnotes() const { return footnotes_; }

  /// The footnote definitions as Markdown ("[^1]: text", one a line), "" when none.
  std::string footnote_definitions() const;

 private:
  std::string fill_one(std::string_view body);
  std::string gpu_cell(const std::vector<std::string>& parts);
  std::string record_number(std::string_view rest);
  std::string planned_modules(const std::vector<std::string>& parts) const;
  const nlohmann::json& record(const std::string& path);
  std::string cite(const std::string& text);

  std::filesystem::path root_;
  const curriculum::Curriculum& curriculum_;
  std::map<std::string, nlohmann::json> records_;
  std::vector<Footnote> footnotes_;
  std::map<std::string, int> footnote_of_text_;
};

/// A number as a template asks for it: `spec` is a {fmt} format spec ("" = the shortest text
/// that reads back the same number; integers without a decimal point). Throws
/// std::invalid_argument with the reason for a spec {fmt} refuses.
std::string format_number(double value, bool is_integer, const std::string& spec);

}  // namespace tutor::sheets
