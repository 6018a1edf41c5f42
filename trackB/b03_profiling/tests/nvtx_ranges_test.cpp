// Every GPU lab names its timed steps for the profilers: `ncu --nvtx --nvtx-include "<step>/"`
// profiles one step only if the step's launches run inside an NVTX range named after it
// (ARCHITECTURE.md, "Conventions every executable follows"; B03's README teaches the workflow).
//
// The check reads the repository, not a GPU: every tutor_add_lab(...) with CUDA sources is a GPU
// lab, and its host sources must either time through the runner (time_launches opens a range
// named after the step: checked below) or open gpu::ProfilerRange themselves; and every host
// function that times launches with its own gpu::Event pair must open a range in that same
// function. Known gaps are listed below with what they leave unnamed: a gap that is closed fails
// the test until its entry is removed, and a new one fails until it is closed (or listed).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/common/repository_files.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path kRoot = TUTOR_SOURCE_DIR;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The text with comments, string and character literals blanked (same length), so braces and
/// names inside them are not code.
std::string code_only(const std::string& text) {
  std::string out = text;
  enum { code, line_comment, block_comment, string_lit, char_lit } state = code;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = text[i], next = i + 1 < text.size() ? text[i + 1] : '\0';
    switch (state) {
      case code:
        if (c == '/' && next == '/') state = line_comment, out[i] = ' ';
        else if (c == '/' && next == '*') state = block_comment, out[i] = ' ';
        else if (c == '"') state = string_lit;
        else if (c == '\'') state = char_lit;
        break;
      case line_comment:
        if (c == '\n') state = code;
        else out[i] = ' ';
        break;
      case block_comment:
        if (c == '*' && next == '/') out[i] = out[i + 1] = ' ', ++i, state = code;
        else if (c != '\n') out[i] = ' ';
        break;
      case string_lit:
      case char_lit:
        if (c == '\\') out[i] = ' ', out[i + 1] = ' ', ++i;
        else if (c == (state == string_lit ? '"' : '\'')) state = code;
        else out[i] = ' ';
        break;
    }
  }
  return out;
}

/// One tutor_add_lab(...) call: its name, folder and source lists (variables like ${x} dropped).
struct LabDeclaration {
  std::string name;
  fs::path dir;
  std::vector<std::string> host, cuda;
};

std::vector<LabDeclaration> lab_declarations() {
  std::vector<LabDeclaration> labs;
  const auto lists = tutor::testing::repository_files(kRoot, [](const fs::path& p) {
    return p.filename() == "CMakeLists.txt";
  });
  for (const fs::path& file : lists) {
    const std::string text = read_text(file);
    for (std::size_t at = text.find("tutor_add_lab("); at != std::string::npos; at = text.find("tutor_add_lab(", at + 1)) {
      if (at > 0 && text[at - 1] != '\n' && text[at - 1] != ' ') continue;  // not a call
      const std::size_t line_start = text.rfind('\n', at) + 1;
      if (text.find('#', line_start) < at) continue;  // inside a comment
      std::size_t end = at, depth = 0;
      for (; end < text.size(); ++end) {
        if (text[end] == '(') ++depth;
        if (text[end] == ')' && --depth == 0) break;
      }
      std::istringstream words(text.substr(at + 14, end - at - 14));
      LabDeclaration lab{"", file.parent_path(), {}, {}};
      std::string word, key;
      while (words >> word) {
        if (word == "NAME" || word == "MODULE" || word == "HOST" || word == "CUDA" || word == "HIP" || word == "LIBS" ||
            word == "CUDA_LIBS" || word == "HIP_LIBS" || word == "TWIN") {
          key = word;
        } else if (word.find("${") != std::string::npos) {
          continue;
        } else if (key == "NAME") {
          lab.name = word;
        } else if (key == "HOST") {
          lab.host.push_back(word);
        } else if (key == "CUDA") {
          lab.cuda.push_back(word);
        }
      }
      labs.push_back(lab);
    }
  }
  return labs;
}

/// A function of a host source that times launches with its own events.
struct TimingFunction {
  std::string file, function;
  bool opens_range = false;
};

/// Every function body in `code` (comments and literals blanked) that declares a gpu::Event: the
/// outermost enclosing brace block whose header has a parameter list (namespaces and classes have
/// none; lambdas and loops nest inside the function).
std::vector<TimingFunction> timing_functions(const std::string& file, const std::string& code) {
  std::vector<std::pair<std::size_t, std::size_t>> blocks;  // open, close
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '{') open.push_back(i);
    if (code[i] == '}' && !open.empty()) blocks.push_back({open.back(), i}), open.pop_back();
  }
  std::sort(blocks.begin(), blocks.end());
  std::vector<TimingFunction> out;
  std::set<std::size_t> seen;
  for (std::size_t at = code.find("gpu::Event"); at != std::string::npos; at = code.find("gpu::Event", at + 1)) {
    for (const auto& [begin, end] : blocks) {
      if (!(begin < at && at < end)) continue;
      const std::size_t header_start = code.find_last_of(";{}", begin - 1) + 1;
      const std::string header = code.substr(header_start, begin - header_start);
      if (header.find(')') == std::string::npos) continue;  // a namespace or a class
      if (!seen.insert(begin).second) break;
      const std::string before_paren = header.substr(0, header.find('('));
      const std::size_t name_start = before_paren.find_last_of(" \n\t*&:") + 1;
      const std::string body = code.substr(begin, end - begin);
      out.push_back({file, before_paren.substr(name_start), body.find("ProfilerRange") != std::string::npos});
      break;
    }
  }
  return out;
}

