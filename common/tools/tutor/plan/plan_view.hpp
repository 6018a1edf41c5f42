#pragma once
// The plan as the learner reads it (a terminal table) and as a program reads it (JSON).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/planner.hpp"

namespace tutor::plan {

struct ViewOptions {
  bool colour = false;  ///< ANSI colour: only on a terminal and without NO_COLOR (the command decides)
};

/// The plan's table: one line per track with its hours bar, the modules in progress, next up,
/// and the learning paths. Ends with a newline.
std::string render_plan(const Plan& plan, const curriculum::Curriculum& curriculum, const ViewOptions& view);

/// "B01 -> done" lines of a command, before the table.
std::string render_changes(const std::vector<Change>& changes, const ViewOptions& view);

/// The plan as JSON: "tracks", "all", "in_progress", "next_up", "paths", "unknown_modules".
nlohmann::json plan_json(const Plan& plan);

/// A bar of `width` cells for the share `done` of `total` (rounded to the nearest cell; any
/// share above 0 shows at least one cell and any share below all at most width - 1, so a
/// nearly finished track never looks finished).
std::string hours_bar(int done, int total, int width);

}  // namespace tutor::plan
