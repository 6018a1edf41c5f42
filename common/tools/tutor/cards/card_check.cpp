#include "cards/card_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

namespace tutor::cards {
namespace fs = std::filesystem;

namespace {

/// "1-7", "1-3, 5", or "none": the numbers a README lists, for a message.
std::string number_ranges(const std::map<int, std::string>& listed) {
  std::string out;
  for (auto it = listed.begin(); it != listed.end();) {
    const int first = it->first;
    int last = first;
    while (++it != listed.end() && it->first == last + 1) ++last;
    out += (out.empty() ? "" : ", ") + (first == last ? std::to_string(first) : fmt::format("{}-{}", first, last));
  }
  return out.empty() ? "none" : out;
}

}  // namespace

CheckReport check_deck(const Deck& deck, const curriculum::Curriculum& curriculum, ModuleSources& sources,
                       const fs::path& repository_root, const std::vector<std::string>& modules, int min_cards) {
  CheckReport report;
  auto selected = [&](const std::string& id) {
    return modules.empty() || std::find(modules.begin(), modules.end(), id) != modules.end();
  };
  for (const curriculum::Module& module : curriculum.modules) {
    const auto cards = deck.cards_of(module.id);
    const bool available = module.status == curriculum::Status::kAvailable;
    if (!selected(module.id) || (!available && cards.empty())) continue;
    ModuleCardCount count{module.id, module.title, available, static_cast<int>(cards.size()), 0};
    for (const RecallCard* card : cards) {
      const std::string where = fmt::format("{}:{}: card {}", card->file, card->source_line, card->id);
      std::string why;
      if (const auto* listed = sources.of(card->module, &why); !listed) {
        report.problems.push_back(fmt::format("{}: cannot check Source: {}", where, why));
      } else {
        for (const int number : card->sources) {
          if (!listed->contains(number))
            report.problems.push_back(fmt::format("{}: Source [{}] is not in {}'s '## 8. Sources' (it lists {})", where,
                                                  number, sources.readme(card->module), number_ranges(*listed)));
        }
      }
      if (!card->record.empty()) {
        ++count.with_record;
        std::error_code ec;
        if (!fs::is_regular_file(repository_root / card->record, ec))
          report.problems.push_back(fmt::format("{}:{}: card {}: Record: {} is not a file of the repository",
                                                card->file, card->record_line, card->id, card->record));
      }
    }
    if (available && min_cards > 0 && count.cards < min_cards)
      report.problems.push_back(fmt::format("{} {}: {} card{}, fewer than the {} every available module needs",
                                            module.id, module.title, count.cards, count.cards == 1 ? "" : "s",
                                            min_cards));
    report.total += count.cards;
    report.total_with_record += count.with_record;
    report.counts.push_back(std::move(count));
  }
  return report;
}

}  // namespace tutor::cards
