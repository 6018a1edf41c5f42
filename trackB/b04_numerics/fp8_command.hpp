#pragma once
// B04: the `fp8` subcommand of b04_numerics, the codec of low_precision.hpp on the command line.
//
//   fp8 decode  --format F CODE     a code's value and class, and what the same bits mean in the
//                                   other formats (0x38: 1.0 in e4m3fn, 0.5 in e4m3fnuz)
//   fp8 encode  --format F VALUE    the nearest code (ties to even), and what each convention
//                                   gives for the same input where implementations disagree
//                                   (saturating inf, ONNX's FNUZ rule, rounding twice through
//                                   fp16 / bf16, E8M0's rounding direction)
//   fp8 table   --format F          every code with its value and class
//   fp8 misread [--from F]          a weight tensor written in one variant read as the other
//
// Every form takes --json PATH ('-': stdout). Output is kind "model": the formats' definitions evaluated
// on the CPU (misread: "simulation", a seeded synthetic tensor).
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace tutor::b04 {

/// Adds `fp8` (with decode, encode, table, misread) to `app`. The returned callable runs after
/// parsing: -1 when `fp8` was not selected, else the exit code. Bad input found after parsing
/// (unknown format, malformed code, a value that is not a number) throws tutor::UsageError
/// with one line naming the option. `command_line` goes into the JSON record.
std::function<int()> add_fp8_command(CLI::App& app, const std::string& command_line);

}  // namespace tutor::b04
