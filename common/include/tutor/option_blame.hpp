#pragma once
// An error must name the option the user gave. When an option was not given and takes its
// value from another (--tp defaults to --gpus), a check that fails on that value is the other
// option's doing: "--tp: 32 attention heads do not split over 3 GPUs" after `--gpus 3` alone
// blamed an option that was never typed.
#include <string>
#include <string_view>

#include "tutor/cli.hpp"

namespace tutor {

/// Runs `f`. If `option` was not given and `f` throws a UsageError that starts with
/// "<option>: ", the error is thrown again as "<from>: <rest> (<option> was not given; it
/// defaults to <from>)".
template <class F>
auto blame_given(bool option_given, std::string_view option, std::string_view from, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const UsageError& e) {
    const std::string what = e.what();
    const std::string prefix = std::string(option) + ": ";
    if (option_given || what.rfind(prefix, 0) != 0) throw;
    throw UsageError(std::string(from) + ": " + what.substr(prefix.size()) + " (" + std::string(option) +
                     " was not given; it defaults to " + std::string(from) + ")");
  }
}

}  // namespace tutor
