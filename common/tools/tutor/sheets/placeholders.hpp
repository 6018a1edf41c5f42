#pragma once
// The placeholders of a reference-sheet template (docs/cheatsheets/src/<id>.md), filled from
// the GPU table and the committed records, so a sheet never types a number that can drift:
//   {{gpu:<key>:<field>[:<fmt>]}}               a cell of tutor::hw::gpu_table()
//   {{record:<path>:<JSON pointer>[:<fmt>]}}    a number in a committed record (repository-relative)
//   {{modules:planned:<track>}}                 the track's planned modules, "A03 Scan, ..."
// <fmt> is a format spec of the {fmt} library ("{:<fmt>}": .0f, .1f, .3g, d), or one ending in
// '%' for a fraction shown as a percentage (".1%": 0.951 -> 95.1%). Each GPU cell's
// source document and each record's path becomes a data source, marked after the number as a
// bracketed, lettered label in small raised type (<sup>[d1]</sup> for a document of the GPU
// table, <sup>[r1]</sup> for a record): a bare superscript digit after a number reads as a
// power ("1690^6"), and letters keep these apart from the sheet's numbered Sources ([1]).
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

/// One data source of a sheet: its label ("d2": the GPU table's second document; "r1": the
/// first record), its number within its kind (order of first use) and its text (Markdown).
struct Footnote {
  int number = 0;
  std::string text;
  std::string label;
};

/// Fills the placeholders of one sheet. Data sources are numbered in order of first use, one
/// number space per kind, and shared by every placeholder that cites the same document (cells
/// from different places of one datasheet cite it once, naming each place) or record.
class Filler {
 public:
  /// `repository_root`: where record paths are resolved; `curriculum`: for {{modules:...}}.
  Filler(std::filesystem::path repository_root, const curriculum::Curriculum& curriculum);

  /// `text` with every placeholder replaced; `file` names the template in error messages.
  /// Throws PlaceholderError at the first placeholder that cannot be filled.
  std::string fill(std::string_view text, const std::string& file);

  const std::vector<Footnote>& footnotes() const { return footnotes_; }

  /// The data sources as a Markdown block (a "Data sources" list in <div class="data-sources">,
  /// each item anchored at its label), "" when none.
  std::string footnote_definitions() const;

 private:
  std::string fill_one(std::string_view body);
  std::string gpu_cell(const std::vector<std::string>& parts);
  std::string record_number(std::string_view rest);
  std::string planned_modules(const std::vector<std::string>& parts) const;
  const nlohmann::json& record(const std::string& path);
  std::string cite(char kind, const std::string& key, const std::string& text, const std::string& place = "");

  std::filesystem::path root_;
  const curriculum::Curriculum& curriculum_;
  std::map<std::string, nlohmann::json> records_;
  std::vector<Footnote> footnotes_;
  std::map<std::string, std::size_t> footnote_of_key_;          ///< kind + key -> index in footnotes_
  std::map<std::size_t, std::vector<std::string>> places_;        ///< index -> places in the document
  int count_[2] = {0, 0};                                         ///< sources so far: documents, records
};

/// A number as a template asks for it: `spec` is a {fmt} format spec ("" = the shortest text
/// that reads back the same number; integers without a decimal point). Throws
/// std::invalid_argument with the reason for a spec {fmt} refuses.
std::string format_number(double value, bool is_integer, const std::string& spec);

}  // namespace tutor::sheets
