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

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace tutor::testing
