#include "plan/progress.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "study/now.hpp"

namespace tutor::plan {
namespace {

using nlohmann::json;

/// The stage as the state file spells it (a JSON key's value, so no space).
std::string_view json_name(Stage stage) {
  switch (stage) {
    case Stage::kInProgress: return "in_progress";
    case Stage::kDone: return "done";
    case Stage::kNotStarted: break;
  }
  return "not_started";
}

bool is_module_id(const std::string& id) {
  return id.size() == 3 && id[0] >= 'A' && id[0] <= 'Z' && id[1] >= '0' && id[1] <= '9' && id[2] >= '0' &&
         id[2] <= '9';
}

[[noreturn]] void malformed(const std::string& where, const std::string& why) {
  throw std::runtime_error(fmt::format("has a malformed {}: {}", where, why));
}

std::string utc_time(const json& value, const std::string& where) {
  if (!value.is_string()) malformed(where, "must be a UTC time like 2026-12-02T09:30:00Z");
  const std::string text = value.get<std::string>();
  try {
    (void)study::from_iso8601(text);
  } catch (const std::runtime_error& error) {
    malformed(where, error.what());
  }
  return text;
}

std::string module_id(const json& value, const std::string& where) {
  if (!value.is_string() || !is_module_id(value.get<std::string>()))
    malformed(where, "must be a module id like A02");
  return value.get<std::string>();
}

}  // namespace

std::string_view to_string(Stage stage) {
  switch (stage) {
    case Stage::kInProgress: return "in progress";
    case Stage::kDone: return "done";
    case Stage::kNotStarted: break;
  }
  return "not started";
}

std::string_view to_string(Action action) {
  switch (action) {
    case Action::kDone: return "done";
    case Action::kStart: return "start";
    case Action::kUndo: break;
  }
  return "undo";
}

Stage Progress::stage(std::string_view id) const {
  const auto found = modules.find(std::string(id));
  return found == modules.end() ? Stage::kNotStarted : found->second.stage;
}

std::vector<Change> apply(Progress& progress, Action action, const std::vector<std::string>& ids,
                          const std::string& at) {
  const Stage target = action == Action::kDone    ? Stage::kDone
                       : action == Action::kStart ? Stage::kInProgress
                                                  : Stage::kNotStarted;
  std::vector<Change> changes;
  for (const std::string& id : ids) {
    const Stage from = progress.stage(id);
    changes.push_back({id, from, target});
    if (from == target) continue;
    if (target == Stage::kNotStarted) {
      progress.modules.erase(id);
    } else {
      progress.modules[id] = {target, at};
    }
  }
  progress.history.push_back({at, std::string(to_string(action)), ids, ""});
  return changes;
}

Progress progress_from_json(const json& doc) {
  Progress progress;
  if (const auto modules = doc.find("modules"); modules != doc.end()) {
    if (!modules->is_object()) malformed("\"modules\"", "must be an object of module id -> {stage, since}");
    for (const auto& [id, entry] : modules->items()) {
      const std::string where = fmt::format("\"modules\".{}", id);
      if (!is_module_id(id)) malformed(where, "the key must be a module id like A02");
      if (!entry.is_object()) malformed(where, "must be an object {\"stage\", \"since\"}");
      const auto stage = entry.find("stage");
      const std::string stage_name = stage != entry.end() && stage->is_string() ? stage->get<std::string>() : "";
      ModuleProgress module;
      if (stage_name == json_name(Stage::kDone)) {
        module.stage = Stage::kDone;
      } else if (stage_name == json_name(Stage::kInProgress)) {
        module.stage = Stage::kInProgress;
      } else {
        malformed(where + ".stage", "must be \"in_progress\" or \"done\"");
      }
      if (!entry.contains("since")) malformed(where + ".since", "is missing");
      module.since = utc_time(entry.at("since"), where + ".since");
      progress.modules.emplace(id, module);
    }
  }
  if (const auto history = doc.find("history"); history != doc.end()) {
    if (!history->is_array()) malformed("\"history\"", "must be an array of events");
    for (std::size_t i = 0; i < history->size(); ++i) {
      const json& entry = (*history)[i];
      const std::string where = fmt::format("\"history\"[{}]", i);
      if (!entry.is_object()) malformed(where, "must be an object {\"at\", \"action\", ...}");
      Event event;
      if (!entry.contains("at")) malformed(where + ".at", "is missing");
      event.at = utc_time(entry.at("at"), where + ".at");
      const auto action = entry.find("action");
      if (action == entry.end() || !action->is_string()) malformed(where + ".action", "must be a string");
      event.action = action->get<std::string>();
      if (const auto modules = entry.find("modules"); modules != entry.end()) {
        if (!modules->is_array()) malformed(where + ".modules", "must be an array of module ids");
        for (const json& id : *modules) event.modules.push_back(module_id(id, where + ".modules"));
      }
      if (const auto kept = entry.find("kept"); kept != entry.end()) {
        if (!kept->is_string()) malformed(where + ".kept", "must be a file name");
        event.kept = kept->get<std::string>();
      }
      progress.history.push_back(std::move(event));
    }
  }
  return progress;
}

json progress_to_json(const Progress& progress, json base) {
  if (!base.is_object()) base = json::object();
  base["schema"] = kPlanSchema;
  json modules = json::object();
  for (const auto& [id, module] : progress.modules)
    modules[id] = {{"stage", json_name(module.stage)}, {"since", module.since}};
  base["modules"] = std::move(modules);
  json history = json::array();
  for (const Event& event : progress.history) {
    json entry = {{"at", event.at}, {"action", event.action}};
    if (!event.modules.empty() || event.kept.empty()) entry["modules"] = event.modules;
    if (!event.kept.empty()) entry["kept"] = event.kept;
    history.push_back(std::move(entry));
  }
  base["history"] = std::move(history);
  return base;
}

}  // namespace tutor::plan
