// The outline reader of the twin test: tokens of the normalised, comment-free text, and a
// walk over braces that keeps the statement in front of each '{'.
#include "structure.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>
#include <set>

#include "normalise.hpp"

namespace tutor::twins {

namespace {

struct Token {
  std::string text;
  int line = 0;
};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool is_word(const std::string& t) { return !t.empty() && (word_char(t[0]) || t[0] == '"' || t[0] == '\''); }
bool is_identifier(const std::string& t) {
  return !t.empty() && !std::isdigit(static_cast<unsigned char>(t[0])) && word_char(t[0]);
}

// The directive of a preprocessor line: "if", "ifdef", "else", "endif"...
std::string directive_name(const std::string& line) {
  std::size_t i = 1;
  while (i < line.size() && line[i] == ' ') ++i;
  std::size_t end = i;
  while (end < line.size() && word_char(line[end])) ++end;
  return line.substr(i, end - i);
}

// Tokens of the code lines. Preprocessor lines (and their continuations) are left out, and
// of each #if only the first arm is read, as a tags tool does: twins put the same functions
// in each arm (a library path and a fallback), and reading both would list them twice.
std::vector<Token> tokenize(const std::vector<Line>& lines) {
  std::vector<Token> tokens;
  bool continued = false;
  int depth = 0;          // #if nesting
  int skipping_from = 0;  // the depth whose #elif / #else arm is being skipped; 0: none
  for (const Line& line : lines) {
    const std::string& s = line.text;
    const bool directive = continued || s.front() == '#';
    if (directive && !continued) {
      const std::string name = directive_name(s);
      if (name.rfind("if", 0) == 0) ++depth;
      if ((name == "elif" || name == "else") && skipping_from == 0) skipping_from = depth;
      if (name == "endif") {
        if (skipping_from == depth) skipping_from = 0;
        --depth;
      }
    }
    continued = directive && s.back() == '\\';
    if (directive || skipping_from != 0) continue;
    for (std::size_t i = 0; i < s.size();) {
      const char c = s[i];
      std::size_t end = i + 1;
      if (c == ' ') {
        ++i;
        continue;
      }
      if (word_char(c)) {
        while (end < s.size() && (word_char(s[end]) || (std::isdigit(static_cast<unsigned char>(c)) &&
                                                        (s[end] == '.' || s[end] == '\''))))
          ++end;
      } else if (c == '"' || c == '\'') {
        while (end < s.size() && s[end] != c) end += s[end] == '\\' ? 2 : 1;
        end = std::min(end + 1, s.size());
      } else if (s.compare(i, 2, "::") == 0 || s.compare(i, 2, "->") == 0) {
        end = i + 2;
      }
      tokens.push_back({s.substr(i, end - i), line.number});
      i = end;
    }
  }
  return tokens;
}

// Index of the token that closes the group opened at `open` (same depth), or the last token.
std::size_t closing(const std::vector<Token>& t, std::size_t open, const char* opener, const char* closer) {
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].text == opener) ++depth;
    if (t[i].text == closer && --depth == 0) return i;
  }
  return t.size() - 1;
}

// The statement without attributes ([[...]], __launch_bounds__(...), __attribute__((...)))
// and without a leading template<...>.
std::vector<Token> strip_decorations(const std::vector<Token>& head) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const std::string& t = head[i].text;
    const bool has_next = i + 1 < head.size();
    if (t == "[" && has_next && head[i + 1].text == "[") {
      i = closing(head, i, "[", "]");
    } else if ((t == "__launch_bounds__" || t == "__attribute__" || t == "alignas") && has_next &&
               head[i + 1].text == "(") {
      i = closing(head, i + 1, "(", ")");
    } else if (t == "template" && has_next && head[i + 1].text == "<") {
      i = closing(head, i + 1, "<", ">");
    } else {
      out.push_back(head[i]);
    }
  }
  return out;
}

// Tokens joined with a space only between two words: "const GemmArgs&", "std::size_t".
std::string join(const std::vector<Token>& tokens, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (!out.empty() && is_word(tokens[i].text) && word_char(out.back())) out += ' ';
    out += tokens[i].text;
  }
  return out;
}

// A parameter's type: the declarator's name and any default argument dropped.
std::string parameter_type(std::vector<Token> p) {
  static const std::set<std::string> type_words = {"void",   "bool",  "char",     "wchar_t",  "char8_t",
                                                   "char16_t", "char32_t", "short", "int",  "long",
                                                   "float",  "double", "signed", "unsigned", "auto"};
  static const std::set<std::string> before_type = {"const", "volatile", "struct", "class", "enum", "typename", "::"};
  int depth = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const std::string& t = p[i].text;
    if (t == "(" || t == "<" || t == "[" || t == "{") ++depth;
    if (t == ")" || t == ">" || t == "]" || t == "}") --depth;
    if (depth == 0 && t == "=") p.resize(i);
    if (depth == 1 && t == "[" && i >= 2 && is_identifier(p[i - 1].text)) {  // float a[4]
      p.erase(p.begin() + static_cast<std::ptrdiff_t>(i - 1));
      break;
    }
  }
  if (p.size() >= 2) {
    const std::string& last = p.back().text;
    const std::string& prev = p[p.size() - 2].text;
    if (is_identifier(last) && !type_words.count(last) && !before_type.count(prev)) p.pop_back();
  }
  return join(p, 0, p.size());
}

struct Described {
  Function function;
  bool kernel = false, device = false, is_static = false;
};