/// What a GPU lab does about naming its steps, read from its sources.
struct LabRanges {
  bool has_kernels = false;     // a __global__ function in its CUDA sources
  bool uses_runner = false;     // times through time_launches (directly or through the ladder main)
  bool opens_ranges = false;    // opens gpu::ProfilerRange itself
  std::vector<TimingFunction> own_timing;
};

LabRanges inspect(const LabDeclaration& lab) {
  LabRanges r;
  for (const auto& src : lab.cuda) r.has_kernels |= code_only(read_text(lab.dir / src)).find("__global__") != std::string::npos;
  for (const auto& src : lab.host) {
    const std::string code = code_only(read_text(lab.dir / src));
    for (const char* runner : {"ladder_main(", "run_ladder_lab(", "run_step(", "run_steps(", "time_launches("})
      r.uses_runner |= code.find(runner) != std::string::npos;
    r.opens_ranges |= code.find("ProfilerRange") != std::string::npos;
    const std::string file = fs::relative(lab.dir / src, kRoot).generic_string();
    for (auto& f : timing_functions(file, code)) r.own_timing.push_back(f);
  }
  return r;
}

/// Timed launches outside any range that are accepted for now, by lab and function ("lab: function"
/// -> why). None: the last two (A01's whole-program run, B04's vendor and library encode rows) now
/// open ranges named after what they time. A new entry needs a reason.
const std::map<std::string, std::string> kKnownGaps = {};

TEST(NvtxRanges, TheRunnerOpensARangeNamedAfterEachStepAroundItsTimedLaunches) {
  const std::string runner = code_only(read_text(kRoot / "common/src/ladder.cpp"));
  const std::size_t timing = runner.find("Summary time_launches(");
  ASSERT_NE(timing, std::string::npos);
  const std::size_t range = runner.find("gpu::ProfilerRange range(name.c_str());", timing);
  const std::size_t first_launch = runner.find("launch();", timing);
  ASSERT_NE(range, std::string::npos) << "time_launches no longer opens a range named after the step";
  EXPECT_LT(range, first_launch) << "the range must open before the warm-up launches";
  const std::string ladder = code_only(read_text(kRoot / "common/include/tutor/ladder.hpp"));
  EXPECT_NE(ladder.find("time_launches(step.info.name,"), std::string::npos)
      << "run_step must name the range after the step (StepInfo::name)";
}

TEST(NvtxRanges, FindsEveryGpuLab) {
  std::set<std::string> gpu_labs;
  for (const auto& lab : lab_declarations())
    if (!lab.cuda.empty()) gpu_labs.insert(lab.name);
  // A lab named here that disappears means the parser broke, not that the lab is gone.
  for (const char* lab : {"a01_vector_add", "a02_transpose", "a07_sgemm", "b01_device_info", "b02_roofline",
                          "b03_mystery", "b04_fp8_sweep", "b07_collectives", "tutor_baselines"})
    EXPECT_TRUE(gpu_labs.count(lab)) << lab << " not found among the GPU labs";
}

TEST(NvtxRanges, EveryGpuLabNamesItsTimedLaunchesForTheProfiler) {
  std::set<std::string> gaps_found;
  for (const auto& lab : lab_declarations()) {
    if (lab.cuda.empty()) continue;
    const LabRanges r = inspect(lab);
    if (r.has_kernels) {
      EXPECT_TRUE(r.uses_runner || r.opens_ranges)
          << lab.name << " launches kernels but neither times them through the runner nor opens a gpu::ProfilerRange";
    }
    for (const auto& f : r.own_timing) {
      if (f.opens_range) continue;
      const std::string key = lab.name + ": " + f.function;
      gaps_found.insert(key);
      EXPECT_TRUE(kKnownGaps.count(key)) << key << " (" << f.file << ") times launches with its own gpu::Event pair "
                                         << "outside any gpu::ProfilerRange: open one named after what it times";
    }
  }
  for (const auto& [key, what] : kKnownGaps)
    EXPECT_TRUE(gaps_found.count(key)) << "known gap '" << key << "' (" << what
                                       << ") is closed or moved: remove its entry from kKnownGaps";
}

TEST(NvtxRanges, B03NamesItsRangesAsItsReadmeProfilesThem) {
  // The README's commands say --nvtx-include "mystery_N/": the steps must be named mystery_N.
  const std::string lab = read_text(kRoot / "trackB/b03_profiling/b03_mystery.cpp");
  EXPECT_NE(lab.find("fmt::format(\"mystery_{}\", n)"), std::string::npos);
  EXPECT_NE(lab.find("fmt::format(\"fix_{}\", n)"), std::string::npos);
}

}  // namespace
