// kill -9 at random moments loses nothing. `tutor plan done/start/undo` processes, one or two at
// a time on one state folder, are killed with SIGKILL at random instants of their lives. After
// every round the state file must parse with its schema, every command that finished (exit 0)
// must be in its history, and the modules must be exactly what replaying that history gives
// (history and modules are written in one atomic rename, under one lock, so a killed command
// leaves either all of its change or none of it).
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/progress.hpp"
#include "plan_process.hpp"
#include "study/now.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kRounds = 400;

struct Command {
  std::string action;  // done, start, undo
  std::vector<std::string> modules;
  std::string at;      // unique per command: how its history entry is found
  pid_t pid = -1;
  bool kill = false;
  Clock::duration kill_after{};
};

std::string fmt_name(const char* stem, std::size_t k) { return std::string(stem) + std::to_string(k) + ".txt"; }

/// 2026-12-01T00:00:00Z plus n seconds.
std::string at_second(int n) {
  return tutor::study::to_iso8601(tutor::study::from_iso8601("2026-12-01T00:00:00Z") + std::chrono::seconds(n));
}

std::vector<std::string> arguments(const fs::path& state, const Command& command) {
  std::vector<std::string> args = {"plan", "--state-dir", state.string(), "--data", std::string(TUTOR_SOURCE_DIR) + "/data",
                                   command.action};
  args.insert(args.end(), command.modules.begin(), command.modules.end());
  args.insert(args.end(), {"--now", command.at});
  return args;
}

