// The GPU datasheet table, checked cell by cell against the number printed in the document
// each cell cites. Every expected literal is typed from that document (quoted beside it), or
// derived from it by hand in the comment; none comes from running the code under test.
// Hopper datasheets print tensor rates "with sparsity" (*): the dense value is half.
#include "tutor/hardware.hpp"
#include "tutor/roofline.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

using tutor::hw::find_gpu;
using tutor::hw::GpuSpec;
using tutor::hw::gpu_table;
using tutor::hw::known_keys;
using tutor::hw::match_runtime_name;
using tutor::hw::Sourced;
using tutor::roofline::ridge_point;

/// The row for `key`; throws (a test failure) when the table lacks it.
const GpuSpec& row(std::string_view key) {
  const GpuSpec* spec = find_gpu(key);
  if (spec == nullptr) throw std::runtime_error("no row for " + std::string(key));
  return *spec;
}

/// Every sourced cell of a row, with its field name for failure messages.
struct Cell {
  const char* field;
  Sourced GpuSpec::*member;
};
constexpr std::array<Cell, 11> kCells{{
    {"memory_GB", &GpuSpec::memory_GB},
    {"hbm_bandwidth_GBps", &GpuSpec::hbm_bandwidth_GBps},
    {"sm_count", &GpuSpec::sm_count},
    {"l2_MB", &GpuSpec::l2_MB},
    {"warp_size", &GpuSpec::warp_size},
    {"fp32_TFLOPs", &GpuSpec::fp32_TFLOPs},
    {"tf32_TFLOPs", &GpuSpec::tf32_TFLOPs},
    {"bf16_TFLOPs", &GpuSpec::bf16_TFLOPs},
    {"fp16_TFLOPs", &GpuSpec::fp16_TFLOPs},
    {"fp8_TFLOPs", &GpuSpec::fp8_TFLOPs},
    {"tdp_W", &GpuSpec::tdp_W},
}};

bool mentions(std::string_view source, std::string_view word) {
  return source.find(word) != std::string_view::npos;
}

// ------------------------------------------------------------------ the table itself

TEST(HardwareTable, HoldsTheFourDocumentedGpusInOrder) {
  const auto table = gpu_table();
  ASSERT_EQ(table.size(), 4u);
  EXPECT_EQ(table[0].key, "h100-sxm");
  EXPECT_EQ(table[1].key, "h200-sxm");
  EXPECT_EQ(table[2].key, "a100-80gb");
  EXPECT_EQ(table[3].key, "mi300x");
}

TEST(HardwareTable, EveryCellOfEveryRowNamesItsSource) {
  for (const GpuSpec& spec : gpu_table()) {
    for (const Cell& cell : kCells) {
      const Sourced& sourced = spec.*cell.member;
      EXPECT_FALSE(sourced.source.empty()) << spec.key << "." << cell.field;
    }
    EXPECT_FALSE(spec.name.empty()) << spec.key;
    EXPECT_FALSE(spec.vendor.empty()) << spec.key;
    EXPECT_FALSE(spec.arch.empty()) << spec.key;
    EXPECT_FALSE(spec.runtime_names.empty()) << spec.key;
    EXPECT_FALSE(spec.fp8_variant.empty()) << spec.key;
  }
}

TEST(HardwareTable, OnlyA100Fp8IsNotApplicableAndItsSourceSaysWhy) {
  for (const GpuSpec& spec : gpu_table()) {
    for (const Cell& cell : kCells) {
      const Sourced& sourced = spec.*cell.member;
      const bool a100_fp8 = spec.key == "a100-80gb" && std::string_view(cell.field) == "fp8_TFLOPs";
      EXPECT_EQ(std::isnan(sourced.value), a100_fp8) << spec.key << "." << cell.field;
      if (a100_fp8) {
        EXPECT_TRUE(mentions(sourced.source, "Not applicable")) << sourced.source;
      }
    }
  }
}

