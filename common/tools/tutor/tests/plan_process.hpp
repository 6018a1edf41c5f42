#pragma once
// Runs the built `tutor` executable for the plan tests: to completion with its output captured,
// or in the background to be killed.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tutor::testing {

namespace fs = std::filesystem;

struct Ran {
  int exit_code = -1;  ///< -1 when killed by a signal
  std::string out, err;
};

inline std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Starts TUTOR_EXE with `args`, stdout and stderr to the files given, the environment changed
/// by `env` ({"NAME", "value"}; a value of "\x01unset" unsets NAME). Returns the child's pid.
inline pid_t spawn_tutor(const std::vector<std::string>& args, const fs::path& out, const fs::path& err,
                         const std::vector<std::pair<std::string, std::string>>& env = {}) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  for (const auto& [name, value] : env) {
    if (value == "\x01unset") {
      ::unsetenv(name.c_str());
    } else {
      ::setenv(name.c_str(), value.c_str(), 1);
    }
  }
  const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out_fd < 0 || err_fd < 0) ::_exit(126);
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(err_fd, STDERR_FILENO);
  std::vector<char*> argv;
  std::string exe = TUTOR_EXE;
  argv.push_back(exe.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(exe.c_str(), argv.data());
  ::_exit(127);
}

/// Waits for `pid`: its exit code, or -1 when a signal ended it.
inline int wait_exit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Runs tutor with `args` to completion in `scratch` (its output files live there).
inline Ran run_tutor(const fs::path& scratch, const std::vector<std::string>& args,
                     const std::vector<std::pair<std::string, std::string>>& env = {}) {
  const fs::path out = scratch / "stdout.txt", err = scratch / "stderr.txt";
  Ran ran;
  ran.exit_code = wait_exit(spawn_tutor(args, out, err, env));
  ran.out = slurp(out);
  ran.err = slurp(err);
  return ran;
}

}  // namespace tutor::testing
