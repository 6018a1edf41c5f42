// The GPU datasheet table: one row per GPU, in a fixed order, and every cell names the
// document (title, year, and where in it) that the number was read from, and the words it
// prints.
//
// Rates are DENSE. Where a document prints a tensor rate "with sparsity" (2:4 structured
// sparsity doubles it; NVIDIA marks those numbers with an asterisk and a footnote), the cell
// holds the printed number divided by 2 and its source says so ("/ 2"). Dense and sparse are
// never mixed within a row. Where a document prints both (A100, Ada whitepaper), the dense one
// is used as printed.
//
// A cell is NaN when the GPU has no such path (its source starts "Not applicable:" and says
// why) or when no document that could be found prints the number (its source starts
// "Not found in" and names the documents searched). Nothing here is guessed; a few AMD rates
// are DERIVED from per-CU rates, CU counts and clocks that documents do print, and their
// sources say "derived" and show the arithmetic.
//
// Where a datasheet is silent (H200, B200 SM count and L2), the cell cites the best document
// available and the value the CUDA runtime reported, and says which is which.
#include "tutor/hardware.hpp"

#include <array>
#include <cctype>
#include <cstddef>
#include <limits>
#include <string>

namespace tutor::hw {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Sources shared by several rows.
constexpr std::string_view kCudaWarp =
    "CUDA C++ Programming Guide (CUDA 13.0, 2025), section 'SIMT Architecture': threads are "
    "created, scheduled and executed in warps of 32";
constexpr std::string_view kFp4NotOnPreBlackwellNvidia =
    "Not applicable: no FP4 tensor-core path before Blackwell (FP4 arrived with the "
    "5th-generation Tensor Cores of Blackwell sm_100); the datasheet lists no FP4 rate";
constexpr std::string_view kFp4NotOnCdna2Cdna3 =
    "Not applicable: no FP4 matrix path before CDNA 4 (MXFP4/MXFP6 arrived with the MI350 "
    "series, gfx950); the data sheet lists no FP4 rate";

// Field order follows GpuSpec: key, name, vendor, arch, runtime_names, memory_GB,
// hbm_bandwidth_GBps, sm_count, l2_MB, warp_size, fp32, tf32, bf16, fp16, fp8, fp4,
// fp8_variant, tdp_W, interconnect, interconnect_GBps.
constexpr std::array<GpuSpec, 15> kGpuTable{{
    // ---------------------------------------------------------------- NVIDIA T4 (Turing)
    {
        .key = "t4",
        .name = "NVIDIA T4",
        .vendor = "NVIDIA",
        .arch = "sm_75",
        // Confirmed: deviceQuery on a T4 prints 'Device 0: "Tesla T4"'.
        .runtime_names = "Tesla T4",
        .memory_GB = {16,
                      "NVIDIA T4 Tensor Core GPU datasheet (2019), Specifications: 16 GB GDDR6; "
                      "NVIDIA T4 product brief (2019), Table 2 'Memory Specifications': 'Memory "
                      "size 16 GB'"},
        .hbm_bandwidth_GBps = {320,
                               "GDDR6, not HBM. NVIDIA T4 product brief (2019), Table 2 "
                               "'Memory Specifications': 'Peak Memory bandwidth Up to 320 "
                               "GBytes/s' (256-bit bus, 5001 MHz memory clock)"},
        .sm_count = {40,
                     "Not on the T4 datasheet. cudaDeviceProp.multiProcessorCount on a T4 "
                     "(deviceQuery: '(040) Multiprocessors, (064) CUDA Cores/MP: 2560 CUDA "
                     "Cores'); matches the datasheet's 2,560 CUDA cores at 64 per Turing SM"},
        .l2_MB = {4,
                  "Not on the T4 datasheet. cudaDeviceProp.l2CacheSize on a T4 (deviceQuery: "
                  "'L2 Cache Size: 4194304 bytes' = 4 MiB)"},
        .warp_size = {32, kCudaWarp},
        .fp32_TFLOPs = {8.1,
                        "NVIDIA T4 Tensor Core GPU datasheet (2019), Specifications: "
                        "'Single-Precision 8.1 TFLOPS' (CUDA cores)"},
        .tf32_TFLOPs = {kNaN,
                        "Not applicable: Turing (sm_75) tensor cores have no TF32 (TF32 arrived "
                        "with Ampere sm_80); the T4 datasheet lists FP32, FP16/FP32, INT8 and "
                        "INT4 rates only"},
        .bf16_TFLOPs = {kNaN,
                        "Not applicable: Turing (sm_75) tensor cores have no BF16 (BF16 arrived "
                        "with Ampere sm_80); the T4 datasheet lists no BF16 rate"},
        .fp16_TFLOPs = {65,
                        "NVIDIA T4 Tensor Core GPU datasheet (2019), Specifications: "
                        "'Mixed-Precision (FP16/FP32) 65 TFLOPS' (tensor cores, FP16 multiply "
                        "with FP32 accumulate; dense: Turing has no structured sparsity)"},
        .fp8_TFLOPs = {kNaN,
                       "Not applicable: Turing (sm_75) has no FP8 (it arrived with Ada sm_89 "
                       "and Hopper sm_90); the T4 datasheet lists no FP8 rate"},
        .fp4_TFLOPs = {kNaN, kFp4NotOnPreBlackwellNvidia},
        .fp8_variant = "none",
        .tdp_W = {70,
                  "NVIDIA T4 product brief (2019), Overview: 'The T4 has 16 GB GDDR6 memory "
                  "and a 70 W maximum power limit'"},
        .interconnect = "PCIe Gen3 x16 (no NVLink)",
        .interconnect_GBps = {kNaN,
                              "Not found in the documents searched (T4 datasheet and product "
                              "brief as reproduced in public copies): they print the interface "
                              "('PCI Express Gen3', x16) but no bandwidth figure could be "
                              "confirmed"},
    },
    // ---------------------------------------------------------------- NVIDIA A100 SXM4 40GB
    {
        .key = "a100-40gb",
        .name = "NVIDIA A100 SXM4 40GB",
        .vendor = "NVIDIA",
        .arch = "sm_80",
        // Confirmed: deviceQuery prints "NVIDIA A100-SXM4-40GB" (driver 535); drivers before
        // R470 (e.g. 450.119) print "A100-SXM4-40GB" without the vendor prefix.
        .runtime_names = "NVIDIA A100-SXM4-40GB|A100-SXM4-40GB",
        .memory_GB = {40,
                      "NVIDIA A100 Tensor Core GPU datasheet (2020, 40GB edition), SXM column: "
                      "40 GB HBM2 (as reproduced in public copies: 'GPU Memory 40 GB', 'HBM2'); "
                      "Ampere GA100 whitepaper (2020), section '40 GB HBM2 and 40 MB L2 Cache'"},
        .hbm_bandwidth_GBps = {1555,
                               "NVIDIA A100 Tensor Core GPU datasheet (2020, 40GB edition), SXM "
                               "column: GPU memory bandwidth 1,555 GB/s (reproduced in public "
                               "copies as '1.555 GB/s'); Ampere GA100 whitepaper (2020), spec "
                               "comparison: 1555 GB/sec"},
        .sm_count = {108,
                     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (Ampere GA100, 2020), "
                     "Figure 6: 'GA100 Full GPU with 128 SMs (A100 Tensor Core GPU has 108 "
                     "SMs)'; deviceQuery on an A100-SXM4-40GB: '(108) Multiprocessors'"},
        .l2_MB = {40,
                  "NVIDIA A100 Tensor Core GPU Architecture whitepaper (Ampere GA100, 2020), "
                  "section '40 GB HBM2 and 40 MB L2 Cache'; deviceQuery: 'L2 Cache Size: "
                  "41943040 bytes'"},
        .warp_size = {32, kCudaWarp},
        .fp32_TFLOPs = {19.5,
                        "NVIDIA A100 Tensor Core GPU datasheet (2020/2021): 'FP32 19.5 TFLOPS' "
                        "(CUDA cores; the same for the 40GB and 80GB SXM parts)"},
        .tf32_TFLOPs = {156,
                        "NVIDIA A100 Tensor Core GPU datasheet (2020/2021): 'Tensor Float 32 "
                        "(TF32) 156 TFLOPS | 312 TFLOPS*'; dense is the first number (* = with "
                        "sparsity)"},
        .bf16_TFLOPs = {312,
                        "NVIDIA A100 Tensor Core GPU datasheet (2020/2021): 'BFLOAT16 Tensor "
                        "Core 312 TFLOPS | 624 TFLOPS*'; dense is the first number (* = with "
                        "sparsity)"},
        .fp16_TFLOPs = {312,
                        "NVIDIA A100 Tensor Core GPU datasheet (2020/2021): 'FP16 Tensor Core "
                        "312 TFLOPS | 624 TFLOPS*'; dense is the first number (* = with "
                        "sparsity)"},
        .fp8_TFLOPs = {kNaN,
                       "Not applicable: the A100 datasheet lists no FP8 rate; Ampere (sm_80) "
                       "tensor cores have no FP8 (it arrived with Hopper sm_90 and Ada sm_89)"},
        .fp4_TFLOPs = {kNaN, kFp4NotOnPreBlackwellNvidia},
        .fp8_variant = "none",
        .tdp_W = {400,
                  "NVIDIA A100 Tensor Core GPU datasheet (2020, 40GB edition), SXM column: "
                  "'Max Thermal Design Power (TDP) 400 W'"},
        .interconnect = "NVLink 3",
        .interconnect_GBps = {600,
                              "NVIDIA A100 Tensor Core GPU datasheet (2020/2021), SXM column: "
                              "'Interconnect NVLink: 600GB/s, PCIe Gen4: 64GB/s' (third-"
                              "generation NVLink, 12 links; bidirectional total)"},
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
        .warp_size = {32, kCudaWarp},
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
        .fp8_TFLOPs = {kNaN,
                       "Not applicable: the A100 datasheet (2021) lists no FP8 rate; "
                       "Ampere (sm_80) tensor cores have no FP8 (it arrived with "
                       "Hopper sm_90 and Ada sm_89)"},
        .fp4_TFLOPs = {kNaN, kFp4NotOnPreBlackwellNvidia},
        .fp8_variant = "none",
        .tdp_W = {400,
                  "NVIDIA A100 Tensor Core GPU datasheet (2021, 1758950-r4), column "
                  "'A100 80GB SXM': 'Max Thermal Design Power (TDP) 400W'"},
        .interconnect = "NVLink 3",
        .interconnect_GBps = {600,
                              "NVIDIA A100 Tensor Core GPU datasheet (2021, 1758950-r4), column "
                              "'A100 80GB SXM': 'Interconnect NVLink: 600GB/s, PCIe Gen4: "
                              "64GB/s' (third-generation NVLink; bidirectional total)"},
    },
    // ---------------------------------------------------------------- NVIDIA L4 (Ada)
    {
        .key = "l4",
        .name = "NVIDIA L4",
        .vendor = "NVIDIA",
        .arch = "sm_89",
        .runtime_names = "NVIDIA L4",  // NOT confirmed from a captured runtime report
        .memory_GB = {24,
                      "NVIDIA L4 Tensor Core GPU datasheet (2023), Specifications: 'GPU memory "
                      "24GB'"},
        .hbm_bandwidth_GBps = {300,
                               "GDDR6, not HBM. NVIDIA L4 Tensor Core GPU datasheet (2023), "
                               "Specifications: 'GPU memory bandwidth 300GB/s'"},
        .sm_count = {kNaN,
                     "Not found in the documents searched (L4 datasheet 2023, Ada Lovelace "
                     "whitepaper 2023, CUDA docs): NVIDIA does not print an SM count for L4, "
                     "and third-party databases disagree (58 vs 60)"},
        .l2_MB = {kNaN,
                  "Not found in the documents searched (L4 datasheet 2023, Ada Lovelace "
                  "whitepaper 2023, Ada tuning guide): third-party databases list 48 MB, but "
                  "no NVIDIA document or captured runtime report could be found"},
        .warp_size = {32, kCudaWarp},
        .fp32_TFLOPs = {30.3,
                        "NVIDIA L4 Tensor Core GPU datasheet (2023), Specifications: 'FP32 30.3 "
                        "teraFLOPs' (CUDA cores; no sparsity mark)"},
        .tf32_TFLOPs = {60,
                        "NVIDIA L4 Tensor Core GPU datasheet (2023): 'TF32 Tensor Core 120 "
                        "teraFLOPs*', * = with sparsity; dense = 120 / 2"},
        .bf16_TFLOPs = {121,
                        "NVIDIA L4 Tensor Core GPU datasheet (2023): 'BFLOAT16 Tensor Core 242 "
                        "teraFLOPs*', * = with sparsity; dense = 242 / 2"},
        .fp16_TFLOPs = {121,
                        "NVIDIA L4 Tensor Core GPU datasheet (2023): 'FP16 Tensor Core 242 "
                        "teraFLOPs*', * = with sparsity; dense = 242 / 2"},
        .fp8_TFLOPs = {242.5,
                       "NVIDIA L4 Tensor Core GPU datasheet (2023): 'FP8 Tensor Core 485 "
                       "teraFLOPs*', * = with sparsity; dense = 485 / 2"},
        .fp4_TFLOPs = {kNaN, kFp4NotOnPreBlackwellNvidia},
        // Ada (sm_89) 4th-generation tensor cores: E4M3/E5M2 (CUDA __nv_fp8_e4m3 / _e5m2).
        .fp8_variant = "OCP",
        .tdp_W = {72,
                  "NVIDIA L4 Tensor Core GPU datasheet (2023), Specifications: 'Max thermal "
                  "design power (TDP) 72W'"},
        .interconnect = "PCIe Gen4 x16 (no NVLink)",
        .interconnect_GBps = {kNaN,
                              "Not found in the documents searched (L4 datasheet 2023 as "
                              "reproduced in public copies, vendor listings): the interface "
                              "'PCIe Gen4 x16' is printed, but its bandwidth figure could not be "
                              "confirmed"},
    },
    // ---------------------------------------------------------------- GeForce RTX 4090 (Ada)
    {
        .key = "rtx-4090",
        .name = "NVIDIA GeForce RTX 4090",
        .vendor = "NVIDIA",
        .arch = "sm_89",
        // Confirmed: PyTorch error text "NVIDIA GeForce RTX 4090 with CUDA capability sm_89".
        .runtime_names = "NVIDIA GeForce RTX 4090",
        .memory_GB = {24,
                      "NVIDIA Ada Lovelace GPU Architecture whitepaper (2023), specification "
                      "table, GeForce RTX 4090 column: 'Frame Buffer Memory Size and Type 24 GB "
                      "GDDR6X'"},
        .hbm_bandwidth_GBps = {1008,
                               "GDDR6X, not HBM. NVIDIA Ada Lovelace GPU Architecture whitepaper "
                               "(2023), specification table, GeForce RTX 4090 column: "
                               "'Memory Bandwidth 1008 GB/sec' (384-bit, 21 Gbps)"},
        .sm_count = {128,
                     "NVIDIA Ada Lovelace GPU Architecture whitepaper (2023), specification "
                     "table, GeForce RTX 4090 column: 'SMs 128' (16384 CUDA cores at 128 per SM)"},
        .l2_MB = {72,
                  "NVIDIA Ada Lovelace GPU Architecture whitepaper (2023), specification "
                  "table, GeForce RTX 4090 column: 'L2 Cache Size 73728 KB' (= 72 MB)"},
        .warp_size = {32, kCudaWarp},
        .fp32_TFLOPs = {82.6,
                        "NVIDIA Ada Lovelace GPU Architecture whitepaper (2023), specification "
                        "table, GeForce RTX 4090 column: 'Peak FP32 TFLOPS (non-Tensor) 82.6'"},
        .tf32_TFLOPs = {82.6,
                        "NVIDIA Ada Lovelace GPU Architecture whitepaper (2023), specification "
                        "table, GeForce RTX 4090 column: 'Peak TF32 Tensor TFLOPS 82.6/165.2' "
                        "(dense/with sparsity); dense is the first number"},
        .bf16_TFLOPs = {165.2,
                        "NVIDIA Ada Lovelace GPU Architecture whitepaper (2023), specification "
                        "table, GeForce RTX 4090 column: 'Peak BF16 Tensor TFLOPS with FP32 "
                        "Accumulate "
                        "165.2/330.4' (dense/with sparsity); dense, FP32 accumulate"},
        .fp16_TFLOPs = {165.2,
                        "NVIDIA Ada Lovelace GPU Architecture whitepaper (2023), specification "
                        "table, GeForce RTX 4090 column: 'Peak FP16 Tensor TFLOPS with FP32 "
                        "Accumulate "
                        "165.2/330.4' (dense/with sparsity); dense, FP32 accumulate. GeForce runs "
                        "FP32 accumulate at half rate: 'with FP16 Accumulate 330.3/660.6' is "
                        "not used"},
        .fp8_TFLOPs = {330.3,
                       "NVIDIA Ada Lovelace GPU Architecture whitepaper (2023), specification "
                       "table, GeForce RTX 4090 column: 'Peak FP8 Tensor TFLOPS with FP32 "
                       "Accumulate "
                       "330.3/660.6' (dense/with sparsity); dense, FP32 accumulate ('with FP16 "
                       "Accumulate 660.6/1321.2' is not used)"},
        .fp4_TFLOPs = {kNaN, kFp4NotOnPreBlackwellNvidia},
        .fp8_variant = "OCP",  // Ada sm_89: E4M3/E5M2, as L4
        .tdp_W = {450,
                  "NVIDIA Ada Lovelace GPU Architecture whitepaper (2023), specification "
                  "table, GeForce RTX 4090 column: 'TGP (Total Graphics Power) 450 W'"},
        .interconnect = "PCIe Gen4 x16 (no NVLink)",
        .interconnect_GBps = {kNaN,
                              "Not found in the documents searched (Ada Lovelace whitepaper 2023, "
                              "GeForce RTX 4090 product page): RTX 4090 has no NVLink and the "
                              "documents print the PCIe generation but no bandwidth figure"},
    },
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
        .warp_size = {32, kCudaWarp},
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
        .fp4_TFLOPs = {kNaN, kFp4NotOnPreBlackwellNvidia},
        // E4M3 / E5M2 of Micikevicius et al., "FP8 Formats for Deep Learning" (2022), the formats
        // the OCP 8-bit floating point specification (OFP8, 2023) adopted; CUDA __nv_fp8_e4m3.
        .fp8_variant = "OCP",
        .tdp_W = {700,
                  "NVIDIA H100 Tensor Core GPU datasheet (2023), column H100 SXM: "
                  "'Max thermal design power (TDP) Up to 700W (configurable)'"},
        .interconnect = "NVLink 4",
        .interconnect_GBps = {900,
                              "NVIDIA H100 Tensor Core GPU datasheet (2023), column H100 SXM: "
                              "'Interconnect NVLink: 900GB/s PCIe Gen5: 128GB/s' (fourth-"
                              "generation NVLink, 18 links; bidirectional total)"},
    },
    // ---------------------------------------------------------------- NVIDIA H100 PCIe 80GB
    {
        .key = "h100-pcie",
        .name = "NVIDIA H100 PCIe 80GB",
        .vendor = "NVIDIA",
        .arch = "sm_90",
        // Confirmed: PyTorch error text "NVIDIA H100 PCIe with CUDA capability sm_90".
        .runtime_names = "NVIDIA H100 PCIe",
        .memory_GB = {80,
                      "NVIDIA H100 Tensor Core GPU datasheet (2022 edition; later editions show "
                      "H100 NVL instead), column H100 PCIe: 'GPU memory 80GB' (HBM2e)"},
        .hbm_bandwidth_GBps = {2000,
                               "NVIDIA H100 Tensor Core GPU datasheet (2022 edition), column H100 "
                               "PCIe: 'GPU memory bandwidth 2TB/s'; H100 PCIe product brief "
                               "(PB-11133-001, 2022): 'memory bandwidth greater than 2,000 "
                               "gigabytes per second'"},
        .sm_count = {114,
                     "NVIDIA H100 Tensor Core GPU Architecture whitepaper (Hopper, 2022), "
                     "H100 PCIe column of the product comparison: 'SMs 114' (57 TPCs)"},
        .l2_MB = {50,
                  "NVIDIA H100 Tensor Core GPU Architecture whitepaper (Hopper, 2022), H100 PCIe "
                  "column of the product comparison: 'L2 Cache Size 50 MB'"},
        .warp_size = {32, kCudaWarp},
        .fp32_TFLOPs = {51,
                        "NVIDIA H100 Tensor Core GPU datasheet (2022 edition), column H100 PCIe: "
                        "'FP32 51 teraFLOPS' (CUDA cores; no sparsity mark)"},
        .tf32_TFLOPs = {378,
                        "NVIDIA H100 Tensor Core GPU datasheet (2022 edition), column H100 PCIe: "
                        "'TF32 Tensor Core 756 teraFLOPS*', * = with sparsity; dense = 756 / 2"},
        .bf16_TFLOPs = {756.5,
                        "NVIDIA H100 Tensor Core GPU datasheet (2022 edition), column H100 PCIe: "
                        "'BFLOAT16 Tensor Core 1,513 teraFLOPS*', * = with sparsity; "
                        "dense = 1513 / 2"},
        .fp16_TFLOPs = {756.5,
                        "NVIDIA H100 Tensor Core GPU datasheet (2022 edition), column H100 PCIe: "
                        "'FP16 Tensor Core 1,513 teraFLOPS*', * = with sparsity; "
                        "dense = 1513 / 2"},
        .fp8_TFLOPs = {1513,
                       "NVIDIA H100 Tensor Core GPU datasheet (2022 edition), column H100 PCIe: "
                       "'FP8 Tensor Core 3,026 teraFLOPS*', * = with sparsity; dense = 3026 / 2"},
        .fp4_TFLOPs = {kNaN, kFp4NotOnPreBlackwellNvidia},
        .fp8_variant = "OCP",  // same Hopper tensor cores as H100 SXM
        .tdp_W = {350,
                  "NVIDIA H100 Tensor Core GPU datasheet (2022 edition), column H100 PCIe: "
                  "'Max thermal design power (TDP) 300-350W (configurable)'; the maximum is "
                  "used (product brief PB-11133-001: 'maximum thermal design power (TDP) level "
                  "of 350 W')"},
        .interconnect = "NVLink 4 (bridge)",
        .interconnect_GBps = {600,
                              "NVIDIA H100 Tensor Core GPU datasheet (2022 edition), column H100 "
                              "PCIe: 'Interconnect NVLink: 600GB/s PCIe Gen5: 128GB/s' (NVLink "
                              "bridge between card pairs; bidirectional total)"},
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
                     "H200 measured here (2026-11-29): the 132-SM GH100 "
                     "configuration the Hopper whitepaper (2022) gives for H100 SXM5"},
        .l2_MB = {60,
                  "Not on the H200 datasheet. cudaDeviceProp.l2CacheSize = 60 MB on the H200 measured "
                  "here (2026-11-29); equals the full-GH100 L2 ('60 MB L2 "
                  "Cache') of the Hopper whitepaper (2022), where H100 SXM5 enables 50 MB"},
        .warp_size = {32, kCudaWarp},
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
        .fp4_TFLOPs = {kNaN, kFp4NotOnPreBlackwellNvidia},
        .fp8_variant = "OCP",  // same Hopper tensor cores as H100 (see above)
        .tdp_W = {700,
                  "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), column H200 SXM: "
                  "'Max Thermal Design Power (TDP) Up to 700W (configurable)'"},
        .interconnect = "NVLink 4",
        .interconnect_GBps = {900,
                              "NVIDIA H200 Tensor Core GPU datasheet / product page (2024), "
                              "column H200 SXM: 'Interconnect NVIDIA NVLink: 900GB/s PCIe Gen5: "
                              "128GB/s' (fourth-generation NVLink; bidirectional total)"},
    },
    // ---------------------------------------------------------------- NVIDIA B200 (HGX B200)
    {
        .key = "b200",
        .name = "NVIDIA B200 (HGX B200, per GPU)",
        .vendor = "NVIDIA",
        .arch = "sm_100",
        // Confirmed: nvidia-smi / cudaDeviceProp on HGX B200 report "NVIDIA B200".
        .runtime_names = "NVIDIA B200",
        .memory_GB = {180,
                      "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), Technical "
                      "Specifications, 'Individual Blackwell GPU Specifications', column HGX "
                      "B200: 'GPU Memory | Bandwidth 180GB HBM3E | 7.7TB/s' (system: 'Total Fast "
                      "Memory Up to 1.4TB' / 8 GPUs)"},
        .hbm_bandwidth_GBps = {7700,
                               "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                               "'Individual Blackwell GPU Specifications', column HGX B200: 'GPU "
                               "Memory | Bandwidth 180GB HBM3E | 7.7TB/s' (system: 'Total Memory "
                               "Bandwidth Up to 62TB/s' / 8 = 7.75)"},
        .sm_count = {148,
                     "Not on the datasheet. cudaDeviceProp on an HGX B200 GPU: 'Number of SMs: "
                     "148' (runtime report quoted in pytorch/ao PR #4002, 2026)"},
        .l2_MB = {126,
                  "Blackwell Tuning Guide (CUDA 13.0, 2025), section 'Increased L2 Capacity': "
                  "'increases the L2 cache capacity to 126 MB'; cudaDeviceProp on a B200: 'L2 "
                  "Cache Size: 126.50 MB' (pytorch/ao PR #4002)"},
        .warp_size = {32, kCudaWarp},
        .fp32_TFLOPs = {75,
                        "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                        "'Individual Blackwell GPU Specifications', column HGX B200: 'FP32 75 "
                        "TFLOPS' (CUDA cores; no sparsity; system 'FP32 600 TFLOPS' / 8)"},
        .tf32_TFLOPs = {1100,
                        "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                        "'Individual Blackwell GPU Specifications', column HGX B200: 'TF32 "
                        "Tensor Core 2.2 PFLOPS', tensor rates printed with sparsity; dense = "
                        "2200 / 2"},
        .bf16_TFLOPs = {2250,
                        "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                        "'Individual Blackwell GPU Specifications', column HGX B200: 'FP16/BF16 "
                        "Tensor Core 4.5 PFLOPS', with sparsity; dense = 4500 / 2"},
        .fp16_TFLOPs = {2250,
                        "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                        "'Individual Blackwell GPU Specifications', column HGX B200: 'FP16/BF16 "
                        "Tensor Core 4.5 PFLOPS', with sparsity; dense = 4500 / 2"},
        .fp8_TFLOPs = {4500,
                       "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                       "'Individual Blackwell GPU Specifications', column HGX B200: 'FP8/FP6 "
                       "Tensor Core 9 PFLOPS', with sparsity; dense = 9000 / 2 (system: 'FP8/FP6 "
                       "72 PFLOPS' / 8 GPUs = 9)"},
        .fp4_TFLOPs = {9000,
                       "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                       "'Individual Blackwell GPU Specifications', column HGX B200: 'FP4 Tensor "
                       "Core 18 PFLOPS', with sparsity; dense = 18000 / 2 (system: 'FP4 Tensor "
                       "Core 144 PFLOPS' / 8 GPUs = 18)"},
        .fp8_variant = "OCP",  // Blackwell 5th-gen tensor cores: E4M3/E5M2 (+ MXFP8)
        .tdp_W = {1000,
                  "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), column HGX B200: "
                  "'Max Thermal Design Power (TDP) Configurable up to 1,000W'"},
        .interconnect = "NVLink 5",
        .interconnect_GBps = {1800,
                              "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25): "
                              "'Interconnect 5th Generation NVLink: 1.8TB/s' per GPU (system: "
                              "'Total NVLink Bandwidth 14.4TB/s' / 8 GPUs = 1.8)"},
    },
    // ---------------------------------------------------------------- NVIDIA GB200 NVL72 GPU
    {
        .key = "gb200",
        .name = "NVIDIA GB200 NVL72 (per Blackwell GPU)",
        .vendor = "NVIDIA",
        .arch = "sm_100",
        // Confirmed: sglang environment report on GB200 nodes: "GPU 0,1,2,3: NVIDIA GB200".
        .runtime_names = "NVIDIA GB200",
        .memory_GB = {186,
                      "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), 'Individual "
                      "Blackwell GPU Specifications', column GB200 NVL72: 'GPU Memory | "
                      "Bandwidth 186GB HBM3E | 8TB/s'"},
        .hbm_bandwidth_GBps = {8000,
                               "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                               "'Individual Blackwell GPU Specifications', column GB200 NVL72: "
                               "'186GB HBM3E | 8TB/s' (rack: 'Total Memory Bandwidth Up to "
                               "576TB/s' / 72 GPUs = 8)"},
        .sm_count = {kNaN,
                     "Not found in the documents searched (Blackwell datasheet 2024-25, GB200 "
                     "NVL72 page, Blackwell tuning guide, runtime reports in public issues): no "
                     "SM count for the GB200 GPU is printed (the B200 row's 148 is an HGX B200 "
                     "runtime report and is not assumed here)"},
        .l2_MB = {kNaN,
                  "Not found in the documents searched (Blackwell datasheet 2024-25, Blackwell "
                  "tuning guide, runtime reports in public issues): no GB200-specific L2 figure "
                  "or runtime report; the B200 row's 126 MB is not assumed here"},
        .warp_size = {32, kCudaWarp},
        .fp32_TFLOPs = {80,
                        "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                        "'Individual Blackwell GPU Specifications', column GB200 NVL72: 'FP32 80 "
                        "TFLOPS' (CUDA cores; no sparsity; rack 'FP32 5,760 TFLOPS' / 72)"},
        .tf32_TFLOPs = {1250,
                        "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                        "'Individual Blackwell GPU Specifications', column GB200 NVL72: 'TF32 "
                        "Tensor Core 2.5 PFLOPS', with sparsity; dense = 2500 / 2"},
        .bf16_TFLOPs = {2500,
                        "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                        "'Individual Blackwell GPU Specifications', column GB200 NVL72: "
                        "'FP16/BF16 Tensor Core 5 PFLOPS', with sparsity; dense = 5000 / 2"},
        .fp16_TFLOPs = {2500,
                        "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                        "'Individual Blackwell GPU Specifications', column GB200 NVL72: "
                        "'FP16/BF16 Tensor Core 5 PFLOPS', with sparsity; dense = 5000 / 2"},
        .fp8_TFLOPs = {5000,
                       "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                       "'Individual Blackwell GPU Specifications', column GB200 NVL72: 'FP8/FP6 "
                       "Tensor Core 10 PFLOPS', with sparsity; dense = 10000 / 2 (rack: 'FP8/FP6 "
                       "720 PFLOPS' / 72 GPUs = 10)"},
        .fp4_TFLOPs = {10000,
                       "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), "
                       "'Individual Blackwell GPU Specifications', column GB200 NVL72: 'FP4 "
                       "Tensor Core 20 PFLOPS', with sparsity; dense = 20000 / 2 (rack: 'FP4 "
                       "Tensor Core 1,440 PFLOPS' / 72 GPUs = 20)"},
        .fp8_variant = "OCP",
        .tdp_W = {1200,
                  "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25), column GB200 "
                  "NVL72: 'Max Thermal Design Power (TDP) Configurable up to 1,200W'"},
        .interconnect = "NVLink 5",
        .interconnect_GBps = {1800,
                              "NVIDIA Blackwell datasheet (GB200 NVL72 | HGX B200, 2024-25): "
                              "'Interconnect 5th Generation NVLink: 1.8TB/s' per GPU (rack: "
                              "'Total NVLink Bandwidth 130TB/s' / 72 GPUs = 1.8)"},
    },
    // ---------------------------------------------------------------- AMD Instinct MI250X
    {
        .key = "mi250x",
        .name = "AMD Instinct MI250X",
        .vendor = "AMD",
        .arch = "gfx90a",
        // Confirmed: rocminfo 'Marketing Name: AMD Instinct MI250X/MI250' (device 0x740c);
        // "AMD Instinct MI250X" (device 0x7408) NOT confirmed from a captured report. Each of
        // the two GCDs is its own HIP device (110 CUs, 64 GB); this row is the whole OAM.
        .runtime_names = "AMD Instinct MI250X|AMD Instinct MI250X/MI250",
        .memory_GB = {128,
                      "AMD Instinct MI200 series launch table (Nov 2021), MI250x row: '128GB' "
                      "HBM2e ECC memory; ROCm docs 'AMD GPU specifications' (2025), MI250X row: "
                      "VRAM 128"},
        .hbm_bandwidth_GBps = {3200,
                               "AMD Instinct MI200 series launch table (Nov 2021), MI250x row: "
                               "'3.2 TB/sec'; ROCm docs 'AMD Instinct MI250 microarchitecture': "
                               "'aggregated peak memory bandwidth of the GPU is 3.2 TB/sec (1.6 "
                               "TB/sec per GCD)'"},
        .sm_count = {220,
                     "ROCm docs 'AMD GPU specifications' (2025), MI250X row: 'Compute Units 220 "
                     "(110 per GCD)'; AMD MI200 launch table: 'MI250x 220 CUs, 14,080 stream "
                     "processors'"},
        .l2_MB = {16,
                  "ROCm docs 'AMD GPU specifications' (2025), MI250X row: 'L2 Cache (MiB) 16 (8 "
                  "per GCD)'; each GCD sees only its own 8 MB"},
        .warp_size = {64,
                      "ROCm docs 'AMD GPU specifications' (2025), MI250X row: 'Wavefront Size 64'"},
        .fp32_TFLOPs = {47.9,
                        "AMD Instinct MI200 series launch table (Nov 2021), MI250x row: 'FP64 | "
                        "FP32 Vector (Peak) Up to 47.9 TF' (128 FLOPS/clock/CU x 220 CU x 1.7 "
                        "GHz). Packed FP32 (v_pk_fma_f32) doubles it: 'FP64 | FP32 Matrix (Peak) "
                        "Up to 95.7 TF' is not used. NB: the MI300X row's 163.4 does count packed "
                        "FP32 (CDNA 3 prints it as the vector rate)"},
        .tf32_TFLOPs = {kNaN,
                        "Not applicable: CDNA 2 (gfx90a) has no TF32/XF32 matrix instruction "
                        "(XF32 arrived with CDNA 3 gfx942); the MI250X data sheet lists no TF32 "
                        "rate"},
        .bf16_TFLOPs = {383,
                        "AMD Instinct MI200 series launch table (Nov 2021), MI250x row: 'FP16 | "
                        "bf16 (Peak) Up to 383.0 TF' (matrix; dense, CDNA 2 has no sparsity; 1024 "
                        "FLOPS/clock/CU x 220 CU x 1.7 GHz = 383.0)"},
        .fp16_TFLOPs = {383,
                        "AMD Instinct MI200 series launch table (Nov 2021), MI250x row: 'FP16 | "
                        "bf16 (Peak) Up to 383.0 TF' (matrix; dense)"},
        .fp8_TFLOPs = {kNaN,
                       "Not applicable: CDNA 2 (gfx90a) has no FP8 (it arrived with CDNA 3 "
                       "gfx942); the MI250X data sheet lists no FP8 rate"},
        .fp4_TFLOPs = {kNaN, kFp4NotOnCdna2Cdna3},
        .fp8_variant = "none",
        .tdp_W = {560,
                  "AMD Instinct MI250X data sheet (2021): 560 W peak board power (OAM); "
                  "reported as 'the 560W of the preceding CDNA2 architecture's MI250X' when "
                  "MI300X's 750 W was disclosed (2023)"},
        .interconnect = "AMD Infinity Fabric (8 links)",
        .interconnect_GBps = {800,
                              "AMD Instinct MI250X data sheet (2021): 8 Infinity Fabric links "
                              "(MI250: 6), 100 GB/s peak per link; ROCm 'AMD Instinct MI250 "
                              "microarchitecture': '50 GB/sec per link (or 100 GB/sec "
                              "bidirectional peak transfer bandwidth)'; total = 8 x 100, "
                              "computed here"},
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
        .fp4_TFLOPs = {kNaN, kFp4NotOnCdna2Cdna3},
        // HIP docs 'FP8 Numbers' (ROCm 6.2): gfx940/gfx941/gfx942 support FNUZ FP8
        // (E4M3FNUZ / E5M2FNUZ: no infinities, one NaN at -0), not OCP FP8.
        .fp8_variant = "FNUZ",
        .tdp_W = {750,
                  "AMD Instinct MI300X data sheet (2023): 'Total Board Power (TBP) 750W Peak'; "
                  "AMD's MLPerf Inference v4.1 system names the part "
                  "'MI300X-NPS1-SPX-192GB-750W'"},
        .interconnect = "AMD Infinity Fabric (7 links)",
        .interconnect_GBps = {896,
                              "ROCm docs 'AMD Instinct MI300 series microarchitecture': 'seven "
                              "high-bandwidth, low-latency AMD Infinity Fabric links' forming a "
                              "fully connected 8-GPU system; AMD Instinct MI300X data sheet "
                              "(2023): 128 GB/s peak (bidirectional) per Infinity Fabric link; "
                              "total = 7 x 128, computed here"},
    },
    // ---------------------------------------------------------------- AMD Instinct MI300A APU
    {
        .key = "mi300a",
        .name = "AMD Instinct MI300A",
        .vendor = "AMD",
        .arch = "gfx942",
        .runtime_names = "AMD Instinct MI300A",  // NOT confirmed from a captured runtime report
        .memory_GB = {128,
                      "AMD Instinct MI300A data sheet (2023): '128 GB HBM3' unified (shared by "
                      "the 24 Zen 4 cores and the GPU); ROCm docs 'AMD GPU specifications' "
                      "(2025), MI300A row: VRAM 128"},
        .hbm_bandwidth_GBps = {5300,
                               "AMD Instinct MI300A launch materials (2023): '128GB of HBM3 "
                               "memory with 5.3 TB/s of bandwidth' (same 8-stack HBM3 interface "
                               "as MI300X)"},
        .sm_count = {228,
                     "ROCm docs 'AMD GPU specifications' (2025), MI300A row: 'Compute Units 228 "
                     "(38 per XCD)'; AMD Instinct MI300A data sheet (2023): 'Compute Units 228'"},
        .l2_MB = {24,
                  "ROCm docs 'AMD GPU specifications' (2025), MI300A row: 'L2 Cache (MiB) 24 (4 "
                  "per XCD)' (6 XCDs; the 256 MB Infinity Cache is separate)"},
        .warp_size = {64,
                      "ROCm docs 'AMD GPU specifications' (2025), MI300A row: 'Wavefront Size 64'"},
        .fp32_TFLOPs = {122.6,
                        "AMD Instinct MI300A data sheet (2023): 'Peak Single Precision (FP32) "
                        "122.6 TFLOPs' (= 256 FLOPS/clock/CU x 228 CU x 2.1 GHz 'Peak Engine "
                        "Clock 2100 MHz'; counts packed FP32, as MI300X)"},
        .tf32_TFLOPs = {490.3,
                        "DERIVED: the MI300A data sheet as found does not show its TF32 line. "
                        "1024 FLOPS/clock/CU (ROCm 'AMD Instinct MI300 series "
                        "microarchitecture', MI300X table, 'Vector TF32') x 228 CU x 2.1 GHz "
                        "= 490.3 TFLOPs, dense; the same arithmetic gives the printed 980.6 "
                        "(BF16) and 122.6 (FP32)"},
        .bf16_TFLOPs = {980.6,
                        "AMD Instinct MI300A data sheet (2023): 'Peak bfloat16 980.6 TFLOPs' "
                        "(dense; = 2048 FLOPS/clock/CU x 228 CU x 2.1 GHz)"},
        .fp16_TFLOPs = {980.6,
                        "AMD Instinct MI300A data sheet (2023): 'Peak Half Precision (FP16) "
                        "980.6 TFLOPs' (dense)"},
        .fp8_TFLOPs = {1961.2,
                       "DERIVED: the MI300A data sheet as found does not show its FP8 line. "
                       "4096 FLOPS/clock/CU (ROCm 'AMD Instinct MI300 series "
                       "microarchitecture', MI300X table, 'Matrix FP8') x 228 CU x 2.1 GHz = "
                       "1961.2 TFLOPs, dense (the data sheet's 'Peak INT8 1.96 POPs' has the "
                       "same per-CU rate)"},
        .fp4_TFLOPs = {kNaN, kFp4NotOnCdna2Cdna3},
        .fp8_variant = "FNUZ",  // gfx942, as MI300X
        .tdp_W = {kNaN,
                  "Not found in the documents searched (MI300A data sheet and launch "
                  "materials as reproduced in public copies, ROCm docs): no board/socket power "
                  "figure could be confirmed"},
        .interconnect = "AMD Infinity Fabric",
        .interconnect_GBps = {kNaN,
                              "Not found in the documents searched (MI300A data sheet and launch "
                              "materials as reproduced in public copies, ROCm MI300 "
                              "microarchitecture page, which gives link counts for MI300X "
                              "only)"},
    },
    // ---------------------------------------------------------------- AMD Instinct MI325X
    {
        .key = "mi325x",
        .name = "AMD Instinct MI325X",
        .vendor = "AMD",
        .arch = "gfx942",
        .runtime_names = "AMD Instinct MI325X",  // NOT confirmed from a captured runtime report
        .memory_GB = {256,
                      "AMD Instinct MI325X product page / data sheet (2024): 256 GB HBM3E; ROCm "
                      "docs 'AMD GPU specifications' (2025), MI325X row: VRAM 256"},
        .hbm_bandwidth_GBps = {6000,
                               "AMD Instinct MI325X product page / data sheet (2024): '6 TB/s of "
                               "peak memory bandwidth'"},
        .sm_count = {304,
                     "ROCm docs 'AMD GPU specifications' (2025), MI325X row: 'Compute Units 304 "
                     "(38 per XCD)'"},
        .l2_MB = {32,
                  "ROCm docs 'AMD GPU specifications' (2025), MI325X row: 'L2 Cache (MiB) 32 (4 "
                  "per XCD)' (the 256 MB Infinity Cache is separate)"},
        .warp_size = {64,
                      "ROCm docs 'AMD GPU specifications' (2025), MI325X row: 'Wavefront Size 64'"},
        .fp32_TFLOPs = {163.4,
                        "AMD Instinct MI325X product page / data sheet (2024): peak FP32 vector "
                        "163.4 TFLOPS (same 304 CU x 2.1 GHz compute as MI300X: 256 "
                        "FLOPS/clock/CU, counts packed FP32)"},
        .tf32_TFLOPs = {653.7,
                        "AMD Instinct MI325X product page / data sheet (2024): peak TF32 653.7 "
                        "TFLOPS, dense (= 1024 FLOPS/clock/CU x 304 x 2.1 GHz; 1307.4 with "
                        "sparsity)"},
        .bf16_TFLOPs = {1307.4,
                        "AMD Instinct MI325X product page / data sheet (2024): peak BF16 1307.4 "
                        "TFLOPS, dense (2614.9 with sparsity); AMD launch: '1.3 petaflops for "
                        "16-bit'"},
        .fp16_TFLOPs = {1307.4,
                        "AMD Instinct MI325X product page / data sheet (2024): peak FP16 1307.4 "
                        "TFLOPS, dense (2614.9 with sparsity)"},
        .fp8_TFLOPs = {2614.9,
                       "AMD Instinct MI325X product page / data sheet (2024): peak FP8 2614.9 "
                       "TFLOPS, dense; 5229.8 with structured sparsity (AMD launch: '2.6 "
                       "petaflops for 8-bit')"},
        .fp4_TFLOPs = {kNaN, kFp4NotOnCdna2Cdna3},
        .fp8_variant = "FNUZ",  // gfx942, as MI300X
        .tdp_W = {1000,
                  "AMD Instinct MI325X product page / data sheet (2024): 1000 W peak total board "
                  "power (OAM)"},
        .interconnect = "AMD Infinity Fabric (7 links)",
        .interconnect_GBps = {kNaN,
                              "Not found in the documents searched (MI325X product page as "
                              "reproduced: 'Seven Infinity Fabric links ensuring full "
                              "connectivity between eight GPUs'; no per-link or total bandwidth "
                              "for MI325X could be confirmed)"},
    },
    // ---------------------------------------------------------------- AMD Instinct MI355X
    {
        .key = "mi355x",
        .name = "AMD Instinct MI355X",
        .vendor = "AMD",
        .arch = "gfx950",
        // Confirmed: unsloth PR #4051 hardware log 'GPU: AMD Instinct MI355X'.
        .runtime_names = "AMD Instinct MI355X",
        .memory_GB = {288,
                      "AMD Instinct MI350 series launch (June 2025), as reported by Tom's "
                      "Hardware (ISC 2025): 'Both SKUs will come with 288GB HBM3E memory'; "
                      "ROCm docs 'AMD GPU specifications' (2025), MI355X row: VRAM 288"},
        .hbm_bandwidth_GBps = {8000,
                               "AMD Instinct MI350 series launch (June 2025), as reported by "
                               "Tom's Hardware (ISC 2025): '288GB HBM3E memory that will offer up "
                               "to 8 TB/s of bandwidth'"},
        .sm_count = {256,
                     "ROCm docs 'AMD GPU specifications' (2025), MI355X row: 'Compute Units 256 "
                     "(32 per XCD)'"},
        .l2_MB = {32,
                  "ROCm docs 'AMD GPU specifications' (2025), MI355X row: 'L2 Cache (MiB) 32 (4 "
                  "per XCD)' (the 256 MB Infinity Cache is separate)"},
        .warp_size = {64,
                      "ROCm docs 'AMD GPU specifications' (2025), MI355X row: 'Wavefront Size 64'"},
        .fp32_TFLOPs = {157.3,
                        "DERIVED: 256 FLOPS/clock/CU (the CDNA 3 vector-FP32 rate, 2x the 128 of "
                        "FP64; the MI355X's published 'FP64 78.6 TFLOPs' = 128 x 256 x 2.4 GHz) "
                        "x 256 CU x 2.4 GHz (Hot Chips 2025: MI355X 'max clock speed of 2.4 "
                        "GHz') = 157.3 TFLOPs; counts packed FP32, as MI300X"},
        .tf32_TFLOPs = {kNaN,
                        "Not applicable: CDNA 4 (gfx950) removed the XF32/TF32 matrix "
                        "instructions of CDNA 3 (llama.cpp PR #21570: 'mfma_f32_16x16x8_xf32 "
                        "isn't available on gfx950'); hipBLASLt emulates TF32 with BF16 MFMAs "
                        "(hipBLASLt PR #1806), so there is no native TF32 peak"},
        .bf16_TFLOPs = {2516.6,
                        "DERIVED: 4096 FLOPS/clock/CU (half the FP8 rate, as on CDNA 3) x 256 "
                        "CU x 2.4 GHz = 2516.6 TFLOPs, dense (AMD launch material rounds it to "
                        "'2.5 PFLOPS'; with sparsity 5.0)"},
        .fp16_TFLOPs = {2516.6,
                        "DERIVED: 4096 FLOPS/clock/CU x 256 CU x 2.4 GHz = 2516.6 TFLOPs, dense "
                        "(AMD: '2.5 PFLOPS' FP16)"},
        .fp8_TFLOPs = {5033.2,
                       "DERIVED: AMD at ISSCC 2026: CDNA 4 'doubled the per-CU FP8 throughput - "
                       "from 4,096 FLOPS per clock to 8,192', 'delivering five petaflops'; "
                       "8192 x 256 CU x 2.4 GHz = 5033.2 TFLOPs, dense"},
        .fp4_TFLOPs = {10066.3,
                       "DERIVED: 16384 FLOPS/clock/CU (2x FP8) x 256 CU x 2.4 GHz = 10066.3 "
                       "TFLOPs, dense MXFP4. The Register (2025-06-12): 'up to 10 petaFLOPS of "
                       "... FP4 (double that ... with sparsity)'; Tom's Hardware (ISC 2025): "
                       "'maximum FP4/FP6 performance ... 20.1 PFLOPS' is the sparse number, "
                       "20.1 / 2 = 10.05"},
        // CDNA 4 uses OCP E4M3FN/E5M2 (llama.cpp PR #21570: 'CDNA4 uses standard e4m3fn (not
        // e4m3_fnuz like CDNA3)'; Modular docs: 'MI355X (CDNA4) uses float8_e4m3fn').
        .fp8_variant = "OCP",
        .tdp_W = {1400,
                  "AMD Instinct MI350 series (Hot Chips 2025 / launch, June 2025): MI355X 'max "
                  "TBP of 1400W' (liquid-cooled; MI350X 1000W)"},
        .interconnect = "AMD Infinity Fabric (7 links)",
        .interconnect_GBps = {1075.2,
                              "AMD Instinct MI350 series platform (2025): eight GPUs fully "
                              "connected by '153.6 GB/s links connecting each package with every "
                              "other package' = 7 links per GPU; total = 7 x 153.6, computed "
                              "here"},
    },
}};

