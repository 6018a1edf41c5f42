// a07_sgemm: the SGEMM ladder, verified at awkward sizes and timed against cuBLAS on this GPU.
//
// Reads top to bottom: the ladder (declared once, as data), one problem instance (a Case:
// device buffers, fresh random inputs, a reference in higher precision), the vendor rows,
// the tuning pass, the size sweep, and main.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gemm_reference.hpp"
#include "sgemm.hpp"
#include "tuning.hpp"
#include "tutor/cli.hpp"
#include "tutor/gpu.hpp"
#include "tutor/hardware.hpp"
#include "tutor/ladder.hpp"
#include "tutor/launcher.hpp"
#include "tutor/report.hpp"
#include "tutor/roofline.hpp"
#include "tutor/svg_plot.hpp"
#include "vendor_blas.hpp"

namespace tutor::a07 {
namespace {

// ---- The ladder ---------------------------------------------------------------------------

/// One step as the table, --list and the roofline placement see it. `bm` x `bn` is the tile of
/// C whose A and B panels a block loads once per k (0 for steps that load per thread), which
/// fixes the step's arithmetic intensity against global memory.
struct LadderStep {
  std::string name, change;
  GemmLauncher launch;
  int bm, bn;
};

std::vector<LadderStep> ladder() {
  return {
      {"naive", "one thread per output, consecutive threads on consecutive rows: uncoalesced A (baseline)",
       TUTOR_LAUNCHER(launch_naive), 0, 0},
      {"coalesced", "consecutive threads on consecutive columns: B and C coalesced, A broadcast; ~10x",
       TUTOR_LAUNCHER(launch_coalesced), 0, 0},
      {"smem_tiled", "32x32 tiles of A and B staged in shared memory, each global load reused 32x; ~1.5-2x",
       TUTOR_LAUNCHER(launch_smem_tiled), 32, 32},
      {"reg_tile_1d", "64x64 tiles, 8 outputs per thread in a column: 1.125 shared loads per FMA; ~2x",
       TUTOR_LAUNCHER(launch_reg_tile_1d), 64, 64},
      {"reg_tile_2d", "128x128 tiles, 8x8 outputs per thread (outer product): 0.25 shared loads per FMA; ~1.3-2x",
       TUTOR_LAUNCHER(launch_reg_tile_2d), 128, 128},
      {"vectorized", "128-bit global and shared loads, A tile stored transposed: 4x fewer load instructions; +30-70%",
       TUTOR_LAUNCHER(launch_vectorized), 128, 128},
      {"conflict_free", "padded A^T tile and fragments 64 floats apart: no shared-memory bank conflicts; +5-15%",
       TUTOR_LAUNCHER(launch_conflict_free), 128, 128},
      {"warp_tiled", "each warp a compact 32x64 sub-tile: fewer distinct addresses per shared load; 0-15% (0.97x on an H200, same wavefronts: README 5.3)",
       TUTOR_LAUNCHER(launch_warp_tiled), 128, 128},
      {"double_buffered", "two shared buffers + register prefetch: global loads overlap the math; tile tuned per GPU; +10-30%",
       TUTOR_LAUNCHER(launch_double_buffered), 0, 0},  // tile filled in from the chosen TileConfig
  };
}

/// FLOPs per byte of global-memory traffic a step requests, counting each block's loads of
/// its A and B panels (4 B per float, caches ignored): a bm x bn tile loads (bm + bn) k floats
/// for 2 bm bn k FLOPs, so the intensity is bm bn / (2 (bm + bn)) (derivation: README
/// section 5). Steps without a block tile load one A and one B float per FMA: 2 / 8 = 0.25.
double tile_intensity(int bm, int bn) { return bm > 0 ? double(bm) * bn / (2.0 * (bm + bn)) : 0.25; }

// ---- --model: the roofline of each step for a GPU of the table, no GPU used -----------------

/// Global-memory bytes a step requests for an m x n x k problem (4-byte floats, caches
/// ignored): a block tile bm x bn re-reads A once per block column and B once per block row,
/// ceil(n / bn) m k + ceil(m / bm) k n floats (partial tiles read only what exists); steps
/// without a block tile (bm = 0) read one A and one B float per FMA, 2 m n k. C adds m n
/// floats written and, when beta != 0, m n read.
double requested_bytes(int bm, int bn, int m, int n, int k, bool reads_c) {
  const double mn = double(m) * n, mnk = mn * k;
  const double ab = bm > 0 ? std::ceil(double(n) / bn) * double(m) * k + std::ceil(double(m) / bm) * double(k) * n
                           : 2.0 * mnk;
  return 4.0 * (ab + mn * (reads_c ? 2.0 : 1.0));
}

/// Prints, for a GPU of the table (hardware.cpp, datasheet values with their sources), each
/// step's requested global traffic (requested_bytes), the time it takes at the datasheet HBM
/// bandwidth, and the roofline rate min(peak, intensity x bandwidth) (Williams, Waterman and
/// Patterson, CACM 2009, eq. 1). The floor every step shares is 2mnk / FP32 peak, or the
/// minimum traffic 4(mk + kn + mn [+ mn if beta != 0]) over the bandwidth if that is longer.
/// kind: model; nothing is measured. `steps` are the steps to show, `tile_index` -1 for the
/// tile this build would pick on that GPU without a cache.
void print_model(const std::string& gpu_name, int m, int n, int k, float beta, const std::vector<LadderStep>& steps,
                 int tile_index) {
  const hw::GpuSpec* spec = hw::find_gpu(gpu_name);
  if (!spec) throw UsageError("--model: unknown GPU '" + gpu_name + "'; allowed: " + hw::known_keys());
  const bool reads_c = beta != 0.0f;
  const double flops = 2.0 * m * n * k, peak = spec->fp32_TFLOPs.value, bw = spec->hbm_bandwidth_GBps.value;
  const double min_bytes = 4.0 * (double(m) * k + double(k) * n + double(m) * n * (reads_c ? 2.0 : 1.0));
  const double floor_ms = std::max(flops / (peak * 1e12), min_bytes / (bw * 1e9)) * 1e3;
  const TileChoice chosen = default_tile_config(std::string(spec->arch));
  const int index = tile_index >= 0 ? tile_index : chosen.index;
  const std::string why = tile_index >= 0 ? "--tile-config"
                          : chosen.source.starts_with("default") ? "this build's default for " + std::string(spec->arch)
                                                                  : "this build's portable default";
  const TileConfig tc = tile_config(index);
  fmt::print("kind: model (no GPU used): roofline of each step from the global traffic it requests\n");
  fmt::print("gpu    : {}: FP32 {:.1f} TFLOP/s, HBM {:.0f} GB/s (datasheet; sources at the end)\n", spec->name,
             peak, bw);
  fmt::print("problem: sgemm fp32 {}x{}x{}{}, {:.4g} GFLOP; minimum traffic {:.4g} GB (intensity {:.4g} FLOP/B, "
             "ridge point {:.3g}); floor {:.4g} ms for every step\n",
             m, n, k, reads_c ? "" : " beta=0", flops / 1e9, min_bytes / 1e9, flops / min_bytes, peak * 1e3 / bw,
             floor_ms);
  fmt::print("double_buffered tile: {} ({})\n\n", describe(tc), why);
  fmt::print("{:<16} {:>10} {:>13} {:>15} {:>14}  {}\n", "step", "FLOP/B", "requested GB", "at HBM BW (ms)",
             "roofline TF/s", "bound");
  for (const auto& s : steps) {
    const bool tuned = s.name == "double_buffered";
    const double bytes = requested_bytes(tuned ? tc.bm : s.bm, tuned ? tc.bn : s.bn, m, n, k, reads_c);
    const double intensity = flops / bytes;
    fmt::print("{:<16} {:>10.4g} {:>13.4g} {:>15.4g} {:>14.1f}  {}\n", s.name, intensity, bytes / 1e9,
               bytes / (bw * 1e9) * 1e3, roofline::attainable_TFLOPs(intensity, peak, bw),
               roofline::bound(intensity, peak, bw));
  }
  fmt::print("\nRequested traffic counts every panel load and C as if they came from HBM (so the intensity is a\n"
             "little below --list's bm*bn/(2(bm+bn)), which leaves C out); L1 and L2 serve much of it (on an\n"
             "H200 the coalesced step runs faster than its line here). Run the lab to measure.\n");
  fmt::print("sources: FP32: {}\n         HBM: {}\n", spec->fp32_TFLOPs.source, spec->hbm_bandwidth_GBps.source);
}

// ---- One problem instance ------------------------------------------------------------------

struct Shape {
  int m, n, k;
  float alpha, beta;
};

/// Above this many multiply-adds the reference is the vendor library's fp32 result plus
/// fp64 spot rows computed on the host (when the build has a vendor BLAS).
constexpr double kHostReferenceMacs = 2.2e9;
constexpr int kSpotRows = 48;

/// One GEMM: fresh random A, B and C0 on the device, the output C, and the reference. C is
/// an input when beta != 0, so "poisoning" the output then means restoring C0: an element a
/// kernel fails to write keeps C0 and fails the check. With beta == 0, C is filled with NaN
/// poison, which also proves the kernel does not read C.
class GemmCase {
 public:
  GemmCase(Shape s, std::uint64_t seed, bool may_use_vendor)
      : s_(s), mn_(std::size_t(s.m) * s.n),
        a_(std::size_t(s.m) * s.k * 4), b_(std::size_t(s.k) * s.n * 4), c_(mn_ * 4), c0_(mn_ * 4),
        result_(mn_) {
    std::vector<float> a(std::size_t(s.m) * s.k), b(std::size_t(s.k) * s.n), c0(mn_);
    fill_random(a, seed);
    fill_random(b, seed + 1);
    fill_random(c0, seed + 2);
    a_.upload(a.data(), a.size() * 4);
    b_.upload(b.data(), b.size() * 4);
    c0_.upload(c0.data(), c0.size() * 4);
    const double macs = double(s.m) * s.n * s.k;
    if (macs <= kHostReferenceMacs || !may_use_vendor || !vendor_blas_available()) {
      reference_.resize(mn_);
      gemm_reference(s.m, s.n, s.k, s.alpha, a, b, s.beta, c0, reference_);
      return;
    }
    // fp64 rows spread over the matrix, first and last included, then the vendor's fp32 result.
    for (int i = 0; i < kSpotRows; ++i) spot_rows_.push_back(int(std::int64_t(i) * (s.m - 1) / (kSpotRows - 1)));
    spot_ref_.resize(spot_rows_.size() * std::size_t(s.n));
    std::vector<float> a_rows, c_rows;
    for (int r : spot_rows_) {
      a_rows.insert(a_rows.end(), a.begin() + std::size_t(r) * s.k, a.begin() + std::size_t(r + 1) * s.k);
      c_rows.insert(c_rows.end(), c0.begin() + std::size_t(r) * s.n, c0.begin() + std::size_t(r + 1) * s.n);
    }
    gemm_reference(int(spot_rows_.size()), s.n, s.k, s.alpha, a_rows, b, s.beta, c_rows, spot_ref_);
    poison();
    vendor_sgemm(args(), VendorMath::fp32);
    gpu::synchronize();
    c_.download(result_.data(), mn_ * 4);
    reference_.assign(result_.begin(), result_.end());
    vendor_reference_ = true;
    const Comparison spot = check_spots();
    if (!spot.passed)
      throw gpu::Error("the vendor reference itself fails the fp64 spot check at " + label() + ": " + spot.reason);
  }