TEST(HardwareTable, HalvedHopperTensorRatesSaySoInTheirSource) {
  for (const std::string_view key : {"h100-sxm", "h200-sxm"}) {
    const GpuSpec& spec = row(key);
    for (const Sourced* cell : {&spec.tf32_TFLOPs, &spec.bf16_TFLOPs, &spec.fp16_TFLOPs,
                                &spec.fp8_TFLOPs}) {
      EXPECT_TRUE(mentions(cell->source, "sparsity")) << key << ": " << cell->source;
      EXPECT_TRUE(mentions(cell->source, "/ 2")) << key << ": " << cell->source;
    }
  }
}

TEST(HardwareTable, TensorRatesAreDenseNotSparse) {
  // The sparse numbers are 1979 (H100/H200 BF16), 624 (A100 BF16), 2614.9 (MI300X BF16),
  // 3958 (Hopper FP8): every dense value must sit well below them.
  EXPECT_LT(row("h100-sxm").bf16_TFLOPs.value, 1000.0);
  EXPECT_LT(row("h200-sxm").bf16_TFLOPs.value, 1000.0);
  EXPECT_LT(row("h100-sxm").fp8_TFLOPs.value, 2000.0);
  EXPECT_LT(row("a100-80gb").bf16_TFLOPs.value, 400.0);
  EXPECT_LT(row("mi300x").bf16_TFLOPs.value, 1400.0);
  EXPECT_LT(row("mi300x").fp8_TFLOPs.value, 3000.0);
}

TEST(HardwareTable, TensorRatesDoubleAsPrecisionHalves) {
  // On every row: TF32 is half of BF16, BF16 equals FP16, FP8 is twice BF16 (where it exists),
  // to the rounding of the printed numbers (H100: TF32 989* vs BF16 1,979*; 0.05% apart).
  for (const GpuSpec& spec : gpu_table()) {
    const double rounding = spec.bf16_TFLOPs.value * 0.001;
    EXPECT_NEAR(spec.tf32_TFLOPs.value * 2, spec.bf16_TFLOPs.value, rounding) << spec.key;
    EXPECT_DOUBLE_EQ(spec.bf16_TFLOPs.value, spec.fp16_TFLOPs.value) << spec.key;
    if (!std::isnan(spec.fp8_TFLOPs.value)) {
      EXPECT_NEAR(spec.fp8_TFLOPs.value, spec.bf16_TFLOPs.value * 2, rounding) << spec.key;
    }
  }
}

// ------------------------------------------------------------------ H100 SXM5

TEST(HardwareTable, H100Sxm_MemoryAndBandwidthMatchDatasheet) {
  const GpuSpec& h100 = row("h100-sxm");
  EXPECT_DOUBLE_EQ(h100.memory_GB.value, 80);             // "GPU memory 80GB"
  EXPECT_DOUBLE_EQ(h100.hbm_bandwidth_GBps.value, 3350);  // "GPU memory bandwidth 3.35TB/s"
  // "Max thermal design power (TDP) Up to 700W (configurable)"
  EXPECT_DOUBLE_EQ(h100.tdp_W.value, 700);
}

TEST(HardwareTable, H100Sxm_SmCountAndL2MatchHopperWhitepaper) {
  const GpuSpec& h100 = row("h100-sxm");
  EXPECT_DOUBLE_EQ(h100.sm_count.value, 132);  // Hopper whitepaper, H100 SXM5: "132 SMs per GPU"
  EXPECT_DOUBLE_EQ(h100.l2_MB.value, 50);      // Hopper whitepaper, H100 SXM5: "50 MB L2 Cache"
  EXPECT_DOUBLE_EQ(h100.warp_size.value, 32);  // CUDA C++ Programming Guide: warps of 32 threads
}

TEST(HardwareTable, H100Sxm_RatesAreDatasheetDenseRates) {
  const GpuSpec& h100 = row("h100-sxm");
  EXPECT_DOUBLE_EQ(h100.fp32_TFLOPs.value, 67);          // "FP32 67 teraFLOPS" (no asterisk)
  EXPECT_DOUBLE_EQ(h100.tf32_TFLOPs.value, 989.0 / 2);   // "TF32 Tensor Core 989 teraFLOPS*"
  EXPECT_DOUBLE_EQ(h100.bf16_TFLOPs.value, 1979.0 / 2);  // "BFLOAT16 Tensor Core 1,979 teraFLOPS*"
  EXPECT_DOUBLE_EQ(h100.fp16_TFLOPs.value, 1979.0 / 2);  // "FP16 Tensor Core 1,979 teraFLOPS*"
  EXPECT_DOUBLE_EQ(h100.fp8_TFLOPs.value, 3958.0 / 2);   // "FP8 Tensor Core 3,958 teraFLOPS*"
  // (* "With sparsity", so each tensor rate above is the printed number / 2.)
}

