#include "sheets/placeholders.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "tutor/hardware.hpp"
#include "tutor/input_file.hpp"
#include "tutor/roofline.hpp"

namespace tutor::sheets {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// Why one placeholder cannot be filled; fill() adds the file, line and placeholder.
struct Refused {
  std::string why;
};

constexpr std::size_t kMaxRecordBytes = 16u << 20;  // the records the labs write are far smaller

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      parts.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

/// Markdown-escapes text from the GPU table or a record so it reads as written (a '|' would
/// end a table cell, a '*' or '_' start emphasis).
std::string escape_markdown(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']' || c == '<' || c == '>' || c == '|')
      out += '\\';
    out += c;
  }
  return out;
}

/// The GPU table's numeric cells by field name (hardware.hpp).
const tutor::hw::Sourced* sourced_field(const tutor::hw::GpuSpec& g, std::string_view field) {
  using tutor::hw::GpuSpec;
  using tutor::hw::Sourced;
  static const std::pair<std::string_view, Sourced GpuSpec::*> kFields[] = {
      {"memory_GB", &GpuSpec::memory_GB},       {"hbm_bandwidth_GBps", &GpuSpec::hbm_bandwidth_GBps},
      {"sm_count", &GpuSpec::sm_count},         {"l2_MB", &GpuSpec::l2_MB},
      {"warp_size", &GpuSpec::warp_size},       {"fp32_TFLOPs", &GpuSpec::fp32_TFLOPs},
      {"tf32_TFLOPs", &GpuSpec::tf32_TFLOPs},   {"bf16_TFLOPs", &GpuSpec::bf16_TFLOPs},
      {"fp16_TFLOPs", &GpuSpec::fp16_TFLOPs},   {"fp8_TFLOPs", &GpuSpec::fp8_TFLOPs},
      {"fp4_TFLOPs", &GpuSpec::fp4_TFLOPs},     {"tdp_W", &GpuSpec::tdp_W},
      {"interconnect_GBps", &GpuSpec::interconnect_GBps},
  };
  for (const auto& [name, member] : kFields)
    if (name == field) return &(g.*member);
  return nullptr;
}

/// The GPU table's text cells (they carry no source of their own).
const std::string_view* text_field(const tutor::hw::GpuSpec& g, std::string_view field) {
  if (field == "name") return &g.name;
  if (field == "vendor") return &g.vendor;
  if (field == "arch") return &g.arch;
  if (field == "fp8_variant") return &g.fp8_variant;
  if (field == "interconnect") return &g.interconnect;
  return nullptr;
}

constexpr std::string_view kFieldList =
    "memory_GB, hbm_bandwidth_GBps, sm_count, l2_MB, warp_size, fp32_TFLOPs, tf32_TFLOPs, bf16_TFLOPs, "
    "fp16_TFLOPs, fp8_TFLOPs, fp4_TFLOPs, tdp_W, interconnect_GBps, ridge_<fp32|tf32|bf16|fp16|fp8|fp4>, "
    "name, vendor, arch, fp8_variant, interconnect";

/// Where a cell's number comes from, as a data source: the document and the place in it.
struct SourceNote {
  std::string document;  ///< Markdown; the key: one data source per document
  std::string place;     ///< Markdown; "" when the document is the whole note
};

/// A cell's source as a data source. The source text names the document, then after a comma
/// the place in it, then after the first ':' the words quoted (hardware.cpp's convention);
/// "NVIDIA H100 ... datasheet (2023), Technical Specifications, column H100 SXM" is the document
/// up to the first comma outside parentheses and the place after it. The whole text when the
/// cell is NaN, whose source says why there is no number, or DERIVED, whose source is the
/// arithmetic.
SourceNote source_note(const tutor::hw::Sourced& cell) {
  std::string_view text = cell.source;
  if (std::isnan(cell.value) || text.rfind("DERIVED", 0) == 0) return {escape_markdown(text), ""};
  text = text.substr(0, text.find(':'));
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (text[i] == ',' && depth == 0) {
      std::string_view place = text.substr(i + 1);
      while (!place.empty() && place.front() == ' ') place.remove_prefix(1);
      return {escape_markdown(text.substr(0, i)), escape_markdown(place)};
    }
  }
  return {escape_markdown(text), ""};
}

