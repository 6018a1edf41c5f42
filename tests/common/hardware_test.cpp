// The GPU datasheet table, checked cell by cell against the number printed in the document
// each cell cites. Every expected literal is typed from that document (quoted beside it), or
// derived from it by hand in the comment; none comes from running the code under test.
// Where a document prints a tensor rate "with sparsity" (*), the dense value is half.
#include "tutor/hardware.hpp"
#include "tutor/roofline.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace {

using tutor::hw::find_gpu;
using tutor::hw::GpuSpec;
using tutor::hw::gpu_table;
using tutor::hw::known_keys;
using tutor::hw::kPeakDtypes;
using tutor::hw::match_runtime_name;
using tutor::hw::peak_TFLOPs;
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
constexpr std::array<Cell, 13> kCells{{
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
    {"fp4_TFLOPs", &GpuSpec::fp4_TFLOPs},
    {"tdp_W", &GpuSpec::tdp_W},
    {"interconnect_GBps", &GpuSpec::interconnect_GBps},
}};

bool mentions(std::string_view source, std::string_view word) {
  return source.find(word) != std::string_view::npos;
}

// ------------------------------------------------------------------ the table itself

TEST(HardwareTable, HoldsTheFifteenDocumentedGpusInOrder) {
  constexpr std::array<std::string_view, 15> kKeys{
      "t4",       "a100-40gb", "a100-80gb", "l4",       "rtx-4090",
      "h100-sxm", "h100-pcie", "h200-sxm",  "b200",     "gb200",
      "mi250x",   "mi300x",    "mi300a",    "mi325x",   "mi355x"};
  const auto table = gpu_table();
  ASSERT_EQ(table.size(), kKeys.size());
  for (std::size_t i = 0; i < kKeys.size(); ++i) EXPECT_EQ(table[i].key, kKeys[i]) << i;
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
    EXPECT_FALSE(spec.interconnect.empty()) << spec.key;
  }
}

// The cells that are NaN, and why. "na": the GPU has no such path (source starts "Not
// applicable"); "nf": no document that could be found prints it (source says "Not found in").
struct NanCell {
  std::string_view key;
  std::string_view field;
  std::string_view why;
};
constexpr NanCell kNanCells[] = {
    {"t4", "tf32_TFLOPs", "na"},          // Turing: no TF32
    {"t4", "bf16_TFLOPs", "na"},          // Turing: no BF16
    {"t4", "fp8_TFLOPs", "na"},
    {"t4", "fp4_TFLOPs", "na"},
    {"t4", "interconnect_GBps", "nf"},    // PCIe Gen3 x16, bandwidth not confirmed
    {"a100-40gb", "fp8_TFLOPs", "na"},
    {"a100-40gb", "fp4_TFLOPs", "na"},
    {"a100-80gb", "fp8_TFLOPs", "na"},
    {"a100-80gb", "fp4_TFLOPs", "na"},
    {"l4", "sm_count", "nf"},
    {"l4", "l2_MB", "nf"},
    {"l4", "fp4_TFLOPs", "na"},
    {"l4", "interconnect_GBps", "nf"},
    {"rtx-4090", "fp4_TFLOPs", "na"},
    {"rtx-4090", "interconnect_GBps", "nf"},
    {"h100-sxm", "fp4_TFLOPs", "na"},
    {"h100-pcie", "fp4_TFLOPs", "na"},
    {"h200-sxm", "fp4_TFLOPs", "na"},
    {"gb200", "sm_count", "nf"},
    {"gb200", "l2_MB", "nf"},
    {"mi250x", "tf32_TFLOPs", "na"},      // CDNA 2: no XF32
    {"mi250x", "fp8_TFLOPs", "na"},
    {"mi250x", "fp4_TFLOPs", "na"},
    {"mi300x", "fp4_TFLOPs", "na"},
    {"mi300a", "fp4_TFLOPs", "na"},
    {"mi300a", "tdp_W", "nf"},
    {"mi300a", "interconnect_GBps", "nf"},
    {"mi325x", "fp4_TFLOPs", "na"},
    {"mi325x", "interconnect_GBps", "nf"},
    {"mi355x", "tf32_TFLOPs", "na"},      // CDNA 4 removed XF32
};                                        // (B200 has no NaN cell)

TEST(HardwareTable, NanCellsAreExactlyTheUnsupportedOrUnpublishedOnesAndSayWhy) {
  std::set<std::pair<std::string_view, std::string_view>> expected;
  for (const NanCell& nan : kNanCells) expected.insert({nan.key, nan.field});
  std::set<std::pair<std::string_view, std::string_view>> actual;
  for (const GpuSpec& spec : gpu_table()) {
    for (const Cell& cell : kCells) {
      const Sourced& sourced = spec.*cell.member;
      if (!std::isnan(sourced.value)) {
        EXPECT_GT(sourced.value, 0.0) << spec.key << "." << cell.field;
        continue;
      }
      actual.insert({spec.key, cell.field});
    }
  }
  EXPECT_EQ(actual, expected);
  for (const NanCell& nan : kNanCells) {
    const GpuSpec& spec = row(nan.key);
    for (const Cell& cell : kCells) {
      if (nan.field != cell.field) continue;
      const std::string_view source = (spec.*cell.member).source;
      const std::string_view wanted = nan.why == "na" ? "Not applicable" : "Not found in";
      EXPECT_TRUE(mentions(source, wanted)) << nan.key << "." << nan.field << ": " << source;
    }
  }
}

TEST(HardwareTable, HalvedSparseRatesSaySoInTheirSource) {
  // Every row whose document prints tensor rates only "with sparsity".
  for (const std::string_view key : {"h100-sxm", "h100-pcie", "h200-sxm", "l4", "b200", "gb200"}) {
    const GpuSpec& spec = row(key);
    for (const Sourced* cell : {&spec.tf32_TFLOPs, &spec.bf16_TFLOPs, &spec.fp16_TFLOPs,
                                &spec.fp8_TFLOPs}) {
      EXPECT_TRUE(mentions(cell->source, "sparsity")) << key << ": " << cell->source;
      EXPECT_TRUE(mentions(cell->source, "/ 2")) << key << ": " << cell->source;
    }
  }
  for (const std::string_view key : {"b200", "gb200"}) {
    EXPECT_TRUE(mentions(row(key).fp4_TFLOPs.source, "sparsity")) << key;
    EXPECT_TRUE(mentions(row(key).fp4_TFLOPs.source, "/ 2")) << key;
  }
}

TEST(HardwareTable, DerivedCellsSayDerivedAndShowTheArithmetic) {
  for (const Sourced* cell : {&row("mi300a").tf32_TFLOPs, &row("mi300a").fp8_TFLOPs,
                              &row("mi355x").fp32_TFLOPs, &row("mi355x").bf16_TFLOPs,
                              &row("mi355x").fp16_TFLOPs, &row("mi355x").fp8_TFLOPs,
                              &row("mi355x").fp4_TFLOPs}) {
    EXPECT_TRUE(mentions(cell->source, "DERIVED")) << cell->source;
    EXPECT_TRUE(mentions(cell->source, " x ")) << cell->source;
  }
}

