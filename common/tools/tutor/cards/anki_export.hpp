#pragma once
// The cards as a file Anki's File > Import reads: the Anki manual, "Importing > Text Files",
// https://docs.ankiweb.net/importing/text-files.html , sections "HTML" and "File Headers"
// (Anki 2.1.55 and later). One line per note, five tab-separated columns:
//
//   #separator:tab
//   #html:true
//   #notetype:Basic
//   #columns:guid<TAB>Front<TAB>Back<TAB>Deck<TAB>Tags
//   #guid column:1
//   #deck column:4
//   #tags column:5
//   a02-sector-bytes<TAB><front HTML><TAB><back HTML><TAB>GPU ML Tutor::A02 Memory coalescing<TAB>A02 track-A gpu-ml-tutor
//
// The GUID is the card id, which never changes, so importing a newer export updates the notes
// (and keeps their scheduling) instead of adding duplicates. The text is deterministic: the
// same cards always give the same bytes.
#include <filesystem>
#include <string>
#include <vector>

#include "cards/card_deck.hpp"
#include "cards/readme_sources.hpp"

namespace tutor::cards {

inline constexpr std::string_view kAnkiDeckRoot = "GPU ML Tutor";

/// The Anki import text of the cards of `modules` (all when empty). Throws UsageError when a
/// card cites a source its module README does not list (`tutor cards check` says which).
std::string anki_text(const Deck& deck, const curriculum::Curriculum& curriculum, ModuleSources& sources,
                      const std::vector<std::string>& modules);

/// The Back field of one card: the answer, then its citations (each source's number and text,
/// with its links) and the record it quotes.
std::string anki_back(const RecallCard& card, const curriculum::Curriculum& curriculum, ModuleSources& sources);

}  // namespace tutor::cards
