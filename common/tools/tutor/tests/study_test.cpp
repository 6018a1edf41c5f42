// The study tools' foundation (study/): where the state lives (XDG Base Directory Specification
// 0.8), how it is read and written so that nothing the learner did is lost, the data folder,
// and the --now clock. Every test works in its own folder in the build tree, never in $HOME.
#include <gtest/gtest.h>

#include <sys/file.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "study/data_root.hpp"
#include "study/now.hpp"
#include "study/state_store.hpp"
#include "tutor/cli.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
namespace study = tutor::study;

/// A fresh folder for the running test: <build>/study_scratch/<Suite>.<Test>.
fs::path scratch() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(TUTOR_TEST_SCRATCH) / "study" / (std::string(info->test_suite_name()) + "." + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The files of `dir` whose names start with `prefix`.
std::vector<fs::path> files_starting(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().starts_with(prefix)) found.push_back(entry.path());
  return found;
}

/// Sets (or unsets, for nullopt) an environment variable for one test, restoring it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// ---- state_dir: --state-dir, then $XDG_STATE_HOME, then $HOME/.local/state ---------------

TEST(StateDir, TheOptionWinsOverTheEnvironment) {
  ScopedEnv xdg("XDG_STATE_HOME", "/xdg/state");
  ScopedEnv home("HOME", "/home/learner");
  EXPECT_EQ(study::state_dir("my/state"), fs::path("my/state"));
}

TEST(StateDir, AnAbsoluteXdgStateHomeHoldsTheToolsFolder) {
  ScopedEnv xdg("XDG_STATE_HOME", "/xdg/state");
  ScopedEnv home("HOME", "/home/learner");
  EXPECT_EQ(study::state_dir(""), fs::path("/xdg/state/gpu-ml-tutor"));
}

TEST(StateDir, ARelativeXdgStateHomeIsIgnoredAsTheSpecificationRequires) {
  // XDG Base Directory Specification 0.8: "All paths set in these environment variables must
  // be absolute. If an implementation encounters a relative path ... it should consider the
  // path invalid and ignore it."
  ScopedEnv xdg("XDG_STATE_HOME", "relative/state");
  ScopedEnv home("HOME", "/home/learner");
  EXPECT_EQ(study::state_dir(""), fs::path("/home/learner/.local/state/gpu-ml-tutor"));
}

TEST(StateDir, WithoutXdgStateHomeItIsUnderHome) {
  ScopedEnv xdg("XDG_STATE_HOME", std::nullopt);
  ScopedEnv home("HOME", "/home/learner");
  EXPECT_EQ(study::state_dir(""), fs::path("/home/learner/.local/state/gpu-ml-tutor"));
  ScopedEnv empty("XDG_STATE_HOME", "");  // set but empty: treated as unset
  EXPECT_EQ(study::state_dir(""), fs::path("/home/learner/.local/state/gpu-ml-tutor"));
}

TEST(StateDir, WithNeitherVariableItAsksForTheOption) {
  ScopedEnv xdg("XDG_STATE_HOME", std::nullopt);
  ScopedEnv home("HOME", std::nullopt);
  EXPECT_THROW(study::state_dir(""), tutor::UsageError);
}

// ---- load_state / save_state ----------------------------------------------------------

TEST(StateStore, AnAbsentFileIsNoStateYet) {
  EXPECT_FALSE(study::load_state(scratch() / "plan.json", "tutor-plan/1").has_value());
}

TEST(StateStore, SaveThenLoadRoundTripsAndCreatesTheFolder) {
  const fs::path file = scratch() / "deeper" / "still" / "plan.json";
  const json doc = {{"schema", "tutor-plan/1"}, {"modules", {{"A02", {{"stage", "done"}}}}}};
  study::save_state(file, doc);
  const auto loaded = study::load_state(file, "tutor-plan/1");
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(*loaded, doc);
  EXPECT_EQ(read(file).back(), '\n');
  // The atomic write leaves nothing beside the file (its temporary was renamed over it).
  EXPECT_EQ(std::distance(fs::directory_iterator(file.parent_path()), fs::directory_iterator{}), 1);
}

/// Loads `file` expecting the corrupt-file error; returns its message.
std::string corrupt_message(const fs::path& file, const std::string& schema = "tutor-plan/1") {
  try {
    (void)study::load_state(file, schema);
  } catch (const tutor::UsageError& error) {
    return error.what();
  }
  ADD_FAILURE() << file << " was read without an error";
  return "";
}

