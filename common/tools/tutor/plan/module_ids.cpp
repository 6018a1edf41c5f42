#include "plan/module_ids.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "tutor/cli.hpp"

namespace tutor::plan {

std::string module_id_ranges(const curriculum::Curriculum& curriculum) {
  std::map<std::string, std::vector<std::string>> by_track;  // track -> ids, sorted below
  for (const auto& module : curriculum.modules) by_track[module.track].push_back(module.id);
  std::vector<std::string> parts;
  for (const auto& track : curriculum.tracks) {
    std::vector<std::string>& ids = by_track[track.id];
    if (ids.empty()) continue;
    std::sort(ids.begin(), ids.end());
    bool consecutive = true;  // X01, X02, ..., X<n>
    for (std::size_t i = 0; i < ids.size(); ++i) consecutive = consecutive && ids[i] == fmt::format("{}{:02}", track.id, i + 1);
    if (consecutive && ids.size() > 1) {
      parts.push_back(ids.front() + ".." + ids.back());
    } else {
      parts.insert(parts.end(), ids.begin(), ids.end());
    }
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string canonical_module_id(const curriculum::Curriculum& curriculum, std::string_view typed,
                                std::string_view context) {
  std::string id(typed);
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (!curriculum.has_module(id)) {
    // The id is echoed only when printable (a stray control byte must not garble the one
    // line) and short (a pasted paragraph must not bury the list of ids).
    const bool printable = std::all_of(typed.begin(), typed.end(), [](unsigned char c) { return c >= 0x20 && c < 0x7f; });
    const std::string shown = !printable        ? std::string("(unprintable)")
                              : typed.size() > 24 ? std::string(typed.substr(0, 21)) + "..."
                                                  : std::string(typed);
    throw UsageError(fmt::format("{}: unknown module '{}'; the modules are {}", context, shown,
                                 module_id_ranges(curriculum)));
  }
  return id;
}

std::vector<std::string> canonical_module_ids(const curriculum::Curriculum& curriculum,
                                              const std::vector<std::string>& typed, std::string_view context) {
  std::vector<std::string> ids;
  for (const std::string& one : typed) {
    std::string id = canonical_module_id(curriculum, one, context);
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(std::move(id));
  }
  return ids;
}

}  // namespace tutor::plan
