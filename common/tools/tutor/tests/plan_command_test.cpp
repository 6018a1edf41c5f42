// `tutor plan` through the built executable: what a learner types and what is kept in the
// state file. Each test uses its own state folder in the build tree (never the real $HOME).
#include <gtest/gtest.h>

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan_process.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tutor::testing::Ran;
using tutor::testing::run_tutor;
using tutor::testing::slurp;

const std::string kData = std::string(TUTOR_SOURCE_DIR) + "/data";

fs::path scratch() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(TUTOR_TEST_SCRATCH) / "plan" / (std::string(info->test_suite_name()) + "." + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

/// `tutor plan --state-dir <dir>/state --data <source>/data <args...>`.
Ran plan(const fs::path& dir, std::vector<std::string> args) {
  std::vector<std::string> all = {"plan", "--state-dir", (dir / "state").string(), "--data", kData};
  all.insert(all.end(), args.begin(), args.end());
  return run_tutor(dir, all, {{"NO_COLOR", "\x01unset"}});
}

json state(const fs::path& dir) { return json::parse(slurp(dir / "state" / "plan.json")); }

bool one_line(const std::string& text) {
  return !text.empty() && text.find('\n') == text.size() - 1;
}

std::vector<fs::path> files_starting(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().starts_with(prefix)) found.push_back(entry.path());
  return found;
}

TEST(PlanCommand, DoneTakesIdsInAnyCaseAndRecordsTheTimeOfNow) {
  const fs::path dir = scratch();
  const Ran ran = plan(dir, {"done", "a01", "B01", "--now", "2026-12-02T09:30:00Z"});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.out.find("A01: not started -> done"), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("B01: not started -> done"), std::string::npos);
  // A01 4 h + B01 4 h of 246 (data/curriculum.json).
  EXPECT_NE(ran.out.find("Study plan: 2 of 30 modules done, 238 of 246 learner-hours left"), std::string::npos);
  const json doc = state(dir);
  EXPECT_EQ(doc.at("schema"), "tutor-plan/1");
  EXPECT_EQ(doc.at("modules").at("A01"), json({{"stage", "done"}, {"since", "2026-12-02T09:30:00Z"}}));
  EXPECT_EQ(doc.at("history"), json::parse(R"([{"at": "2026-12-02T09:30:00Z", "action": "done",
                                                 "modules": ["A01", "B01"]}])"));
}

TEST(PlanCommand, DoneBeforeThePrerequisitesIsAllowedWithOneLineOfNote) {
  const fs::path dir = scratch();
  const Ran ran = plan(dir, {"done", "A07"});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.out.find("note: A07 is done before its prerequisites A02, A06 (not done); that is allowed\n"),
            std::string::npos)
      << ran.out;
  EXPECT_EQ(state(dir).at("modules").at("A07").at("stage"), "done");
}

TEST(PlanCommand, StartThenUndoGoesBackToNotStartedAndTheHistoryKeepsBoth) {
  const fs::path dir = scratch();
  ASSERT_EQ(plan(dir, {"start", "B02", "--now", "2026-12-02T10:00:00Z"}).exit_code, 0);
  EXPECT_EQ(state(dir).at("modules").at("B02").at("stage"), "in_progress");
  const Ran shown = plan(dir, {});
  EXPECT_NE(shown.out.find("In progress\n  B02  Roofline and arithmetic intensity (6 h)"), std::string::npos)
      << shown.out;
  ASSERT_EQ(plan(dir, {"undo", "b02", "--now", "2026-12-02T11:00:00Z"}).exit_code, 0);
  const json doc = state(dir);
  EXPECT_TRUE(doc.at("modules").empty());
  ASSERT_EQ(doc.at("history").size(), 2u);
  EXPECT_EQ(doc.at("history")[1].at("action"), "undo");
  EXPECT_EQ(doc.at("history")[1].at("at"), "2026-12-02T11:00:00Z");
}

