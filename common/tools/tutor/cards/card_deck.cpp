#include "cards/card_deck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "tutor/input_file.hpp"

namespace tutor::cards {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxCardFileBytes = std::size_t{4} << 20;

// The fields, in the order a card must give them.
enum Field { kQ = 0, kA = 1, kSource = 2, kRecord = 3, kFieldCount = 4 };
constexpr std::array<std::string_view, kFieldCount> kFieldNames = {"Q:", "A:", "Source:", "Record:"};

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
  return out;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(' ');
  return text.substr(first, last - first + 1);
}

bool is_module_id(std::string_view token) {
  return token.size() == 3 && std::isupper(static_cast<unsigned char>(token[0])) &&
         std::isdigit(static_cast<unsigned char>(token[1])) && std::isdigit(static_cast<unsigned char>(token[2]));
}

/// Why `line` holds a byte a card file may not have ("" when none): a tab, another control
/// character, or bytes that are not UTF-8 (RFC 3629, section 4: no overlong forms, no
/// surrogates, nothing above U+10FFFF). Columns count characters from 1.
std::string bad_byte(std::string_view line) {
  int column = 1;
  for (std::size_t i = 0; i < line.size(); ++column) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c == '\t') return fmt::format("tab character at column {} (indent with spaces)", column);
    if (c < 0x20 || c == 0x7f) return fmt::format("control character 0x{:02x} at column {}", c, column);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned min = 0;
    unsigned code = 0;
    if (c >= 0xc2 && c <= 0xdf) {
      length = 2, min = 0x80, code = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      length = 3, min = 0x800, code = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      length = 4, min = 0x10000, code = c & 0x07;
    }
    bool ok = length != 0 && i + length <= line.size();
    for (std::size_t k = 1; ok && k < length; ++k) {
      const auto next = static_cast<unsigned char>(line[i + k]);
      ok = (next & 0xc0) == 0x80;
      code = (code << 6) | (next & 0x3f);
    }
    if (!ok || code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
      return fmt::format("bytes that are not UTF-8 at column {}", column);
    i += length;
  }
  return "";
}

/// The heading level of a Markdown ATX heading line (CommonMark 4.2: 1-6 '#' then a space or
/// the end of the line), or 0.
int heading_level(std::string_view line) {
  const std::size_t hashes = line.find_first_not_of('#');
  const std::size_t level = hashes == std::string_view::npos ? line.size() : hashes;
  if (level < 1 || level > 6) return 0;
  return level == line.size() || line[level] == ' ' ? static_cast<int>(level) : 0;
}

/// The field a line starts, with its value, or nullopt.
std::optional<std::pair<Field, std::string_view>> field_line(std::string_view line) {
  for (int f = 0; f < kFieldCount; ++f) {
    if (line.substr(0, kFieldNames[f].size()) == kFieldNames[f])
      return std::pair{static_cast<Field>(f), trim(line.substr(kFieldNames[f].size()))};
  }
  return std::nullopt;
}

/// "[2]" or "[2, 5]": the numbers, or nullopt.
std::optional<std::vector<int>> source_numbers(std::string_view value) {
  if (value.size() < 3 || value.front() != '[' || value.back() != ']') return std::nullopt;
  std::vector<int> numbers;
  std::string_view rest = value.substr(1, value.size() - 2);
  while (true) {
    rest = trim(rest);
    std::size_t digits = 0;
    while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
    if (digits == 0 || digits > 3 || rest[0] == '0') return std::nullopt;
    numbers.push_back(std::stoi(std::string(rest.substr(0, digits))));
    rest = trim(rest.substr(digits));
    if (rest.empty()) return numbers;
    if (rest.front() != ',') return std::nullopt;
    rest.remove_prefix(1);
  }
}

bool repository_relative(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.find_first_of(" \\") != std::string_view::npos) return false;
  for (const auto& part : fs::path(std::string(path))) {
    if (part == ".." || part == ".") return false;
  }
  return true;
}

class Parser {
 public:
  Parser(const std::string& path, std::string_view file_module, const curriculum::Curriculum& curriculum)
      : curriculum_(curriculum) {
    file_.path = path;
    file_.module = upper(file_module);
  }

  CardFile run(std::string_view text) {
    // A UTF-8 byte order mark, which some editors write first (Unicode 15, section 23.8), is
    // not part of the title; CRLF line endings are read too (below).
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    int number = 0;
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF line endings
      start = end + 1;
      ++number;
      if (const std::string why = bad_byte(line); !why.empty()) fail(number, why);
      take(line, number);
    }
    finish_card();
    if (!titled_) fail(std::max(number, 1), "no title: a card file starts with '# <module id> <title>'");
    if (file_.cards.empty())
      fail(number, "no cards: a card is a '## <card id>' heading followed by Q:, A: and Source: lines");
    return std::move(file_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    if (!in_card_) throw CardFileError(fmt::format("{}:{}: {}", file_.path, line, what));
    throw CardFileError(fmt::format("{}:{}: card {}: {}", file_.path, line, card_.id, what));
  }

