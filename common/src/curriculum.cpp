#include "tutor/curriculum.hpp"
#include "tutor/json_input.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace tutor::curriculum {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error("curriculum: " + what);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// A misspelt key ("prerequisite") would otherwise be ignored silently and the module
// would lose its edges, so every object is checked against its exact field list.
void require_only_keys(const json& object, std::initializer_list<std::string_view> allowed,
                       const std::string& where) {
  for (const auto& item : object.items()) {
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
      fail(fmt::format("{}: unknown field '{}'", where, item.key()));
    }
  }
}

const json& field(const json& object, const char* key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end()) fail(fmt::format("{}: missing field '{}'", where, key));
  return *found;
}

std::string string_field(const json& object, const char* key, const std::string& where) {
  const json& value = field(object, key, where);
  if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
    fail(fmt::format("{}: field '{}' must be a non-empty string", where, key));
  }
  const auto& text = value.get_ref<const std::string&>();
  if (text.find('\n') != std::string::npos) {
    fail(fmt::format("{}: field '{}' must be one line", where, key));
  }
  return text;
}

std::vector<std::string> string_array_field(const json& object, const char* key,
                                            const std::string& where) {
  const json& value = field(object, key, where);
  if (!value.is_array()) fail(fmt::format("{}: field '{}' must be an array of ids", where, key));
  std::vector<std::string> items;
  for (const json& item : value) {
    if (!item.is_string()) fail(fmt::format("{}: field '{}' must hold only strings", where, key));
    items.push_back(item.get<std::string>());
  }
  return items;
}

bool is_module_id(const std::string& id) {
  return id.size() == 3 && std::isupper(static_cast<unsigned char>(id[0])) &&
         std::isdigit(static_cast<unsigned char>(id[1])) &&
         std::isdigit(static_cast<unsigned char>(id[2]));
}

Track parse_track(const json& object, std::size_t index) {
  const std::string where = fmt::format("track #{}", index + 1);
  if (!object.is_object()) fail(where + ": must be an object");
  require_only_keys(object, {"id", "title"}, where);
  Track track{string_field(object, "id", where), string_field(object, "title", where)};
  if (track.id.size() != 1 || !std::isupper(static_cast<unsigned char>(track.id[0]))) {
    fail(fmt::format("track '{}': id must be one capital letter", track.id));
  }
  return track;
}

Module parse_module(const json& object, std::size_t index) {
  std::string where = fmt::format("module #{}", index + 1);
  if (!object.is_object()) fail(where + ": must be an object");
  Module module;
  module.id = string_field(object, "id", where);
  where = "module " + module.id;  // from here on, messages name the module
  if (!is_module_id(module.id)) {
    fail(where + ": id must be a track letter and two digits (e.g. A02)");
  }
  require_only_keys(object,
                    {"id", "track", "title", "lab", "folder", "what_you_build", "prerequisites",
                     "learner_hours", "status"},
                    where);
  module.track = string_field(object, "track", where);
  module.title = string_field(object, "title", where);
  module.lab = string_field(object, "lab", where);
  module.folder = string_field(object, "folder", where);
  module.what_you_build = string_field(object, "what_you_build", where);
  module.prerequisites = string_array_field(object, "prerequisites", where);

  if (module.id.substr(0, 1) != module.track) {
    fail(fmt::format("{}: id must start with its track letter '{}'", where, module.track));
  }
  const std::string folder_prefix = fmt::format("track{}/{}_", module.track, lower(module.id));
  if (module.folder.rfind(folder_prefix, 0) != 0 || module.folder.size() == folder_prefix.size()) {
    fail(fmt::format("{}: folder '{}' must look like '{}<topic>'", where, module.folder,
                     folder_prefix));
  }

  const json& hours = field(object, "learner_hours", where);
  if (!hours.is_number_integer() || hours.get<long long>() < 1 || hours.get<long long>() > 1000) {
    fail(where + ": field 'learner_hours' must be an integer from 1 to 1000");
  }
  module.learner_hours = hours.get<int>();

  const std::string status = string_field(object, "status", where);
  if (status == "available") {
    module.status = Status::kAvailable;
  } else if (status == "planned") {
    module.status = Status::kPlanned;
  } else {
    fail(fmt::format("{}: status '{}' must be 'available' or 'planned'", where, status));
  }
  return module;
}

