#include "plan/plan_command.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <system_error>

#include "plan/module_ids.hpp"
#include "plan/plan_view.hpp"
#include "plan/planner.hpp"
#include "plan/progress.hpp"
#include "study/data_root.hpp"
#include "study/now.hpp"
#include "study/state_store.hpp"
#include "tutor/cli.hpp"
#include "tutor/curriculum.hpp"
#include "tutor/version.hpp"

namespace tutor::plan {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kStateFile = "plan.json";

/// The options of `tutor plan` that may follow a change ("plan done A02 --now ..."): CLI11
/// lists a subcommand's own options only, so its help names these in a footer.
constexpr const char* kParentOptions =
    "Options of `tutor plan` may follow the module ids:\n"
    "  --state-dir DIR   where your progress is kept [default: $XDG_STATE_HOME/gpu-ml-tutor, else "
    "~/.local/state/gpu-ml-tutor]\n"
    "  --data DIR        the tutor's data folder (its curriculum.json) [default: ./data, else the source tree's]\n"
    "  --now TIME        the time the change is recorded at, UTC (2026-12-02T09:30:00Z or 2026-12-02)\n"
    "  --json PATH|-     the plan as JSON too ('-': standard output)";

/// ANSI colour only where a person reads it: the table goes to a terminal on stdout, and
/// NO_COLOR is unset or empty (no-color.org: "when present and not an empty string").
bool use_colour(std::FILE* human) {
  const char* no_colour = std::getenv("NO_COLOR");
  return human == stdout && ::isatty(STDOUT_FILENO) == 1 && (no_colour == nullptr || *no_colour == '\0');
}

curriculum::Curriculum load_curriculum(const std::string& data_override) {
  const fs::path file = study::data_root(data_override) / "curriculum.json";
  try {
    return curriculum::load_curriculum(file);
  } catch (const std::runtime_error& error) {
    throw UsageError(fmt::format("--data: {}", error.what()));
  }
}

/// The state document and its progress, or empty ones when there is no state yet. Call it
/// with the state lock held.
std::pair<json, Progress> read_state(const fs::path& file) {
  const std::optional<json> doc =
      study::load_state(file, kPlanSchema, [](const json& loaded) { (void)progress_from_json(loaded); });
  if (!doc) return {json::object(), Progress{}};
  return {*doc, progress_from_json(*doc)};
}

/// "20261202T093000Z" for the name the old state is kept under.
std::string file_stamp(study::Instant at) {
  std::string text = study::to_iso8601(at);  // 2026-12-02T09:30:00Z
  std::erase(text, '-');
  std::erase(text, ':');
  return text;
}

/// Renames the state file to plan.json.reset-<stamp> (a name no file has) and returns that name.
std::string keep_for_reset(const fs::path& file, study::Instant at) {
  const std::string base = file.filename().string() + ".reset-" + file_stamp(at);
  std::string name = base;
  for (int n = 2; fs::exists(fs::symlink_status(file.parent_path() / name)); ++n) name = base + "-" + std::to_string(n);
  std::error_code ec;
  fs::rename(file, file.parent_path() / name, ec);
  if (ec)
    throw UsageError(fmt::format("--state-dir: cannot keep {} as {} ({}); nothing was reset", file.string(), name,
                                 ec.message()));
  return name;
}

}  // namespace

PlanCommand::PlanCommand(CLI::App& app) {
  sub_ = app.add_subcommand("plan",
                            "your progress through the modules: done, in progress, learner-hours left per track, "
                            "what you can start next and how far along each learning path you are; "
                            "`plan done A02` ticks a module off. Exit 0, or 2 on bad input");
  sub_->add_option("--state-dir", state_dir_, "where your progress is kept [default: $XDG_STATE_HOME/gpu-ml-tutor, "
                                              "else ~/.local/state/gpu-ml-tutor]")
      ->option_text("DIR");
  sub_->add_option("--data", data_, "the tutor's data folder (its curriculum.json) [default: ./data, else the "
                                    "source tree's]")
      ->option_text("DIR");
  sub_->add_option("--now", now_, "the time a change is recorded at, UTC (2026-12-02T09:30:00Z or 2026-12-02) "
                                  "[default: the clock]")
      ->option_text("TIME");
  out_ = std::make_unique<Outputs>(*sub_);

  auto action = [&](const char* name, const char* help, std::vector<std::string>& ids) {
    CLI::App* sub = sub_->add_subcommand(name, help);
    // Not required() here: a missing id is refused in run(), where the message can name the ids.
    sub->add_option("modules", ids, "module ids, any case (A02 or a02)")->option_text("MODULE...");
    sub->fallthrough();  // --now, --json ... may follow the modules
    sub->footer(kParentOptions);
    return sub;
  };
  done_ = action("done", "mark modules done (allowed before their prerequisites, with a note)", done_ids_);
  start_ = action("start", "mark modules in progress", start_ids_);
  undo_ = action("undo", "put modules back to not started", undo_ids_);
  reset_ = sub_->add_subcommand("reset", "start over from nothing done; the old state is kept as "
                                         "plan.json.reset-<UTC time> beside it");
  reset_->add_flag("--yes", yes_, "confirm the reset");
  reset_->fallthrough();
  reset_->footer(kParentOptions);
  sub_->require_subcommand(0, 1);
}

