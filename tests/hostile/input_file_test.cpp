// InputFile (tutor/input_file.hpp): what may be opened as an input, and how it is refused.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "tutor/input_file.hpp"

namespace {

namespace fs = std::filesystem;
using tutor::InputError;
using tutor::InputFile;

class InputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tutor_input_file_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string refusal(const fs::path& p, std::size_t max_bytes = 1 << 20) {
    try {
      InputFile f(p.string(), max_bytes);
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), p.string());
      return e.what_only();
    }
    ADD_FAILURE() << "opened " << p;
    return "";
  }
  fs::path dir_;
};

TEST_F(InputFileTest, ReadsARegularFileWhole) {
  std::ofstream(dir_ / "a.json") << "{\"a\": 1}";
  InputFile f((dir_ / "a.json").string(), 100);
  EXPECT_EQ(f.size(), 8u);
  EXPECT_EQ(f.read_all(), "{\"a\": 1}");
}

TEST_F(InputFileTest, RefusesWhatIsNoRegularFile) {
  EXPECT_EQ(refusal(dir_), "cannot open it: it is a folder");
  EXPECT_EQ(refusal("/dev/zero"), "cannot open it: it is not a regular file (a device, pipe or socket)");
  EXPECT_EQ(refusal(dir_ / "missing.json"), "cannot open it: it does not exist");
}

TEST_F(InputFileTest, RefusesAPipeWithoutWaitingForAWriter) {
  const fs::path fifo = dir_ / "fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(refusal(fifo), "cannot open it: it is not a regular file (a device, pipe or socket)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));  // never blocked on open
}

TEST_F(InputFileTest, RefusesLinkLoopsAndDanglingLinks) {
  fs::create_symlink("loop.json", dir_ / "loop.json");
  fs::create_symlink("nowhere.json", dir_ / "dangling.json");
  EXPECT_EQ(refusal(dir_ / "loop.json"), "cannot open it: a symbolic link loop");
  EXPECT_EQ(refusal(dir_ / "dangling.json"), "cannot open it: a symbolic link to a file that does not exist");
}

TEST_F(InputFileTest, RefusesAFileOverTheCapBeforeReadingIt) {
  const fs::path big = dir_ / "big.json";
  std::ofstream(big) << std::string(2048, ' ');
  EXPECT_EQ(refusal(big, 1024), "it is larger than 1 KiB (2048 bytes); refused before reading");
}

TEST(SizeText, ReadsAsAPowerOfTwoUnit) {
  EXPECT_EQ(tutor::size_text(std::size_t(16) << 20), "16 MiB");
  EXPECT_EQ(tutor::size_text(std::size_t(1) << 30), "1 GiB");
  EXPECT_EQ(tutor::size_text(1000), "1000 B");
}

}  // namespace
