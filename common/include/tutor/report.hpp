#pragma once
// Reporting: the human table (fmt) and the machine record (JSON) that every lab writes,
// with one schema (ARCHITECTURE.md, "The result record").
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tutor/atomic_file.hpp"
#include "tutor/gpu.hpp"
#include "tutor/result.hpp"

namespace tutor {

/// The device section of a record: runtime properties plus ceilings measured in this run.
struct DeviceRecord {
  gpu::DeviceInfo info;
  double copy_GBps = 0;    ///< gpu::measure_copy_GBps in this run
  double fma_TFLOPs = 0;   ///< gpu::measure_fma_TFLOPs in this run (0 if not measured)
};

/// What a lab writes with --json. `kind` is "measurement", "model" or "simulation" and is
/// never omitted.
struct LabRecord {
  std::string lab;          ///< executable name, "a02_transpose"
  std::string module;       ///< "A02"
  std::string kind = "measurement";
  std::string command;      ///< the command line that produced the record
  DeviceRecord device;
  Ceiling ceiling;          ///< what fraction_of_ceiling divides by
  nlohmann::json problem = nlohmann::json::object();
  std::vector<StepResult> variants;
  nlohmann::json notes = nlohmann::json::object();  ///< lab-specific extras
};

nlohmann::json to_json(const Comparison& cmp);
nlohmann::json to_json(const StepResult& step);
nlohmann::json to_json(const gpu::DeviceInfo& info);
/// The device's properties plus "measured": {copy_GBps, fma_TFLOPs} of this run.
nlohmann::json to_json(const DeviceRecord& device);
/// {"name", "value", "unit": "GB/s" | "TFLOP/s"}.
nlohmann::json to_json(const Ceiling& ceiling);
/// {"source", "sm_MHz", "sm_max_MHz", "mem_MHz", "temperature_C", "power_W", "throttle_reasons"},
/// or {"source": why not} when the clocks could not be read.
nlohmann::json to_json(const gpu::ClockSample& clocks);
/// An integer with thousands separators: 1234567 -> "1,234,567", -1000 -> "-1,000".
std::string thousands(std::int64_t v);

/// The current time as ISO 8601 UTC ("2026-11-29T16:09:06Z"), for records' "timestamp".
std::string utc_timestamp();

/// The version of the record schema (docs/METHODOLOGY.md, "The record"); every record carries it
/// as "schema_version", and the Python labs and the grader read the same number.
inline constexpr int kRecordSchemaVersion = 1;

/// The fields every record starts with: schema_version, lab, module, version (git describe at build time),
/// timestamp (UTC), command, kind, and subcommand when one is given. Throws
/// std::invalid_argument unless kind is "measurement", "model" or "simulation".
nlohmann::json record_head(const std::string& lab, const std::string& module, const std::string& kind,
                           const std::string& command, const std::string& subcommand = "");

/// A number for a record: NaN and +-inf become the strings "nan", "inf", "-inf" (JSON has no
/// such numbers).
nlohmann::json json_number(double v);

/// A float as the shortest decimal that reads back to it ("1", "0.001953125", "-inf", "NaN"),
/// for tables.
std::string value_text(float v);

/// The record: record_head(lab, module, kind, command) plus device, ceiling, problem,
/// variants and notes.
nlohmann::json to_json(const LabRecord& record);

/// Prints the device line and the measured ceilings above a table.
void print_device_header(std::FILE* out, const DeviceRecord& device);

}  // namespace tutor
