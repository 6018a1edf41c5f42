// The answer key's Nsight Compute commands are the ones run_h200.sh runs on the H200, so the
// counters quoted in the key come from exactly the command printed beside them.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace {

const std::string kModule = std::string(TUTOR_SOURCE_DIR) + "/trackB/b03_profiling/";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Lines that start with "ncu " in `text`.
std::set<std::string> ncu_lines(const std::string& text) {
  std::set<std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("ncu ", 0) == 0) out.insert(line);
  return out;
}

TEST(Recipes, TheAnswerKeyShowsExactlyTheCommandsTheH200ScriptRuns) {
  std::set<std::string> key;
  for (int n = 1; n <= 6; ++n) {
    const std::set<std::string> lines = ncu_lines(read_text(kModule + "exercises/solutions/mystery_" + std::to_string(n) + ".md"));
    EXPECT_EQ(lines.size(), 1u) << "mystery_" << n << ".md should show one Nsight Compute command";
    for (const auto& l : lines) {
      EXPECT_NE(l.find("--nvtx-include \"mystery_" + std::to_string(n) + "/\""), std::string::npos) << l;
      key.insert(l);
    }
  }
  const std::string script = read_text(kModule + "run_h200.sh");
  const std::size_t begin = script.find("recipes=$(cat <<'EOF'\n");
  const std::size_t end = script.find("\nEOF\n", begin);
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(ncu_lines(script.substr(begin, end - begin)), key);
}

}  // namespace
