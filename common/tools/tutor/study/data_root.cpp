#include "study/data_root.hpp"

#include <fmt/format.h>

#include <system_error>

#include "tutor/cli.hpp"

#ifndef TUTOR_SOURCE_DIR
#error "TUTOR_SOURCE_DIR must name the source tree (set in common/tools/tutor/CMakeLists.txt)"
#endif

namespace tutor::study {
namespace fs = std::filesystem;

fs::path data_root(const std::string& override) {
  std::error_code ec;
  if (!override.empty()) {
    if (!fs::is_regular_file(fs::path(override) / "curriculum.json", ec))
      throw UsageError(fmt::format("--data: {} is not the tutor's data folder (it has no curriculum.json)", override));
    return fs::path(override);
  }
  if (fs::is_regular_file("data/curriculum.json", ec)) return fs::path("data");
  const fs::path built_from = fs::path(TUTOR_SOURCE_DIR) / "data";
  if (fs::is_regular_file(built_from / "curriculum.json", ec)) return built_from;
  throw UsageError(fmt::format("--data: no data folder: run from the repository root, or give --data DIR "
                               "(the source tree {} has none)", TUTOR_SOURCE_DIR));
}

fs::path repository_root(const std::string& override) {
  const fs::path data = data_root(override);
  const fs::path parent = data.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

}  // namespace tutor::study
