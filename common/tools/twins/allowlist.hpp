#pragma once
// The allowlist of a mirror pair: the normalised lines that may differ between the twins,
// each with the reason it differs. It sits beside the HIP twin: hip/<stem>.twin-allow.
//
// Format (documented again at the top of every allowlist):
//   # A line starting with '#' gives the reason for the entries below it, up to the next
//   # blank line (several '#' lines in a row are one reason).
//   cuda: <a normalised line of the CUDA twin, exactly as tutor_twins prints it>
//   hip: <a normalised line of the HIP twin>  # or a reason at the end, after two spaces
// An entry allows every differing line of its side with exactly that text. An entry with
// no reason, or a line that is none of these, is bad input.
#include <string>
#include <vector>

namespace tutor::twins {

struct AllowEntry {
  enum class Side { cuda, hip } side;
  std::string text;  ///< the normalised line it allows
  int line = 0;      ///< where the entry is in the allowlist file
  bool used = false;
};

/// Parses allowlist text; `path` names the file in messages. Throws std::invalid_argument
/// ("<path>:<line>: <what is wrong>") for an entry with no reason or a line it cannot read.
std::vector<AllowEntry> parse_allowlist(const std::string& text, const std::string& path);

}  // namespace tutor::twins
