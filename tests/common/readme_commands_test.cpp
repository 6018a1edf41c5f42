// The commands the READMEs show still run, and still print what the READMEs say they print.
//
// The convention, in every README.md of the repository (build folders and hidden folders left
// out):
// - A fenced block with the info string `console` is a terminal session: a line starting with
//   `$ ` is a command (a line ending in `\` continues it on the next line), and the lines below
//   it, up to the next `$ ` or the closing fence, are what it prints (standard output and
//   standard error, as on a terminal). They are compared after trailing spaces are trimmed,
//   trailing blank lines ignored; a line that is exactly `...` matches any number of lines, so a
//   long output can be elided.
// - A fenced block with the info string `sh` holds commands whose output is not shown. Each is
//   run and must exit 0.
// - Only commands that invoke `./build-host/<exe>` run: the host preset builds every lab
//   without kernels, so none needs a GPU. Commands that also name `./build/` (the CUDA build),
//   `cmake`, `apt-get`, `git` or `python3` are shown, never run. Other blocks are prose.
//
// Each block runs with `sh -c`, command by command, in a fresh scratch folder holding a link
// `build-host` to this test's build folder (where every executable lands) and a link to each
// top-level folder of the repository (data, docs, trackA, ...), so the commands' relative
// paths work as they do from the repository root; a command may write files there, and a later
// command of the same block may read them.
#include <gtest/gtest.h>

#include "repository_files.hpp"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir{TUTOR_SOURCE_DIR};
const fs::path kBinaryDir{TUTOR_BINARY_DIR};

struct Command {
  int line = 0;                       // 1-based line of the command in the README
  std::string text;                   // the command, continuation lines joined
  bool shows_output = false;          // from a `console` block
  std::vector<std::string> expected;  // the output the README shows
};

struct Block {
  int line = 0;  // the opening fence
  std::vector<Command> commands;
};

std::string trim_right(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

// The `console` and `sh` blocks of one Markdown text (fences ``` or ~~~, CommonMark 4.5; the
// info string's first word names the language).
std::vector<Block> command_blocks(const std::string& text) {
  std::vector<Block> blocks;
  std::istringstream lines(text);
  std::string line;
  tutor::testing::FenceTracker fences;
  int number = 0;
  bool continued = false;  // the previous command line ended in a backslash
  while (std::getline(lines, line)) {
    ++number;
    line = trim_right(line);
    if (fences.fence_line(line)) {
      if (fences.inside() && (fences.language() == "console" || fences.language() == "sh")) blocks.push_back({number, {}});
      continue;
    }
    const std::string& language = fences.language();
    if (!fences.inside() || (language != "console" && language != "sh")) continue;
    Block& block = blocks.back();
    if (continued) {
      block.commands.back().text += "\n" + line;  // sh reads backslash-newline as one line
      continued = line.size() > 0 && line.back() == '\\';
      continue;
    }
    if (language == "console") {
      if (line.rfind("$ ", 0) == 0) {
        block.commands.push_back({number, line.substr(2), true, {}});
        continued = line.back() == '\\';
      } else if (!block.commands.empty()) {
        block.commands.back().expected.push_back(line);
      }
    } else {
      const std::size_t start = line.find_first_not_of(' ');
      if (start == std::string::npos || line[start] == '#') continue;
      block.commands.push_back({number, line.substr(start), false, {}});
      continued = line.back() == '\\';
    }
  }
  return blocks;
}

// Whether the test runs a command: it invokes a host-preset executable and nothing that needs
// a GPU, a build or the network.
bool runs(const std::string& command) {
  static const std::regex host_exe(R"((^|[\s;&|(])\./build-host/\w)");
  static const std::regex excluded(R"((^|[\s;&|(])(\./build/|(cmake|apt-get|git|python3)(\s|$)))");
  return std::regex_search(command, host_exe) && !std::regex_search(command, excluded);
}

// Whether the shown lines match the printed ones: equal after trimming trailing spaces, a
// shown line `...` standing for any number of printed lines.
bool output_matches(const std::vector<std::string>& shown, const std::vector<std::string>& printed) {
  // matches[i][j]: shown[i..] matches printed[j..]
  std::vector<std::vector<char>> matches(shown.size() + 1, std::vector<char>(printed.size() + 1, 0));
  matches[shown.size()][printed.size()] = 1;
  for (std::size_t i = shown.size(); i-- > 0;) {
    for (std::size_t j = printed.size() + 1; j-- > 0;) {
      if (shown[i] == "...") {
        matches[i][j] = matches[i + 1][j] || (j < printed.size() && matches[i][j + 1]);
      } else {
        matches[i][j] = j < printed.size() && trim_right(shown[i]) == trim_right(printed[j]) &&
                        matches[i + 1][j + 1];
      }
    }
  }
  return matches[0][0] != 0;
}

std::vector<std::string> without_trailing_blank_lines(std::vector<std::string> lines) {
  while (!lines.empty() && trim_right(lines.back()).empty()) lines.pop_back();
  return lines;
}

struct CommandRun {
  int status = -1;  // the exit code, or 128 + the signal
  std::string output;
};

// `sh -c command` in `folder`, standard output and standard error into one pipe.
CommandRun run_in(const fs::path& folder, const std::string& command) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(pipe_fds[0]);
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[1]);
    if (chdir(folder.c_str()) != 0) _exit(127);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(pipe_fds[1]);
  CommandRun run;
  char buffer[4096];
  ssize_t got = 0;
  while ((got = read(pipe_fds[0], buffer, sizeof buffer)) > 0) run.output.append(buffer, static_cast<std::size_t>(got));
  close(pipe_fds[0]);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return run;
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(trim_right(line));
  return lines;
}

