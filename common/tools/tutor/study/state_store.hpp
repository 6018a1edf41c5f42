#pragma once
// Where the study tools keep the learner's progress, and how they read and write it so that
// nothing is lost: atomic writes, a lock around every read-modify-write, and a corrupt file
// kept aside (never overwritten) with a one-line error.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tutor::study {

/// The state folder: `override` (--state-dir) when not empty, else $XDG_STATE_HOME/gpu-ml-tutor,
/// else $HOME/.local/state/gpu-ml-tutor (XDG Base Directory Specification 0.8, "XDG_STATE_HOME":
/// "user-specific state data that should persist between (application) restarts"). A relative
/// $XDG_STATE_HOME is ignored, as the specification requires. Throws UsageError when neither
/// variable gives a folder. The folder is created by save_state / StateLock, not here.
std::filesystem::path state_dir(const std::string& override);

/// Reads the state file `file`, which must be a JSON object whose "schema" is `schema`.
/// nullopt when the file does not exist. A file that cannot be read, is not JSON, or has
/// another schema is renamed aside to `<name>.corrupt-<UTC yyyymmddThhmmssZ>` and UsageError
/// (exit 2) is thrown, naming the file, why, and where it was kept. `check`, when given, reads
/// the rest of the document: an exception it throws (one line: which field, why) marks
/// the file corrupt the same way.
std::optional<nlohmann::json> load_state(const std::filesystem::path& file, std::string_view schema,
                                         const std::function<void(const nlohmann::json&)>& check = {});

/// Writes `doc` (which should carry its "schema") to `file` atomically, creating the folder.
/// A reader, or a kill -9 at any instant, sees the old file or the new one, never half of one.
void save_state(const std::filesystem::path& file, const nlohmann::json& doc);

/// An exclusive advisory lock (flock) on `<dir>/.lock`, held for the object's lifetime, so two
/// tutor processes doing read-modify-write on the same state never lose each other's update.
/// Creates `dir`. Throws UsageError naming the folder when it cannot be created or locked.
class StateLock {
 public:
  explicit StateLock(const std::filesystem::path& dir);
  ~StateLock();
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace tutor::study
