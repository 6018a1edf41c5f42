#include "gpu_choice.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tutor/cli.hpp"
#include "tutor/json_input.hpp"
#include "tutor/number_option.hpp"
#include "tutor/hardware.hpp"

namespace tutor::b06 {
namespace {

using nlohmann::json;

/// The range a GPU file's number must fall in: at least 1e-3 (1 MB, 1 MB/s, 1 GFLOP/s: far
/// below any GPU) and below a bound no GPU comes near (the largest HBM today is under 300 GB,
/// bandwidths under 10 TB/s, dense rates under 10 PFLOP/s), so that a typo or a hostile 1e300
/// is refused here instead of printing inf or a negative pool. The lower bound keeps the times
/// derived from them finite: at most 2^53 parameters (model_bounds.hpp) over 1e-3 GB/s is
/// under 1e11 s, where a rate of 1e-300 made every step cost inf.
NumberRange gpu_field_range(const char* field) {
  const std::string f = field;
  if (f == "memory_GB") return {1e-3, 1e5};
  return {1e-3, 1e7};  // GB/s and TFLOP/s
}

/// A field of a GPU JSON file: a number, or {"value": number, "source": "..."} like the table.
/// Absent and not required: NaN.
double gpu_field(const json& j, const std::string& path, const char* field, std::string* source, bool required) {
  if (!j.contains(field)) {
    if (required) throw UsageError(fmt::format("--gpu: {}: {}: missing", path, field));
    return std::numeric_limits<double>::quiet_NaN();
  }
  const json& v = j.at(field);
  const json& num = v.is_object() && v.contains("value") ? v.at("value") : v;
  const NumberRange range = gpu_field_range(field);
  if (!num.is_number())
    throw UsageError(fmt::format("--gpu: {}: {}: must be a number in {}", path, field, range.text()));
  if (!range.contains(num.get<double>()))
    throw UsageError(fmt::format("--gpu: {}: {}: {:g} is not in {}", path, field, num.get<double>(), range.text()));
  if (v.is_object() && v.contains("source") && !v.at("source").is_string())
    throw UsageError(fmt::format("--gpu: {}: {}/source: must be a string", path, field));
  *source = v.is_object() && v.contains("source") ? v.at("source").get<std::string>() : path;
  return num.get<double>();
}

}  // namespace

GpuChoice gpu_from_json(const json& j, const std::string& path) {
  if (!j.is_object()) throw UsageError(fmt::format("--gpu: {}: not a JSON object", path));
  GpuChoice g;
  g.key = path;
  g.name = j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : path;
  std::string memory_source;
  const double memory_GB = gpu_field(j, path, "memory_GB", &memory_source, true);
  g.hbm_bandwidth_GBps = gpu_field(j, path, "hbm_bandwidth_GBps", &g.bandwidth_source, true);
  g.bf16_TFLOPs = gpu_field(j, path, "bf16_TFLOPs", &g.bf16_source, true);
  g.fp8_TFLOPs = gpu_field(j, path, "fp8_TFLOPs", &g.fp8_source, false);
  g.interconnect_GBps = gpu_field(j, path, "interconnect_GBps", &g.interconnect_source, false);
  if (j.contains("interconnect") && j["interconnect"].is_string()) g.interconnect = j["interconnect"].get<std::string>();
  g.memory = {memory_GB * 1e9, false, fmt::format("{} GB x 1e9 B from {}", memory_GB, memory_source)};
  return g;
}

namespace {

/// A GPU file is a handful of numbers: 1 MiB is generous, and the JSON reader bounds nesting,
/// list lengths and numbers (tutor/json_input.hpp).
GpuChoice from_file(const std::string& path) {
  nlohmann::json j;
  try {
    j = read_json_file(path, {.max_bytes = std::size_t(1) << 20});
  } catch (const InputError& e) {
    throw UsageError("--gpu: " + std::string(e.what()));
  }
  return gpu_from_json(j, path);
}

GpuChoice from_table(const std::string& name) {
  const hw::GpuSpec* spec = hw::find_gpu(name);
  if (!spec)
    throw UsageError(fmt::format("--gpu: unknown GPU '{}'; allowed: {} (or a .json file)", name, hw::known_keys()));
  GpuChoice g;
  g.key = spec->key;
  g.name = spec->name;
  g.memory = gpu_memory(*spec);
  g.hbm_bandwidth_GBps = spec->hbm_bandwidth_GBps.value;
  g.bandwidth_source = spec->hbm_bandwidth_GBps.source;
  g.bf16_TFLOPs = spec->bf16_TFLOPs.value;
  g.bf16_source = spec->bf16_TFLOPs.source;
  g.fp8_TFLOPs = spec->fp8_TFLOPs.value;
  g.fp8_source = spec->fp8_TFLOPs.source;
  g.interconnect = spec->interconnect;
  g.interconnect_GBps = spec->interconnect_GBps.value;
  g.interconnect_source = spec->interconnect_GBps.source;
  if (!(g.bf16_TFLOPs > 0) || !(g.hbm_bandwidth_GBps > 0))
    throw UsageError(fmt::format("--gpu: the table has no bf16 rate or HBM bandwidth for {}", g.name));
  return g;
}

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

}  // namespace

GpuChoice choose_gpu(const std::string& name, double memory_override_gib) {
  GpuChoice g = name.size() > 5 && name.ends_with(".json") ? from_file(name) : from_table(name);
  if (memory_override_gib > 0)  // the option checks its own range
    g.memory = {memory_override_gib * kGiB, true, fmt::format("--gpu-memory-gib {}", memory_override_gib)};
  return g;
}

json to_json(const GpuChoice& g) {
  return {{"key", g.key},
          {"name", g.name},
          {"memory", to_json(g.memory)},
          {"hbm_bandwidth_GBps", g.hbm_bandwidth_GBps},
          {"bf16_TFLOPs", g.bf16_TFLOPs},
          {"fp8_TFLOPs", number_or_null(g.fp8_TFLOPs)},
          {"interconnect", g.interconnect},
          {"interconnect_GBps", number_or_null(g.interconnect_GBps)},
          {"sources",
           {{"hbm_bandwidth_GBps", g.bandwidth_source},
            {"bf16_TFLOPs", g.bf16_source},
            {"fp8_TFLOPs", g.fp8_source},
            {"interconnect_GBps", g.interconnect_source}}}};
}

}  // namespace tutor::b06
