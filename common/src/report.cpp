#include "tutor/report.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "tutor/atomic_file.hpp"
#include "tutor/cli.hpp"
#include "tutor/version.hpp"

namespace tutor {

using nlohmann::json;

json to_json(const Comparison& c) {
  json j = {{"passed", c.passed},         {"rel_l2", c.rel_l2},
            {"max_abs_err", c.max_abs_err}, {"count", c.count},
            {"nonfinite", c.nonfinite},   {"mismatches", c.mismatches},
            {"tolerance", c.tolerance}};
  j["first_mismatch"] = c.first_mismatch ? json(*c.first_mismatch) : json(nullptr);
  if (!c.reason.empty()) j["reason"] = c.reason;
  return j;
}

json to_json(const StepResult& s) {
  json checks = json::array();
  for (const auto& chk : s.checks) {
    json c = to_json(chk.cmp);
    c["shape"] = chk.shape;
    checks.push_back(std::move(c));
  }
  json j = {{"number", s.number}, {"name", s.name}, {"role", s.role}, {"change", s.change},
            {"expect", s.expect}, {"verified", s.verified},
            {"rel_err", s.rel_err}, {"checks", checks}, {"timed", s.timed},
            {"bytes", s.bytes}, {"flops", s.flops}};
  if (!s.params.empty()) j["params"] = s.params;
  if (s.lines_of_code > 0) j["lines_of_code"] = s.lines_of_code;
  if (!s.kernels.empty()) {
    json kernels = json::array();
    for (const auto& k : s.kernels)
      kernels.push_back({{"name", k.name}, {"registers", k.registers}, {"static_shared_bytes", k.static_shared_bytes},
                         {"local_bytes", k.local_bytes}, {"max_threads_per_block", k.max_threads_per_block}});
    j["kernels"] = kernels;
  }
  if (!s.skipped.empty()) j["skipped"] = s.skipped;
  if (s.timed) {
    j["time_ms"] = {{"min", s.time_ms.min},       {"p10", s.time_ms.p10},
                    {"median", s.time_ms.median}, {"p90", s.time_ms.p90},
                    {"max", s.time_ms.max},       {"mean", s.time_ms.mean},
                    {"n", s.time_ms.n}};
    j["GBps"] = s.GBps;
    j["TFLOPs"] = s.TFLOPs;
    j["fraction_of_ceiling"] = s.fraction_of_ceiling;
    j["speedup_vs_prev"] = s.speedup_vs_prev > 0 ? json(s.speedup_vs_prev) : json(nullptr);
    j["speedup_vs_first"] = s.speedup_vs_first;
  } else {  // same keys, null values: a grader can read every variant the same way
    for (const char* key : {"time_ms", "GBps", "TFLOPs", "fraction_of_ceiling",
                            "speedup_vs_prev", "speedup_vs_first"})
      j[key] = nullptr;
  }
  return j;
}

json to_json(const gpu::DeviceInfo& d) {
  return {{"vendor", d.vendor},
          {"name", d.name},
          {"arch", d.arch},
          {"ordinal", d.ordinal},
          {"sm_count", d.sm_count},
          {"warp_size", d.warp_size},
          {"max_threads_per_block", d.max_threads_per_block},
          {"regs_per_sm", d.regs_per_sm},
          {"smem_per_block_bytes", d.smem_per_block_bytes},
          {"smem_per_block_optin_bytes", d.smem_per_block_optin_bytes},
          {"smem_per_sm_bytes", d.smem_per_sm_bytes},
          {"l2_bytes", d.l2_bytes},
          {"global_mem_bytes", d.global_mem_bytes},
          {"sm_clock_MHz", d.sm_clock_MHz},
          {"mem_clock_MHz", d.mem_clock_MHz},
          {"mem_bus_bits", d.mem_bus_bits},
          {"runtime", d.runtime_version}};
}

json to_json(const gpu::ClockSample& c) {
  if (!c.available) return {{"source", c.source}};
  return {{"source", c.source},       {"sm_MHz", c.sm_MHz},       {"sm_max_MHz", c.sm_max_MHz},
          {"mem_MHz", c.mem_MHz},     {"temperature_C", c.temperature_C}, {"power_W", c.power_W},
          {"throttle_bits", c.throttle_bits}, {"throttle_reasons", c.throttle_reasons}};
}

std::string thousands(std::int64_t v) {
  const std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string utc_timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

json record_head(const std::string& lab, const std::string& module, const std::string& kind,
                 const std::string& command, const std::string& subcommand) {
  if (kind != "measurement" && kind != "model" && kind != "simulation")
    throw std::invalid_argument("record kind must be measurement, model or simulation, not '" + kind + "'");
  json j = {{"schema_version", kRecordSchemaVersion}, {"lab", lab}, {"module", module}, {"version", kVersion},
            {"timestamp", utc_timestamp()}, {"command", command}, {"kind", kind}};
  if (!subcommand.empty()) j["subcommand"] = subcommand;
  return j;
}

json json_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

std::string value_text(float v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{}", v);
}

json to_json(const DeviceRecord& d) {
  json device = to_json(d.info);
  device["measured"] = {{"copy_GBps", d.copy_GBps}, {"fma_TFLOPs", d.fma_TFLOPs}};
  return device;
}

json to_json(const Ceiling& c) {
  return {{"name", c.name}, {"value", c.value}, {"unit", c.unit == CeilingUnit::GBps ? "GB/s" : "TFLOP/s"}};
}

json to_json(const LabRecord& r) {
  json variants = json::array();
  for (const auto& s : r.variants) variants.push_back(to_json(s));
  json j = record_head(r.lab, r.module, r.kind, r.command);
  j["device"] = to_json(r.device);
  j["ceiling"] = to_json(r.ceiling);
  j["problem"] = r.problem;
  j["variants"] = variants;
  if (!r.notes.empty()) j["notes"] = r.notes;
  return j;
}


void print_device_header(std::FILE* out, const DeviceRecord& d) {
  const auto& i = d.info;
  fmt::print(out, "device  : {} ({}, {} SMs, {:.0f} MB L2, {:.1f} GiB, {})\n", i.name, i.arch,
             i.sm_count, i.l2_bytes / 1e6, i.global_mem_bytes / double(1ull << 30),
             i.runtime_version);
  fmt::print(out, "measured: device-to-device copy {:.0f} GB/s (read + write)", d.copy_GBps);
  if (d.fma_TFLOPs > 0) fmt::print(out, ", fp32 FMA {:.1f} TFLOP/s", d.fma_TFLOPs);
  fmt::print(out, "\n");
}


}  // namespace tutor
