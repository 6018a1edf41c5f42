#include "plan/plan_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tutor::plan {
namespace {

using nlohmann::json;

constexpr int kBarWidth = 20;

// ANSI SGR codes (ECMA-48 8.3.117): bold, dim, green, yellow.
std::string paint(const ViewOptions& view, const std::string& text, const char* sgr) {
  return view.colour ? fmt::format("\033[{}m{}\033[0m", sgr, text) : text;
}

json track_json(const TrackProgress& track) {
  return {{"id", track.id},
          {"title", track.title},
          {"modules", track.modules},
          {"done", track.done},
          {"in_progress", track.in_progress},
          {"not_started", track.not_started},
          {"hours_total", track.hours_total},
          {"hours_left", track.hours_left}};
}

std::string percent_done(int hours_left, int hours_total) {
  if (hours_total == 0) return "";
  return fmt::format("{:>3}%", static_cast<int>(std::floor(100.0 * (hours_total - hours_left) / hours_total)));
}

}  // namespace

std::string hours_bar(int done, int total, int width) {
  int filled = total > 0 ? static_cast<int>(std::lround(static_cast<double>(width) * done / total)) : 0;
  if (done > 0 && filled == 0) filled = 1;
  if (done < total && filled == width) filled = width - 1;
  filled = std::clamp(filled, 0, width);
  std::string bar;
  for (int i = 0; i < width; ++i) bar += i < filled ? "\u2588" : "\u2591";  // full block, light shade
  return bar;
}

std::string render_plan(const Plan& plan, const curriculum::Curriculum& curriculum, const ViewOptions& view) {
  std::string out;
  const TrackProgress& all = plan.all;
  out += paint(view, fmt::format("Study plan: {} of {} modules done, {} of {} learner-hours left", all.done,
                                 all.modules, all.hours_left, all.hours_total), "1");
  out += "\n\n";

  std::size_t title_width = all.title.size();
  for (const TrackProgress& track : plan.tracks) title_width = std::max(title_width, track.title.size() + 3);
  out += fmt::format("  {:<{}}  {:>5}  {:>11}  {:>11}  {:>13}\n", "track", title_width, "done", "in progress",
                     "not started", "hours left");
  auto track_line = [&](const TrackProgress& track, const std::string& label) {
    const std::string done = fmt::format("{:>5}", fmt::format("{}/{}", track.done, track.modules));
    const std::string doing = fmt::format("{:>11}", track.in_progress);
    out += fmt::format("  {:<{}}  {}  {}  {:>11}  {:>13}  {} {}\n", label, title_width,
                       track.done > 0 ? paint(view, done, "32") : done,
                       track.in_progress > 0 ? paint(view, doing, "33") : doing, track.not_started,
                       fmt::format("{:>3} of {:>3} h", track.hours_left, track.hours_total),
                       paint(view, hours_bar(track.hours_total - track.hours_left, track.hours_total, kBarWidth), "32"),
                       percent_done(track.hours_left, track.hours_total));
  };
  for (const TrackProgress& track : plan.tracks) track_line(track, track.id + "  " + track.title);
  track_line(all, all.title);
  out += "  A module in progress counts as left: its hours stay in \"hours left\" until it is done.\n";

  if (!plan.in_progress.empty()) {
    out += fmt::format("\n{}\n", paint(view, "In progress", "1"));
    for (const std::string& id : plan.in_progress) {
      const auto& module = curriculum.module(id);
      out += fmt::format("  {}  {} ({} h)\n", paint(view, id, "33"), module.title, module.learner_hours);
    }
  }

  out += fmt::format("\n{} (not done, every prerequisite done)\n", paint(view, "Next up", "1"));
  if (plan.next_up.empty()) out += "  nothing: every module is done\n";
  std::size_t next_width = 0;
  for (const NextModule& next : plan.next_up) next_width = std::max(next_width, next.title.size());
  for (const NextModule& next : plan.next_up) {
    std::string line = fmt::format("  {}  {:<{}}  {:>3} h", next.id, next.title, next_width, next.hours);
    if (next.in_progress) line += "  in progress";
    if (!next.available) line += "  (planned: not written yet)";
    out += fmt::format("{}\n", next.available ? line : paint(view, line, "2"));
  }

  out += fmt::format("\n{} (their modules in order: CURRICULUM.md)\n", paint(view, "Learning paths", "1"));
  std::size_t path_width = 0;
  for (const PathProgress& path : plan.paths) path_width = std::max(path_width, path.name.size());
  for (const PathProgress& path : plan.paths) {
    std::string next = paint(view, "finished", "32");
    if (!path.next.empty()) {
      const auto& module = curriculum.module(path.next);
      next = fmt::format("next: {} {}{}", module.id, module.title,
                         module.status == curriculum::Status::kAvailable ? "" : " (planned: not written yet)");
    }
    out += fmt::format("  {:<{}}  {:>5} done  {:>13}  {}\n", path.name, path_width,
                       fmt::format("{}/{}", path.done, path.modules),
                       fmt::format("{:>3} of {:>3} h", path.hours_left, path.hours_total), next);
  }

  if (!plan.unknown_ids.empty())
    out += fmt::format("\nThe state also holds {}, not in this curriculum; kept, not counted.\n",
                       fmt::join(plan.unknown_ids, ", "));
  return out;
}

std::string render_changes(const std::vector<Change>& changes, const ViewOptions& view) {
  std::string out;
  for (const Change& change : changes) {
    const std::string to(to_string(change.to));
    out += change.from == change.to
               ? fmt::format("{}: already {}\n", change.id, to)
               : fmt::format("{}: {} -> {}\n", change.id, to_string(change.from),
                             paint(view, to, change.to == Stage::kDone ? "32" : "33"));
  }
  return out;
}

json plan_json(const Plan& plan) {
  json tracks = json::array();
  for (const TrackProgress& track : plan.tracks) tracks.push_back(track_json(track));
  json next_up = json::array();
  for (const NextModule& next : plan.next_up)
    next_up.push_back({{"id", next.id},
                       {"title", next.title},
                       {"hours", next.hours},
                       {"status", next.available ? "available" : "planned"},
                       {"in_progress", next.in_progress}});
  json paths = json::array();
  for (const PathProgress& path : plan.paths)
    paths.push_back({{"name", path.name},
                     {"modules", path.modules},
                     {"done", path.done},
                     {"hours_total", path.hours_total},
                     {"hours_left", path.hours_left},
                     {"next", path.next.empty() ? json(nullptr) : json(path.next)}});
  return {{"tracks", tracks},
          {"all", track_json(plan.all)},
          {"hours_left_note", "a module in progress counts as left: all its hours until it is done"},
          {"in_progress", plan.in_progress},
          {"next_up", next_up},
          {"paths", paths},
          {"unknown_modules", plan.unknown_ids}};
}

}  // namespace tutor::plan
