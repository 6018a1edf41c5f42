// Reads a twin allowlist (format in allowlist.hpp).
#include "allowlist.hpp"

#include <sstream>
#include <stdexcept>

namespace tutor::twins {

namespace {
std::string trim(const std::string& s) {
  const std::size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}
}  // namespace

std::vector<AllowEntry> parse_allowlist(const std::string& text, const std::string& path) {
  std::vector<AllowEntry> entries;
  std::istringstream in(text);
  std::string raw;
  bool reason_above = false;
  for (int number = 1; std::getline(in, raw); ++number) {
    const std::string line = trim(raw);
    if (line.empty()) {
      reason_above = false;
      continue;
    }
    if (line[0] == '#') {
      reason_above = true;
      continue;
    }
    const auto where = [&] { return path + ":" + std::to_string(number) + ": "; };
    AllowEntry entry{AllowEntry::Side::cuda, "", number};
    std::string rest;
    if (line.rfind("cuda:", 0) == 0) {
      rest = line.substr(5);
    } else if (line.rfind("hip:", 0) == 0) {
      entry.side = AllowEntry::Side::hip;
      rest = line.substr(4);
    } else {
      throw std::invalid_argument(where() + "expected 'cuda: <line>', 'hip: <line>', a '# reason' or a blank line");
    }
    // A normalised line never holds two spaces in a row, so "  #" starts a trailing reason.
    const std::size_t trailing = rest.find("  #");
    if (trailing != std::string::npos) rest.resize(trailing);
    entry.text = trim(rest);
    if (entry.text.empty()) throw std::invalid_argument(where() + "the entry has no line after its side");
    if (trailing == std::string::npos && !reason_above)
      throw std::invalid_argument(where() + "the entry has no reason ('# why' above it, or '  # why' after it)");
    entries.push_back(entry);
  }
  return entries;
}

}  // namespace tutor::twins