std::string indented(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += "\n    | " + line;
  return out.empty() ? "\n    (nothing)" : out;
}

using tutor::testing::read_text;
using tutor::testing::skipped_directory;

std::vector<std::string> readme_files() {
  std::vector<std::string> files;
  for (const fs::path& p : tutor::testing::repository_files(kSourceDir, [](const fs::path& f) {
         return f.filename() == "README.md";
       }))
    files.push_back(p.lexically_relative(kSourceDir).generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

// A fresh folder that looks like the repository root, with build-host/ being this build.
fs::path scratch_folder(const std::string& name) {
  fs::path folder = fs::temp_directory_path() /
                    ("tutor-readme-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  fs::create_directory_symlink(kBinaryDir, folder / "build-host");
  for (const fs::directory_entry& entry : fs::directory_iterator(kSourceDir)) {
    if (entry.is_directory() && !skipped_directory(entry.path())) {
      fs::create_directory_symlink(entry.path(), folder / entry.path().filename());
    }
  }
  return folder;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

}  // namespace

TEST(ReadmeCommands, ConsoleBlocksPairCommandsWithOutputAndShBlocksHoldCommands) {
  const std::string text =
      "```console\n"
      "$ ./build-host/tool --flag \\\n"
      "    value\n"
      "first line   \n"
      "...\n"
      "$ ./build-host/tool --other\n"
      "```\n"
      "```sh\n"
      "# a comment\n"
      "./build-host/tool --json out.json   # writes a file\n"
      "```\n"
      "```\n"
      "$ not a command: no info string\n"
      "```\n";
  const std::vector<Block> blocks = command_blocks(text);
  ASSERT_EQ(blocks.size(), 2u);
  ASSERT_EQ(blocks[0].commands.size(), 2u);
  EXPECT_EQ(blocks[0].commands[0].line, 2);
  EXPECT_EQ(blocks[0].commands[0].text, "./build-host/tool --flag \\\n    value");
  EXPECT_EQ(blocks[0].commands[0].expected, (std::vector<std::string>{"first line", "..."}));
  EXPECT_TRUE(blocks[0].commands[1].expected.empty());
  ASSERT_EQ(blocks[1].commands.size(), 1u);
  EXPECT_FALSE(blocks[1].commands[0].shows_output);
  EXPECT_EQ(blocks[1].commands[0].line, 10);
}

TEST(ReadmeCommands, RunsOnlyHostBuildExecutables) {
  EXPECT_TRUE(runs("./build-host/b06_serving kv --model llama-3.1-8b --gpu h100"));
  EXPECT_TRUE(runs("FOO=1 ./build-host/a02_transpose --list | head -3"));
  EXPECT_FALSE(runs("./build/a02_transpose"));
  EXPECT_FALSE(runs("cmake --workflow --preset host && ./build-host/a02_transpose --list"));
  EXPECT_FALSE(runs("ctest --test-dir build-host -R b05"));
  EXPECT_FALSE(runs("python3 trackA/a02_coalescing/triton/transpose.py"));
}

TEST(ReadmeCommands, DotsStandForAnyNumberOfLines) {
  const std::vector<std::string> printed{"a", "b", "c", "d"};
  EXPECT_TRUE(output_matches({"a", "b", "c", "d"}, printed));
  EXPECT_TRUE(output_matches({"a", "...", "d"}, printed));
  EXPECT_TRUE(output_matches({"...", "b", "...", "d", "..."}, printed));
  EXPECT_TRUE(output_matches({"a  ", "b", "c", "d"}, printed));  // trailing spaces trimmed
  EXPECT_FALSE(output_matches({"a", "...", "c"}, printed));
  EXPECT_FALSE(output_matches({" a", "...", }, printed));        // leading spaces count
  EXPECT_FALSE(output_matches({"a", "b", "c"}, printed));
}

class ReadmeCommandsOf : public ::testing::TestWithParam<std::string> {};

TEST_P(ReadmeCommandsOf, RunAndPrintWhatTheReadmeShows) {
  const std::string readme = GetParam();
  const std::vector<Block> blocks = command_blocks(read_text(kSourceDir / readme));
  int block_index = 0;
  for (const Block& block : blocks) {
    ++block_index;
    fs::path folder;
    for (const Command& command : block.commands) {
      if (!runs(command.text)) continue;
      if (folder.empty()) folder = scratch_folder(test_name({readme, 0}) + "-" + std::to_string(block_index));
      const CommandRun run = run_in(folder, command.text);
      const std::string where = readme + ":" + std::to_string(command.line) + ": $ " + command.text;
      const std::vector<std::string> printed = without_trailing_blank_lines(split_lines(run.output));
      if (command.shows_output) {
        const std::vector<std::string> shown = without_trailing_blank_lines(command.expected);
        EXPECT_LT(run.status, 128) << where << "\n  died (status " << run.status << ")";
        EXPECT_TRUE(output_matches(shown, printed))
            << where << "\n  exit code " << run.status << "\n  the README shows:" << indented(shown)
            << "\n  the command printed:" << indented(printed);
      } else {
        EXPECT_EQ(run.status, 0) << where << "\n  printed:" << indented(printed);
      }
    }
    if (!folder.empty()) fs::remove_all(folder);
  }
}

INSTANTIATE_TEST_SUITE_P(Readme, ReadmeCommandsOf, ::testing::ValuesIn(readme_files()), test_name);
