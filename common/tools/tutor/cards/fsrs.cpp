// FSRS-6 from the open-spaced-repetition project's published formulas ("The Algorithm", the
// FSRS-6 section of the fsrs4anki wiki), with the scheduling around them (learning steps,
// same-day reviews, interval rounding) as ts-fsrs 5.4.2 does it with fuzz off. Symbols: S
// stability (days until R = 0.9), D difficulty in [1, 10], R retrievability, G the rating
// 1..4, t elapsed days, w0..w20 the weights.
//
// Where ts-fsrs departs from the wiki's formulas we follow ts-fsrs, and say so where it happens:
//   - it rounds the decay factor, the interval modifier and every R, S and D it computes to 8
//     decimals (its roundTo(x, 8)); we round the same way so schedules agree to the day;
//   - it clamps S to [0.001, 36500] after every update and floors S0 at 0.1;
//   - a review's elapsed days t are counted in UTC calendar days (23:59 to 00:01 is one day),
//     but get_retrievability counts whole 24-hour periods;
//   - it orders a review card's intervals so that Hard <= Good < Easy (Anki's rule);
//   - (re)learning steps and their Hard/Good/Easy moves are its own (see step_move below).
#include "cards/fsrs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace tutor::fsrs {
namespace {

using std::chrono::days;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr double stability_min = 0.001;      // ts-fsrs S_MIN
constexpr double stability_max = 36500.0;    // ts-fsrs S_MAX
constexpr double minutes_per_day = 1440.0;

int grade(Rating rating) { return static_cast<int>(rating); }

/// JavaScript's Math.round: the nearest integer, ties toward +infinity (ts-fsrs rounds with it;
/// std::round sends -2.5 to -3 where Math.round gives -2). x - floor(x) is exact in binary.
double js_round(double x) {
  const double down = std::floor(x);
  return x - down >= 0.5 ? down + 1.0 : down;
}

/// ts-fsrs roundTo(x, 8): Math.round(x * 10^8) / 10^8.
double round8(double x) { return js_round(x * 1e8) / 1e8; }

/// ts-fsrs clamp: min(max(x, lo), hi) (hi wins when lo > hi).
double clamp(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

struct Memory {
  double difficulty;
  double stability;
};

/// The decay and factor of FSRS-6's forgetting curve: decay = -w20, f = 0.9^(1/decay) - 1 (so
/// that R(S, S) = 0.9). ts-fsrs writes 0.9^(1/decay) as e^(ln 0.9 / decay) and rounds f.
struct Curve {
  double decay;
  double factor;
  explicit Curve(const std::array<double, 21>& w)
      : decay(-w[20]), factor(round8(std::exp(std::pow(decay, -1.0) * std::log(0.9)) - 1.0)) {}

  /// FSRS-6 R(t, S) = (1 + f t / S)^decay.
  double retrievability(double elapsed_days, double stability) const {
    return round8(std::pow(1.0 + (factor * elapsed_days) / stability, decay));
  }
};

/// The memory model: FSRS-6's formulas, each as ts-fsrs evaluates it.
class Model {
 public:
  explicit Model(const Scheduler& s) : w_(s.w), curve_(s.w) {}

  /// FSRS-6 S0(G) = w[G-1]; ts-fsrs floors it at 0.1.
  double initial_stability(Rating g) const { return std::max(w_[grade(g) - 1], 0.1); }

  /// FSRS-6 D0(G) = w4 - e^(w5 (G - 1)) + 1, unclamped (the mean-reversion target D0(4) uses it
  /// unclamped; a first review clamps it to [1, 10]).
  double initial_difficulty_raw(Rating g) const { return round8(w_[4] - std::exp((grade(g) - 1) * w_[5]) + 1); }

  /// FSRS-6 difficulty update: dD = -w6 (G - 3); D' = D + dD (10 - D) / 9 (linear damping);
  /// D'' = w7 D0(4) + (1 - w7) D' (mean reversion); clamped to [1, 10].
  double next_difficulty(double d, Rating g) const {
    const double delta = -w_[6] * (grade(g) - 3);
    const double damped = d + round8((delta * (10 - d)) / 9);
    return clamp(round8(w_[7] * initial_difficulty_raw(Rating::easy) + (1 - w_[7]) * damped), 1, 10);
  }

  /// FSRS-6 stability after a recall (G >= 2):
  /// S' = S (1 + e^w8 (11 - D) S^-w9 (e^(w10 (1 - R)) - 1) w15[G = 2] w16[G = 4]).
  double recall_stability(double d, double s, double r, Rating g) const {
    const double hard_penalty = g == Rating::hard ? w_[15] : 1;
    const double easy_bonus = g == Rating::easy ? w_[16] : 1;
    return round8(clamp(s * (1 + std::exp(w_[8]) * (11 - d) * std::pow(s, -w_[9]) *
                                     (std::exp((1 - r) * w_[10]) - 1) * hard_penalty * easy_bonus),
                        stability_min, stability_max));
  }

  /// FSRS-6 stability after a lapse (G = 1): S'f = w11 D^-w12 ((S + 1)^w13 - 1) e^(w14 (1 - R)),
  /// then at most S / e^(w17 w18), so that a lapse never raises S above what a same-day Again
  /// would leave.
  double forget_stability(double d, double s, double r) const {
    const double long_term = round8(clamp(
        w_[11] * std::pow(d, -w_[12]) * (std::pow(s + 1, w_[13]) - 1) * std::exp((1 - r) * w_[14]),
        stability_min, stability_max));
    const double short_term_ceiling = round8(s / std::exp(w_[17] * w_[18]));
    return clamp(short_term_ceiling, stability_min, long_term);
  }

  /// FSRS-6 same-day review (t = 0): S' = S e^(w17 (G - 3 + w18)) S^-w19, with SInc >= 1 when
  /// G >= 2 (a same-day pass never lowers stability).
  double short_term_stability(double s, Rating g) const {
    const double sinc = std::pow(s, -w_[19]) * std::exp(w_[17] * (grade(g) - 3 + w_[18]));
    const double masked = g >= Rating::hard ? std::max(sinc, 1.0) : sinc;
    return round8(clamp(s * masked, stability_min, stability_max));
  }

  /// The memory state after a review rated `g`, `t` calendar days after the last one
  /// (ts-fsrs next_state): the first review starts the card; t = 0 is a same-day review.
  Memory next(Memory m, double t, Rating g) const {
    if (m.difficulty == 0 && m.stability == 0)
      return {clamp(initial_difficulty_raw(g), 1, 10), initial_stability(g)};
    if (m.difficulty < 1 || m.stability < stability_min)
      throw std::invalid_argument(
          fmt::format("impossible memory state (difficulty {}, stability {})", m.difficulty, m.stability));
    const double r = curve_.retrievability(t, m.stability);
    double s = 0;
    if (t == 0)
      s = short_term_stability(m.stability, g);
    else if (g == Rating::again)
      s = forget_stability(m.difficulty, m.stability, r);
    else
      s = recall_stability(m.difficulty, m.stability, r, g);
    return {next_difficulty(m.difficulty, g), s};
  }

  const Curve& curve() const { return curve_; }

 private:
  const std::array<double, 21>& w_;
  Curve curve_;
};

/// Where a (re)learning step sends the card: after `scheduled_minutes`, at step `next_step`.
/// nullopt: the rating leaves the steps (the card graduates to review).
struct StepMove {
  double scheduled_minutes;
  int next_step;
};

/// ts-fsrs's basic learning-steps strategy. New and learning cards walk the learning steps,
/// review and relearning cards the relearning steps, from step `step`:
///   Again: back to the first step; Hard: stay, waiting the mean of the first two steps (1.5x
///   the only step); Good: the next step, or graduate after the last; Easy: graduate.
/// A review card's Again goes to relearning step `step`. Steps past the end graduate every
/// rating. ts-fsrs writes steps in whole minutes ("10m"); ours are seconds, read as minutes.
std::optional<StepMove> step_move(const Scheduler& s, State state, int step, Rating g) {
  const auto& steps = (state == State::relearning || state == State::review) ? s.relearning_steps : s.learning_steps;
  const int count = static_cast<int>(steps.size());
  if (count == 0 || step >= count) return std::nullopt;
  const auto in_minutes = [&](int i) { return static_cast<double>(steps[static_cast<std::size_t>(i)].count()) / 60.0; };
  if (state == State::review) {
    if (g == Rating::again) return StepMove{in_minutes(std::max(0, step)), 0};
    return std::nullopt;
  }
  switch (g) {
    case Rating::again:
      return StepMove{in_minutes(0), 0};
    case Rating::hard:
      return StepMove{count == 1 ? js_round(in_minutes(0) * 1.5) : js_round((in_minutes(0) + in_minutes(1)) / 2), step};
    case Rating::good:
      // ts-fsrs: a next step of 0 minutes counts as none.
      if (step + 1 < count && in_minutes(step + 1) != 0) return StepMove{js_round(in_minutes(step + 1)), step + 1};
      return std::nullopt;
    case Rating::easy:
      return std::nullopt;
  }
  return std::nullopt;
}

Instant plus_minutes(Instant now, double m) { return now + minutes(static_cast<long long>(js_round(m))); }

void check_settings(const Scheduler& s) {
  if (!(s.desired_retention > 0 && s.desired_retention <= 1))
    throw std::invalid_argument(fmt::format("desired retention must be in (0, 1], got {}", s.desired_retention));
  if (s.maximum_interval_days < 1)
    throw std::invalid_argument(fmt::format("maximum interval must be at least 1 day, got {}", s.maximum_interval_days));
  for (const auto* steps : {&s.learning_steps, &s.relearning_steps})
    for (const seconds step : *steps)
      if (step.count() < 0) throw std::invalid_argument(fmt::format("a (re)learning step is negative: {} s", step.count()));
  if (s.fuzz) throw std::invalid_argument("fuzz is not implemented: the schedule is deterministic");
}

}  // namespace

Card new_card(Instant now) {
  Card card;
  card.due = now;
  return card;
}

double Scheduler::initial_stability(Rating rating) const { return Model(*this).initial_stability(rating); }

double Scheduler::initial_difficulty(Rating rating) const {
  return clamp(Model(*this).initial_difficulty_raw(rating), 1, 10);
}

int Scheduler::next_interval_days(double stability) const {
  // FSRS-6 I(r, S) = S / f (r^(1/decay) - 1): the t at which R(t, S) = r. ts-fsrs computes the
  // modifier (r^(1/decay) - 1) / f once, rounded to 8 decimals, then rounds S x modifier to
  // whole days, at least 1 and at most the maximum interval.
  const Curve curve(w);
  const double modifier = round8((std::pow(desired_retention, 1 / curve.decay) - 1) / curve.factor);
  const double days = js_round(stability * modifier);
  return static_cast<int>(std::min(std::max(1.0, days), static_cast<double>(maximum_interval_days)));
}

double Scheduler::retrievability(const Card& card, Instant now) const {
  if (card.state == State::fresh || !card.last_review) return 0.0;
  // ts-fsrs get_retrievability: whole 24-hour periods since the last review, never negative.
  const long long t = std::max<long long>(std::chrono::floor<days>(now - *card.last_review).count(), 0);
  return Curve(w).retrievability(static_cast<double>(t), card.stability);
}

Card Scheduler::review(const Card& card, Rating rating, Instant now) const {
  check_settings(*this);
  const Model model(*this);
  // Elapsed days as ts-fsrs counts them for scheduling: UTC calendar days between the reviews.
  long long elapsed = 0;
  if (card.state != State::fresh && card.last_review) {
    elapsed = (std::chrono::floor<days>(now) - std::chrono::floor<days>(*card.last_review)).count();
    if (elapsed < 0)
      throw std::invalid_argument(fmt::format("review at {} is on a day before the card's last review at {}",
                                              study::to_iso8601(now), study::to_iso8601(*card.last_review)));
  }
  const double t = static_cast<double>(elapsed);
  const Memory before{card.difficulty, card.stability};

  Card next = card;
  next.last_review = now;
  next.reps = card.reps + 1;

  // A (re)learning step, or graduation to review with the interval FSRS gives (ts-fsrs
  // applyLearningSteps). Steps of a day or more graduate at once, due after the step.
  const auto apply_steps = [&](Card& c, State to_state) {
    const auto move = step_move(*this, card.state, card.step, rating);
    const double m = move ? std::max(0.0, move->scheduled_minutes) : 0.0;
    if (m > 0 && m < minutes_per_day) {
      c.state = to_state;
      c.step = move->next_step;
      c.due = plus_minutes(now, m);
    } else if (m >= minutes_per_day) {
      c.state = State::review;
      c.step = move->next_step;
      c.due = plus_minutes(now, m);
    } else {
      c.state = State::review;
      c.step = 0;
      c.due = now + days(next_interval_days(c.stability));
    }
  };

  if (card.state != State::review) {
    const Memory m = model.next(before, t, rating);
    next.difficulty = m.difficulty;
    next.stability = m.stability;
    apply_steps(next, card.state == State::fresh ? State::learning : card.state);
    return next;
  }

  // A review card: the three passing ratings get intervals ordered Hard <= Good < Easy (ts-fsrs
  // BasicScheduler.next_interval; Anki's rule), so each is computed whatever was pressed.
  const auto memory = [&](Rating g) { return model.next(before, t, g); };
  if (rating == Rating::again) {
    const Memory m = memory(Rating::again);
    next.difficulty = m.difficulty;
    next.stability = m.stability;
    apply_steps(next, State::relearning);
    next.lapses = card.lapses + 1;
    return next;
  }
  const Memory hard = memory(Rating::hard), good = memory(Rating::good), easy = memory(Rating::easy);
  int hard_days = next_interval_days(hard.stability);
  int good_days = next_interval_days(good.stability);
  hard_days = std::min(hard_days, good_days);
  good_days = std::max(good_days, hard_days + 1);
  const int easy_days = std::max(next_interval_days(easy.stability), good_days + 1);
  const Memory& chosen = rating == Rating::hard ? hard : rating == Rating::good ? good : easy;
  const int interval = rating == Rating::hard ? hard_days : rating == Rating::good ? good_days : easy_days;
  next.difficulty = chosen.difficulty;
  next.stability = chosen.stability;
  next.state = State::review;
  next.step = 0;
  next.due = now + days(interval);
  return next;
}

int scheduled_days(const Card& card) {
  if (card.state != State::review || !card.last_review) return 0;
  return static_cast<int>(std::chrono::floor<days>(card.due - *card.last_review).count());
}

std::string_view to_string(Rating rating) {
  switch (rating) {
    case Rating::again: return "again";
    case Rating::hard: return "hard";
    case Rating::good: return "good";
    case Rating::easy: return "easy";
  }
  return "?";
}

std::string_view to_string(State state) {
  switch (state) {
    case State::fresh: return "new";
    case State::learning: return "learning";
    case State::review: return "review";
    case State::relearning: return "relearning";
  }
  return "?";
}

Rating parse_rating(std::string_view text) {
  for (const Rating r : {Rating::again, Rating::hard, Rating::good, Rating::easy})
    if (text == to_string(r) || text == std::to_string(grade(r))) return r;
  throw std::runtime_error(fmt::format("'{}' is not a rating (again, hard, good, easy or 1..4)", text));
}

State parse_state(std::string_view text) {
  for (const State s : {State::fresh, State::learning, State::review, State::relearning})
    if (text == to_string(s)) return s;
  throw std::runtime_error(fmt::format("'{}' is not a card state (new, learning, review, relearning)", text));
}

void to_json(nlohmann::json& out, const Card& card) {
  out = nlohmann::json{{"state", to_string(card.state)},
                       {"stability", card.stability},
                       {"difficulty", card.difficulty},
                       {"reps", card.reps},
                       {"lapses", card.lapses},
                       {"step", card.step},
                       {"due", study::to_iso8601(card.due)},
                       {"last_review", card.last_review ? nlohmann::json(study::to_iso8601(*card.last_review))
                                                        : nlohmann::json(nullptr)}};
}

namespace {

const nlohmann::json& field(const nlohmann::json& in, const char* name) {
  const auto it = in.find(name);
  if (it == in.end()) throw std::runtime_error(fmt::format("card: missing field '{}'", name));
  return *it;
}

double number_field(const nlohmann::json& in, const char* name, double lo, double hi) {
  const auto& v = field(in, name);
  if (!v.is_number()) throw std::runtime_error(fmt::format("card: '{}' must be a number, got {}", name, v.dump()));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi)
    throw std::runtime_error(fmt::format("card: '{}' must be in [{}, {}], got {}", name, lo, hi, v.dump()));
  return x;
}

int count_field(const nlohmann::json& in, const char* name) {
  const auto& v = field(in, name);
  if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 1'000'000'000)
    throw std::runtime_error(fmt::format("card: '{}' must be a whole number from 0 to 1e9, got {}", name, v.dump()));
  return static_cast<int>(v.get<long long>());
}

Instant time_field(const nlohmann::json& v, const char* name) {
  if (!v.is_string()) throw std::runtime_error(fmt::format("card: '{}' must be a UTC time string, got {}", name, v.dump()));
  try {
    return study::from_iso8601(v.get<std::string>());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("card: '{}': {}", name, e.what()));
  }
}

}  // namespace

