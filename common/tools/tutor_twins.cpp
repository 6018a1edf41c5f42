// tutor_twins: the twin test. Every GPU lab ships cuda/X.cu and hip/X.hip; this checks that
// each pair still says the same thing (docs/DESIGN.md, "Twins"). cmake/TutorTwins.cmake runs
// it as the ctest <lab>.twins; run it by hand the same way:
//
//   tutor_twins --name a07_sgemm --dir trackA/a07_tiled_gemm --mode mirror vendor_blas=structural
//     --cuda cuda/sgemm.cu cuda/vendor_blas.cu --hip hip/sgemm.hip hip/vendor_blas.hip
//
// Pairs are matched by file stem (cuda/sgemm.cu <-> hip/sgemm.hip). Modes, per pair:
//   mirror       the normalised lines agree except those in hip/<stem>.twin-allow, and the
//                structural checks below hold;
//   structural   the same kernel names, launcher signatures and step banners, in order;
//   nvidia-only  there is no HIP twin, or it is a stub ("// nvidia-only: <why>", no kernels).
//
// Exit codes: 0 the twins agree; 1 they drift (one line per finding on stderr, then a
// summary); 2 bad input (a file that cannot be read, an unknown mode, a malformed allowlist).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compare.hpp"
#include "tutor/atomic_file.hpp"
#include "tutor/cli.hpp"

namespace {

namespace fs = std::filesystem;
namespace twins = tutor::twins;

constexpr const char* kProgram = "tutor_twins";

enum class Mode { mirror, structural, nvidia_only };

Mode parse_mode(const std::string& text) {
  if (text == "mirror") return Mode::mirror;
  if (text == "structural") return Mode::structural;
  if (text == "nvidia-only") return Mode::nvidia_only;
  throw tutor::UsageError("--mode: unknown mode '" + text + "' (allowed: mirror, structural, nvidia-only)");
}

const char* mode_name(Mode mode) {
  return mode == Mode::mirror ? "mirror" : mode == Mode::structural ? "structural" : "nvidia-only";
}

// A kernel source is text of a few hundred lines; the line diff's table grows with the product
// of the two files' lines, so larger inputs are refused rather than compared for minutes.
constexpr std::size_t kMaxSourceBytes = std::size_t(1) << 20;
constexpr std::size_t kMaxSourceLines = 5000;

std::string read_text(const std::string& option, const fs::path& path) {
  std::string text;
  try {
    text = tutor::read_text_file(path.string(), kMaxSourceBytes);
  } catch (const std::runtime_error& e) {
    throw tutor::UsageError(option + ": cannot read " + path.string() + ": " + e.what());
  }
  if (text.find('\0') != std::string::npos)
    throw tutor::UsageError(option + ": " + path.string() + " is not a text file (it holds NUL bytes)");
  if (std::size_t(std::count(text.begin(), text.end(), '\n')) > kMaxSourceLines)
    throw tutor::UsageError(option + ": " + path.string() + " has more than " + std::to_string(kMaxSourceLines) +
                            " lines; a kernel source is far shorter");
  return text;
}

// stem -> path as messages name it (the folder joined to the file), in the order given.
std::vector<std::pair<std::string, std::string>> by_stem(const std::string& option, const fs::path& dir,
                                                         const std::vector<std::string>& files) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& file : files) {
    const std::string stem = fs::path(file).stem().string();
    for (const auto& [seen, path] : out)
      if (seen == stem) throw tutor::UsageError(option + ": two files with stem '" + stem + "': " + path + ", " + file);
    out.emplace_back(stem, (dir / file).lexically_normal().string());
  }
  return out;
}

// Where a CUDA file's HIP twin lives by convention: cuda/ -> hip/, .cu -> .hip.
fs::path conventional_twin(const fs::path& cuda) {
  fs::path dir = cuda.parent_path();
  if (dir.filename() == "cuda") dir = dir.parent_path() / "hip";
  const std::string ext = cuda.extension() == ".cu" || cuda.extension() == ".cuh" ? ".hip" : cuda.extension().string();
  return dir / (cuda.stem().string() + ext);
}

