#pragma once
// The inline Markdown a card may hold (`code`, **bold**, *italic*, paragraph breaks), and the
// links of a README source ([text](url), bare http(s) URLs), rendered for Anki (HTML) and for a
// terminal. A marker without its closing partner stays as written (CommonMark 6: an unmatched
// delimiter is literal text); an asterisk before a space opens nothing, so "2 * 3" stays.
#include <string>
#include <string_view>

namespace tutor::cards {

/// HTML for one Anki field: <code>, <b>, <i>, <a href='...'>, "<br><br>" between paragraphs;
/// every other '&', '<', '>' and '"' escaped as an entity (Anki manual, "Importing > Text Files
/// > HTML"). Attributes are quoted with ', so the field holds no '"' that Anki's CSV reader could
/// take for a quoted field, no tab and no newline.
std::string markdown_to_html(std::string_view text);

/// Text for a terminal: markers removed, `code` kept in backticks, a link as "text (url)";
/// with `ansi`, bold and italic as ECMA-48 SGR attributes (ESC[1m, ESC[3m).
std::string markdown_to_terminal(std::string_view text, bool ansi);

/// `line` (terminal text, ECMA-48 SGR attributes allowed) broken at spaces so no line is wider
/// than `width` columns, never inside a word (a word wider than the line stands alone); the
/// lines after the first start with `indent` spaces; a '\n' in `line` is kept. Columns count
/// UTF-8 characters, not bytes, and not the attribute sequences. `width` 0: no wrapping.
std::string wrap_for_terminal(std::string_view line, int width, int indent);

/// `text` with '&', '<', '>' and '"' as HTML entities.
std::string html_escape(std::string_view text);

}  // namespace tutor::cards
