#pragma once
// Files the tools write are written atomically: nothing is lost or half-written.
#include <string>

namespace tutor {

/// Writes `text` to `path` atomically: a temporary file in the same folder
/// ("<name>.tmp.<pid>", ignored by git), flushed, then renamed over `path`, so a reader or
/// a crash sees the old file or the new one, never half of one. Throws std::runtime_error
/// with a one-line message naming the path when the folder is missing or not writable.
void write_file_atomic(const std::string& path, const std::string& text);

}  // namespace tutor
