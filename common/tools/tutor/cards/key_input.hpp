#pragma once
// What the learner types during a review. On a terminal, one key at a time (non-canonical
// mode, no echo: POSIX termios, ICANON and ECHO cleared), so "3" rates without Enter; the
// terminal is restored on exit and on SIGINT, SIGTERM and SIGHUP. Otherwise (a pipe, a file),
// one line at a time.
#include <optional>
#include <string>

namespace tutor::cards {

class KeyInput {
 public:
  /// Reads from file descriptor `fd` (0: standard input).
  explicit KeyInput(int fd);
  ~KeyInput();
  KeyInput(const KeyInput&) = delete;
  KeyInput& operator=(const KeyInput&) = delete;

  /// The next answer: "" for Enter, otherwise the key (or the line, trimmed); nullopt at the
  /// end of the input (end of file, Ctrl-D on a terminal).
  std::optional<std::string> next();

  /// Whether keys are read one at a time (the input is a terminal).
  bool single_keys() const { return raw_; }

 private:
  int fd_;
  bool raw_ = false;
};

}  // namespace tutor::cards