/// A sparse number as its document prints it, for a row's dense cell.
struct PrintedSparse {
  std::string_view key;
  Sourced GpuSpec::*member;
  double sparse;
};

TEST(HardwareTable, NoDenseRateExceedsTheSparseNumberPrinted) {
  // Each sparse number is typed from the document the cell cites (the starred or "with
  // sparsity" figure); dense must be at most half of it (2:4 sparsity doubles the rate).
  const PrintedSparse kSparse[] = {
      {"a100-40gb", &GpuSpec::tf32_TFLOPs, 312},    // "156 TFLOPS | 312 TFLOPS*"
      {"a100-40gb", &GpuSpec::bf16_TFLOPs, 624},    // "312 TFLOPS | 624 TFLOPS*"
      {"a100-80gb", &GpuSpec::tf32_TFLOPs, 312},
      {"a100-80gb", &GpuSpec::bf16_TFLOPs, 624},
      {"a100-80gb", &GpuSpec::fp16_TFLOPs, 624},
      {"l4", &GpuSpec::tf32_TFLOPs, 120},           // "TF32 Tensor Core 120 teraFLOPs*"
      {"l4", &GpuSpec::bf16_TFLOPs, 242},           // "BFLOAT16 Tensor Core 242 teraFLOPs*"
      {"l4", &GpuSpec::fp16_TFLOPs, 242},
      {"l4", &GpuSpec::fp8_TFLOPs, 485},            // "FP8 Tensor Core 485 teraFLOPs*"
      {"rtx-4090", &GpuSpec::tf32_TFLOPs, 165.2},   // "82.6/165.2"
      {"rtx-4090", &GpuSpec::bf16_TFLOPs, 330.4},   // "165.2/330.4"
      {"rtx-4090", &GpuSpec::fp16_TFLOPs, 330.4},
      {"rtx-4090", &GpuSpec::fp8_TFLOPs, 660.6},    // "330.3/660.6" (FP32 accumulate)
      {"h100-sxm", &GpuSpec::tf32_TFLOPs, 989},     // "989 teraFLOPS*"
      {"h100-sxm", &GpuSpec::bf16_TFLOPs, 1979},
      {"h100-sxm", &GpuSpec::fp8_TFLOPs, 3958},
      {"h100-pcie", &GpuSpec::tf32_TFLOPs, 756},    // "756 teraFLOPS*"
      {"h100-pcie", &GpuSpec::bf16_TFLOPs, 1513},   // "1,513 teraFLOPS*"
      {"h100-pcie", &GpuSpec::fp8_TFLOPs, 3026},    // "3,026 teraFLOPS*"
      {"h200-sxm", &GpuSpec::bf16_TFLOPs, 1979},
      {"h200-sxm", &GpuSpec::fp8_TFLOPs, 3958},
      {"b200", &GpuSpec::tf32_TFLOPs, 2200},        // "TF32 Tensor Core 2.2 PFLOPS"
      {"b200", &GpuSpec::bf16_TFLOPs, 4500},        // "FP16/BF16 Tensor Core 4.5 PFLOPS"
      {"b200", &GpuSpec::fp8_TFLOPs, 9000},         // "FP8/FP6 Tensor Core 9 PFLOPS"
      {"b200", &GpuSpec::fp4_TFLOPs, 18000},        // "FP4 Tensor Core 18 PFLOPS"
      {"gb200", &GpuSpec::tf32_TFLOPs, 2500},       // "2.5 PFLOPS"
      {"gb200", &GpuSpec::bf16_TFLOPs, 5000},       // "5 PFLOPS"
      {"gb200", &GpuSpec::fp8_TFLOPs, 10000},       // "10 PFLOPS"
      {"gb200", &GpuSpec::fp4_TFLOPs, 20000},       // "20 PFLOPS"
      {"mi300x", &GpuSpec::tf32_TFLOPs, 1307.4},    // data sheet, with sparsity
      {"mi300x", &GpuSpec::bf16_TFLOPs, 2614.9},
      {"mi300x", &GpuSpec::fp8_TFLOPs, 5229.8},
      {"mi325x", &GpuSpec::tf32_TFLOPs, 1307.4},
      {"mi325x", &GpuSpec::bf16_TFLOPs, 2614.9},
      {"mi325x", &GpuSpec::fp8_TFLOPs, 5229.8},     // "with structured sparsity 5229.8"
      {"mi355x", &GpuSpec::fp4_TFLOPs, 20100},      // "maximum FP4/FP6 ... 20.1 PFLOPS"
      {"h200-sxm", &GpuSpec::tf32_TFLOPs, 989},
  };
  for (const PrintedSparse& printed : kSparse) {
    const double dense = (row(printed.key).*printed.member).value;
    EXPECT_LT(dense, printed.sparse) << printed.key;
    // Half, to the rounding of the printed numbers (MI355X FP4: 10066.3 vs 20.1 PF / 2).
    EXPECT_LE(dense, printed.sparse / 2 * 1.005) << printed.key;
  }
}

TEST(HardwareTable, TensorRatesDoubleAsPrecisionHalves) {
  // Where both are defined: TF32 is half of BF16, BF16 equals FP16, FP8 is twice BF16 and FP4
  // twice FP8, to the rounding of the printed numbers. The loosest is B200 TF32: "2.2 PFLOPS"
  // sparse against "4.5" for BF16, 2 x 1100 = 2200 vs 2250, 2.2% apart.
  for (const GpuSpec& spec : gpu_table()) {
    const double tf32 = spec.tf32_TFLOPs.value, bf16 = spec.bf16_TFLOPs.value;
    const double fp16 = spec.fp16_TFLOPs.value, fp8 = spec.fp8_TFLOPs.value;
    const double fp4 = spec.fp4_TFLOPs.value;
    if (!std::isnan(tf32) && !std::isnan(bf16)) {
      EXPECT_NEAR(tf32 * 2, bf16, bf16 * 0.025) << spec.key;
    }
    if (!std::isnan(bf16)) {
      EXPECT_DOUBLE_EQ(bf16, fp16) << spec.key;
    }
    const double half = std::isnan(bf16) ? fp16 : bf16;
    if (!std::isnan(fp8)) {
      EXPECT_NEAR(fp8, half * 2, fp8 * 0.005) << spec.key;
    }
    if (!std::isnan(fp4)) {
      EXPECT_NEAR(fp4, fp8 * 2, fp4 * 0.005) << spec.key;
    }
  }
}

