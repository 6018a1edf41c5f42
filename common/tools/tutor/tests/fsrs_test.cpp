// FSRS-6 (cards/fsrs): values derived by hand from the published formulas and default weights,
// then every review of the ts-fsrs reference vectors (fixtures/fsrs_reference.json, written by
// tests/fsrs_reference/generate.mjs with ts-fsrs 5.4.2, fuzz off) replayed and compared.
#include "cards/fsrs.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

namespace {

using namespace std::chrono_literals;
using tutor::fsrs::Card;
using tutor::fsrs::Rating;
using tutor::fsrs::Scheduler;
using tutor::fsrs::State;
using tutor::study::from_iso8601;
using tutor::study::Instant;

const Instant kNoon = from_iso8601("2026-03-10T12:00:00Z");
const auto& w = tutor::fsrs::default_weights;

// A card in review, last seen at `last`, with the given memory state.
Card review_card(double stability, double difficulty, Instant last, int interval_days) {
  Card c = tutor::fsrs::new_card(last);
  c.state = State::review;
  c.stability = stability;
  c.difficulty = difficulty;
  c.reps = 3;
  c.last_review = last;
  c.due = last + std::chrono::days(interval_days);
  return c;
}

// ---- Hand-derived: the published formulas with the default weights --------------------------

TEST(Fsrs, DefaultWeightsAreTheFsrs6Defaults) {
  // FSRS-6 defaults (open-spaced-repetition, as ts-fsrs 5.4.2 default_w): w0..w3 are the
  // initial stabilities in days, w20 the decay of the forgetting curve.
  EXPECT_EQ(w[0], 0.212);
  EXPECT_EQ(w[3], 8.2956);
  EXPECT_EQ(w[20], 0.1542);
  EXPECT_EQ(w.size(), 21u);
}

TEST(Fsrs, InitialStabilityOfEachRatingIsW0ToW3) {
  // S0(G) = w[G-1].
  const Scheduler s;
  EXPECT_EQ(s.initial_stability(Rating::again), 0.212);
  EXPECT_EQ(s.initial_stability(Rating::hard), 1.2931);
  EXPECT_EQ(s.initial_stability(Rating::good), 2.3065);
  EXPECT_EQ(s.initial_stability(Rating::easy), 8.2956);
  for (const Rating g : {Rating::again, Rating::hard, Rating::good, Rating::easy})
    EXPECT_EQ(s.review(tutor::fsrs::new_card(kNoon), g, kNoon).stability, w[static_cast<int>(g) - 1]);
}

TEST(Fsrs, InitialDifficultyIsW4MinusExpW5TimesGradeMinusOnePlusOne) {
  // D0(G) = w4 - e^(w5 (G - 1)) + 1, clamped to [1, 10]:
  //   G=1: 6.4133 - e^0 + 1             = 6.4133
  //   G=2: 6.4133 - e^0.8334 + 1        = 6.4133 - 2.30112929 + 1 = 5.11217071
  //   G=3: 6.4133 - e^1.6668 + 1        = 6.4133 - 5.29519603 + 1 = 2.11810397
  //   G=4: 6.4133 - e^2.5002 + 1        = 6.4133 - 12.18493070 + 1 = -4.77163070 -> 1
  const Scheduler s;
  EXPECT_NEAR(s.initial_difficulty(Rating::again), 6.4133, 1e-8);
  EXPECT_NEAR(s.initial_difficulty(Rating::hard), 5.11217071, 1e-8);
  EXPECT_NEAR(s.initial_difficulty(Rating::good), 2.11810397, 1e-8);
  EXPECT_EQ(s.initial_difficulty(Rating::easy), 1.0);
  EXPECT_NEAR(s.review(tutor::fsrs::new_card(kNoon), Rating::good, kNoon).difficulty, 2.11810397, 1e-8);
}

TEST(Fsrs, RetrievabilityAfterStabilityDaysIsNinetyPercent) {
  // The definition of stability: R(S, S) = (1 + f S/S)^-w20 = (0.9^(-1/w20))^-w20 = 0.9.
  const Scheduler s;
  for (const int days : {1, 3, 10, 100, 1000}) {
    const Card c = review_card(days, 5.0, kNoon, days);
    EXPECT_NEAR(s.retrievability(c, kNoon + std::chrono::days(days)), 0.9, 1e-8) << days << " days";
  }
}

TEST(Fsrs, RetrievabilityFollowsThePowerForgettingCurve) {
  // R(t, S) = (1 + f t/S)^-w20 with f = 0.9^(-1/w20) - 1 = 0.98034649 (w20 = 0.1542).
  // S = 2.3065, t = 1 day: (1 + 0.98034649 / 2.3065)^-0.1542 = 0.94684750.
  // Counted in whole 24-hour periods: 23 h after the review is still t = 0, R = 1.
  const Scheduler s;
  const Card c = review_card(2.3065, 5.0, kNoon, 2);
  EXPECT_NEAR(s.retrievability(c, kNoon + 24h), 0.94684750, 1e-8);
  EXPECT_EQ(s.retrievability(c, kNoon + 23h), 1.0);
  EXPECT_EQ(s.retrievability(tutor::fsrs::new_card(kNoon), kNoon + 24h), 0.0);
}

TEST(Fsrs, IntervalAtNinetyPercentRetentionIsStabilityRounded) {
  // I(r, S) = S/f (r^(-1/w20) - 1); at r = 0.9 the bracket is f, so I = S, rounded to whole
  // days (halves up), at least 1 day and at most the maximum interval.
  const Scheduler s;
  EXPECT_EQ(s.next_interval_days(2.3065), 2);
  EXPECT_EQ(s.next_interval_days(8.2956), 8);
  EXPECT_EQ(s.next_interval_days(10.5), 11);
  EXPECT_EQ(s.next_interval_days(123.4), 123);
  EXPECT_EQ(s.next_interval_days(0.212), 1);
  EXPECT_EQ(s.next_interval_days(1e6), 36500);
}

TEST(Fsrs, HigherDesiredRetentionGivesShorterIntervals) {
  // r = 0.95: I = S/f (0.95^(-1/0.1542) - 1) = S (1.39465 - 1) / 0.98035 = 0.40256 S -> 40 days.
  Scheduler s;
  s.desired_retention = 0.95;
  EXPECT_EQ(s.next_interval_days(100.0), 40);
}

TEST(Fsrs, FirstReviewFollowsTheLearningSteps) {
  // Default learning steps 1 min, 10 min (ts-fsrs defaults): Again -> the first step; Hard ->
  // the mean of the first two, (1 + 10)/2 = 5.5 rounded up to 6 min; Good -> the second step;
  // Easy -> graduates: review, due after I(0.9, w3) = round(8.2956) = 8 days.
  const Scheduler s;
  const Card fresh = tutor::fsrs::new_card(kNoon);
  const Card again = s.review(fresh, Rating::again, kNoon);
  EXPECT_EQ(again.state, State::learning);
  EXPECT_EQ(again.due, kNoon + 1min);
  EXPECT_EQ(again.step, 0);
  EXPECT_EQ(again.reps, 1);
  EXPECT_EQ(again.last_review, kNoon);
  const Card hard = s.review(fresh, Rating::hard, kNoon);
  EXPECT_EQ(hard.due, kNoon + 6min);
  EXPECT_EQ(hard.step, 0);
  const Card good = s.review(fresh, Rating::good, kNoon);
  EXPECT_EQ(good.state, State::learning);
  EXPECT_EQ(good.due, kNoon + 10min);
  EXPECT_EQ(good.step, 1);
  const Card easy = s.review(fresh, Rating::easy, kNoon);
  EXPECT_EQ(easy.state, State::review);
  EXPECT_EQ(easy.due, kNoon + std::chrono::days(8));
  EXPECT_EQ(tutor::fsrs::scheduled_days(easy), 8);
}

TEST(Fsrs, SameDayReviewUsesTheShortTermStabilityFormula) {
  // FSRS-6 same-day review: S' = S e^(w17 (G - 3 + w18)) S^-w19, with SInc >= 1 for G >= 2.
  // Good at the last learning step, 10 min after a first Good (S = w2 = 2.3065):
  //   SInc = e^(0.5425 x 0.0912) x 2.3065^-0.0658 = 1.05072 x 0.94649 = 0.99450 -> 1, so S stays
  //   2.3065, and the card graduates with I = round(2.3065) = 2 days.
  // Again on a first-Again card (S = w0 = 0.212), the same day:
  //   SInc = e^(0.5425 x (1 - 3 + 0.0912)) x 0.212^-0.0658 = 0.35504 x 1.10746, S' = 0.212 x 0.39319
  //        = 0.08335672 (Again is not floored at SInc = 1).
  const Scheduler s;
  const Card first = s.review(tutor::fsrs::new_card(kNoon), Rating::good, kNoon);
  const Card second = s.review(first, Rating::good, kNoon + 10min);
  EXPECT_EQ(second.stability, 2.3065);
  EXPECT_EQ(second.state, State::review);
  EXPECT_EQ(second.due, kNoon + 10min + std::chrono::days(2));
  const Card lapsed = s.review(s.review(tutor::fsrs::new_card(kNoon), Rating::again, kNoon), Rating::again, kNoon + 1min);
  EXPECT_NEAR(lapsed.stability, 0.212 * std::exp(0.5425 * (1 - 3 + 0.0912)) * std::pow(0.212, -0.0658), 1e-8);
}

TEST(Fsrs, DifficultyMovesByLinearDampingAndMeanReversion) {
  // D' = D + dD (10 - D)/9 with dD = -w6 (G - 3); D'' = w7 D0(4) + (1 - w7) D'.
  // From D = 5 rated Again (dD = 2 w6 = 6.0388): D' = 5 + 6.0388 x 5/9 = 8.35488889;
  // D'' = 0.001 x (-4.77163070) + 0.999 x 8.35488889 = 8.34176237.
  const Scheduler s;
  const Card c = review_card(10.0, 5.0, kNoon, 10);
  EXPECT_NEAR(s.review(c, Rating::again, kNoon + std::chrono::days(10)).difficulty, 8.34176237, 1e-8);
}

TEST(Fsrs, LapseGoesToRelearningAndCountsALapse) {
  // Again on a review card: relearning, due after the relearning step (10 min), one lapse more.
  const Scheduler s;
  const Card c = review_card(10.0, 5.0, kNoon, 10);
  const Card lapsed = s.review(c, Rating::again, kNoon + std::chrono::days(10));
  EXPECT_EQ(lapsed.state, State::relearning);
  EXPECT_EQ(lapsed.lapses, 1);
  EXPECT_EQ(lapsed.due, kNoon + std::chrono::days(10) + 10min);
  EXPECT_LT(lapsed.stability, c.stability);
}

TEST(Fsrs, ReviewIntervalsAreOrderedHardGoodEasy) {
  // Hard <= Good < Easy whatever the stabilities give (ts-fsrs, Anki's rule).
  const Scheduler s;
  const Card c = review_card(1.0, 9.5, kNoon, 1);
  const Instant at = kNoon + 24h;
  const int hard = tutor::fsrs::scheduled_days(s.review(c, Rating::hard, at));
  const int good = tutor::fsrs::scheduled_days(s.review(c, Rating::good, at));
  const int easy = tutor::fsrs::scheduled_days(s.review(c, Rating::easy, at));
  EXPECT_LE(hard, good);
  EXPECT_LT(good, easy);
}

TEST(Fsrs, AReviewOnADayBeforeTheLastOneIsRefused) {
  const Scheduler s;
  const Card c = review_card(10.0, 5.0, kNoon, 10);
  EXPECT_THROW(s.review(c, Rating::good, kNoon - 24h), std::invalid_argument);
  Scheduler fuzzed;
  fuzzed.fuzz = true;
  EXPECT_THROW(fuzzed.review(c, Rating::good, kNoon + 24h), std::invalid_argument);
}

// ---- Names and JSON --------------------------------------------------------------------------

TEST(Fsrs, RatingsAndStatesParseWhatToStringWrites) {
  for (const Rating r : {Rating::again, Rating::hard, Rating::good, Rating::easy}) {
    EXPECT_EQ(tutor::fsrs::parse_rating(tutor::fsrs::to_string(r)), r);
    EXPECT_EQ(tutor::fsrs::parse_rating(std::to_string(static_cast<int>(r))), r);
  }
  for (const State st : {State::fresh, State::learning, State::review, State::relearning})
    EXPECT_EQ(tutor::fsrs::parse_state(tutor::fsrs::to_string(st)), st);
  EXPECT_EQ(tutor::fsrs::to_string(State::fresh), "new");
  EXPECT_THROW(tutor::fsrs::parse_rating("5"), std::runtime_error);
  EXPECT_THROW(tutor::fsrs::parse_rating("Good"), std::runtime_error);
  EXPECT_THROW(tutor::fsrs::parse_state("old"), std::runtime_error);
}

TEST(Fsrs, CardJsonRoundTrips) {
  const Scheduler s;
  Card c = s.review(s.review(tutor::fsrs::new_card(kNoon), Rating::good, kNoon), Rating::good, kNoon + 10min);
  const nlohmann::json j = c;
  EXPECT_EQ(j.at("state"), "review");
  EXPECT_EQ(j.at("due"), "2026-03-12T12:10:00Z");
  const Card back = j.get<Card>();
  EXPECT_EQ(back.state, c.state);
  EXPECT_EQ(back.stability, c.stability);
  EXPECT_EQ(back.difficulty, c.difficulty);
  EXPECT_EQ(back.reps, 2);
  EXPECT_EQ(back.due, c.due);
  EXPECT_EQ(back.last_review, c.last_review);
  const nlohmann::json fresh = tutor::fsrs::new_card(kNoon);
  EXPECT_TRUE(fresh.at("last_review").is_null());
  EXPECT_EQ(fresh.get<Card>().state, State::fresh);
}

TEST(Fsrs, CardJsonWithABadFieldIsRefusedNamingIt) {
  const nlohmann::json good = review_card(10.0, 5.0, kNoon, 10);
  const auto refused_naming = [&](nlohmann::json j, const std::string& name) {
    try {
      (void)j.get<Card>();
      ADD_FAILURE() << "accepted " << j.dump();
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  auto j = good;
  j.erase("due");
  refused_naming(j, "due");
  j = good;
  j["stability"] = "ten";
  refused_naming(j, "stability");
  j = good;
  j["difficulty"] = 11;
  refused_naming(j, "difficulty");
  j = good;
  j["reps"] = -1;
  refused_naming(j, "reps");
  j = good;
  j["lapses"] = 1.5;
  refused_naming(j, "lapses");
  j = good;
  j["state"] = "archived";
  refused_naming(j, "state");
  j = good;
  j["due"] = "yesterday";
  refused_naming(j, "due");
  j = good;
  j["last_review"] = nullptr;
  refused_naming(j, "last_review");
  j = good;
  j["stability"] = 0;
  refused_naming(j, "stability");
  refused_naming(nlohmann::json::array(), "object");
}

// ---- The ts-fsrs reference vectors -----------------------------------------------------------

nlohmann::json reference() {
  const std::string path = std::string(TUTOR_SOURCE_DIR) + "/common/tools/tutor/tests/fixtures/fsrs_reference.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return nlohmann::json::parse(in);
}

bool close_relative(double ours, double theirs, double tolerance) {
  return std::abs(ours - theirs) <= tolerance * std::max(std::abs(theirs), 1e-12);
}

TEST(FsrsReference, ParametersAreOurDefaults) {
  const auto ref = reference();
  const auto& p = ref.at("parameters");
  const Scheduler s;
  ASSERT_EQ(p.at("w").size(), 21u);
  for (std::size_t i = 0; i < 21; ++i) EXPECT_EQ(p.at("w")[i].get<double>(), s.w[i]) << "w" << i;
  EXPECT_EQ(p.at("request_retention").get<double>(), s.desired_retention);
  EXPECT_EQ(p.at("maximum_interval").get<int>(), s.maximum_interval_days);
  EXPECT_EQ(p.at("learning_steps"), nlohmann::json({"1m", "10m"}));
  EXPECT_EQ(p.at("relearning_steps"), nlohmann::json({"10m"}));
  EXPECT_EQ(s.learning_steps, (std::vector<std::chrono::seconds>{1min, 10min}));
  EXPECT_EQ(s.relearning_steps, (std::vector<std::chrono::seconds>{10min}));
  EXPECT_FALSE(p.at("enable_fuzz").get<bool>());
  EXPECT_TRUE(p.at("enable_short_term").get<bool>());
}

TEST(FsrsReference, EveryReviewMatchesTsFsrs) {
  // Each sequence is replayed from a new card, carrying OUR card forward, so an error anywhere
  // shows at the review where it starts. ts-fsrs rounds S, D and R to 8 decimals; we compare
  // S and D to 1e-6 relative, R to 1e-6 absolute, and times, states and counts exactly.
  const auto ref = reference();
  const Scheduler s;
  int reviews = 0;
  for (const auto& seq : ref.at("sequences")) {
    const std::string name = seq.at("name");
    Card card = tutor::fsrs::new_card(from_iso8601(seq.at("start")));
    int index = 0;
    for (const auto& r : seq.at("reviews")) {
      const std::string where = name + " review " + std::to_string(index++);
      const Instant at = from_iso8601(r.at("at"));
      card = s.review(card, tutor::fsrs::parse_rating(r.at("rating").get<std::string>()), at);
      const auto& want = r.at("card");
      EXPECT_EQ(tutor::fsrs::to_string(card.state), want.at("state").get<std::string>()) << where;
      EXPECT_EQ(tutor::study::to_iso8601(card.due), want.at("due").get<std::string>()) << where;
      EXPECT_PRED3(close_relative, card.stability, want.at("stability").get<double>(), 1e-6) << where;
      EXPECT_PRED3(close_relative, card.difficulty, want.at("difficulty").get<double>(), 1e-6) << where;
      EXPECT_EQ(card.reps, want.at("reps").get<int>()) << where;
      EXPECT_EQ(card.lapses, want.at("lapses").get<int>()) << where;
      EXPECT_EQ(card.step, want.at("step").get<int>()) << where;
      EXPECT_EQ(tutor::fsrs::scheduled_days(card), want.at("scheduled_days").get<int>()) << where;
      ASSERT_TRUE(card.last_review.has_value()) << where;
      EXPECT_EQ(tutor::study::to_iso8601(*card.last_review), want.at("last_review").get<std::string>()) << where;
      for (const auto& probe : r.at("retrievability"))
        EXPECT_NEAR(s.retrievability(card, from_iso8601(probe.at("at"))), probe.at("r").get<double>(), 1e-6)
            << where << " at " << probe.at("at").get<std::string>();
      ++reviews;
    }
  }
  EXPECT_GE(reviews, 500);
}

}  // namespace