  std::string label() const {
    return fmt::format("{}x{}x{}{}", s_.m, s_.n, s_.k, s_.beta == 0.0f ? " beta=0" : "");
  }
  void poison() {
    if (s_.beta == 0.0f) c_.fill_u32(kPoisonBitsF32);
    else restore();
  }
  void restore() { c_.copy_from(c0_); }
  Comparison check() {
    c_.download(result_.data(), mn_ * 4);
    Comparison full = check_gemm(result_, reference_, s_.k);
    if (!vendor_reference_ || !full.passed) return full;
    Comparison spot = check_spots();
    if (!spot.passed) return spot;
    full.rel_l2 = std::max(full.rel_l2, spot.rel_l2);
    return full;
  }
  double bytes() const {  // each input read once, C written once (and read once when beta != 0)
    return 4.0 * (double(s_.m) * s_.k + double(s_.k) * s_.n + double(mn_) * (s_.beta == 0.0f ? 1 : 2));
  }
  double flops() const { return 2.0 * s_.m * double(s_.n) * s_.k; }
  GemmArgs args() const {
    return {s_.m, s_.n, s_.k, s_.alpha, s_.beta, a_.as<float>(), b_.as<float>(), c_.as<float>()};
  }
  const Shape& shape() const { return s_; }
  /// "fp64 on the host" or "<vendor> fp32, plus fp64 on N rows".
  std::string reference_kind() const {
    return vendor_reference_ ? fmt::format("cuBLAS fp32 (full) + fp64 on {} rows", spot_rows_.size())
                             : "fp64 on the host";
  }

