// a07_sgemm: the SGEMM ladder, verified at awkward sizes and timed against cuBLAS on this GPU.
//
// Reads top to bottom: the ladder and the vendor rows (declared once, as data), the traffic
// each step requests (for --model), and main, which hands them with the Case (gemm_case.hpp) and
// the tile choice of the last step (tile_choice.cpp) to the lab main (tutor/ladder_lab.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gemm_case.hpp"
#include "sgemm.hpp"
#include "tile_choice.hpp"
#include "tutor/hardware.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"
#include "vendor_blas.hpp"

namespace tutor::a07 {
namespace {

using GemmStep = Step<GemmCase>;
using Shape = GemmCase::Shape;

const auto step = [](auto... a) { return launcher_step<GemmCase, GemmLauncher>(a...); };
GemmStep vendor_step(VendorMath math) {
  // The declaration names what the row is on every build; the record's notes name the library
  // this build linked (vendor_blas_name).
  StepInfo info = declare(0, math == VendorMath::fp32 ? "cublas_fp32" : "cublas_tf32",
                          math == VendorMath::fp32 ? "the vendor BLAS sgemm, fp32 FMA, no tensor cores "
                                                     "(cuBLAS CUBLAS_DEFAULT_MATH)"
                                                   : "the vendor BLAS sgemm on TF32 tensor cores "
                                                     "(cuBLAS CUBLAS_TF32_TENSOR_OP_MATH)",
                          "the vendor's reference", StepRole::reference);
  if (math == VendorMath::tf32) info.dtype = DType::tf32;
  return {info, [math](GemmCase& c) { vendor_sgemm(c.args(), math); }};
}

/// The ladder, in order, the vendor rows beside it (cuBLAS fp32 is the ceiling), and the
/// exercises (run only when named).
std::vector<GemmStep> ladder() {
  return {
      step(1, "naive", "one thread per output, consecutive threads on consecutive rows: A read uncoalesced",
           "baseline", TUTOR_LAUNCHER(launch_naive)),
      step(2, "coalesced", "consecutive threads on consecutive columns: B and C coalesced, A broadcast", "~10x",
           TUTOR_LAUNCHER(launch_coalesced)),
      step(3, "smem_tiled", "32x32 tiles of A and B staged in shared memory, each global load reused 32 times",
           "~1.5-2x", TUTOR_LAUNCHER(launch_smem_tiled)),
      step(4, "reg_tile_1d", "64x64 tiles, 8 outputs per thread in a column: 1.125 shared loads per FMA", "~2x",
           TUTOR_LAUNCHER(launch_reg_tile_1d)),
      step(5, "reg_tile_2d", "128x128 tiles, 8x8 outputs per thread (outer product): 0.25 shared loads per FMA",
           "~1.3-2x", TUTOR_LAUNCHER(launch_reg_tile_2d)),
      step(6, "vectorized", "128-bit global and shared loads, A tile stored transposed: 4x fewer load "
                            "instructions", "+20-40%", TUTOR_LAUNCHER(launch_vectorized)),
      step(7, "conflict_free", "padded A^T tile and fragments 64 floats apart: no bank conflicts on the "
                               "fragment loads", "+5-15%", TUTOR_LAUNCHER(launch_conflict_free)),
      step(8, "warp_tiled", "each warp a compact 32x64 sub-tile: fewer distinct addresses per shared load",
           "0-15%", TUTOR_LAUNCHER(launch_warp_tiled)),
      step(9, "double_buffered", "two shared buffers + register prefetch: global loads overlap the math; tile "
                                 "tuned per GPU", "+10-30%", TUTOR_LAUNCHER(launch_double_buffered)),
      vendor_step(VendorMath::fp32),
      vendor_step(VendorMath::tf32),
      step(0, "exercise_smem", "your kernel from exercises/: 32x32 tiles of A and B staged in shared memory",
           "as smem_tiled", TUTOR_LAUNCHER(launch_exercise_smem), StepRole::exercise),
      step(0, "exercise_reg_tile", "your kernel from exercises/: the register level of a 128x128 tile, 8x8 outputs "
           "per thread", "as reg_tile_2d", TUTOR_LAUNCHER(launch_exercise_reg_tile), StepRole::exercise),
  };
}

/// The block tile (bm x bn of C) whose A and B panels a block loads once per k, per step: it
/// fixes the step's global-memory traffic (0: one A and one B load per FMA).
const std::map<std::string, std::pair<int, int>> kBlockTile = {
    {"naive", {0, 0}},         {"coalesced", {0, 0}},     {"smem_tiled", {32, 32}},
    {"reg_tile_1d", {64, 64}}, {"reg_tile_2d", {128, 128}}, {"vectorized", {128, 128}},
    {"conflict_free", {128, 128}}, {"warp_tiled", {128, 128}}, {"exercise_smem", {32, 32}},
    {"exercise_reg_tile", {128, 128}}};

/// Global-memory bytes a step requests for an m x n x k problem (4-byte floats, caches
/// ignored): a block tile bm x bn re-reads A once per block column and B once per block row,
/// ceil(n / bn) m k + ceil(m / bm) k n floats; steps without a block tile read one A and one B
/// float per FMA, 2 m n k. C adds m n floats written and, when beta != 0, m n read.
double requested_bytes(int bm, int bn, const Shape& s) {
  const double mn = double(s.m) * s.n, mnk = mn * s.k;
  const double ab = bm > 0 ? std::ceil(double(s.n) / bn) * double(s.m) * s.k + std::ceil(double(s.m) / bm) * double(s.k) * s.n
                           : 2.0 * mnk;
  return 4.0 * (ab + mn * (s.beta != 0.0f ? 2.0 : 1.0));
}

}  // namespace
}  // namespace tutor::a07

