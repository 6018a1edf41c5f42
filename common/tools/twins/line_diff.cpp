// Longest common subsequence by the textbook table (Cormen et al., Introduction to
// Algorithms, 3rd ed., section 15.4), filled from the ends so the walk can go forwards.
#include "line_diff.hpp"

#include <algorithm>

namespace tutor::twins {

std::vector<Edit> line_diff(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const std::size_t n = a.size(), m = b.size();
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  std::vector<std::vector<std::size_t>> lcs(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);

  std::vector<Edit> edits;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      edits.push_back({Edit::Kind::same, i++, j++});
    } else if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      edits.push_back({Edit::Kind::only_a, i++, j});
    } else {
      edits.push_back({Edit::Kind::only_b, i, j++});
    }
  }
  return edits;
}

}  // namespace tutor::twins
