// tutor cards: the card-file format (docs/STUDY.md, "Card files") read strictly, the README
// sources a card cites, the inline Markdown rendered for Anki and the terminal, and the lint.
// Every expected message and line number below is counted by hand in the fixture it names
// (fixtures/cards/bad/*.md); each fixture breaks one rule.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cards/card_check.hpp"
#include "cards/card_deck.hpp"
#include "cards/inline_markdown.hpp"
#include "cards/readme_sources.hpp"

namespace {

namespace fs = std::filesystem;
using namespace tutor::cards;

const fs::path kFixtures = fs::path(TUTOR_SOURCE_DIR) / "common/tools/tutor/tests/fixtures/cards";
const fs::path kRepo = kFixtures / "repo";

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const tutor::curriculum::Curriculum& fixture_curriculum() {
  static const auto curriculum = tutor::curriculum::load_curriculum(kRepo / "data/curriculum.json");
  return curriculum;
}

/// The one-line error parsing `text` as data/cards/<module>.md gives, or "" when it parses.
std::string error_of(const std::string& text, const std::string& module = "a02") {
  try {
    parse_card_file(text, "data/cards/" + module + ".md", module, fixture_curriculum());
  } catch (const CardFileError& error) {
    return error.what();
  }
  return "";
}

std::string bad(const std::string& name) { return error_of(read(kFixtures / "bad" / (name + ".md"))); }

TEST(CardFile, GoodFileGivesEveryCardWithItsFieldsInFileOrder) {
  const CardFile file = parse_card_file(read(kRepo / "data/cards/a02.md"), "data/cards/a02.md", "a02",
                                        fixture_curriculum());
  EXPECT_EQ(file.module, "A02");
  ASSERT_EQ(file.cards.size(), 4u);
  EXPECT_EQ(file.cards[0].id, "a02-sector-bytes");
  EXPECT_EQ(file.cards[1].id, "a02-transpose-bytes");
  EXPECT_EQ(file.cards[2].id, "a02-bank-count");
  EXPECT_EQ(file.cards[3].id, "a02-padding");
  // A question on two lines is one paragraph: its lines are joined with a space.
  EXPECT_EQ(file.cards[0].question,
            "How many bytes does one global-memory sector hold, and how many sectors does a warp reading 32 "
            "consecutive floats need?");
  EXPECT_EQ(file.cards[0].sources, std::vector<int>{2});
  EXPECT_EQ(file.cards[0].record, "");
  EXPECT_EQ(file.cards[0].line, 6);
  // A blank line inside an answer is a paragraph break.
  const RecallCard& card = file.cards[1];
  EXPECT_EQ(card.answer, "Every element is read once and written once:\n\n2 x 16384 x 16384 x 4 B = 2,147,483,648 B, "
                         "and `x < y & z` stays *literal* \"text\".");
  EXPECT_EQ(card.sources, (std::vector<int>{1, 3}));
  EXPECT_EQ(card.record, "records/a02_transpose.json");
  EXPECT_EQ(card.module, "A02");
  EXPECT_EQ(card.line, 12);
  EXPECT_EQ(card.source_line, 17);
  EXPECT_EQ(card.record_line, 18);
}

TEST(CardFile, MissingFieldsAreNamedAtTheCardsHeading) {
  EXPECT_EQ(bad("missing_q"), "data/cards/a02.md:3: card a02-no-question: no Q: line");
  EXPECT_EQ(bad("missing_a"), "data/cards/a02.md:8: card a02-no-answer: no A: line");
  EXPECT_EQ(bad("missing_source"), "data/cards/a02.md:3: card a02-no-source: no Source: line");
}

TEST(CardFile, EmptyFieldIsRefusedAtItsLine) {
  EXPECT_EQ(bad("empty_answer"), "data/cards/a02.md:5: card a02-empty-answer: empty A:");
  EXPECT_EQ(error_of("# A02 t\n\n## a02-x\nQ: q?\nA: a.\nSource:\n"), "data/cards/a02.md:6: card a02-x: empty Source:");
}

TEST(CardFile, FieldsOutOfOrderOrTwiceAreRefused) {
  EXPECT_EQ(bad("out_of_order"),
            "data/cards/a02.md:6: card a02-source-first: A: comes after Source: (the order is Q:, A:, Source:, Record:)");
  EXPECT_EQ(bad("second_q"), "data/cards/a02.md:5: card a02-two-questions: a second Q: line (the first is at line 4)");
  EXPECT_EQ(bad("field_before_card"),
            "data/cards/a02.md:3: Q: before the first card (a card starts with '## <card id>')");
  EXPECT_EQ(bad("text_after_source"),
            "data/cards/a02.md:7: card a02-trailing-text: text after Source: (Source: and Record: take one line each)");
}

TEST(CardFile, IdsAreUniqueLowerCaseAndCarryTheModulePrefix) {
  EXPECT_EQ(bad("duplicate_id"), "data/cards/a02.md:8: card a02-sector-bytes: duplicate id (the first is at line 3)");
  EXPECT_EQ(bad("id_without_prefix"),
            "data/cards/a02.md:3: card b01-sector-bytes: the id must start with 'a02-' (its module, A02) and name the "
            "card after it");
  EXPECT_EQ(bad("id_upper_case"), "data/cards/a02.md:3: card a02-Sector-Bytes: the id may hold only a-z, 0-9 and '-'");
  // The prefix alone names no card.
  EXPECT_EQ(error_of("# A02 t\n\n## a02-\nQ: q?\nA: a.\nSource: [1]\n"),
            "data/cards/a02.md:3: card a02-: the id must start with 'a02-' (its module, A02) and name the card after it");
}

TEST(CardFile, TitleNamesTheFilesModuleAndACurriculumModule) {
  EXPECT_EQ(bad("title_other_module"), "data/cards/a02.md:1: the title names module A07 but the file name is A02's (a02.md)");
  EXPECT_EQ(bad("title_without_module"),
            "data/cards/a02.md:1: the title must start with the module id ('# A02 ...'), got '# Memory coalescing: a "
            "title without the module id'");
  EXPECT_EQ(error_of(read(kFixtures / "bad/module_not_in_curriculum.md"), "z09"),
            "data/cards/z09.md:1: module Z09 is not in data/curriculum.json");
  EXPECT_EQ(error_of(""), "data/cards/a02.md:1: no title: a card file starts with '# <module id> <title>'");
  EXPECT_EQ(error_of("Some text\n# A02 t\n"), "data/cards/a02.md:1: no title: a card file starts with '# <module id> <title>'");
  EXPECT_EQ(bad("no_cards"),
            "data/cards/a02.md:3: no cards: a card is a '## <card id>' heading followed by Q:, A: and Source: lines");
}

TEST(CardFile, SourceIsBracketedNumbersAndRecordARepositoryPath) {
  EXPECT_EQ(bad("bad_source"),
            "data/cards/a02.md:6: card a02-bad-source: Source: must be [n] or [n, m] (numbers of the module README's "
            "'## 8. Sources'), got 'the CUDA guide'");
  EXPECT_EQ(bad("record_absolute"),
            "data/cards/a02.md:7: card a02-absolute-record: Record: must be one repository-relative path without "
            "spaces (docs/results/...), got '/tmp/a02_transpose.json'");
  EXPECT_NE(error_of("# A02 t\n\n## a02-x\nQ: q?\nA: a.\nSource: [2, 2]\n").find("names a number twice"), std::string::npos);
  EXPECT_NE(error_of("# A02 t\n\n## a02-x\nQ: q?\nA: a.\nSource: [0]\n").find("must be [n]"), std::string::npos);
  EXPECT_NE(error_of("# A02 t\n\n## a02-x\nQ: q?\nA: a.\nSource: [1]\nRecord: ../x.json\n").find("repository-relative"),
            std::string::npos);
  EXPECT_EQ(error_of("# A02 t\n\n## a02-x\nQ: q?\nA: a.\nSource: [2,3]\n"), "");
}

TEST(CardFile, TabsControlCharactersAndBytesThatAreNotUtf8AreRefused) {
  // "A: 32" is five characters: the tab is the sixth.
  EXPECT_EQ(bad("tab"), "data/cards/a02.md:5: card a02-tab: tab character at column 6 (indent with spaces)");
  // "Q: caf" is six characters; 0xe9 (Latin-1 e-acute) alone is no UTF-8 sequence (RFC 3629).
  EXPECT_EQ(error_of("# A02 t\n\n## a02-x\nQ: caf\xe9?\nA: a.\nSource: [1]\n"),
            "data/cards/a02.md:4: card a02-x: bytes that are not UTF-8 at column 7");
  EXPECT_EQ(error_of("# A02 t\n\n## a02-x\nQ: \x01?\nA: a.\nSource: [1]\n"),
            "data/cards/a02.md:4: card a02-x: control character 0x01 at column 4");
  // UTF-8 text and CRLF line endings are fine.
  EXPECT_EQ(error_of("# A02 t\r\n\r\n## a02-x\r\nQ: caf\xc3\xa9 \xe2\x86\x92 x?\r\nA: a.\r\nSource: [1]\r\n"), "");
}

TEST(CardFile, AByteOrderMarkBeforeTheTitleIsSkipped) {
  // Some editors start a UTF-8 file with U+FEFF (EF BB BF); the title is still line 1.
  EXPECT_EQ(error_of("\xEF\xBB\xBF# A02 t\r\n\r\n## a02-x\r\nQ: q?\r\nA: a.\r\nSource: [1]\r\n"), "");
  EXPECT_EQ(error_of("\xEF\xBB\xBF# A02 t\n\n## a02-x\nQ: q?\nSource: [1]\n"), "data/cards/a02.md:3: card a02-x: no A: line");
  // Anywhere else it is text like any other character (the title is not on line 1).
  EXPECT_EQ(error_of("\n\xEF\xBB\xBF# A02 t\n"), "data/cards/a02.md:2: no title: a card file starts with '# <module id> <title>'");
}

TEST(CardDeck, AFileWithACardFilesNameThatIsNoRegularFileIsNamedAsSuch) {
  const fs::path folder = fs::temp_directory_path() / ("tutor-cards-fifo-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  ASSERT_EQ(::mkfifo((folder / "a02.md").c_str(), 0600), 0);  // would block a reader: never opened
  try {
    (void)load_deck(folder, fixture_curriculum());
    ADD_FAILURE() << "a pipe was read as a card file";
  } catch (const CardFileError& error) {
    EXPECT_EQ(std::string(error.what()), (folder / "a02.md").string() +
                                             ": not a regular file (a folder, device, pipe or broken link); a card "
                                             "file is a text file");
  }
  fs::remove_all(folder);
}

TEST(CardDeck, LoadsEveryCardFileInCurriculumOrderAndFindsCardsById) {
  const Deck deck = load_deck(kRepo / "data/cards", fixture_curriculum());
  ASSERT_EQ(deck.files.size(), 2u);
  EXPECT_EQ(deck.files[0].module, "B01");  // B01 comes before A02 in the fixture's curriculum
  EXPECT_EQ(deck.files[1].module, "A02");
  EXPECT_EQ(deck.cards().size(), 6u);
  EXPECT_EQ(deck.cards_of("A02").size(), 4u);
  ASSERT_NE(deck.find("b01-sm-count"), nullptr);
  EXPECT_EQ(deck.find("b01-sm-count")->answer, "132.");
  EXPECT_EQ(deck.find("a02-gone"), nullptr);
  EXPECT_TRUE(load_deck(kRepo / "data/no-such-folder", fixture_curriculum()).files.empty());
}

TEST(ReadmeSources, NumberedItemsOfSectionEightWithTheirContinuationLines) {
  const auto sources = parse_readme_sources(read(kRepo / "trackA/a02_coalescing/README.md"));
  ASSERT_TRUE(sources);
  ASSERT_EQ(sources->size(), 3u);  // item 4 is in section 9
  EXPECT_EQ(sources->at(2),
            "NVIDIA, *CUDA C++ Programming Guide*: \"Device Memory Accesses\" (32-byte transactions); \"Compute "
            "Capabilities\" (32 banks). https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html");
  EXPECT_FALSE(parse_readme_sources("# A README\n\n## 7. Where it appears\n\n1. Not a source.\n"));
}

TEST(ReadmeSources, ShortTextReadsLinksAsTheirTextDropsUrlsAndCutsAtAWord) {
  EXPECT_EQ(short_source_text("Mark Harris, [\"A Transpose\"](https://example.com/t), *Blog*, 2013. https://example.com/x"),
            "Mark Harris, \"A Transpose\", Blog, 2013.");
  EXPECT_EQ(short_source_text("one two three four", 9), "one two...");
  EXPECT_EQ(short_source_text("short", 9), "short");
}

TEST(ModuleSourcesLookup, NamesTheReadmeThatIsMissing) {
  ModuleSources sources(fixture_curriculum(), kRepo);
  EXPECT_NE(sources.of("A02"), nullptr);
  std::string why;
  EXPECT_EQ(sources.of("A07", &why), nullptr);  // planned: no folder yet
  EXPECT_NE(why.find("trackA/a07_tiled_gemm/README.md"), std::string::npos) << why;
  EXPECT_EQ(sources.readme("B01"), "trackB/b01_architecture/README.md");
}

TEST(InlineMarkdown, HtmlRendersCodeBoldItalicAndEscapesTheRest) {
  EXPECT_EQ(markdown_to_html("`a<b` **bold** *it* 2 * 3 & \"q\""),
            "<code>a&lt;b</code> <b>bold</b> <i>it</i> 2 * 3 &amp; &quot;q&quot;");
  EXPECT_EQ(markdown_to_html("first\n\nsecond"), "first<br><br>second");
  EXPECT_EQ(markdown_to_html("**not closed and `not closed"), "**not closed and `not closed");
  EXPECT_EQ(markdown_to_html("\\*not italic\\*"), "*not italic*");
  EXPECT_EQ(markdown_to_html("**bold with `code`**"), "<b>bold with </b><b><code>code</code></b>");
  EXPECT_EQ(markdown_to_html("[the post](https://example.com/a?b=1&c=2)."),
            "<a href='https://example.com/a?b=1&amp;c=2'>the post</a>.");
  EXPECT_EQ(markdown_to_html("see https://example.com/x."), "see <a href='https://example.com/x'>https://example.com/x</a>.");
}

TEST(InlineMarkdown, TerminalDropsMarkersOrUsesSgrAttributes) {
  EXPECT_EQ(markdown_to_terminal("**4 sectors** and *x*, `c`", false), "4 sectors and x, `c`");
  EXPECT_EQ(markdown_to_terminal("**4**", true), "\x1b[1m4\x1b[22m");
  EXPECT_EQ(markdown_to_terminal("a\n\nb", false), "a\n\nb");
}

TEST(CardCheck, FixtureDeckPassesWithCountsPerModule) {
  const Deck deck = load_deck(kRepo / "data/cards", fixture_curriculum());
  ModuleSources sources(fixture_curriculum(), kRepo);
  const CheckReport report = check_deck(deck, fixture_curriculum(), sources, kRepo, {}, 0);
  EXPECT_TRUE(report.passed()) << report.problems.front();
  ASSERT_EQ(report.counts.size(), 2u);  // A07 is planned and has no cards: not listed
  EXPECT_EQ(report.counts[1].module, "A02");
  EXPECT_EQ(report.counts[1].cards, 4);
  EXPECT_EQ(report.counts[1].with_record, 1);
  EXPECT_EQ(report.total, 6);
}

TEST(CardCheck, SourceNotInTheReadmeAndMissingRecordAreProblems) {
  Deck deck;
  deck.files.push_back(parse_card_file("# A02 t\n\n## a02-x\nQ: q?\nA: a.\nSource: [1, 9]\nRecord: records/none.json\n",
                                       "data/cards/a02.md", "a02", fixture_curriculum()));
  ModuleSources sources(fixture_curriculum(), kRepo);
  const CheckReport report = check_deck(deck, fixture_curriculum(), sources, kRepo, {}, 0);
  ASSERT_EQ(report.problems.size(), 2u);
  EXPECT_EQ(report.problems[0], "data/cards/a02.md:6: card a02-x: Source [9] is not in trackA/a02_coalescing/README.md's "
                                "'## 8. Sources' (it lists 1-3)");
  EXPECT_EQ(report.problems[1], "data/cards/a02.md:7: card a02-x: Record: records/none.json is not a file of the repository");
}

TEST(CardCheck, FloorCountsAvailableModulesOnly) {
  const Deck deck = load_deck(kRepo / "data/cards", fixture_curriculum());
  ModuleSources sources(fixture_curriculum(), kRepo);
  const CheckReport report = check_deck(deck, fixture_curriculum(), sources, kRepo, {}, 3);
  ASSERT_EQ(report.problems.size(), 1u);  // B01 has 2; A02 has 4; A07 is planned
  EXPECT_EQ(report.problems[0], "B01 Accelerator architecture: 2 cards, fewer than the 3 every available module needs");
}

}  // namespace