int PlanCommand::run(const std::string& command) {
  // An empty --state-dir (an unset shell variable) must not silently mean the default folder.
  if (sub_->get_option("--state-dir")->count() > 0 && state_dir_.empty())
    throw UsageError("--state-dir: the path is empty; give a folder");
  const fs::path dir = study::state_dir(state_dir_);
  const fs::path file = dir / kStateFile;
  const study::Instant now = study::now_or(now_);
  const std::string at = study::to_iso8601(now);
  const curriculum::Curriculum curriculum = load_curriculum(data_);
  // The output may be neither the state nor the curriculum it reads.
  out_->check({{"--state-dir", file.string()}, {"--data", (study::data_root(data_) / "curriculum.json").string()}});
  if (reset_->parsed() && !yes_)
    throw UsageError(fmt::format("plan reset: give --yes to start over; {} would be kept as {}.reset-{}",
                                 file.string(), kStateFile, file_stamp(now)));

  std::optional<Action> action;
  std::vector<std::string> typed;
  if (done_->parsed()) action = Action::kDone, typed = done_ids_;
  if (start_->parsed()) action = Action::kStart, typed = start_ids_;
  if (undo_->parsed()) action = Action::kUndo, typed = undo_ids_;
  if (action && typed.empty())
    throw UsageError(fmt::format("plan {}: give one or more module ids; the modules are {}", to_string(*action),
                                 module_id_ranges(curriculum)));
  const std::vector<std::string> ids =
      action ? canonical_module_ids(curriculum, typed, fmt::format("plan {}", to_string(*action)))
             : std::vector<std::string>{};

  const ViewOptions view{.colour = use_colour(out_->human())};
  std::string head;  // what the command did, printed above the table
  std::vector<std::string> notes;
  std::vector<Change> changes;
  Progress progress;
  {
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(file, ec);
    const bool exists = fs::exists(status);
    if (ec && status.type() != fs::file_type::not_found)  // not found: no state yet
      throw UsageError(fmt::format("--state-dir: cannot look for {}: {}", file.string(), ec.message()));
    std::optional<study::StateLock> lock;
    // Looking needs no lock while there is no state; a change always takes it.
    if (exists || action || reset_->parsed()) lock.emplace(dir);
    if (reset_->parsed()) {
      if (fs::exists(fs::symlink_status(file, ec))) {
        const std::string kept = keep_for_reset(file, now);
        progress.history.push_back({at, "reset", {}, kept});
        study::save_state(file, progress_to_json(progress));
        head = fmt::format("Reset: your previous progress is kept in {}.\n", (dir / kept).string());
      } else {
        head = fmt::format("Nothing to reset: {} does not exist.\n", file.string());
      }
    } else if (exists || action) {
      json doc;
      std::tie(doc, progress) = read_state(file);
      if (action) {
        changes = apply(progress, *action, ids, at);
        for (const Change& change : changes) {
          if (change.to == Stage::kNotStarted || change.from == change.to) continue;
          const std::vector<std::string> missing = prerequisites_not_done(curriculum, progress, change.id);
          if (!missing.empty())
            notes.push_back(fmt::format("note: {} is {} before its prerequisite{} {} (not done); that is allowed",
                                        change.id, to_string(change.to), missing.size() > 1 ? "s" : "",
                                        fmt::join(missing, ", ")));
        }
        study::save_state(file, progress_to_json(progress, std::move(doc)));
        head = render_changes(changes, view);
      }
    }
  }

  const Plan plan = make_plan(curriculum, progress);
  std::string text = head;
  for (const std::string& note : notes) text += note + "\n";
  if (!text.empty()) text += "\n";
  text += render_plan(plan, curriculum, view);
  std::error_code ec;
  text += fmt::format("\nstate: {}{}\n", file.string(), fs::exists(file, ec) ? "" : " (none yet)");
  std::fputs(text.c_str(), out_->human());

  json record = {{"schema", "tutor-plan-view/1"}, {"tool", "tutor plan"}, {"version", kVersion},
                 {"command", command},            {"now", at},            {"state_file", file.string()}};
  record.update(plan_json(plan));
  record["modules"] = progress_to_json(progress).at("modules");
  if (action || reset_->parsed()) {
    json done = json::array();
    for (const Change& change : changes)
      done.push_back({{"id", change.id}, {"from", to_string(change.from)}, {"to", to_string(change.to)}});
    record["action"] = reset_->parsed() ? std::string("reset") : std::string(to_string(*action));
    record["changes"] = done;
    record["notes"] = notes;
  }
  out_->write_json(record);
  return kExitOk;
}

}  // namespace tutor::plan