TEST(HardwareTable, H100Sxm_IsHopperWithOcpFp8) {
  const GpuSpec& h100 = row("h100-sxm");
  EXPECT_EQ(h100.vendor, "NVIDIA");
  EXPECT_EQ(h100.arch, "sm_90");
  EXPECT_EQ(h100.fp8_variant, "OCP");  // E4M3/E5M2 with infinities (E5M2) and NaN: OCP OFP8
}

// ------------------------------------------------------------------ H200 SXM

TEST(HardwareTable, H200_HbmBandwidthIs4800GBps) {
  // H200 datasheet, column H200 SXM: "GPU Memory Bandwidth 4.8TB/s"
  EXPECT_DOUBLE_EQ(row("h200-sxm").hbm_bandwidth_GBps.value, 4800);
}

TEST(HardwareTable, H200_MemoryIs141GBAndTdpIs700W) {
  const GpuSpec& h200 = row("h200-sxm");
  EXPECT_DOUBLE_EQ(h200.memory_GB.value, 141);  // "GPU Memory 141GB"
  EXPECT_DOUBLE_EQ(h200.tdp_W.value, 700);      // "Max Thermal Design Power (TDP) Up to 700W"
}

TEST(HardwareTable, H200_SmCountAndL2MatchWhatTheRuntimeReported) {
  // No H200 document lists these; shared/anchors/h200.md records cudaDeviceProp on the lent
  // H200: "132 SMs, 60 MB L2". 132 is the H100 SXM5 SM count (Hopper whitepaper); 60 MB is the
  // full GH100 L2, where H100 SXM5 enables 50 MB.
  const GpuSpec& h200 = row("h200-sxm");
  EXPECT_DOUBLE_EQ(h200.sm_count.value, 132);
  EXPECT_DOUBLE_EQ(h200.l2_MB.value, 60);
  EXPECT_DOUBLE_EQ(h200.warp_size.value, 32);
  EXPECT_TRUE(mentions(h200.sm_count.source, "anchors/h200.md"));
  EXPECT_TRUE(mentions(h200.l2_MB.source, "anchors/h200.md"));
}

TEST(HardwareTable, H200_RatesAreDatasheetDenseRates) {
  const GpuSpec& h200 = row("h200-sxm");
  EXPECT_DOUBLE_EQ(h200.fp32_TFLOPs.value, 67);          // "FP32 67 TFLOPS"
  EXPECT_DOUBLE_EQ(h200.tf32_TFLOPs.value, 989.0 / 2);   // "TF32 Tensor Core 989 TFLOPS"
  EXPECT_DOUBLE_EQ(h200.bf16_TFLOPs.value, 1979.0 / 2);  // "BFLOAT16 Tensor Core 1,979 TFLOPS"
  EXPECT_DOUBLE_EQ(h200.fp16_TFLOPs.value, 1979.0 / 2);  // "FP16 Tensor Core 1,979 TFLOPS"
  EXPECT_DOUBLE_EQ(h200.fp8_TFLOPs.value, 3958.0 / 2);   // "FP8 Tensor Core 3,958 TFLOPS"
  // (the four tensor rates are footnoted "With sparsity", so each is the printed number / 2)
  EXPECT_EQ(h200.fp8_variant, "OCP");
  EXPECT_EQ(h200.arch, "sm_90");
}

TEST(HardwareTable, H200_ComputeRatesEqualH100SxmBecauseOnlyMemoryChanged) {
  // Both datasheets print the same FP32 and tensor rates; the H200 changes HBM only.
  const GpuSpec& h100 = row("h100-sxm");
  const GpuSpec& h200 = row("h200-sxm");
  EXPECT_DOUBLE_EQ(h200.fp32_TFLOPs.value, h100.fp32_TFLOPs.value);
  EXPECT_DOUBLE_EQ(h200.bf16_TFLOPs.value, h100.bf16_TFLOPs.value);
  EXPECT_DOUBLE_EQ(h200.fp8_TFLOPs.value, h100.fp8_TFLOPs.value);
  EXPECT_GT(h200.hbm_bandwidth_GBps.value, h100.hbm_bandwidth_GBps.value);
}

