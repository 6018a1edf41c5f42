#pragma once
// Files the tools write are written atomically: nothing is lost or half-written.
#include <string>

namespace tutor {

/// Writes `text` to `path` atomically: an unnamed temporary file in the same folder (O_TMPFILE),
/// flushed to disk, given the name ".<name>.<pid>.tutor-tmp" only when complete, then renamed
/// over `path`, so a reader or a crash sees the old file or the new one, never half of one. A
/// kill leaves at most that one recognisable file, which the next write to `path` removes (its
/// process has ended). Where the file system has no O_TMPFILE the named file is created at once
/// (exclusively: a planted link is never followed). A symbolic link keeps pointing where it did
/// and its target gets the content; the file's mode is kept. A path that exists and is not a
/// regular file (/dev/stdout, a pipe) is written in place. Throws std::runtime_error with a
/// one-line message naming the path when the folder is missing or not writable, the file is
/// read-only, or the write fails.
void write_file_atomic(const std::string& path, const std::string& text);

/// Reads a regular file of at most `max_bytes` bytes. Throws std::runtime_error with a
/// one-line reason without the path ("cannot open it: it is a folder", "... it is not a
/// regular file", "... it is larger than 16 MiB"); callers add the option and path, so that /dev/zero or a folder never hangs or crashes a tool that reads input.
std::string read_text_file(const std::string& path, std::size_t max_bytes);

/// Why `path` cannot be written ("folder out does not exist", "out.json is a folder",
/// "out.json is read-only"), or "" when it can. Labs check every output path right after
/// parsing, so a run is never lost to a typo in --json.
std::string check_output_path(const std::string& path);

}  // namespace tutor
