// The mirror, structural and nvidia-only checks of one pair.
#include "compare.hpp"

#include <algorithm>
#include <regex>

#include "line_diff.hpp"
#include "normalise.hpp"
#include "structure.hpp"

namespace tutor::twins {

namespace {

const char* side_name(AllowEntry::Side side) { return side == AllowEntry::Side::cuda ? "cuda" : "hip"; }

// The line number of lines[i], or of the last line when i is past the end (an insertion at
// the end of the file is placed after it).
int number_at(const std::vector<Line>& lines, std::size_t i) {
  if (lines.empty()) return 1;
  return i < lines.size() ? lines[i].number : lines.back().number + 1;
}

std::vector<std::string> texts(const std::vector<Line>& lines) {
  std::vector<std::string> out;
  for (const Line& line : lines) out.push_back(line.text);
  return out;
}

// The first place two ordered lists disagree, as one finding; nothing when they agree.
template <class Item, class Text>
void compare_lists(const char* what, const Source& cuda, const std::vector<Item>& a, const Source& hip,
                   const std::vector<Item>& b, Text text, std::vector<std::string>& findings) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const bool same = i < a.size() && i < b.size() && text(a[i]) == text(b[i]);
    if (same) continue;
    const auto at = [&](const Source& s, const std::vector<Item>& items) {
      return i < items.size() ? s.path + ":" + std::to_string(items[i].line) + " " + text(items[i])
                              : s.path + " (none)";
    };
    findings.push_back("structure: " + std::string(what) + " #" + std::to_string(i + 1) + " differs: " +
                       at(cuda, a) + " | " + at(hip, b) + " (cuda has " + std::to_string(a.size()) +
                       ", hip has " + std::to_string(b.size()) + ")");
    return;
  }
}

}  // namespace

std::vector<std::string> compare_lines(const Source& cuda, const Source& hip, std::vector<AllowEntry> allow,
                                       const std::string& allow_path) {
  const std::vector<Line> a = normalise_source(cuda.text), b = normalise_source(hip.text);
  const std::vector<Edit> edits = line_diff(texts(a), texts(b));
  std::vector<std::string> findings;
  const auto check = [&](AllowEntry::Side side, const std::string& text, int cuda_line, int hip_line) {
    bool allowed = false;
    for (AllowEntry& entry : allow) {
      if (entry.side == side && entry.text == text) allowed = entry.used = true;
    }
    if (!allowed)
      findings.push_back("twin drift: " + cuda.path + ":" + std::to_string(cuda_line) + " | " + hip.path + ":" +
                         std::to_string(hip_line) + ": not in " + allow_path + ": " + side_name(side) + ": " + text);
  };
  // A hunk is a run of edits between shared lines: its k-th CUDA line is reported against its
  // k-th HIP line (a changed line names itself on both sides), extra lines against the gap.
  for (std::size_t start = 0; start < edits.size();) {
    if (edits[start].kind == Edit::Kind::same) {
      ++start;
      continue;
    }
    std::size_t end = start;
    std::vector<std::size_t> only_a, only_b;
    for (; end < edits.size() && edits[end].kind != Edit::Kind::same; ++end)
      (edits[end].kind == Edit::Kind::only_a ? only_a : only_b)
          .push_back(edits[end].kind == Edit::Kind::only_a ? edits[end].a : edits[end].b);
    const std::size_t gap_a = edits[start].a, gap_b = edits[start].b;
    for (std::size_t k = 0; k < only_a.size(); ++k)
      check(AllowEntry::Side::cuda, a[only_a[k]].text, a[only_a[k]].number,
            number_at(b, k < only_b.size() ? only_b[k] : gap_b + only_b.size()));
    for (std::size_t k = 0; k < only_b.size(); ++k)
      check(AllowEntry::Side::hip, b[only_b[k]].text,
            number_at(a, k < only_a.size() ? only_a[k] : gap_a + only_a.size()), b[only_b[k]].number);
    start = end;
  }
  for (const AllowEntry& entry : allow) {
    if (!entry.used)
      findings.push_back("stale allowlist entry: " + allow_path + ":" + std::to_string(entry.line) + ": " +
                         side_name(entry.side) + ": " + entry.text + " (matches no differing line; remove it)");
  }
  return findings;
}

std::vector<std::string> compare_structure(const Source& cuda, const Source& hip) {
  const Structure a = read_structure(cuda.text), b = read_structure(hip.text);
  std::vector<std::string> findings;
  compare_lists("kernel", cuda, a.kernels, hip, b.kernels, [](const Function& f) { return f.name; }, findings);
  compare_lists("launcher", cuda, a.launchers, hip, b.launchers, [](const Function& f) { return f.signature; },
                findings);
  compare_lists("step banner", cuda, a.banners, hip, b.banners, [](const Banner& s) { return s.text; }, findings);
  return findings;
}

bool is_nvidia_only_stub(const std::string& text) {
  static const std::regex marker(R"((^|\n)[ \t]*//[ \t]*nvidia-only:[ \t]*\S)");
  return std::regex_search(text, marker) && read_structure(text).kernels.empty();
}

}  // namespace tutor::twins