std::string json_type(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "a number";
  }
}

}  // namespace

PlaceholderError::PlaceholderError(const std::string& file, std::size_t line, std::string_view placeholder,
                                   const std::string& why)
    : UsageError(fmt::format("{}:{}: {}: {}", file, line, placeholder, why)) {}

std::string format_number(double value, bool is_integer, const std::string& spec) {
  // A double holds every integer up to 2^53 exactly (IEEE 754 binary64: a 53-bit significand);
  // past it an integer format would print a rounded number as if exact, and a cast to long long
  // past 2^63 is undefined (it printed -9223372036854775808).
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  const bool exact_integer = std::fabs(value) < kExactIntegers;
  // A sheet's numbers are short: a width or precision of 100 or more is a typo that would
  // build a string of that many characters (2147483647 asks for 2 GiB).
  for (std::size_t i = 0, run = 0; i < spec.size(); ++i) {
    run = std::isdigit(static_cast<unsigned char>(spec[i])) ? run + 1 : 0;
    if (run > 2) throw std::invalid_argument(fmt::format("format '{}': width and precision are 0 to 99", spec));
  }
  try {
    if (spec.empty()) {
      if (is_integer && exact_integer) return fmt::format("{}", static_cast<long long>(value));
      return fmt::format("{}", value);
    }
    // A trailing '%' reads a fraction as a percentage, as Python's format does (0.951 -> 95.1%).
    if (spec.back() == '%') {
      std::string number_spec = spec.substr(0, spec.size() - 1);
      if (number_spec.empty() || std::isdigit(static_cast<unsigned char>(number_spec.back()))) number_spec += 'f';
      return fmt::format(fmt::runtime("{:" + number_spec + "}"), value * 100.0) + "%";
    }
    if (spec.back() == 'd' || spec.back() == 'x' || spec.back() == 'b') {
      if (!is_integer && value != std::trunc(value))
        throw std::invalid_argument(fmt::format("format '{}' needs an integer, the value is {}", spec, value));
      if (!exact_integer)
        throw std::invalid_argument(fmt::format("format '{}': {} is beyond 2^53, where a double holds every "
                                                "integer exactly; give a float format such as .3e", spec, value));
      return fmt::format(fmt::runtime("{:" + spec + "}"), static_cast<long long>(value));
    }
    return fmt::format(fmt::runtime("{:" + spec + "}"), value);
  } catch (const fmt::format_error& e) {
    throw std::invalid_argument(fmt::format("format '{}' is not a {{fmt}} format spec for a number ({})", spec, e.what()));
  }
}

Filler::Filler(fs::path repository_root, const curriculum::Curriculum& curriculum)
    : root_(std::move(repository_root)), curriculum_(curriculum) {}

std::string Filler::fill(std::string_view text, const std::string& file) {
  std::string out;
  std::size_t line = 1, pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find("{{", pos);
    const std::size_t end = open == std::string_view::npos ? text.size() : open;
    for (std::size_t i = pos; i < end; ++i) line += text[i] == '\n';
    out.append(text.substr(pos, end - pos));
    if (open == std::string_view::npos) break;
    const std::size_t eol = std::min(text.find('\n', open), text.size());
    const std::size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos || close > eol) {
      throw PlaceholderError(file, line, text.substr(open, std::min<std::size_t>(eol - open, 60)),
                             "no closing '}}' on the same line");
    }
    const std::string_view placeholder = text.substr(open, close + 2 - open);
    try {
      out += fill_one(text.substr(open + 2, close - open - 2));
    } catch (const Refused& r) {
      throw PlaceholderError(file, line, placeholder, r.why);
    }
    pos = close + 2;
  }
  return out;
}

std::string Filler::fill_one(std::string_view body) {
  const std::size_t colon = body.find(':');
  const std::string_view kind = body.substr(0, colon);
  if (kind == "gpu") return gpu_cell(split(body, ':'));
  if (kind == "record") {
    if (colon == std::string_view::npos) throw Refused{"give {{record:<path>:<JSON pointer>[:<format>]}}"};
    return record_number(body.substr(colon + 1));
  }
  if (kind == "modules") return planned_modules(split(body, ':'));
  throw Refused{fmt::format("unknown placeholder kind '{}' (allowed: gpu, record, modules)", kind)};
}

