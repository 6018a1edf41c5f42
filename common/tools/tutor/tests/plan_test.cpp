// tutor plan's logic: the progress state, module ids as typed, and the plan made from the
// committed curriculum. Expected hours are added up by hand from data/curriculum.json's
// learner_hours, in the comments next to them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "plan/module_ids.hpp"
#include "plan/plan_view.hpp"
#include "plan/planner.hpp"
#include "plan/progress.hpp"
#include "tutor/cli.hpp"
#include "tutor/curriculum.hpp"

namespace {

namespace fs = std::filesystem;
using tutor::curriculum::Curriculum;
using tutor::plan::Action;
using tutor::plan::Plan;
using tutor::plan::Progress;
using tutor::plan::Stage;

const Curriculum& committed() {
  static const Curriculum curriculum =
      tutor::curriculum::load_curriculum(fs::path(TUTOR_SOURCE_DIR) / "data" / "curriculum.json");
  return curriculum;
}

Progress progress_of(const std::vector<std::string>& done, const std::vector<std::string>& in_progress = {}) {
  Progress progress;
  tutor::plan::apply(progress, Action::kDone, done, "2026-12-01T10:00:00Z");
  tutor::plan::apply(progress, Action::kStart, in_progress, "2026-12-02T10:00:00Z");
  return progress;
}

const tutor::plan::PathProgress& path_named(const Plan& plan, const std::string& name) {
  for (const auto& path : plan.paths)
    if (path.name == name) return path;
  throw std::runtime_error("no path " + name);
}

std::vector<std::string> next_ids(const Plan& plan) {
  std::vector<std::string> ids;
  for (const auto& next : plan.next_up) ids.push_back(next.id);
  return ids;
}

// ---- the plan of the committed curriculum ----------------------------------------------

TEST(Planner, NothingDoneLeavesEveryHourAndOffersTheModulesWithoutPrerequisites) {
  const Plan plan = tutor::plan::make_plan(committed(), Progress{});
  // Track A: A01 4 + A02 6 + A03 8 + A04 8 + A05 5 + A06 6 + A07 14 + A08 12 + A09 10 + A10 14
  //        + A11 6 + A12 6 + A13 14 + A14 6 + A15 10 + A16 8 = 137.
  // Track B: B01 4 + B02 6 + B03 8 + B04 6 + B05 8 + B06 8 + B07 10 = 50.
  // Track C: C01 5 + C02 10 + C03 10 + C04 6 + C05 8 + C06 8 + C07 12 = 59.
  ASSERT_EQ(plan.tracks.size(), 3u);
  EXPECT_EQ(plan.tracks[0].id, "A");
  EXPECT_EQ(plan.tracks[0].hours_total, 137);
  EXPECT_EQ(plan.tracks[0].hours_left, 137);
  EXPECT_EQ(plan.tracks[0].not_started, 16);
  EXPECT_EQ(plan.tracks[1].hours_left, 50);
  EXPECT_EQ(plan.tracks[1].not_started, 7);
  EXPECT_EQ(plan.tracks[2].hours_left, 59);
  EXPECT_EQ(plan.all.modules, 30);
  EXPECT_EQ(plan.all.hours_total, 137 + 50 + 59);
  EXPECT_EQ(plan.all.hours_left, 246);
  // Only A01 and B01 have no prerequisites; both are written.
  EXPECT_EQ(next_ids(plan), (std::vector<std::string>{"A01", "B01"}));
  EXPECT_TRUE(plan.in_progress.empty());
}

TEST(Planner, InProgressCountsAsLeftAndDoneModulesAreSubtracted) {
  // Done A01, B01, A02; B02 in progress.
  const Plan plan = tutor::plan::make_plan(committed(), progress_of({"A01", "B01", "A02"}, {"B02"}));
  const auto& a = plan.tracks[0];
  EXPECT_EQ(a.done, 2);
  EXPECT_EQ(a.in_progress, 0);
  EXPECT_EQ(a.not_started, 14);
  EXPECT_EQ(a.hours_left, 137 - 4 - 6);  // A01 4, A02 6
  const auto& b = plan.tracks[1];
  EXPECT_EQ(b.done, 1);
  EXPECT_EQ(b.in_progress, 1);
  EXPECT_EQ(b.not_started, 5);
  EXPECT_EQ(b.hours_left, 50 - 4);  // B01 4 done; B02's 6 h are still left while in progress
  EXPECT_EQ(plan.tracks[2].hours_left, 59);
  EXPECT_EQ(plan.all.done, 3);
  EXPECT_EQ(plan.all.in_progress, 1);
  EXPECT_EQ(plan.all.not_started, 26);
  EXPECT_EQ(plan.all.hours_left, 246 - 4 - 4 - 6);
  EXPECT_EQ(plan.in_progress, (std::vector<std::string>{"B02"}));
}

TEST(Planner, NextUpListsWrittenModulesFirstThenPlannedOnes) {
  // Done A01, B01, A02; B02 in progress. Ready (every prerequisite done, not done itself):
  // A03 (A02), A06 (A02, B01), B02 (A01, B01), B04 (A01). A07 waits for A06, B03 for A06 and
  // B02, A14 for A06, B05 for B02. Written first in curriculum order (A03, B02, B04), then the
  // planned A06. (Which are written comes from data/curriculum.json: update when a module lands.)
  const Plan plan = tutor::plan::make_plan(committed(), progress_of({"A01", "B01", "A02"}, {"B02"}));
  EXPECT_EQ(next_ids(plan), (std::vector<std::string>{"A03", "B02", "B04", "A06"}));
  EXPECT_TRUE(plan.next_up[0].available);
  EXPECT_FALSE(plan.next_up[0].in_progress);
  EXPECT_TRUE(plan.next_up[1].in_progress);
  EXPECT_TRUE(plan.next_up[2].available);
  EXPECT_FALSE(plan.next_up[3].available);
  EXPECT_EQ(plan.next_up[3].hours, 6);  // A06
}

TEST(Planner, ThePathsTheIssueNamesShowHoursLeftAndTheirNextModule) {
  const Plan plan = tutor::plan::make_plan(committed(), progress_of({"A01", "B01", "A02"}, {"B02"}));
  // Diagnostic core: B01 4, A01 4, B02 6, A02 6, A06 6, B03 8 = 34; left B02 + A06 + B03 = 20.
  const auto& diagnostic = path_named(plan, "Diagnostic core");
  EXPECT_EQ(diagnostic.modules, 6);
  EXPECT_EQ(diagnostic.done, 3);
  EXPECT_EQ(diagnostic.hours_total, 34);
  EXPECT_EQ(diagnostic.hours_left, 20);
  EXPECT_EQ(diagnostic.next, "B02");
  // Kernels: A01 4, A02 6, B01 4, A06 6, A07 14, B04 6, A08 12, A03 8, A11 6, A13 14 = 80;
  // left 80 - 4 - 6 - 4 = 66; next on the path after A01, A02, B01 is A06.
  const auto& kernels = path_named(plan, "Kernels");
  EXPECT_EQ(kernels.modules, 10);
  EXPECT_EQ(kernels.hours_total, 80);
  EXPECT_EQ(kernels.hours_left, 66);
  EXPECT_EQ(kernels.next, "A06");
  // Serving: B01 4, A01 4, B02 6, B04 6, B05 8, B06 8, C01 5, B07 10, C06 8, A02 6, A06 6,
  // A07 14, A08 12, C03 10, A03 8, A11 6, A13 14, C02 10, C04 6, C07 12 = 163; left 163 - 14.
  const auto& serving = path_named(plan, "Serving");
  EXPECT_EQ(serving.modules, 20);
  EXPECT_EQ(serving.hours_total, 163);
  EXPECT_EQ(serving.hours_left, 149);
  EXPECT_EQ(serving.next, "B02");
  // The four longer paths show too.
  EXPECT_EQ(path_named(plan, "Kernel writer").hours_left, 114 - 14);
  EXPECT_EQ(path_named(plan, "No GPU yet").next, "B02");
}

TEST(Planner, TheShortPathsStartWithTheModulesTheIssueNamesInThatOrder) {
  // B01 -> B02 -> B03, A01 -> A02 -> A07 -> A13, B05 -> B06 -> C07: the named modules keep
  // their order; the loader checks the prerequisites in between.
  auto order_of = [](const std::string& name, const std::vector<std::string>& named) {
    for (const auto& path : committed().paths) {
      if (path.name != name) continue;
      std::vector<std::string> kept;
      for (const std::string& id : path.module_ids)
        if (std::find(named.begin(), named.end(), id) != named.end()) kept.push_back(id);
      return kept;
    }
    return std::vector<std::string>{};
  };
  EXPECT_EQ(order_of("Diagnostic core", {"B01", "B02", "B03"}), (std::vector<std::string>{"B01", "B02", "B03"}));
  EXPECT_EQ(order_of("Kernels", {"A01", "A02", "A07", "A13"}),
            (std::vector<std::string>{"A01", "A02", "A07", "A13"}));
  EXPECT_EQ(order_of("Serving", {"B05", "B06", "C07"}), (std::vector<std::string>{"B05", "B06", "C07"}));
}

TEST(Planner, EverythingDoneLeavesNoHoursNothingNextAndEveryPathFinished) {
  std::vector<std::string> all;
  for (const auto& module : committed().modules) all.push_back(module.id);
  const Plan plan = tutor::plan::make_plan(committed(), progress_of(all));
  EXPECT_EQ(plan.all.hours_left, 0);
  EXPECT_EQ(plan.all.done, 30);
  EXPECT_TRUE(plan.next_up.empty());
  for (const auto& path : plan.paths) {
    EXPECT_EQ(path.hours_left, 0) << path.name;
    EXPECT_EQ(path.next, "") << path.name;
  }
}

TEST(Planner, ADoneModuleWhoseCurriculumEntryIsGoneIsKeptAndNamed) {
  const Plan plan = tutor::plan::make_plan(committed(), progress_of({"A01", "Z99"}));
  EXPECT_EQ(plan.unknown_ids, (std::vector<std::string>{"Z99"}));
  EXPECT_EQ(plan.all.done, 1);
}

TEST(Planner, PrerequisitesNotDoneAreListedInTheCurriculumsOrder) {
  // A07 needs A02 and A06 (curriculum.json); with A02 done only A06 is missing.
  EXPECT_EQ(tutor::plan::prerequisites_not_done(committed(), Progress{}, "A07"),
            (std::vector<std::string>{"A02", "A06"}));
  EXPECT_EQ(tutor::plan::prerequisites_not_done(committed(), progress_of({"A02"}), "A07"),
            (std::vector<std::string>{"A06"}));
  EXPECT_TRUE(tutor::plan::prerequisites_not_done(committed(), Progress{}, "A01").empty());
}

TEST(Planner, ASmallCurriculumPutsAWrittenModuleBeforeAnEarlierPlannedOne) {
  // A02 (planned) and A03 (available) both need only A01; with A01 done, A03 comes first.
  const Curriculum small = tutor::curriculum::parse_curriculum(R"({
    "tracks": [{"id": "A", "title": "Kernels"}],
    "modules": [
      {"id": "A01", "track": "A", "title": "One", "lab": "a01_lab", "folder": "trackA/a01_one",
       "what_you_build": "x", "prerequisites": [], "learner_hours": 2, "status": "available"},
      {"id": "A02", "track": "A", "title": "Two", "lab": "a02_lab", "folder": "trackA/a02_two",
       "what_you_build": "x", "prerequisites": ["A01"], "learner_hours": 3, "status": "planned"},
      {"id": "A03", "track": "A", "title": "Three", "lab": "a03_lab", "folder": "trackA/a03_three",
       "what_you_build": "x", "prerequisites": ["A01"], "learner_hours": 5, "status": "available"}],
    "paths": [{"name": "All", "description": "x", "modules": ["A01", "A02", "A03"]}]})");
  const Plan plan = tutor::plan::make_plan(small, progress_of({"A01"}, {"A02"}));
  EXPECT_EQ(next_ids(plan), (std::vector<std::string>{"A03", "A02"}));
  EXPECT_EQ(plan.all.hours_left, 3 + 5);
  ASSERT_EQ(plan.paths.size(), 1u);
  EXPECT_EQ(plan.paths[0].hours_left, 8);
  EXPECT_EQ(plan.paths[0].next, "A02");
}