LearningPath parse_path(const json& object, std::size_t index) {
  std::string where = fmt::format("path #{}", index + 1);
  if (!object.is_object()) fail(where + ": must be an object");
  LearningPath path;
  path.name = string_field(object, "name", where);
  where = fmt::format("path '{}'", path.name);
  require_only_keys(object, {"name", "description", "modules"}, where);
  path.description = string_field(object, "description", where);
  path.module_ids = string_array_field(object, "modules", where);
  if (path.module_ids.empty()) fail(where + ": lists no modules");
  return path;
}

// Depth-first search that reports the first cycle it closes, spelled along the
// prerequisite edges ("A02 needs A03 needs A02"), so the author sees which edge to cut.
void reject_cycles(const Curriculum& curriculum) {
  enum class Mark { kUnvisited, kOnStack, kDone };
  std::map<std::string, Mark, std::less<>> marks;
  for (const Module& module : curriculum.modules) marks[module.id] = Mark::kUnvisited;
  std::vector<std::string> stack;

  std::function<void(const Module&)> visit = [&](const Module& module) {
    marks[module.id] = Mark::kOnStack;
    stack.push_back(module.id);
    for (const std::string& prerequisite : module.prerequisites) {
      if (marks[prerequisite] == Mark::kOnStack) {
        const auto start = std::find(stack.begin(), stack.end(), prerequisite);
        std::string cycle;
        for (auto it = start; it != stack.end(); ++it) cycle += *it + " needs ";
        fail(fmt::format("module {}: prerequisite cycle: {}{}", prerequisite, cycle, prerequisite));
      }
      if (marks[prerequisite] == Mark::kUnvisited) visit(curriculum.module(prerequisite));
    }
    stack.pop_back();
    marks[module.id] = Mark::kDone;
  };
  for (const Module& module : curriculum.modules) {
    if (marks[module.id] == Mark::kUnvisited) visit(module);
  }
}

void validate_graph(const Curriculum& curriculum) {
  std::set<std::string, std::less<>> track_ids;
  for (const Track& track : curriculum.tracks) {
    if (!track_ids.insert(track.id).second) fail(fmt::format("track {} is declared twice", track.id));
  }
  std::set<std::string, std::less<>> ids;
  for (const Module& module : curriculum.modules) {
    if (!ids.insert(module.id).second) fail(fmt::format("module {} is declared twice", module.id));
    if (!track_ids.contains(module.track)) {
      fail(fmt::format("module {}: track '{}' is not declared in \"tracks\"", module.id, module.track));
    }
  }
  for (const Module& module : curriculum.modules) {
    std::set<std::string, std::less<>> seen;
    for (const std::string& prerequisite : module.prerequisites) {
      if (!ids.contains(prerequisite)) {
        fail(fmt::format("module {}: prerequisite '{}' is not a module", module.id, prerequisite));
      }
      if (!seen.insert(prerequisite).second) {
        fail(fmt::format("module {}: prerequisite {} is listed twice", module.id, prerequisite));
      }
    }
  }
  reject_cycles(curriculum);
}

void validate_paths(const Curriculum& curriculum) {
  std::set<std::string, std::less<>> names;
  for (const LearningPath& path : curriculum.paths) {
    const std::string where = fmt::format("path '{}'", path.name);
    if (!names.insert(path.name).second) fail(where + ": declared twice");
    std::set<std::string, std::less<>> earlier;
    for (const std::string& id : path.module_ids) {
      if (!curriculum.has_module(id)) fail(fmt::format("{}: module '{}' is not a module", where, id));
      if (earlier.contains(id)) fail(fmt::format("{}: module {} is listed twice", where, id));
      for (const std::string& prerequisite : curriculum.module(id).prerequisites) {
        if (!earlier.contains(prerequisite)) {
          fail(fmt::format("{}: module {} needs {}, which does not come earlier on the path", where,
                           id, prerequisite));
        }
      }
      earlier.insert(id);
    }
  }
}

