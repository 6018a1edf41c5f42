#pragma once
// `tutor cards review`: a session in the terminal. For each card: the question, Enter, the
// answer with its citation, then a rating (1 again, 2 hard, 3 good, 4 easy, each shown with the
// interval it would give), saved at once under the state folder's lock: a kill at any moment
// loses at most the card on screen.
#include <cstdio>
#include <deque>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cards/card_deck.hpp"
#include "cards/key_input.hpp"
#include "cards/readme_sources.hpp"
#include "cards/review_state.hpp"

namespace tutor::cards {

/// The session's queue at `now`: reviewed cards that are due (the most overdue first, then in
/// deck order), then up to `new_limit` cards never reviewed, in deck order; only `modules`'
/// cards (all when empty).
std::vector<const RecallCard*> review_queue(const Deck& deck, const CardsState& state,
                                            const std::vector<std::string>& modules, study::Instant now,
                                            int new_limit);

/// What a session shows next, in Anki's order: a card in a learning step that is due, then the
/// due reviewed cards, then the new ones; when nothing else is left, a learning card that falls
/// due within the learn-ahead limit (Anki's "Learn ahead limit", 20 minutes by default) rather
/// than ending the session. A card rated into a learning step comes back through `learning`.
class SessionQueue {
 public:
  explicit SessionQueue(std::vector<const RecallCard*> first) : waiting_(first.begin(), first.end()) {}
  /// The next card at `now`, or nullptr when the session is over.
  const RecallCard* next(study::Instant now);
  /// `card` is in a learning step due at `due`: it comes back when due, if within the limit.
  void learning(const RecallCard& card, study::Instant due, study::Instant now);
  /// Cards still to show: those waiting and those coming back.
  std::size_t left() const { return waiting_.size() + coming_back_.size(); }
  std::size_t coming_back() const { return coming_back_.size(); }

 private:
  std::deque<const RecallCard*> waiting_;                                 ///< due, then new
  std::vector<std::pair<study::Instant, const RecallCard*>> coming_back_;  ///< by due time
};

/// "<1m", "10m", "5h", "3d", "1.5mo", "2.1y": an interval as Anki shows it above its buttons.
std::string interval_text(std::chrono::seconds interval);

struct ReviewOptions {
  std::vector<std::string> modules;  ///< empty: every module
  int new_limit = 20;                ///< new cards in this session
  std::optional<int> limit;          ///< ratings in this session (no limit when empty)
  bool ansi = false;                 ///< bold and italic as terminal attributes
  int width = 0;                     ///< the terminal's columns, to wrap at (0: no wrapping)
};

/// Runs a session and returns the exit code (0). `clock` says the time of each rating (a fixed
/// instant under --now). Each rating is saved to `state_dir` before the next card is shown.
int run_review(const Deck& deck, const curriculum::Curriculum& curriculum, ModuleSources& sources,
               const std::filesystem::path& state_dir, const std::function<study::Instant()>& clock,
               const ReviewOptions& options, KeyInput& input, std::FILE* out);

}  // namespace tutor::cards
