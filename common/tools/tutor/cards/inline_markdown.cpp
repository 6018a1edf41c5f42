#include "cards/inline_markdown.hpp"
#include "tutor/markup.hpp"

#include <algorithm>

#include <cstring>
#include <vector>

namespace tutor::cards {
namespace {

/// One run of text with its style, a link, or a paragraph break.
struct Span {
  enum Kind { text, code, link, paragraph } kind = text;
  std::string content;
  std::string href;  // links
  bool bold = false, italic = false;
};

bool is_space(char c) { return c == ' ' || c == '\n'; }

/// The characters a backslash escapes (CommonMark 2.4: ASCII punctuation).
bool escapable(char c) { return c != '\0' && std::strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) != nullptr; }

/// Where a bare URL starting at `i` ends: at a space, without trailing sentence punctuation (and
/// without a ')' that closes a parenthesis opened before the URL).
std::size_t url_end(std::string_view text, std::size_t i) {
  std::size_t end = i;
  while (end < text.size() && !is_space(text[end])) ++end;
  while (end > i) {
    const char last = text[end - 1];
    const std::string_view url = text.substr(i, end - i);
    const bool unbalanced_paren = last == ')' && url.find('(') == std::string_view::npos;
    if (last == '.' || last == ',' || last == ';' || last == ':' || unbalanced_paren) {
      --end;
    } else {
      break;
    }
  }
  return end;
}

/// The closing delimiter `marker` for an opener at `open`: the first one after it that is not
/// preceded by a space (a right-flanking run, CommonMark 6.2), or npos.
std::size_t closer(std::string_view text, std::size_t open, std::string_view marker) {
  std::size_t from = open + marker.size();
  if (from >= text.size() || is_space(text[from])) return std::string_view::npos;
  while (true) {
    const std::size_t at = text.find(marker, from + 1);
    if (at == std::string_view::npos) return at;
    const bool double_star = marker == "*" && at + 1 < text.size() && text[at + 1] == '*';
    if (!is_space(text[at - 1]) && !double_star) return at;
    from = double_star ? at + 1 : at;
  }
}

void parse(std::string_view text, bool bold, bool italic, std::vector<Span>& out) {
  auto add_char = [&](char c) {
    if (out.empty() || out.back().kind != Span::text || out.back().bold != bold || out.back().italic != italic)
      out.push_back(Span{Span::text, "", "", bold, italic});
    out.back().content += c;
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && escapable(text[i + 1])) {
      add_char(text[i + 1]);
      i += 2;
    } else if (c == '\n') {
      while (i < text.size() && text[i] == '\n') ++i;
      out.push_back(Span{Span::paragraph, "", "", bold, italic});
    } else if (c == '`' && text.find('`', i + 1) != std::string_view::npos) {
      const std::size_t end = text.find('`', i + 1);
      out.push_back(Span{Span::code, std::string(text.substr(i + 1, end - i - 1)), "", bold, italic});
      i = end + 1;
    } else if (text.substr(i, 2) == "**" && closer(text, i, "**") != std::string_view::npos) {
      const std::size_t end = closer(text, i, "**");
      parse(text.substr(i + 2, end - i - 2), true, italic, out);
      i = end + 2;
    } else if (c == '*' && text.substr(i, 2) != "**" && closer(text, i, "*") != std::string_view::npos) {
      const std::size_t end = closer(text, i, "*");
      parse(text.substr(i + 1, end - i - 1), bold, true, out);
      i = end + 1;
    } else if (c == '[' && text.find("](", i) != std::string_view::npos &&
               text.find(']', i) == text.find("](", i) && text.find(')', text.find("](", i)) != std::string_view::npos) {
      const std::size_t middle = text.find("](", i);
      const std::size_t end = text.find(')', middle);
      const std::string_view href = text.substr(middle + 2, end - middle - 2);
      if (href.empty() || href.find(' ') != std::string_view::npos) {
        add_char(c);
        ++i;
        continue;
      }
      out.push_back(Span{Span::link, std::string(text.substr(i + 1, middle - i - 1)), std::string(href), bold, italic});
      i = end + 1;
    } else if (text.substr(i, 7) == "http://" || text.substr(i, 8) == "https://") {
      const std::size_t end = url_end(text, i);
      const std::string url(text.substr(i, end - i));
      out.push_back(Span{Span::link, url, url, bold, italic});
      i = end;
    } else {
      add_char(c);
      ++i;
    }
  }
}

