#include "cards/review_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "cards/inline_markdown.hpp"

namespace tutor::cards {
namespace fs = std::filesystem;

namespace {

// A card still in a learning step comes back in the same session when it is due within this
// long: Anki's "Learn ahead limit", default 20 minutes (Anki manual, "Preferences > Review").
constexpr std::chrono::minutes kLearnAhead{20};

constexpr std::array<fsrs::Rating, 4> kRatings = {fsrs::Rating::again, fsrs::Rating::hard, fsrs::Rating::good,
                                                  fsrs::Rating::easy};

bool selected(const std::vector<std::string>& modules, const std::string& module) {
  return modules.empty() || std::find(modules.begin(), modules.end(), module) != modules.end();
}

/// The card's scheduling state: its saved one, or a new card at `now`.
fsrs::Card current_card(const CardsState& state, const std::string& id, study::Instant now) {
  const auto found = state.cards.find(id);
  return found == state.cards.end() ? fsrs::new_card(now) : found->second.card;
}

class Screen {
 public:
  Screen(std::FILE* out, bool ansi, int width) : out_(out), ansi_(ansi), width_(width) {}
  void line(const std::string& text = "") {
    std::fputs(text.c_str(), out_);
    std::fputc('\n', out_);
    std::fflush(out_);
  }
  std::string bold(const std::string& text) const { return ansi_ ? "\x1b[1m" + text + "\x1b[22m" : text; }
  std::string markdown(std::string_view text) const { return markdown_to_terminal(text, ansi_); }
  /// A line wrapped at the terminal's width, its continuation lines indented 3 columns (under
  /// the text after "Q: ").
  std::string wrap(const std::string& text) const { return wrap_for_terminal(text, width_, 3); }

