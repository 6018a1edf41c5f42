// Every relative link in the repository's Markdown files names a file or folder that exists
// inside the repository. Links are CommonMark inline links and images, `[text](target)` and
// `![alt](target)`, and reference definitions, `[label]: target` (CommonMark 0.31, sections
// 6.3 and 4.7). Code blocks and code spans are not links, and neither are targets with a
// scheme (https:, mailto:) or a bare #fragment. Moving a record under docs/results/ without
// updating the READMEs that cite it fails here.
#include <gtest/gtest.h>

#include "repository_files.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir{TUTOR_SOURCE_DIR};

struct Link {
  int line;            // 1-based line in the Markdown file
  std::string target;  // as written, without <> and title
};

// The line with its code spans removed: a run of n backticks opens a span that the next run
// of exactly n backticks closes (CommonMark 6.1).
std::string without_code_spans(const std::string& line) {
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] != '`') {
      out += line[i++];
      continue;
    }
    std::size_t run = line.find_first_not_of('`', i) - i;
    if (i + run > line.size()) run = line.size() - i;
    const std::string fence(run, '`');
    std::size_t close = line.find(fence, i + run);
    while (close != std::string::npos && close + run < line.size() && line[close + run] == '`') {
      close = line.find(fence, line.find_first_not_of('`', close));
    }
    if (close == std::string::npos) {  // unmatched: literal backticks
      out += fence;
      i += run;
    } else {
      i = close + run;
    }
  }
  return out;
}

// The links of one Markdown text, outside fenced code blocks (``` or ~~~, CommonMark 4.5).
std::vector<Link> markdown_links(const std::string& text) {
  static const std::regex inline_link(R"(\]\(\s*(<[^>\n]*>|[^)\s]+)(\s+"[^"]*")?\s*\))");
  // A label starting with '^' is a footnote definition (GitHub Flavored Markdown), not a link.
  static const std::regex reference(R"(^ {0,3}\[[^\]^][^\]]*\]:\s*(<[^>\n]*>|\S+))");
  std::vector<Link> links;
  std::istringstream lines(text);
  std::string line;
  tutor::testing::FenceTracker fences;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (fences.fence_line(line) || fences.inside()) continue;
    const std::string prose = without_code_spans(line);
    auto add = [&](std::string target) {
      if (target.size() >= 2 && target.front() == '<') target = target.substr(1, target.size() - 2);
      links.push_back({number, target});
    };
    for (std::sregex_iterator it(prose.begin(), prose.end(), inline_link), end; it != end; ++it) {
      add((*it)[1].str());
    }
    std::smatch definition;
    if (std::regex_search(prose, definition, reference)) add(definition[1].str());
  }
  return links;
}

bool is_local(const std::string& target) {
  if (target.empty() || target.front() == '#') return false;
  static const std::regex scheme(R"(^[A-Za-z][A-Za-z0-9+.-]*:)");
  return !std::regex_search(target, scheme);
}

// The file part of a target: no #fragment or ?query, %XX decoded.
std::string file_part(const std::string& target) {
  const std::string path = target.substr(0, target.find_first_of("#?"));
  std::string decoded;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size()) {
      decoded += static_cast<char>(std::stoi(path.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      decoded += path[i];
    }
  }
  return decoded;
}

std::vector<fs::path> markdown_files() {
  return tutor::testing::repository_files(kSourceDir, [](const fs::path& p) { return p.extension() == ".md"; });
}

using tutor::testing::read_text;

bool inside(const fs::path& path, const fs::path& root) {
  const fs::path relative = path.lexically_relative(root);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

TEST(MarkdownLinks, FindsInlineLinksImagesAndDefinitionsOutsideCode) {
  const std::string text =
      "See [the record](../docs/a.json) and ![plot](b.svg \"title\").\n"
      "`[not](a-link)` and [ok](<with space.md>)\n"
      "```\n"
      "[inside](a-fence)\n"
      "```\n"
      "[label]: c/d.md\n"
      "[^1]: A footnote, not a link.\n";
  const std::vector<Link> links = markdown_links(text);
  ASSERT_EQ(links.size(), 4u);
  EXPECT_EQ(links[0].target, "../docs/a.json");
  EXPECT_EQ(links[0].line, 1);
  EXPECT_EQ(links[1].target, "b.svg");
  EXPECT_EQ(links[2].target, "with space.md");
  EXPECT_EQ(links[2].line, 2);
  EXPECT_EQ(links[3].target, "c/d.md");
  EXPECT_EQ(links[3].line, 6);
}

TEST(MarkdownLinks, LocalTargetsAreFilePartsWithoutSchemeOrFragment) {
  EXPECT_FALSE(is_local("https://example.com/x.md"));
  EXPECT_FALSE(is_local("mailto:someone@example.com"));
  EXPECT_FALSE(is_local("#section"));
  EXPECT_TRUE(is_local("../../docs/results/README.md#layout"));
  EXPECT_EQ(file_part("README.md#layout"), "README.md");
  EXPECT_EQ(file_part("my%20file.md"), "my file.md");
}

TEST(MarkdownLinks, EveryRelativeLinkResolvesInsideTheRepository) {
  const fs::path root = fs::weakly_canonical(kSourceDir);
  std::size_t checked = 0;
  std::string broken;
  for (const fs::path& file : markdown_files()) {
    const std::string name = file.lexically_relative(kSourceDir).generic_string();
    for (const Link& link : markdown_links(read_text(file))) {
      if (!is_local(link.target)) continue;
      ++checked;
      const std::string part = file_part(link.target);
      const fs::path resolved = fs::weakly_canonical(
          part.front() == '/' ? root / part.substr(1) : file.parent_path() / part);
      const std::string where = name + ":" + std::to_string(link.line) + ": " + link.target;
      if (!inside(resolved, root)) {
        broken += "\n  " + where + " (outside the repository)";
      } else if (!fs::exists(resolved)) {
        broken += "\n  " + where;
      }
    }
  }
  EXPECT_GT(checked, 0u) << "no relative links found under " << kSourceDir;
  EXPECT_TRUE(broken.empty()) << "links to nothing:" << broken;
}