std::string Filler::gpu_cell(const std::vector<std::string>& parts) {
  if (parts.size() != 3 && parts.size() != 4) throw Refused{"give {{gpu:<key>:<field>[:<format>]}}"};
  const std::string& key = parts[1];
  const std::string& field = parts[2];
  const std::string spec = parts.size() == 4 ? parts[3] : "";
  auto cite_cell = [this](const tutor::hw::Sourced& cell) {
    const SourceNote note = source_note(cell);
    return cite('d', note.document, "GPU table: " + note.document, note.place);
  };
  const tutor::hw::GpuSpec* gpu = nullptr;
  for (const auto& g : tutor::hw::gpu_table())
    if (g.key == key) gpu = &g;
  if (!gpu) throw Refused{fmt::format("unknown GPU key '{}' (allowed: {})", key, tutor::hw::known_keys())};
  auto number = [&](double value) -> std::string {
    try {
      return format_number(value, false, spec);
    } catch (const std::invalid_argument& e) {
      throw Refused{e.what()};
    }
  };
  if (const auto* text = text_field(*gpu, field)) {
    if (!spec.empty()) throw Refused{fmt::format("'{}' is text: it takes no format", field)};
    return escape_markdown(*text);
  }
  if (const auto* cell = sourced_field(*gpu, field)) {
    return (std::isnan(cell->value) ? "n/a" : number(cell->value)) + cite_cell(*cell);
  }
  // ridge_<dtype>: the roofline's ridge point, peak / bandwidth in FLOP/byte (Williams,
  // Waterman and Patterson, CACM 2009, eq. 1), from two cells of the table.
  if (field.rfind("ridge_", 0) == 0) {
    const tutor::hw::Sourced* peak = tutor::hw::peak_TFLOPs(*gpu, std::string_view(field).substr(6));
    if (peak) {
      const tutor::hw::Sourced& bandwidth = gpu->hbm_bandwidth_GBps;
      if (std::isnan(peak->value)) return "n/a" + cite_cell(*peak);
      const double ridge = tutor::roofline::ridge_point(peak->value, bandwidth.value);
      const std::string peak_note = cite_cell(*peak), bandwidth_note = cite_cell(bandwidth);
      return number(ridge) + peak_note + (bandwidth_note == peak_note ? "" : bandwidth_note);
    }
  }
  throw Refused{fmt::format("unknown field '{}' (allowed: {})", field, kFieldList)};
}

const json& Filler::record(const std::string& path) {
  if (const auto it = records_.find(path); it != records_.end()) return it->second;
  const fs::path relative(path);
  if (path.empty() || relative.is_absolute()) throw Refused{"the record path must be relative to the repository root"};
  for (const auto& part : relative)
    if (part == "..") throw Refused{"the record path must stay inside the repository (no '..')"};
  std::string text;
  try {
    InputFile file((root_ / relative).string(), kMaxRecordBytes);
    text = file.read_all();
  } catch (const InputError& e) {
    throw Refused{fmt::format("{}: {}", path, e.what_only())};
  }
  json parsed = json::parse(text, nullptr, false);
  if (parsed.is_discarded()) throw Refused{fmt::format("{} is not valid JSON", path)};
  return records_.emplace(path, std::move(parsed)).first->second;
}

