// The GPU datasheet table: one row per GPU, in a fixed order, and every cell names the
// document (title, year, and where in it) that the number was read from.
//
// Rates are DENSE. NVIDIA's Hopper datasheets print tensor-core rates "with sparsity"
// (2:4 structured sparsity doubles them), marked by an asterisk; those cells hold the
// printed number divided by 2 and their source says so. The A100 datasheet and AMD's
// documents print the dense number themselves.
//
// Where a datasheet is silent (H200 SM count and L2), the cell cites the best document
// available and the value the CUDA runtime reported on the lent H200
// (shared/anchors/h200.md, 2026-11-29), and says which is which.
#include "tutor/hardware.hpp"

#include <array>
#include <cctype>
#include <limits>
#include <string>

namespace tutor::hw {
namespace {

constexpr double kNotApplicable = std::numeric_limits<double>::quiet_NaN();

constexpr std::array<GpuSpec, 4> kGpuTable{{
    // ---------------------------------------------------------------- NVIDIA H100 SXM5
    {
        .key = "h100-sxm",
        .name = "NVIDIA H100 SXM5 80GB",
        .vendor = "NVIDIA",
        .arch = "sm_90",
        .runtime_names = "NVIDIA H100 80GB HBM3",
        .memory_GB = {80,
                      "NVIDIA H100 Tensor Core GPU datasheet (2023), Technical Specifications, "
                      "column H100 SXM: 'GPU memory 80GB'"},
        .hbm_bandwidth_GBps = {3350,
                               "NVIDIA H100 Tensor Core GPU datasheet (2023), Technical "
                               "Specifications, column H100 SXM: 'GPU memory bandwidth 3.35TB/s'"},
        .sm_count = {132,
                     "NVIDIA H100 Tensor Core GPU Architecture whitepaper (Hopper, 2022), section "
                     "'H100 GPU Hardware Architecture In-Depth', H100 SXM5 unit list: "
                     "'132 SMs per GPU'"},
        .l2_MB = {50,
                  "NVIDIA H100 Tensor Core GPU Architecture whitepaper (Hopper, 2022), H100 SXM5 "
                  "unit list: '50 MB L2 Cache' (1.25x the A100's 40 MB)"},
        .warp_size = {32,
                      "CUDA C++ Programming Guide (CUDA 13.0, 2025), section 'SIMT Architecture': "
                      "threads are created, scheduled and executed in warps of 32"},
        .fp32_TFLOPs = {67,
                        "NVIDIA H100 Tensor Core GPU datasheet (2023), Technical Specifications, "
                        "column H100 SXM: 'FP32 67 teraFLOPS' (CUDA cores; no sparsity mark)"},
        .tf32_TFLOPs = {494.5,
                        "NVIDIA H100 Tensor Core GPU datasheet (2023), column H100 SXM: "
                        "'TF32 Tensor Core 989 teraFLOPS*', * = with sparsity; dense = 989 / 2"},
        .bf16_TFLOPs = {989.5,
                        "NVIDIA H100 Tensor Core GPU datasheet (2023), column H100 SXM: "
                        "'BFLOAT16 Tensor Core 1,979 teraFLOPS*', * = with sparsity; "
                        "dense = 1979 / 2"},
        .fp16_TFLOPs = {989.5,
                        "NVIDIA H100 Tensor Core GPU datasheet (2023), column H100 SXM: "
                        "'FP16 Tensor Core 1,979 teraFLOPS*', * = with sparsity; "
                        "dense = 1979 / 2"},
        .fp8_TFLOPs = {1979,
                       "NVIDIA H100 Tensor Core GPU datasheet (2023), column H100 SXM: "
                       "'FP8 Tensor Core 3,958 teraFLOPS*', * = with sparsity; dense = 3958 / 2"},
        // E4M3 / E5M2 of Micikevicius et al., "FP8 Formats for Deep Learning" (2022), the formats
        // the OCP 8-bit floating point specification (OFP8, 2023) adopted; CUDA __nv_fp8_e4m3.
        .fp8_variant = "OCP",
        .tdp_W = {700,
                  "NVIDIA H100 Tensor Core GPU datasheet (2023), column H100 SXM: "
                  "'Max thermal design power (TDP) Up to 700W (configurable)'"},
    },
    // ---------------------------------------------------------------- NVIDIA H200 SXM
    {
        .key = "h200-sxm",
        .name = "NVIDIA H200 SXM 141GB",
        .vendor = "NVIDIA",
        .arch = "sm_90",
        .runtime_names = "NVIDIA H200",
        .memory_GB = {141,
                      "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), "
                      "Specifications, column H200 SXM: 'GPU Memory 141GB'"},
        .hbm_bandwidth_GBps = {4800,
                               "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), "
                               "Specifications, column H200 SXM: 'GPU Memory Bandwidth 4.8TB/s'"},
        .sm_count = {132,
                     "Not on the H200 datasheet. cudaDeviceProp.multiProcessorCount = 132 on the "
                     "lent H200 (shared/anchors/h200.md, 2026-11-29): the 132-SM GH100 "
                     "configuration the Hopper whitepaper (2022) gives for H100 SXM5"},
        .l2_MB = {60,
                  "Not on the H200 datasheet. cudaDeviceProp.l2CacheSize = 60 MB on the lent H200 "
                  "(shared/anchors/h200.md, 2026-11-29); equals the full-GH100 L2 ('60 MB L2 "
                  "Cache') of the Hopper whitepaper (2022), where H100 SXM5 enables 50 MB"},
        .warp_size = {32,
                      "CUDA C++ Programming Guide (CUDA 13.0, 2025), section 'SIMT Architecture': "
                      "threads are created, scheduled and executed in warps of 32"},
        .fp32_TFLOPs = {67,
                        "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), column "
                        "H200 SXM: 'FP32 67 TFLOPS' (CUDA cores; no sparsity mark)"},
        .tf32_TFLOPs = {494.5,
                        "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), column "
                        "H200 SXM: 'TF32 Tensor Core 989 TFLOPS', footnoted 'With sparsity'; "
                        "dense = 989 / 2"},
        .bf16_TFLOPs = {989.5,
                        "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), column "
                        "H200 SXM: 'BFLOAT16 Tensor Core 1,979 TFLOPS', footnoted 'With "
                        "sparsity'; dense = 1979 / 2"},
        .fp16_TFLOPs = {989.5,
                        "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), column "
                        "H200 SXM: 'FP16 Tensor Core 1,979 TFLOPS', footnoted 'With sparsity'; "
                        "dense = 1979 / 2"},
        .fp8_TFLOPs = {1979,
                       "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), column "
                       "H200 SXM: 'FP8 Tensor Core 3,958 TFLOPS', footnoted 'With sparsity'; "
                       "dense = 3958 / 2"},
        .fp8_variant = "OCP",  // same Hopper tensor cores as H100 (see above)
        .tdp_W = {700,
                  "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), column H200 SXM: "
                  "'Max Thermal Design Power (TDP) Up to 700W (configurable)'"},
    },
    // ---------------------------------------------------------------- NVIDIA A100 SXM4 80GB
    {
        .key = "a100-80gb",
        .name = "NVIDIA A100 SXM4 80GB",
        .vendor = "NVIDIA",
        .arch = "sm_80",
        .runtime_names = "NVIDIA A100-SXM4-80GB",
        .memory_GB = {80,
                      "NVIDIA A100 Tensor Core GPU datasheet (2021, 1758950-r4), column "
                      "'A100 80GB SXM': 'GPU Memory 80GB HBM2e'"},
        .hbm_bandwidth_GBps = {2039,
                               "NVIDIA A100 Tensor Core GPU datasheet (2021, 1758950-r4), column "
                               "'A100 80GB SXM': 'GPU Memory Bandwidth 2,039GB/s'"},
        .sm_count = {108,
                     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (Ampere GA100, 2020), "
                     "Figure 6: 'GA100 Full GPU with 128 SMs (A100 Tensor Core GPU has 108 SMs)'"},
        .l2_MB = {40,
                  "NVIDIA A100 Tensor Core GPU Architecture whitepaper (Ampere GA100, 2020), "
                  "section '40 GB HBM2 and 40 MB L2 Cache' (the 80GB part changes only the HBM)"},
        .warp_size = {32,
                      "CUDA C++ Programming Guide (CUDA 13.0, 2025), section 'SIMT Architecture': "
                      "threads are created, scheduled and executed in warps of 32"},
        .fp32_TFLOPs = {19.5,
                        "NVIDIA A100 Tensor Core GPU datasheet (2021, 1758950-r4), column "
                        "'A100 80GB SXM': 'FP32 19.5 TFLOPS' (CUDA cores)"},
        .tf32_TFLOPs = {156,
                        "NVIDIA A100 Tensor Core GPU datasheet (2021, 1758950-r4): 'Tensor Float "
                        "32 (TF32) 156 TFLOPS | 312 TFLOPS*'; dense is the first number (* = with "
                        "sparsity)"},
        .bf16_TFLOPs = {312,
                        "NVIDIA A100 Tensor Core GPU datasheet (2021, 1758950-r4): 'BFLOAT16 "
                        "Tensor Core 312 TFLOPS | 624 TFLOPS*'; dense is the first number (* = "
                        "with sparsity)"},
        .fp16_TFLOPs = {312,
                        "NVIDIA A100 Tensor Core GPU datasheet (2021, 1758950-r4): 'FP16 Tensor "
                        "Core 312 TFLOPS | 624 TFLOPS*'; dense is the first number "
                        "(* = with sparsity)"},
        .fp8_TFLOPs = {kNotApplicable,
                       "Not applicable: the A100 datasheet (2021) lists no FP8 rate; "
                       "Ampere (sm_80) tensor cores have no FP8 (it arrived with "
                       "Hopper sm_90 and Ada sm_89)"},
        .fp8_variant = "none",
        .tdp_W = {400,
                  "NVIDIA A100 Tensor Core GPU datasheet (2021, 1758950-r4), column "
                  "'A100 80GB SXM': 'Max Thermal Design Power (TDP) 400W'"},
    },
    // ---------------------------------------------------------------- AMD Instinct MI300X
    {
        .key = "mi300x",
        .name = "AMD Instinct MI300X",
        .vendor = "AMD",
        .arch = "gfx942",
        .runtime_names = "AMD Instinct MI300X",
        .memory_GB = {192,
                      "AMD Instinct MI300X data sheet (2023): '192 GB HBM3'; ROCm docs 'AMD GPU "
                      "specifications' (2025), MI300X row: VRAM 192"},
        .hbm_bandwidth_GBps = {5300,
                               "AMD Instinct MI300X data sheet (2023): 'Peak Theoretical Memory "
                               "Bandwidth 5.3 TB/s'; ROCm docs 'AMD Instinct MI300 series "
                               "microarchitecture': 'theoretical aggregated peak memory "
                               "bandwidth of the GPU is 5.3 TB per second'"},
        .sm_count = {304,
                     "ROCm docs 'AMD GPU specifications' (2025), MI300X row: 'Compute Units 304 "
                     "(38 per XCD)'; AMD Instinct MI300X data sheet (2023): 304 CUs"},
        .l2_MB = {32,
                  "ROCm docs 'AMD GPU specifications' (2025), MI300X row: 'L2 Cache (MiB) 32 (4 "
                  "per XCD)'; AMD CDNA 3 architecture whitepaper (2023): a 4 MB L2 per XCD x 8 "
                  "XCDs. The 256 MB AMD Infinity Cache (memory-side, on the I/O dies; the table's "
                  "L3 column) is separate and not counted here"},
        .warp_size = {64,
                      "ROCm docs 'AMD GPU specifications' (2025), MI300X row: 'Wavefront Size 64' "
                      "(CDNA 3 ISA reference guide, 2023: wave64)"},
        .fp32_TFLOPs = {163.4,
                        "ROCm docs 'AMD Instinct MI300 series microarchitecture', table "
                        "'Peak-performance capabilities of the MI300X': 'Vector FP32, 256 "
                        "FLOPS/clock/CU, 163.4' (= data sheet 'Peak FP32 Vector 163.4 TFLOPs'). "
                        "Counts packed FP32 (v_pk_fma_f32, 2 FMAs per lane per clock); code of "
                        "scalar v_fma_f32 peaks at half, 81.7"},
        .tf32_TFLOPs = {653.7,
                        "ROCm docs 'AMD Instinct MI300 series microarchitecture', table "
                        "'Peak-performance capabilities of the MI300X': 'Vector TF32, 1024 "
                        "FLOPS/clock/CU, 653.7' (an MFMA matrix-core rate despite the label; "
                        "dense, the data sheet's 1307.4 is with sparsity)"},
        .bf16_TFLOPs = {1307.4,
                        "ROCm docs 'AMD Instinct MI300 series microarchitecture', table "
                        "'Peak-performance capabilities of the MI300X': 'Matrix BF16, 2048 "
                        "FLOPS/clock/CU, 1307.4' (dense; the data sheet's 2614.9 is with "
                        "sparsity)"},
        .fp16_TFLOPs = {1307.4,
                        "ROCm docs 'AMD Instinct MI300 series microarchitecture', table "
                        "'Peak-performance capabilities of the MI300X': 'Matrix FP16, 2048 "
                        "FLOPS/clock/CU, 1307.4' (dense; the data sheet's 2614.9 is with "
                        "sparsity)"},
        .fp8_TFLOPs = {2614.9,
                       "ROCm docs 'AMD Instinct MI300 series microarchitecture', table "
                       "'Peak-performance capabilities of the MI300X': 'Matrix FP8, 4096 "
                       "FLOPS/clock/CU, 2614.9' (dense; the data sheet's 5229.8 is with "
                       "sparsity)"},
        // HIP docs 'FP8 Numbers' (ROCm 6.2): gfx940/gfx941/gfx942 support FNUZ FP8
        // (E4M3FNUZ / E5M2FNUZ: no infinities, one NaN at -0), not OCP FP8.
        .fp8_variant = "FNUZ",
        .tdp_W = {750,
                  "AMD Instinct MI300X data sheet (2023): 'Total Board Power (TBP) 750W Peak'; "
                  "AMD's MLPerf Inference v4.1 system names the part "
                  "'MI300X-NPS1-SPX-192GB-750W'"},
    },
}};

/// Short names a learner types; each stands for one row's key.
struct Alias {
  std::string_view alias;
  std::string_view key;
};
constexpr std::array<Alias, 4> kAliases{{
    {"h100", "h100-sxm"},
    {"h200", "h200-sxm"},
    {"a100", "a100-80gb"},
    {"mi300x", "mi300x"},
}};

/// Lower case, with spaces, '-' and '_' removed: "NVIDIA H200-SXM" -> "nvidiah200sxm".
std::string normalized(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isspace(byte) != 0 || c == '-' || c == '_') continue;
    out.push_back(static_cast<char>(std::tolower(byte)));
  }
  return out;
}