std::vector<Span> spans(std::string_view text) {
  std::vector<Span> out;
  parse(text, false, false, out);
  return out;
}

/// An attribute value between single quotes (so that no '"' reaches the file at all).
std::string attribute(std::string_view text) {
  std::string out;
  for (const char c : html_escape(text)) out += c == '\'' ? std::string("&#39;") : std::string(1, c);
  return out;
}

}  // namespace

std::string html_escape(std::string_view text) { return escape_markup(text); }

std::string markdown_to_html(std::string_view text) {
  std::string html;
  for (const Span& span : spans(text)) {
    std::string inner;
    switch (span.kind) {
      case Span::paragraph: html += "<br><br>"; continue;
      case Span::text: inner = html_escape(span.content); break;
      case Span::code: inner = "<code>" + html_escape(span.content) + "</code>"; break;
      case Span::link: inner = "<a href='" + attribute(span.href) + "'>" + html_escape(span.content) + "</a>"; break;
    }
    if (span.italic) inner = "<i>" + inner + "</i>";
    if (span.bold) inner = "<b>" + inner + "</b>";
    html += inner;
  }
  return html;
}

std::string markdown_to_terminal(std::string_view text, bool ansi) {
  std::string out;
  for (const Span& span : spans(text)) {
    std::string inner;
    switch (span.kind) {
      case Span::paragraph: out += "\n\n"; continue;
      case Span::text: inner = span.content; break;
      case Span::code: inner = "`" + span.content + "`"; break;
      case Span::link: inner = span.content == span.href ? span.href : span.content + " (" + span.href + ")"; break;
    }
    if (ansi && span.italic) inner = "\x1b[3m" + inner + "\x1b[23m";
    if (ansi && span.bold) inner = "\x1b[1m" + inner + "\x1b[22m";
    out += inner;
  }
  return out;
}

namespace {

/// The columns `word` takes on a terminal: UTF-8 lead bytes, minus ESC [ ... m sequences.
int columns(std::string_view word) {
  int n = 0;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (word[i] == '\x1b' && i + 1 < word.size() && word[i + 1] == '[') {
      i += 2;
      while (i < word.size() && !(word[i] >= '@' && word[i] <= '~')) ++i;
      continue;
    }
    n += (static_cast<unsigned char>(word[i]) & 0xC0) != 0x80;
  }
  return n;
}

}  // namespace

std::string wrap_for_terminal(std::string_view line, int width, int indent) {
  if (width <= 0) return std::string(line);
  std::string out;
  const std::string margin(static_cast<std::size_t>(indent), ' ');
  bool first_line = true;
  std::size_t start = 0;
  while (start <= line.size()) {
    const std::size_t eol = std::min(line.find('\n', start), line.size());
    const std::string_view part = line.substr(start, eol - start);
    if (!first_line) out += '\n';
    int column = 0;
    bool line_has_word = false;
    if (!first_line && !part.empty()) {
      out += margin;
      column = indent;
    }
    // Leading spaces of the first line (an indented prompt) are kept as written.
    std::size_t i = 0;
    if (first_line)
      for (; i < part.size() && part[i] == ' '; ++i, ++column) out += ' ';
    while (i < part.size()) {
      const std::size_t end = std::min(part.find(' ', i), part.size());
      const std::string_view word = part.substr(i, end - i);
      std::size_t next = end;
      int gap = 0;
      while (next < part.size() && part[next] == ' ') ++next, ++gap;
      if (!word.empty()) {
        const int w = columns(word);
        if (line_has_word && column + w > width) {
          out += '\n' + margin;
          column = indent;
        }
        out += word;
        column += w;
        line_has_word = true;
      }
      // The spaces after a word are written only when a word follows on this line.
      if (next < part.size() && gap > 0) {
        const std::size_t after = std::min(part.find(' ', next), part.size());
        if (column + gap + columns(part.substr(next, after - next)) <= width) {
          out.append(static_cast<std::size_t>(gap), ' ');
          column += gap;
        } else {
          out += '\n' + margin;
          column = indent;
          line_has_word = false;
        }
      }
      i = next;
    }
    first_line = false;
    start = eol + 1;
  }
  return out;
}

}  // namespace tutor::cards
