#include "tuning.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tutor/atomic_file.hpp"
#include "tutor/cli.hpp"
#include "tutor/json_input.hpp"
#include "tutor/report.hpp"
#include "tutor/version.hpp"

namespace tutor::a07 {

namespace {
/// Per-architecture defaults, each chosen by a committed tuning run on that architecture.
/// An architecture without a row uses index 0. (bm, bn, bk, wm, wn)
struct ArchDefault {
  const char* arch;
  TileConfig config;
  const char* record;
};
constexpr ArchDefault kArchDefaults[] = {
    {"sm_90", {128, 256, 8, 32, 64}, "docs/results/H200/a07_tiled_gemm/a07_sgemm_tune.json"},
};

std::string sanitize(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) c = '_';
  return out;
}
bool same(const TileConfig& a, const TileConfig& b) {
  return a.bm == b.bm && a.bn == b.bn && a.bk == b.bk && a.wm == b.wm && a.wn == b.wn;
}
}  // namespace

std::string describe(const TileConfig& c) {
  return fmt::format("{}x{}x{}, warp {}x{}, {} threads", c.bm, c.bn, c.bk, c.wm, c.wn, c.threads());
}

std::optional<int> find_tile_config(const TileConfig& config) {
  for (int i = 0; i < tile_config_count(); ++i)
    if (same(tile_config(i), config)) return i;
  return std::nullopt;
}

std::string default_tune_cache_path(const gpu::DeviceInfo& device) {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home) base = std::filesystem::path(home) / ".cache";
  else return {};
  return (base / "gpu-ml-tutor" / ("a07_sgemm-" + sanitize(device.arch) + "-" + sanitize(device.name) + ".json"))
      .string();
}

std::optional<int> read_tune_cache(const std::string& path, const gpu::DeviceInfo& device) {
  if (path.empty() || !std::filesystem::is_regular_file(path)) return std::nullopt;
  try {
    const auto j = parse_json_text(read_text_file(path, 1 << 16), path);  // bounded (tutor/json_input.hpp)
    if (j.at("device").get<std::string>() != device.name || j.at("arch").get<std::string>() != device.arch)
      return std::nullopt;
    const auto& c = j.at("config");
    return find_tile_config({c.at("bm").get<int>(), c.at("bn").get<int>(), c.at("bk").get<int>(),
                             c.at("wm").get<int>(), c.at("wn").get<int>()});
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable or from another version: tune again or use the default
  }
}

void write_tune_cache(const std::string& path, const gpu::DeviceInfo& device, int index, double TFLOPs,
                      const std::string& problem) {
  const TileConfig c = tile_config(index);
  const nlohmann::json j = {
      {"lab", "a07_sgemm"}, {"device", device.name}, {"arch", device.arch},
      {"config", {{"bm", c.bm}, {"bn", c.bn}, {"bk", c.bk}, {"wm", c.wm}, {"wn", c.wn}, {"threads", c.threads()}}},
      {"TFLOPs", TFLOPs}, {"problem", problem}, {"version", kVersion}, {"timestamp", utc_timestamp()}};
  if (const auto folder = std::filesystem::path(path).parent_path(); !folder.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) throw UsageError(fmt::format("--tune-cache: cannot create {}: {}", folder.string(), ec.message()));
  }
  write_output("--tune-cache", path, j.dump(2) + "\n");
}

TileChoice default_tile_config(const std::string& arch) {
  for (const auto& d : kArchDefaults)
    if (arch == d.arch)
      if (auto i = find_tile_config(d.config))
        return {*i, fmt::format("default for {} (chosen by the tuning run in {})", d.arch, d.record)};
  return {0, "portable default (no tuning cache, and no default for " + arch + " among this build's tiles; run --tune)"};
}

TileChoice choose_tile_config(const gpu::DeviceInfo& device, const std::string& cache_path) {
  if (auto cached = read_tune_cache(cache_path, device)) return {*cached, "tuning cache " + cache_path};
  return default_tile_config(device.arch);
}

}  // namespace tutor::a07
