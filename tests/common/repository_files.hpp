#pragma once
// The repository's own files, as the checks across it read them (Markdown links, README
// commands): every source folder below the root, without build folders or hidden ones.
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace tutor::testing {

/// A build folder (anything CMake configured) or a hidden one (.git) holds no sources.
inline bool skipped_directory(const std::filesystem::path& dir) {
  const std::string name = dir.filename().string();
  return name.empty() || name.front() == '.' || name.rfind("build", 0) == 0 ||
         std::filesystem::exists(dir / "CMakeCache.txt");
}

/// Every regular file below `root` (outside skipped folders) that `wanted` accepts.
inline std::vector<std::filesystem::path> repository_files(
    const std::filesystem::path& root, const std::function<bool(const std::filesystem::path&)>& wanted) {
  std::vector<std::filesystem::path> files;
  std::filesystem::recursive_directory_iterator it(root), end;
  for (; it != end; ++it) {
    if (it->is_directory() && skipped_directory(it->path())) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && wanted(it->path())) {
      files.push_back(it->path());
    }
  }
  return files;
}

/// Tracks fenced code blocks line by line (CommonMark: a fence is ``` or ~~~ indented at most 3
/// spaces; a block closes at the same marker with no info string after it).
class FenceTracker {
 public:
  /// Feeds one line; true when the line is itself a fence (opening or closing).
  bool fence_line(const std::string& line) {
    const std::size_t indent = line.find_first_not_of(' ');
    for (const std::string marker : {"```", "~~~"}) {
      if (indent == std::string::npos || indent > 3 || line.compare(indent, 3, marker) != 0) continue;
      if (marker_.empty()) {
        marker_ = marker;
        language_.clear();
        const std::size_t info = line.find_first_not_of(marker[0], indent);
        if (info != std::string::npos) std::istringstream(line.substr(info)) >> language_;
        return true;
      }
      if (marker_ == marker && line.find_first_not_of(marker[0], indent) == std::string::npos) {
        marker_.clear();
        language_.clear();
        return true;
      }
    }
    return false;  // a longer or other fence inside a block is its content
  }
  bool inside() const { return !marker_.empty(); }
  /// The info string's first word of the open block ("console", "sh"), "" outside one.
  const std::string& language() const { return language_; }

 private:
  std::string marker_, language_;
};

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace tutor::testing