// ---- rendering ----------------------------------------------------------------------

// A table cell must not contain the column separator.
std::string table_cell(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '|') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

// Mermaid labels are double-quoted; a quote inside one is written as an entity.
std::string mermaid_label(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '"') {
      escaped += "#quot;";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

// The anchor GitHub gives a heading: lower case, spaces to '-', punctuation dropped.
std::string heading_anchor(const std::string& heading) {
  std::string anchor;
  for (const char character : heading) {
    const auto c = static_cast<unsigned char>(character);
    if (std::isalnum(c) || c == '-' || c == '_') {
      anchor += static_cast<char>(std::tolower(c));
    } else if (c == ' ') {
      anchor += '-';
    }
  }
  return anchor;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) joined += separator;
    joined += items[i];
  }
  return joined;
}

bool is_executable_lab(const Module& module) { return module.lab.find(' ') == std::string::npos; }

std::string hours_text(int hours) { return fmt::format("{} h", hours); }

void render_header(const Curriculum& curriculum, std::string& out) {
  const auto available = std::count_if(curriculum.modules.begin(), curriculum.modules.end(),
                                       [](const Module& m) { return m.status == Status::kAvailable; });
  out += "# Curriculum: dependency graph and learning paths\n\n";
  out += "> Generated from `data/curriculum.json` by `tutor_curriculum`; do not edit by hand.\n";
  out += "> Edit the JSON, then run\n";
  out += "> `./build-host/tutor_curriculum --data data/curriculum.json --out CURRICULUM.md`;\n";
  out += "> the test `curriculum_tests` fails while this file and the data disagree.\n\n";
  out += fmt::format("{} modules in {} tracks, {} learner-hours in all; {} available, {} planned.\n\n",
                     curriculum.modules.size(), curriculum.tracks.size(), total_hours(curriculum),
                     available, curriculum.modules.size() - static_cast<std::size_t>(available));
  out += "| track | modules | learner-hours | available |\n";
  out += "| --- | ---: | ---: | ---: |\n";
  for (const Track& track : curriculum.tracks) {
    int modules = 0;
    int hours = 0;
    int track_available = 0;
    for (const Module& module : curriculum.modules) {
      if (module.track != track.id) continue;
      ++modules;
      hours += module.learner_hours;
      if (module.status == Status::kAvailable) ++track_available;
    }
    out += fmt::format("| {}: {} | {} | {} | {} |\n", track.id, table_cell(track.title), modules,
                       hours, track_available);
  }
  out += "\n";
}

void render_graph(const Curriculum& curriculum, std::string& out) {
  out += "## Dependency graph\n\n";
  out += "An arrow `X --> Y` means X is a prerequisite of Y. Available modules are green with a\n";
  out += "solid border; planned ones are grey with a dashed border.\n\n";
  out += "```mermaid\ngraph LR\n";
  for (const Track& track : curriculum.tracks) {
    out += fmt::format("  subgraph track{}[\"Track {}: {}\"]\n", track.id, track.id,
                       mermaid_label(track.title));
    for (const Module& module : curriculum.modules) {
      if (module.track != track.id) continue;
      out += fmt::format("    {}[\"{} {}\"]\n", module.id, module.id, mermaid_label(module.title));
    }
    out += "  end\n";
  }
  for (const std::string& id : topological_order(curriculum)) {
    for (const std::string& prerequisite : curriculum.module(id).prerequisites) {
      out += fmt::format("  {} --> {}\n", prerequisite, id);
    }
  }
  out += "  classDef available fill:#d3f9d8,stroke:#2b8a3e,stroke-width:3px,color:#000;\n";
  out += "  classDef planned fill:#f1f3f5,stroke:#868e96,stroke-width:1px,stroke-dasharray:5 4,color:#495057;\n";
  for (const Status status : {Status::kAvailable, Status::kPlanned}) {
    std::vector<std::string> ids;
    for (const Module& module : curriculum.modules) {
      if (module.status == status) ids.push_back(module.id);
    }
    if (!ids.empty()) out += fmt::format("  class {} {};\n", join(ids, ","), to_string(status));
  }
  out += "```\n\n";
}

