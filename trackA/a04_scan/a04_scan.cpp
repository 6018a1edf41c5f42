// a04_scan: the prefix-sum ladder, verified and timed on this machine's GPU, with the vendor
// library (CUB / rocPRIM) as the last row of the same run.
//
// Reads top to bottom: one problem instance (a Case: device buffers, fresh random input, a
// host reference in fp64 or int64), the ladder (declared once, as data), and main, which
// hands both to the lab main (tutor/ladder_lab.hpp).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "scan.hpp"
#include "scan_reference.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"

namespace tutor::a04 {
namespace {

const char* type_name(ScanType t) { return t == ScanType::f32 ? "fp32" : "int32"; }

/// One problem instance: n fresh random elements (fp32 in [-1, 1), so prefixes cross zero;
/// int32 in [-100, 100], so no prefix of a 2^28-element random walk nears the int32 range),
/// an output buffer, a workspace for the steps and the library, and the host reference.
class ScanCase {
 public:
  struct Shape {
    long long n;
    ScanType type;
    bool exclusive;
    bool operator==(const Shape&) const = default;
  };
  /// The floor: every input read once, every output written once.
  static double bytes(const Shape& s) { return 2.0 * double(s.n) * 4.0; }

  ScanCase(const Shape& s, std::uint64_t seed)
      : shape_(s), in_(std::size_t(s.n) * 4), out_(std::size_t(s.n) * 4),
        workspace_bytes_(std::max(ladder_workspace_bytes(s.n), vendor_workspace_bytes(s.n, s.type, s.exclusive))),
        workspace_(workspace_bytes_) {
    if (s.type == ScanType::f32) {
      std::vector<float> host(std::size_t(s.n));
      fill_random(host, seed);
      in_.upload(host.data(), host.size() * 4);
      float_ref_ = float_scan_reference(host, s.exclusive);
    } else {
      std::vector<std::int32_t> host(std::size_t(s.n));
      std::mt19937_64 rng(seed);
      std::uniform_int_distribution<std::int32_t> dist(-100, 100);
      for (auto& v : host) v = dist(rng);
      in_.upload(host.data(), host.size() * 4);
      int_ref_ = int_scan_reference(host, s.exclusive);
    }
  }
  const Shape& shape() const { return shape_; }
  std::string label() const {
    return fmt::format("{} {} n={}", type_name(shape_.type), shape_.exclusive ? "exclusive" : "inclusive", shape_.n);
  }
  void poison() { out_.fill_u32(kPoisonBitsF32); }
  Comparison check() {
    if (shape_.type == ScanType::f32) {
      std::vector<float> got(std::size_t(shape_.n));
      out_.download(got.data(), got.size() * 4);
      return check_float_scan(got, float_ref_);
    }
    std::vector<std::int32_t> got(std::size_t(shape_.n));
    out_.download(got.data(), got.size() * 4);
    return check_int_scan(got, int_ref_);
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return 0; }
  void run(ScanLauncher launcher) {
    launcher(ScanArgs{in_.as<void>(), out_.as<void>(), shape_.n, shape_.type, shape_.exclusive, workspace_.as<void>(),
                      workspace_bytes_});
  }

 private:
  Shape shape_;
  gpu::DeviceBuffer in_, out_;
  std::size_t workspace_bytes_;
  gpu::DeviceBuffer workspace_;
  FloatReference float_ref_;
  std::vector<std::int64_t> int_ref_;
};

using ScanStep = Step<ScanCase>;
const auto step = [](auto... a) { return launcher_step<ScanCase, ScanLauncher>(a...); };

/// The ladder, in order, then the vendor library (the row the goal is measured against).
std::vector<ScanStep> ladder() {
  return {
      step(1, "kogge_stone", "Kogge-Stone scan of 1024-element blocks in shared memory (log n rounds, n log n adds), "
                             "block totals scanned recursively, offsets added: data crosses DRAM about 4 times",
           "baseline", TUTOR_LAUNCHER(launch_kogge_stone)),
      step(2, "brent_kung", "work-efficient Brent-Kung / Blelloch up-sweep and down-sweep (2n adds, half the threads, "
                            "padded against bank conflicts); same recursion",
           "~1-1.5x (the same DRAM traffic)", TUTOR_LAUNCHER(launch_brent_kung)),
      step(3, "reduce_then_scan", "three kernels: reduce 4096-element tiles, scan the tile totals, rescan each tile "
                                  "seeded; 16 items per thread, warp-shuffle scan: 3n traffic",
           "~1.3-2x (4n -> 3n bytes, fewer passes)", TUTOR_LAUNCHER(launch_reduce_then_scan)),
      step(4, "decoupled_lookback", "single pass, tiles chained by decoupled look-back (Merrill & Garland 2016): "
                                    "2n traffic, the floor",
           "~1.4x (3n -> 2n bytes)", TUTOR_LAUNCHER(launch_decoupled_lookback)),
      step(0, "vendor_scan", "the vendor library: cub::DeviceScan (NVIDIA) / rocprim scan (AMD), same run",
           "the goal: step 4 >= 1.0x", launch_vendor_scan, StepRole::reference),
      step(0, "exercise", "your kernel from exercises/: the work-efficient (Blelloch) block scan, same recursion",
           "as brent_kung", TUTOR_LAUNCHER(launch_exercise_blelloch), StepRole::exercise),
      step(0, "exercise_lookback", "your look-back from exercises/: a single-pass scan of 1024-element tiles, "
                                   "one thread walking back",
           "below decoupled_lookback", TUTOR_LAUNCHER(launch_exercise_lookback), StepRole::exercise),
  };
}

ScanType parse_type(const std::string& s) { return s == "int32" ? ScanType::i32 : ScanType::f32; }

}  // namespace
}  // namespace tutor::a04