/// Short names a learner types; each stands for one row's key.
struct Alias {
  std::string_view alias;
  std::string_view key;
};
constexpr std::array<Alias, 13> kAliases{{
    {"h100", "h100-sxm"},
    {"h100-sxm5", "h100-sxm"},
    {"h200", "h200-sxm"},
    {"a100", "a100-80gb"},
    {"a100-sxm4-40gb", "a100-40gb"},
    {"a100-sxm4-80gb", "a100-80gb"},
    {"4090", "rtx-4090"},
    {"geforce-rtx-4090", "rtx-4090"},
    {"tesla-t4", "t4"},
    {"hgx-b200", "b200"},
    {"gb200-nvl72", "gb200"},
    {"instinct-mi300x", "mi300x"},
    {"instinct-mi355x", "mi355x"},
}};

/// Lower case, with spaces, '-' and '_' removed: "NVIDIA H200-SXM" -> "nvidiah200sxm".
std::string normalized(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    // Spaces only: a newline or tab inside a name ("h1\n00") is not a spelling of "h100".
    if (c == ' ' || c == '-' || c == '_') continue;
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

/// ASCII case-insensitive equality.
bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto x = static_cast<unsigned char>(a[i]);
    const auto y = static_cast<unsigned char>(b[i]);
    if (std::tolower(x) != std::tolower(y)) return false;
  }
  return true;
}

