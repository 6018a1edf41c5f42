#include "plan/planner.hpp"

#include <algorithm>

namespace tutor::plan {

namespace {

void count(TrackProgress& track, const curriculum::Module& module, Stage stage) {
  ++track.modules;
  track.hours_total += module.learner_hours;
  switch (stage) {
    case Stage::kDone: ++track.done; return;
    case Stage::kInProgress: ++track.in_progress; break;
    case Stage::kNotStarted: ++track.not_started; break;
  }
  track.hours_left += module.learner_hours;
}

}  // namespace

std::vector<std::string> prerequisites_not_done(const curriculum::Curriculum& curriculum, const Progress& progress,
                                                const std::string& id) {
  std::vector<std::string> missing;
  for (const std::string& prerequisite : curriculum.module(id).prerequisites)
    if (progress.stage(prerequisite) != Stage::kDone) missing.push_back(prerequisite);
  return missing;
}

Plan make_plan(const curriculum::Curriculum& curriculum, const Progress& progress) {
  Plan plan;
  plan.all.id = "all";
  plan.all.title = "all tracks";
  for (const auto& track : curriculum.tracks) {
    TrackProgress counts;
    counts.id = track.id;
    counts.title = track.title;
    for (const auto& module : curriculum.modules)
      if (module.track == track.id) count(counts, module, progress.stage(module.id));
    plan.tracks.push_back(counts);
  }
  for (const auto& module : curriculum.modules) count(plan.all, module, progress.stage(module.id));

  std::vector<NextModule> planned;
  for (const auto& module : curriculum.modules) {
    const Stage stage = progress.stage(module.id);
    if (stage == Stage::kInProgress) plan.in_progress.push_back(module.id);
    if (stage == Stage::kDone || !prerequisites_not_done(curriculum, progress, module.id).empty()) continue;
    const bool available = module.status == curriculum::Status::kAvailable;
    (available ? plan.next_up : planned)
        .push_back({module.id, module.title, module.learner_hours, available, stage == Stage::kInProgress});
  }
  plan.next_up.insert(plan.next_up.end(), planned.begin(), planned.end());

  for (const auto& path : curriculum.paths) {
    PathProgress counts;
    counts.name = path.name;
    for (const std::string& id : path.module_ids) {
      const int hours = curriculum.module(id).learner_hours;
      ++counts.modules;
      counts.hours_total += hours;
      if (progress.stage(id) == Stage::kDone) {
        ++counts.done;
      } else {
        counts.hours_left += hours;
        if (counts.next.empty()) counts.next = id;
      }
    }
    plan.paths.push_back(counts);
  }

  for (const auto& [id, module] : progress.modules)
    if (!curriculum.has_module(id)) plan.unknown_ids.push_back(id);
  return plan;
}

}  // namespace tutor::plan