// ---- module ids as the learner types them ----------------------------------------------

TEST(ModuleIds, CaseDoesNotMatter) {
  EXPECT_EQ(tutor::plan::canonical_module_id(committed(), "a02", "plan done"), "A02");
  EXPECT_EQ(tutor::plan::canonical_module_id(committed(), "C07", "plan done"), "C07");
  EXPECT_EQ(tutor::plan::canonical_module_ids(committed(), {"a02", "B01", "A02"}, "plan done"),
            (std::vector<std::string>{"A02", "B01"}));
}

TEST(ModuleIds, AnUnknownIdNamesItAndTheIdsThereAre) {
  try {
    tutor::plan::canonical_module_id(committed(), "Z99", "plan done");
    FAIL() << "Z99 was accepted";
  } catch (const tutor::UsageError& error) {
    EXPECT_STREQ(error.what(), "plan done: unknown module 'Z99'; the modules are A01..A16, B01..B07, C01..C07");
  }
  EXPECT_THROW(tutor::plan::canonical_module_id(committed(), "A2", "plan done"), tutor::UsageError);
  EXPECT_THROW(tutor::plan::canonical_module_id(committed(), "", "plan done"), tutor::UsageError);
}

TEST(ModuleIds, ALongUnknownIdIsCutSoTheLineStillNamesTheIds) {
  // 100,000 characters pasted by mistake: the first 21 and "...", then the list.
  try {
    tutor::plan::canonical_module_id(committed(), std::string(100000, 'a'), "plan done");
    FAIL() << "the long id was accepted";
  } catch (const tutor::UsageError& error) {
    EXPECT_EQ(std::string(error.what()), "plan done: unknown module '" + std::string(21, 'a') +
                                             "...'; the modules are A01..A16, B01..B07, C01..C07");
  }
}

