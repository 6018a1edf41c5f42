#pragma once
// The curriculum as data (data/curriculum.json) and its rendering (CURRICULUM.md).
// The JSON is the single source: modules with their prerequisites and learner-hours,
// and learning paths through them. Loading validates it completely, so every tool
// downstream (the renderer, the study planner, the tests) can trust the graph.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tutor::curriculum {

/// "available": the module's folder exists and its lab builds; "planned": specified in
/// CURRICULUM-SPEC.md, not written yet.
enum class Status { kAvailable, kPlanned };

/// One track ("A": writing kernels, ...). `id` is one capital letter.
struct Track {
  std::string id;
  std::string title;
};

/// One module. `id` is the track letter and two digits ("A02"); `folder` is relative to
/// the repository root and starts with "track<letter>/<id in lower case>_"
/// ("trackA/a02_coalescing"); `lab` is the executable name or "triton labs" /
/// "python labs"; `prerequisites` are ids of other modules, in the order the JSON gives.
struct Module {
  std::string id;
  std::string track;
  std::string title;
  std::string lab;
  std::string folder;
  std::string what_you_build;
  std::vector<std::string> prerequisites;
  int learner_hours = 0;
  Status status = Status::kPlanned;
};

/// An ordered route through the modules. A valid path is prerequisite-closed and in
/// prerequisite order: every prerequisite of a module on it appears earlier on it, so a
/// learner who follows it never meets a module they are not ready for.
struct LearningPath {
  std::string name;
  std::string description;
  std::vector<std::string> module_ids;
};

/// The whole curriculum, in the order of the JSON file (which renders in that order).
struct Curriculum {
  std::vector<Track> tracks;
  std::vector<Module> modules;
  std::vector<LearningPath> paths;

  /// The module with this id. Throws std::out_of_range if there is none.
  const Module& module(std::string_view id) const;
  /// Whether a module with this id exists.
  bool has_module(std::string_view id) const;
};

/// "available" or "planned", as written in the JSON.
std::string_view to_string(Status status);

/// Parses and validates curriculum JSON text: {"tracks": [...], "modules": [...],
/// "paths": [...]}, each object with exactly the fields of the structs above ("modules"
/// for LearningPath::module_ids). Throws std::runtime_error with a one-line message that
/// names the offending module or path on: invalid JSON, a missing, mistyped or unknown
/// field, a malformed id or folder, an unknown track, a duplicate id, a prerequisite that
/// is not a module, a repeated prerequisite, a prerequisite cycle (the message spells out
/// the cycle, e.g. "A02 -> A03 -> A02"), learner_hours < 1, an unknown status, a path
/// naming an unknown module (or one twice), and a path that is not prerequisite-closed
/// and ordered.
Curriculum parse_curriculum(std::string_view json_text);

/// Reads `file` and parses it with parse_curriculum. Throws std::runtime_error naming the
/// file when it cannot be read, and whatever parse_curriculum throws.
Curriculum load_curriculum(const std::filesystem::path& file);

/// The module ids in an order where every module comes after all its prerequisites
/// (Kahn's algorithm; among modules that are ready together, the one earlier in the JSON
/// comes first, so the order is deterministic). Size == curriculum.modules.size().
/// Throws std::runtime_error if the graph has a cycle (parse_curriculum already rejects
/// one, so this happens only for a Curriculum built by hand).
std::vector<std::string> topological_order(const Curriculum& curriculum);

/// Sum of learner_hours over every module.
int total_hours(const Curriculum& curriculum);

/// Sum of learner_hours over the modules of `path`. Throws std::out_of_range if the path
/// names a module that is not in `curriculum`.
int total_hours(const Curriculum& curriculum, const LearningPath& path);

/// The complete text of CURRICULUM.md: a generated-file notice, a mermaid dependency graph
/// (one subgraph per track, available modules styled apart from planned ones), the module
/// table, the learning paths with their hours, and a legend. Ends with one newline;
/// deterministic (the same curriculum always renders to the same bytes).
std::string render_markdown(const Curriculum& curriculum);

}  // namespace tutor::curriculum