TEST(StateStore, CorruptJsonIsKeptAsideWithItsContentAndNamedInOneLine) {
  const fs::path dir = scratch();
  const std::string text = "{\"schema\": \"tutor-plan/1\", \"modules\": {\"A0";  // cut short
  write(dir / "plan.json", text);
  const std::string message = corrupt_message(dir / "plan.json");
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_NE(message.find((dir / "plan.json").string() + " is not valid JSON"), std::string::npos) << message;
  EXPECT_NE(message.find("kept as " + (dir / "plan.json.corrupt-").string()), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(dir / "plan.json"));
  const auto kept = files_starting(dir, "plan.json.corrupt-");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(read(kept[0]), text);
  // The next read starts from nothing; the kept file is left alone.
  EXPECT_FALSE(study::load_state(dir / "plan.json", "tutor-plan/1").has_value());
  EXPECT_EQ(read(kept[0]), text);
}

TEST(StateStore, AnotherSchemaIsKeptAside) {
  const fs::path dir = scratch();
  const std::string text = R"({"schema": "tutor-cards/1", "cards": {}})";
  write(dir / "plan.json", text);
  const std::string message = corrupt_message(dir / "plan.json");
  EXPECT_NE(message.find("has schema \"tutor-cards/1\", expected \"tutor-plan/1\""), std::string::npos) << message;
  const auto kept = files_starting(dir, "plan.json.corrupt-");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(read(kept[0]), text);
}

TEST(StateStore, NoSchemaOrNotAnObjectIsKeptAside) {
  const fs::path dir = scratch();
  write(dir / "plan.json", R"({"modules": {}})");
  EXPECT_NE(corrupt_message(dir / "plan.json").find("has no \"schema\""), std::string::npos);
  write(dir / "plan.json", "[1, 2]");
  EXPECT_NE(corrupt_message(dir / "plan.json").find("is not a JSON object"), std::string::npos);
  // Two corrupt files kept in the same second get different names.
  EXPECT_EQ(files_starting(dir, "plan.json.corrupt-").size(), 2u);
}

TEST(StateStore, AFolderInTheFilesPlaceIsKeptAsideWithWhatItHolds) {
  const fs::path dir = scratch();
  fs::create_directories(dir / "plan.json");
  write(dir / "plan.json" / "notes.txt", "mine");
  const std::string message = corrupt_message(dir / "plan.json");
  EXPECT_NE(message.find("it is a folder"), std::string::npos) << message;
  const auto kept = files_starting(dir, "plan.json.corrupt-");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(read(kept[0] / "notes.txt"), "mine");
}

