#pragma once
// Files the tools read come from users: a config copied from the Hub, a GPU file, a trace.
// Opening one must never hang (a pipe with no writer, /dev/zero), follow a link loop, or read
// more than the caller allows. This is the one place that opens such a file.
#include <cstddef>
#include <string>
#include <string_view>

#include "tutor/cli.hpp"

namespace tutor {

/// Bad content in an input file: the message is one line, "<file>: <key>: <what>" (or
/// "<file>: <what>" when no key applies), e.g. "cfg.json: text_config/vocab_size: the number
/// overflows a double". It is a UsageError, so run_main maps it to exit 2; callers may catch
/// it to prefix the option ("--config: ...").
class InputError : public UsageError {
 public:
  InputError(std::string file, std::string key, std::string what);
  const std::string& file() const { return file_; }
  const std::string& key() const { return key_; }   ///< JSON pointer without the leading '/', line "17", or ""
  const std::string& what_only() const { return what_; }  ///< the reason, without file and key

 private:
  std::string file_, key_, what_;
};

/// A regular file opened for reading, checked before a byte is read: it exists, is no folder,
/// no device, pipe or socket, no symbolic-link loop or dangling link, and holds at most
/// `max_bytes`. The open never blocks (O_NONBLOCK: a FIFO without a writer is refused, not
/// waited on). Throws InputError(path, "", why) with a one-line reason.
class InputFile {
 public:
  InputFile(const std::string& path, std::size_t max_bytes);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  std::size_t size() const { return size_; }  ///< bytes at open time
  const std::string& path() const { return path_; }
  /// Reads up to `n` bytes into `buffer`; 0 at the end. Refuses (InputError) a file that grew
  /// past `max_bytes` while it was read.
  std::size_t read(char* buffer, std::size_t n);
  /// The rest of the file, at most max_bytes in all.
  std::string read_all();

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t size_ = 0, max_bytes_ = 0, read_so_far_ = 0;
};

/// "16 MiB", "1 GiB", "512 KiB", "300 B": how a size limit reads in a message.
std::string size_text(std::size_t bytes);

}  // namespace tutor
