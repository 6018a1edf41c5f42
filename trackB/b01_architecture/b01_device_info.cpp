// b01_device_info: what this GPU is, in its runtime's own words, and how close it comes to
// its datasheet.
//
//   b01_device_info [--device N]   every property the runtime reports, each with what it means
//                                  for performance; the peer-access matrix of all GPUs; the
//                                  datasheet row beside the copy bandwidth and FMA rate measured
//                                  in this run (kind: measurement).
//   b01_device_info --gpu NAME     no GPU needed: the datasheet row, every cell with its source,
//                                  and the ridge point of every data type (kind: model).
//   b01_device_info --compare A B  no GPU needed: two GPUs side by side with B/A ratios (model).
//   b01_device_info --list-gpus    the keys of the hardware table.
#include <unistd.h>

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "device_query.hpp"
#include "tutor/cli.hpp"
#include "tutor/gpu.hpp"
#include "tutor/hardware.hpp"
#include "tutor/lab.hpp"
#include "tutor/launcher.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"
#include "tutor/roofline.hpp"

namespace tutor::b01 {
namespace {

using nlohmann::json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kCopyBytes = std::size_t(1) << 30;  // 1 GiB: 16x the largest L2 in the table

// ---- the datasheet row as data ------------------------------------------------------------

/// One sourced cell of hw::GpuSpec: its JSON key (the field's name), label and unit.
struct SpecField {
  std::string_view key;
  std::string_view label;
  std::string_view unit;
  hw::Sourced hw::GpuSpec::*member;
};
const SpecField kSpecFields[] = {
    {"memory_GB", "HBM capacity", "GB", &hw::GpuSpec::memory_GB},
    {"hbm_bandwidth_GBps", "HBM bandwidth", "GB/s", &hw::GpuSpec::hbm_bandwidth_GBps},
    {"sm_count", "SMs / CUs", "", &hw::GpuSpec::sm_count},
    {"l2_MB", "L2 cache", "MB", &hw::GpuSpec::l2_MB},
    {"warp_size", "warp / wavefront", "threads", &hw::GpuSpec::warp_size},
    {"fp32_TFLOPs", "FP32 (vector)", "TFLOP/s", &hw::GpuSpec::fp32_TFLOPs},
    {"tf32_TFLOPs", "TF32 dense (matrix)", "TFLOP/s", &hw::GpuSpec::tf32_TFLOPs},
    {"bf16_TFLOPs", "BF16 dense (matrix)", "TFLOP/s", &hw::GpuSpec::bf16_TFLOPs},
    {"fp16_TFLOPs", "FP16 dense (matrix)", "TFLOP/s", &hw::GpuSpec::fp16_TFLOPs},
    {"fp8_TFLOPs", "FP8 dense (matrix)", "TFLOP/s", &hw::GpuSpec::fp8_TFLOPs},
    {"fp4_TFLOPs", "FP4 dense (matrix)", "TFLOP/s", &hw::GpuSpec::fp4_TFLOPs},
    {"tdp_W", "max board power", "W", &hw::GpuSpec::tdp_W},
    {"interconnect_GBps", "GPU-to-GPU link", "GB/s", &hw::GpuSpec::interconnect_GBps},
};

std::string number_text(double v) { return std::isfinite(v) ? fmt::format("{:g}", v) : "n/a"; }
json number_json(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

/// The ridge point of one data type: dense peak over HBM bandwidth (NaN: no such path).
struct Ridge {
  std::string dtype;
  double peak_TFLOPs;
  double ridge_flop_per_byte;
  std::string_view source;
};

std::vector<Ridge> ridge_points(const hw::GpuSpec& spec) {
  std::vector<Ridge> out;
  const double bw = spec.hbm_bandwidth_GBps.value;
  for (const std::string_view dtype : hw::kPeakDtypes) {
    const hw::Sourced* peak = hw::peak_TFLOPs(spec, dtype);
    const bool supported = std::isfinite(peak->value) && peak->value > 0 && std::isfinite(bw) && bw > 0;
    out.push_back({std::string(dtype), peak->value, supported ? roofline::ridge_point(peak->value, bw) : kNaN,
                   peak->source});
  }
  return out;
}

const hw::GpuSpec& find_or_usage_error(const std::string& name, std::string_view option) {
  const hw::GpuSpec* spec = hw::find_gpu(name);
  if (!spec) throw UsageError(fmt::format("{}: unknown GPU '{}'; allowed: {}", option, name, hw::known_keys()));
  return *spec;
}

json spec_json(const hw::GpuSpec& s) {
  json cells = json::object();
  for (const auto& f : kSpecFields) {
    const hw::Sourced& c = s.*f.member;
    cells[std::string(f.key)] = {{"value", number_json(c.value)}, {"unit", std::string(f.unit)},
                                 {"source", std::string(c.source)}};
  }
  json ridges = json::array();
  for (const auto& r : ridge_points(s))
    ridges.push_back({{"dtype", r.dtype}, {"peak_TFLOPs", number_json(r.peak_TFLOPs)},
                      {"ridge_point_flop_per_byte", number_json(r.ridge_flop_per_byte)},
                      {"supported", std::isfinite(r.ridge_flop_per_byte)}, {"source", std::string(r.source)}});
  return {{"key", std::string(s.key)}, {"name", std::string(s.name)}, {"vendor", std::string(s.vendor)},
          {"arch", std::string(s.arch)}, {"fp8_variant", std::string(s.fp8_variant)},
          {"interconnect", std::string(s.interconnect)}, {"datasheet", cells},
          {"ridge_points", ridges},
          {"ridge_points_over", "hbm_bandwidth_GBps (dense peak / datasheet HBM bandwidth)"}};
}

void print_spec_title(std::FILE* out, std::string_view tag, const hw::GpuSpec& s) {
  fmt::print(out, "{}{} (key {}; {} {}; FP8 {}; link: {})\n", tag, s.name, s.key, s.vendor, s.arch, s.fp8_variant,
             s.interconnect);
}

// ---- --gpu NAME ---------------------------------------------------------------------------

int run_gpu(const std::string& name, Outputs& out, const std::string& command) {
  const hw::GpuSpec& s = find_or_usage_error(name, "--gpu");
  std::FILE* human = out.human();
  fmt::print(human, "kind: model (datasheet numbers from the hardware table; no GPU used)\n");
  print_spec_title(human, "gpu : ", s);
  fmt::print(human, "\n{:<22} {:>10}  {:<8} {}\n", "datasheet", "value", "unit", "source");
  for (const auto& f : kSpecFields) {
    const hw::Sourced& c = s.*f.member;
    fmt::print(human, "{:<22} {:>10}  {:<8} {}\n", f.label, number_text(c.value), f.unit, c.source);
  }
  fmt::print(human, "\nridge points: dense peak / HBM bandwidth ({:g} GB/s) = the arithmetic intensity above "
                    "which a kernel of that type can be compute-bound\n", s.hbm_bandwidth_GBps.value);
  fmt::print(human, "{:<6} {:>14} {:>17}\n", "dtype", "peak TFLOP/s", "ridge FLOP/byte");
  for (const auto& r : ridge_points(s)) {
    if (std::isfinite(r.ridge_flop_per_byte))
      fmt::print(human, "{:<6} {:>14g} {:>17.1f}\n", r.dtype, r.peak_TFLOPs, r.ridge_flop_per_byte);
    else
      fmt::print(human, "{:<6} {:>14} {:>17}  ({})\n", r.dtype, "not supported", "-", r.source);
  }
  json j = record_head("b01_device_info", "B01", "model", command);
  j["gpu"] = spec_json(s);
  out.write_json(j);
  return kExitOk;
}

// ---- --compare A B ------------------------------------------------------------------------

std::string ratio_text(double a, double b) {
  return std::isfinite(a) && std::isfinite(b) && a != 0 ? fmt::format("{:.2f}x", b / a) : "-";
}

int run_compare(const std::vector<std::string>& names, Outputs& out, const std::string& command) {
  const hw::GpuSpec& a = find_or_usage_error(names.at(0), "--compare");
  const hw::GpuSpec& b = find_or_usage_error(names.at(1), "--compare");
  std::FILE* human = out.human();
  fmt::print(human, "kind: model (datasheet numbers from the hardware table; no GPU used)\n");
  print_spec_title(human, "A = ", a);
  print_spec_title(human, "B = ", b);
  const int w = 12;
  fmt::print(human, "\n{:<30} {:>{}} {:>{}} {:>8}\n", "datasheet", a.key, w, b.key, w, "B/A");
  json rows = json::array();
  for (const auto& f : kSpecFields) {
    const double va = (a.*f.member).value, vb = (b.*f.member).value;
    const std::string label = f.unit.empty() ? std::string(f.label) : fmt::format("{}, {}", f.label, f.unit);
    fmt::print(human, "{:<30} {:>{}} {:>{}} {:>8}\n", label, number_text(va), w, number_text(vb), w,
               ratio_text(va, vb));
    rows.push_back({{"field", std::string(f.key)}, {"unit", std::string(f.unit)}, {"a", number_json(va)},
                    {"b", number_json(vb)},
                    {"b_over_a", std::isfinite(va) && std::isfinite(vb) && va != 0 ? json(vb / va) : json(nullptr)}});
  }
  const auto ra = ridge_points(a), rb = ridge_points(b);
  for (std::size_t i = 0; i < ra.size(); ++i) {
    const double va = ra[i].ridge_flop_per_byte, vb = rb[i].ridge_flop_per_byte;
    const auto text = [](double v) { return std::isfinite(v) ? fmt::format("{:.1f}", v) : std::string("n/a"); };
    fmt::print(human, "{:<30} {:>{}} {:>{}} {:>8}\n", fmt::format("ridge {}, FLOP/byte", ra[i].dtype), text(va), w,
               text(vb), w, ratio_text(va, vb));
  }
  fmt::print(human, "{:<30} {:>{}} {:>{}}\n", "FP8 format", a.fp8_variant, w, b.fp8_variant, w);
  fmt::print(human, "ratios are B/A; a ridge point is that type's dense peak over HBM bandwidth; n/a: no such "
                    "path or not published (see the source)\n");
  fmt::print(human, "\nsources\n");
  for (const auto* s : {&a, &b}) {
    fmt::print(human, "{} ({}):\n", s == &a ? "A" : "B", s->name);
    for (const auto& f : kSpecFields) fmt::print(human, "  {}: {}\n", f.label, ((*s).*f.member).source);
  }
  json j = record_head("b01_device_info", "B01", "model", command);
  j.update({{"a", spec_json(a)}, {"b", spec_json(b)}, {"comparison", rows}, {"ratios", "b / a"}});
  out.write_json(j);
  return kExitOk;
}

// ---- --list-gpus --------------------------------------------------------------------------

int run_list(Outputs& out, const std::string& command) {
  std::FILE* human = out.human();
  json rows = json::array();
  for (const auto& s : hw::gpu_table()) {
    fmt::print(human, "{:<12} {} ({} {})\n", s.key, s.name, s.vendor, s.arch);
    rows.push_back({{"key", std::string(s.key)}, {"name", std::string(s.name)}, {"vendor", std::string(s.vendor)},
                    {"arch", std::string(s.arch)}});
  }
  json j = record_head("b01_device_info", "B01", "model", command);
  j["gpus"] = rows;
  out.write_json(j);
  return kExitOk;
}

// ---- the device run -----------------------------------------------------------------------

/// "62914560 B (60 MiB)" for bytes, "1980 MHz" for a number with a unit, the text otherwise.
std::string display_value(const Property& p) {
  if (!std::isfinite(p.number)) return p.value;
  if (p.unit == "bytes") {
    const double b = p.number;
    const std::string human = b >= double(1ull << 30) ? fmt::format("{:.1f} GiB", b / double(1ull << 30))
                              : b >= double(1 << 20)  ? fmt::format("{:.4g} MiB", b / double(1 << 20))
                              : b >= 1024             ? fmt::format("{:.4g} KiB", b / 1024)
                                                      : std::string();
    return human.empty() ? p.value + " B" : fmt::format("{} B ({})", p.value, human);
  }
  if (p.unit.empty()) return p.value;
  return p.value + " " + p.unit;
}

const Property* find_property(const std::vector<Property>& props, std::string_view key) {
  for (const auto& p : props)
    if (p.key == key) return &p;
  return nullptr;
}
double property_number(const std::vector<Property>& props, std::string_view key) {
  const Property* p = find_property(props, key);
  return p ? p->number : kNaN;
}

/// One line of "datasheet vs this device".
struct Versus {
  std::string quantity;        // "HBM bandwidth, GB/s"
  const hw::Sourced* datasheet;
  double this_device;
  std::string how;             // "measured: ..." / "runtime: ..." / "derived from ..."
};

std::vector<Versus> versus_rows(const hw::GpuSpec& s, const DeviceRecord& d, const std::vector<Property>& props) {
  const double derived = property_number(props, "derived_bandwidth_GBps");
  return {
      {"HBM bandwidth, GB/s", &s.hbm_bandwidth_GBps, d.copy_GBps,
       "measured in this run: device-to-device copy of 1 GiB, bytes read + written"},
      {"HBM bandwidth, GB/s", &s.hbm_bandwidth_GBps, derived > 0 ? derived : kNaN,
       "derived from runtime-reported clock and bus width (2 x clock x bus/8)"},
      {"FP32 vector, TFLOP/s", &s.fp32_TFLOPs, d.fma_TFLOPs,
       "measured in this run: independent fp32 FMA chains on every SM/CU"},
      {"SMs / CUs", &s.sm_count, double(d.info.sm_count), "runtime: multiProcessorCount"},
      {"L2 cache, MB", &s.l2_MB, double(d.info.l2_bytes) / double(1 << 20),
       "runtime: l2CacheSize in MiB (cache sizes are binary; datasheets write MB)"},
      {"HBM capacity, GB", &s.memory_GB, double(d.info.global_mem_bytes) / 1e9,
       fmt::format("runtime: totalGlobalMem in 1e9 bytes ({:.1f} GiB)", double(d.info.global_mem_bytes) / double(1ull << 30))},
      {"warp / wavefront", &s.warp_size, double(d.info.warp_size), "runtime: warpSize"},
  };
}

std::string fraction_text(double value, double datasheet) {
  return std::isfinite(value) && std::isfinite(datasheet) && datasheet > 0 ? fmt::format("{:.1f}%", 100 * value / datasheet)
                                                                           : "-";
}

int run_device(int ordinal, Outputs& out, const std::string& command) {
  std::FILE* human = out.human();
  const bool progress = ::isatty(STDERR_FILENO);
  LabRecord record;
  record.lab = "b01_device_info";
  record.module = "B01";
  record.kind = "measurement";
  record.command = command;
  record.device.info = gpu::open_device(ordinal);  // no GPU: gpu::NoDevice, exit 3
  const std::vector<Property> props = TUTOR_LAUNCHER(query_device)(ordinal);
  const std::vector<std::vector<int>> peers = TUTOR_LAUNCHER(peer_access_matrix)();
  if (progress) fmt::print(stderr, "measuring the copy bandwidth (1 GiB) and the fp32 FMA rate...\n");
  record.device.copy_GBps = gpu::measure_copy_GBps(kCopyBytes);
  record.device.fma_TFLOPs = gpu::measure_fma_TFLOPs();
  const gpu::ClockSample clocks = gpu::read_clocks();  // right after the measurements
  const bool amd = record.device.info.vendor == "AMD";
  record.ceiling = {copy_ceiling_name(record.device.info.vendor), record.device.copy_GBps, CeilingUnit::GBps};
  record.problem = {{"copy_bytes", kCopyBytes}, {"what", "runtime properties, peer access, measured ceilings"}};

  fmt::print(human, "kind: measurement (properties as the runtime reports them; ceilings measured in this run)\n");
  print_device_header(human, record.device);

  std::size_t name_w = 8, value_w = 5;
  for (const auto& p : props) {
    name_w = std::max(name_w, p.name.size());
    value_w = std::max(value_w, std::min<std::size_t>(display_value(p).size(), 36));
  }
  fmt::print(human, "\n{:<{}}  {:<{}}  {}\n", "property", name_w, "value", value_w, "what it means for performance");
  for (const auto& p : props)
    fmt::print(human, "{:<{}}  {:<{}}  {}\n", p.name, name_w, display_value(p), value_w, p.meaning);

  const char* peer_api = amd ? "hipDeviceCanAccessPeer" : "cudaDeviceCanAccessPeer";
  fmt::print(human, "\npeer access ({}): can the row's GPU read and write the column's memory directly?\n", peer_api);
  if (peers.size() < 2) {
    fmt::print(human, "{} GPU visible: no peers (copies to another GPU would stage through the host)\n", peers.size());
  } else {
    fmt::print(human, "{:>6}", "");
    for (std::size_t j = 0; j < peers.size(); ++j) fmt::print(human, " {:>4}", j);
    fmt::print(human, "\n");
    for (std::size_t i = 0; i < peers.size(); ++i) {
      fmt::print(human, "{:>6}", i);
      for (int v : peers[i]) fmt::print(human, " {:>4}", v < 0 ? "-" : v ? "yes" : "no");
      fmt::print(human, "\n");
    }
  }

  json versus = json::object();
  const hw::GpuSpec* spec = hw::match_runtime_name(record.device.info.name);
  if (!spec) {
    fmt::print(human, "\ndatasheet: '{}' is not in the hardware table (rows: {}); measured in this run: copy "
                      "{:.0f} GB/s, fp32 FMA {:.1f} TFLOP/s\n", record.device.info.name, hw::known_keys(),
               record.device.copy_GBps, record.device.fma_TFLOPs);
    versus = {{"gpu", nullptr}, {"why", "'" + record.device.info.name + "' is not in the hardware table"}};
  } else {
    fmt::print(human, "\ndatasheet vs this device: {} (table row {})\n", spec->name, spec->key);
    fmt::print(human, "{:<22} {:>10} {:>12} {:>8}  {}\n", "quantity", "datasheet", "this device", "of it",
               "how this device's number was obtained");
    json rows = json::array();
    for (const auto& r : versus_rows(*spec, record.device, props)) {
      fmt::print(human, "{:<22} {:>10} {:>12} {:>8}  {}\n", r.quantity, number_text(r.datasheet->value),
                 std::isfinite(r.this_device) ? fmt::format("{:.4g}", r.this_device) : "n/a",
                 fraction_text(r.this_device, r.datasheet->value), r.how);
      rows.push_back({{"quantity", r.quantity}, {"datasheet", number_json(r.datasheet->value)},
                      {"datasheet_source", std::string(r.datasheet->source)},
                      {"this_device", number_json(r.this_device)}, {"how", r.how},
                      {"fraction_of_datasheet", r.datasheet->value > 0 && std::isfinite(r.this_device)
                                                    ? json(r.this_device / r.datasheet->value) : json(nullptr)}});
    }
    fmt::print(human, "sources of the datasheet column:\n");
    for (const auto* cell : {&spec->hbm_bandwidth_GBps, &spec->fp32_TFLOPs, &spec->sm_count, &spec->l2_MB,
                             &spec->memory_GB, &spec->warp_size}) {
      for (const auto& f : kSpecFields)
        if (&(spec->*f.member) == cell) fmt::print(human, "  {}: {}\n", f.label, cell->source);
    }
    versus = {{"gpu", std::string(spec->key)}, {"rows", rows},
              {"datasheet_kind", "model (published numbers, not measured here)"}};
  }

  if (out.json()) {
    json j = to_json(record);  // record_head + device; "kind": "measurement", variants empty: no ladder
    j["clocks"] = to_json(clocks);
    json properties = json::array();
    for (const auto& p : props)
      properties.push_back({{"key", p.key}, {"name", p.name},
                            {"value", std::isfinite(p.number) ? json(p.number) : json(p.value)}, {"text", p.value},
                            {"unit", p.unit}, {"meaning", p.meaning}});
    j["properties"] = properties;
    j["peer_access"] = {{"api", peer_api}, {"matrix", peers},
                        {"legend", "matrix[i][j]: 1 = GPU i can access GPU j's memory directly, 0 = it cannot, "
                                   "-1 = itself"}};
    j["notes"] = {{"datasheet_vs_this_device", versus},
                  {"derived_bandwidth", "derived from runtime-reported clock and bus width: 2 x clock x bus/8 "
                                        "(not measured, not the datasheet)"}};
    out.write_json(j);
  }
  return kExitOk;
}

// ---- command line -------------------------------------------------------------------------

int run(int argc, char** argv) {
  CLI::App app{"B01 Accelerator architecture: every property of this GPU with what it means for performance, "
               "the peer-access matrix, and the datasheet beside ceilings measured in the same run; or a "
               "GPU's datasheet row and ridge points with no GPU (--gpu, --compare)", "b01_device_info"};
  int device = 0;
  std::string gpu;
  std::vector<std::string> compare;
  bool list_gpus = false;
  auto* device_opt = app.add_option("--device", device, "GPU index to describe and measure")
                          ->check(decimal_integer())->check(CLI::Range(0, 63));
  // --model is the name every GPU lab gives its no-GPU view; B01's is the datasheet row.
  auto* gpu_opt = app.add_option("--gpu,--model", gpu, "no GPU needed: the datasheet row of GPU NAME (h200, mi300x, a "
                                                       "key of --list-gpus), every cell with its source, and ridge "
                                                       "points (kind: model)")->option_text("NAME");
  auto* compare_opt = app.add_option("--compare", compare, "no GPU needed: two GPUs of the table side by side, with "
                                                           "B/A ratios")->expected(2)->option_text("A B");
  auto* list_opt = app.add_flag("--list-gpus", list_gpus, "list the keys of the hardware table");
  Outputs out(app);
  gpu_opt->excludes(compare_opt);
  list_opt->excludes(gpu_opt)->excludes(compare_opt);
  device_opt->excludes(gpu_opt)->excludes(compare_opt)->excludes(list_opt);
  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  out.check();
  const std::string command = command_line(argc, argv);
  if (list_gpus) return run_list(out, command);
  if (gpu_opt->count() > 0) return run_gpu(gpu, out, command);
  if (compare_opt->count() > 0) return run_compare(compare, out, command);
  return run_device(device, out, command);
}

}  // namespace
}  // namespace tutor::b01

int main(int argc, char** argv) {
  return tutor::run_main("b01_device_info", [&] { return tutor::b01::run(argc, argv); });
}
