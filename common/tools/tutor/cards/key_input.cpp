#include "cards/key_input.hpp"

#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace tutor::cards {
namespace {

// The terminal's settings before the review, restored by the destructor or a signal handler
// (tcsetattr is async-signal-safe, POSIX.1-2017 2.4.3).
struct termios saved_settings;
volatile std::sig_atomic_t saved_fd = -1;

void restore_and_reraise(int signal) {
  if (saved_fd >= 0) ::tcsetattr(saved_fd, TCSANOW, &saved_settings);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

/// One byte, retrying on EINTR; false at the end of the input or on an error.
bool read_byte(int fd, char& c) {
  while (true) {
    const ssize_t n = ::read(fd, &c, 1);
    if (n == 1) return true;
    if (n < 0 && errno == EINTR) continue;
    return false;
  }
}

}  // namespace

KeyInput::KeyInput(int fd) : fd_(fd) {
  struct termios settings;
  if (!::isatty(fd) || ::tcgetattr(fd, &settings) != 0) return;
  saved_settings = settings;
  saved_fd = fd;
  settings.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
  settings.c_cc[VMIN] = 1;
  settings.c_cc[VTIME] = 0;
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) std::signal(signal, restore_and_reraise);
  raw_ = ::tcsetattr(fd, TCSANOW, &settings) == 0;
}

KeyInput::~KeyInput() {
  if (!raw_) return;
  ::tcsetattr(fd_, TCSANOW, &saved_settings);
  saved_fd = -1;
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) std::signal(signal, SIG_DFL);
}

std::optional<std::string> KeyInput::next() {
  char c = 0;
  if (raw_) {
    if (!read_byte(fd_, c) || c == 0x04) return std::nullopt;  // 0x04: Ctrl-D, read as a byte here
    if (c == '\n' || c == '\r') return std::string();
    return std::string(1, c);
  }
  std::string line;
  bool any = false;
  while (read_byte(fd_, c)) {
    any = true;
    if (c == '\n') break;
    line += c;
  }
  if (!any) return std::nullopt;
  const auto first = line.find_first_not_of(" \r");
  if (first == std::string::npos) return std::string();
  return line.substr(first, line.find_last_not_of(" \r") - first + 1);
}

}  // namespace tutor::cards
