// tutor_curriculum: renders CURRICULUM.md from data/curriculum.json, or checks that the
// committed file still matches the data.
//
//   tutor_curriculum --data data/curriculum.json                      # print to stdout (or --out -)
//   tutor_curriculum --data data/curriculum.json --out CURRICULUM.md  # write (atomically)
//   tutor_curriculum --data data/curriculum.json --out CURRICULUM.md --check
//
// Exit codes (ARCHITECTURE.md): 0 written / in sync; 1 --check found a difference;
// 2 bad input (missing or unreadable file, invalid JSON or curriculum, unwritable --out).
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "tutor/cli.hpp"
#include "tutor/curriculum.hpp"

namespace {

namespace fs = std::filesystem;
namespace curriculum = tutor::curriculum;

constexpr const char* kProgram = "tutor_curriculum";

// 1-based number of the first line where the two texts differ (a missing trailing line
// counts as a difference at the line after the shorter text's last).
std::size_t first_differing_line(const std::string& a, const std::string& b) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) return line;
    if (a[i] == '\n') ++line;
  }
  return line;
}

int run(const std::string& data_path, const std::string& out_path, bool check) {
  curriculum::Curriculum loaded;
  try {
    loaded = curriculum::load_curriculum(data_path);
  } catch (const std::runtime_error& error) {
    throw tutor::UsageError(fmt::format("--data {}: {}", data_path, error.what()));
  }
  const std::string rendered = curriculum::render_markdown(loaded);

  if (out_path.empty() || out_path == "-") {
    tutor::write_output("--out", "-", rendered);
    return tutor::kExitOk;
  }

  const std::string regenerate =
      fmt::format("regenerate with: {} --data {} --out {}", kProgram, data_path, out_path);
  if (check) {
    if (!fs::exists(out_path)) {
      std::fprintf(stderr, "%s: %s does not exist; %s\n", kProgram, out_path.c_str(),
                   regenerate.c_str());
      return tutor::kExitCheckFailed;
    }
    std::ifstream in(out_path, std::ios::binary);
    if (!in) throw tutor::UsageError(fmt::format("--out {}: cannot read it", out_path));
    std::ostringstream committed;
    committed << in.rdbuf();
    if (committed.str() != rendered) {
      std::fprintf(stderr, "%s: %s differs from the rendering of %s from line %zu on; %s\n",
                   kProgram, out_path.c_str(), data_path.c_str(),
                   first_differing_line(committed.str(), rendered), regenerate.c_str());
      return tutor::kExitCheckFailed;
    }
    std::printf("%s is in sync with %s\n", out_path.c_str(), data_path.c_str());
    return tutor::kExitOk;
  }

  tutor::write_output("--out", out_path, rendered);  // atomically (common's write_file_atomic)
  std::printf("wrote %s: %zu modules, %zu learning paths, %d learner-hours\n", out_path.c_str(),
              loaded.modules.size(), loaded.paths.size(), curriculum::total_hours(loaded));
  return tutor::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return tutor::run_main(kProgram, [&] {
    CLI::App app{"Render CURRICULUM.md (dependency graph, module table, learning paths) from the "
                 "curriculum data, or check that the committed file matches it.",
                 kProgram};
    std::string data_path;
    std::string out_path;
    bool check = false;
    app.add_option("--data", data_path, "curriculum data (JSON), e.g. data/curriculum.json")
        ->required()
        ->check(CLI::ExistingFile);
    auto* out_option = app.add_option(
        "--out", out_path, "Markdown file to write, e.g. CURRICULUM.md ('-' or not given: standard output)");
    app.add_flag("--check", check, "write nothing; exit 1 if the --out file differs from the rendering")
        ->needs(out_option);
    if (const int parsed = tutor::parse_command_line(app, argc, argv); parsed >= 0) return parsed;

    std::error_code ec;
    // The data must be a regular file of sane size (not /dev/zero), and never the output.
    if (!fs::is_regular_file(data_path, ec) || fs::file_size(data_path, ec) > (16u << 20))
      throw tutor::UsageError(fmt::format("--data {}: must be a readable JSON file of at most 16 MiB", data_path));
    tutor::require_distinct_outputs({{"--out", out_path}}, {{"--data", data_path}});
    if (check) {
      if (out_path == "-") throw tutor::UsageError("--out: --check compares a file; give its path, not '-'");
      if (fs::exists(out_path, ec) && !fs::is_regular_file(out_path, ec))
        throw tutor::UsageError(fmt::format("--out {}: is not a regular file", out_path));
    } else {
      tutor::require_writable("--out", out_path);
    }
    return run(data_path, out_path, check);
  });
}
