// tutor cards: the progress file (cards.json, schema "tutor-cards/1"), `due` counts from a
// hand-made state, and the Anki export against the Anki manual's "Importing > Text Files"
// (https://docs.ankiweb.net/importing/text-files.html, "HTML" and "File Headers").
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "cards/anki_export.hpp"
#include "cards/card_deck.hpp"
#include "cards/due_counts.hpp"
#include "cards/review_session.hpp"
#include "cards/review_state.hpp"
#include "tutor/cli.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace tutor::cards;
using tutor::fsrs::Card;
using tutor::fsrs::Rating;
using tutor::fsrs::State;

const fs::path kRepo = fs::path(TUTOR_SOURCE_DIR) / "common/tools/tutor/tests/fixtures/cards/repo";
const tutor::study::Instant kNow = tutor::study::from_iso8601("2026-12-02T09:00:00Z");

const tutor::curriculum::Curriculum& fixture_curriculum() {
  static const auto curriculum = tutor::curriculum::load_curriculum(kRepo / "data/curriculum.json");
  return curriculum;
}

const Deck& fixture_deck() {
  static const Deck deck = load_deck(kRepo / "data/cards", fixture_curriculum());
  return deck;
}

/// A fresh folder under the system's temporary folder, removed with the object.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string name = (fs::temp_directory_path() / "tutor-cards-XXXXXX").string();
    path = ::mkdtemp(name.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

Card card_in(State state, tutor::study::Instant due) {
  Card card = tutor::fsrs::new_card(kNow - 48h);
  card.state = state;
  card.stability = 3.0;
  card.difficulty = 5.0;
  card.reps = 2;
  card.due = due;
  card.last_review = kNow - 48h;
  return card;
}

std::string json_of(const Card& card) {
  nlohmann::json out;
  tutor::fsrs::to_json(out, card);
  return out.dump();
}

TEST(CardsState, SavedStateLoadsBackEqual) {
  TempDir dir;
  const fs::path file = cards_state_file(dir.path);
  EXPECT_EQ(file, dir.path / "cards.json");
  EXPECT_TRUE(load_cards_state(file).cards.empty());  // no file yet: an empty state
  CardsState state;
  state.cards["a02-padding"] = {card_in(State::review, kNow + 24h), {{kNow - 48h, Rating::good, 0.0, State::fresh}}};
  save_cards_state(file, state);
  const CardsState loaded = load_cards_state(file);
  ASSERT_EQ(loaded.cards.size(), 1u);
  const CardProgress& progress = loaded.cards.at("a02-padding");
  EXPECT_EQ(json_of(progress.card), json_of(state.cards["a02-padding"].card));
  ASSERT_EQ(progress.log.size(), 1u);
  EXPECT_EQ(progress.log[0].time, kNow - 48h);
  EXPECT_EQ(progress.log[0].rating, Rating::good);
  EXPECT_EQ(progress.log[0].state_before, State::fresh);
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(file));
  EXPECT_EQ(doc.at("schema"), "tutor-cards/1");
  EXPECT_EQ(doc.at("cards").at("a02-padding").at("log").at(0).at("rating"), "good");
  EXPECT_EQ(doc.at("cards").at("a02-padding").at("log").at(0).at("state_before"), "new");
}

TEST(CardsState, FirstReviewStartsFromANewCardAndLogsIt) {
  CardsState state;
  const tutor::fsrs::Scheduler scheduler;
  const Card& after = record_review(state, "a02-padding", Rating::good, kNow, scheduler);
  // The schedule is FSRS's (tested against ts-fsrs in fsrs_test.cpp) for a new card at kNow.
  EXPECT_EQ(json_of(after), json_of(scheduler.review(tutor::fsrs::new_card(kNow), Rating::good, kNow)));
  const auto& log = state.cards.at("a02-padding").log;
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].state_before, State::fresh);
  EXPECT_EQ(log[0].elapsed_days, 0.0);
  // A second review 36 hours later logs 1.5 elapsed days and the state it left.
  const State before = after.state;
  record_review(state, "a02-padding", Rating::good, kNow + 36h, scheduler);
  EXPECT_EQ(state.cards.at("a02-padding").log[1].elapsed_days, 1.5);
  EXPECT_EQ(state.cards.at("a02-padding").log[1].state_before, before);
}