// The function a statement in front of '{' defines, if it defines one.
std::optional<Described> describe(const std::vector<Token>& raw_head) {
  static const std::set<std::string> not_functions = {"struct", "class", "union", "enum", "namespace",
                                                      "typedef", "using", "extern"};
  static const std::set<std::string> keywords = {"if", "for", "while", "switch", "return", "sizeof",
                                                 "decltype", "static_assert", "catch"};
  static const std::set<std::string> specifiers = {"inline", "static", "extern", "virtual", "explicit",
                                                   "__host__", "__device__", "__global__",
                                                   "__forceinline__", "__noinline__"};
  const std::vector<Token> head = strip_decorations(raw_head);
  if (head.empty() || not_functions.count(head[0].text)) return std::nullopt;

  // The first '(' outside template arguments, with no '=' before it (an initialiser); for an
  // operator, the '(' after its symbol (operator=, operator()).
  std::size_t open = head.size(), name_last = head.size();
  int angle = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const std::string& t = head[i].text;
    if (t == "operator") {
      name_last = i;
      open = i + 1 < head.size() && head[i + 1].text == "(" ? i + 3 : i + 1;
      while (open < head.size() && head[open].text != "(") ++open;
      break;
    }
    if (t == "<") ++angle;
    if (t == ">") --angle;
    if (angle == 0 && t == "=") return std::nullopt;
    if (angle == 0 && t == "(") {
      open = i;
      name_last = i - (i > 0);
      break;
    }
  }
  if (open == 0 || open >= head.size()) return std::nullopt;
  if (head[name_last].text != "operator" &&
      (!is_identifier(head[name_last].text) || keywords.count(head[name_last].text)))
    return std::nullopt;

  // The name, qualified: Event::~Event, DeviceBuffer::operator=, tutor::gpu::synchronize.
  std::size_t name_begin = name_last;
  if (name_begin >= 1 && head[name_begin - 1].text == "~") --name_begin;
  while (name_begin >= 2 && head[name_begin - 1].text == "::" && is_identifier(head[name_begin - 2].text))
    name_begin -= 2;
  const std::size_t close = closing(head, open, "(", ")");

  Described d;
  std::vector<Token> result_type;
  for (std::size_t i = 0; i < name_begin; ++i) {
    const std::string& t = head[i].text;
    d.kernel |= t == "__global__";
    d.device |= t == "__device__";
    d.is_static |= t == "static";
    if (!specifiers.count(t)) result_type.push_back(head[i]);
  }

  std::vector<std::string> parameters;
  std::vector<Token> current;
  int depth = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    const std::string& t = head[i].text;
    if (t == "(" || t == "<" || t == "[" || t == "{") ++depth;
    if (t == ")" || t == ">" || t == "]" || t == "}") --depth;
    if (depth == 0 && t == ",") {
      parameters.push_back(parameter_type(current));
      current.clear();
    } else {
      current.push_back(head[i]);
    }
  }
  if (!current.empty()) parameters.push_back(parameter_type(current));
  if (parameters.size() == 1 && parameters[0] == "void") parameters.clear();

  // Qualifiers after the parameters (const, noexcept, override), up to a constructor's ':'.
  std::size_t qualifiers_end = close + 1;
  while (qualifiers_end < head.size() && head[qualifiers_end].text != ":") ++qualifiers_end;

  std::string signature = join(result_type, 0, result_type.size());
  if (!signature.empty()) signature += ' ';
  signature += join(head, name_begin, open) + "(";
  for (std::size_t i = 0; i < parameters.size(); ++i) signature += (i ? ", " : "") + parameters[i];
  signature += ")";
  if (close + 1 < qualifiers_end) signature += " " + join(head, close + 1, qualifiers_end);

  d.function = {join(head, name_begin, open), signature, head[name_last].line};
  return d;
}

std::vector<Banner> read_banners(std::string_view source) {
  static const std::regex banner(R"(^\s*//\s*-{2,}\s*(Step\s+\d+\s*:.*?)\s*-*\s*$)");
  std::vector<Banner> banners;
  int number = 1;
  std::size_t start = 0;
  while (start <= source.size()) {
    std::size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    const std::string line(source.substr(start, end - start));
    std::smatch m;
    if (std::regex_match(line, m, banner)) banners.push_back({normalise_line(m[1].str()), number});
    ++number;
    start = end + 1;
  }
  return banners;
}

}  // namespace

Structure read_structure(std::string_view source) {
  Structure s;
  const std::vector<Token> tokens = tokenize(normalise_source(source));
  std::vector<bool> anonymous;  // one entry per open namespace or extern "C" block
  std::vector<Token> head;      // the statement read so far at namespace scope
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i].text;
    if (t == ";") {
      head.clear();
    } else if (t == "}") {
      if (!anonymous.empty()) anonymous.pop_back();
      head.clear();
    } else if (t != "{") {
      head.push_back(tokens[i]);
    } else if (!head.empty() && (head[0].text == "namespace" ||
                                 (head.size() > 1 && head[0].text == "inline" && head[1].text == "namespace"))) {
      anonymous.push_back(head.back().text == "namespace");  // "namespace {" has no name
      head.clear();
    } else if (head.size() == 2 && head[0].text == "extern") {  // extern "C" {
      anonymous.push_back(false);
      head.clear();
    } else {
      // A function body, a class or an initialiser: skipped whole. What follows a class or an
      // initialiser up to its ';' defines no function, so the statement can be dropped here.
      const std::optional<Described> d = describe(head);
      i = closing(tokens, i, "{", "}");
      head.clear();
      if (!d) continue;
      const bool hidden = std::find(anonymous.begin(), anonymous.end(), true) != anonymous.end();
      if (d->kernel)
        s.kernels.push_back(d->function);
      else if (!d->device && !d->is_static && !hidden)
        s.launchers.push_back(d->function);
    }
  }
  s.banners = read_banners(source);
  return s;
}

}  // namespace tutor::twins