TEST(ModuleIds, ATrackWithGapsIsListedIdById) {
  const Curriculum small = tutor::curriculum::parse_curriculum(R"({
    "tracks": [{"id": "A", "title": "Kernels"}, {"id": "B", "title": "Performance"}],
    "modules": [
      {"id": "A01", "track": "A", "title": "One", "lab": "a01_lab", "folder": "trackA/a01_one",
       "what_you_build": "x", "prerequisites": [], "learner_hours": 2, "status": "planned"},
      {"id": "A03", "track": "A", "title": "Three", "lab": "a03_lab", "folder": "trackA/a03_three",
       "what_you_build": "x", "prerequisites": [], "learner_hours": 2, "status": "planned"},
      {"id": "B02", "track": "B", "title": "Two", "lab": "b02_lab", "folder": "trackB/b02_two",
       "what_you_build": "x", "prerequisites": [], "learner_hours": 2, "status": "planned"},
      {"id": "B01", "track": "B", "title": "One", "lab": "b01_lab", "folder": "trackB/b01_one",
       "what_you_build": "x", "prerequisites": [], "learner_hours": 2, "status": "planned"}],
    "paths": []})");
  EXPECT_EQ(tutor::plan::module_id_ranges(small), "A01, A03, B01..B02");
}

// ---- the progress state ----------------------------------------------------------------