int main(int argc, char** argv) {
  using namespace tutor;
  using namespace tutor::a07;
  Shape size{4096, 4096, 4096, 0.5f, 3.0f};
  bool no_tf32 = false;
  TileOptions tile;
  LadderLab<GemmCase> lab;
  lab.name = "a07_sgemm";
  lab.module = "A07";
  lab.summary = "A07 Tiled GEMM: the SGEMM ladder from a naive kernel to near cuBLAS, every step verified at "
                "awkward sizes and timed against cublasSgemm on this GPU";
  lab.steps = ladder();
  std::string tiles;  // this build's tiles (they differ by vendor), for --tile-config's help
  for (int i = 0; i < tile_config_count(); ++i) tiles += fmt::format("{}[{}] {}", i ? "; " : "", i, describe(tile_config(i)));
  lab.run_defaults = {.reps = 20, .warmup = 3, .max_reps = 1000, .skip_large_check = true};
  lab.ceiling = CeilingFrom::reference;
  lab.ceiling_step = "cublas_fp32";
  lab.unit = CeilingUnit::TFLOPs;
  // 1; m, n or k = 1; 128^3 (where a well-known public ladder's double-buffered step fails);
  // primes that are no multiple of 4 (the scalar fallback paths); 1000^3 (partial tiles on the
  // vector path); 4097^3 (partial tiles, scalar path, vendor reference). alpha and beta vary;
  // beta = 0 proves C is not read.
  lab.verify_shapes = {{1, 1, 1, 1.5f, 0.5f},          {1, 129, 127, 1.0f, 0.0f},   {127, 1, 129, -0.5f, 2.0f},
                       {129, 127, 1, 2.0f, 0.0f},      {128, 128, 128, 0.5f, 3.0f}, {257, 131, 509, 0.75f, -1.25f},
                       {1000, 1000, 1000, 1.0f, 0.0f}, {4097, 4097, 4097, 0.5f, 3.0f}};
  lab.is_large = [](const Shape& s) { return double(s.m) * s.n * s.k > 2e7; };
  lab.timed_shape = [&] { return size; };
  lab.add_options = [&](GpuLab& g) {
    CLI::App& app = g.app();
    app.add_option("--m", size.m, "rows of A and C")->check(decimal_integer())->check(CLI::Range(1, 32768));
    app.add_option("--n", size.n, "columns of B and C")->check(decimal_integer())->check(CLI::Range(1, 32768));
    app.add_option("--k", size.k, "columns of A, rows of B (the reduction length)")
        ->check(decimal_integer())->check(CLI::Range(1, 32768));
    // |alpha|, |beta| <= 1e30 keep alpha * acc finite in fp32 for the inputs the lab draws.
    const CLI::Validator scalar_range(
        [](const std::string& text) { return std::fabs(std::stod(text)) <= 1e30 ? "" : "must be between -1e30 and 1e30"; },
        "-1e30..1e30");
    g.run_only(app.add_option("--alpha", size.alpha, "C = alpha*A*B + beta*C")->check(finite_number())->check(scalar_range));
    app.add_option("--beta", size.beta, "C = alpha*A*B + beta*C (0: C is not read)")
        ->check(finite_number())->check(scalar_range);
    g.run_only(app.add_flag("--tune", tile.tune, "time every tile configuration of the last step on this GPU, cache the "
                                      "fastest for this device, then run the ladder with it"));
    g.run_only(app.add_option("--tune-cache", tile.cache, "tuning cache file (default: gpu-ml-tutor/a07_sgemm-<arch>-<device>.json "
                                               "under $XDG_CACHE_HOME, else under ~/.cache)")->option_text("PATH"));
    app.add_option("--tile-config", tile.index, "use this tile configuration for the last step instead of the "
                                                "cache or default; this build compiles " + tiles)
        ->check(decimal_integer())->check(CLI::Range(0, tile_config_count() - 1))->default_str("cache or default");
    g.run_only(app.add_flag("--no-tf32", no_tf32, "skip the TF32 tensor-core cuBLAS row"));
  };
  lab.check_options = [&] {
    if (tile.tune && tile.index >= 0) throw UsageError("--tile-config: cannot be combined with --tune");
    if (tile.cache == "-") throw UsageError("--tune-cache: give a file path, not '-'");
    require_writable("--tune-cache", tile.cache);
    if (no_tf32) std::erase_if(lab.steps, [](const auto& s) { return s.info.name == "cublas_tf32"; });
  };
  lab.sweep = LadderLab<GemmCase>::Sweep{"--sizes", "sweep mode: comma-separated square sizes (m = n = k), each "
                                                    "1..16384; with --csv and --plot", "size", 1, 16384,
                                         [&](int s, int) { return Shape{s, s, s, size.alpha, size.beta}; }, {}};
  lab.describe = [](const Shape& s) {
    return fmt::format("sgemm fp32 {}x{}x{} (C = {}*A*B + {}*C), {:.1f} GFLOP per launch", s.m, s.n, s.k, s.alpha,
                       s.beta, GemmCase::flops(s) / 1e9);
  };
  lab.problem = [](const Shape& s) {
    return nlohmann::json{{"op", "sgemm"}, {"dtype", "fp32"}, {"layout", "row-major, C = alpha*A*B + beta*C"},
                          {"m", s.m}, {"n", s.n}, {"k", s.k}, {"alpha", s.alpha}, {"beta", s.beta},
                          {"flops_per_launch", GemmCase::flops(s)}};
  };
  lab.model_row = [&](const StepInfo& step, const Shape& s) {
    auto tile_of = [&] {
      if (step.name != "double_buffered") return kBlockTile.at(step.name);
      const TileConfig c = tile_config(tile.index >= 0 ? tile.index : 0);  // --tile-config, else the portable default
      return std::pair{c.bm, c.bn};
    };
    const auto [bm, bn] = step.role != StepRole::reference ? tile_of() : std::pair{0, 0};
    return ModelRow{step.name, requested_bytes(bm, bn, s), GemmCase::flops(s),
                    bm > 0 ? fmt::format("block tile {}x{}: A and B panels read once per block", bm, bn)
                           : "one A and one B load per FMA (caches ignored)"};
  };
  lab.device_bytes = [](const Shape& s) {
    return 4.0 * (double(s.m) * s.k + double(s.k) * s.n + 2.0 * s.m * s.n);
  };
  lab.before_steps = [&](LadderRun<GemmCase>& run) { choose_tile(tile, run); };
  lab.after_steps = [&](LadderRun<GemmCase>& run, nlohmann::json& record) {
    const TileConfig c = tile_config(tile.choice.index);
    const hw::GpuSpec* spec = hw::match_runtime_name(run.lab.device().info.name);
    record["problem"]["reference"] = run.timed->reference_kind();
    run.notes["vendor_library"] = vendor_blas_name(VendorMath::fp32);
    run.notes["fp32_peak_TFLOPs_datasheet"] = spec ? spec->fp32_TFLOPs.value : 0.0;
    run.notes["fp32_peak_source"] = spec ? std::string(spec->fp32_TFLOPs.source) : "GPU not in the table";
    run.notes["tile_config"] = {{"index", tile.choice.index}, {"bm", c.bm}, {"bn", c.bn}, {"bk", c.bk},
                                {"wm", c.wm}, {"wn", c.wn}, {"threads", c.threads()}, {"source", tile.choice.source}};
    run.notes["timing"]["clock"] = "device events, one pair per launch; C restored before each launch (untimed)";
    if (!tile.tuning.is_null()) run.notes["tuning"] = tile.tuning;
    fmt::print(run.lab.human(), "reference: {}\n", run.timed->reference_kind());
  };
  return ladder_main(lab, argc, argv);
}