// ------------------------------------------------------------------ A100 SXM4 80GB

TEST(HardwareTable, A100_80GB_MemoryAndBandwidthMatchDatasheet) {
  const GpuSpec& a100 = row("a100-80gb");
  EXPECT_DOUBLE_EQ(a100.memory_GB.value, 80);             // "GPU Memory 80GB HBM2e"
  EXPECT_DOUBLE_EQ(a100.hbm_bandwidth_GBps.value, 2039);  // "GPU Memory Bandwidth 2,039GB/s"
  EXPECT_DOUBLE_EQ(a100.tdp_W.value, 400);                // "Max Thermal Design Power (TDP) 400W"
}

TEST(HardwareTable, A100_80GB_SmCountAndL2MatchAmpereWhitepaper) {
  const GpuSpec& a100 = row("a100-80gb");
  EXPECT_DOUBLE_EQ(a100.sm_count.value, 108);  // Figure 6: "(A100 Tensor Core GPU has 108 SMs)"
  EXPECT_DOUBLE_EQ(a100.l2_MB.value, 40);      // section "40 GB HBM2 and 40 MB L2 Cache"
  EXPECT_DOUBLE_EQ(a100.warp_size.value, 32);
}

TEST(HardwareTable, A100_80GB_RatesAreTheDenseNumbersItsDatasheetPrints) {
  const GpuSpec& a100 = row("a100-80gb");
  // The A100 datasheet prints the dense rate first and the sparse one (*) after it.
  EXPECT_DOUBLE_EQ(a100.fp32_TFLOPs.value, 19.5);  // "FP32 19.5 TFLOPS"
  EXPECT_DOUBLE_EQ(a100.tf32_TFLOPs.value, 156);   // "Tensor Float 32 (TF32) 156 TFLOPS | 312*"
  EXPECT_DOUBLE_EQ(a100.bf16_TFLOPs.value, 312);   // "BFLOAT16 Tensor Core 312 TFLOPS | 624*"
  EXPECT_DOUBLE_EQ(a100.fp16_TFLOPs.value, 312);   // "FP16 Tensor Core 312 TFLOPS | 624*"
}

TEST(HardwareTable, A100_80GB_HasNoFp8) {
  const GpuSpec& a100 = row("a100-80gb");
  EXPECT_TRUE(std::isnan(a100.fp8_TFLOPs.value));  // the datasheet has no FP8 row
  EXPECT_EQ(a100.fp8_variant, "none");
  EXPECT_EQ(a100.arch, "sm_80");
}

// ------------------------------------------------------------------ AMD Instinct MI300X

TEST(HardwareTable, MI300X_MemoryAndBandwidthMatchDataSheet) {
  const GpuSpec& mi300x = row("mi300x");
  EXPECT_DOUBLE_EQ(mi300x.memory_GB.value, 192);  // "192 GB HBM3"
  EXPECT_DOUBLE_EQ(mi300x.tdp_W.value, 750);      // "Total Board Power (TBP) 750W Peak"
  // "Peak Theoretical Memory Bandwidth 5.3 TB/s"
  EXPECT_DOUBLE_EQ(mi300x.hbm_bandwidth_GBps.value, 5300);
}

TEST(HardwareTable, MI300X_CusWavefrontAndL2MatchRocmSpecTable) {
  // ROCm "AMD GPU specifications", MI300X row: "304 (38 per XCD)", wavefront "64",
  // L2 "32 (4 per XCD)", L3 "256" (Infinity Cache: not the l2_MB cell).
  const GpuSpec& mi300x = row("mi300x");
  EXPECT_DOUBLE_EQ(mi300x.sm_count.value, 304);
  EXPECT_DOUBLE_EQ(mi300x.warp_size.value, 64);
  EXPECT_DOUBLE_EQ(mi300x.l2_MB.value, 32);  // 4 MB per XCD x 8 XCDs
  EXPECT_TRUE(mentions(mi300x.l2_MB.source, "Infinity Cache"));
}

