// The study tools (plan, cards, sheets) against input a learner or a script gets wrong: outputs
// named over the files the command reads, an empty --state-dir, a state folder the ratings
// cannot be saved in, and sheet templates and records that once crashed the tool or printed a
// wrong number. Expected: one line on stderr, exit 2, nothing the learner has is changed.
// Every command runs on a copy of the card fixtures' repository in the build tree, so a
// regression overwrites a copy, never a file of the source tree.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "plan_process.hpp"
#include "sheets/placeholders.hpp"

namespace {

namespace fs = std::filesystem;
using tutor::testing::Ran;
using tutor::testing::run_tutor;
using tutor::testing::slurp;

const fs::path kFixtureRepo = fs::path(TUTOR_SOURCE_DIR) / "common/tools/tutor/tests/fixtures/cards/repo";

/// A fresh folder for the running test, holding `repo/`, a copy of the card fixtures' repository.
fs::path scratch() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir =
      fs::path(TUTOR_TEST_SCRATCH) / "hostile" / (std::string(info->test_suite_name()) + "." + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(kFixtureRepo, dir / "repo", fs::copy_options::recursive);
  return dir;
}

bool one_line(const std::string& text) { return !text.empty() && text.find('\n') == text.size() - 1; }

/// Runs tutor with `args` and standard input read from `input` (a review's keys).
Ran run_with_input(const fs::path& dir, const std::vector<std::string>& args, const std::string& input) {
  const fs::path keys = dir / "keys.txt";
  std::ofstream(keys, std::ios::binary) << input;
  const int saved = ::dup(STDIN_FILENO);
  const int fd = ::open(keys.c_str(), O_RDONLY);
  ::dup2(fd, STDIN_FILENO);
  ::close(fd);
  Ran ran = run_tutor(dir, args, {{"NO_COLOR", "1"}});
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  return ran;
}

// ---- outputs never overwrite what the command reads -----------------------------------

TEST(HostileOutputs, PlanJsonOverTheCurriculumIsRefusedAndTheFileKept) {
  const fs::path dir = scratch();
  const fs::path curriculum = dir / "repo/data/curriculum.json";
  const std::string before = slurp(curriculum);
  const Ran ran = run_tutor(dir, {"plan", "--state-dir", (dir / "state").string(), "--data", (dir / "repo/data").string(),
                                  "--json", curriculum.string()});
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err;
  EXPECT_NE(ran.err.find("--json: " + curriculum.string() + " is the file --data reads"), std::string::npos) << ran.err;
  EXPECT_EQ(slurp(curriculum), before);
}

TEST(HostileOutputs, CardsDueJsonOverACardFileOrTheCurriculumIsRefused) {
  const fs::path dir = scratch();
  const fs::path data = dir / "repo/data";
  for (const fs::path& input : {data / "cards/a02.md", data / "curriculum.json"}) {
    const std::string before = slurp(input);
    const Ran ran = run_tutor(dir, {"cards", "due", "--state-dir", (dir / "state").string(), "--data", data.string(),
                                    "--json", input.string()});
    EXPECT_EQ(ran.exit_code, 2) << input;
    EXPECT_TRUE(one_line(ran.err)) << ran.err;
    EXPECT_NE(ran.err.find("is the file --data reads"), std::string::npos) << ran.err;
    EXPECT_EQ(slurp(input), before) << input;
  }
}

TEST(HostileOutputs, AnkiExportOverAReadmeOrIntoTheCardFolderIsRefused) {
  const fs::path dir = scratch();
  const fs::path data = dir / "repo/data";
  const fs::path readme = dir / "repo/trackA/a02_coalescing/README.md";  // the sources the cards cite
  const std::string before = slurp(readme);
  Ran ran = run_tutor(dir, {"cards", "export", "--data", data.string(), "--anki", readme.string()});
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_NE(ran.err.find("--anki: " + readme.string() + " is the file --data reads"), std::string::npos) << ran.err;
  EXPECT_EQ(slurp(readme), before);
  // A new file in data/cards would be read as a card file by every later command.
  const fs::path a03 = data / "cards/a03.md";
  ran = run_tutor(dir, {"cards", "export", "--data", data.string(), "--anki", a03.string()});
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err;
  EXPECT_NE(ran.err.find("is in the card folder"), std::string::npos) << ran.err;
  EXPECT_FALSE(fs::exists(a03));
}

// ---- the state folder -----------------------------------------------------------------

TEST(HostileStateDir, AnEmptyStateDirIsRefusedNotTakenAsTheDefaultFolder) {
  // `--state-dir "$DIR"` with DIR unset must not write into the learner's real progress.
  const fs::path dir = scratch();
  const std::vector<std::pair<std::string, std::string>> env = {{"HOME", (dir / "home").string()},
                                                                {"XDG_STATE_HOME", "\x01unset"}};
  const std::string data = (dir / "repo/data").string();
  for (const std::vector<std::string>& args : {std::vector<std::string>{"plan", "--state-dir", "", "--data", data, "done", "A02"},
                                               std::vector<std::string>{"cards", "due", "--state-dir", "", "--data", data}}) {
    const Ran ran = run_tutor(dir, args, env);
    EXPECT_EQ(ran.exit_code, 2) << args[0];
    EXPECT_EQ(ran.err, "tutor: error: --state-dir: the path is empty; give a folder\n");
  }
  EXPECT_FALSE(fs::exists(dir / "home"));
}

TEST(HostileStateDir, AReviewWhoseRatingsCannotBeSavedStopsBeforeTheFirstCard) {
  // A state folder under a regular file cannot be created (even by root): the learner must be
  // told before answering a card, not after.
  const fs::path dir = scratch();
  std::ofstream(dir / "file") << "x";
  const Ran ran = run_with_input(dir, {"cards", "review", "--state-dir", (dir / "file/state").string(), "--data",
                                       (dir / "repo/data").string(), "--now", "2026-12-02T09:00:00Z"},
                                 "\n3\n");
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err;
  EXPECT_NE(ran.err.find("--state-dir: cannot create"), std::string::npos) << ran.err;
  EXPECT_EQ(ran.out.find("Q:"), std::string::npos) << ran.out;
}

// ---- sheets ---------------------------------------------------------------------------

/// `tutor sheets --src <dir>/src --out <dir>/out --sheet x` with x.md holding `text`, on the
/// source tree's data and records (read only).
Ran sheet(const fs::path& dir, const std::string& text, const fs::path& out = {}) {
  fs::create_directories(dir / "src");
  std::ofstream(dir / "src/x.md", std::ios::binary) << text;
  return run_tutor(dir, {"sheets", "--data", std::string(TUTOR_SOURCE_DIR) + "/data", "--src", (dir / "src").string(),
                         "--out", (out.empty() ? dir / "out" : out).string(), "--sheet", "x"});
}

TEST(HostileSheets, ALongPrintCommentIsReadWithoutRecursion) {
  // std::regex recursed once per character: 200,000 spaces overflowed the stack (SIGSEGV).
  const fs::path dir = scratch();
  Ran ran = sheet(dir, "# T\n<!-- print:" + std::string(200000, ' ') + "-->\n");
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  ran = sheet(dir, "# T\n<!-- print:" + std::string(500000, 'a') + "-->\n");
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err.substr(0, 300);
  EXPECT_NE(ran.err.find("give columns=N and/or font=Npt"), std::string::npos);
  ran = sheet(dir, "# T\n<!-- note --> <!--print: columns=2 font=6.5pt-->\n");
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(slurp(dir / "out/x.html").find("style=\"--print-columns: 2; --print-font: 6.5pt;\""), std::string::npos);
}

TEST(HostileSheets, AnArrayIndexPastSizeTIsNothingThereNotALibraryError) {
  const fs::path dir = scratch();
  const Ran ran = sheet(dir, "# T\n{{record:docs/results/H200/a02_coalescing/a02_transpose.json:/steps/99999999999999999999}}\n");
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err;
  EXPECT_NE(ran.err.find("has nothing at /steps/99999999999999999999"), std::string::npos) << ran.err;
}

TEST(HostileSheets, OutTheTemplatesFolderIsRefusedAndTheTemplateKept) {
  const fs::path dir = scratch();
  const std::string text = "# T\n{{gpu:h200-sxm:sm_count}}\n";
  const Ran ran = sheet(dir, text, dir / "src/../src");
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err;
  EXPECT_NE(ran.err.find("is the templates folder"), std::string::npos) << ran.err;
  EXPECT_EQ(slurp(dir / "src/x.md"), text);
}

TEST(HostileSheets, IntegersPastTwoToThe53AreNeverPrintedAsIfExact) {
  using tutor::sheets::format_number;
  // A double holds every integer up to 2^53 = 9,007,199,254,740,992 exactly (a 53-bit
  // significand, IEEE 754 binary64): 2^53 - 1 is printed as it is.
  EXPECT_EQ(format_number(9007199254740991.0, true, ""), "9007199254740991");
  EXPECT_EQ(format_number(-9007199254740991.0, true, "d"), "-9007199254740991");
  // 2^64 - 1 from a record reads as the double 1.8446744073709552e19; it once printed as
  // -9223372036854775808 (a cast past 2^63). Without a format it prints as that double.
  EXPECT_EQ(format_number(18446744073709551615.0, true, ""), "1.8446744073709552e+19");
  EXPECT_EQ(format_number(18446744073709551615.0, true, ".3e"), "1.845e+19");
  EXPECT_THROW(format_number(1e19, false, "d"), std::invalid_argument);
  EXPECT_THROW(format_number(1e300, true, "d"), std::invalid_argument);
}

TEST(HostileSheets, AWidthOrPrecisionOfThreeDigitsIsRefused) {
  using tutor::sheets::format_number;
  // '>400000000' built a 400 MB sheet; '2147483647' asked for 2 GiB.
  EXPECT_EQ(format_number(132, true, ">5"), "  132");
  EXPECT_EQ(format_number(132, true, ">99").size(), 99u);
  for (const char* spec : {">400000000", ".100f", "2147483647", "0>100", ".400%"})
    EXPECT_THROW(format_number(132, true, spec), std::invalid_argument) << spec;
}

}  // namespace
