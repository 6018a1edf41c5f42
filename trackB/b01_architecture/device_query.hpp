#pragma once
// B01: the device-introspection interface (host-only types, C++17: the kernel-side files
// cuda/device_query.cu and hip/device_query.hip include it and implement the three queries).
//
// Every property the runtime reports comes back as data: a stable key, what the table
// prints, the value, its unit, and one line saying what it means for performance. The host
// driver (b01_device_info.cpp) prints the table and the JSON from that list and never
// names a vendor's API.
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tutor::b01 {

/// One property of a device, as the runtime reported it.
struct Property {
  std::string key;      ///< JSON key, snake_case, unit in the name where it has one: "l2_bytes"
  std::string name;     ///< what the table prints: "L2 cache"
  std::string value;    ///< as text: "62914560", "sm_90", "yes", or why there is no value
  double number = std::numeric_limits<double>::quiet_NaN();  ///< the value as a number; NaN for text
  std::string unit;     ///< "bytes", "MHz", "GB/s"; empty for counts, flags and text
  std::string meaning;  ///< one line: what the number means for performance
};

/// Every property of device `ordinal` (cudaGetDeviceProperties / hipGetDeviceProperties,
/// cudaDeviceGetAttribute / hipDeviceGetAttribute, and on NVIDIA the PCIe and NVLink state
/// through NVML when libnvidia-ml.so.1 can be loaded at run time), in the order B01 prints
/// them. A property this runtime does not report is present with a NaN number and a value
/// saying so. Throws gpu::NoDevice when `ordinal` is not a device.
std::vector<Property> query_device(int ordinal);

/// Number of GPUs the runtime sees; 0 when there is none (or no driver).
int device_count();

/// Peer access among all GPUs: m[i][j] is 1 when device i can map and access device j's
/// memory directly (cudaDeviceCanAccessPeer / hipDeviceCanAccessPeer: over NVLink, Infinity
/// Fabric or PCIe peer-to-peer), 0 when it cannot (copies then stage through host memory),
/// and -1 on the diagonal (a device's own memory is not a peer). Empty with no GPU.
std::vector<std::vector<int>> peer_access_matrix();

// ---- building properties (shared by both vendors' files, so they format alike) ----------

/// Theoretical DRAM bandwidth in GB/s (1e9 B/s) derived from the memory clock and bus width
/// the runtime reports, counting two transfers per clock (double data rate):
///   bandwidth = 2 x clock [1/s] x bus width [bits] / 8 [bits/byte].
/// A derived number, not a measurement and not the datasheet's: runtimes report HBM clocks
/// differently (on HBM3/HBM3e parts one reported clock can carry more than two transfers
/// per pin), so it can land below or above the datasheet; B01 prints it beside both.
/// Returns 0 (unknown) when either input is not positive.
inline double derived_bandwidth_GBps(double mem_clock_kHz, double bus_bits) {
  if (!(mem_clock_kHz > 0) || !(bus_bits > 0)) return 0;
  return 2.0 * (mem_clock_kHz * 1e3) * (bus_bits / 8.0) / 1e9;
}

/// A numeric property. The text is the number with up to 15 significant digits.
inline Property numeric_property(std::string key, std::string name, double number, std::string unit,
                                 std::string meaning) {
  char text[64];
  std::snprintf(text, sizeof text, "%.15g", number);
  return {std::move(key), std::move(name), text, number, std::move(unit), std::move(meaning)};
}

/// A yes/no property (number 1 or 0).
inline Property flag_property(std::string key, std::string name, bool flag, std::string meaning) {
  return {std::move(key), std::move(name), flag ? "yes" : "no", flag ? 1.0 : 0.0, "", std::move(meaning)};
}

/// A numeric property the runtime may not report: `missing` (which runtime, and why) is its
/// text when `number` is empty.
inline Property optional_property(std::string key, std::string name, std::optional<double> number,
                                  std::string unit, std::string missing, std::string meaning) {
  if (number) return numeric_property(std::move(key), std::move(name), *number, std::move(unit), std::move(meaning));
  return {std::move(key), std::move(name), std::move(missing), std::numeric_limits<double>::quiet_NaN(),
          std::move(unit), std::move(meaning)};
}

/// A text property (name, architecture, compute mode, link state): number NaN.
inline Property text_property(std::string key, std::string name, std::string text, std::string meaning) {
  return {std::move(key), std::move(name), std::move(text), std::numeric_limits<double>::quiet_NaN(), "",
          std::move(meaning)};
}

}  // namespace tutor::b01
