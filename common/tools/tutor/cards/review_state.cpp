#include "cards/review_state.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "study/state_store.hpp"

namespace tutor::cards {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Thrown for a malformed entry; load_state keeps the file aside with this line as the reason.
[[noreturn]] void malformed(const std::string& key, const std::string& what) {
  throw std::runtime_error(fmt::format("has a malformed entry {}: {}", key, what));
}

ReviewLogEntry log_entry(const json& in, const std::string& key) {
  if (!in.is_object()) malformed(key, "must be an object");
  ReviewLogEntry entry;
  try {
    entry.time = study::from_iso8601(in.at("time").get<std::string>());
    const json& rating = in.at("rating");
    entry.rating = fsrs::parse_rating(rating.is_number_integer() ? std::to_string(rating.get<int>())
                                                                 : rating.get<std::string>());
    entry.elapsed_days = in.at("elapsed_days").get<double>();
    if (!std::isfinite(entry.elapsed_days) || entry.elapsed_days < 0) malformed(key, "elapsed_days must be >= 0");
    entry.state_before = fsrs::parse_state(in.at("state_before").get<std::string>());
  } catch (const json::exception&) {
    malformed(key, "needs time, rating, elapsed_days and state_before");
  }
  return entry;
}

CardsState parse_cards(const json& doc) {
  CardsState state;
  const auto cards = doc.find("cards");
  if (cards == doc.end() || !cards->is_object()) malformed("cards", "must be an object of card ids");
  for (const auto& [id, entry] : cards->items()) {
    const std::string key = "cards/" + id;
    if (!entry.is_object() || !entry.contains("card") || !entry.contains("log") || !entry.at("log").is_array())
      malformed(key, "must be {\"card\": {...}, \"log\": [...]}");
    CardProgress progress;
    try {
      fsrs::from_json(entry.at("card"), progress.card);
    } catch (const std::exception& error) {
      malformed(key + "/card", error.what());
    }
    const json& log = entry.at("log");
    for (std::size_t i = 0; i < log.size(); ++i) progress.log.push_back(log_entry(log[i], fmt::format("{}/log/{}", key, i)));
    state.cards.emplace(id, std::move(progress));
  }
  return state;
}

}  // namespace

fs::path cards_state_file(const fs::path& state_dir) { return state_dir / "cards.json"; }

CardsState load_cards_state(const fs::path& file) {
  CardsState state;
  study::load_state(file, kCardsSchema, [&](const json& doc) { state = parse_cards(doc); });
  return state;
}

void save_cards_state(const fs::path& file, const CardsState& state) {
  json cards = json::object();
  for (const auto& [id, progress] : state.cards) {
    json log = json::array();
    for (const ReviewLogEntry& entry : progress.log) {
      log.push_back({{"time", study::to_iso8601(entry.time)},
                     {"rating", std::string(fsrs::to_string(entry.rating))},
                     {"elapsed_days", entry.elapsed_days},
                     {"state_before", std::string(fsrs::to_string(entry.state_before))}});
    }
    json card;
    fsrs::to_json(card, progress.card);
    cards[id] = {{"card", card}, {"log", log}};
  }
  study::save_state(file, {{"schema", kCardsSchema}, {"cards", cards}});
}

const fsrs::Card& record_review(CardsState& state, const std::string& id, fsrs::Rating rating, study::Instant now,
                                const fsrs::Scheduler& scheduler) {
  auto [it, fresh] = state.cards.try_emplace(id);
  CardProgress& progress = it->second;
  if (fresh) progress.card = fsrs::new_card(now);
  const fsrs::Card& before = progress.card;
  double elapsed_days = 0.0;
  if (before.last_review && now > *before.last_review)
    elapsed_days = std::chrono::duration<double>(now - *before.last_review).count() / 86400.0;
  progress.log.push_back(ReviewLogEntry{now, rating, elapsed_days, before.state});
  progress.card = scheduler.review(before, rating, now);
  return progress.card;
}

CardsState save_review(const fs::path& state_dir, const std::string& id, fsrs::Rating rating, study::Instant now,
                       const fsrs::Scheduler& scheduler) {
  const study::StateLock lock(state_dir);
  const fs::path file = cards_state_file(state_dir);
  CardsState state = load_cards_state(file);
  record_review(state, id, rating, now, scheduler);
  save_cards_state(file, state);
  return state;
}

}  // namespace tutor::cards