void render_table(const Curriculum& curriculum, std::string& out) {
  out += "## Modules\n\n";
  out += "| id | module | lab | what you build | hours | prerequisites | status |\n";
  out += "| --- | --- | --- | --- | ---: | --- | --- |\n";
  for (const Module& module : curriculum.modules) {
    // Only an available module's folder exists, so only it gets a link.
    const std::string title = module.status == Status::kAvailable
                                  ? fmt::format("[{}]({}/)", table_cell(module.title), module.folder)
                                  : table_cell(module.title);
    const std::string lab =
        is_executable_lab(module) ? fmt::format("`{}`", module.lab) : table_cell(module.lab);
    const std::string prerequisites =
        module.prerequisites.empty() ? "none" : join(module.prerequisites, ", ");
    const std::string status = module.status == Status::kAvailable ? "**available**" : "planned";
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", module.id, title, lab,
                       table_cell(module.what_you_build), module.learner_hours, prerequisites,
                       status);
  }
  out += "\n";
}

void render_paths(const Curriculum& curriculum, std::string& out) {
  out += "## Learning paths\n\n";
  out += "Every path is prerequisite-closed: each module's prerequisites come earlier on the\n";
  out += "same path, so a path's hours are its whole cost starting from zero.\n\n";
  out += "| path | modules | learner-hours |\n";
  out += "| --- | ---: | ---: |\n";
  for (const LearningPath& path : curriculum.paths) {
    out += fmt::format("| [{}](#{}) | {} | {} |\n", table_cell(path.name), heading_anchor(path.name),
                       path.module_ids.size(), total_hours(curriculum, path));
  }
  out += "\n";
  for (const LearningPath& path : curriculum.paths) {
    out += fmt::format("### {}\n\n", path.name);
    out += fmt::format("{} modules, {} learner-hours. {}\n\n", path.module_ids.size(),
                       total_hours(curriculum, path), path.description);
    for (std::size_t i = 0; i < path.module_ids.size(); ++i) {
      const Module& module = curriculum.module(path.module_ids[i]);
      out += fmt::format("{}. {} {}: {}{}\n", i + 1, module.id, module.title,
                         hours_text(module.learner_hours),
                         module.status == Status::kAvailable ? ", available" : "");
    }
    out += "\n";
  }
  out += fmt::format("### All {} modules\n\n", curriculum.modules.size());
  out += fmt::format("{} learner-hours. One order that respects every prerequisite:\n\n",
                     total_hours(curriculum));
  out += join(topological_order(curriculum), " -> ") + "\n\n";
}

void render_legend(std::string& out) {
  out += "## Legend\n\n";
  out += "- **available**: the module's folder exists and its lab builds and runs today; green with a\n";
  out += "  solid border in the graph, and its title in the table links to the folder.\n";
  out += "- **planned**: specified in the curriculum, not written yet; grey with a dashed border.\n";
  out += "- `X --> Y`: Y builds directly on X, and so needs everything X needs. A module may name a\n";
  out += "  prerequisite that is also implied through another one when it builds on it directly.\n";
  out += "- **hours**: learner-hours, an estimate of the time to read the module, run its labs, do\n";
  out += "  the exercises and the self-assessment, for a learner who has its prerequisites. An\n";
  out += "  estimate, not a measurement.\n";
  out += "- **lab**: the executable the module builds (`./build/<lab>` under the `cuda` preset,\n";
  out += "  `./build-hip/<lab>` under `hip`); \"triton labs\" and \"python labs\" are Python scripts in\n";
  out += "  the module's folder.\n";
}

}  // namespace

const Module& Curriculum::module(std::string_view id) const {
  const auto found = std::find_if(modules.begin(), modules.end(),
                                  [&](const Module& m) { return m.id == id; });
  if (found == modules.end()) throw std::out_of_range("curriculum: no module " + std::string(id));
  return *found;
}

