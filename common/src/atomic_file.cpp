#include "tutor/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tutor {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw std::runtime_error("cannot write " + path + ": " + why);
}

/// Writes all of `text` to `fd`; false on a short write (disk full, file size limit).
bool write_all(int fd, const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (!fs::exists(st)) throw std::runtime_error("cannot open it: it does not exist");
  if (fs::is_directory(st)) throw std::runtime_error("cannot open it: it is a folder");
  if (!fs::is_regular_file(st)) throw std::runtime_error("cannot open it: it is not a regular file");
  const auto size = fs::file_size(path, ec);
  if (ec || size > max_bytes)
    throw std::runtime_error("cannot open it: it is larger than " + std::to_string(max_bytes >> 20) + " MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open it: permission denied or unreadable");
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

std::string check_output_path(const std::string& path) {
  if (path.empty()) return "the path is empty";
  std::error_code ec;
  const fs::path target(path);
  const auto st = fs::status(target, ec);
  if (fs::is_directory(st)) return path + " is a folder";
  if (fs::exists(st) && !fs::is_regular_file(st)) return "";  // a device or pipe: written in place
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) return "folder " + dir.string() + " does not exist";
  if (::access(dir.c_str(), W_OK) != 0) return "folder " + dir.string() + " is not writable";
  if (fs::exists(st) && ::access(path.c_str(), W_OK) != 0) return path + " is read-only";
  return "";
}

void write_file_atomic(const std::string& path, const std::string& text) {
  if (const std::string why = check_output_path(path); !why.empty()) fail(path, why);
  std::error_code ec;
  // Follow a symbolic link, so that the link stays and its target gets the new content.
  fs::path target = fs::canonical(fs::path(path), ec);
  if (ec) target = fs::path(path);
  const auto st = fs::status(target, ec);
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    // /dev/stdout, /dev/null, a pipe: there is nothing to replace atomically; write in place.
    const int fd = ::open(target.c_str(), O_WRONLY | O_APPEND);
    if (fd < 0) fail(path, std::strerror(errno));
    const bool ok = write_all(fd, text);
    ::close(fd);
    if (!ok) fail(path, "write failed");
    return;
  }
  // A fresh temporary beside the target (mkstemp: a new name, created exclusively, never a
  // link someone planted), filled, flushed to disk, then renamed over the target.
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string name = (dir / ".tmp.XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(path, "cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno));
  mode_t mode = 0644;
  struct stat old {};
  if (::stat(target.c_str(), &old) == 0) mode = old.st_mode & 07777;  // keep the file's mode
  else { const mode_t mask = ::umask(0); ::umask(mask); mode &= ~mask; }
  const bool ok = ::fchmod(fd, mode) == 0 && write_all(fd, text) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(name.c_str(), target.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(name.c_str());
    fail(path, ok ? "rename failed: " + why : "write failed (disk full?)");
  }
}

}  // namespace tutor
