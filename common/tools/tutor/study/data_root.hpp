#pragma once
// Where the study tools find the repository's data/ (curriculum, cards, rubrics).
#include <filesystem>
#include <string>

namespace tutor::study {

/// The data folder: `override` (--data DIR) when not empty; else ./data when it holds
/// curriculum.json (the tools run from the repository root, as the README shows); else the
/// source tree's data/ this binary was built from. Throws UsageError naming --data when the
/// folder chosen has no curriculum.json.
std::filesystem::path data_root(const std::string& override);

/// The repository root: the folder above data_root(override). Records and READMEs are found
/// from here ("docs/results/...", "trackA/...").
std::filesystem::path repository_root(const std::string& override);

}  // namespace tutor::study