bool Curriculum::has_module(std::string_view id) const {
  return std::any_of(modules.begin(), modules.end(), [&](const Module& m) { return m.id == id; });
}

std::string_view to_string(Status status) {
  return status == Status::kAvailable ? "available" : "planned";
}

Curriculum parse_curriculum(std::string_view json_text) {
  json root;
  try {
    root = parse_json_text(json_text, "curriculum");  // bounded depth, lengths, numbers (tutor/json_input.hpp)
  } catch (const InputError& error) {
    fail(fmt::format("invalid JSON: {}", error.what()));
  }
  if (!root.is_object()) fail("the top level must be an object with tracks, modules and paths");
  require_only_keys(root, {"tracks", "modules", "paths"}, "top level");

  Curriculum curriculum;
  for (const char* key : {"tracks", "modules", "paths"}) {
    if (!field(root, key, "top level").is_array()) fail(fmt::format("'{}' must be an array", key));
  }
  const json& tracks = root.at("tracks");
  for (std::size_t i = 0; i < tracks.size(); ++i) curriculum.tracks.push_back(parse_track(tracks[i], i));
  const json& modules = root.at("modules");
  for (std::size_t i = 0; i < modules.size(); ++i) {
    curriculum.modules.push_back(parse_module(modules[i], i));
  }
  const json& paths = root.at("paths");
  for (std::size_t i = 0; i < paths.size(); ++i) curriculum.paths.push_back(parse_path(paths[i], i));

  validate_graph(curriculum);
  validate_paths(curriculum);
  return curriculum;
}

Curriculum load_curriculum(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(fmt::format("cannot read {}", file.string()));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail(fmt::format("cannot read {}", file.string()));
  return parse_curriculum(text.str());
}

std::vector<std::string> topological_order(const Curriculum& curriculum) {
  std::map<std::string, std::size_t, std::less<>> index_of;
  for (std::size_t i = 0; i < curriculum.modules.size(); ++i) index_of[curriculum.modules[i].id] = i;

  std::vector<std::size_t> missing(curriculum.modules.size());  // unmet prerequisites
  std::vector<std::vector<std::size_t>> dependents(curriculum.modules.size());
  for (std::size_t i = 0; i < curriculum.modules.size(); ++i) {
    for (const std::string& prerequisite : curriculum.modules[i].prerequisites) {
      const auto found = index_of.find(prerequisite);
      if (found == index_of.end()) {
        fail(fmt::format("module {}: prerequisite '{}' is not a module", curriculum.modules[i].id,
                         prerequisite));
      }
      dependents[found->second].push_back(i);
      ++missing[i];
    }
  }
  // Min-heap on the JSON position: among ready modules the earliest listed goes first.
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < missing.size(); ++i) {
    if (missing[i] == 0) ready.push(i);
  }
  std::vector<std::string> order;
  while (!ready.empty()) {
    const std::size_t next = ready.top();
    ready.pop();
    order.push_back(curriculum.modules[next].id);
    for (std::size_t dependent : dependents[next]) {
      if (--missing[dependent] == 0) ready.push(dependent);
    }
  }
  if (order.size() != curriculum.modules.size()) {
    for (std::size_t i = 0; i < missing.size(); ++i) {
      if (missing[i] > 0) {
        fail(fmt::format("module {}: on a prerequisite cycle", curriculum.modules[i].id));
      }
    }
  }
  return order;
}

int total_hours(const Curriculum& curriculum) {
  int hours = 0;
  for (const Module& module : curriculum.modules) hours += module.learner_hours;
  return hours;
}

int total_hours(const Curriculum& curriculum, const LearningPath& path) {
  int hours = 0;
  for (const std::string& id : path.module_ids) hours += curriculum.module(id).learner_hours;
  return hours;
}

std::string render_markdown(const Curriculum& curriculum) {
  std::string out;
  render_header(curriculum, out);
  render_graph(curriculum, out);
  render_table(curriculum, out);
  render_paths(curriculum, out);
  render_legend(out);
  return out;
}

}  // namespace tutor::curriculum