int main(int argc, char** argv) {
  using namespace tutor;
  using a04::ScanCase;
  using a04::ScanType;
  long long n = 1LL << 28;
  std::string dtype = "fp32";
  bool exclusive = false;
  LadderLab<ScanCase> lab;
  lab.name = "a04_scan";
  lab.module = "A04";
  lab.summary = "A04 Scan: a prefix-sum ladder from Kogge-Stone blocks to single-pass decoupled look-back, every "
                "step verified and timed on this GPU against the vendor library";
  lab.steps = a04::ladder();
  lab.run_defaults = {.reps = 30, .warmup = 3, .skip_large_check = true};
  // Both types, both modes, at 1, 1000 (one partial block), 2^20+3 (two recursion levels and
  // a partial last tile) and 2^28 (the timed size: 1 GiB per buffer, far past any L2).
  for (long long size : {1LL, 1000LL, (1LL << 20) + 3, 1LL << 28})
    for (ScanType t : {ScanType::f32, ScanType::i32})
      for (bool ex : {false, true}) lab.verify_shapes.push_back({size, t, ex});
  // --skip-large-check (sanitizer and exercise runs) keeps 1 and 1000 and the timed shape: a
  // sanitizer instruments every shared-memory access, and 2^20+3 in 16 shapes would take minutes.
  lab.is_large = [](const ScanCase::Shape& s) { return s.n > (1LL << 16); };
  lab.timed_shape = [&] { return ScanCase::Shape{n, a04::parse_type(dtype), exclusive}; };
  lab.add_options = [&](GpuLab& g) {
    CLI::App& app = g.app();
    app.add_option("--n", n, "elements to scan (timed)")->check(decimal_integer())->check(CLI::Range(1LL, 1LL << 30));
    app.add_option("--dtype", dtype, "element type of the timed scan")->check(CLI::IsMember({"fp32", "int32"}));
    // A bare flag: CLI11 would read --exclusive=-1 or =off as "inclusive" and =2 as "exclusive".
    app.add_flag("--exclusive", exclusive, "time the exclusive scan (default: inclusive)")
        ->check(CLI::Validator([](std::string& v) -> std::string {
          return v == "true" ? "" : "a flag that takes no value (got '" + v + "'); leave it out for the inclusive scan";
        }, ""));
  };
  lab.describe = [](const ScanCase::Shape& s) {
    return fmt::format("{} {} scan of {} elements, {:.3f} GB read + written per launch (the 2n floor)",
                       a04::type_name(s.type), s.exclusive ? "exclusive" : "inclusive", s.n,
                       ScanCase::bytes(s) / 1e9);
  };
  lab.problem = [](const ScanCase::Shape& s) {
    return nlohmann::json{{"op", s.exclusive ? "exclusive_scan" : "inclusive_scan"}, {"dtype", a04::type_name(s.type)},
                          {"n", s.n}, {"bytes_per_launch", ScanCase::bytes(s)},
                          {"vendor_library", a04::vendor_scan_name()}};
  };
  lab.model_row = [](const StepInfo& step, const ScanCase::Shape& s) {
    // DRAM traffic in units of n elements: 4n for the recursive block scans (read, write, read
    // and write again to add offsets), 3n for reduce-then-scan, 2n for one pass.
    const double per = step.name == "kogge_stone" || step.name == "brent_kung" ? 4.0
                       : step.name == "reduce_then_scan"                        ? 3.0
                                                                                : 2.0;
    return ModelRow{step.name, per / 2.0 * ScanCase::bytes(s), 0,
                    fmt::format("{}n element transfers", per)};
  };
  lab.device_bytes = [](const ScanCase::Shape& s) { return 3.2 * ScanCase::bytes(s) / 2.0; };
  return ladder_main(lab, argc, argv);
}
