// The output options every executable shares (tutor/output.hpp) and the atomic writes under
// them: '-' is standard output, paths are checked before any work, the record names the CSV
// and plot of its run with their SHA-256, and a killed write leaves at most one recognisable
// temporary file that the next write removes.
#include "tutor/output.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tutor/atomic_file.hpp"
#include "tutor/cli.hpp"
#include "tutor/lab.hpp"

namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("tutor_output_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Parses `args` (without the program name) into a fresh app with the outputs of `set`.
struct Tool {
  CLI::App app{"a made-up tool", "tool"};
  tutor::Outputs out;
  explicit Tool(tutor::OutputSet set = {}) : out(app, set) {}
  void parse(std::vector<std::string> args) {
    args.insert(args.begin(), "tool");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    app.parse(int(argv.size()), argv.data());
  }
};

}  // namespace

TEST(Sha256, MatchesTheFips180Examples) {
  // FIPS 180-4 / NIST CSRC example values for "abc" and the empty message.
  EXPECT_EQ(tutor::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(tutor::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Outputs, DashIsStandardOutputAndMovesTheTableToStderr) {
  Tool t;
  t.parse({"--json", "-"});
  t.out.check();
  EXPECT_TRUE(t.out.json());
  EXPECT_EQ(t.out.human(), stderr);
}

TEST(Outputs, BareJsonIsAParseError) {
  Tool t;
  EXPECT_THROW(t.parse({"--json"}), CLI::ParseError);
}

TEST(Outputs, APathThatLooksLikeAnOptionIsRefused) {
  // "--json --list" must not run in full and write a file named "--list".
  Tool t;
  t.parse({"--json", "--list"});
  try {
    t.out.check();
    FAIL() << "--json --list was accepted";
  } catch (const tutor::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--json: '--list' looks like an option"), std::string::npos) << e.what();
  }
  Tool named;
  named.parse({"--json", "./--list"});
  EXPECT_NO_THROW(named.out.check());
}

TEST(Outputs, TwoOutputsOnStandardOutputAreRefused) {
  Tool t({.csv = true});
  t.parse({"--json", "-", "--csv", "-"});
  EXPECT_THROW(t.out.check(), tutor::UsageError);
}

TEST(Outputs, AnOutputOverAnInputIsRefused) {
  Tool t;
  const fs::path in = scratch("input.json");
  std::ofstream(in) << "{}";
  t.parse({"--json", in.string()});
  EXPECT_THROW(t.out.check({{"--config", in.string()}}), tutor::UsageError);
}

TEST(Outputs, AMissingFolderFailsBeforeAnyWork) {
  Tool t;
  t.parse({"--json", "/nonexistent-dir/out.json"});
  try {
    t.out.check();
    FAIL() << "expected a UsageError";
  } catch (const tutor::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--json"), std::string::npos) << e.what();
  }
}

TEST(Outputs, CsvBesideJsonTakesItsName) {
  Tool t({.csv = true, .csv_beside_json = true});
  const fs::path json = scratch("run.json");
  t.parse({"--json", json.string()});
  t.out.check();
  EXPECT_EQ(t.out.csv_path(), scratch("run.csv").string());
}

TEST(Outputs, TheRecordNamesItsCsvAndPlotWithTheirSha256) {
  Tool t({.csv = true, .plot = true});
  const fs::path json = scratch("rec.json"), csv = scratch("rec.csv"), svg = scratch("rec.svg");
  t.parse({"--json", json.string(), "--csv", csv.string(), "--plot", svg.string()});
  t.out.check();
  t.out.write_csv("a,b\n1,2\n");
  t.out.write_plot("<svg/>");
  t.out.write_json({{"kind", "measurement"}});
  const auto record = nlohmann::json::parse(read(json));
  EXPECT_EQ(record["outputs"]["csv"]["sha256"], tutor::sha256_hex(read(csv)));
  EXPECT_EQ(record["outputs"]["plot"]["sha256"], tutor::sha256_hex(read(svg)));
  EXPECT_EQ(record["outputs"]["csv"]["bytes"], 8);
}

TEST(Outputs, AnEmptyPathIsRefusedNotIgnored) {
  Tool t;
  t.parse({"--json", ""});
  EXPECT_THROW(t.out.check(), tutor::UsageError);
}

TEST(Outputs, AHardLinkToAnInputIsTheInput) {
  Tool t;
  const fs::path in = scratch("cfg.json"), link = scratch("hard.json");
  std::ofstream(in) << "{}";
  fs::remove(link);
  fs::create_hard_link(in, link);
  t.parse({"--json", in.string()});
  EXPECT_THROW(t.out.check({{"--config", link.string()}}), tutor::UsageError);
}

TEST(Outputs, APipeNothingReadsIsRefusedBeforeAnyWork) {
  const fs::path fifo = scratch("nobody_reads");
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Tool t;
  t.parse({"--json", fifo.string()});
  EXPECT_THROW(t.out.check(), tutor::UsageError);
  fs::remove(fifo);
}

TEST(Outputs, RefuseNamesTheOptionGiven) {
  Tool t;
  t.parse({"--json", "x.json"});
  try {
    t.out.refuse("--list prints only");
    FAIL() << "expected a UsageError";
  } catch (const tutor::UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--json: --list prints only");
  }
}

TEST(WriteFileAtomic, AKilledWritersTemporaryIsRemovedByTheNextWrite) {
  const fs::path target = scratch("killed.json");
  // A child that dies leaves its pid unused: a temporary named after it is what a kill -9 in
  // the middle of a write leaves behind.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  const fs::path stale = target.parent_path() / (".killed.json." + std::to_string(child) + ".tutor-tmp");
  std::ofstream(stale) << "half a rec";
  tutor::write_file_atomic(target.string(), "{}\n");
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_EQ(read(target), "{}\n");
}

TEST(WriteFileAtomic, ALiveWritersTemporaryIsLeftAlone) {
  const fs::path target = scratch("live.json");
  const fs::path live = target.parent_path() / (".live.json." + std::to_string(::getppid()) + ".tutor-tmp");
  std::ofstream(live) << "in progress";
  tutor::write_file_atomic(target.string(), "{}\n");
  EXPECT_TRUE(fs::exists(live));
  fs::remove(live);
}

TEST(WriteFileAtomic, LeavesNoTemporaryAfterASuccessfulWrite) {
  const fs::path target = scratch("clean.json");
  tutor::write_file_atomic(target.string(), "1\n");
  tutor::write_file_atomic(target.string(), "2\n");
  for (const auto& e : fs::directory_iterator(target.parent_path()))
    EXPECT_EQ(e.path().string().find("clean.json.") == std::string::npos ||
                  e.path().string().find(".tutor-tmp") == std::string::npos,
              true)
        << e.path();
  EXPECT_EQ(read(target), "2\n");
}

TEST(ArchSupports, PlainArchitecturesRunOnNewerOnes) {
  EXPECT_TRUE(tutor::arch_supports("sm_90", ""));
  EXPECT_TRUE(tutor::arch_supports("sm_90", "sm_80"));
  EXPECT_TRUE(tutor::arch_supports("sm_80", "sm_80"));
  EXPECT_FALSE(tutor::arch_supports("sm_75", "sm_80"));
}

TEST(ArchSupports, ArchSpecificFeaturesRunOnlyOnThatVersion) {
  // CUDA C++ Programming Guide, "Feature Availability": sm_90a code runs on compute capability 9.0 only.
  EXPECT_TRUE(tutor::arch_supports("sm_90", "sm_90a"));
  EXPECT_FALSE(tutor::arch_supports("sm_100", "sm_90a"));
  EXPECT_FALSE(tutor::arch_supports("sm_89", "sm_90a"));
}

TEST(ArchSupports, AmdTargetsMatchByNameAndAlternativesByBar) {
  EXPECT_TRUE(tutor::arch_supports("gfx942:sramecc+:xnack-", "gfx94"));
  EXPECT_FALSE(tutor::arch_supports("gfx90a", "gfx94"));
  EXPECT_FALSE(tutor::arch_supports("gfx942", "sm_80"));
  EXPECT_TRUE(tutor::arch_supports("gfx942", "sm_90a|gfx94"));
}
