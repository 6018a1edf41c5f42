// The no-GPU side of the lab main: --model's table and the architecture check of steps.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "tutor/cli.hpp"
#include "tutor/hardware.hpp"
#include "tutor/lab.hpp"
#include "tutor/roofline.hpp"

namespace tutor {

void print_model_table(const std::string& gpu, const std::string& dtype, const std::string& problem,
                       const std::vector<ModelRow>& rows) {
  const hw::GpuSpec* spec = hw::find_gpu(gpu);
  if (!spec) throw UsageError("--model: unknown GPU '" + gpu + "'; allowed: " + hw::known_keys());
  const hw::Sourced* peak = hw::peak_TFLOPs(*spec, dtype);
  const double bw = spec->hbm_bandwidth_GBps.value;
  const bool has_peak = peak && std::isfinite(peak->value);
  fmt::print("kind: model (no GPU used): each step's floor is max(bytes / HBM bandwidth, FLOPs / {} peak), "
             "from the datasheet\n", dtype);
  fmt::print("gpu    : {}: HBM {:.0f} GB/s, {} {} TFLOP/s\n", spec->name, bw, dtype,
             has_peak ? fmt::format("{:.1f}", peak->value) : "n/a");
  fmt::print("problem: {}\n\n", problem);
  std::size_t w = 4;
  for (const auto& r : rows) w = std::max(w, r.name.size());
  fmt::print("{:<{}}  {:>12}  {:>12}  {:>10}  {:>12}  {:>7}  {}\n", "step", w, "GB moved", "GFLOP", "FLOP/B",
             "floor (ms)", "bound", "note");
  for (const auto& r : rows) {
    const double t_mem = r.bytes / (bw * 1e9);
    const double t_math = has_peak ? r.flops / (peak->value * 1e12) : 0;
    const double intensity = r.bytes > 0 ? r.flops / r.bytes : 0;
    fmt::print("{:<{}}  {:>12.4g}  {:>12.4g}  {:>10.4g}  {:>12.4g}  {:>7}  {}\n", r.name, w, r.bytes / 1e9,
               r.flops / 1e9, intensity, 1e3 * std::max(t_mem, t_math), t_math > t_mem ? "compute" : "memory",
               r.note);
  }
  fmt::print("\nA floor is what no kernel can beat on that GPU; a real GPU does not reach its datasheet rates\n"
             "either. Run the lab to measure each step, and the copy ceiling, on your GPU.\n");
  fmt::print("sources: HBM: {}\n", spec->hbm_bandwidth_GBps.source);
  if (has_peak) fmt::print("         {}: {}\n", dtype, peak->source);
}

std::string copy_ceiling_name(const std::string& vendor) {
  return vendor == "AMD" ? "device-to-device copy (hipMemcpy)" : "device-to-device copy (cudaMemcpy)";
}

namespace {
/// "sm_90a" -> {90, true}; not an NVIDIA architecture -> {-1, false}.
std::pair<int, bool> sm_version(std::string_view arch) {
  if (!arch.starts_with("sm_")) return {-1, false};
  arch.remove_prefix(3);
  int v = 0;
  std::size_t i = 0;
  for (; i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i])); ++i) v = 10 * v + (arch[i] - '0');
  if (i == 0) return {-1, false};
  return {v, i < arch.size() && arch[i] == 'a'};
}
}  // namespace

bool arch_supports(const std::string& device_arch, const std::string& min_arch) {
  if (min_arch.empty()) return true;
  std::string_view rest = min_arch;
  while (!rest.empty()) {
    const std::size_t bar = rest.find('|');
    const std::string_view need = rest.substr(0, bar);
    rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
    const auto [have, have_a] = sm_version(device_arch);
    const auto [want, want_a] = sm_version(need);
    if (want >= 0) {
      // Arch-specific features (sm_90a) run only on that exact version (CUDA C++ Programming
      // Guide, "Feature Availability"); plain sm_XY runs on XY and newer.
      if (have >= 0 && (want_a ? have == want : have >= want)) return true;
    } else if (!need.empty() && std::string_view(device_arch).starts_with(need)) {
      return true;
    }
  }
  return false;
}

}  // namespace tutor