std::vector<std::string> check_pair(Mode mode, const std::string& cuda_path, const std::string& hip_path) {
  const twins::Source cuda{cuda_path, read_text("--cuda", cuda_path)};
  if (mode == Mode::nvidia_only) {
    const std::string candidate = hip_path.empty() ? conventional_twin(cuda_path).string() : hip_path;
    std::error_code ec;
    if (!fs::exists(candidate, ec)) return {};
    if (twins::is_nvidia_only_stub(read_text("--hip", candidate))) return {};
    return {"nvidia-only: " + candidate + " exists and is not a stub (a stub has a '// nvidia-only: <why>' "
            "comment and no kernels); remove it, or give the pair a mirror or structural mode"};
  }
  if (hip_path.empty())
    return {"missing twin: " + cuda_path + " has no HIP twin (expected " + conventional_twin(cuda_path).string() +
            " in --hip)"};
  const twins::Source hip{hip_path, read_text("--hip", hip_path)};
  std::vector<std::string> findings = twins::compare_structure(cuda, hip);
  const std::string allow_path = fs::path(hip_path).replace_extension(".twin-allow").string();
  std::error_code ec;
  const bool has_allowlist = fs::exists(allow_path, ec);
  if (mode == Mode::structural) {
    if (has_allowlist)
      findings.push_back("structural pair with an allowlist: " + allow_path +
                         " is not read in structural mode; remove it");
    return findings;
  }
  std::vector<twins::AllowEntry> allow;
  if (has_allowlist)
    allow = tutor::as_usage([&] { return twins::parse_allowlist(read_text("allowlist", allow_path), allow_path); });
  for (std::string& finding : twins::compare_lines(cuda, hip, allow, allow_path)) findings.push_back(finding);
  return findings;
}

int run(const std::string& name, const fs::path& dir, const std::vector<std::string>& modes,
        const std::vector<std::string>& cuda_files, const std::vector<std::string>& hip_files) {
  const Mode default_mode = parse_mode(modes.front());
  const auto cuda = by_stem("--cuda", dir, cuda_files);
  const auto hip = by_stem("--hip", dir, hip_files);
  std::map<std::string, Mode> overrides;
  for (std::size_t i = 1; i < modes.size(); ++i) {
    const std::size_t eq = modes[i].find('=');
    if (eq == std::string::npos || eq == 0)
      throw tutor::UsageError("--mode: '" + modes[i] + "' is not <stem>=<mode> (after the default mode)");
    const std::string stem = modes[i].substr(0, eq);
    bool known = false;
    for (const auto& [cuda_stem, path] : cuda) known |= cuda_stem == stem;
    if (!known) throw tutor::UsageError("--mode: '" + modes[i] + "' names no --cuda file with stem '" + stem + "'");
    overrides[stem] = parse_mode(modes[i].substr(eq + 1));
  }

  std::vector<std::string> findings;
  std::string pairs;
  for (const auto& [stem, cuda_path] : cuda) {
    const Mode mode = overrides.count(stem) ? overrides[stem] : default_mode;
    std::string hip_path;
    for (const auto& [hip_stem, path] : hip)
      if (hip_stem == stem) hip_path = path;
    for (std::string& f : check_pair(mode, cuda_path, hip_path)) findings.push_back(std::move(f));
    pairs += (pairs.empty() ? "" : ", ") + stem + " " + mode_name(mode);
  }
  for (const auto& [stem, hip_path] : hip) {
    bool paired = false;
    for (const auto& [cuda_stem, path] : cuda) paired |= cuda_stem == stem;
    if (!paired) findings.push_back("missing twin: " + hip_path + " has no CUDA twin with stem '" + stem + "' in --cuda");
  }

  if (findings.empty()) {
    std::printf("%s: twins agree (%s)\n", name.c_str(), pairs.c_str());
    return tutor::kExitOk;
  }
  for (const std::string& f : findings) std::fprintf(stderr, "%s\n", f.c_str());
  std::fprintf(stderr, "%s: %zu finding%s (%s); see docs/DESIGN.md, \"Twins\"\n", name.c_str(), findings.size(),
               findings.size() == 1 ? "" : "s", pairs.c_str());
  return tutor::kExitCheckFailed;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Compare each cuda/ kernel file with its hip/ twin (docs/DESIGN.md, \"Twins\").", kProgram};
  std::string name = "twins";
  std::string dir = ".";
  std::vector<std::string> modes, cuda_files, hip_files;
  app.add_option("--name", name, "the lab, for messages (default: twins)");
  app.add_option("--dir", dir, "the module folder; --cuda and --hip paths are relative to it (default: .)");
  app.add_option("--mode", modes,
                 "the default mode (mirror, structural or nvidia-only), then <stem>=<mode> for pairs that differ")
      ->required()
      ->expected(1, -1);
  app.add_option("--cuda", cuda_files, "the CUDA sources (cuda/X.cu, exercises/cuda/X.cu, ...)")
      ->required()
      ->expected(1, -1);
  app.add_option("--hip", hip_files, "the HIP sources; a pair's twin has the same stem")->expected(1, -1);

  if (const int parsed = tutor::parse_command_line(app, argc, argv); parsed >= 0) return parsed;
  return tutor::run_main(kProgram, [&] { return run(name, dir, modes, cuda_files, hip_files); });
}