/// The rate cell behind each name of kPeakDtypes, in the same order.
struct PeakField {
  std::string_view dtype;
  Sourced GpuSpec::*member;
};
constexpr std::array<PeakField, 6> kPeakFields{{
    {"fp32", &GpuSpec::fp32_TFLOPs},
    {"tf32", &GpuSpec::tf32_TFLOPs},
    {"bf16", &GpuSpec::bf16_TFLOPs},
    {"fp16", &GpuSpec::fp16_TFLOPs},
    {"fp8", &GpuSpec::fp8_TFLOPs},
    {"fp4", &GpuSpec::fp4_TFLOPs},
}};

constexpr bool peak_fields_match_dtypes() {
  if (std::size(kPeakDtypes) != kPeakFields.size()) return false;
  for (std::size_t i = 0; i < kPeakFields.size(); ++i) {
    if (kPeakFields[i].dtype != kPeakDtypes[i]) return false;
  }
  return true;
}
static_assert(peak_fields_match_dtypes(), "kPeakFields must list kPeakDtypes, in order");

}  // namespace

const Sourced* peak_TFLOPs(const GpuSpec& spec, std::string_view dtype) {
  for (const PeakField& field : kPeakFields) {
    if (equals_ignoring_case(dtype, field.dtype)) return &(spec.*field.member);
  }
  return nullptr;
}

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