TEST(HardwareTable, NarrowerFormatsAreNeverSlower) {
  // tf32 <= bf16 <= fp8 <= fp4 where defined, and the vector FP32 rate below the tensor ones.
  for (const GpuSpec& spec : gpu_table()) {
    double previous = spec.fp32_TFLOPs.value;
    for (const Sourced* cell :
         {&spec.tf32_TFLOPs, &spec.bf16_TFLOPs, &spec.fp8_TFLOPs, &spec.fp4_TFLOPs}) {
      if (std::isnan(cell->value)) continue;
      EXPECT_LE(previous, cell->value) << spec.key << ": " << cell->source;
      previous = cell->value;
    }
  }
}

TEST(HardwareTable, Fp8VariantAndFp4FollowTheArchitecture) {
  const std::set<std::string_view> ocp{"l4", "rtx-4090", "h100-sxm", "h100-pcie", "h200-sxm",
                                       "b200", "gb200", "mi355x"};
  const std::set<std::string_view> fnuz{"mi300x", "mi300a", "mi325x"};
  for (const GpuSpec& spec : gpu_table()) {
    const std::string_view expected = ocp.contains(spec.key)    ? "OCP"
                                      : fnuz.contains(spec.key) ? "FNUZ"
                                                                : "none";
    EXPECT_EQ(spec.fp8_variant, expected) << spec.key;
    EXPECT_EQ(std::isnan(spec.fp8_TFLOPs.value), expected == "none") << spec.key;
    const bool has_fp4 = spec.key == "b200" || spec.key == "gb200" || spec.key == "mi355x";
    EXPECT_EQ(!std::isnan(spec.fp4_TFLOPs.value), has_fp4) << spec.key;
  }
}

TEST(HardwareTable, WarpIs32OnNvidiaAnd64OnAmd) {
  for (const GpuSpec& spec : gpu_table()) {
    EXPECT_DOUBLE_EQ(spec.warp_size.value, spec.vendor == "NVIDIA" ? 32 : 64) << spec.key;
  }
}

// ------------------------------------------------------------------ NVIDIA T4

TEST(HardwareTable, T4_MatchesDatasheetAndProductBrief) {
  const GpuSpec& t4 = row("t4");
  EXPECT_EQ(t4.arch, "sm_75");
  EXPECT_DOUBLE_EQ(t4.memory_GB.value, 16);            // "16 GB GDDR6"
  EXPECT_DOUBLE_EQ(t4.hbm_bandwidth_GBps.value, 320);  // "Peak Memory bandwidth Up to 320 GBytes/s"
  EXPECT_DOUBLE_EQ(t4.sm_count.value, 40);             // deviceQuery "(040) Multiprocessors"
  EXPECT_DOUBLE_EQ(t4.l2_MB.value, 4);                 // "L2 Cache Size: 4194304 bytes"
  EXPECT_DOUBLE_EQ(t4.fp32_TFLOPs.value, 8.1);         // "Single-Precision 8.1 TFLOPS"
  EXPECT_DOUBLE_EQ(t4.fp16_TFLOPs.value, 65);          // "Mixed-Precision (FP16/FP32) 65 TFLOPS"
  EXPECT_DOUBLE_EQ(t4.tdp_W.value, 70);                // "a 70 W maximum power limit"
  EXPECT_TRUE(std::isnan(t4.bf16_TFLOPs.value));       // Turing: no BF16 tensor path
  EXPECT_TRUE(std::isnan(t4.tf32_TFLOPs.value));       // Turing: no TF32
  EXPECT_TRUE(mentions(t4.interconnect, "PCIe Gen3"));
}

// ------------------------------------------------------------------ A100 SXM4 40GB / 80GB

TEST(HardwareTable, A100_40GB_MatchesDatasheet) {
  const GpuSpec& a100 = row("a100-40gb");
  EXPECT_DOUBLE_EQ(a100.memory_GB.value, 40);             // "40 GB HBM2"
  EXPECT_DOUBLE_EQ(a100.hbm_bandwidth_GBps.value, 1555);  // "1,555 GB/s"
  EXPECT_DOUBLE_EQ(a100.tdp_W.value, 400);                // "Max Thermal Design Power (TDP) 400 W"
  EXPECT_DOUBLE_EQ(a100.sm_count.value, 108);             // "(A100 Tensor Core GPU has 108 SMs)"
  EXPECT_DOUBLE_EQ(a100.l2_MB.value, 40);                 // "40 MB L2 Cache"
  EXPECT_DOUBLE_EQ(a100.interconnect_GBps.value, 600);    // "NVLink: 600GB/s"
}

TEST(HardwareTable, A100_40GB_HasTheSameComputeAsThe80GB) {
  // The datasheet prints one set of rates for both SXM parts; only the HBM differs.
  const GpuSpec& a40 = row("a100-40gb");
  const GpuSpec& a80 = row("a100-80gb");
  EXPECT_DOUBLE_EQ(a40.fp32_TFLOPs.value, 19.5);   // "FP32 19.5 TFLOPS"
  EXPECT_DOUBLE_EQ(a40.tf32_TFLOPs.value, 156);    // "156 TFLOPS | 312 TFLOPS*"
  EXPECT_DOUBLE_EQ(a40.bf16_TFLOPs.value, 312);    // "312 TFLOPS | 624 TFLOPS*"
  for (const Cell& cell : kCells) {
    const std::string_view field = cell.field;
    if (field == "memory_GB" || field == "hbm_bandwidth_GBps") continue;
    const double v40 = (a40.*cell.member).value, v80 = (a80.*cell.member).value;
    if (std::isnan(v40) || std::isnan(v80)) {
      EXPECT_EQ(std::isnan(v40), std::isnan(v80)) << field;
    } else {
      EXPECT_DOUBLE_EQ(v40, v80) << field;
    }
  }
}