TEST(CardsState, CorruptFileIsKeptAsideAndRefusedWithOneLine) {
  TempDir dir;
  const fs::path file = cards_state_file(dir.path);
  for (const std::string& text : {std::string("{not json"), std::string(R"({"schema": "tutor-plan/1"})"),
                                 std::string(R"({"schema": "tutor-cards/1", "cards": {"a02-x": {"card": {}, "log": []}}})")}) {
    std::ofstream(file) << text;
    try {
      load_cards_state(file);
      FAIL() << "accepted " << text;
    } catch (const tutor::UsageError& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.find('\n'), std::string::npos);
      EXPECT_NE(message.find("kept as"), std::string::npos) << message;
    }
    EXPECT_FALSE(fs::exists(file));  // renamed aside, never overwritten
  }
  std::size_t kept = 0;
  for (const auto& entry : fs::directory_iterator(dir.path)) kept += entry.path().filename().string().starts_with("cards.json.corrupt-");
  EXPECT_EQ(kept, 3u);
}

TEST(CardsDue, CountsNewLearningDueNowAndWithinADayPerModule) {
  CardsState state;
  state.cards["a02-sector-bytes"].card = card_in(State::review, kNow - 1h);         // due now
  state.cards["a02-transpose-bytes"].card = card_in(State::learning, kNow + 10min);  // learning, due within a day
  state.cards["a02-bank-count"].card = card_in(State::review, kNow + 48h);           // neither
  // a02-padding has no entry: new
  state.cards["b01-warp-size"].card = card_in(State::relearning, kNow);  // due exactly now: due, and learning
  state.cards["b01-sm-count"].card = tutor::fsrs::new_card(kNow);         // an entry still new counts as new
  state.cards["a02-gone"].card = card_in(State::review, kNow);            // no such card: orphaned
  state.cards["b01-gone"].card = card_in(State::review, kNow);

  const DueReport report = count_due(fixture_deck(), state, fixture_curriculum(), {}, kNow);
  ASSERT_EQ(report.modules.size(), 2u);
  const DueCounts& b01 = report.modules[0];
  const DueCounts& a02 = report.modules[1];
  EXPECT_EQ(a02.module, "A02");
  EXPECT_EQ(a02.title, "Memory coalescing");
  EXPECT_EQ(std::tuple(a02.fresh, a02.learning, a02.due_now, a02.due_within_day, a02.total), std::tuple(1, 1, 1, 1, 4));
  EXPECT_EQ(std::tuple(b01.fresh, b01.learning, b01.due_now, b01.due_within_day, b01.total), std::tuple(1, 1, 1, 0, 2));
  const DueCounts& all = report.all;
  EXPECT_EQ(std::tuple(all.fresh, all.learning, all.due_now, all.due_within_day, all.total), std::tuple(2, 2, 2, 1, 6));
  EXPECT_EQ(report.orphaned, (std::vector<std::string>{"a02-gone", "b01-gone"}));

  const DueReport only_a02 = count_due(fixture_deck(), state, fixture_curriculum(), {"A02"}, kNow);
  ASSERT_EQ(only_a02.modules.size(), 1u);
  EXPECT_EQ(only_a02.all.total, 4);
  EXPECT_EQ(only_a02.orphaned, std::vector<std::string>{"a02-gone"});
}

TEST(CardsDue, DueAtExactlyTwentyFourHoursIsWithinADay) {
  CardsState state;
  state.cards["a02-padding"].card = card_in(State::review, kNow + 24h);
  state.cards["a02-bank-count"].card = card_in(State::review, kNow + 24h + 1s);
  const DueReport report = count_due(fixture_deck(), state, fixture_curriculum(), {"A02"}, kNow);
  EXPECT_EQ(report.all.due_within_day, 1);
  EXPECT_EQ(report.all.due_now, 0);
}

