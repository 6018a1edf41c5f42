#pragma once
// A module README's numbered sources (its section "## 8. Sources", one of the nine sections
// every module README has): what a card's `Source: [n]` points at.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "tutor/curriculum.hpp"

namespace tutor::cards {

/// The items of the README's "## 8. Sources" section, by number: an item is a line
/// "<n>. <text>" at the start of a line; indented lines below it continue it (joined with a
/// space). nullopt when the README has no such section.
std::optional<std::map<int, std::string>> parse_readme_sources(std::string_view readme_text);

/// The sources of the README at `readme` (parse_readme_sources); nullopt when the file cannot
/// be read or has no section. `why` (when given) says which.
std::optional<std::map<int, std::string>> load_readme_sources(const std::filesystem::path& readme,
                                                              std::string* why = nullptr);

/// The sources of each module's README, read once: modules are found in `curriculum` and
/// their READMEs at `<repository root>/<folder>/README.md`.
class ModuleSources {
 public:
  ModuleSources(const curriculum::Curriculum& curriculum, std::filesystem::path repository_root)
      : curriculum_(curriculum), root_(std::move(repository_root)) {}
  /// The module's sources, or nullptr when its README cannot be read or has no section (then
  /// `why` says which, naming the README).
  const std::map<int, std::string>* of(const std::string& module, std::string* why = nullptr);
  /// The module's README, repository-relative ("trackA/a02_coalescing/README.md").
  std::string readme(const std::string& module) const;

 private:
  struct Entry {
    std::optional<std::map<int, std::string>> sources;
    std::string why;
  };
  const curriculum::Curriculum& curriculum_;
  std::filesystem::path root_;
  std::map<std::string, Entry> loaded_;
};

/// A source's text shortened for a terminal line: Markdown links read as their text, URLs
/// dropped, cut at a word boundary to at most `max_chars` characters with "..." added.
std::string short_source_text(std::string_view text, std::size_t max_chars = 150);

}  // namespace tutor::cards
