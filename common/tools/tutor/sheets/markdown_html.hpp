#pragma once
// GitHub-flavoured Markdown to HTML, by cmark-gfm (GitHub's own CommonMark parser, with its
// table, strikethrough, autolink and tag-filter extensions and footnotes), so the printed
// sheet and the sheet GitHub shows are read from the same Markdown the same way.
#include <string>

namespace tutor::sheets {

/// The HTML of `markdown` (a fragment: no <html> or <head>). Raw HTML in the Markdown is kept
/// (the templates are the repository's own). The list that follows a heading "Sources" is
/// wrapped in <div class="sources"> and each of its links whose text is not its address is
/// followed by <span class="url"> (address)</span>, so print CSS can print those addresses and
/// no others.
std::string markdown_to_html(const std::string& markdown);

}  // namespace tutor::sheets