TEST(CardsReviewQueue, DueCardsMostOverdueFirstThenNewCardsInFileOrder) {
  CardsState state;
  state.cards["a02-bank-count"].card = card_in(State::review, kNow - 1h);
  state.cards["b01-sm-count"].card = card_in(State::review, kNow - 3h);  // the most overdue
  state.cards["a02-padding"].card = card_in(State::review, kNow + 1h);   // not due yet
  const auto queue = review_queue(fixture_deck(), state, {}, kNow, 20);
  std::vector<std::string> ids;
  for (const RecallCard* card : queue) ids.push_back(card->id);
  EXPECT_EQ(ids, (std::vector<std::string>{"b01-sm-count", "a02-bank-count", "b01-warp-size", "a02-sector-bytes",
                                           "a02-transpose-bytes"}));
  EXPECT_EQ(review_queue(fixture_deck(), state, {"A02"}, kNow, 1).size(), 2u);  // bank-count, then one new
}

TEST(CardsReviewQueue, IntervalsReadAsAnkiShowsThem) {
  EXPECT_EQ(interval_text(30s), "<1m");
  EXPECT_EQ(interval_text(60s), "1m");
  EXPECT_EQ(interval_text(330s), "6m");  // 5.5 minutes, rounded half away from zero
  EXPECT_EQ(interval_text(2h + 30min), "2.5h");
  EXPECT_EQ(interval_text(std::chrono::seconds(8 * 86400)), "8d");
  EXPECT_EQ(interval_text(std::chrono::seconds(45 * 86400)), "1.5mo");
  EXPECT_EQ(interval_text(std::chrono::seconds(730 * 86400)), "2y");
}

/// The lines of `text` that are not header lines.
std::vector<std::string> notes_of(const std::string& text) {
  std::vector<std::string> notes;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("#")) notes.push_back(line);
  }
  return notes;
}

std::vector<std::string> columns(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) out.push_back(line.substr(start, tab - start));
  out.push_back(line.substr(start));
  return out;
}

TEST(AnkiExport, HeaderLinesAreTheManualsFileHeaders) {
  ModuleSources sources(fixture_curriculum(), kRepo);
  const std::string text = anki_text(fixture_deck(), fixture_curriculum(), sources, {});
  // Anki manual, "File Headers": #key:value lines at the top of the file; tab separator, HTML
  // fields, the Basic note type, and 1-based columns for the GUID, the deck and the tags.
  EXPECT_TRUE(text.starts_with("#separator:tab\n#html:true\n#notetype:Basic\n#columns:guid\tFront\tBack\tDeck\tTags\n"
                               "#guid column:1\n#deck column:4\n#tags column:5\n"));
  EXPECT_TRUE(text.ends_with("\n"));
}

TEST(AnkiExport, EveryNoteHasFiveColumnsWithTheIdAsGuidItsDeckAndTags) {
  ModuleSources sources(fixture_curriculum(), kRepo);
  const auto notes = notes_of(anki_text(fixture_deck(), fixture_curriculum(), sources, {}));
  ASSERT_EQ(notes.size(), 6u);
  for (const std::string& note : notes) {
    const auto cells = columns(note);
    ASSERT_EQ(cells.size(), 5u) << note;
    // No '"' at all: Anki reads the file as CSV, where a field that starts with '"' is quoted.
    EXPECT_EQ(note.find('"'), std::string::npos) << note;
    EXPECT_EQ(note.find('\r'), std::string::npos);
    EXPECT_NE(fixture_deck().find(cells[0]), nullptr) << cells[0];
  }
  const auto b01 = columns(notes[0]);
  EXPECT_EQ(b01[0], "b01-warp-size");
  EXPECT_EQ(b01[1], "How many threads are in an NVIDIA warp, and in an AMD CDNA wavefront?");
  EXPECT_EQ(b01[3], "GPU ML Tutor::B01 Accelerator architecture");
  EXPECT_EQ(b01[4], "B01 track-B gpu-ml-tutor");
}