TEST(Progress, DoneStartUndoMoveAModuleAndEveryCommandIsInTheHistory) {
  Progress progress;
  auto changes = tutor::plan::apply(progress, Action::kStart, {"A02"}, "2026-12-01T09:00:00Z");
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].from, Stage::kNotStarted);
  EXPECT_EQ(changes[0].to, Stage::kInProgress);
  EXPECT_EQ(progress.modules.at("A02").since, "2026-12-01T09:00:00Z");

  tutor::plan::apply(progress, Action::kDone, {"A02"}, "2026-12-03T18:30:00Z");
  EXPECT_EQ(progress.stage("A02"), Stage::kDone);
  EXPECT_EQ(progress.modules.at("A02").since, "2026-12-03T18:30:00Z");

  // Done again: no change, the time it was done is kept, the command is still recorded.
  changes = tutor::plan::apply(progress, Action::kDone, {"A02"}, "2026-12-04T08:00:00Z");
  EXPECT_EQ(changes[0].from, changes[0].to);
  EXPECT_EQ(progress.modules.at("A02").since, "2026-12-03T18:30:00Z");

  tutor::plan::apply(progress, Action::kUndo, {"A02"}, "2026-12-05T08:00:00Z");
  EXPECT_EQ(progress.stage("A02"), Stage::kNotStarted);
  EXPECT_FALSE(progress.modules.contains("A02"));

  ASSERT_EQ(progress.history.size(), 4u);
  EXPECT_EQ(progress.history[0].action, "start");
  EXPECT_EQ(progress.history[1].action, "done");
  EXPECT_EQ(progress.history[3].action, "undo");
  EXPECT_EQ(progress.history[3].at, "2026-12-05T08:00:00Z");
  EXPECT_EQ(progress.history[3].modules, (std::vector<std::string>{"A02"}));
}

