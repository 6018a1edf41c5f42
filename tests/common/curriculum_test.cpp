// The curriculum data (data/curriculum.json), its validation, and the committed
// CURRICULUM.md that is rendered from it. Expected counts come from CURRICULUM-SPEC.md
// (track A: A01-A16, track B: B01-B07, track C: C01-C07).
#include "tutor/curriculum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using tutor::curriculum::Curriculum;
using tutor::curriculum::Module;
using tutor::curriculum::Status;

const fs::path kSourceDir{TUTOR_SOURCE_DIR};

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << file;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const Curriculum& committed_curriculum() {
  static const Curriculum curriculum =
      tutor::curriculum::load_curriculum(kSourceDir / "data" / "curriculum.json");
  return curriculum;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- small hand-written curricula for the validation rules --------------------------

std::string module_json(const std::string& id, const std::string& prerequisites,
                        int learner_hours = 2) {
  std::string folder_id = id;
  std::transform(folder_id.begin(), folder_id.end(), folder_id.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return R"({"id": ")" + id + R"(", "track": "A", "title": "Module )" + id +
         R"(", "lab": ")" + folder_id + R"(_lab", "folder": "trackA/)" + folder_id +
         R"(_topic", "what_you_build": "something", "prerequisites": [)" + prerequisites +
         R"(], "learner_hours": )" + std::to_string(learner_hours) + R"(, "status": "planned"})";
}

std::string curriculum_json(const std::vector<std::string>& modules,
                            const std::string& paths = "[]") {
  std::string joined;
  for (const std::string& module : modules) joined += (joined.empty() ? "" : ",\n") + module;
  return R"({"tracks": [{"id": "A", "title": "Kernels"}], "modules": [)" + joined +
         R"(], "paths": )" + paths + "}";
}

// The message parse_curriculum throws, or "accepted" if it throws nothing.
std::string rejection(const std::string& json_text) {
  try {
    tutor::curriculum::parse_curriculum(json_text);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "accepted";
}

}  // namespace

// ---- the committed data and file -----------------------------------------------------

TEST(CurriculumMarkdown, CommittedFileEqualsTheRenderingOfTheData) {
  const std::string committed = read_text(kSourceDir / "CURRICULUM.md");
  const std::string rendered = tutor::curriculum::render_markdown(committed_curriculum());
  EXPECT_EQ(committed, rendered)
      << "CURRICULUM.md is stale; regenerate it: ./build-host/tutor_curriculum "
         "--data data/curriculum.json --out CURRICULUM.md";
}

TEST(CurriculumMarkdown, SaysItIsGeneratedAndDrawsEveryModuleAndPath) {
  const Curriculum& curriculum = committed_curriculum();
  const std::string markdown = tutor::curriculum::render_markdown(curriculum);
  EXPECT_TRUE(contains(markdown, "Generated from `data/curriculum.json` by `tutor_curriculum`"));
  EXPECT_TRUE(contains(markdown, "do not edit by hand"));
  EXPECT_TRUE(contains(markdown, "```mermaid\ngraph LR\n"));
  for (const Module& module : curriculum.modules) {
    EXPECT_TRUE(contains(markdown, "    " + module.id + "[\"" + module.id + " ")) << module.id;
    EXPECT_TRUE(contains(markdown, "\n| " + module.id + " | ")) << module.id;
    for (const std::string& prerequisite : module.prerequisites) {
      EXPECT_TRUE(contains(markdown, "  " + prerequisite + " --> " + module.id + "\n"))
          << prerequisite << " --> " << module.id;
    }
  }
  for (const auto& path : curriculum.paths) {
    EXPECT_TRUE(contains(markdown, "### " + path.name + "\n")) << path.name;
  }
}

TEST(CurriculumData, HasThirtyModules_SixteenInA_SevenInB_SevenInC) {
  const Curriculum& curriculum = committed_curriculum();
  std::map<std::string, int> per_track;
  for (const Module& module : curriculum.modules) ++per_track[module.track];
  EXPECT_EQ(curriculum.modules.size(), 30u);
  EXPECT_EQ(per_track["A"], 16);
  EXPECT_EQ(per_track["B"], 7);
  EXPECT_EQ(per_track["C"], 7);
}

TEST(CurriculumData, IdsAreExactlyA01ToA16_B01ToB07_C01ToC07InOrder) {
  std::vector<std::string> expected;
  for (const auto& [track, count] : std::vector<std::pair<char, int>>{{'A', 16}, {'B', 7}, {'C', 7}}) {
    for (int number = 1; number <= count; ++number) {
      expected.push_back(std::string(1, track) + (number < 10 ? "0" : "") + std::to_string(number));
    }
  }
  std::vector<std::string> ids;
  for (const Module& module : committed_curriculum().modules) ids.push_back(module.id);
  EXPECT_EQ(ids, expected);
}

TEST(CurriculumData, EveryLabIsNamedAfterItsModuleOrIsAScriptCollection) {
  for (const Module& module : committed_curriculum().modules) {
    std::string prefix = module.id + "_";
    std::transform(prefix.begin(), prefix.end(), prefix.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const bool executable = module.lab.rfind(prefix, 0) == 0;
    const bool scripts = module.lab == "triton labs" || module.lab == "python labs";
    EXPECT_TRUE(executable || scripts) << module.id << ": lab '" << module.lab << "'";
  }
}

TEST(CurriculumData, PrerequisitesExistAndTheGraphIsAcyclic) {
  const Curriculum& curriculum = committed_curriculum();
  const std::vector<std::string> order = tutor::curriculum::topological_order(curriculum);
  ASSERT_EQ(order.size(), curriculum.modules.size());
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  ASSERT_EQ(position.size(), curriculum.modules.size()) << "an id appears twice in the order";
  for (const Module& module : curriculum.modules) {
    for (const std::string& prerequisite : module.prerequisites) {
      ASSERT_TRUE(position.contains(prerequisite)) << module.id << " needs unknown " << prerequisite;
      EXPECT_LT(position[prerequisite], position[module.id]) << prerequisite << " -> " << module.id;
    }
  }
}

TEST(CurriculumData, EveryPathPutsEachPrerequisiteEarlierOnTheSamePath) {
  const Curriculum& curriculum = committed_curriculum();
  EXPECT_GE(curriculum.paths.size(), 3u);
  for (const auto& path : curriculum.paths) {
    std::set<std::string> earlier;
    for (const std::string& id : path.module_ids) {
      for (const std::string& prerequisite : curriculum.module(id).prerequisites) {
        EXPECT_TRUE(earlier.contains(prerequisite))
            << path.name << ": " << id << " needs " << prerequisite;
      }
      earlier.insert(id);
    }
  }
}

TEST(CurriculumData, AvailableExactlyWhereTheLabFolderHasACMakeLists) {
  for (const Module& module : committed_curriculum().modules) {
    const fs::path cmake_lists = kSourceDir / module.folder / "CMakeLists.txt";
    if (module.status == Status::kAvailable) {
      EXPECT_TRUE(fs::exists(cmake_lists)) << module.id << " is available but " << cmake_lists
                                           << " does not exist";
    } else {
      EXPECT_FALSE(fs::exists(cmake_lists))
          << module.id << " is planned but " << cmake_lists
          << " exists; mark it available in data/curriculum.json";
    }
  }
}

TEST(CurriculumReadme, ModuleTableMarksExactlyTheAvailableModules) {
  // README.md's module table: one row per module, "**available**" exactly where the data
  // says so, so the front page never advertises a lab that does not exist.
  const std::string readme = read_text(kSourceDir / "README.md");
  for (const Module& module : committed_curriculum().modules) {
    const auto row_start = readme.find("| " + module.id + " |");
    ASSERT_NE(row_start, std::string::npos) << "README.md has no row for " << module.id;
    const std::string row = readme.substr(row_start, readme.find('\n', row_start) - row_start);
    EXPECT_EQ(contains(row, "**available**"), module.status == Status::kAvailable)
        << module.id << ": README row '" << row << "' disagrees with data/curriculum.json";
  }
}

// ---- validation of hand-written curricula --------------------------------------------

TEST(CurriculumValidation, AcceptsASmallDagAndOrdersItPrerequisitesFirst) {
  // JSON order A02, A01, A03; A02 and A03 both need A01. Only A01 is ready at first; then
  // A02 and A03 are ready together and A02 goes first because the JSON lists it first.
  const Curriculum curriculum = tutor::curriculum::parse_curriculum(curriculum_json(
      {module_json("A02", R"("A01")", 3), module_json("A01", "", 2),
       module_json("A03", R"("A01")", 4)},
      R"([{"name": "Short", "description": "two modules", "modules": ["A01", "A03"]}])"));
  EXPECT_EQ(tutor::curriculum::topological_order(curriculum),
            (std::vector<std::string>{"A01", "A02", "A03"}));
  EXPECT_EQ(tutor::curriculum::total_hours(curriculum), 2 + 3 + 4);
  ASSERT_EQ(curriculum.paths.size(), 1u);
  EXPECT_EQ(tutor::curriculum::total_hours(curriculum, curriculum.paths[0]), 2 + 4);
}

TEST(CurriculumValidation, RejectsACycleAndSpellsItOut) {
  const std::string message = rejection(curriculum_json(
      {module_json("A01", R"("A03")"), module_json("A02", R"("A01")"),
       module_json("A03", R"("A02")")}));
  EXPECT_TRUE(contains(message, "cycle")) << message;
  EXPECT_TRUE(contains(message, "A01")) << message;
  EXPECT_TRUE(contains(message, "A02")) << message;
  EXPECT_TRUE(contains(message, "A03")) << message;
  EXPECT_FALSE(contains(message, "\n")) << message;
}

TEST(CurriculumValidation, RejectsAModuleThatIsItsOwnPrerequisite) {
  const std::string message = rejection(curriculum_json({module_json("A01", R"("A01")")}));
  EXPECT_TRUE(contains(message, "module A01")) << message;
  EXPECT_TRUE(contains(message, "cycle")) << message;
}

TEST(CurriculumValidation, RejectsAnUnknownPrerequisiteNamingTheModule) {
  const std::string message =
      rejection(curriculum_json({module_json("A01", ""), module_json("A02", R"("A09")")}));
  EXPECT_TRUE(contains(message, "module A02")) << message;
  EXPECT_TRUE(contains(message, "A09")) << message;
  EXPECT_FALSE(contains(message, "\n")) << message;
}

TEST(CurriculumValidation, RejectsADuplicateId) {
  const std::string message =
      rejection(curriculum_json({module_json("A01", ""), module_json("A01", "")}));
  EXPECT_TRUE(contains(message, "module A01")) << message;
  EXPECT_TRUE(contains(message, "twice")) << message;
}

TEST(CurriculumValidation, RejectsAPathNamingAnUnknownModule) {
  const std::string message = rejection(curriculum_json(
      {module_json("A01", "")},
      R"([{"name": "Broken", "description": "names a module that is not there", "modules": ["A01", "Z99"]}])"));
  EXPECT_TRUE(contains(message, "Broken")) << message;
  EXPECT_TRUE(contains(message, "Z99")) << message;
}

TEST(CurriculumValidation, RejectsAPathThatSkipsAPrerequisite) {
  const std::string message = rejection(curriculum_json(
      {module_json("A01", ""), module_json("A02", R"("A01")")},
      R"([{"name": "Skipper", "description": "starts at A02", "modules": ["A02"]}])"));
  EXPECT_TRUE(contains(message, "Skipper")) << message;
  EXPECT_TRUE(contains(message, "A02 needs A01")) << message;
}

TEST(CurriculumValidation, RejectsAMisspeltField) {
  std::string module = module_json("A01", "");
  module.replace(module.find("\"prerequisites\""), 15, "\"prerequisite\"");
  const std::string message = rejection(curriculum_json({module}));
  EXPECT_TRUE(contains(message, "module A01")) << message;
  EXPECT_TRUE(contains(message, "prerequisite")) << message;
}

TEST(CurriculumValidation, RejectsInvalidJsonOnOneLine) {
  const std::string message = rejection(R"({"tracks": [}")");
  EXPECT_TRUE(contains(message, "invalid JSON")) << message;
  EXPECT_FALSE(contains(message, "\n")) << message;
}
