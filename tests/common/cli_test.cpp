// The command-line contract every executable shares (ARCHITECTURE.md, "Exit codes"):
// 0 success (and --help); 1 a check failed; 2 bad input, one line naming the option and
// the allowed range; 3 no usable GPU. parse_command_line returns -1 to mean "go on".
#include "tutor/cli.hpp"
#include "tutor/gpu.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using tutor::command_line;
using tutor::parse_command_line;
using tutor::run_main;

/// argv as a program receives it: mutable char*, owned by this object.
class Argv {
 public:
  Argv(std::initializer_list<std::string> args) : storage_(args) {
    for (auto& a : storage_) pointers_.push_back(a.data());
    pointers_.push_back(nullptr);
  }
  int argc() const { return static_cast<int>(storage_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> storage_;
  std::vector<char*> pointers_;
};

/// A lab's options in miniature: --rows in [1, 65536], as a02_transpose declares it.
struct MiniLab {
  CLI::App app{"A made-up lab", "mini_lab"};
  int rows = 4096;
  MiniLab() {
    app.add_option("--rows", rows, "matrix rows (elements)")->check(CLI::Range(1, 65536));
  }
};

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// ------------------------------------------------------------------ parse_command_line

TEST(ParseCommandLine, HelpReturnsZeroAndPrintsHelpToStdout) {
  MiniLab lab;
  Argv args{"mini_lab", "--help"};
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = parse_command_line(lab.app, args.argc(), args.argv());
  const std::string out = testing::internal::GetCapturedStdout();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, tutor::kExitOk);
  EXPECT_EQ(code, 0);
  EXPECT_TRUE(mentions(out, "--rows")) << out;
  EXPECT_TRUE(mentions(out, "matrix rows")) << out;
  EXPECT_TRUE(err.empty()) << "help is not a diagnostic: " << err;
}

TEST(ParseCommandLine, OutOfRangeValueReturnsTwoWithOneLineNamingTheOption) {
  MiniLab lab;
  Argv args{"mini_lab", "--rows", "0"};
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = parse_command_line(lab.app, args.argc(), args.argv());
  const std::string out = testing::internal::GetCapturedStdout();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, tutor::kExitBadInput);
  EXPECT_EQ(code, 2);
  EXPECT_EQ(lines(err), 1u) << err;
  EXPECT_EQ(err.back(), '\n');
  EXPECT_TRUE(mentions(err, "--rows")) << err;
  EXPECT_TRUE(mentions(err, "mini_lab")) << "the program names itself: " << err;
  EXPECT_TRUE(out.empty()) << "diagnostics go to stderr: " << out;
}

TEST(ParseCommandLine, ValueThatIsNotANumberReturnsTwoWithOneLine) {
  MiniLab lab;
  Argv args{"mini_lab", "--rows", "many"};
  testing::internal::CaptureStderr();
  const int code = parse_command_line(lab.app, args.argc(), args.argv());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 2);
  EXPECT_EQ(lines(err), 1u) << err;
  EXPECT_TRUE(mentions(err, "--rows")) << err;
}

TEST(ParseCommandLine, UnknownOptionReturnsTwoWithOneLine) {
  MiniLab lab;
  Argv args{"mini_lab", "--bogus"};
  testing::internal::CaptureStderr();
  const int code = parse_command_line(lab.app, args.argc(), args.argv());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 2);
  EXPECT_EQ(lines(err), 1u) << err;
  EXPECT_TRUE(mentions(err, "--bogus")) << err;
}

TEST(ParseCommandLine, SuccessReturnsMinusOneAndStoresTheValue) {
  MiniLab lab;
  Argv args{"mini_lab", "--rows", "4099"};
  EXPECT_EQ(parse_command_line(lab.app, args.argc(), args.argv()), -1);
  EXPECT_EQ(lab.rows, 4099);
}

TEST(ParseCommandLine, RangeEndsAreAllowed) {
  for (const char* value : {"1", "65536"}) {
    MiniLab lab;
    Argv args{"mini_lab", "--rows", value};
    EXPECT_EQ(parse_command_line(lab.app, args.argc(), args.argv()), -1) << value;
  }
}

// ------------------------------------------------------------------ run_main

TEST(RunMain, NormalReturnPassesThrough) {
  EXPECT_EQ(run_main("mini_lab", [] { return 0; }), 0);
  EXPECT_EQ(run_main("mini_lab", [] { return tutor::kExitCheckFailed; }), 1);
  EXPECT_EQ(run_main("mini_lab", [] { return 7; }), 7);
}

