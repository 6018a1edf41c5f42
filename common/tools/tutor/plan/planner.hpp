#pragma once
// The plan: what is done, what is left in learner-hours, what the learner can start next, and
// how far along each learning path they are. Pure: the curriculum and the progress in, numbers
// out (the command prints them, the tests check them by hand).
#include <string>
#include <vector>

#include "plan/progress.hpp"
#include "tutor/curriculum.hpp"

namespace tutor::plan {

/// Counts for one track, or for all modules. A module in progress counts as left: its
/// learner_hours are all in hours_left until it is done (the curriculum gives no finer unit).
struct TrackProgress {
  std::string id;     ///< "A", "B", "C"; "all" for the whole curriculum
  std::string title;
  int modules = 0;
  int done = 0;
  int in_progress = 0;
  int not_started = 0;
  int hours_total = 0;
  int hours_left = 0;  ///< hours_total minus the hours of the done modules
};

/// A module the learner can take now: not done, and every prerequisite done.
struct NextModule {
  std::string id;
  std::string title;
  int hours = 0;
  bool available = false;    ///< written ("available"); else planned, not written yet
  bool in_progress = false;
};

struct PathProgress {
  std::string name;
  int modules = 0;
  int done = 0;
  int hours_total = 0;
  int hours_left = 0;
  std::string next;  ///< the first module on the path not done; "" when the path is finished
};

struct Plan {
  std::vector<TrackProgress> tracks;  ///< in the curriculum's track order
  TrackProgress all;
  std::vector<NextModule> next_up;    ///< available modules first, then planned, each in curriculum order
  std::vector<PathProgress> paths;    ///< in the curriculum's path order
  std::vector<std::string> in_progress;    ///< ids of the modules in progress, curriculum order
  std::vector<std::string> unknown_ids;    ///< ids in the progress the curriculum no longer has
};

Plan make_plan(const curriculum::Curriculum& curriculum, const Progress& progress);

/// The prerequisites of module `id` that are not done, in the curriculum's order for it.
std::vector<std::string> prerequisites_not_done(const curriculum::Curriculum& curriculum, const Progress& progress,
                                                const std::string& id);

}  // namespace tutor::plan
