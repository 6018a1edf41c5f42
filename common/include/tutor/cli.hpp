#pragma once
// What every executable shares on its command line and at exit (ARCHITECTURE.md,
// "Exit codes"): 0 success; 1 a verification failed or a check did not hold;
// 2 bad input (one line naming the option and the allowed range); 3 no usable GPU.
#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

/// Validator for integer options: plain decimal digits only. CLI11 2.1 reads "010" as octal
/// (8) and "0x10" as hex, and wraps "-1" or 2^64 into an unsigned seed; this rejects them.
const CLI::Validator& decimal_integer();

/// Validator for floating-point options: a finite number (CLI11's range checks let NaN pass).
const CLI::Validator& finite_number();

/// Throws UsageError("<option>: cannot write <path>: <why>") unless `path` can be written;
/// "-" (stdout) and "" (not given) pass. Call it for every output option right after parsing.
void require_writable(const std::string& option, const std::string& path);

/// Throws UsageError("<field>: must be a finite number > 0, got <v>") unless v is finite and > 0.
void require_positive(double v, const char* field);

/// Throws UsageError("<field>: must be a finite number >= 0, got <v>") unless v is finite and >= 0.
void require_non_negative(double v, const char* field);

/// Writes `text` to `path` atomically (write_file_atomic), or to stdout when `path` is "-".
/// A path that cannot be written is bad input: throws UsageError("<option>: <why>").
void write_output(const std::string& option, const std::string& path, const std::string& text);

/// Throws UsageError when two output options name the same file ("--json and --plot both
/// write out.svg"), also when spelled differently (./a and a); when two of them are "-" (both
/// would write to standard output); or when an output is one of the `inputs`, ("--sass",
/// path) pairs the tool reads (it would overwrite its own input). "" is ignored.
void require_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                              const std::vector<std::pair<std::string, std::string>>& inputs = {});

/// Runs `f` and turns a library's std::invalid_argument, whose message starts with the option
/// it is about, into bad input (UsageError, exit 2).
template <class F>
auto as_usage(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

/// The CSV path of a sweep: `csv_path` if given, else `json_path` with ".json" replaced by
/// ".csv" (".csv" appended otherwise), else "" (no --json, or --json on standard output).
std::string csv_beside_json(const std::string& csv_path, const std::string& json_path);

/// Parses argv into `app`. On --help prints the help and returns kExitOk; on a parse
/// error prints "<program>: error: <what CLI11 said>" on one line to stderr and returns
/// kExitBadInput. Returns -1 when parsing succeeded and the program should go on.
int parse_command_line(CLI::App& app, int argc, char** argv);

/// Runs `body` and maps what escapes it to an exit code with a one-line message on
/// stderr: UsageError -> 2, gpu::NoDevice -> 3, gpu::Error and anything else -> 1. Messages
/// are flattened to one line. A failed write to stdout (a full disk, a closed pipe) turns a
/// success into exit 1 with a message, never a silent 0.
int run_main(const std::string& program, const std::function<int()>& body);

/// The command line as one shell-quoted string, for the JSON record ("command"). Bytes that
/// are not valid UTF-8 are written as \xHH (JSON text must be UTF-8).
std::string command_line(int argc, char** argv);

}  // namespace tutor
