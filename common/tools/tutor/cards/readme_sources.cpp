#include "cards/readme_sources.hpp"

#include <cctype>

#include "tutor/input_file.hpp"

namespace tutor::cards {
namespace {

constexpr std::size_t kMaxReadmeBytes = std::size_t{4} << 20;

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \r");
  return text.substr(first, last - first + 1);
}

bool is_section_heading(std::string_view line) {
  return line.substr(0, 2) == "# " || line.substr(0, 3) == "## " || line == "#" || line == "##";
}

}  // namespace

std::optional<std::map<int, std::string>> parse_readme_sources(std::string_view readme_text) {
  std::map<int, std::string> items;
  bool inside = false, found = false;
  int current = 0;  // the item being read, 0 when none
  std::size_t start = 0;
  while (start < readme_text.size()) {
    std::size_t end = readme_text.find('\n', start);
    if (end == std::string_view::npos) end = readme_text.size();
    const std::string_view line = readme_text.substr(start, end - start);
    start = end + 1;
    if (is_section_heading(line)) {
      if (inside) break;
      inside = trim(line).substr(0, 13) == "## 8. Sources";
      found = found || inside;
      continue;
    }
    if (!inside) continue;
    std::size_t digits = 0;
    while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
    if (digits > 0 && digits < 4 && line.size() > digits + 1 && line[digits] == '.' && line[digits + 1] == ' ') {
      current = std::stoi(std::string(line.substr(0, digits)));
      if (items.contains(current)) {
        current = 0;  // a repeated number keeps its first text
        continue;
      }
      items[current] = std::string(trim(line.substr(digits + 2)));
    } else if (current != 0 && !line.empty() && line.front() == ' ' && !trim(line).empty()) {
      items[current] += " " + std::string(trim(line));
    } else if (!trim(line).empty()) {
      current = 0;  // text after the list belongs to no item
    }
  }
  if (!found) return std::nullopt;
  return items;
}

std::optional<std::map<int, std::string>> load_readme_sources(const std::filesystem::path& readme, std::string* why) {
  std::string text;
  try {
    InputFile in(readme.string(), kMaxReadmeBytes);
    text = in.read_all();
  } catch (const InputError& error) {
    if (why) *why = error.what_only();
    return std::nullopt;
  }
  auto sources = parse_readme_sources(text);
  if (!sources && why) *why = "it has no '## 8. Sources' section";
  return sources;
}

std::string ModuleSources::readme(const std::string& module) const {
  if (!curriculum_.has_module(module)) return "";
  return (std::filesystem::path(curriculum_.module(module).folder) / "README.md").generic_string();
}

const std::map<int, std::string>* ModuleSources::of(const std::string& module, std::string* why) {
  auto found = loaded_.find(module);
  if (found == loaded_.end()) {
    Entry entry;
    if (!curriculum_.has_module(module)) {
      entry.why = "module " + module + " is not in data/curriculum.json";
    } else {
      std::string reason;
      entry.sources = load_readme_sources(root_ / readme(module), &reason);
      if (!entry.sources) entry.why = readme(module) + ": " + reason;
    }
    found = loaded_.emplace(module, std::move(entry)).first;
  }
  if (!found->second.sources) {
    if (why) *why = found->second.why;
    return nullptr;
  }
  return &*found->second.sources;
}

std::string short_source_text(std::string_view text, std::size_t max_chars) {
  std::string plain;
  for (std::size_t i = 0; i < text.size();) {
    // [text](url) reads as its text.
    if (text[i] == '[') {
      const auto close = text.find("](", i);
      const auto end = close == std::string_view::npos ? close : text.find(')', close);
      if (close != std::string_view::npos && end != std::string_view::npos && text.find('[', i + 1) > close) {
        plain += text.substr(i + 1, close - i - 1);
        i = end + 1;
        continue;
      }
    }
    // A bare URL is dropped: a terminal line has no room for it (the README has it).
    if (text.substr(i, 7) == "http://" || text.substr(i, 8) == "https://") {
      while (i < text.size() && text[i] != ' ') ++i;
      continue;
    }
    if (text[i] != '*' && text[i] != '`') plain += text[i];
    ++i;
  }
  std::string squeezed;
  for (const char c : plain) {
    if (c == ' ' && (squeezed.empty() || squeezed.back() == ' ')) continue;
    squeezed += c;
  }
  while (!squeezed.empty() && (squeezed.back() == ' ' || squeezed.back() == ',' || squeezed.back() == ';'))
    squeezed.pop_back();
  // Count characters, not bytes, and never cut inside one (UTF-8 continuation bytes are 10xxxxxx).
  std::size_t chars = 0, cut = squeezed.size();
  for (std::size_t i = 0; i < squeezed.size(); ++i) {
    if ((static_cast<unsigned char>(squeezed[i]) & 0xc0) == 0x80) continue;
    if (++chars > max_chars) {
      cut = i;
      break;
    }
  }
  if (cut == squeezed.size()) return squeezed;
  std::size_t space = squeezed.rfind(' ', cut);
  if (space == std::string::npos || space < cut / 2) space = cut;
  std::string shortened = squeezed.substr(0, space);
  while (!shortened.empty() && (shortened.back() == ' ' || shortened.back() == ',' || shortened.back() == ';' ||
                                shortened.back() == ':'))
    shortened.pop_back();
  return shortened + "...";
}

}  // namespace tutor::cards