 private:
  Comparison check_spots() const {
    std::vector<float> rows;
    for (int r : spot_rows_)
      rows.insert(rows.end(), result_.begin() + std::size_t(r) * s_.n, result_.begin() + std::size_t(r + 1) * s_.n);
    return check_gemm(rows, spot_ref_, s_.k);
  }

  Shape s_;
  std::size_t mn_;
  gpu::DeviceBuffer a_, b_, c_, c0_;
  std::vector<float> result_;
  std::vector<double> reference_, spot_ref_;
  std::vector<int> spot_rows_;
  bool vendor_reference_ = false;
};

using GemmStep = Step<GemmCase>;

GemmStep as_step(const LadderStep& s) {
  return {s.name, s.change, [launch = s.launch](GemmCase& c) { launch(c.args()); }};
}
GemmStep vendor_step(VendorMath math) {
  return {math == VendorMath::fp32 ? "cublas_fp32" : "cublas_tf32", vendor_blas_name(math),
          [math](GemmCase& c) { vendor_sgemm(c.args(), math); }};
}

/// Shapes every selected step is verified on, on every run: 1; m, n or k = 1; 128^3 (where a
/// well-known public ladder's double-buffered step fails); primes that are no multiple of 4
/// (the scalar fallback paths); 1000^3 (partial tiles on the vector path); 4097^3 (partial
/// tiles, scalar path, vendor reference). alpha and beta vary; beta = 0 proves C is not read.
const std::vector<Shape> kVerifyShapes = {
    {1, 1, 1, 1.5f, 0.5f},          {1, 129, 127, 1.0f, 0.0f},     {127, 1, 129, -0.5f, 2.0f},
    {129, 127, 1, 2.0f, 0.0f},      {128, 128, 128, 0.5f, 3.0f},   {257, 131, 509, 0.75f, -1.25f},
    {1000, 1000, 1000, 1.0f, 0.0f}, {4097, 4097, 4097, 0.5f, 3.0f}};

// ---- Options --------------------------------------------------------------------------------

struct Options {
  int m = 4096, n = 4096, k = 4096;
  float alpha = 0.5f, beta = 3.0f;
  int reps = 20, warmup = 3, device = 0, tile_config = -1;
  std::vector<std::string> variants;
  std::vector<int> sizes;
  std::string json_path, csv_path, plot_path, tune_cache, model_gpu;
  std::uint64_t seed = 0;
  bool list = false, tune = false, no_flush = false, skip_large_check = false, no_tf32 = false;
};

// ---- The table ------------------------------------------------------------------------------

/// Ladder rows plus the vendor rows, with the columns of ARCHITECTURE.md and the two
/// fractions the issue asks for: of cublasSgemm fp32 (same run) and of the datasheet FP32 peak.
void print_table(std::FILE* out, const std::vector<StepResult>& steps, const std::vector<StepResult>& vendor,
                 double cublas_TFLOPs, double peak_TFLOPs, double fma_TFLOPs) {
  std::size_t w = 15;
  for (const auto& s : steps) w = std::max(w, s.name.size());
  fmt::print(out, "\n{:<{}}  {:>26}  {:>8}  {:>9}  {:>8}  {:>7}  {}\n", "step", w, "time ms: median (min-max)",
             "TFLOP/s", "of cuBLAS", "of peak", "vs prev", "verified (worst rel err)");
  auto row = [&](const StepResult& s) {
    std::string verdict = s.verified ? fmt::format("yes ({:.1e})", s.rel_err) : "NO";
    if (!s.verified)
      for (const auto& c : s.checks)
        if (!c.cmp.passed) {
          verdict = fmt::format("NO at {}: {}", c.shape, c.cmp.reason);
          break;
        }
    if (!s.timed) {
      fmt::print(out, "{:<{}}  {:>26}  {:>8}  {:>9}  {:>8}  {:>7}  {}\n", s.name, w, "not timed", "-", "-", "-", "-", verdict);
      return;
    }
    const std::string t = fmt::format("{:.3f} ({:.3f}-{:.3f})", s.time_ms.median, s.time_ms.min, s.time_ms.max);
    const std::string of_blas = cublas_TFLOPs > 0 ? fmt::format("{:.1f}%", 100 * s.TFLOPs / cublas_TFLOPs) : "n/a";
    const std::string of_peak = peak_TFLOPs > 0 ? fmt::format("{:.1f}%", 100 * s.TFLOPs / peak_TFLOPs) : "n/a";
    const std::string prev = s.speedup_vs_prev > 0 ? fmt::format("{:.2f}x", s.speedup_vs_prev) : "-";
    fmt::print(out, "{:<{}}  {:>26}  {:>8.2f}  {:>9}  {:>8}  {:>7}  {}\n", s.name, w, t, s.TFLOPs, of_blas, of_peak,
               prev, verdict);
  };
  for (const auto& s : steps) row(s);
  if (!vendor.empty()) fmt::print(out, "{:-<{}}\n", "vendor library ", w + 90);
  for (const auto& s : vendor) row(s);
  fmt::print(out, "ceilings: cublasSgemm fp32 {} | FP32 peak {} (datasheet) | measured FMA kernel {:.1f} TFLOP/s\n",
             cublas_TFLOPs > 0 ? fmt::format("{:.1f} TFLOP/s (same run)", cublas_TFLOPs) : "not available",
             peak_TFLOPs > 0 ? fmt::format("{:.1f} TFLOP/s", peak_TFLOPs) : "unknown for this GPU", fma_TFLOPs);
}

// ---- Running a set of steps on one timed case -------------------------------------------------

struct Run {
  std::vector<StepResult> steps, vendor;
  double cublas_TFLOPs = 0;
};

/// Verifies every step on `checks` and `timed`, times it on `timed`; same for the vendor rows
/// (fp32 first: it is the ceiling). Fractions of the ceiling are of cublasSgemm fp32.
Run run_ladder(const std::vector<GemmStep>& steps, bool with_vendor, bool with_tf32,
               const std::vector<GemmCase*>& checks, GemmCase& timed, const TimingOptions& timing,
               bool progress) {
  Run run;
  std::span<GemmCase* const> check_span(checks.data(), checks.size());
  std::vector<GemmStep> vendor_steps;
  if (with_vendor) {
    vendor_steps.push_back(vendor_step(VendorMath::fp32));
    if (with_tf32) vendor_steps.push_back(vendor_step(VendorMath::tf32));
  }
  for (const auto& v : vendor_steps) {
    if (progress) fmt::print(stderr, "{}: verifying on {} shapes, timing {}...\n", v.name, checks.size() + 1, timed.label());
    StepResult r;
    if (v.name == "cublas_tf32") {
      // TF32 rounds the inputs to 10 mantissa bits: it is judged with the TF32 tolerance.
      r.name = v.name;
      r.change = v.change;
      r.bytes = timed.bytes();
      r.flops = timed.flops();
      auto judge = [&](GemmCase& c, std::string label) {
        c.poison();
        v.launch(c);
        gpu::synchronize();
        Comparison cmp = c.check();
        cmp.tolerance = default_tolerance(DType::tf32, std::size_t(c.shape().k) + 2);
        cmp.passed = cmp.nonfinite == 0 && cmp.rel_l2 <= cmp.tolerance;
        if (cmp.passed) cmp.reason.clear();
        else if (cmp.reason.empty()) cmp.reason = fmt::format("rel L2 {:.2e} > TF32 tolerance {:.2e}", cmp.rel_l2, cmp.tolerance);
        r.checks.push_back({std::move(label), cmp});
      };
      for (GemmCase* c : checks) judge(*c, c->label());
      judge(timed, timed.label());
      r.verified = std::all_of(r.checks.begin(), r.checks.end(), [](const auto& c) { return c.cmp.passed; });
      TimingOptions opts = timing;
      opts.before_each = [&] { timed.restore(); };
      r.time_ms = time_launches(v.name, [&] { v.launch(timed); }, opts);
      r.timed = true;
      for (const auto& c : r.checks) r.rel_err = std::max(r.rel_err, c.cmp.rel_l2);
    } else {
      r = run_step(v, check_span, timed, timing);
    }
    run.vendor.push_back(std::move(r));
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (progress) fmt::print(stderr, "[{}/{}] {}: verifying on {} shapes, timing {}...\n", i + 1, steps.size(),
                             steps[i].name, checks.size() + 1, timed.label());
    run.steps.push_back(run_step(steps[i], check_span, timed, timing));
  }
  Ceiling ceiling{"cublasSgemm fp32", 0, CeilingUnit::TFLOPs};
  if (!run.vendor.empty() && run.vendor[0].timed) {
    ceiling.value = timed.flops() / (run.vendor[0].time_ms.median * 1e-3) / 1e12;
    run.cublas_TFLOPs = ceiling.value;
  }
  finish_ladder(run.steps, ceiling);
  finish_ladder(run.vendor, ceiling);
  for (auto& v : run.vendor) v.speedup_vs_prev = v.speedup_vs_first = 0;  // not a ladder
  return run;
}

bool all_verified(const Run& run) {
  auto ok = [](const StepResult& s) { return s.verified; };
  return std::all_of(run.steps.begin(), run.steps.end(), ok) && std::all_of(run.vendor.begin(), run.vendor.end(), ok);
}

nlohmann::json steps_json(const std::vector<StepResult>& steps) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : steps) out.push_back(to_json(s));
  return out;
}

