// tutor cards review, driven as a learner drives it: through a pseudo-terminal (forkpty), the
// real `tutor` executable on the fixture data folder and a fresh state folder. After each
// rating the state file must hold the schedule tutor::fsrs gives for the same --now; a kill -9
// in the middle of a session must lose nothing already rated.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cards/inline_markdown.hpp"
#include "cards/review_session.hpp"
#include "cards/review_state.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using tutor::fsrs::Card;
using tutor::fsrs::Rating;

const fs::path kData = fs::path(TUTOR_SOURCE_DIR) / "common/tools/tutor/tests/fixtures/cards/repo/data";
const std::string kNowText = "2026-12-02T09:00:00Z";
const tutor::study::Instant kNow = tutor::study::from_iso8601(kNowText);

struct TempDir {
  fs::path path;
  TempDir() {
    std::string name = (fs::temp_directory_path() / "tutor-review-XXXXXX").string();
    path = ::mkdtemp(name.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

/// `tutor cards review` on a pseudo-terminal: what it printed so far, keys to send.
class Session {
 public:
  explicit Session(const fs::path& state_dir, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {TUTOR_EXE, "cards", "review", "--data", kData.string(), "--state-dir",
                                     state_dir.string(), "--now", kNowText, "--module", "A02"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    struct winsize size = {40, 200, 0, 0};  // wide enough that no line wraps
    pid_ = ::forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      ::unsetenv("NO_COLOR");
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ~Session() {
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) ::close(master_);
  }

  bool started() const { return pid_ > 0 && master_ >= 0; }

  /// Reads until `text` has appeared after what earlier waits consumed (10 s at most).
  bool wait_for(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (screen_.find(text, consumed_) == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      struct pollfd fd = {master_, POLLIN, 0};
      if (::poll(&fd, 1, static_cast<int>(left.count())) <= 0) continue;
      char buffer[4096];
      const ssize_t n = ::read(master_, buffer, sizeof buffer);
      if (n <= 0) return false;  // the session ended (EIO on Linux once the slave side closes)
      screen_.append(buffer, static_cast<std::size_t>(n));
    }
    consumed_ = screen_.find(text, consumed_) + text.size();
    return true;
  }

  void press(const std::string& keys) { ASSERT_EQ(::write(master_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size())); }

  void kill9() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    reaped_ = true;
  }

  /// Waits for the process to exit and returns its exit status (-1 if it did not within 10 s).
  int exit_code() {
    for (int i = 0; i < 1000; ++i) {
      int status = 0;
      char buffer[4096];
      for (ssize_t n; (n = ::read(master_, buffer, sizeof buffer)) > 0;)  // drain what is left (non-blocking)
        screen_.append(buffer, static_cast<std::size_t>(n));
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      ::usleep(10000);
    }
    return -1;
  }

  /// The terminal's local modes now (the master side reads the pseudo-terminal's settings).
  tcflag_t local_modes() const {
    struct termios settings{};
    ::tcgetattr(master_, &settings);
    return settings.c_lflag;
  }

  const std::string& screen() const { return screen_; }
  void nonblocking() { ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK); }

 private:
  pid_t pid_ = -1;
  int master_ = -1;
  bool reaped_ = false;
  std::string screen_;
  std::size_t consumed_ = 0;
};

std::string json_of(const Card& card) {
  nlohmann::json out;
  tutor::fsrs::to_json(out, card);
  return out.dump();
}

/// The rating line a new card shows at kNow: each rating's interval as tutor::fsrs gives it.
std::string new_card_choices() {
  const tutor::fsrs::Scheduler scheduler;
  const Card fresh = tutor::fsrs::new_card(kNow);
  std::string line;
  for (const Rating rating : {Rating::again, Rating::hard, Rating::good, Rating::easy}) {
    line += "   " + std::to_string(static_cast<int>(rating)) + " " + std::string(tutor::fsrs::to_string(rating)) + " (" +
            tutor::cards::interval_text(scheduler.review(fresh, rating, kNow).due - kNow) + ")";
  }
  return line + "   q quit";
}

// ---------------------------------------------------------------- the session's order

tutor::cards::RecallCard card_named(const std::string& id) {
  tutor::cards::RecallCard card;
  card.id = id;
  card.module = "A02";
  return card;
}

TEST(CardsReviewQueue, ADueLearningCardComesBeforeTheRemainingNewCards) {
  // Anki: intraday learning cards that are due are shown before new cards. "lapsed" was rated
  // again at 09:00 (due 09:01); at 09:02 it comes before "new2" and "new3".
  const auto lapsed = card_named("a02-lapsed"), new2 = card_named("a02-new2"), new3 = card_named("a02-new3");
  tutor::cards::SessionQueue queue({&new2, &new3});
  queue.learning(lapsed, kNow + 1min, kNow);
  EXPECT_EQ(queue.left(), 3u);
  EXPECT_EQ(queue.coming_back(), 1u);
  EXPECT_EQ(queue.next(kNow + 2min), &lapsed);
  EXPECT_EQ(queue.next(kNow + 2min), &new2);
  EXPECT_EQ(queue.next(kNow + 2min), &new3);
  EXPECT_EQ(queue.next(kNow + 2min), nullptr);
}

TEST(CardsReviewQueue, ALearningCardNotYetDueWaitsThenIsShownAheadWhenNothingElseIsLeft) {
  // Due at 09:10: at 09:02 the new card goes first; then, nothing else left, the learning card
  // is shown early (within Anki's 20-minute learn-ahead limit) instead of ending the session.
  const auto learning = card_named("a02-learning"), fresh = card_named("a02-fresh");
  tutor::cards::SessionQueue queue({&fresh});
  queue.learning(learning, kNow + 10min, kNow);
  EXPECT_EQ(queue.next(kNow + 2min), &fresh);
  EXPECT_EQ(queue.next(kNow + 2min), &learning);
  EXPECT_EQ(queue.next(kNow + 2min), nullptr);
}

TEST(CardsReviewQueue, LearningCardsComeBackInDueOrderAndBeyondTheLimitNotAtAll) {
  const auto a = card_named("a02-a"), b = card_named("a02-b"), far = card_named("a02-far");
  tutor::cards::SessionQueue queue({});
  queue.learning(a, kNow + 10min, kNow);
  queue.learning(b, kNow + 1min, kNow);
  queue.learning(far, kNow + 21min, kNow);  // past the 20-minute limit: next session
  EXPECT_EQ(queue.left(), 2u);
  EXPECT_EQ(queue.next(kNow), &b);
  EXPECT_EQ(queue.next(kNow), &a);
  EXPECT_EQ(queue.next(kNow), nullptr);
}

// ---------------------------------------------------------------- wrapping at the terminal's width

TEST(CardsReviewWrap, BreaksAtSpacesNeverInsideAWordAndIndentsTheRest) {
  using tutor::cards::wrap_for_terminal;
  // 20 columns: "Q: one two three" is 16; " four" would make 21.
  EXPECT_EQ(wrap_for_terminal("Q: one two three four five", 20, 3), "Q: one two three\n   four five");
  // A word wider than the line stands alone, whole.
  EXPECT_EQ(wrap_for_terminal("A: cudaMemcpyDeviceToDevice x", 10, 3), "A:\n   cudaMemcpyDeviceToDevice\n   x");
  // Attributes and UTF-8 characters take no extra columns: "é" is one column, ESC[1m none.
  EXPECT_EQ(wrap_for_terminal("\x1b[1mabc\x1b[22m d\xc3\xa9" "f ghi", 11, 0), "\x1b[1mabc\x1b[22m d\xc3\xa9" "f ghi");
  EXPECT_EQ(wrap_for_terminal("\x1b[1mabc\x1b[22m d\xc3\xa9" "f ghi", 10, 0), "\x1b[1mabc\x1b[22m d\xc3\xa9" "f\nghi");
  // Paragraph breaks stay; each paragraph's lines are indented; width 0 leaves the text alone.
  EXPECT_EQ(wrap_for_terminal("A: one\n\ntwo three", 9, 3), "A: one\n\n   two\n   three");
  EXPECT_EQ(wrap_for_terminal("A: one two three", 0, 3), "A: one two three");
  // The leading spaces of an indented prompt are kept.
  EXPECT_EQ(wrap_for_terminal("   1 again   2 hard", 12, 3), "   1 again\n   2 hard");
}

TEST(CardsReview, PseudoTerminalSessionSavesEachRatingAsFsrsSchedulesIt) {
  TempDir state;
  const fs::path file = tutor::cards::cards_state_file(state.path);
  const tutor::fsrs::Scheduler scheduler;
  Session session(state.path);
  ASSERT_TRUE(session.started());

  // The first of 4 cards: the question, then (after Enter) the answer, its source and the intervals.
  ASSERT_TRUE(session.wait_for("[A02 Memory coalescing] 0 done, 4 left (new)")) << session.screen();
  ASSERT_TRUE(session.wait_for("Q: How many bytes does one global-memory sector hold")) << session.screen();
  ASSERT_TRUE(session.wait_for("Enter: show the answer")) << session.screen();
  EXPECT_EQ(session.screen().find("A: 32 bytes"), std::string::npos);  // not before Enter
  // Keys are read one at a time with echo off while the session runs.
  EXPECT_EQ(session.local_modes() & (ICANON | ECHO), 0u);
  session.press("\r");
  ASSERT_TRUE(session.wait_for("A: 32 bytes; 32 x 4 B = 128 B = \x1b[1m4 sectors\x1b[22m")) << session.screen();
  ASSERT_TRUE(session.wait_for("Source [2]: NVIDIA, CUDA C++ Programming Guide: \"Device Memory Accesses\"")) << session.screen();
  ASSERT_TRUE(session.wait_for(new_card_choices())) << session.screen();
  session.press("3");
  ASSERT_TRUE(session.wait_for("saved: good")) << session.screen();
  {
    const auto saved = tutor::cards::load_cards_state(file);
    ASSERT_EQ(saved.cards.size(), 1u);
    const auto& progress = saved.cards.at("a02-sector-bytes");
    EXPECT_EQ(json_of(progress.card), json_of(scheduler.review(tutor::fsrs::new_card(kNow), Rating::good, kNow)));
    ASSERT_EQ(progress.log.size(), 1u);
    EXPECT_EQ(progress.log[0].rating, Rating::good);
  }

  // Card 2: the first, rated good, comes back in 10 minutes, so 4 are still left, this one
  // counted. A rating that is not 1-4 is asked again; then Again.
  ASSERT_TRUE(session.wait_for("1 done, 4 left, 1 of them coming back (new)")) << session.screen();
  session.press("\r");
  ASSERT_TRUE(session.wait_for("Record: records/a02_transpose.json")) << session.screen();
  ASSERT_TRUE(session.wait_for("q quit")) << session.screen();
  session.press("7");
  ASSERT_TRUE(session.wait_for("type 1 (again), 2 (hard), 3 (good) or 4 (easy); q quits")) << session.screen();
  session.press("1");
  ASSERT_TRUE(session.wait_for("saved: again")) << session.screen();
  {
    const auto saved = tutor::cards::load_cards_state(file);
    ASSERT_EQ(saved.cards.size(), 2u);
    EXPECT_EQ(json_of(saved.cards.at("a02-transpose-bytes").card),
              json_of(scheduler.review(tutor::fsrs::new_card(kNow), Rating::again, kNow)));
  }

  // Card 3 is on screen, not rated: a kill -9 now loses only it.
  ASSERT_TRUE(session.wait_for("Q: How many shared-memory banks")) << session.screen();
  session.kill9();
  const auto after_kill = tutor::cards::load_cards_state(file);
  EXPECT_EQ(after_kill.cards.size(), 2u);
  EXPECT_TRUE(after_kill.cards.contains("a02-sector-bytes"));
  EXPECT_TRUE(after_kill.cards.contains("a02-transpose-bytes"));
  for (const auto& entry : fs::directory_iterator(state.path))
    EXPECT_FALSE(entry.path().filename().string().starts_with("cards.json.corrupt")) << entry.path();

  // The next session starts where that one stopped: the two rated cards are not due at this
  // --now (1 and 10 minutes away), so the first card shown is the one that was on screen.
  Session next(state.path);
  ASSERT_TRUE(next.wait_for("0 done, 2 left (new)")) << next.screen();
  ASSERT_TRUE(next.wait_for("Q: How many shared-memory banks")) << next.screen();
  next.press("q");
  ASSERT_TRUE(next.wait_for("Stopped: 0 cards reviewed")) << next.screen();
  next.nonblocking();
  EXPECT_EQ(next.exit_code(), 0);
  // The terminal is as it was: line editing and echo back on.
  EXPECT_EQ(next.local_modes() & (ICANON | ECHO), static_cast<tcflag_t>(ICANON | ECHO));
}

TEST(CardsReview, KillAtAnyMomentAfterARatingLeavesAReadableStateFile) {
  TempDir state;
  const fs::path file = tutor::cards::cards_state_file(state.path);
  // Kill right after the key, at a different moment each time: the file holds the rating or
  // not, never half of one, and each saved card matches its log.
  for (int round = 0; round < 6; ++round) {  // the fixture's six cards: each round shows one not yet saved
    Session session(state.path, {"--module", "B01"});
    ASSERT_TRUE(session.wait_for("Enter: show the answer")) << session.screen();
    session.press("\r");
    ASSERT_TRUE(session.wait_for("q quit")) << session.screen();
    session.press("2");
    ::usleep(static_cast<useconds_t>(round * 700));
    session.kill9();
    const auto saved = tutor::cards::load_cards_state(file);  // throws if the file were torn
    EXPECT_LE(saved.cards.size(), static_cast<std::size_t>(round + 1));
    for (const auto& [id, progress] : saved.cards) EXPECT_EQ(progress.log.size(), 1u) << id;
  }
}

TEST(CardsReview, WithoutATerminalLinesAreRead) {
  TempDir state;
  const std::string command = "printf '\\n4\\n\\nhard\\nq\\n' | '" + std::string(TUTOR_EXE) +
                              "' cards review --data '" + kData.string() + "' --state-dir '" + state.path.string() +
                              "' --now " + kNowText + " --module a02 > '" + (state.path / "out.txt").string() + "' 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::ifstream in(state.path / "out.txt");
  std::stringstream out;
  out << in.rdbuf();
  EXPECT_NE(out.str().find("Stopped: 2 cards reviewed (again 0, hard 1, good 0, easy 1)"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("\x1b["), std::string::npos);  // no terminal attributes into a file
  const auto saved = tutor::cards::load_cards_state(tutor::cards::cards_state_file(state.path));
  const tutor::fsrs::Scheduler scheduler;
  ASSERT_EQ(saved.cards.size(), 2u);
  EXPECT_EQ(json_of(saved.cards.at("a02-sector-bytes").card),
            json_of(scheduler.review(tutor::fsrs::new_card(kNow), Rating::easy, kNow)));
  EXPECT_EQ(json_of(saved.cards.at("a02-transpose-bytes").card),
            json_of(scheduler.review(tutor::fsrs::new_card(kNow), Rating::hard, kNow)));
}

}  // namespace
