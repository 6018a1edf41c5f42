#include "tutor/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <csignal>

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

namespace {

/// Where a symbolic link at `link` points, resolved against the link's folder ("" when `link` is
/// no link).
fs::path link_target(const fs::path& link) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(link, ec))) return {};
  fs::path to = fs::read_symlink(link, ec);
  if (ec) return {};
  return to.is_absolute() ? to : link.parent_path() / to;
}

/// True when `fd` is open on a pipe with a reader (a FIFO without one would block the write).
bool fifo_has_reader(const fs::path& fifo) {
  const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

}  // namespace

std::string check_output_path(const std::string& path) {
  if (path.empty()) return "the path is empty";
  std::error_code ec;
  const fs::path target(path);
  const auto st = fs::status(target, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) return path + ": " + ec.message();  // a link loop, say
  if (fs::is_directory(st)) return path + " is a folder";
  if (fs::is_fifo(st) && !fifo_has_reader(target)) return path + " is a pipe that nothing reads";
  if (fs::exists(st) && !fs::is_regular_file(st)) return "";  // a device or pipe: written in place
  // A link to a file that does not exist yet is written through (the link stays): its folder counts.
  const fs::path through = link_target(target);
  const fs::path file = through.empty() ? target : through;
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) return "folder " + dir.string() + " does not exist";
  if (::access(dir.c_str(), W_OK) != 0) return "folder " + dir.string() + " is not writable";
  if (fs::exists(st) && ::access(path.c_str(), W_OK) != 0) return path + " is read-only";
  return "";
}

namespace {

/// The one name a write's temporary file ever has: ".<target name>.<pid>.tutor-tmp" beside the
/// target. A crash can leave at most this one file per process; the next write removes it.
std::string temporary_name(const fs::path& target, pid_t pid) {
  std::string name = ".";  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "." + string
  name.append(target.filename().string()).append(".").append(std::to_string(pid)).append(".tutor-tmp");
  return (target.parent_path() / name).string();
}

/// Removes the temporaries of earlier writes to `target` whose process has ended (killed in the
/// middle of a write); a live process's temporary is left alone.
void remove_stale_temporaries(const fs::path& target) {
  std::string prefix = ".";
  prefix.append(target.filename().string()).append(".");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(target.parent_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix) || !name.ends_with(".tutor-tmp")) continue;
    const std::string pid_text = name.substr(prefix.size(), name.size() - prefix.size() - 10);
    if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::strtol(pid_text.c_str(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) ::unlink(entry.path().c_str());
  }
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& text) {
  if (const std::string why = check_output_path(path); !why.empty()) fail(path, why);
  std::error_code ec;
  // Follow a symbolic link, so that the link stays and its target gets the new content.
  fs::path target = fs::canonical(fs::path(path), ec);
  if (ec) {
    const fs::path through = link_target(fs::path(path));  // a link to a file not created yet
    target = fs::absolute(through.empty() ? fs::path(path) : through);
  }
  const auto st = fs::status(target, ec);
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    // /dev/stdout, /dev/null, a pipe: there is nothing to replace atomically; write in place.
    // O_NONBLOCK: a pipe nothing reads fails at once instead of blocking the tool forever.
    const int fd = ::open(target.c_str(), O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (fd < 0) fail(path, std::strerror(errno));
    const bool ok = write_all(fd, text);
    ::close(fd);
    if (!ok) fail(path, "write failed");
    return;
  }
  mode_t mode = 0644;
  struct stat old {};
  if (::stat(target.c_str(), &old) == 0) mode = old.st_mode & 07777;  // keep the file's mode
  else { const mode_t mask = ::umask(0); ::umask(mask); mode &= ~mask; }
  remove_stale_temporaries(target);
  const std::string name = temporary_name(target, ::getpid());
  // An unnamed file in the target's folder (O_TMPFILE): a kill while it is written leaves
  // nothing behind. It gets its one name only when complete, then is renamed over the target,
  // so a reader sees the old file or the new one, never half of one. Where the file system has
  // no O_TMPFILE, the named temporary is created at once instead (created exclusively: a
  // planted link is never followed).
  bool named = false;
  int fd = ::open(target.parent_path().c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
  if (fd < 0) {
    ::unlink(name.c_str());
    fd = ::open(name.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode);
    named = true;
  }
  if (fd < 0) fail(path, "cannot create a temporary file in " + target.parent_path().string() + ": " + std::strerror(errno));
  bool ok = ::fchmod(fd, mode) == 0 && write_all(fd, text) && ::fsync(fd) == 0;
  if (ok && !named) {
    ::unlink(name.c_str());
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    ok = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0;
    named = ok;
  }
  const int write_errno = errno;
  ::close(fd);
  if (!ok || ::rename(name.c_str(), target.c_str()) != 0) {
    const std::string why = std::strerror(ok ? errno : write_errno);
    if (named) ::unlink(name.c_str());
    fail(path, ok ? "rename failed: " + why : "write failed: " + why);
  }
}

}  // namespace tutor