// ---- Tuning ----------------------------------------------------------------------------------

/// Times every compiled TileConfig of the last step (double_buffered) on `timed` after verifying it on
/// `checks`; returns the fastest verified index and the per-config results.
std::pair<int, nlohmann::json> tune(const std::vector<GemmCase*>& checks, GemmCase& timed,
                                    const TimingOptions& timing, bool progress, std::FILE* human) {
  int best = -1;
  double best_TFLOPs = 0;
  nlohmann::json rows = nlohmann::json::array();
  fmt::print(human, "\ntuning double_buffered on {} ({} configurations):\n", timed.label(), tile_config_count());
  for (int i = 0; i < tile_config_count(); ++i) {
    select_tile_config(i);
    const std::string name = fmt::format("tune_{}", i);
    if (progress) fmt::print(stderr, "  config {}: {}...\n", i, describe(tile_config(i)));
    GemmStep s{name, describe(tile_config(i)), [](GemmCase& c) { TUTOR_LAUNCHER(launch_double_buffered)(c.args()); }};
    StepResult r = run_step(s, std::span<GemmCase* const>(checks.data(), checks.size()), timed, timing);
    const double tf = r.timed ? timed.flops() / (r.time_ms.median * 1e-3) / 1e12 : 0;
    fmt::print(human, "  [{}] {:<36} {:>8.2f} TFLOP/s  {}\n", i, describe(tile_config(i)), tf,
               r.verified ? "verified" : "NOT VERIFIED (excluded)");
    const TileConfig c = tile_config(i);
    rows.push_back({{"index", i}, {"bm", c.bm}, {"bn", c.bn}, {"bk", c.bk}, {"wm", c.wm}, {"wn", c.wn},
                    {"threads", c.threads()}, {"verified", r.verified}, {"TFLOPs", tf},
                    {"time_ms", {{"median", r.time_ms.median}, {"min", r.time_ms.min}, {"max", r.time_ms.max}}}});
    if (r.verified && tf > best_TFLOPs) best = i, best_TFLOPs = tf;
  }
  if (best < 0) throw gpu::Error("--tune: no tile configuration passed verification");
  return {best, rows};
}