TEST(HardwareTable, MI300X_RatesMatchRocmPeakPerformanceTable) {
  // ROCm "AMD Instinct MI300 series microarchitecture", table "Peak-performance capabilities of
  // the MI300X" (FLOPS/clock/CU x 304 CUs x 2.1 GHz):
  const GpuSpec& mi300x = row("mi300x");
  EXPECT_DOUBLE_EQ(mi300x.fp32_TFLOPs.value, 163.4);   // "Vector FP32 | 256 | 163.4" (packed FP32)
  EXPECT_DOUBLE_EQ(mi300x.tf32_TFLOPs.value, 653.7);   // "Vector TF32 | 1024 | 653.7"
  EXPECT_DOUBLE_EQ(mi300x.bf16_TFLOPs.value, 1307.4);  // "Matrix BF16 | 2048 | 1307.4"
  EXPECT_DOUBLE_EQ(mi300x.fp16_TFLOPs.value, 1307.4);  // "Matrix FP16 | 2048 | 1307.4"
  EXPECT_DOUBLE_EQ(mi300x.fp8_TFLOPs.value, 2614.9);   // "Matrix FP8 | 4096 | 2614.9"
  // Hand check of the FP32 row: 256 FLOP/clock/CU x 304 CU x 2.1e9 /s = 163.43e12.
  EXPECT_NEAR(256.0 * 304 * 2.1e9 / 1e12, mi300x.fp32_TFLOPs.value, 0.05);
}

TEST(HardwareTable, MI300X_IsCdna3WithFnuzFp8) {
  const GpuSpec& mi300x = row("mi300x");
  EXPECT_EQ(mi300x.vendor, "AMD");
  EXPECT_EQ(mi300x.arch, "gfx942");
  EXPECT_EQ(mi300x.fp8_variant, "FNUZ");  // HIP "FP8 Numbers": gfx942 supports FNUZ, not OCP
}

// ------------------------------------------------------------------ ridge points

/// Ridge point of `key`'s roof `rate` over its HBM bandwidth, in FLOP/byte.
double ridge(std::string_view key, Sourced GpuSpec::*rate) {
  const GpuSpec& spec = row(key);
  return ridge_point((spec.*rate).value, spec.hbm_bandwidth_GBps.value);
}

TEST(HardwareTable, RidgePoints_Bf16DenseOverHbmBandwidth) {
  // ridge = peak FLOP/s / bandwidth B/s, by hand:
  // H100: 989.5e12 / 3350e9 = 295.37 FLOP/B
  EXPECT_NEAR(ridge("h100-sxm", &GpuSpec::bf16_TFLOPs), 295.4, 0.05);
  // H200: 989.5e12 / 4800e9 = 206.15 FLOP/B (more bandwidth, same compute: a lower ridge)
  EXPECT_NEAR(ridge("h200-sxm", &GpuSpec::bf16_TFLOPs), 206.1, 0.05);
  // A100 80GB: 312e12 / 2039e9 = 153.02 FLOP/B
  EXPECT_NEAR(ridge("a100-80gb", &GpuSpec::bf16_TFLOPs), 153.0, 0.05);
  // MI300X: 1307.4e12 / 5300e9 = 246.68 FLOP/B
  EXPECT_NEAR(ridge("mi300x", &GpuSpec::bf16_TFLOPs), 246.7, 0.05);
}

TEST(HardwareTable, RidgePoints_Fp32VectorAndFp8) {
  // H100 FP32 (CUDA cores): 67e12 / 3350e9 = 20.0 FLOP/B
  EXPECT_NEAR(ridge("h100-sxm", &GpuSpec::fp32_TFLOPs), 20.0, 0.05);
  // A100 FP32: 19.5e12 / 2039e9 = 9.56 FLOP/B
  EXPECT_NEAR(ridge("a100-80gb", &GpuSpec::fp32_TFLOPs), 9.56, 0.005);
  // H200 FP8: 1979e12 / 4800e9 = 412.29 FLOP/B
  EXPECT_NEAR(ridge("h200-sxm", &GpuSpec::fp8_TFLOPs), 412.3, 0.05);
  // MI300X FP8: 2614.9e12 / 5300e9 = 493.38 FLOP/B
  EXPECT_NEAR(ridge("mi300x", &GpuSpec::fp8_TFLOPs), 493.4, 0.05);
}