void from_json(const nlohmann::json& in, Card& card) {
  if (!in.is_object()) throw std::runtime_error(fmt::format("card: must be a JSON object, got {}", in.type_name()));
  Card c;
  const auto& state = field(in, "state");
  if (!state.is_string()) throw std::runtime_error(fmt::format("card: 'state' must be a string, got {}", state.dump()));
  try {
    c.state = parse_state(state.get<std::string>());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("card: 'state': {}", e.what()));
  }
  c.stability = number_field(in, "stability", 0.0, stability_max);
  c.difficulty = number_field(in, "difficulty", 0.0, 10.0);
  c.reps = count_field(in, "reps");
  c.lapses = count_field(in, "lapses");
  c.step = count_field(in, "step");
  c.due = time_field(field(in, "due"), "due");
  const auto& last = field(in, "last_review");
  if (!last.is_null()) c.last_review = time_field(last, "last_review");
  if (c.state != State::fresh) {
    // A reviewed card has a memory state FSRS can update, and a time it was last seen.
    if (!c.last_review) throw std::runtime_error("card: a card that has been reviewed needs 'last_review'");
    if (c.stability < stability_min)
      throw std::runtime_error(fmt::format("card: 'stability' of a reviewed card must be at least {}", stability_min));
    if (c.difficulty < 1) throw std::runtime_error("card: 'difficulty' of a reviewed card must be at least 1");
  }
  card = c;
}

}  // namespace tutor::fsrs
