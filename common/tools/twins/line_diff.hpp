#pragma once
// A line diff of two sequences by longest common subsequence, so one inserted line shows
// as one insertion rather than as every later line moved.
#include <cstddef>
#include <string>
#include <vector>

namespace tutor::twins {

/// One step of the alignment: a line both sides share, or a line only one side has.
struct Edit {
  enum class Kind { same, only_a, only_b } kind;
  std::size_t a = 0;  ///< index into a: the line (same, only_a) or where b's line would go (only_b)
  std::size_t b = 0;  ///< index into b: the line (same, only_b) or where a's line would go (only_a)
};

/// The edits that turn `a` into `b`, in order; a hunk lists a's lines before b's.
/// Quadratic time and memory (an LCS table), fine for files of a few thousand lines.
std::vector<Edit> line_diff(const std::vector<std::string>& a, const std::vector<std::string>& b);

}  // namespace tutor::twins
