#include "study/state_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <system_error>

#include "tutor/atomic_file.hpp"
#include "tutor/cli.hpp"
#include "tutor/json_input.hpp"

namespace tutor::study {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxStateBytes = std::size_t{64} << 20;
constexpr JsonLimits kStateLimits{.max_bytes = kMaxStateBytes,
                                  .max_depth = 64,
                                  .max_elements = 10'000'000,
                                  .max_values = 100'000'000};

std::string utc_stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

/// Renames `file` to a name no other file has, and returns it.
fs::path keep_aside(const fs::path& file) {
  const std::string base = file.string() + ".corrupt-" + utc_stamp();
  fs::path aside = base;
  for (int n = 2; fs::exists(fs::symlink_status(aside)); ++n) aside = base + "-" + std::to_string(n);
  std::error_code ec;
  fs::rename(file, aside, ec);
  if (ec) throw UsageError(fmt::format("state file {} is unreadable and could not be kept aside ({}); "
                                       "move it away by hand", file.string(), ec.message()));
  return aside;
}

[[noreturn]] void corrupt(const fs::path& file, const std::string& why) {
  const fs::path aside = keep_aside(file);
  throw UsageError(fmt::format("state file {} {}; it was kept as {} and nothing was changed; "
                               "run again to start from an empty state, or repair that file and move it back",
                               file.string(), why, aside.string()));
}

}  // namespace

fs::path state_dir(const std::string& override) {
  if (!override.empty()) return fs::path(override);
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg && fs::path(xdg).is_absolute())
    return fs::path(xdg) / "gpu-ml-tutor";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".local/state/gpu-ml-tutor";
  throw UsageError("--state-dir: no state folder: set XDG_STATE_HOME or HOME, or give --state-dir DIR");
}

std::optional<nlohmann::json> load_state(const fs::path& file, std::string_view schema,
                                         const std::function<void(const nlohmann::json&)>& check) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(file, ec);
  if (ec && status.type() != fs::file_type::not_found)  // ENOENT, ENOTDIR: no state yet; EACCES: refused
    throw UsageError(fmt::format("--state-dir: cannot look for {}: {}", file.string(), ec.message()));
  if (!fs::exists(status)) return std::nullopt;
  std::string text;
  try {
    text = read_text_file(file.string(), kMaxStateBytes);
  } catch (const std::runtime_error& error) {
    corrupt(file, fmt::format("could not be read ({})", error.what()));
  }
  // Bounded like every other JSON input: a state file nested thousands of levels deep would
  // crash the recursive dump() that saves it. The bounds are far above what the tools write
  // (plan.json and cards.json nest 4 levels; one entry per module, card or review).
  nlohmann::json doc;
  try {
    doc = parse_json_text(text, file.string(), kStateLimits);
  } catch (const InputError& error) {
    if (error.what_only().starts_with("not valid JSON")) corrupt(file, "is not valid JSON");
    corrupt(file, fmt::format("is not a state file the tools wrote: at /{}: {}", error.key(), error.what_only()));
  }
  if (!doc.is_object()) corrupt(file, "is not a JSON object");
  const auto found = doc.find("schema");
  if (found == doc.end() || !found->is_string())
    corrupt(file, fmt::format("has no \"schema\" (expected \"{}\")", schema));
  if (found->get<std::string>() != schema)
    corrupt(file, fmt::format("has schema \"{}\", expected \"{}\"", printable(found->get<std::string>()), schema));
  if (check) {
    try {
      check(doc);
    } catch (const std::exception& error) {  // the check's own error, or nlohmann's type_error
      corrupt(file, error.what());
    }
  }
  return doc;
}

void save_state(const fs::path& file, const nlohmann::json& doc) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw UsageError(fmt::format("--state-dir: cannot create {}: {}", file.parent_path().string(), ec.message()));
  try {
    write_file_atomic(file.string(), doc.dump(2) + "\n");
  } catch (const std::runtime_error& error) {
    throw UsageError(fmt::format("--state-dir: {}", error.what()));
  }
}

StateLock::StateLock(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw UsageError(fmt::format("--state-dir: cannot create {}: {}", dir.string(), ec.message()));
  const fs::path lock = dir / ".lock";
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd_ < 0) throw UsageError(fmt::format("--state-dir: cannot open {}: {}", lock.string(), std::strerror(errno)));
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd_);
    throw UsageError(fmt::format("--state-dir: cannot lock {}: {}", lock.string(), std::strerror(error)));
  }
}

StateLock::~StateLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace tutor::study