TEST(AnkiExport, TextIsEscapedAndInlineMarkdownBecomesHtml) {
  ModuleSources sources(fixture_curriculum(), kRepo);
  const auto notes = notes_of(anki_text(fixture_deck(), fixture_curriculum(), sources, {"A02"}));
  ASSERT_EQ(notes.size(), 4u);
  const auto sector = columns(notes[0]);
  EXPECT_TRUE(sector[2].starts_with("32 bytes; 32 x 4 B = 128 B = <b>4 sectors</b>, the minimum for those bytes.<hr>"))
      << sector[2];
  const auto transpose = columns(notes[1]);
  EXPECT_EQ(transpose[0], "a02-transpose-bytes");
  EXPECT_TRUE(transpose[2].starts_with("Every element is read once and written once:<br><br>2 x 16384 x 16384 x 4 B = "
                                       "2,147,483,648 B, and <code>x &lt; y &amp; z</code> stays <i>literal</i> "
                                       "&quot;text&quot;.<hr><small>"))
      << transpose[2];
  // The citation: each source's number and text with its link, the README, and the record.
  EXPECT_NE(transpose[2].find("[3] Mark Harris, <a href='https://developer.nvidia.com/blog/efficient-matrix-transpose-"
                              "cuda-cc/'>&quot;An Efficient Matrix Transpose in CUDA C/C++&quot;</a>"),
            std::string::npos);
  EXPECT_NE(transpose[2].find("trackA/a02_coalescing/README.md"), std::string::npos);
  EXPECT_TRUE(transpose[2].ends_with("<br>Record: <code>records/a02_transpose.json</code></small>")) << transpose[2];
}

TEST(AnkiExport, ReExportIsByteIdenticalSoAReImportUpdates) {
  ModuleSources first(fixture_curriculum(), kRepo), second(fixture_curriculum(), kRepo);
  const Deck again = load_deck(kRepo / "data/cards", fixture_curriculum());
  EXPECT_EQ(anki_text(fixture_deck(), fixture_curriculum(), first, {}), anki_text(again, fixture_curriculum(), second, {}));
}

TEST(AnkiExport, ATabInAReadmesSourceTextStaysInsideItsColumn) {
  // Card text cannot hold a tab (the parser refuses it), but a README's source list may: in
  // the tab-separated file it would start a sixth column. In HTML it reads as a space.
  TempDir repo;
  fs::copy(kRepo, repo.path, fs::copy_options::recursive);
  const fs::path readme = repo.path / "trackA/a02_coalescing/README.md";
  std::string text;
  {
    std::ifstream in(readme, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto at = text.find("3. Mark Harris,");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 15, "3. Mark\tHarris,");
  std::ofstream(readme, std::ios::binary) << text;
  ModuleSources sources(fixture_curriculum(), repo.path);
  const auto notes = notes_of(anki_text(fixture_deck(), fixture_curriculum(), sources, {"A02"}));
  ASSERT_EQ(notes.size(), 4u);
  for (const std::string& note : notes) EXPECT_EQ(columns(note).size(), 5u) << note;
  EXPECT_NE(columns(notes[1])[2].find("[3] Mark Harris, "), std::string::npos) << notes[1];
}

TEST(AnkiExport, CardCitingASourceTheReadmeLacksIsRefused) {
  Deck deck;
  deck.files.push_back(parse_card_file("# A02 t\n\n## a02-x\nQ: q?\nA: a.\nSource: [9]\n", "data/cards/a02.md", "a02",
                                       fixture_curriculum()));
  ModuleSources sources(fixture_curriculum(), kRepo);
  EXPECT_THROW(anki_text(deck, fixture_curriculum(), sources, {}), tutor::UsageError);
}

}  // namespace