TEST(Progress, TheStateDocumentRoundTrips) {
  Progress progress = progress_of({"A01", "B01"}, {"A02"});
  progress.history.push_back({"2026-12-06T00:00:00Z", "reset", {}, "plan.json.reset-20261206T000000Z"});
  const nlohmann::json doc = tutor::plan::progress_to_json(progress);
  EXPECT_EQ(doc.at("schema"), "tutor-plan/1");
  EXPECT_EQ(doc.at("modules").at("A02").at("stage"), "in_progress");
  EXPECT_EQ(doc.at("modules").at("A01").at("stage"), "done");
  EXPECT_EQ(doc.at("history").back().at("kept"), "plan.json.reset-20261206T000000Z");
  const Progress read = tutor::plan::progress_from_json(doc);
  EXPECT_EQ(tutor::plan::progress_to_json(read), doc);
}

TEST(Progress, KeysOfALaterVersionSurviveAWrite) {
  const nlohmann::json base = {{"schema", "tutor-plan/1"}, {"goal", "finish B05 by June"}};
  const nlohmann::json doc = tutor::plan::progress_to_json(progress_of({"A01"}), base);
  EXPECT_EQ(doc.at("goal"), "finish B05 by June");
  EXPECT_TRUE(doc.at("modules").contains("A01"));
}