TEST(StateStore, AContentCheckThatFailsKeepsTheFileAsideToo) {
  const fs::path dir = scratch();
  write(dir / "plan.json", R"({"schema": "tutor-plan/1", "modules": []})");
  try {
    (void)study::load_state(dir / "plan.json", "tutor-plan/1", [](const json& doc) {
      if (!doc.at("modules").is_object()) throw std::runtime_error("has a malformed \"modules\"");
    });
    FAIL() << "the check's error was not raised";
  } catch (const tutor::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("has a malformed \"modules\"; it was kept as"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(files_starting(dir, "plan.json.corrupt-").size(), 1u);
}

TEST(StateStore, AFileNestedDeeperThanTheToolsWriteIsKeptAsideNotACrash) {
  // A state file 100,000 arrays deep parses, but saving it again would recurse 100,000 levels
  // in dump(); the tools write 4 levels, so anything past 64 is refused like corrupt JSON.
  const fs::path dir = scratch();
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  write(dir / "plan.json", R"({"schema": "tutor-plan/1", "extra": )" + deep + "}");
  const std::string message = corrupt_message(dir / "plan.json");
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_NE(message.find("nested deeper than 64 levels; it was kept as"), std::string::npos) << message;
  EXPECT_EQ(files_starting(dir, "plan.json.corrupt-").size(), 1u);
  // A number no double holds is refused the same way.
  write(dir / "plan.json", R"({"schema": "tutor-plan/1", "extra": 1e400})");
  EXPECT_NE(corrupt_message(dir / "plan.json").find("at /extra: the number 1e400 overflows a double"), std::string::npos);
}

TEST(StateStore, AFolderThatCannotBeCreatedIsBadInputNamingStateDir) {
  // A regular file where a folder should be: create_directories fails even for root.
  const fs::path dir = scratch();
  write(dir / "file", "x");
  try {
    study::save_state(dir / "file" / "state" / "plan.json", {{"schema", "tutor-plan/1"}});
    FAIL() << "saved under a regular file";
  } catch (const tutor::UsageError& error) {
    EXPECT_TRUE(std::string(error.what()).starts_with("--state-dir: cannot create")) << error.what();
  }
  EXPECT_THROW(study::StateLock(dir / "file" / "state"), tutor::UsageError);
}

TEST(StateLock, AnotherProcessCannotTakeTheLockWhileItIsHeld) {
  const fs::path dir = scratch();
  int ready[2], release[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(release), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    study::StateLock lock(dir);
    char byte = 1;
    (void)!::write(ready[1], &byte, 1);
    (void)!::read(release[0], &byte, 1);  // hold the lock until the parent has tried
    ::_exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  const int fd = ::open((dir / ".lock").c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(::flock(fd, LOCK_EX | LOCK_NB), -1) << "the lock was free while the child held it";
  EXPECT_EQ(errno, EWOULDBLOCK);
  (void)!::write(release[1], &byte, 1);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0) << "the lock was not released when its holder exited";
  ::close(fd);
  for (int p : {ready[0], ready[1], release[0], release[1]}) ::close(p);
}

// ---- the data folder and the clock ----------------------------------------------------

TEST(DataRoot, TheOptionMustHoldCurriculumJson) {
  const fs::path dir = scratch();
  EXPECT_THROW(study::data_root(dir.string()), tutor::UsageError);
  write(dir / "curriculum.json", "{}");
  EXPECT_EQ(study::data_root(dir.string()), dir);
  EXPECT_EQ(study::repository_root(dir.string()), dir.parent_path());
}

TEST(DataRoot, WithoutTheOptionTheSourceTreesDataIsFound) {
  // The tests run in the build tree, which has no data/: the source tree's is compiled in.
  const fs::path found = study::data_root("");
  EXPECT_TRUE(fs::is_regular_file(found / "curriculum.json")) << found;
}

TEST(Now, AUtcTimeOrADateOverridesTheClock) {
  using namespace std::chrono;
  EXPECT_EQ(study::to_iso8601(study::now_or("2026-12-02T09:30:00Z")), "2026-12-02T09:30:00Z");
  EXPECT_EQ(study::to_iso8601(study::now_or("2026-12-02")), "2026-12-02T00:00:00Z");
  // 2026-12-02 is day 20,789 since 1970-01-01 (56 years with 14 leap days: 56 x 365 + 14 =
  // 20,454, plus 335 days from January 1 to December 2 in a common year): 1,796,169,600 s.
  EXPECT_EQ(study::now_or("2026-12-02").time_since_epoch().count(), 20789LL * 86400);
  EXPECT_EQ(study::from_iso8601("2026-12-02T09:30:00Z"), study::now_or("2026-12-02T09:30:00Z"));
  const auto clock = study::now_or("");
  EXPECT_LT(std::chrono::abs(clock - time_point_cast<seconds>(system_clock::now())), seconds(5));
}

TEST(Now, AnythingElseIsBadInputNamingTheOption) {
  for (const char* bad : {"2026-12-02 09:30:00", "2026-02-30", "2026-12-02T24:00:00Z", "yesterday",
                          "2026-12-02T09:30:00+01:00", "1969-12-31"}) {
    try {
      (void)study::now_or(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const tutor::UsageError& error) {
      EXPECT_TRUE(std::string(error.what()).starts_with("--now: ")) << error.what();
    }
  }
  EXPECT_THROW((void)study::from_iso8601("next week"), std::runtime_error);
}

TEST(Now, EveryDigitIsADigitSoASignOrSpaceIsRefused) {
  // sscanf's %2d alone reads "+1" and " 1" as 1.
  for (const char* bad : {"2026-+1-+2", "2026- 1- 2", "+026-12-02", "2026-12-02T+9:30:00Z", "2026-12-02T09:30: 0Z"}) {
    EXPECT_THROW((void)study::now_or(bad), tutor::UsageError) << bad;
    EXPECT_THROW((void)study::from_iso8601(bad), std::runtime_error) << bad;
  }
}

TEST(Now, TheLatestTimeLeavesRoomForTheLongestIntervalInAStateFile) {
  // FSRS's longest interval is 36,500 days. From 9899-12-31 to 9999-12-31 is 100 x 365 days
  // plus 24 leap days (9904, 9908, ..., 9996; 9900 is not a leap year) = 36,524 days, so
  // 36,500 days after 9899-12-31 is 24 days before 9999-12-31: 9999-12-07, a time the state
  // file reads back.
  EXPECT_EQ(study::to_iso8601(study::now_or("9899-12-31T23:59:59Z")), "9899-12-31T23:59:59Z");
  EXPECT_EQ(study::to_iso8601(study::now_or("9899-12-31") + std::chrono::days(36500)), "9999-12-07T00:00:00Z");
  try {
    (void)study::now_or("9900-01-01");
    ADD_FAILURE() << "9900-01-01 was accepted";
  } catch (const tutor::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("from 1970-01-01 to 9899-12-31"), std::string::npos) << error.what();
  }
  // A state file may still hold any time up to 9999 (a due date 100 years ahead).
  EXPECT_EQ(study::to_iso8601(study::from_iso8601("9999-12-31T23:59:59Z")), "9999-12-31T23:59:59Z");
}

}  // namespace