 private:
  std::FILE* out_;
  bool ansi_;
  int width_;
};

}  // namespace

std::vector<const RecallCard*> review_queue(const Deck& deck, const CardsState& state,
                                            const std::vector<std::string>& modules, study::Instant now,
                                            int new_limit) {
  std::vector<std::pair<study::Instant, const RecallCard*>> due;
  std::vector<const RecallCard*> fresh;
  for (const RecallCard* card : deck.cards()) {
    if (!selected(modules, card->module)) continue;
    const auto found = state.cards.find(card->id);
    if (found == state.cards.end() || found->second.card.state == fsrs::State::fresh) {
      if (static_cast<int>(fresh.size()) < new_limit) fresh.push_back(card);
    } else if (found->second.card.due <= now) {
      due.emplace_back(found->second.card.due, card);
    }
  }
  std::stable_sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const RecallCard*> queue;
  for (const auto& [when, card] : due) queue.push_back(card);
  queue.insert(queue.end(), fresh.begin(), fresh.end());
  return queue;
}

const RecallCard* SessionQueue::next(study::Instant now) {
  auto take_learning = [&] {
    const RecallCard* card = coming_back_.front().second;
    coming_back_.erase(coming_back_.begin());
    return card;
  };
  if (!coming_back_.empty() && coming_back_.front().first <= now) return take_learning();
  if (!waiting_.empty()) {
    const RecallCard* card = waiting_.front();
    waiting_.pop_front();
    return card;
  }
  return coming_back_.empty() ? nullptr : take_learning();
}

void SessionQueue::learning(const RecallCard& card, study::Instant due, study::Instant now) {
  if (due > now + kLearnAhead) return;
  const auto at = std::upper_bound(coming_back_.begin(), coming_back_.end(), due,
                                   [](study::Instant d, const auto& entry) { return d < entry.first; });
  coming_back_.insert(at, {due, &card});
}

std::string interval_text(std::chrono::seconds interval) {
  const double s = static_cast<double>(interval.count());
  const double day = 86400.0;
  auto one_decimal = [](double v) { return fmt::format("{:g}", std::round(v * 10.0) / 10.0); };
  if (s < 60) return "<1m";
  if (s < 3600) return fmt::format("{}m", std::lround(s / 60));
  if (s < day) return one_decimal(s / 3600) + "h";
  if (s < 30 * day) return fmt::format("{}d", std::lround(s / day));
  if (s < 365 * day) return one_decimal(s / day / 30) + "mo";
  return one_decimal(s / day / 365) + "y";
}

int run_review(const Deck& deck, const curriculum::Curriculum& curriculum, ModuleSources& sources,
               const fs::path& state_dir, const std::function<study::Instant()>& clock, const ReviewOptions& options,
               KeyInput& input, std::FILE* out) {
  const fs::path file = cards_state_file(state_dir);
  CardsState state = load_cards_state(file);  // a corrupt file stops the session before any card
  const fsrs::Scheduler scheduler;
  Screen screen(out, options.ansi, options.width);
  const std::vector<const RecallCard*> first = review_queue(deck, state, options.modules, clock(), options.new_limit);
  SessionQueue queue(first);
  std::array<int, 4> rated{};
  int reviewed = 0;
  bool stopped = false;

  while (!stopped) {
    if (options.limit && reviewed >= *options.limit) break;
    const std::size_t left = queue.left();
    const RecallCard* next = queue.next(clock());
    if (!next) break;
    const std::size_t coming_back = queue.coming_back();
    const RecallCard& card = *next;
    const std::string title = curriculum.has_module(card.module) ? " " + curriculum.module(card.module).title : "";
    const fsrs::Card shown = current_card(state, card.id, clock());
    // "N done, M left": M counts this card and every card still to come, those coming back
    // from a learning step too, so it can rise after a rating; a total would have to grow.
    const std::string back = coming_back == 0 ? "" : fmt::format(", {} of them coming back", coming_back);
    screen.line(screen.wrap(screen.bold(fmt::format("[{}{}] {} done, {} left{} ({})", card.module, title, reviewed,
                                                    left, back, fsrs::to_string(shown.state)))));
    screen.line();
    screen.line(screen.wrap("Q: " + screen.markdown(card.question)));
    screen.line();
    screen.line("   Enter: show the answer   q: quit");
    const auto reveal = input.next();
    if (!reveal || *reveal == "q") {
      stopped = true;
      break;
    }

    screen.line(screen.wrap("A: " + screen.markdown(card.answer)));
    screen.line();
    std::string why;
    const auto* listed = sources.of(card.module, &why);
    for (const int number : card.sources) {
      std::string text;
      if (!listed) {
        text = "(" + why + ")";
      } else if (const auto found = listed->find(number); found != listed->end()) {
        text = short_source_text(found->second);
      } else {
        text = "(" + sources.readme(card.module) + " does not list it)";
      }
      screen.line(screen.wrap(fmt::format("Source [{}]: {}", number, text)));
    }
    screen.line(fmt::format("   ({}, section 8. Sources)", sources.readme(card.module)));
    if (!card.record.empty()) screen.line("Record: " + card.record);
    screen.line();

    const study::Instant now = clock();
    const fsrs::Card before = current_card(state, card.id, now);
    std::string choices;
    for (const fsrs::Rating rating : kRatings) {
      const fsrs::Card next = scheduler.review(before, rating, now);
      choices += fmt::format("   {} {} ({})", static_cast<int>(rating), fsrs::to_string(rating), interval_text(next.due - now));
    }
    screen.line(screen.wrap(choices + "   q quit"));

    std::optional<fsrs::Rating> rating;
    while (!rating) {
      const auto key = input.next();
      if (!key || *key == "q") {
        stopped = true;
        break;
      }
      try {
        rating = fsrs::parse_rating(*key);
      } catch (const std::runtime_error&) {
        screen.line("   type 1 (again), 2 (hard), 3 (good) or 4 (easy); q quits");
      }
    }
    if (!rating) break;

    const study::Instant at = clock();
    state = save_review(state_dir, card.id, *rating, at, scheduler);
    const fsrs::Card& after = state.cards.at(card.id).card;
    ++reviewed;
    ++rated[static_cast<int>(*rating) - 1];
    screen.line(screen.wrap(fmt::format("   saved: {}; next review in {} ({})", fsrs::to_string(*rating),
                                        interval_text(after.due - at), study::to_iso8601(after.due))));
    screen.line();
    const bool stepping = after.state == fsrs::State::learning || after.state == fsrs::State::relearning;
    if (stepping) queue.learning(card, after.due, at);
  }

  if (first.empty()) {
    screen.line("Nothing to review now: no card is due and no new card is left.");
  } else {
    screen.line(screen.wrap(fmt::format(
        "{}: {} card{} reviewed (again {}, hard {}, good {}, easy {}); every rating is saved in {}",
        stopped ? "Stopped" : "Done", reviewed, reviewed == 1 ? "" : "s", rated[0], rated[1], rated[2], rated[3],
        file.string())));
  }
  // When the next card falls due, among the cards this session could show.
  std::optional<study::Instant> next_due;
  for (const RecallCard* card : deck.cards()) {
    if (!selected(options.modules, card->module)) continue;
    const auto found = state.cards.find(card->id);
    if (found == state.cards.end() || found->second.card.state == fsrs::State::fresh) continue;
    if (!next_due || found->second.card.due < *next_due) next_due = found->second.card.due;
  }
  if (next_due) screen.line("Next card due: " + study::to_iso8601(*next_due));
  return 0;
}

}  // namespace tutor::cards