TEST(RunMain, UsageErrorIsBadInputTwo) {
  testing::internal::CaptureStderr();
  const int code = run_main("mini_lab", []() -> int {
    throw tutor::UsageError("--variant nope: allowed are naive, tiled");
  });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, tutor::kExitBadInput);
  EXPECT_EQ(code, 2);
  EXPECT_EQ(lines(err), 1u) << err;
  EXPECT_TRUE(mentions(err, "mini_lab")) << err;
  EXPECT_TRUE(mentions(err, "--variant nope")) << err;
}

TEST(RunMain, NoDeviceIsThree) {
  testing::internal::CaptureStderr();
  const int code = run_main("mini_lab", []() -> int {
    throw tutor::gpu::NoDevice("CUDA: cudaGetDeviceCount found no device");
  });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, tutor::kExitNoGpu);
  EXPECT_EQ(code, 3);
  EXPECT_EQ(lines(err), 1u) << err;
  EXPECT_TRUE(mentions(err, "cudaGetDeviceCount")) << "names what was looked for: " << err;
}

TEST(RunMain, RuntimeErrorIsOne) {
  testing::internal::CaptureStderr();
  const int code = run_main("mini_lab", []() -> int {
    throw std::runtime_error("verification failed");
  });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, tutor::kExitCheckFailed);
  EXPECT_EQ(code, 1);
  EXPECT_TRUE(mentions(err, "verification failed")) << err;
}

TEST(RunMain, GpuErrorIsOne) {
  testing::internal::CaptureStderr();
  const int code = run_main("mini_lab", []() -> int {
    throw tutor::gpu::Error("cudaMemcpy: invalid argument at runtime.cu:42");
  });
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 1);
}

// ------------------------------------------------------------------ command_line

TEST(CommandLine, PlainArgumentsAreJoinedBySpaces) {
  Argv args{"./a02_transpose", "--rows", "4096", "--json", "out.json"};
  EXPECT_EQ(command_line(args.argc(), args.argv()),
            "./a02_transpose --rows 4096 --json out.json");
}

TEST(CommandLine, ArgumentWithASpaceIsSingleQuoted) {
  Argv args{"./a02_transpose", "--json", "my results/a02.json"};
  EXPECT_EQ(command_line(args.argc(), args.argv()),
            "./a02_transpose --json 'my results/a02.json'");
}

TEST(CommandLine, SingleQuoteIsClosedEscapedAndReopened) {
  // POSIX sh: inside '...' nothing is special, so ' is written as '\'' (close, \', reopen).
  Argv args{"prog", "it's"};
  EXPECT_EQ(command_line(args.argc(), args.argv()), "prog 'it'\\''s'");
}

TEST(CommandLine, EmptyArgumentIsKeptAsTwoQuotes) {
  Argv args{"prog", ""};
  EXPECT_EQ(command_line(args.argc(), args.argv()), "prog ''");
}

}  // namespace

namespace {

// ---- require_distinct_outputs: no two outputs in one file or both on stdout, no input overwritten

std::string usage_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const tutor::UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(DistinctOutputs, DifferentFilesAndOneStdoutPass) {
  EXPECT_EQ(usage_error_of([] {
              tutor::require_distinct_outputs({{"--json", "-"}, {"--csv", "a.csv"}, {"--plot", ""}},
                                              {{"--config", "c.json"}});
            }),
            "");
}

TEST(DistinctOutputs, SameFileSpelledTwoWaysIsRefused) {
  EXPECT_EQ(usage_error_of([] { tutor::require_distinct_outputs({{"--json", "out.x"}, {"--plot", "./out.x"}}); }),
            "--json and --plot both write out.x; give them different paths");
}

TEST(DistinctOutputs, TwoOutputsOnStdoutAreRefused) {
  EXPECT_EQ(usage_error_of([] { tutor::require_distinct_outputs({{"--json", "-"}, {"--plot", "-"}}); }),
            "--json and --plot both write to standard output; give one of them a file");
}

TEST(DistinctOutputs, AnOutputThatIsAnInputIsRefused) {
  EXPECT_EQ(usage_error_of([] { tutor::require_distinct_outputs({{"--json", "in.sass"}}, {{"--sass", "./in.sass"}}); }),
            "--json: in.sass is the file --sass reads; give another path");
}

}  // namespace
