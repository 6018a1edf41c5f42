#include "cards/anki_export.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cards/inline_markdown.hpp"
#include "tutor/cli.hpp"

namespace tutor::cards {
namespace {

/// A deck name or tag is written raw (Anki reads the deck column as a name, not HTML): keep it
/// on one line, with no tab, and never starting a CSV quote.
std::string one_field(std::string text) {
  std::replace_if(text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r' || c == '"'; }, ' ');
  return text;
}

/// An HTML field on one line with no tab: a tab would start a new column and a line break a new
/// note. Card text has neither (the parser refuses tabs), but a README's source text may; in
/// HTML both read as a space.
std::string one_html_field(std::string html) {
  std::replace_if(html.begin(), html.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return html;
}

}  // namespace

std::string anki_back(const RecallCard& card, const curriculum::Curriculum& curriculum, ModuleSources& sources) {
  std::string why;
  const std::map<int, std::string>* listed = sources.of(card.module, &why);
  if (!listed) throw UsageError(fmt::format("{}:{}: card {}: {}", card.file, card.source_line, card.id, why));
  std::string citation;
  for (const int number : card.sources) {
    const auto found = listed->find(number);
    if (found == listed->end())
      throw UsageError(fmt::format("{}:{}: card {}: Source [{}] is not in {}'s '## 8. Sources' (run tutor cards check)",
                                   card.file, card.source_line, card.id, number, sources.readme(card.module)));
    citation += fmt::format("[{}] {}<br>", number, markdown_to_html(found->second));
  }
  const std::string module = curriculum.has_module(card.module)
                                 ? card.module + " " + curriculum.module(card.module).title
                                 : card.module;
  std::string back = markdown_to_html(card.answer);
  back += "<hr><small>" + citation;
  back += fmt::format("Sources of {}: {}, section 8", html_escape(module), html_escape(sources.readme(card.module)));
  if (!card.record.empty()) back += "<br>Record: <code>" + html_escape(card.record) + "</code>";
  back += "</small>";
  return back;
}

std::string anki_text(const Deck& deck, const curriculum::Curriculum& curriculum, ModuleSources& sources,
                      const std::vector<std::string>& modules) {
  std::string text =
      "#separator:tab\n"
      "#html:true\n"
      "#notetype:Basic\n"
      "#columns:guid\tFront\tBack\tDeck\tTags\n"
      "#guid column:1\n"
      "#deck column:4\n"
      "#tags column:5\n";
  for (const CardFile& file : deck.files) {
    if (!modules.empty() && std::find(modules.begin(), modules.end(), file.module) == modules.end()) continue;
    const curriculum::Module* module = curriculum.has_module(file.module) ? &curriculum.module(file.module) : nullptr;
    const std::string deck_name =
        one_field(fmt::format("{}::{}{}", kAnkiDeckRoot, file.module, module ? " " + module->title : ""));
    const std::string tags =
        one_field(fmt::format("{} track-{} gpu-ml-tutor", file.module, module ? module->track : file.module.substr(0, 1)));
    for (const RecallCard& card : file.cards) {
      text += fmt::format("{}\t{}\t{}\t{}\t{}\n", card.id, one_html_field(markdown_to_html(card.question)),
                          one_html_field(anki_back(card, curriculum, sources)), deck_name, tags);
    }
  }
  return text;
}

}  // namespace tutor::cards
