#pragma once
// The reference sheets as files: each template docs/cheatsheets/src/<id>.md becomes <id>.md
// (filled Markdown, read on GitHub) and <id>.html (one page, print CSS), and README.md indexes
// them. Everything is made in memory from the templates, the GPU table, the committed records
// and the curriculum, so the same inputs always give the same bytes (no dates, no paths of the
// machine) and --check can compare with the committed files.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "tutor/curriculum.hpp"

namespace tutor::sheets {

/// The known sheets in the order the index lists them: the tracks (track A in two parts), then
/// the concept clusters.
inline constexpr std::string_view kSheetIds[] = {
    "track-a",      "track-a-ml",    "track-b",           "track-c",                "memory-hierarchy", "roofline",
    "tiling-tensor-cores", "numerics-fp8", "transformer-arithmetic", "serving-kv-cache", "sharding-collectives"};

/// One file to write, named relative to the output folder.
struct GeneratedFile {
  std::string name;
  std::string text;
};

/// What to generate from where.
struct SheetInputs {
  std::filesystem::path repository_root;  ///< record paths are relative to it
  std::filesystem::path templates;        ///< the folder of <id>.md templates
  std::string templates_label;            ///< how messages and generated files name that folder
  const curriculum::Curriculum* curriculum = nullptr;
};

/// The ids of the templates in `templates` (every <id>.md), in index order: the known
/// ids first, then any other in name order. Throws UsageError for a file name that is not an
/// id ([a-z0-9-]) or a folder that cannot be read.
std::vector<std::string> template_ids(const std::filesystem::path& templates);

/// The files of the sheets `ids` (<id>.md and <id>.html each), and README.md when
/// `with_index`. Throws UsageError (exit 2) naming the file, line and placeholder that cannot
/// be filled.
std::vector<GeneratedFile> generate_sheets(const SheetInputs& in, const std::vector<std::string>& ids, bool with_index);

/// The stylesheet every sheet carries inline (sheet.css, built in).
std::string_view sheet_css();

}  // namespace tutor::sheets