TEST(PlanCommand, LookingCreatesNothing) {
  const fs::path dir = scratch();
  const Ran ran = plan(dir, {});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.out.find("Study plan: 0 of 30 modules done, 246 of 246 learner-hours left"), std::string::npos);
  EXPECT_NE(ran.out.find("(none yet)"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "state"));
}

TEST(PlanCommand, AnUnknownModuleIsOneLineExit2AndChangesNothing) {
  const fs::path dir = scratch();
  ASSERT_EQ(plan(dir, {"done", "A01"}).exit_code, 0);
  const std::string before = slurp(dir / "state" / "plan.json");
  const Ran ran = plan(dir, {"done", "A02", "Z99"});
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_EQ(ran.err, "tutor: error: plan done: unknown module 'Z99'; the modules are A01..A16, B01..B07, "
                     "C01..C07\n");
  EXPECT_EQ(slurp(dir / "state" / "plan.json"), before);
}

TEST(PlanCommand, ACorruptStateIsKeptAsideIntactAndTheNextRunStartsAfresh) {
  const fs::path dir = scratch();
  fs::create_directories(dir / "state");
  const std::string garbage = "{\"schema\": \"tutor-plan/1\", \"modules\": {\"A01\": {\"stage\": \"do";
  std::ofstream(dir / "state" / "plan.json") << garbage;
  const Ran ran = plan(dir, {"done", "A02"});
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err;
  EXPECT_NE(ran.err.find("plan.json is not valid JSON; it was kept as "), std::string::npos) << ran.err;
  const auto kept = files_starting(dir / "state", "plan.json.corrupt-");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(slurp(kept[0]), garbage);
  EXPECT_FALSE(fs::exists(dir / "state" / "plan.json"));
  ASSERT_EQ(plan(dir, {"done", "A02"}).exit_code, 0);
  EXPECT_EQ(state(dir).at("modules").size(), 1u);
  EXPECT_EQ(slurp(kept[0]), garbage);
}

TEST(PlanCommand, AStateWithAMalformedStageIsKeptAsideToo) {
  const fs::path dir = scratch();
  fs::create_directories(dir / "state");
  std::ofstream(dir / "state" / "plan.json")
      << R"({"schema": "tutor-plan/1", "modules": {"A01": {"stage": "half", "since": "2026-12-01T00:00:00Z"}}})";
  const Ran ran = plan(dir, {});
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err;
  EXPECT_NE(ran.err.find("\"modules\".A01.stage"), std::string::npos) << ran.err;
  EXPECT_EQ(files_starting(dir / "state", "plan.json.corrupt-").size(), 1u);
}