// ---- Main -------------------------------------------------------------------------------------

int run(int argc, char** argv) {
  Options o;
  CLI::App app{"A07 Tiled GEMM: the SGEMM ladder from a naive kernel to near cuBLAS, every step verified at "
               "awkward sizes and timed against cublasSgemm on this GPU",
               "a07_sgemm"};
  app.add_option("--m", o.m, "rows of A and C")->check(decimal_integer())->check(CLI::Range(1, 32768));
  app.add_option("--n", o.n, "columns of B and C")->check(decimal_integer())->check(CLI::Range(1, 32768));
  app.add_option("--k", o.k, "columns of A, rows of B (the reduction length)")
      ->check(decimal_integer())->check(CLI::Range(1, 32768));
  // |alpha|, |beta| <= 1e30 keep alpha * acc finite in fp32 for the inputs the lab draws.
  const CLI::Validator scalar_range(
      [](const std::string& text) { return std::fabs(std::stod(text)) <= 1e30 ? "" : "must be between -1e30 and 1e30"; },
      "-1e30..1e30");
  app.add_option("--alpha", o.alpha, "C = alpha*A*B + beta*C (default 0.5; -1e30 to 1e30)")
      ->check(finite_number())->check(scalar_range);
  app.add_option("--beta", o.beta, "C = alpha*A*B + beta*C (default 3; 0: C is not read; -1e30 to 1e30)")
      ->check(finite_number())->check(scalar_range);
  app.add_option("--variant", o.variants,
                 "run only these steps (repeatable; see --list); the vendor rows always run");
  app.add_option("--sizes", o.sizes, "sweep mode: comma-separated square sizes (m = n = k), each 1..16384; "
                                     "writes --csv and --plot")
      ->delimiter(',')->check(decimal_integer())->check(CLI::Range(1, 16384));
  app.add_option("--csv", o.csv_path, "sweep mode: write the sweep as CSV to PATH");
  app.add_option("--plot", o.plot_path, "sweep mode: draw TFLOP/s against size as an SVG at PATH");
  app.add_flag("--tune", o.tune, "time every tile configuration of the last step on this GPU, cache the "
                                 "fastest for this device, then run the ladder with it");
  app.add_option("--tune-cache", o.tune_cache, "tuning cache file (default: $XDG_CACHE_HOME or "
                                               "~/.cache, then /gpu-ml-tutor/a07_sgemm-<arch>-<device>.json)");
  app.add_option("--tile-config", o.tile_config, "use this tile configuration for the last step "
                                                 "(an index from --list) instead of the cache or default")
      ->check(decimal_integer())->check(CLI::Range(0, tile_config_count() - 1));
  app.add_option("--reps", o.reps, "timed launches per step (median, min and max are reported), 1..1000")
      ->check(decimal_integer())->check(CLI::Range(1, 1000));
  app.add_option("--warmup", o.warmup, "untimed launches before timing, 0..100")
      ->check(decimal_integer())->check(CLI::Range(0, 100));
  auto* list = app.add_flag("--list", o.list, "list the steps and tile configurations, then exit (no GPU needed)");
  auto* model = app.add_option("--model", o.model_gpu, "print each step's roofline for a GPU of the table "
                                                       "(h200-sxm, mi300x, ...) instead of running (no GPU needed)");
  list->excludes(model);
  auto* json = app.add_option("--json", o.json_path, "write the JSON record to PATH ('-' or no PATH: stdout)")
                   ->expected(0, 1);
  app.add_option("--seed", o.seed, "seed of the random inputs (default: fresh every run)")->check(decimal_integer());
  app.add_option("--device", o.device, "GPU index")->check(decimal_integer())->check(CLI::Range(0, 63));
  app.add_flag("--no-flush-l2", o.no_flush, "do not evict L2 before each timed launch");
  app.add_flag("--no-tf32", o.no_tf32, "skip the TF32 tensor-core cuBLAS line");
  app.add_flag("--skip-large-check", o.skip_large_check,
               "verify only the shapes up to 257x131x509 (for compute-sanitizer runs at a small size; the "
               "record lists the shapes that were verified)");
  // Options of a run mean nothing to --model; refuse them rather than ignore them.
  for (const char* run_only : {"--alpha", "--reps", "--warmup", "--seed", "--device", "--no-flush-l2", "--no-tf32",
                               "--skip-large-check", "--tune-cache"})
    model->excludes(app.get_option(run_only));
  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  if (json->count() > 0 && o.json_path.empty()) o.json_path = "-";
  if (json->count() > 0 && (o.list || model->count() > 0))
    throw UsageError("--json: records a run; --list and --model print to stdout only");
  if (model->count() > 0 && (o.tune || !o.sizes.empty()))
    throw UsageError("--model: prints the roofline of one size (--m/--n/--k); not with --tune or --sizes");
  if (o.sizes.empty() && (!o.csv_path.empty() || !o.plot_path.empty()))
    throw UsageError("--csv/--plot: only in sweep mode (give --sizes)");
  if (!o.sizes.empty() && o.tune) throw UsageError("--tune: tune at one size (--m/--n/--k), then sweep");
  if (o.tune && o.tile_config >= 0) throw UsageError("--tile-config: cannot be combined with --tune");
  if (o.csv_path == "-" || o.plot_path == "-") throw UsageError("--csv/--plot: give a file path, not '-'");
  require_writable("--json", o.json_path);
  require_writable("--csv", o.csv_path);
  require_writable("--plot", o.plot_path);
  if (o.tune_cache == "-") throw UsageError("--tune-cache: give a file path, not '-'");
  if (!o.tune_cache.empty()) require_writable("--tune-cache", o.tune_cache);
  require_distinct_outputs({{"--json", o.json_path}, {"--csv", o.csv_path}, {"--plot", o.plot_path},
                            {"--tune-cache", o.tune_cache}});

  std::vector<LadderStep> chosen;
  {
    const std::vector<LadderStep> all = ladder();
    if (o.variants.empty()) chosen = all;
    std::string allowed;
    for (const auto& s : all) allowed += (allowed.empty() ? "" : ", ") + s.name;
    for (const auto& want : o.variants) {
      auto it = std::find_if(all.begin(), all.end(), [&](const auto& s) { return s.name == want; });
      if (it == all.end()) throw UsageError("--variant: unknown step '" + want + "'; allowed: " + allowed);
      chosen.push_back(*it);
    }
  }
  if (o.list) {
    for (const auto& s : ladder())
      fmt::print("{:<16} {}\n{:<16} intensity vs global memory: {} FLOP/B\n", s.name, s.change, "",
                 s.bm > 0 ? fmt::format("{:.1f}", tile_intensity(s.bm, s.bn)) : (s.name == "double_buffered" ? "bm*bn/(2(bm+bn)) of its tile" : "0.25"));
    fmt::print("\ntile configurations of double_buffered (--tile-config N; --tune picks one per GPU):\n");
    for (int i = 0; i < tile_config_count(); ++i) fmt::print("  [{}] {}\n", i, describe(tile_config(i)));
    return kExitOk;
  }
  if (model->count() > 0) {
    print_model(o.model_gpu, o.m, o.n, o.k, o.beta, chosen, o.tile_config);
    return kExitOk;
  }

  std::FILE* human = o.json_path == "-" ? stderr : stdout;
  const bool progress = ::isatty(STDERR_FILENO);
  if (o.seed == 0) o.seed = fresh_seed();

  LabRecord record;
  record.lab = "a07_sgemm";
  record.module = "A07";
  record.command = command_line(argc, argv);
  record.device.info = gpu::open_device(o.device);
  const gpu::DeviceInfo& dev = record.device.info;
  {
    const double biggest = std::max({double(o.m) * o.k + double(o.k) * o.n + 2.0 * o.m * o.n,
                                     o.sizes.empty() ? 0.0 : 4.0 * std::pow(double(*std::max_element(o.sizes.begin(), o.sizes.end())), 2),
                                     4.0 * 4097.0 * 4097.0});
    if (biggest * 4 * 1.2 > double(dev.global_mem_bytes))
      throw UsageError(fmt::format("--m/--n/--k/--sizes: the problem needs {:.1f} GiB; this GPU has {:.1f} GiB",
                                   biggest * 4 / 1073741824.0, dev.global_mem_bytes / 1073741824.0));
  }
  const bool have_vendor = vendor_blas_available();
  const hw::GpuSpec* spec = hw::match_runtime_name(dev.name);
  const double peak = spec && std::isfinite(spec->fp32_TFLOPs.value) ? spec->fp32_TFLOPs.value : 0;

  if (progress) fmt::print(stderr, "measuring the FMA rate...\n");
  record.device.fma_TFLOPs = gpu::measure_fma_TFLOPs();
  record.device.copy_GBps = gpu::measure_copy_GBps(8 * std::max<std::size_t>(dev.l2_bytes, 1 << 20));

  // The tile configuration of the last step.
  const std::string cache_path = o.tune_cache.empty() ? default_tune_cache_path(dev) : o.tune_cache;
  TileChoice choice = o.tile_config >= 0 ? TileChoice{o.tile_config, "--tile-config"}
                                         : choose_tile_config(dev, cache_path);
  select_tile_config(choice.index);

  const TimingOptions timing{o.warmup, o.reps, !o.no_flush, {}};
  std::uint64_t case_seed = o.seed;
  if (progress) fmt::print(stderr, "preparing inputs and references...\n");

  // ---- sweep mode ----
  if (!o.sizes.empty()) {
    std::vector<GemmStep> steps;
    for (const auto& s : chosen) steps.push_back(as_step(s));
    std::string csv = "size,step,median_ms,min_ms,max_ms,TFLOPs,fraction_of_cublas_fp32,verified,rel_err\n";
    nlohmann::json sweep = nlohmann::json::array();
    PlotSpec plot{"SGEMM ladder on " + dev.name + " (m = n = k)", "size", "TFLOP/s", true, false, 2, {}, {}};
    const char* colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000"};
    std::vector<PlotSeries> series;
    bool ok = true;
    for (int size : o.sizes) {
      GemmCase timed({size, size, size, o.alpha, o.beta}, ++case_seed, have_vendor);
      const Run run = run_ladder(steps, have_vendor, false, {}, timed, timing, progress);
      ok = ok && all_verified(run);
      std::vector<StepResult> rows = run.vendor;
      rows.insert(rows.end(), run.steps.begin(), run.steps.end());
      if (series.empty())
        for (std::size_t i = 0; i < rows.size(); ++i)
          series.push_back({rows[i].name, {}, rows[i].name.rfind("cublas", 0) == 0 ? PlotSeries::Style::dashed : PlotSeries::Style::line, colors[i % 11]});
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const double frac = run.cublas_TFLOPs > 0 && r.timed ? r.TFLOPs / run.cublas_TFLOPs : 0;
        csv += fmt::format("{},{},{:.6f},{:.6f},{:.6f},{:.4f},{:.4f},{},{:.3e}\n", size, r.name, r.time_ms.median,
                           r.time_ms.min, r.time_ms.max, r.TFLOPs, frac, r.verified ? 1 : 0, r.rel_err);
        if (r.timed) series[i].xy.push_back({double(size), r.TFLOPs});
      }
      fmt::print(human, "\nsize {} ({}; reference: {})", size, timed.label(), timed.reference_kind());
      print_table(human, run.steps, run.vendor, run.cublas_TFLOPs, peak, record.device.fma_TFLOPs);
      sweep.push_back({{"size", size}, {"cublas_fp32_TFLOPs", run.cublas_TFLOPs}, {"variants", steps_json(run.steps)},
                       {"vendor", steps_json(run.vendor)}});
    }
    plot.series = series;
    if (!o.csv_path.empty()) write_output("--csv", o.csv_path, csv);
    if (!o.plot_path.empty()) write_output("--plot", o.plot_path, render_svg(plot));
    record.ceiling = {"cublasSgemm fp32 (per size)", 0, CeilingUnit::TFLOPs};
    record.problem = {{"op", "sgemm sweep"}, {"sizes", o.sizes}, {"alpha", o.alpha}, {"beta", o.beta}, {"seed", o.seed},
                      {"tile_config", describe(tile_config(choice.index))}, {"tile_config_source", choice.source}};
    record.notes = {{"sweep", sweep}, {"timing", {{"warmup", o.warmup}, {"reps", o.reps}, {"flush_l2", !o.no_flush}}}};
    if (!o.json_path.empty()) write_json(to_json(record), o.json_path);
    if (!ok) {
      fmt::print(stderr, "a07_sgemm: verification FAILED in the sweep (see the tables)\n");
      return kExitCheckFailed;
    }
    return kExitOk;
  }

  // ---- ladder mode ----
  std::vector<std::unique_ptr<GemmCase>> cases;
  std::vector<GemmCase*> checks;
  for (const Shape& s : kVerifyShapes) {
    if (s.m == o.m && s.n == o.n && s.k == o.k && s.alpha == o.alpha && s.beta == o.beta) continue;
    if (o.skip_large_check && double(s.m) * s.n * s.k > 2e7) continue;
    cases.push_back(std::make_unique<GemmCase>(s, ++case_seed, have_vendor));
    checks.push_back(cases.back().get());
  }
  GemmCase timed({o.m, o.n, o.k, o.alpha, o.beta}, ++case_seed, have_vendor);

  nlohmann::json tuning = nullptr;
  if (o.tune) {
    auto [best, rows] = tune(checks, timed, timing, progress, human);
    choice = {best, "tuned in this run"};
    select_tile_config(best);
    std::string cache_note = "not written (no cache path: set XDG_CACHE_HOME or HOME, or give --tune-cache)";
    if (!cache_path.empty()) {
      double best_tf = 0;
      for (const auto& r : rows)
        if (r["index"] == best) best_tf = r["TFLOPs"].get<double>();
      write_tune_cache(cache_path, dev, best, best_tf, timed.label());
      cache_note = cache_path;
    }
    fmt::print(human, "chosen: [{}] {}; cached in {}\n", best, describe(tile_config(best)), cache_note);
    tuning = {{"configs", rows}, {"chosen", best}, {"cache", cache_note}};
  }

  std::vector<GemmStep> steps;
  for (const auto& s : chosen) steps.push_back(as_step(s));
  Run run = run_ladder(steps, have_vendor, !o.no_tf32, checks, timed, timing, progress);
  record.variants = run.steps;
  record.ceiling = have_vendor ? Ceiling{"cublasSgemm fp32 (CUBLAS_DEFAULT_MATH)", run.cublas_TFLOPs, CeilingUnit::TFLOPs}
                               : Ceiling{"none: no vendor BLAS in this build", 0, CeilingUnit::TFLOPs};

  std::vector<std::string> shapes;
  for (auto* c : checks) shapes.push_back(c->label());
  shapes.push_back(timed.label());
  const TileConfig tc = tile_config(choice.index);
  nlohmann::json intensity = nlohmann::json::object();
  for (const auto& s : chosen)
    intensity[s.name] = s.name == "double_buffered" ? tile_intensity(tc.bm, tc.bn) : tile_intensity(s.bm, s.bn);
  record.problem = {{"op", "sgemm"}, {"dtype", "fp32"}, {"layout", "row-major, C = alpha*A*B + beta*C"},
                    {"m", o.m}, {"n", o.n}, {"k", o.k}, {"alpha", o.alpha}, {"beta", o.beta},
                    {"flops_per_launch", timed.flops()}, {"reference", timed.reference_kind()},
                    {"verified_shapes", shapes}, {"seed", o.seed}};
  record.notes = {{"timing", {{"warmup", o.warmup}, {"reps", o.reps}, {"flush_l2", !o.no_flush},
                              {"clock", "device events, one pair per launch; C restored before each launch (untimed)"}}},
                  {"vendor", steps_json(run.vendor)},
                  {"vendor_library", vendor_blas_name(VendorMath::fp32)},
                  {"fp32_peak_TFLOPs_datasheet", peak},
                  {"fp32_peak_source", spec ? std::string(spec->fp32_TFLOPs.source) : "GPU not in the table"},
                  {"tile_config", {{"index", choice.index}, {"bm", tc.bm}, {"bn", tc.bn}, {"bk", tc.bk}, {"wm", tc.wm},
                                   {"wn", tc.wn}, {"threads", tc.threads()}, {"source", choice.source}}},
                  {"arithmetic_intensity_FLOP_per_B", intensity}};
  if (!tuning.is_null()) record.notes["tuning"] = tuning;

  print_device_header(human, record.device);
  fmt::print(human, "problem : sgemm fp32 {} (C = {}*A*B + {}*C), {:.1f} GFLOP per launch; reference: {}\n",
             timed.label(), o.alpha, o.beta, timed.flops() / 1e9, timed.reference_kind());
  fmt::print(human, "verified: {}\n", fmt::join(shapes, ", "));
  fmt::print(human, "double_buffered tile: {} ({})\n", describe(tc), choice.source);
  print_table(human, run.steps, run.vendor, run.cublas_TFLOPs, peak, record.device.fma_TFLOPs);
  if (!have_vendor) fmt::print(human, "vendor: {}\n", vendor_blas_name(VendorMath::fp32));
  if (!o.json_path.empty()) write_json(to_json(record), o.json_path);

  std::vector<std::string> failed;
  for (const auto* list_ : {&run.steps, &run.vendor})
    for (const auto& s : *list_)
      if (!s.verified) failed.push_back(s.name);
  if (!failed.empty()) {
    fmt::print(stderr, "a07_sgemm: verification FAILED for: {}\n", fmt::join(failed, ", "));
    return kExitCheckFailed;
  }
  return kExitOk;
}

}  // namespace
}  // namespace tutor::a07

int main(int argc, char** argv) {
  return tutor::run_main("a07_sgemm", [&] { return tutor::a07::run(argc, argv); });
}
