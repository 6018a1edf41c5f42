#include "tutor/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tutor {

namespace {
std::string message(const std::string& file, const std::string& key, const std::string& what) {
  return key.empty() ? file + ": " + what : file + ": " + key + ": " + what;
}
}  // namespace

InputError::InputError(std::string file, std::string key, std::string what)
    : UsageError(message(file, key, what)), file_(std::move(file)), key_(std::move(key)), what_(std::move(what)) {}

std::string size_text(std::size_t bytes) {
  if (bytes >= (std::size_t(1) << 30) && bytes % (std::size_t(1) << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (std::size_t(1) << 20) && bytes % (std::size_t(1) << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

InputFile::InputFile(const std::string& path, std::size_t max_bytes) : path_(path), max_bytes_(max_bytes) {
  if (path.empty()) throw InputError("(empty path)", "", "cannot open it: the path is empty");
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0) {
    const int err = errno;
    struct stat link {};
    if (err == ELOOP) throw InputError(path, "", "cannot open it: a symbolic link loop");
    if (err == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
      throw InputError(path, "", "cannot open it: a symbolic link to a file that does not exist");
    if (err == ENOENT) throw InputError(path, "", "cannot open it: it does not exist");
    if (err == EACCES) throw InputError(path, "", "cannot open it: permission denied");
    if (err == ENOTDIR) throw InputError(path, "", "cannot open it: a folder in its path is a file");
    throw InputError(path, "", std::string("cannot open it: ") + std::strerror(err));
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    ::close(fd_);
    throw InputError(path, "", "cannot open it: fstat failed");
  }
  const char* refused = S_ISDIR(st.st_mode)    ? "cannot open it: it is a folder"
                        : !S_ISREG(st.st_mode) ? "cannot open it: it is not a regular file (a device, pipe or socket)"
                                               : nullptr;
  if (!refused && static_cast<std::size_t>(st.st_size) > max_bytes) {
    ::close(fd_);
    throw InputError(path, "", "it is larger than " + size_text(max_bytes) + " (" + std::to_string(st.st_size) +
                                   " bytes); refused before reading");
  }
  if (refused) {
    ::close(fd_);
    throw InputError(path, "", refused);
  }
  size_ = static_cast<std::size_t>(st.st_size);
  // Regular files never block: reads can be blocking again.
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t InputFile::read(char* buffer, std::size_t n) {
  while (true) {
    const ssize_t got = ::read(fd_, buffer, n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(path_, "", std::string("read error: ") + std::strerror(errno));
    read_so_far_ += static_cast<std::size_t>(got);
    if (read_so_far_ > max_bytes_)
      throw InputError(path_, "", "it grew past " + size_text(max_bytes_) + " while it was read");
    return static_cast<std::size_t>(got);
  }
}

std::string InputFile::read_all() {
  std::string text;
  text.reserve(size_);
  char buffer[1 << 16];
  while (const std::size_t n = read(buffer, sizeof buffer)) text.append(buffer, n);
  return text;
}

}  // namespace tutor
