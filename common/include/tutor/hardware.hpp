#pragma once
// The GPU spec table: datasheet numbers, each with its source, and lookup by name.
// Rates are DENSE (no structured-sparsity doubling) and in the units named by each field.
// A value that does not apply (no FP8 on A100) or is not published is NaN, and its
// source says why. Extend the table in hardware.cpp; tests/common/hardware_test.cpp
// checks every cell against the number printed in its cited source.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tutor::hw {

/// One datasheet number and where it comes from ("NVIDIA H100 Tensor Core GPU datasheet,
/// 2023, table 'Technical Specifications', column H100 SXM"). NaN value = not applicable.
struct Sourced {
  double value;
  std::string_view source;
};

/// One GPU's datasheet row. Units are in the field names.
struct GpuSpec {
  std::string_view key;        ///< lookup key: "h100-sxm", "h200-sxm", "a100-80gb", "mi300x"
  std::string_view name;       ///< full product name
  std::string_view vendor;     ///< "NVIDIA" | "AMD"
  std::string_view arch;       ///< "sm_90", "sm_80", "gfx942"
  std::string_view runtime_names; ///< '|'-separated names the runtime reports for it ("NVIDIA H200")
  Sourced memory_GB;           ///< HBM capacity, 1e9 bytes as the vendor counts it
  Sourced hbm_bandwidth_GBps;  ///< peak HBM bandwidth, 1e9 B/s
  Sourced sm_count;            ///< SMs (NVIDIA) / CUs (AMD)
  Sourced l2_MB;               ///< last-level on-chip cache before HBM (L2; AMD: per whitepaper)
  Sourced warp_size;           ///< 32 (warp) / 64 (wavefront)
  Sourced fp32_TFLOPs;         ///< non-tensor (vector / CUDA-core) FP32 FMA rate
  Sourced tf32_TFLOPs;         ///< dense TF32 tensor/matrix rate
  Sourced bf16_TFLOPs;         ///< dense BF16 tensor/matrix rate
  Sourced fp16_TFLOPs;         ///< dense FP16 tensor/matrix rate
  Sourced fp8_TFLOPs;          ///< dense FP8 tensor/matrix rate (NaN where not supported)
  Sourced fp4_TFLOPs;          ///< dense FP4 tensor/matrix rate (NaN where not supported)
  std::string_view fp8_variant;///< "OCP" (E4M3FN/E5M2), "FNUZ" (E4M3FNUZ/E5M2FNUZ) or "none"
  Sourced tdp_W;               ///< maximum board power
  std::string_view interconnect; ///< GPU-to-GPU link as the datasheet names it ("NVLink 4", "Infinity Fabric", "PCIe 4.0 x16")
  Sourced interconnect_GBps;   ///< that link's total bandwidth per GPU as the datasheet states it (bidirectional unless the source says otherwise)
};

/// Data types with a peak rate in the table, in the order B01 prints them.
inline constexpr std::string_view kPeakDtypes[] = {"fp32", "tf32", "bf16", "fp16", "fp8", "fp4"};

/// The dense peak of `spec` for `dtype` (one of kPeakDtypes, case-insensitive) in TFLOP/s,
/// or nullptr for an unknown dtype name. The value is NaN where the GPU has no such path.
const Sourced* peak_TFLOPs(const GpuSpec& spec, std::string_view dtype);

/// Every row of the table, in a fixed order.
std::span<const GpuSpec> gpu_table();

/// Looks a GPU up by key or name, case-insensitively, ignoring spaces, '-' and '_'
/// ("H200", "h200-sxm", "NVIDIA H200 SXM" all find the H200 SXM row). nullptr if unknown.
const GpuSpec* find_gpu(std::string_view name);

/// The row whose runtime_names contains the name the runtime reported, or nullptr.
const GpuSpec* match_runtime_name(std::string_view runtime_name);

/// The keys of every row, comma-separated, for error messages ("allowed: h100-sxm, ...").
std::string known_keys();

}  // namespace tutor::hw
