#pragma once
// The learner's card progress: `<state dir>/cards.json`, schema "tutor-cards/1". Per card id,
// its FSRS card and the log of its reviews. Ids no longer in data/cards are kept (never
// deleted): a card that comes back finds its history.
//
//   {"schema": "tutor-cards/1",
//    "cards": {"a02-sector-bytes": {"card": {<tutor::fsrs::Card>},
//                                   "log": [{"time": "2026-12-02T09:00:00Z", "rating": "good",
//                                            "elapsed_days": 0, "state_before": "new"}]}}}
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cards/fsrs.hpp"

namespace tutor::cards {

inline constexpr std::string_view kCardsSchema = "tutor-cards/1";

/// One review, as FSRS's optimizer reads a review log: when, the rating, the days since the
/// card's previous review (0 for its first), and the card's state before it.
struct ReviewLogEntry {
  study::Instant time{};
  fsrs::Rating rating = fsrs::Rating::good;
  double elapsed_days = 0.0;
  fsrs::State state_before = fsrs::State::fresh;
};

struct CardProgress {
  fsrs::Card card;
  std::vector<ReviewLogEntry> log;
};

struct CardsState {
  std::map<std::string, CardProgress> cards;  ///< by card id
};

/// `<dir>/cards.json`.
std::filesystem::path cards_state_file(const std::filesystem::path& state_dir);

/// The state in `file`: empty when the file does not exist. A file that is not JSON, has
/// another schema, or holds a malformed entry (a card fsrs::from_json refuses, a log entry
/// without its fields) is kept aside by study::load_state and refused (UsageError, exit 2,
/// one line naming the file, the entry and where the file was kept): never overwritten.
CardsState load_cards_state(const std::filesystem::path& file);

/// Writes `state` to `file` atomically (study::save_state).
void save_cards_state(const std::filesystem::path& file, const CardsState& state);

/// Applies one review of card `id` rated `rating` at `now` to `state` (a card never reviewed
/// starts as fsrs::new_card(now)), appends it to the log, and returns the card's new state.
const fsrs::Card& record_review(CardsState& state, const std::string& id, fsrs::Rating rating, study::Instant now,
                                const fsrs::Scheduler& scheduler);

/// Loads, records and saves in one step under the state folder's lock (study::StateLock), so
/// a rating is on disk before the next card is shown and two sessions never lose each other's
/// reviews. Returns the state as saved.
CardsState save_review(const std::filesystem::path& state_dir, const std::string& id, fsrs::Rating rating,
                       study::Instant now, const fsrs::Scheduler& scheduler);

}  // namespace tutor::cards