std::string Filler::record_number(std::string_view rest) {
  const std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) throw Refused{"give {{record:<path>:<JSON pointer>[:<format>]}}"};
  const std::string path(rest.substr(0, colon));
  std::string pointer(rest.substr(colon + 1)), spec;
  if (const std::size_t last = pointer.rfind(':'); last != std::string::npos) {
    spec = pointer.substr(last + 1);
    pointer.resize(last);
  }
  if (pointer.empty() || pointer[0] != '/')
    throw Refused{fmt::format("'{}' is not a JSON pointer (it starts with '/': /steps/0/median_GBps)", pointer)};
  const json& doc = record(path);
  json::json_pointer ptr;
  try {
    ptr = json::json_pointer(pointer);
  } catch (const json::exception&) {
    throw Refused{fmt::format("'{}' is not a valid JSON pointer (RFC 6901)", pointer)};
  }
  const json* found = nullptr;
  try {  // an array index past what size_t holds throws out_of_range from contains() itself
    if (doc.contains(ptr)) found = &doc.at(ptr);
  } catch (const json::exception&) {
  }
  if (!found) throw Refused{fmt::format("{} has nothing at {}", path, pointer)};
  const json& value = *found;
  if (!value.is_number())
    throw Refused{fmt::format("{} {} is {}, not a number", path, pointer, json_type(value))};
  std::string text;
  try {
    text = format_number(value.get<double>(), value.is_number_integer(), spec);
  } catch (const std::invalid_argument& e) {
    throw Refused{e.what()};
  }
  std::string about;
  auto add = [&](const char* key, std::string_view before) {
    if (doc.is_object() && doc.contains(key) && doc[key].is_string())
      about += std::string(before) + escape_markdown(doc[key].get<std::string>());
  };
  add("kind", ": ");
  if (doc.is_object() && doc.contains("device") && doc["device"].is_object() && doc["device"].contains("name") &&
      doc["device"]["name"].is_string())
    about += (about.empty() ? ": on " : " on ") + escape_markdown(doc["device"]["name"].get<std::string>());
  add("lab", about.empty() ? ": " : ", ");
  add("version", " ");
  return text + cite('r', path, fmt::format("Record `{}`{}", path, about));
}

std::string Filler::planned_modules(const std::vector<std::string>& parts) const {
  if (parts.size() != 3 || (parts[1] != "planned" && parts[1] != "available"))
    throw Refused{"give {{modules:planned:<track>}} or {{modules:available:<track>}}"};
  const auto status = parts[1] == "planned" ? curriculum::Status::kPlanned : curriculum::Status::kAvailable;
  bool track_known = false;
  for (const auto& t : curriculum_.tracks) track_known = track_known || t.id == parts[2];
  if (!track_known) throw Refused{fmt::format("unknown track '{}' (data/curriculum.json)", parts[2])};
  std::string out;
  for (const auto& m : curriculum_.modules) {
    if (m.track != parts[2] || m.status != status) continue;
    out += (out.empty() ? "" : ", ") + m.id + " " + escape_markdown(m.title);
  }
  return out.empty() ? "none" : out;
}

std::string Filler::cite(char kind, const std::string& key, const std::string& text, const std::string& place) {
  const int k = kind == 'd' ? 0 : 1;
  auto [it, added] = footnote_of_key_.emplace(std::string(1, kind) + key, footnotes_.size());
  if (added) {
    const int number = ++count_[k];
    footnotes_.push_back({number, "", fmt::format("{}{}", kind, number)});
  }
  Footnote& note = footnotes_[it->second];
  // One document cited from several places names each once; a place that another already
  // spells out in full ("column H100 SXM" in "Technical Specifications, column H100 SXM") is
  // not repeated.
  auto& places = places_[it->second];
  auto within = [](const std::string& part, const std::string& whole) { return whole.find(part) != std::string::npos; };
  if (!place.empty() && std::none_of(places.begin(), places.end(), [&](const auto& p) { return within(place, p); })) {
    std::erase_if(places, [&](const std::string& p) { return within(p, place); });
    places.push_back(place);
  }
  note.text = text;
  for (std::size_t i = 0; i < places.size(); ++i) note.text += (i == 0 ? ", " : "; ") + places[i];
  note.text += '.';
  return fmt::format("<sup>[\\[{0}\\]](#{0})</sup>", note.label);
}

std::string Filler::footnote_definitions() const {
  if (footnotes_.empty()) return "";
  // Documents first, then records, each in order of first use.
  std::string out = "<div class=\"data-sources\">\n\n**Data sources**\n\n";
  for (const char kind : {'d', 'r'})
    for (const auto& f : footnotes_)
      if (f.label[0] == kind) out += fmt::format("- <a id=\"{0}\"></a>\\[{0}\\] {1}\n", f.label, f.text);
  return out + "\n</div>\n";
}

}  // namespace tutor::sheets
