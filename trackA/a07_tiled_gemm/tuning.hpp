#pragma once
// Choosing the tile shape of the last step (double_buffered) for the GPU the lab runs on:
// a tuning pass (`a07_sgemm --tune`) times every compiled TileConfig and caches the fastest
// per device; without a cache the lab uses the per-architecture default that a committed
// tuning run chose (docs/results/<GPU>/a07_tiled_gemm/a07_sgemm_tune.json), else the portable default.
#include <optional>
#include <string>

#include "sgemm.hpp"
#include "tutor/gpu.hpp"

namespace tutor::a07 {

/// Which configuration the last step uses and why ("tuned in this run", "cache <path>",
/// "default for sm_90 from <record>", "portable default").
struct TileChoice {
  int index = 0;       ///< into tile_config()
  std::string source;
};

/// The cache file for `device`: $XDG_CACHE_HOME (else $HOME/.cache) /gpu-ml-tutor/
/// a07_sgemm-<arch>-<device name>.json, with characters other than [A-Za-z0-9._-] replaced
/// by '_'. Empty when neither variable is set.
std::string default_tune_cache_path(const gpu::DeviceInfo& device);

/// The configuration recorded in the cache file at `path` for this device (same name and
/// arch, a config that this build compiles), or nullopt when the file is absent, for
/// another device, or unreadable (a stale cache is ignored, never an error).
std::optional<int> read_tune_cache(const std::string& path, const gpu::DeviceInfo& device);

/// Writes the cache atomically (creating its folder): device, config, TFLOP/s, problem
/// size, tool version and UTC time. Throws UsageError naming --tune-cache when it cannot be
/// written.
void write_tune_cache(const std::string& path, const gpu::DeviceInfo& device, int index, double TFLOPs,
                      const std::string& problem);

/// The per-architecture default for `arch` ("sm_90"), chosen by a committed tuning run, else
/// index 0 (the portable default); `source` says which.
TileChoice default_tile_config(const std::string& arch);

/// The choice without a tuning pass: the cache if it holds this device, else
/// default_tile_config(device.arch).
TileChoice choose_tile_config(const gpu::DeviceInfo& device, const std::string& cache_path);

/// Index of the config with these fields, or nullopt if this build does not compile it.
std::optional<int> find_tile_config(const TileConfig& config);

/// "128x128x8, warp 32x64, 256 threads"
std::string describe(const TileConfig& config);

}  // namespace tutor::a07