/// The state after a round: parses, has the schema, holds every finished command, and its
/// modules are its history replayed. Returns "" or what is wrong.
std::string check_state(const fs::path& state, const std::map<std::string, Command>& finished) {
  for (const auto& entry : fs::directory_iterator(state))
    if (entry.path().filename().string().starts_with("plan.json.corrupt-"))
      return "a state file was found corrupt: " + entry.path().string();
  const fs::path file = state / "plan.json";
  if (!fs::exists(file)) return finished.empty() ? "" : "plan.json is gone but commands finished";
  const json doc = json::parse(tutor::testing::slurp(file), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return "plan.json does not parse";
  if (!doc.is_object() || doc.value("schema", "") != "tutor-plan/1") return "plan.json has no tutor-plan/1 schema";
  tutor::plan::Progress progress;
  try {
    progress = tutor::plan::progress_from_json(doc);
  } catch (const std::exception& error) {
    return std::string("plan.json ") + error.what();
  }
  std::map<std::string, const tutor::plan::Event*> by_time;
  for (const auto& event : progress.history) by_time[event.at] = &event;
  for (const auto& [at, command] : finished) {
    const auto found = by_time.find(at);
    if (found == by_time.end()) return "lost update: the finished " + command.action + " at " + at + " is not in the history";
    if (found->second->action != command.action || found->second->modules != command.modules)
      return "the history's entry at " + at + " is not the command that finished then";
  }
  // Replay: each module's stage and since as the commands in the history leave them.
  std::map<std::string, tutor::plan::ModuleProgress> replayed;
  for (const auto& event : progress.history) {
    for (const std::string& id : event.modules) {
      const auto stage = event.action == "done"    ? tutor::plan::Stage::kDone
                         : event.action == "start" ? tutor::plan::Stage::kInProgress
                                                   : tutor::plan::Stage::kNotStarted;
      if (stage == tutor::plan::Stage::kNotStarted) {
        replayed.erase(id);
      } else if (!replayed.contains(id) || replayed[id].stage != stage) {
        replayed[id] = {stage, event.at};
      }
    }
  }
  if (replayed.size() != progress.modules.size()) return "the modules are not the history replayed (count)";
  for (const auto& [id, module] : replayed) {
    const auto found = progress.modules.find(id);
    if (found == progress.modules.end() || found->second.stage != module.stage || found->second.since != module.since)
      return "the modules are not the history replayed (" + id + ")";
  }
  return "";
}

TEST(PlanKill, KilledAtRandomMomentsTheStateAlwaysParsesAndNoFinishedCommandIsLost) {
  const fs::path dir = fs::path(TUTOR_TEST_SCRATCH) / "plan" / "PlanKill";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path state = dir / "state";
  const unsigned seed = std::random_device{}();
  std::mt19937 rng(seed);
  RecordProperty("seed", std::to_string(seed));
  const std::vector<std::string> ids = {"A01", "A02", "A07", "B01", "B02", "B05", "C01", "C07"};
  const std::vector<std::string> actions = {"done", "start", "undo"};
  int counter = 0;
  std::map<std::string, Command> finished;  // by "at"

  // How long one command lives here, uncontested (after three to warm the caches): the kills
  // fall within 1.3 times that median life, so most land while the command runs, some after
  // its write.
  std::vector<Clock::duration> lives;
  for (int i = 0; i < 13; ++i) {
    Command command;
    command.action = i % 2 == 0 ? "done" : "undo";
    command.modules = {ids[static_cast<std::size_t>(i) % ids.size()]};
    command.at = at_second(counter++);
    const auto start = Clock::now();
    const int code = tutor::testing::wait_exit(
        tutor::testing::spawn_tutor(arguments(state, command), dir / "out0.txt", dir / "err0.txt"));
    if (i >= 3) lives.push_back(Clock::now() - start);
    ASSERT_EQ(code, 0) << tutor::testing::slurp(dir / "err0.txt");
    finished[command.at] = command;
  }
  std::sort(lives.begin(), lives.end());
  const auto window = std::chrono::duration_cast<std::chrono::microseconds>(lives[lives.size() / 2]);

  int completed = 0, killed = 0, rounds_with_two = 0;
  std::vector<std::string> killed_at;  // the times of the killed commands, to see which got written
  for (int round = 0; round < kRounds; ++round) {
    std::vector<Command> commands(1 + rng() % 2);
    if (commands.size() == 2) ++rounds_with_two;
    for (Command& command : commands) {
      command.action = actions[rng() % actions.size()];
      std::vector<std::string> pool = ids;
      std::shuffle(pool.begin(), pool.end(), rng);
      command.modules.assign(pool.begin(), pool.begin() + 1 + static_cast<long>(rng() % 3));
      command.at = at_second(counter++);
      command.kill = rng() % 4 != 0;  // three in four are killed, if still running
      // Half the kills anywhere in the life, half near its end, where the write is.
      const double share = rng() % 2 == 0 ? std::uniform_real_distribution<double>(0.0, 1.0)(rng)
                                          : std::uniform_real_distribution<double>(0.6, 1.3)(rng);
      command.kill_after = std::chrono::microseconds(static_cast<long long>(share * static_cast<double>(window.count())));
    }
    const auto start = Clock::now();
    for (std::size_t k = 0; k < commands.size(); ++k)
      commands[k].pid = tutor::testing::spawn_tutor(arguments(state, commands[k]), dir / fmt_name("out", k),
                                                   dir / fmt_name("err", k));
    std::vector<Command*> by_kill_time;
    for (Command& command : commands)
      if (command.kill) by_kill_time.push_back(&command);
    std::sort(by_kill_time.begin(), by_kill_time.end(),
              [](const Command* a, const Command* b) { return a->kill_after < b->kill_after; });
    for (Command* command : by_kill_time) {
      std::this_thread::sleep_until(start + command->kill_after);
      ::kill(command->pid, SIGKILL);  // a process that already exited is a zombie: no effect
    }
    for (std::size_t k = 0; k < commands.size(); ++k) {
      const int code = tutor::testing::wait_exit(commands[k].pid);
      if (code == 0) {
        ++completed;
        finished[commands[k].at] = commands[k];
      } else if (code == -1) {
        ++killed;
        killed_at.push_back(commands[k].at);
      } else {
        FAIL() << "round " << round << ": tutor exited " << code << ": "
               << tutor::testing::slurp(dir / fmt_name("err", k)) << " (seed " << seed << ")";
      }
    }
    const std::string wrong = check_state(state, finished);
    ASSERT_EQ(wrong, "") << "after round " << round << " (seed " << seed << ")";
  }
  // A killed command whose entry is in the history was killed after its write, the others before
  // it: kills on both sides show the window spans the write.
  int killed_after_write = 0;
  const json doc = json::parse(tutor::testing::slurp(state / "plan.json"));
  for (const std::string& at : killed_at)
    for (const json& event : doc.at("history")) killed_after_write += event.at("at") == at;
  std::printf("%d rounds (%d with two commands at once), kill window %lld us: %d commands finished, %d killed "
              "(%d of them after their write)\n",
              kRounds, rounds_with_two, static_cast<long long>(window.count()), completed, killed, killed_after_write);
  // Enough of each for the test to mean something (three in four are sent a kill).
  EXPECT_GE(completed, 30);
  EXPECT_GE(killed, 100);
  EXPECT_GE(killed_after_write, 1);
}

}  // namespace
