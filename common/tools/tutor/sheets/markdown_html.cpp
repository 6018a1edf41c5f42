#include "sheets/markdown_html.hpp"
#include "tutor/markup.hpp"

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

namespace tutor::sheets {
namespace {

struct ParserFree {
  void operator()(cmark_parser* p) const { cmark_parser_free(p); }
};
struct NodeFree {
  void operator()(cmark_node* n) const { cmark_node_free(n); }
};


/// The text of a node's descendants (text and code), as a reader sees it.
std::string plain_text(cmark_node* node) {
  std::string out;
  cmark_iter* iter = cmark_iter_new(node);
  for (cmark_event_type ev; (ev = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
    cmark_node* n = cmark_iter_get_node(iter);
    const auto type = cmark_node_get_type(n);
    if (ev == CMARK_EVENT_ENTER && (type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE))
      if (const char* literal = cmark_node_get_literal(n)) out += literal;
  }
  cmark_iter_free(iter);
  return out;
}

cmark_node* html_block(const std::string& html) {
  cmark_node* node = cmark_node_new(CMARK_NODE_HTML_BLOCK);
  cmark_node_set_literal(node, html.c_str());
  return node;
}

/// Marks the list after each "Sources" heading (see the header).
void mark_sources(cmark_node* document) {
  std::vector<cmark_node*> lists;
  for (cmark_node* n = cmark_node_first_child(document); n; n = cmark_node_next(n)) {
    if (cmark_node_get_type(n) != CMARK_NODE_HEADING || plain_text(n).rfind("Sources", 0) != 0) continue;
    cmark_node* next = cmark_node_next(n);
    if (next && cmark_node_get_type(next) == CMARK_NODE_LIST) lists.push_back(next);
  }
  for (cmark_node* list : lists) {
    std::vector<cmark_node*> links;
    cmark_iter* iter = cmark_iter_new(list);
    for (cmark_event_type ev; (ev = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
      cmark_node* n = cmark_iter_get_node(iter);
      if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(n) == CMARK_NODE_LINK) links.push_back(n);
    }
    cmark_iter_free(iter);
    for (cmark_node* link : links) {
      const char* url = cmark_node_get_url(link);
      if (!url || plain_text(link) == url) continue;
      cmark_node* span = cmark_node_new(CMARK_NODE_HTML_INLINE);
      cmark_node_set_literal(span, ("<span class=\"url\"> (" + escape_markup(url) + ")</span>").c_str());
      cmark_node_insert_after(link, span);
    }
    cmark_node_insert_before(list, html_block("<div class=\"sources\">"));
    cmark_node_insert_after(list, html_block("</div>"));
  }
}

}  // namespace

std::string markdown_to_html(const std::string& markdown) {
  cmark_gfm_core_extensions_ensure_registered();
  const int options = CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES;
  std::unique_ptr<cmark_parser, ParserFree> parser(cmark_parser_new(options));
  for (const char* name : {"table", "strikethrough", "autolink", "tagfilter"}) {
    cmark_syntax_extension* ext = cmark_find_syntax_extension(name);
    if (!ext) throw std::runtime_error(std::string("cmark-gfm has no '") + name + "' extension");
    cmark_parser_attach_syntax_extension(parser.get(), ext);
  }
  cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
  std::unique_ptr<cmark_node, NodeFree> document(cmark_parser_finish(parser.get()));
  mark_sources(document.get());
  char* html = cmark_render_html(document.get(), options, cmark_parser_get_syntax_extensions(parser.get()));
  std::string out(html);
  std::free(html);
  return out;
}

}  // namespace tutor::sheets
