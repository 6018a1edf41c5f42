#pragma once
// `tutor cards check`, the lint: every card parsed (load_deck refuses a malformed file before
// this runs), cites numbers its module README's "## 8. Sources" lists, and names a Record that
// exists; optionally, every available module has at least a floor of cards.
#include <filesystem>
#include <string>
#include <vector>

#include "cards/card_deck.hpp"
#include "cards/readme_sources.hpp"

namespace tutor::cards {

struct ModuleCardCount {
  std::string module;  ///< "A02"
  std::string title;
  bool available = false;
  int cards = 0;
  int with_record = 0;  ///< cards that quote a committed record
};

struct CheckReport {
  std::vector<std::string> problems;   ///< one line each, "<file>:<line>: card <id>: <what>"
  std::vector<ModuleCardCount> counts;  ///< available modules and modules with cards, curriculum order
  int total = 0;
  int total_with_record = 0;
  bool passed() const { return problems.empty(); }
};

/// Checks the cards of `modules` (all when empty) against the READMEs and records under
/// `repository_root`. With `min_cards` > 0, an available module with fewer cards is a problem.
CheckReport check_deck(const Deck& deck, const curriculum::Curriculum& curriculum, ModuleSources& sources,
                       const std::filesystem::path& repository_root, const std::vector<std::string>& modules,
                       int min_cards);

}  // namespace tutor::cards
