#pragma once
// The learner's progress through the modules, as `tutor plan` keeps it in <state dir>/plan.json
// (schema "tutor-plan/1"): each module's stage with the UTC time it was reached, and the
// history of every command that changed it, oldest first, so nothing the learner did is lost.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tutor::plan {

inline constexpr std::string_view kPlanSchema = "tutor-plan/1";

enum class Stage { kNotStarted, kInProgress, kDone };

/// "not started", "in progress", "done" (as the table prints them).
std::string_view to_string(Stage stage);

/// What a command does to each module it names.
enum class Action { kDone, kStart, kUndo };

/// "done", "start", "undo" (the subcommand's name and the history's "action").
std::string_view to_string(Action action);

struct ModuleProgress {
  Stage stage = Stage::kNotStarted;
  std::string since;  ///< UTC time the module reached this stage, "2026-12-02T09:30:00Z"
};

/// One command that changed the state: done / start / undo with the modules it named, or reset
/// with the file the old state was kept in.
struct Event {
  std::string at;
  std::string action;
  std::vector<std::string> modules;
  std::string kept;  ///< reset: the name the previous state file was kept under
};

struct Progress {
  /// Modules started or done, by id; a module not started has no entry.
  std::map<std::string, ModuleProgress> modules;
  std::vector<Event> history;

  Stage stage(std::string_view id) const;
};

/// One module's stage before and after a command.
struct Change {
  std::string id;
  Stage from = Stage::kNotStarted;
  Stage to = Stage::kNotStarted;
};

/// Applies `action` to each of `ids` (canonical ids, each once) at time `at`, appends the
/// command to the history, and returns each module's change (from == to when it was already
/// there: the command is still recorded, since the learner gave it). A module keeps its
/// `since` when its stage does not change.
std::vector<Change> apply(Progress& progress, Action action, const std::vector<std::string>& ids,
                          const std::string& at);

/// Reads a plan state document whose "schema" was already checked. Throws std::runtime_error
/// with one line naming the field when "modules" or "history" is malformed (a stage that is
/// not "in progress" or "done", a time that is not UTC ISO 8601, a module id that is not a
/// capital letter and two digits).
Progress progress_from_json(const nlohmann::json& doc);

/// The state document: `base`'s other keys are kept (a later version's fields survive a write
/// by this one), "schema", "modules" and "history" are written from `progress`.
nlohmann::json progress_to_json(const Progress& progress, nlohmann::json base = nlohmann::json::object());

}  // namespace tutor::plan
