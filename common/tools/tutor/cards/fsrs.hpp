#pragma once
// FSRS-6, the Free Spaced Repetition Scheduler of the open-spaced-repetition project: a card's
// memory is two numbers, stability S (days until recall probability falls to 90%) and
// difficulty D (1..10); each review updates them and the next interval is the time at which
// the predicted recall probability equals the desired retention. Implemented from the
// project's published FSRS-6 formulas and default weights ("The Algorithm", FSRS-6 section,
// https://github.com/open-spaced-repetition/fsrs4anki/wiki/The-Algorithm), checked
// against the reference implementation ts-fsrs (the version pinned in
// tests/fsrs_reference/package.json) with fuzz off: where the two differ, we follow ts-fsrs
// and cards/fsrs.cpp says so where it happens.
#include "study/now.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <optional>
#include <string_view>
#include <vector>

namespace tutor::fsrs {

using study::Instant;

/// The learner's answer (FSRS's four grades; the numbers are the ones FSRS uses).
enum class Rating { again = 1, hard = 2, good = 3, easy = 4 };

/// Where a card is in its life (ts-fsrs State New, Learning, Review, Relearning).
enum class State { fresh = 0, learning = 1, review = 2, relearning = 3 };

/// One card's scheduling state. `step` indexes the learning steps (state learning) or the
/// relearning steps (state relearning); 0 otherwise. `last_review` is empty until reviewed.
struct Card {
  State state = State::fresh;
  double stability = 0.0;   // days; 0 for a card never reviewed
  double difficulty = 0.0;  // 1..10; 0 for a card never reviewed
  int reps = 0;             // reviews so far
  int lapses = 0;           // times forgotten (Again) while in review
  int step = 0;
  Instant due{};
  std::optional<Instant> last_review;
};

/// A card never reviewed, due at `now`.
Card new_card(Instant now);

/// FSRS-6 default weights w0..w20 (the project's published defaults, as in ts-fsrs).
inline constexpr std::array<double, 21> default_weights = {
    0.212,  1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001,  1.8722, 0.1666, 0.796,
    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542};

struct Scheduler {
  std::array<double, 21> w = default_weights;
  double desired_retention = 0.9;
  std::vector<std::chrono::seconds> learning_steps{std::chrono::minutes(1), std::chrono::minutes(10)};
  std::vector<std::chrono::seconds> relearning_steps{std::chrono::minutes(10)};
  int maximum_interval_days = 36500;
  bool fuzz = false;  // only false is implemented: the schedule is deterministic

  /// The card's next state after a review rated `rating` at `now` (ts-fsrs `next`, fuzz off).
  /// Throws std::invalid_argument when `now` falls on a UTC day before the card's last review,
  /// when the card's memory state is impossible (reviewed, yet difficulty < 1 or stability <
  /// 0.001), or when the scheduler's settings are (retention outside (0, 1], a negative step).
  Card review(const Card& card, Rating rating, Instant now) const;

  /// Predicted probability of recall at `now`: R(t, S) = (1 + f t/S)^-w20 (FSRS-6), t the whole
  /// days (24 h periods) since the last review, as ts-fsrs's get_retrievability counts them.
  /// 0 for a card never reviewed.
  double retrievability(const Card& card, Instant now) const;

  // The formulas, exposed for tests and for explaining a schedule.
  /// S0(G) = w[G-1] (FSRS-6 initial stability).
  double initial_stability(Rating rating) const;
  /// D0(G) = w4 - e^(w5 (G-1)) + 1, clamped to [1, 10] (FSRS-6 initial difficulty).
  double initial_difficulty(Rating rating) const;
  /// Days until R falls to the desired retention, rounded and kept in [1, maximum_interval_days]
  /// (I(r, S) = S/f (r^(-1/w20) - 1); I(0.9, S) = S).
  int next_interval_days(double stability) const;
};

/// The interval the card was given, in whole days: (due - last_review) for a card in review, 0
/// for one in (re)learning or new (ts-fsrs's scheduled_days).
int scheduled_days(const Card& card);

std::string_view to_string(Rating rating);  // "again", "hard", "good", "easy"
std::string_view to_string(State state);    // "new", "learning", "review", "relearning"
/// "again"/"hard"/"good"/"easy" or "1".."4"; throws std::runtime_error naming the text otherwise.
Rating parse_rating(std::string_view text);
/// What to_string(State) writes; throws std::runtime_error naming the text otherwise.
State parse_state(std::string_view text);

/// {"state": "review", "stability": 3.1, "difficulty": 5.2, "reps": 2, "lapses": 0, "step": 0,
///  "due": "2026-12-02T09:30:00Z", "last_review": "2026-11-29T09:30:00Z" | null}.
void to_json(nlohmann::json& out, const Card& card);
/// The inverse of to_json; throws std::runtime_error naming the field that is missing, of the
/// wrong type or out of range (stability < 0, difficulty outside 0..10, negative counts...).
void from_json(const nlohmann::json& in, Card& card);

}  // namespace tutor::fsrs