  void take(std::string_view line, int number) {
    const int level = heading_level(line);
    if (!titled_) {
      if (trim(line).empty()) return;
      if (level != 1) fail(number, "no title: a card file starts with '# <module id> <title>'");
      title(trim(line.substr(1)), number);
      return;
    }
    if (level == 2) return heading(trim(line.substr(2)), number);
    if (level == 1) fail(number, "a second title: only '## <card id>' headings may follow the title");
    if (level != 0) fail(number, fmt::format("a level-{} heading: only '## <card id>' headings may follow the title", level));
    const auto field = field_line(line);
    if (!in_card_) {
      if (field) fail(number, fmt::format("{} before the first card (a card starts with '## <card id>')", kFieldNames[field->first]));
      return;  // the free text under the title
    }
    if (field) return start_field(field->first, field->second, number);
    text_line(trim(line), number);
  }

  void title(std::string_view rest, int number) {
    titled_ = true;
    const std::string_view token = rest.substr(0, rest.find(' '));
    if (!is_module_id(token))
      fail(number, fmt::format("the title must start with the module id ('# {} ...'), got '# {}'", file_.module, rest));
    if (token != file_.module)
      fail(number, fmt::format("the title names module {} but the file name is {}'s ({}.md)", token, file_.module,
                               lower(file_.module)));
    if (!curriculum_.has_module(token))
      fail(number, fmt::format("module {} is not in data/curriculum.json", token));
  }

  void heading(std::string_view id, int number) {
    finish_card();
    in_card_ = true;
    card_ = RecallCard{};
    card_.id = std::string(id);
    card_.module = file_.module;
    card_.file = file_.path;
    card_.line = number;
    seen_.fill(0);
    current_ = -1;
    paragraphs_.clear();
    paragraph_.clear();
    if (id.empty()) fail(number, "a card heading without an id ('## <card id>')");
    if (!std::all_of(id.begin(), id.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }))
      fail(number, "the id may hold only a-z, 0-9 and '-'");
    const std::string prefix = lower(file_.module) + "-";
    if (id.size() <= prefix.size() || id.substr(0, prefix.size()) != prefix)
      fail(number, fmt::format("the id must start with '{}' (its module, {}) and name the card after it", prefix,
                               file_.module));
    if (const auto first = ids_.find(card_.id); first != ids_.end())
      fail(number, fmt::format("duplicate id (the first is at line {})", first->second));
    ids_.emplace(card_.id, number);
  }

  void start_field(Field field, std::string_view value, int number) {
    if (seen_[field] != 0)
      fail(number, fmt::format("a second {} line (the first is at line {})", kFieldNames[field], seen_[field]));
    if (current_ > field)
      fail(number, fmt::format("{} comes after {} (the order is Q:, A:, Source:, Record:)", kFieldNames[field],
                               kFieldNames[current_]));
    close_text();
    seen_[field] = number;
    current_ = field;
    if (field == kQ || field == kA) {
      if (!value.empty()) paragraph_ = std::string(value);
      return;
    }
    if (value.empty()) fail(number, fmt::format("empty {}", kFieldNames[field]));
    if (field == kSource) {
      const auto numbers = source_numbers(value);
      if (!numbers)
        fail(number, fmt::format("Source: must be [n] or [n, m] (numbers of the module README's '## 8. Sources'), "
                                 "got '{}'", value));
      std::set<int> distinct(numbers->begin(), numbers->end());
      if (distinct.size() != numbers->size()) fail(number, fmt::format("Source: names a number twice: '{}'", value));
      card_.sources = *numbers;
      card_.source_line = number;
    } else {
      if (!repository_relative(value))
        fail(number, fmt::format("Record: must be one repository-relative path without spaces "
                                 "(docs/results/...), got '{}'", value));
      card_.record = std::string(value);
      card_.record_line = number;
    }
  }

  void text_line(std::string_view text, int number) {
    if (current_ < 0) {
      if (!text.empty()) fail(number, "text before Q: (a card's first line after its heading is Q:)");
      return;
    }
    if (current_ == kSource || current_ == kRecord) {
      if (!text.empty())
        fail(number, fmt::format("text after {} (Source: and Record: take one line each)", kFieldNames[current_]));
      return;
    }
    if (text.empty()) {
      if (!paragraph_.empty()) paragraphs_.push_back(std::move(paragraph_));
      paragraph_.clear();
      return;
    }
    paragraph_ += paragraph_.empty() ? std::string(text) : " " + std::string(text);
  }

  /// Ends the Q: or A: being read: its paragraphs become the field.
  void close_text() {
    if (current_ != kQ && current_ != kA) return;
    if (!paragraph_.empty()) paragraphs_.push_back(std::move(paragraph_));
    paragraph_.clear();
    std::string joined;
    for (const std::string& p : paragraphs_) joined += (joined.empty() ? "" : "\n\n") + p;
    paragraphs_.clear();
    if (joined.empty()) fail(seen_[current_], fmt::format("empty {}", kFieldNames[current_]));
    (current_ == kQ ? card_.question : card_.answer) = std::move(joined);
  }

  void finish_card() {
    if (!in_card_) return;
    close_text();
    for (const Field required : {kQ, kA, kSource}) {
      if (seen_[required] == 0) fail(card_.line, fmt::format("no {} line", kFieldNames[required]));
    }
    file_.cards.push_back(std::move(card_));
    in_card_ = false;
  }

  const curriculum::Curriculum& curriculum_;
  CardFile file_;
  bool titled_ = false;
  bool in_card_ = false;
  RecallCard card_;
  std::array<int, kFieldCount> seen_{};  // the line of each field of the card read, 0 if none yet
  int current_ = -1;                     // the field being read, -1 before Q:
  std::vector<std::string> paragraphs_;
  std::string paragraph_;
  std::map<std::string, int> ids_;  // id -> line of its heading
};

}  // namespace