// ------------------------------------------------------------------ lookup

TEST(HardwareLookup, FindsEveryRowByItsKey) {
  for (const GpuSpec& spec : gpu_table()) {
    EXPECT_EQ(find_gpu(spec.key), &spec) << spec.key;
    EXPECT_EQ(find_gpu(spec.name), &spec) << spec.name;
  }
}

TEST(HardwareLookup, FindsRowsByShortAliases) {
  EXPECT_EQ(find_gpu("h100"), &row("h100-sxm"));
  EXPECT_EQ(find_gpu("h200"), &row("h200-sxm"));
  EXPECT_EQ(find_gpu("a100"), &row("a100-80gb"));
  EXPECT_EQ(find_gpu("mi300x"), &row("mi300x"));
}

TEST(HardwareLookup, IgnoresCaseSpacesDashesAndUnderscores) {
  const GpuSpec* h200 = &row("h200-sxm");
  EXPECT_EQ(find_gpu("H200"), h200);
  EXPECT_EQ(find_gpu("h200-sxm"), h200);
  EXPECT_EQ(find_gpu("NVIDIA H200 SXM"), h200);
  EXPECT_EQ(find_gpu("H200_SXM"), h200);
  EXPECT_EQ(find_gpu(" h200 sxm "), h200);
  EXPECT_EQ(find_gpu("NVIDIA H200"), h200);
  EXPECT_EQ(find_gpu("A100_80GB"), &row("a100-80gb"));
  EXPECT_EQ(find_gpu("NVIDIA H100"), &row("h100-sxm"));
  EXPECT_EQ(find_gpu("MI-300X"), &row("mi300x"));
  EXPECT_EQ(find_gpu("AMD Instinct MI300X"), &row("mi300x"));
  EXPECT_EQ(find_gpu("amd mi300x"), &row("mi300x"));
}

TEST(HardwareLookup, UnknownNameFindsNothing) {
  EXPECT_EQ(find_gpu(""), nullptr);
  EXPECT_EQ(find_gpu(" - _ "), nullptr);
  EXPECT_EQ(find_gpu("h300"), nullptr);
  EXPECT_EQ(find_gpu("b200"), nullptr);
  EXPECT_EQ(find_gpu("mi250x"), nullptr);
  // Other boards of the same chips have other numbers: they must not take these rows.
  EXPECT_EQ(find_gpu("H100 PCIe"), nullptr);
  EXPECT_EQ(find_gpu("H200 NVL"), nullptr);
  EXPECT_EQ(find_gpu("A100 40GB"), nullptr);
}

TEST(HardwareLookup, MatchesExactlyTheNameTheRuntimeReports) {
  EXPECT_EQ(match_runtime_name("NVIDIA H200"), &row("h200-sxm"));  // shared/anchors/h200.md
  EXPECT_EQ(match_runtime_name("NVIDIA H100 80GB HBM3"), &row("h100-sxm"));
  EXPECT_EQ(match_runtime_name("NVIDIA A100-SXM4-80GB"), &row("a100-80gb"));
  EXPECT_EQ(match_runtime_name("AMD Instinct MI300X"), &row("mi300x"));
  EXPECT_EQ(match_runtime_name("NVIDIA H200 NVL"), nullptr);  // the 600 W PCIe card
  EXPECT_EQ(match_runtime_name("NVIDIA H100 PCIe"), nullptr);
  EXPECT_EQ(match_runtime_name("NVIDIA A100-SXM4-40GB"), nullptr);
  EXPECT_EQ(match_runtime_name(""), nullptr);
}

TEST(HardwareLookup, KnownKeysListsEveryKeyInTableOrder) {
  EXPECT_EQ(known_keys(), "h100-sxm, h200-sxm, a100-80gb, mi300x");
}

}  // namespace