TEST(Progress, AMalformedStateNamesTheField) {
  auto why = [](const nlohmann::json& doc) {
    try {
      (void)tutor::plan::progress_from_json(doc);
    } catch (const std::runtime_error& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(why({{"modules", {{"A01", {{"stage", "finished"}, {"since", "2026-12-01T00:00:00Z"}}}}}}),
            "has a malformed \"modules\".A01.stage: must be \"in_progress\" or \"done\"");
  EXPECT_EQ(why({{"modules", {{"A01", {{"stage", "done"}, {"since", "yesterday"}}}}}}),
            "has a malformed \"modules\".A01.since: 'yesterday' is not a UTC time like 2026-12-02T09:30:00Z");
  EXPECT_EQ(why({{"modules", {{"a01", {{"stage", "done"}, {"since", "2026-12-01T00:00:00Z"}}}}}}),
            "has a malformed \"modules\".a01: the key must be a module id like A02");
  EXPECT_EQ(why({{"modules", nlohmann::json::array()}}),
            "has a malformed \"modules\": must be an object of module id -> {stage, since}");
  EXPECT_EQ(why({{"history", {{{"at", "2026-12-01T00:00:00Z"}}}}}),
            "has a malformed \"history\"[0].action: must be a string");
  EXPECT_EQ(why({{"history", {{{"at", "2026-12-01T00:00:00Z"}, {"action", "done"}, {"modules", {7}}}}}}),
            "has a malformed \"history\"[0].modules: must be a module id like A02");
  EXPECT_EQ(why({{"schema", "tutor-plan/1"}}), "accepted");  // a state with nothing in it yet
}

// ---- the view ---------------------------------------------------------------------------

TEST(PlanView, TheHoursBarNeverLooksFinishedEarlyOrEmptyLate) {
  const std::string full = "\u2588", light = "\u2591";
  auto bar = [&](int filled, int width) {
    std::string text;
    for (int i = 0; i < width; ++i) text += i < filled ? full : light;
    return text;
  };
  EXPECT_EQ(tutor::plan::hours_bar(0, 246, 20), bar(0, 20));
  EXPECT_EQ(tutor::plan::hours_bar(246, 246, 20), bar(20, 20));
  EXPECT_EQ(tutor::plan::hours_bar(123, 246, 20), bar(10, 20));  // half
  EXPECT_EQ(tutor::plan::hours_bar(1, 246, 20), bar(1, 20));      // 0.08 cells rounds up to one
  EXPECT_EQ(tutor::plan::hours_bar(245, 246, 20), bar(19, 20));   // 19.92 cells stays below full
  EXPECT_EQ(tutor::plan::hours_bar(0, 0, 4), bar(0, 4));
}

TEST(PlanView, TheTableNamesPlannedModulesAndSaysInProgressCountsAsLeft) {
  const Plan plan = tutor::plan::make_plan(committed(), progress_of({"A01", "B01", "A02"}, {"B02"}));
  const std::string text = tutor::plan::render_plan(plan, committed(), {.colour = false});
  EXPECT_NE(text.find("Study plan: 3 of 30 modules done, 232 of 246 learner-hours left"), std::string::npos) << text;
  EXPECT_NE(text.find("A module in progress counts as left"), std::string::npos);
  EXPECT_NE(text.find("A03  Parallel reduction"), std::string::npos);
  EXPECT_NE(text.find("(planned: not written yet)"), std::string::npos);
  EXPECT_NE(text.find("Diagnostic core"), std::string::npos);
  EXPECT_EQ(text.find('\033'), std::string::npos) << "colour codes without a terminal";
  EXPECT_NE(tutor::plan::render_plan(plan, committed(), {.colour = true}).find("\033[32m"), std::string::npos);
}

TEST(PlanView, TheJsonCarriesTheSameNumbers) {
  const Plan plan = tutor::plan::make_plan(committed(), progress_of({"A01", "B01", "A02"}, {"B02"}));
  const nlohmann::json doc = tutor::plan::plan_json(plan);
  EXPECT_EQ(doc.at("all").at("hours_left"), 232);
  EXPECT_EQ(doc.at("tracks").at(1).at("in_progress"), 1);
  EXPECT_EQ(doc.at("next_up").at(0).at("id"), "A03");
  EXPECT_EQ(doc.at("next_up").at(0).at("status"), "available");
  EXPECT_EQ(doc.at("next_up").at(3).at("id"), "A06");
  EXPECT_EQ(doc.at("next_up").at(3).at("status"), "planned");
  EXPECT_EQ(doc.at("in_progress"), nlohmann::json::array({"B02"}));
}

}  // namespace