/// True if `wanted` (already normalized) is `name` or "<vendor> <name>".
bool called(std::string_view wanted, const GpuSpec& spec, std::string_view name) {
  const std::string bare = normalized(name);
  return wanted == bare || wanted == normalized(spec.vendor) + bare;
}

/// True if `visit` holds for some '|'-separated entry of `list` (entries trimmed of spaces).
template <typename Visit>
bool any_entry(std::string_view list, Visit visit) {
  while (true) {
    const std::size_t bar = list.find('|');
    std::string_view entry = list.substr(0, bar);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    if (!entry.empty() && visit(entry)) return true;
    if (bar == std::string_view::npos) return false;
    list.remove_prefix(bar + 1);
  }
}

}  // namespace

std::span<const GpuSpec> gpu_table() { return kGpuTable; }

const GpuSpec* find_gpu(std::string_view name) {
  const std::string wanted = normalized(name);
  if (wanted.empty()) return nullptr;
  for (const GpuSpec& spec : kGpuTable) {
    if (called(wanted, spec, spec.key) || called(wanted, spec, spec.name)) return &spec;
    for (const Alias& alias : kAliases) {
      if (alias.key == spec.key && called(wanted, spec, alias.alias)) return &spec;
    }
    const bool runtime_name = any_entry(
        spec.runtime_names, [&](std::string_view entry) { return wanted == normalized(entry); });
    if (runtime_name) return &spec;
  }
  return nullptr;
}

const GpuSpec* match_runtime_name(std::string_view runtime_name) {
  while (!runtime_name.empty() && runtime_name.front() == ' ') runtime_name.remove_prefix(1);
  while (!runtime_name.empty() && runtime_name.back() == ' ') runtime_name.remove_suffix(1);
  if (runtime_name.empty()) return nullptr;
  for (const GpuSpec& spec : kGpuTable) {
    // Exact, so "NVIDIA H200 NVL" (a 600 W PCIe card) does not take the H200 SXM row.
    const bool listed = any_entry(spec.runtime_names,
                                  [&](std::string_view entry) { return entry == runtime_name; });
    if (listed) return &spec;
  }
  return nullptr;
}

std::string known_keys() {
  std::string keys;
  for (const GpuSpec& spec : kGpuTable) {
    if (!keys.empty()) keys += ", ";
    keys += spec.key;
  }
  return keys;
}

}  // namespace tutor::hw