TEST(PlanCommand, ResetNeedsYesAndKeepsTheOldFileUnderItsTime) {
  const fs::path dir = scratch();
  ASSERT_EQ(plan(dir, {"done", "A01", "A02"}).exit_code, 0);
  const std::string before = slurp(dir / "state" / "plan.json");
  const Ran refused = plan(dir, {"reset", "--now", "2026-12-03T10:00:00Z"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_TRUE(one_line(refused.err)) << refused.err;
  EXPECT_NE(refused.err.find("give --yes"), std::string::npos);
  EXPECT_EQ(slurp(dir / "state" / "plan.json"), before);

  const Ran ran = plan(dir, {"reset", "--yes", "--now", "2026-12-03T10:00:00Z"});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(slurp(dir / "state" / "plan.json.reset-20261203T100000Z"), before);
  const json doc = state(dir);
  EXPECT_TRUE(doc.at("modules").empty());
  EXPECT_EQ(doc.at("history"), json::parse(R"([{"at": "2026-12-03T10:00:00Z", "action": "reset",
                                                 "kept": "plan.json.reset-20261203T100000Z"}])"));
  // A second reset in the same second keeps both old files.
  ASSERT_EQ(plan(dir, {"reset", "--yes", "--now", "2026-12-03T10:00:00Z"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(dir / "state" / "plan.json.reset-20261203T100000Z-2"));
}

TEST(PlanCommand, AStateFolderThatCannotBeMadeIsOneLineExit2) {
  const fs::path dir = scratch();
  std::ofstream(dir / "a_file") << "x";
  const Ran ran = run_tutor(dir, {"plan", "--state-dir", (dir / "a_file" / "state").string(), "--data", kData,
                                  "done", "A01"});
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err;
  EXPECT_NE(ran.err.find("--state-dir: cannot create"), std::string::npos) << ran.err;
}

TEST(PlanCommand, JsonToStandardOutputParsesAndTheTableGoesToStandardError) {
  const fs::path dir = scratch();
  ASSERT_EQ(plan(dir, {"start", "A01", "--now", "2026-12-02T09:00:00Z"}).exit_code, 0);
  const Ran ran = plan(dir, {"done", "A01", "--json", "-", "--now", "2026-12-04T09:00:00Z"});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const json doc = json::parse(ran.out);
  EXPECT_EQ(doc.at("schema"), "tutor-plan-view/1");
  EXPECT_EQ(doc.at("action"), "done");
  EXPECT_EQ(doc.at("changes"), json::parse(R"([{"id": "A01", "from": "in progress", "to": "done"}])"));
  EXPECT_EQ(doc.at("all").at("hours_left"), 246 - 4);
  EXPECT_EQ(doc.at("modules").at("A01").at("since"), "2026-12-04T09:00:00Z");
  EXPECT_NE(ran.err.find("Study plan: 1 of 30"), std::string::npos) << ran.err;
}

TEST(PlanCommand, JsonOverTheStateFileIsRefused) {
  const fs::path dir = scratch();
  ASSERT_EQ(plan(dir, {"done", "A01"}).exit_code, 0);
  const std::string before = slurp(dir / "state" / "plan.json");
  const Ran ran = plan(dir, {"--json", (dir / "state" / "plan.json").string()});
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_TRUE(one_line(ran.err)) << ran.err;
  EXPECT_EQ(slurp(dir / "state" / "plan.json"), before);
}

TEST(PlanCommand, WithoutStateDirTheStateIsUnderXdgStateHome) {
  const fs::path dir = scratch();
  const Ran ran = run_tutor(dir, {"plan", "--data", kData, "done", "A01"},
                            {{"XDG_STATE_HOME", (dir / "xdg").string()}, {"HOME", (dir / "home").string()}});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_TRUE(fs::exists(dir / "xdg" / "gpu-ml-tutor" / "plan.json"));
  EXPECT_FALSE(fs::exists(dir / "home"));
}

/// Runs `tutor plan` on a pseudo-terminal (so stdout is a tty) and returns what it printed.
std::string on_a_terminal(const fs::path& dir, bool no_colour) {
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    if (no_colour) {
      ::setenv("NO_COLOR", "1", 1);
    } else {
      ::unsetenv("NO_COLOR");
    }
    const std::string state = (dir / "state").string();
    ::execl(TUTOR_EXE, TUTOR_EXE, "plan", "--state-dir", state.c_str(), "--data", kData.c_str(), nullptr);
    ::_exit(127);
  }
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(master, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  ::close(master);
  tutor::testing::wait_exit(pid);
  return text;
}

TEST(PlanCommand, ColourOnlyOnATerminalAndNeverWithNoColor) {
  const fs::path dir = scratch();
  ASSERT_EQ(plan(dir, {"done", "A01"}).exit_code, 0);
  EXPECT_EQ(plan(dir, {}).out.find('\033'), std::string::npos) << "colour into a file";
  EXPECT_NE(on_a_terminal(dir, false).find("\033["), std::string::npos) << "no colour on a terminal";
  const std::string plain = on_a_terminal(dir, true);
  EXPECT_NE(plain.find("Study plan"), std::string::npos);
  EXPECT_EQ(plain.find('\033'), std::string::npos) << "colour despite NO_COLOR";
}

}  // namespace
