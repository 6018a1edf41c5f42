#include "cards/cards_command.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include "cards/anki_export.hpp"
#include "cards/card_check.hpp"
#include "cards/card_deck.hpp"
#include "cards/due_counts.hpp"
#include "cards/key_input.hpp"
#include "cards/readme_sources.hpp"
#include "cards/review_session.hpp"
#include "cards/review_state.hpp"
#include "plan/module_ids.hpp"
#include "study/data_root.hpp"
#include "study/now.hpp"
#include "study/state_store.hpp"
#include "tutor/cli.hpp"
#include "tutor/curriculum.hpp"
#include "tutor/version.hpp"

namespace tutor::cards {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// What every cards subcommand reads: the curriculum, the cards, the module READMEs.
struct Library {
  fs::path data;
  fs::path root;
  curriculum::Curriculum curriculum;
  Deck deck;
};

Library open_library(const std::string& data_override) {
  Library library;
  library.data = study::data_root(data_override);
  library.root = study::repository_root(data_override);
  try {
    library.curriculum = curriculum::load_curriculum(library.data / "curriculum.json");
  } catch (const std::runtime_error& error) {
    throw UsageError(fmt::format("--data: {}", error.what()));
  }
  library.deck = load_deck(library.data / "cards", library.curriculum);
  return library;
}

/// The files a cards command reads, as (option, path) pairs no output may name: the
/// curriculum, every card file and every module's README (the sources the cards cite).
std::vector<std::pair<std::string, std::string>> library_inputs(const Library& library) {
  std::vector<std::pair<std::string, std::string>> inputs = {{"--data", (library.data / "curriculum.json").string()}};
  for (const CardFile& file : library.deck.files) inputs.emplace_back("--data", file.path);
  for (const curriculum::Module& module : library.curriculum.modules)
    inputs.emplace_back("--data", (library.root / module.folder / "README.md").string());
  return inputs;
}

/// An output written into the card folder would be read as a card file by the next command.
void refuse_in_card_folder(const std::string& option, const std::string& path, const Library& library) {
  if (path.empty() || path == "-") return;
  std::error_code ec;
  const fs::path folder = fs::weakly_canonical(fs::absolute(path, ec).parent_path(), ec);
  const fs::path cards = fs::weakly_canonical(fs::absolute(library.data / "cards", ec), ec);
  if (!ec && folder == cards)
    throw UsageError(fmt::format("{}: {} is in the card folder {}, whose every file is read as a card file; give "
                                 "another path", option, path, (library.data / "cards").string()));
}

/// The state folder; an empty --state-dir (an unset shell variable) must not silently mean the
/// learner's own progress in the default folder.
fs::path chosen_state_dir(const CLI::App* sub, const std::string& value) {
  if (sub->get_option("--state-dir")->count() > 0 && value.empty())
    throw UsageError("--state-dir: the path is empty; give a folder");
  return study::state_dir(value);
}

/// Terminal attributes only where a person reads them (no-color.org: NO_COLOR set and not empty
/// turns them off).
bool use_ansi(std::FILE* human) {
  const char* no_colour = std::getenv("NO_COLOR");
  return ::isatty(::fileno(human)) == 1 && (no_colour == nullptr || *no_colour == '\0');
}

/// The terminal's width in columns (TIOCGWINSZ), to wrap card text at; 0 when `human` is not a
/// terminal (a file or a pipe reads the lines as written).
int terminal_width(std::FILE* human) {
  struct winsize size {};
  if (::isatty(::fileno(human)) != 1 || ::ioctl(::fileno(human), TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

void add_data_option(CLI::App* sub, std::string& data) {
  sub->add_option("--data", data, "the tutor's data folder (curriculum.json, cards/) [default: ./data, else the "
                                  "source tree's]")
      ->option_text("DIR");
}

void add_state_options(CLI::App* sub, std::string& state_dir, std::string& now, const char* now_help) {
  sub->add_option("--state-dir", state_dir, "where your card progress is kept (cards.json) [default: "
                                            "$XDG_STATE_HOME/gpu-ml-tutor, else ~/.local/state/gpu-ml-tutor]")
      ->option_text("DIR");
  sub->add_option("--now", now, now_help)->option_text("TIME");
}

void add_module_option(CLI::App* sub, std::vector<std::string>& modules) {
  sub->add_option("--module", modules, "only these modules' cards (A02, any case; repeat it or give several)")
      ->option_text("ID...")
      ->delimiter(',');
}

}  // namespace

CardsCommand::CardsCommand(CLI::App& app) {
  sub_ = app.add_subcommand("cards",
                            "recall cards with spaced repetition (FSRS-6): `check` the card files, count what is "
                            "`due`, `review` in the terminal, `export` to Anki");
  sub_->require_subcommand(1);

  check_ = sub_->add_subcommand("check", "check every card file: each card parses, cites sources its module "
                                         "README lists, and names records that exist; counts per module. Exit 0, "
                                         "1 when a check fails, 2 on a malformed file");
  add_module_option(check_, modules_);
  check_->add_option("--min-cards", min_cards_, "also fail when an available module has fewer cards than N")
      ->option_text("N")
      ->check(decimal_integer())
      ->check(CLI::Range(0, 100000));
  add_data_option(check_, data_);

  due_ = sub_->add_subcommand("due", "per module: cards never reviewed, in learning, due now, due within a day, "
                                     "and in all; ids in your progress whose card is gone are listed (kept)");
  add_module_option(due_, modules_);
  add_state_options(due_, state_dir_, now_,
                    "the time to count at, UTC (2026-12-02T09:30:00Z or 2026-12-02) [default: the clock]");
  add_data_option(due_, data_);
  due_out_ = std::make_unique<Outputs>(*due_);

  review_ = sub_->add_subcommand("review", "review in the terminal: the due cards (most overdue first), then new "
                                           "ones; Enter shows the answer, 1-4 rates it (again, hard, good, easy), "
                                           "q quits. Each rating is saved at once");
  add_module_option(review_, modules_);
  review_->add_option("--new", new_limit_, "at most N new cards this session [default: 20]")
      ->option_text("N")
      ->check(decimal_integer())
      ->check(CLI::Range(0, 100000));
  limit_option_ = review_->add_option("--limit", limit_, "stop after N ratings [default: no limit]")
                      ->option_text("N")
                      ->check(decimal_integer())
                      ->check(CLI::Range(1, 100000));
  add_state_options(review_, state_dir_, now_,
                    "the time to review at, UTC (2026-12-02T09:30:00Z or 2026-12-02); it stays fixed for the "
                    "whole session [default: the clock]");
  add_data_option(review_, data_);

  export_ = sub_->add_subcommand("export", "write the cards as a file Anki's File > Import reads (a deck per "
                                           "module; re-importing a newer file updates the notes)");
  // Checked in export_anki() rather than by CLI11, whose "1 required TEXT missing" names no FILE.
  export_->add_option("--anki", anki_, "the file to write ('-': standard output); required")
      ->option_text("FILE")
      ->expected(0, 1);
  add_module_option(export_, modules_);
  add_data_option(export_, data_);
}

int CardsCommand::run() {
  if (check_->parsed()) return check();
  if (due_->parsed()) return due();
  if (review_->parsed()) return review();
  return export_anki();
}

int CardsCommand::check() {
  const Library library = open_library(data_);
  const auto modules = modules_.empty() ? std::vector<std::string>{}
                                        : plan::canonical_module_ids(library.curriculum, modules_, "--module");
  ModuleSources sources(library.curriculum, library.root);
  const CheckReport report = check_deck(library.deck, library.curriculum, sources, library.root, modules, min_cards_);
  std::string text;
  for (const std::string& problem : report.problems) text += problem + "\n";
  if (!report.problems.empty()) text += "\n";
  text += fmt::format("{:<6} {:>5} {:>8}  {}\n", "module", "cards", "records", "title");
  for (const ModuleCardCount& count : report.counts) {
    text += fmt::format("{:<6} {:>5} {:>8}  {}{}\n", count.module, count.cards, count.with_record, count.title,
                        count.available ? "" : " (planned)");
  }
  text += fmt::format("{:<6} {:>5} {:>8}\n", "all", report.total, report.total_with_record);
  text += report.passed()
              ? fmt::format("\ncheck: passed ({} cards in {}; every source and record found)\n", report.total,
                            (library.data / "cards").string())
              : fmt::format("\ncheck: {} problem{}\n", report.problems.size(), report.problems.size() == 1 ? "" : "s");
  std::fputs(text.c_str(), stdout);
  return report.passed() ? kExitOk : kExitCheckFailed;
}

int CardsCommand::due() {
  const fs::path file = cards_state_file(chosen_state_dir(due_, state_dir_));
  const study::Instant now = study::now_or(now_);
  const Library library = open_library(data_);
  std::vector<std::pair<std::string, std::string>> inputs = library_inputs(library);
  inputs.emplace_back("--state-dir", file.string());
  due_out_->check(inputs);
  refuse_in_card_folder("--json", due_out_->json_path(), library);
  const auto modules = modules_.empty() ? std::vector<std::string>{}
                                        : plan::canonical_module_ids(library.curriculum, modules_, "--module");
  const CardsState state = load_cards_state(file);
  const DueReport report = count_due(library.deck, state, library.curriculum, modules, now);

  std::string text = fmt::format("cards at {}\n\n", study::to_iso8601(now));
  text += fmt::format("{:<6} {:>5} {:>8} {:>7} {:>13} {:>5}  {}\n", "module", "new", "learning", "due now",
                      "due in 1 day", "total", "title");
  auto row = [](const DueCounts& c) {
    return fmt::format("{:<6} {:>5} {:>8} {:>7} {:>13} {:>5}  {}\n", c.module, c.fresh, c.learning, c.due_now,
                       c.due_within_day, c.total, c.title);
  };
  for (const DueCounts& counts : report.modules) text += row(counts);
  text += row(report.all);
  if (!report.orphaned.empty())
    text += fmt::format("\norphaned: {} ({}): in your progress but no longer in data/cards; kept, never deleted\n",
                        report.orphaned.size(), fmt::join(report.orphaned, ", "));
  std::error_code ec;  // the state was read above; a folder that cannot be searched holds none
  text += fmt::format("\nstate: {}{}\n", file.string(), fs::exists(file, ec) ? "" : " (none yet)");
  std::fputs(text.c_str(), due_out_->human());

  auto counts_json = [](const DueCounts& c) {
    json out = {{"module", c.module},     {"new", c.fresh},   {"learning", c.learning}, {"due_now", c.due_now},
                {"due_within_day", c.due_within_day}, {"total", c.total}};
    if (!c.title.empty()) out["title"] = c.title;
    return out;
  };
  json modules_json = json::array();
  for (const DueCounts& counts : report.modules) modules_json.push_back(counts_json(counts));
  due_out_->write_json({{"schema", "tutor-cards-due/1"},
                        {"tool", "tutor cards due"},
                        {"version", kVersion},
                        {"now", study::to_iso8601(now)},
                        {"state_file", file.string()},
                        {"modules", modules_json},
                        {"all", counts_json(report.all)},
                        {"orphaned", report.orphaned}});
  return kExitOk;
}

int CardsCommand::review() {
  const fs::path dir = chosen_state_dir(review_, state_dir_);
  const bool fixed = !now_.empty();
  const study::Instant start = study::now_or(now_);
  const Library library = open_library(data_);
  ReviewOptions options;
  if (!modules_.empty()) options.modules = plan::canonical_module_ids(library.curriculum, modules_, "--module");
  options.new_limit = new_limit_;
  if (limit_option_->count() > 0) options.limit = limit_;
  options.ansi = use_ansi(stdout);
  options.width = terminal_width(stdout);
  ModuleSources sources(library.curriculum, library.root);
  auto clock = [&] { return fixed ? start : study::now_or(""); };
  // A folder the ratings cannot be saved in is refused before the first card, not after the
  // learner has answered it.
  { const study::StateLock probe(dir); }
  require_writable("--state-dir", cards_state_file(dir).string());
  KeyInput input(STDIN_FILENO);
  try {
    return run_review(library.deck, library.curriculum, sources, dir, clock, options, input, stdout);
  } catch (const std::invalid_argument& error) {
    // FSRS refuses a review dated before the card's last one (a --now in the past).
    throw UsageError(fmt::format("--now: {}", error.what()));
  }
}

int CardsCommand::export_anki() {
  if (anki_.empty()) throw UsageError("cards export: give --anki FILE, the file to write, or --anki - for standard output");
  require_writable("--anki", anki_);
  const Library library = open_library(data_);
  require_distinct_outputs({{"--anki", anki_}}, library_inputs(library));  // never write over what it reads
  refuse_in_card_folder("--anki", anki_, library);
  const auto modules = modules_.empty() ? std::vector<std::string>{}
                                        : plan::canonical_module_ids(library.curriculum, modules_, "--module");
  ModuleSources sources(library.curriculum, library.root);
  const std::string text = anki_text(library.deck, library.curriculum, sources, modules);
  write_output("--anki", anki_, text);
  if (anki_ != "-") {
    std::size_t notes = 0;
    for (const CardFile& file : library.deck.files) {
      if (modules.empty() || std::find(modules.begin(), modules.end(), file.module) != modules.end())
        notes += file.cards.size();
    }
    std::fputs(fmt::format("wrote {}: {} notes; in Anki: File > Import (decks under \"{}\")\n", anki_, notes,
                           kAnkiDeckRoot).c_str(), stdout);
  }
  return kExitOk;
}

}  // namespace tutor::cards
