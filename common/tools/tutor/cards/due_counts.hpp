#pragma once
// What `tutor cards due` counts, per module and in all, at an instant.
#include <string>
#include <vector>

#include "cards/card_deck.hpp"
#include "cards/review_state.hpp"

namespace tutor::cards {

/// The counts of one module (or of all). A card is in exactly one of new / learning /
/// review-state; `due_now` and `due_within_day` count reviewed cards (learning ones too) whose
/// due time is <= now, and in (now, now + 24 h].
struct DueCounts {
  std::string module;  ///< "A02", or "all"
  std::string title;   ///< the module's title ("" for all)
  int fresh = 0;       ///< never reviewed
  int learning = 0;    ///< in a learning or relearning step
  int due_now = 0;
  int due_within_day = 0;
  int total = 0;
};

struct DueReport {
  std::vector<DueCounts> modules;  ///< modules with cards, in curriculum order
  DueCounts all;
  std::vector<std::string> orphaned;  ///< ids in the state with no card in data/cards (kept)
};

/// Counts the cards of `modules` (every module with cards when empty) at `now`.
DueReport count_due(const Deck& deck, const CardsState& state, const curriculum::Curriculum& curriculum,
                    const std::vector<std::string>& modules, study::Instant now);

}  // namespace tutor::cards
