#pragma once
// What every executable shares on its command line and at exit (ARCHITECTURE.md,
// "Exit codes"): 0 success; 1 a verification failed or a check did not hold;
// 2 bad input (one line naming the option and the allowed range); 3 no usable GPU.
#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace tutor {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitNoGpu = 3;

/// Bad input found after parsing (an unknown variant name, an unreadable file).
/// The message is one line naming the option and what is allowed.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses argv into `app`. On --help prints the help and returns kExitOk; on a parse
/// error prints "<program>: error: <what CLI11 said>" on one line to stderr and returns
/// kExitBadInput. Returns -1 when parsing succeeded and the program should go on.
int parse_command_line(CLI::App& app, int argc, char** argv);

/// Runs `body` and maps what escapes it to an exit code with a one-line message on
/// stderr: UsageError -> 2, gpu::NoDevice -> 3, gpu::Error and anything else -> 1.
int run_main(const std::string& program, const std::function<int()>& body);

/// The command line as one shell-quoted string, for the JSON record ("command").
std::string command_line(int argc, char** argv);

}  // namespace tutor
