#include "cards/due_counts.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>

namespace tutor::cards {

DueReport count_due(const Deck& deck, const CardsState& state, const curriculum::Curriculum& curriculum,
                    const std::vector<std::string>& modules, study::Instant now) {
  DueReport report;
  report.all.module = "all";
  const study::Instant tomorrow = now + std::chrono::hours(24);
  for (const CardFile& file : deck.files) {
    if (!modules.empty() && std::find(modules.begin(), modules.end(), file.module) == modules.end()) continue;
    DueCounts counts;
    counts.module = file.module;
    counts.title = curriculum.has_module(file.module) ? curriculum.module(file.module).title : "";
    for (const RecallCard& card : file.cards) {
      ++counts.total;
      const auto found = state.cards.find(card.id);
      if (found == state.cards.end() || found->second.card.state == fsrs::State::fresh) {
        ++counts.fresh;
        continue;
      }
      const fsrs::Card& progress = found->second.card;
      if (progress.state == fsrs::State::learning || progress.state == fsrs::State::relearning) ++counts.learning;
      if (progress.due <= now) {
        ++counts.due_now;
      } else if (progress.due <= tomorrow) {
        ++counts.due_within_day;
      }
    }
    report.all.fresh += counts.fresh;
    report.all.learning += counts.learning;
    report.all.due_now += counts.due_now;
    report.all.due_within_day += counts.due_within_day;
    report.all.total += counts.total;
    report.modules.push_back(std::move(counts));
  }
  for (const auto& [id, progress] : state.cards) {
    if (deck.find(id)) continue;
    // An id names its module before the first '-' (a02-...): --module keeps its orphans too.
    std::string module = id.substr(0, id.find('-'));
    std::transform(module.begin(), module.end(), module.begin(), [](unsigned char c) { return std::toupper(c); });
    if (modules.empty() || std::find(modules.begin(), modules.end(), module) != modules.end())
      report.orphaned.push_back(id);
  }
  return report;
}

}  // namespace tutor::cards