TEST(HardwareTable, A100_80GB_MemoryAndBandwidthMatchDatasheet) {
  const GpuSpec& a100 = row("a100-80gb");
  EXPECT_DOUBLE_EQ(a100.memory_GB.value, 80);             // "GPU Memory 80GB HBM2e"
  EXPECT_DOUBLE_EQ(a100.hbm_bandwidth_GBps.value, 2039);  // "GPU Memory Bandwidth 2,039GB/s"
  EXPECT_DOUBLE_EQ(a100.tdp_W.value, 400);                // "Max Thermal Design Power (TDP) 400W"
  EXPECT_DOUBLE_EQ(a100.interconnect_GBps.value, 600);    // "NVLink: 600GB/s, PCIe Gen4: 64GB/s"
  EXPECT_EQ(a100.interconnect, "NVLink 3");
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

// ------------------------------------------------------------------ NVIDIA L4

TEST(HardwareTable, L4_RatesAreHalfTheDatasheetsSparseRates) {
  const GpuSpec& l4 = row("l4");
  EXPECT_EQ(l4.arch, "sm_89");
  EXPECT_DOUBLE_EQ(l4.memory_GB.value, 24);            // "GPU memory 24GB"
  EXPECT_DOUBLE_EQ(l4.hbm_bandwidth_GBps.value, 300);  // "GPU memory bandwidth 300GB/s"
  EXPECT_DOUBLE_EQ(l4.tdp_W.value, 72);                // "Max thermal design power (TDP) 72W"
  EXPECT_DOUBLE_EQ(l4.fp32_TFLOPs.value, 30.3);        // "FP32 30.3 teraFLOPs"
  EXPECT_DOUBLE_EQ(l4.tf32_TFLOPs.value, 120.0 / 2);   // "TF32 Tensor Core 120 teraFLOPs*"
  EXPECT_DOUBLE_EQ(l4.bf16_TFLOPs.value, 242.0 / 2);   // "BFLOAT16 Tensor Core 242 teraFLOPs*"
  EXPECT_DOUBLE_EQ(l4.fp16_TFLOPs.value, 242.0 / 2);   // "FP16 Tensor Core 242 teraFLOPs*"
  EXPECT_DOUBLE_EQ(l4.fp8_TFLOPs.value, 485.0 / 2);    // "FP8 Tensor Core 485 teraFLOPs*"
  EXPECT_EQ(l4.fp8_variant, "OCP");                    // Ada FP8 tensor cores: E4M3/E5M2
}

// ------------------------------------------------------------------ GeForce RTX 4090

TEST(HardwareTable, Rtx4090_RatesAreTheWhitepapersDenseFp32AccumulateRates) {
  // Ada whitepaper, specification table, GeForce RTX 4090 column (dense/sparse):
  const GpuSpec& g = row("rtx-4090");
  EXPECT_DOUBLE_EQ(g.fp32_TFLOPs.value, 82.6);     // "Peak FP32 TFLOPS (non-Tensor) 82.6"
  EXPECT_DOUBLE_EQ(g.tf32_TFLOPs.value, 82.6);     // "Peak TF32 Tensor TFLOPS 82.6/165.2"
  EXPECT_DOUBLE_EQ(g.bf16_TFLOPs.value, 165.2);    // "BF16 ... with FP32 Accumulate 165.2/330.4"
  EXPECT_DOUBLE_EQ(g.fp16_TFLOPs.value, 165.2);    // "FP16 ... with FP32 Accumulate 165.2/330.4"
  EXPECT_DOUBLE_EQ(g.fp8_TFLOPs.value, 330.3);     // "FP8 ... with FP32 Accumulate 330.3/660.6"
  EXPECT_TRUE(mentions(g.fp16_TFLOPs.source, "FP32 Accumulate"));
  EXPECT_TRUE(mentions(g.bf16_TFLOPs.source, "FP32 Accumulate"));
  EXPECT_DOUBLE_EQ(g.memory_GB.value, 24);            // "24 GB GDDR6X"
  EXPECT_DOUBLE_EQ(g.hbm_bandwidth_GBps.value, 1008); // "Memory Bandwidth 1008 GB/sec"
  EXPECT_DOUBLE_EQ(g.sm_count.value, 128);            // "SMs 128"
  EXPECT_DOUBLE_EQ(g.l2_MB.value, 72);                // "L2 Cache Size 73728 KB"
  EXPECT_DOUBLE_EQ(g.tdp_W.value, 450);               // "TGP 450 W"
  EXPECT_EQ(g.fp8_variant, "OCP");
}

// ------------------------------------------------------------------ H100 SXM5

TEST(HardwareTable, H100Sxm_MemoryAndBandwidthMatchDatasheet) {
  const GpuSpec& h100 = row("h100-sxm");
  EXPECT_DOUBLE_EQ(h100.memory_GB.value, 80);             // "GPU memory 80GB"
  EXPECT_DOUBLE_EQ(h100.hbm_bandwidth_GBps.value, 3350);  // "GPU memory bandwidth 3.35TB/s"
  // "Max thermal design power (TDP) Up to 700W (configurable)"
  EXPECT_DOUBLE_EQ(h100.tdp_W.value, 700);
  EXPECT_DOUBLE_EQ(h100.interconnect_GBps.value, 900);    // "NVLink: 900GB/s PCIe Gen5: 128GB/s"
  EXPECT_EQ(h100.interconnect, "NVLink 4");
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

// ------------------------------------------------------------------ H100 PCIe

TEST(HardwareTable, H100Pcie_MatchesTheDatasheetsPcieColumn) {
  const GpuSpec& p = row("h100-pcie");
  EXPECT_EQ(p.arch, "sm_90");
  EXPECT_DOUBLE_EQ(p.memory_GB.value, 80);              // "GPU memory 80GB"
  EXPECT_DOUBLE_EQ(p.hbm_bandwidth_GBps.value, 2000);   // "GPU memory bandwidth 2TB/s"
  EXPECT_DOUBLE_EQ(p.sm_count.value, 114);              // whitepaper: "SMs 114"
  EXPECT_DOUBLE_EQ(p.l2_MB.value, 50);                  // whitepaper: "L2 Cache Size 50 MB"
  EXPECT_DOUBLE_EQ(p.fp32_TFLOPs.value, 51);            // "FP32 51 teraFLOPS"
  EXPECT_DOUBLE_EQ(p.tf32_TFLOPs.value, 756.0 / 2);     // "TF32 Tensor Core 756 teraFLOPS*"
  EXPECT_DOUBLE_EQ(p.bf16_TFLOPs.value, 1513.0 / 2);    // "BFLOAT16 Tensor Core 1,513 teraFLOPS*"
  EXPECT_DOUBLE_EQ(p.fp16_TFLOPs.value, 1513.0 / 2);    // "FP16 Tensor Core 1,513 teraFLOPS*"
  EXPECT_DOUBLE_EQ(p.fp8_TFLOPs.value, 3026.0 / 2);     // "FP8 Tensor Core 3,026 teraFLOPS*"
  EXPECT_DOUBLE_EQ(p.tdp_W.value, 350);                 // "300-350W (configurable)": the max
  EXPECT_DOUBLE_EQ(p.interconnect_GBps.value, 600);     // "NVLink: 600GB/s PCIe Gen5: 128GB/s"
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
  EXPECT_DOUBLE_EQ(h200.interconnect_GBps.value, 900);  // "NVIDIA NVLink: 900GB/s"
}

TEST(HardwareTable, H200_SmCountAndL2MatchWhatTheRuntimeReported) {
  // No H200 document lists these; the project's B01 record (docs/results/H200/b01_architecture/
  // b01_device_info.json) has cudaDeviceProp of the H200 it measured: 132 SMs, 60 MiB of L2. 132 is the H100 SXM5 SM count (Hopper whitepaper); 60 MB is the
  // full GH100 L2, where H100 SXM5 enables 50 MB.
  const GpuSpec& h200 = row("h200-sxm");
  EXPECT_DOUBLE_EQ(h200.sm_count.value, 132);
  EXPECT_DOUBLE_EQ(h200.l2_MB.value, 60);
  EXPECT_DOUBLE_EQ(h200.warp_size.value, 32);
  EXPECT_TRUE(mentions(h200.sm_count.source, "H200 measured here"));
  EXPECT_TRUE(mentions(h200.l2_MB.source, "H200 measured here"));
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

// ------------------------------------------------------------------ Blackwell: B200, GB200

TEST(HardwareTable, B200_RatesAreHalfTheDatasheetsPerGpuSparseRates) {
  // Blackwell datasheet, "Individual Blackwell GPU Specifications", column HGX B200:
  const GpuSpec& b = row("b200");
  EXPECT_EQ(b.arch, "sm_100");
  EXPECT_DOUBLE_EQ(b.fp32_TFLOPs.value, 75);            // "FP32 75 TFLOPS" (not a tensor rate)
  EXPECT_DOUBLE_EQ(b.tf32_TFLOPs.value, 2200.0 / 2);    // "TF32 Tensor Core 2.2 PFLOPS"
  EXPECT_DOUBLE_EQ(b.bf16_TFLOPs.value, 4500.0 / 2);    // "FP16/BF16 Tensor Core 4.5 PFLOPS"
  EXPECT_DOUBLE_EQ(b.fp16_TFLOPs.value, 4500.0 / 2);
  EXPECT_DOUBLE_EQ(b.fp8_TFLOPs.value, 9000.0 / 2);     // "FP8/FP6 Tensor Core 9 PFLOPS"
  EXPECT_DOUBLE_EQ(b.fp4_TFLOPs.value, 18000.0 / 2);    // "FP4 Tensor Core 18 PFLOPS"
  EXPECT_DOUBLE_EQ(b.memory_GB.value, 180);             // "180GB HBM3E | 7.7TB/s"
  EXPECT_DOUBLE_EQ(b.hbm_bandwidth_GBps.value, 7700);
  EXPECT_DOUBLE_EQ(b.tdp_W.value, 1000);                // "Configurable up to 1,000W"
  EXPECT_DOUBLE_EQ(b.interconnect_GBps.value, 1800);    // "5th Generation NVLink: 1.8TB/s"
  EXPECT_EQ(b.interconnect, "NVLink 5");
  EXPECT_DOUBLE_EQ(b.sm_count.value, 148);              // runtime: "Number of SMs: 148"
  EXPECT_DOUBLE_EQ(b.l2_MB.value, 126);                 // tuning guide: "126 MB"
}

TEST(HardwareTable, B200_PerGpuRatesAgreeWithTheHgxSystemTotals) {
  // HGX B200 (8 GPUs) system column, with sparsity: "FP4 Tensor Core 144 PFLOPS", "FP8/FP6
  // 72 PFLOPS", "FP16/BF16 36 PFLOPS"; per GPU dense = total / 8 / 2.
  const GpuSpec& b = row("b200");
  EXPECT_DOUBLE_EQ(b.fp4_TFLOPs.value, 144000.0 / 8 / 2);
  EXPECT_DOUBLE_EQ(b.fp8_TFLOPs.value, 72000.0 / 8 / 2);
  EXPECT_DOUBLE_EQ(b.bf16_TFLOPs.value, 36000.0 / 8 / 2);
  EXPECT_DOUBLE_EQ(b.interconnect_GBps.value, 14400.0 / 8);  // "Total NVLink Bandwidth 14.4TB/s"
}

TEST(HardwareTable, GB200_RatesAreHalfTheDatasheetsPerGpuSparseRates) {
  // Blackwell datasheet, "Individual Blackwell GPU Specifications", column GB200 NVL72:
  const GpuSpec& g = row("gb200");
  EXPECT_EQ(g.arch, "sm_100");
  EXPECT_DOUBLE_EQ(g.fp32_TFLOPs.value, 80);            // "FP32 80 TFLOPS"
  EXPECT_DOUBLE_EQ(g.tf32_TFLOPs.value, 2500.0 / 2);    // "TF32 Tensor Core 2.5 PFLOPS"
  EXPECT_DOUBLE_EQ(g.bf16_TFLOPs.value, 5000.0 / 2);    // "FP16/BF16 Tensor Core 5 PFLOPS"
  EXPECT_DOUBLE_EQ(g.fp8_TFLOPs.value, 10000.0 / 2);    // "FP8/FP6 Tensor Core 10 PFLOPS"
  EXPECT_DOUBLE_EQ(g.fp4_TFLOPs.value, 20000.0 / 2);    // "FP4 Tensor Core 20 PFLOPS"
  EXPECT_DOUBLE_EQ(g.memory_GB.value, 186);             // "186GB HBM3E | 8TB/s"
  EXPECT_DOUBLE_EQ(g.hbm_bandwidth_GBps.value, 8000);
  EXPECT_DOUBLE_EQ(g.tdp_W.value, 1200);                // "Configurable up to 1,200W"
  EXPECT_DOUBLE_EQ(g.interconnect_GBps.value, 1800);
  // Rack (72 GPUs): "FP4 Tensor Core 1,440 PFLOPS" / 72 = 20 sparse; "130TB/s" NVLink / 72.
  EXPECT_DOUBLE_EQ(g.fp4_TFLOPs.value, 1440000.0 / 72 / 2);
  EXPECT_NEAR(g.interconnect_GBps.value, 130000.0 / 72, 10);  // 1805.6, printed as 1.8TB/s
}

// ------------------------------------------------------------------ AMD Instinct MI250X

TEST(HardwareTable, MI250X_MatchesTheLaunchTableAndRocmSpecs) {
  const GpuSpec& m = row("mi250x");
  EXPECT_EQ(m.arch, "gfx90a");
  EXPECT_DOUBLE_EQ(m.memory_GB.value, 128);            // "128GB"
  EXPECT_DOUBLE_EQ(m.hbm_bandwidth_GBps.value, 3200);  // "3.2 TB/sec"
  EXPECT_DOUBLE_EQ(m.sm_count.value, 220);             // "220 (110 per GCD)"
  EXPECT_DOUBLE_EQ(m.l2_MB.value, 16);                 // "16 (8 per GCD)"
  EXPECT_DOUBLE_EQ(m.fp32_TFLOPs.value, 47.9);         // "FP64 | FP32 Vector (Peak) Up to 47.9 TF"
  EXPECT_DOUBLE_EQ(m.bf16_TFLOPs.value, 383);          // "FP16 | bf16 (Peak) Up to 383.0 TF"
  EXPECT_DOUBLE_EQ(m.fp16_TFLOPs.value, 383);
  EXPECT_DOUBLE_EQ(m.tdp_W.value, 560);                // 560 W peak
  EXPECT_DOUBLE_EQ(m.interconnect_GBps.value, 8 * 100);  // 8 links x 100 GB/s
  // Hand check: 1024 FLOP/clock/CU x 220 CU x 1.7e9 /s = 382.98e12.
  EXPECT_NEAR(1024.0 * 220 * 1.7e9 / 1e12, m.bf16_TFLOPs.value, 0.05);
  EXPECT_EQ(m.fp8_variant, "none");
}

// ------------------------------------------------------------------ AMD Instinct MI300X

TEST(HardwareTable, MI300X_MemoryAndBandwidthMatchDataSheet) {
  const GpuSpec& mi300x = row("mi300x");
  EXPECT_DOUBLE_EQ(mi300x.memory_GB.value, 192);  // "192 GB HBM3"
  EXPECT_DOUBLE_EQ(mi300x.tdp_W.value, 750);      // "Total Board Power (TBP) 750W Peak"
  // "Peak Theoretical Memory Bandwidth 5.3 TB/s"
  EXPECT_DOUBLE_EQ(mi300x.hbm_bandwidth_GBps.value, 5300);
  // ROCm: "seven ... AMD Infinity Fabric links"; 128 GB/s each: 7 x 128 = 896 GB/s.
  EXPECT_DOUBLE_EQ(mi300x.interconnect_GBps.value, 7 * 128);
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

// ------------------------------------------------------------------ MI300A, MI325X, MI355X

TEST(HardwareTable, MI300A_PrintedRatesAndTheDerivedOnes) {
  const GpuSpec& m = row("mi300a");
  EXPECT_EQ(m.arch, "gfx942");
  EXPECT_DOUBLE_EQ(m.memory_GB.value, 128);            // "128 GB HBM3" (unified)
  EXPECT_DOUBLE_EQ(m.hbm_bandwidth_GBps.value, 5300);  // "5.3 TB/s"
  EXPECT_DOUBLE_EQ(m.sm_count.value, 228);             // "228 (38 per XCD)"
  EXPECT_DOUBLE_EQ(m.l2_MB.value, 24);                 // "24 (4 per XCD)"
  EXPECT_DOUBLE_EQ(m.fp32_TFLOPs.value, 122.6);        // "Peak Single Precision (FP32) 122.6"
  EXPECT_DOUBLE_EQ(m.bf16_TFLOPs.value, 980.6);        // "Peak bfloat16 980.6 TFLOPs"
  EXPECT_DOUBLE_EQ(m.fp16_TFLOPs.value, 980.6);        // "Peak Half Precision (FP16) 980.6"
  // Derived by hand, FLOPS/clock/CU x 228 CU x 2.1 GHz:
  EXPECT_NEAR(2048.0 * 228 * 2.1e9 / 1e12, m.bf16_TFLOPs.value, 0.05);  // 980.58: the rule holds
  EXPECT_NEAR(1024.0 * 228 * 2.1e9 / 1e12, m.tf32_TFLOPs.value, 0.05);  // 490.29
  EXPECT_NEAR(4096.0 * 228 * 2.1e9 / 1e12, m.fp8_TFLOPs.value, 0.05);   // 1961.16
  EXPECT_DOUBLE_EQ(m.tf32_TFLOPs.value, 490.3);
  EXPECT_DOUBLE_EQ(m.fp8_TFLOPs.value, 1961.2);
  EXPECT_EQ(m.fp8_variant, "FNUZ");
}

TEST(HardwareTable, MI325X_IsMI300XComputeWithMoreMemory) {
  const GpuSpec& m = row("mi325x");
  const GpuSpec& x = row("mi300x");
  EXPECT_DOUBLE_EQ(m.memory_GB.value, 256);            // "256 GB HBM3E"
  EXPECT_DOUBLE_EQ(m.hbm_bandwidth_GBps.value, 6000);  // "6 TB/s"
  EXPECT_DOUBLE_EQ(m.tdp_W.value, 1000);               // 1000 W
  EXPECT_DOUBLE_EQ(m.fp32_TFLOPs.value, 163.4);        // FP32 vector 163.4
  EXPECT_DOUBLE_EQ(m.tf32_TFLOPs.value, 653.7);        // TF32 653.7
  EXPECT_DOUBLE_EQ(m.bf16_TFLOPs.value, 1307.4);       // BF16 1307.4
  EXPECT_DOUBLE_EQ(m.fp8_TFLOPs.value, 2614.9);        // FP8 2614.9 (5229.8 sparse)
  EXPECT_DOUBLE_EQ(m.sm_count.value, x.sm_count.value);
  EXPECT_DOUBLE_EQ(m.bf16_TFLOPs.value, x.bf16_TFLOPs.value);
  EXPECT_EQ(m.arch, "gfx942");
  EXPECT_EQ(m.fp8_variant, "FNUZ");
}

TEST(HardwareTable, MI355X_RatesArePerCuRateTimesCusTimesClock) {
  // ROCm spec table: 256 CUs (32 per XCD); Hot Chips 2025: 2.4 GHz; ISSCC 2026: FP8 8192
  // FLOPS/clock/CU. By hand, x 256 x 2.4e9 / 1e12:
  const GpuSpec& m = row("mi355x");
  EXPECT_EQ(m.arch, "gfx950");
  EXPECT_DOUBLE_EQ(m.sm_count.value, 256);
  EXPECT_DOUBLE_EQ(m.l2_MB.value, 32);
  EXPECT_DOUBLE_EQ(m.memory_GB.value, 288);            // "288GB HBM3E"
  EXPECT_DOUBLE_EQ(m.hbm_bandwidth_GBps.value, 8000);  // "up to 8 TB/s"
  EXPECT_DOUBLE_EQ(m.tdp_W.value, 1400);               // "max TBP of 1400W"
  EXPECT_NEAR(m.fp8_TFLOPs.value, 8192.0 * 256 * 2.4e9 / 1e12, 0.05);    // 5033.16
  EXPECT_NEAR(m.bf16_TFLOPs.value, 4096.0 * 256 * 2.4e9 / 1e12, 0.05);   // 2516.58
  EXPECT_NEAR(m.fp4_TFLOPs.value, 16384.0 * 256 * 2.4e9 / 1e12, 0.05);   // 10066.33
  EXPECT_NEAR(m.fp32_TFLOPs.value, 256.0 * 256 * 2.4e9 / 1e12, 0.05);    // 157.29
  EXPECT_DOUBLE_EQ(m.fp8_TFLOPs.value, 5033.2);
  EXPECT_DOUBLE_EQ(m.fp4_TFLOPs.value, 10066.3);
  EXPECT_NEAR(m.fp4_TFLOPs.value, 20100.0 / 2, 20);    // "20.1 PFLOPS" maximum = with sparsity
  EXPECT_TRUE(std::isnan(m.tf32_TFLOPs.value));        // gfx950 has no XF32
  EXPECT_EQ(m.fp8_variant, "OCP");                     // CDNA 4: e4m3fn, not fnuz
  EXPECT_DOUBLE_EQ(m.interconnect_GBps.value, 7 * 153.6);  // 7 links x 153.6 GB/s = 1075.2
}

// ------------------------------------------------------------------ ridge points

/// Ridge point of `key`'s roof `rate` over its memory bandwidth, in FLOP/byte.
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
  // A100 40GB: 312e12 / 1555e9 = 200.64 FLOP/B (same compute, less bandwidth: a higher ridge)
  EXPECT_NEAR(ridge("a100-40gb", &GpuSpec::bf16_TFLOPs), 200.6, 0.05);
  // MI300X: 1307.4e12 / 5300e9 = 246.68 FLOP/B
  EXPECT_NEAR(ridge("mi300x", &GpuSpec::bf16_TFLOPs), 246.7, 0.05);
  // H100 PCIe: 756.5e12 / 2000e9 = 378.25 FLOP/B
  EXPECT_NEAR(ridge("h100-pcie", &GpuSpec::bf16_TFLOPs), 378.25, 0.005);
  // B200: 2250e12 / 7700e9 = 292.21 FLOP/B
  EXPECT_NEAR(ridge("b200", &GpuSpec::bf16_TFLOPs), 292.2, 0.05);
  // GB200: 2500e12 / 8000e9 = 312.5 FLOP/B
  EXPECT_NEAR(ridge("gb200", &GpuSpec::bf16_TFLOPs), 312.5, 0.005);
  // MI355X: 2516.6e12 / 8000e9 = 314.58 FLOP/B
  EXPECT_NEAR(ridge("mi355x", &GpuSpec::bf16_TFLOPs), 314.6, 0.05);
  // MI250X: 383e12 / 3200e9 = 119.69 FLOP/B
  EXPECT_NEAR(ridge("mi250x", &GpuSpec::bf16_TFLOPs), 119.7, 0.05);
  // MI325X: 1307.4e12 / 6000e9 = 217.9 FLOP/B
  EXPECT_NEAR(ridge("mi325x", &GpuSpec::bf16_TFLOPs), 217.9, 0.005);
  // RTX 4090 (FP32 accumulate): 165.2e12 / 1008e9 = 163.89 FLOP/B
  EXPECT_NEAR(ridge("rtx-4090", &GpuSpec::bf16_TFLOPs), 163.9, 0.05);
}

TEST(HardwareTable, RidgePoints_Fp32VectorAndLowPrecision) {
  // H100 FP32 (CUDA cores): 67e12 / 3350e9 = 20.0 FLOP/B
  EXPECT_NEAR(ridge("h100-sxm", &GpuSpec::fp32_TFLOPs), 20.0, 0.05);
  // A100 FP32: 19.5e12 / 2039e9 = 9.56 FLOP/B
  EXPECT_NEAR(ridge("a100-80gb", &GpuSpec::fp32_TFLOPs), 9.56, 0.005);
  // H200 FP8: 1979e12 / 4800e9 = 412.29 FLOP/B
  EXPECT_NEAR(ridge("h200-sxm", &GpuSpec::fp8_TFLOPs), 412.3, 0.05);
  // MI300X FP8: 2614.9e12 / 5300e9 = 493.38 FLOP/B
  EXPECT_NEAR(ridge("mi300x", &GpuSpec::fp8_TFLOPs), 493.4, 0.05);
  // T4 FP16 tensor: 65e12 / 320e9 = 203.125 FLOP/B
  EXPECT_NEAR(ridge("t4", &GpuSpec::fp16_TFLOPs), 203.125, 0.0005);
  // L4 FP8: 242.5e12 / 300e9 = 808.33 FLOP/B (a small GDDR6 bus: the highest ridge here but FP4)
  EXPECT_NEAR(ridge("l4", &GpuSpec::fp8_TFLOPs), 808.3, 0.05);
  // B200 FP4: 9000e12 / 7700e9 = 1168.83 FLOP/B
  EXPECT_NEAR(ridge("b200", &GpuSpec::fp4_TFLOPs), 1168.8, 0.05);
  // MI355X FP4: 10066.3e12 / 8000e9 = 1258.29 FLOP/B
  EXPECT_NEAR(ridge("mi355x", &GpuSpec::fp4_TFLOPs), 1258.3, 0.05);
}

// ------------------------------------------------------------------ peak_TFLOPs

TEST(HardwarePeak, ReturnsTheCellOfEachDtype) {
  const GpuSpec& h100 = row("h100-sxm");
  EXPECT_EQ(peak_TFLOPs(h100, "fp32"), &h100.fp32_TFLOPs);
  EXPECT_EQ(peak_TFLOPs(h100, "tf32"), &h100.tf32_TFLOPs);
  EXPECT_EQ(peak_TFLOPs(h100, "bf16"), &h100.bf16_TFLOPs);
  EXPECT_EQ(peak_TFLOPs(h100, "fp16"), &h100.fp16_TFLOPs);
  EXPECT_EQ(peak_TFLOPs(h100, "fp8"), &h100.fp8_TFLOPs);
  EXPECT_EQ(peak_TFLOPs(h100, "fp4"), &h100.fp4_TFLOPs);
  EXPECT_DOUBLE_EQ(peak_TFLOPs(row("b200"), "fp4")->value, 9000);  // "FP4 ... 18 PFLOPS" / 2
}

TEST(HardwarePeak, IgnoresCase) {
  const GpuSpec& mi300x = row("mi300x");
  EXPECT_EQ(peak_TFLOPs(mi300x, "BF16"), &mi300x.bf16_TFLOPs);
  EXPECT_EQ(peak_TFLOPs(mi300x, "Fp8"), &mi300x.fp8_TFLOPs);
  EXPECT_EQ(peak_TFLOPs(mi300x, "TF32"), &mi300x.tf32_TFLOPs);
}

TEST(HardwarePeak, EveryListedDtypeResolvesOnEveryRow) {
  for (const GpuSpec& spec : gpu_table()) {
    for (const std::string_view dtype : kPeakDtypes) {
      EXPECT_NE(peak_TFLOPs(spec, dtype), nullptr) << spec.key << " " << dtype;
    }
  }
}

TEST(HardwarePeak, UnknownDtypeIsNullptr) {
  const GpuSpec& h100 = row("h100-sxm");
  for (const std::string_view dtype : {"", "int8", "fp64", "bfloat16", "fp8 ", " fp8", "e4m3",
                                       "fp6", "half"}) {
    EXPECT_EQ(peak_TFLOPs(h100, dtype), nullptr) << "'" << dtype << "'";
  }
}

TEST(HardwarePeak, UnsupportedFormatIsNaNWithAReason) {
  const std::array<std::pair<std::string_view, std::string_view>, 8> kUnsupported{{
      {"t4", "bf16"}, {"t4", "tf32"}, {"a100-80gb", "fp8"}, {"h100-sxm", "fp4"},
      {"mi250x", "tf32"}, {"mi250x", "fp8"}, {"mi300x", "fp4"}, {"mi355x", "tf32"},
  }};
  for (const auto& [key, dtype] : kUnsupported) {
    const Sourced* peak = peak_TFLOPs(row(key), dtype);
    ASSERT_NE(peak, nullptr) << key << " " << dtype;
    EXPECT_TRUE(std::isnan(peak->value)) << key << " " << dtype;
    EXPECT_TRUE(mentions(peak->source, "Not applicable")) << key << " " << dtype;
  }
}

// ------------------------------------------------------------------ lookup

TEST(HardwareLookup, FindsEveryRowByItsKeyNameAndRuntimeNames) {
  for (const GpuSpec& spec : gpu_table()) {
    EXPECT_EQ(find_gpu(spec.key), &spec) << spec.key;
    EXPECT_EQ(find_gpu(spec.name), &spec) << spec.name;
    std::string_view names = spec.runtime_names;
    while (!names.empty()) {
      const std::size_t bar = names.find('|');
      const std::string_view name = names.substr(0, bar);
      EXPECT_EQ(match_runtime_name(name), &spec) << name;
      EXPECT_EQ(find_gpu(name), &spec) << name;
      names.remove_prefix(bar == std::string_view::npos ? names.size() : bar + 1);
    }
  }
}

TEST(HardwareLookup, FindsRowsByShortAliases) {
  EXPECT_EQ(find_gpu("h100"), &row("h100-sxm"));
  EXPECT_EQ(find_gpu("h200"), &row("h200-sxm"));
  EXPECT_EQ(find_gpu("a100"), &row("a100-80gb"));
  EXPECT_EQ(find_gpu("4090"), &row("rtx-4090"));
  EXPECT_EQ(find_gpu("RTX 4090"), &row("rtx-4090"));
  EXPECT_EQ(find_gpu("GeForce RTX 4090"), &row("rtx-4090"));
  EXPECT_EQ(find_gpu("mi300x"), &row("mi300x"));
  EXPECT_EQ(find_gpu("T4"), &row("t4"));
  EXPECT_EQ(find_gpu("Tesla T4"), &row("t4"));
  EXPECT_EQ(find_gpu("L4"), &row("l4"));
  EXPECT_EQ(find_gpu("B200"), &row("b200"));
  EXPECT_EQ(find_gpu("HGX B200"), &row("b200"));
  EXPECT_EQ(find_gpu("GB200"), &row("gb200"));
  EXPECT_EQ(find_gpu("GB200 NVL72"), &row("gb200"));
  EXPECT_EQ(find_gpu("H100 PCIe"), &row("h100-pcie"));
  EXPECT_EQ(find_gpu("A100 40GB"), &row("a100-40gb"));
  EXPECT_EQ(find_gpu("MI250X"), &row("mi250x"));
  EXPECT_EQ(find_gpu("MI300A"), &row("mi300a"));
  EXPECT_EQ(find_gpu("MI325X"), &row("mi325x"));
  EXPECT_EQ(find_gpu("mi355x"), &row("mi355x"));
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
  EXPECT_EQ(find_gpu("rtx_4090"), &row("rtx-4090"));
  EXPECT_EQ(find_gpu("nvidia b200"), &row("b200"));
}

TEST(HardwareLookup, UnknownNameFindsNothing) {
  EXPECT_EQ(find_gpu(""), nullptr);
  EXPECT_EQ(find_gpu(" - _ "), nullptr);
  EXPECT_EQ(find_gpu("h300"), nullptr);
  // Other boards of the same chips have other numbers: they must not take these rows.
  EXPECT_EQ(find_gpu("H200 NVL"), nullptr);
  EXPECT_EQ(find_gpu("H100 NVL"), nullptr);
  EXPECT_EQ(find_gpu("A100 PCIe"), nullptr);
  EXPECT_EQ(find_gpu("MI250"), nullptr);   // 208 CUs, not the MI250X
  EXPECT_EQ(find_gpu("MI350X"), nullptr);  // 2.2 GHz, 1000 W, not the MI355X
  EXPECT_EQ(find_gpu("B100"), nullptr);
  EXPECT_EQ(find_gpu("GB300"), nullptr);
  EXPECT_EQ(find_gpu("L40S"), nullptr);
}

TEST(HardwareLookup, MatchesExactlyTheNameTheRuntimeReports) {
  EXPECT_EQ(match_runtime_name("NVIDIA H200"), &row("h200-sxm"));  // cudaDeviceProp.name in the B01 record
  EXPECT_EQ(match_runtime_name("NVIDIA H100 80GB HBM3"), &row("h100-sxm"));
  EXPECT_EQ(match_runtime_name("NVIDIA H100 PCIe"), &row("h100-pcie"));
  EXPECT_EQ(match_runtime_name("NVIDIA A100-SXM4-80GB"), &row("a100-80gb"));
  EXPECT_EQ(match_runtime_name("NVIDIA A100-SXM4-40GB"), &row("a100-40gb"));
  EXPECT_EQ(match_runtime_name("A100-SXM4-40GB"), &row("a100-40gb"));  // drivers before R470
  EXPECT_EQ(match_runtime_name("Tesla T4"), &row("t4"));
  EXPECT_EQ(match_runtime_name("NVIDIA L4"), &row("l4"));
  EXPECT_EQ(match_runtime_name("NVIDIA GeForce RTX 4090"), &row("rtx-4090"));
  EXPECT_EQ(match_runtime_name("NVIDIA B200"), &row("b200"));
  EXPECT_EQ(match_runtime_name("NVIDIA GB200"), &row("gb200"));
  EXPECT_EQ(match_runtime_name("AMD Instinct MI300X"), &row("mi300x"));
  EXPECT_EQ(match_runtime_name("AMD Instinct MI250X/MI250"), &row("mi250x"));
  EXPECT_EQ(match_runtime_name("AMD Instinct MI355X"), &row("mi355x"));
  EXPECT_EQ(match_runtime_name(" NVIDIA B200 "), &row("b200"));
  EXPECT_EQ(match_runtime_name("NVIDIA H200 NVL"), nullptr);  // the 600 W PCIe card
  EXPECT_EQ(match_runtime_name("NVIDIA H100 NVL"), nullptr);
  EXPECT_EQ(match_runtime_name("NVIDIA GeForce RTX 4090 Laptop GPU"), nullptr);
  EXPECT_EQ(match_runtime_name("NVIDIA A100 80GB PCIe"), nullptr);
  EXPECT_EQ(match_runtime_name("nvidia b200"), nullptr);  // exact, not normalized
  EXPECT_EQ(match_runtime_name(""), nullptr);
}

TEST(HardwareLookup, KnownKeysListsEveryKeyInTableOrder) {
  EXPECT_EQ(known_keys(),
            "t4, a100-40gb, a100-80gb, l4, rtx-4090, h100-sxm, h100-pcie, h200-sxm, b200, gb200, "
            "mi250x, mi300x, mi300a, mi325x, mi355x");
}

}  // namespace
