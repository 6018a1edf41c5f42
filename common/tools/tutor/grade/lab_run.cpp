#include "grade/lab_run.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "tutor/cli.hpp"

extern char** environ;

namespace tutor::grade {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::string quoted(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+") ==
                          std::string::npos)
    return arg;
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

LabInvocation plan_run(const std::string& executable, const RunSpec& run, std::uint64_t seed) {
  LabInvocation inv;
  inv.executable = executable;
  inv.seed = seed;
  inv.args = run.args;
  std::uint64_t state = seed;
  for (const auto& d : run.draw) {
    // Multiples of multiple_of inside [min, max], drawn uniformly (the modulo bias of a 64-bit
    // draw over spans below 2^53 is under 2^-11 and irrelevant to choosing a shape).
    const std::int64_t first = (d.min + d.multiple_of - 1) / d.multiple_of, last = d.max / d.multiple_of;
    const auto span = static_cast<std::uint64_t>(last - first + 1);
    const std::int64_t value = (first + static_cast<std::int64_t>(splitmix64(state) % span)) * d.multiple_of;
    inv.drawn[d.option] = value;
    inv.args.push_back(d.option);
    inv.args.push_back(std::to_string(value));
  }
  if (!run.seed_option.empty()) {
    inv.args.push_back(run.seed_option);
    inv.args.push_back(std::to_string(seed));
  }
  return inv;
}

LabOutcome run_lab(const LabInvocation& inv, const std::string& lab) {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/tutor-grade-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    throw UsageError(fmt::format("--run: cannot make a temporary folder under {}: {}", tmp ? tmp : "/tmp",
                                 std::strerror(errno)));
  LabOutcome out;
  out.folder = buf.data();
  out.record_path = out.folder + "/" + lab + ".json";

  std::vector<std::string> argv_text{inv.executable};
  argv_text.insert(argv_text.end(), inv.args.begin(), inv.args.end());
  argv_text.push_back("--json");
  argv_text.push_back(out.record_path);
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);  // the lab's table to stderr
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, inv.executable.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    remove_outcome(out);
    throw UsageError(fmt::format("--run: cannot start {}: {}", inv.executable, std::strerror(rc)));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  std::error_code ec;
  out.wrote_record = std::filesystem::is_regular_file(out.record_path, ec);
  return out;
}

void remove_outcome(const LabOutcome& outcome) {
  if (outcome.folder.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(outcome.folder, ec);
}

std::string command_text(const LabInvocation& inv) {
  std::string text = quoted(inv.executable);
  for (const auto& a : inv.args) text += " " + quoted(a);
  return text;
}

}  // namespace tutor::grade