const RecallCard* Deck::find(std::string_view id) const {
  for (const CardFile& file : files) {
    for (const RecallCard& card : file.cards) {
      if (card.id == id) return &card;
    }
  }
  return nullptr;
}

std::vector<const RecallCard*> Deck::cards() const {
  std::vector<const RecallCard*> all;
  for (const CardFile& file : files) {
    for (const RecallCard& card : file.cards) all.push_back(&card);
  }
  return all;
}

std::vector<const RecallCard*> Deck::cards_of(std::string_view module) const {
  std::vector<const RecallCard*> out;
  for (const CardFile& file : files) {
    if (file.module != module) continue;
    for (const RecallCard& card : file.cards) out.push_back(&card);
  }
  return out;
}

CardFile parse_card_file(std::string_view text, const std::string& path, std::string_view file_module,
                         const curriculum::Curriculum& curriculum) {
  return Parser(path, file_module, curriculum).run(text);
}

Deck load_deck(const fs::path& cards_folder, const curriculum::Curriculum& curriculum) {
  Deck deck;
  std::error_code ec;
  if (!fs::exists(cards_folder, ec)) return deck;
  if (!fs::is_directory(cards_folder, ec))
    throw CardFileError(fmt::format("--data: {} is not a folder of card files", cards_folder.string()));
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(cards_folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.front() == '.' || name == "README.md") continue;  // hidden files (an editor's), the folder's README
    const bool card_name = name.size() == 6 && name.substr(3) == ".md" && std::islower(static_cast<unsigned char>(name[0])) &&
                           std::isdigit(static_cast<unsigned char>(name[1])) && std::isdigit(static_cast<unsigned char>(name[2]));
    if (!card_name)
      throw CardFileError(fmt::format("{}: not a card file (card files are named after their module in lower case, "
                                      "e.g. a02.md)", entry.path().string()));
    std::error_code type_ec;
    if (!entry.is_regular_file(type_ec))  // follows a link: a link to a card file is one
      throw CardFileError(fmt::format("{}: not a regular file (a folder, device, pipe or broken link); a card file "
                                      "is a text file", entry.path().string()));
    paths.push_back(entry.path());
  }
  if (ec) throw CardFileError(fmt::format("--data: cannot list {}: {}", cards_folder.string(), ec.message()));
  // Curriculum order, so every listing reads like CURRICULUM.md; unknown modules last (the
  // parser refuses them).
  auto rank = [&](const fs::path& p) {
    const std::string id = upper(p.stem().string());
    for (std::size_t i = 0; i < curriculum.modules.size(); ++i) {
      if (curriculum.modules[i].id == id) return i;
    }
    return curriculum.modules.size();
  };
  std::sort(paths.begin(), paths.end(), [&](const fs::path& a, const fs::path& b) {
    return std::pair(rank(a), a.filename()) < std::pair(rank(b), b.filename());
  });
  std::map<std::string, std::string> where;  // id -> file:line
  for (const fs::path& path : paths) {
    InputFile in(path.string(), kMaxCardFileBytes);
    const std::string text = in.read_all();
    CardFile file = parse_card_file(text, path.string(), path.stem().string(), curriculum);
    for (const RecallCard& card : file.cards) {
      const std::string here = fmt::format("{}:{}", card.file, card.line);
      if (const auto [it, fresh] = where.emplace(card.id, here); !fresh)
        throw CardFileError(fmt::format("{}: card {}: duplicate id (the first is at {})", here, card.id, it->second));
    }
    deck.files.push_back(std::move(file));
  }
  return deck;
}

}  // namespace tutor::cards
