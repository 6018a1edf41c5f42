#pragma once
// Which GPU a plan is for: a row of common's GPU table (datasheet numbers, each with its source)
// or a JSON file with the table's field names, for a GPU the table lacks or a measured total.
// B06's kv and batch subcommands and C07 read the GPU through this one function and write it to
// their records through this one to_json.
#include <limits>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "kv_planner.hpp"

namespace tutor::b06 {

struct GpuChoice {
  std::string key;   ///< table key ("h100-sxm") or the file path
  std::string name;  ///< product name
  GpuMemory memory;  ///< total per GPU as the engine budgets it (runtime total where recorded)
  double hbm_bandwidth_GBps = 0;
  double bf16_TFLOPs = 0;                                                ///< dense
  double fp8_TFLOPs = std::numeric_limits<double>::quiet_NaN();          ///< dense; NaN: no fp8 tensor cores
  std::string interconnect = "interconnect";                            ///< as the datasheet names the link
  double interconnect_GBps = std::numeric_limits<double>::quiet_NaN();   ///< bidirectional total; NaN: unknown
  std::string bandwidth_source, bf16_source, fp8_source, interconnect_source;  ///< where each number comes from
};

/// Looks `name` up in common's table (any spelling hw::find_gpu accepts), or reads a .json file
/// with the fields memory_GB, hbm_bandwidth_GBps, bf16_TFLOPs (required) and fp8_TFLOPs,
/// interconnect_GBps (optional), each a number >= 1e-3 or {"value": number, "source": "..."}, and
/// optionally "name" and "interconnect". A memory_override_gib > 0 replaces the total
/// (--gpu-memory-gib). Throws UsageError starting with "--gpu:" (an unknown name lists the
/// table's keys; a file names the field that is wrong).
GpuChoice choose_gpu(const std::string& name, double memory_override_gib = 0);

/// The GPU a parsed GPU file describes (`path` names it in messages and is its key): the
/// fields choose_gpu reads, each checked for range ([1e-3, 1e5] GB of memory, [1e-3, 1e7] GB/s
/// and TFLOP/s). Throws UsageError starting with "--gpu: <path>: <field>:".
GpuChoice gpu_from_json(const nlohmann::json& j, const std::string& path);

/// {"key", "name", "memory": to_json(GpuMemory), "hbm_bandwidth_GBps", "bf16_TFLOPs",
/// "fp8_TFLOPs", "interconnect", "interconnect_GBps", "sources": {one per number}};
/// unknown numbers are null.
nlohmann::json to_json(const GpuChoice& gpu);

}  // namespace tutor::b06
