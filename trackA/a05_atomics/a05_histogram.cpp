// a05_histogram: the histogram ladder, verified and timed on this machine's GPU, and the
// contention sweep (--hot-percent) that shows what privatisation buys.
//
// Reads top to bottom: one problem instance (a Case: device buffers, fresh random samples,
// the exact CPU histogram), the ladder (declared once, as data), and main, which hands both to
// the lab main (tutor/ladder_lab.hpp): options, device, ceiling, verify-time-verify every step,
// table, record, exit codes.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "histogram.hpp"
#include "histogram_reference.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"

namespace tutor::a05 {
namespace {

/// One problem instance: n samples (8-bit or fp32) drawn from a distribution over the bins,
/// the counts buffer, the vendor's scratch, and the exact histogram computed on the host.
class HistogramCase {
 public:
  struct Shape {
    long long n;
    int bins;
    bool f32;
    Distribution dist;
    bool operator==(const Shape& o) const {
      return n == o.n && bins == o.bins && f32 == o.f32 && dist.spread == o.dist.spread &&
             dist.hot_percent == o.dist.hot_percent;
    }
  };
  static std::size_t sample_bytes(const Shape& s) { return s.f32 ? sizeof(float) : 1; }
  /// Each sample read once, each counter written once.
  static double bytes(const Shape& s) { return double(s.n) * double(sample_bytes(s)) + 4.0 * s.bins; }

  HistogramCase(const Shape& s, std::uint64_t seed)
      : shape_(s), in_(std::size_t(s.n) * sample_bytes(s)), counts_(std::size_t(s.bins) * 4),
        result_(std::size_t(s.bins)) {
    if (s.f32) {
      std::vector<float> host(std::size_t(s.n));
      draw_samples(host, s.bins, s.dist, seed);
      in_.upload(host.data(), host.size() * sizeof(float));
      reference_ = histogram_reference(std::span<const float>(host), s.bins);
    } else {
      std::vector<std::uint8_t> host(std::size_t(s.n));
      draw_samples(host, s.bins, s.dist, seed);
      in_.upload(host.data(), host.size());
      reference_ = histogram_reference(std::span<const std::uint8_t>(host), s.bins);
    }
    args_ = operands(nullptr, 0);
    const std::size_t ws = TUTOR_LAUNCHER(vendor_workspace_bytes)(args_);
    workspace_ = std::make_unique<gpu::DeviceBuffer>(ws > 0 ? ws : 1);
    args_ = operands(workspace_->as<unsigned char>(), ws);
  }
  const Shape& shape() const { return shape_; }
  std::string label() const {
    return fmt::format("{} {} x{} bins {}", shape_.n, shape_.f32 ? "fp32" : "u8", shape_.bins,
                       shape_.dist.label());
  }
  void poison() { counts_.fill_u32(0xdeadbeefu); }  // a counter no step wrote stays this
  Comparison check(const StepInfo& step) {
    counts_.download(result_.data(), result_.size() * 4);
    Comparison c = compare_exact(result_, reference_);  // counting is exact: every counter must match
    const bool all_zero = std::all_of(result_.begin(), result_.end(), [](std::uint32_t v) { return v == 0; });
    if (step.role == StepRole::exercise && !c.passed && all_zero)
      c.reason = "nothing counted: every count is 0 (is the TODO in exercises/cuda/hist_" +
                 std::string(step.name == "exercise_vec" ? "vec" : "private") + ".cu done?)";
    return c;
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return 0; }
  void run(HistogramLauncher launcher) { launcher(args_); }

 private:
  HistogramArgs operands(void* ws, std::size_t ws_bytes) {
    HistogramArgs a;
    if (shape_.f32) a.f32 = in_.as<float>();
    else a.u8 = in_.as<unsigned char>();
    a.n = int(shape_.n);
    a.bins = shape_.bins;
    a.counts = counts_.as<unsigned>();
    a.workspace = ws;
    a.workspace_bytes = ws_bytes;
    return a;
  }
  Shape shape_;
  gpu::DeviceBuffer in_, counts_;
  std::unique_ptr<gpu::DeviceBuffer> workspace_;
  HistogramArgs args_;
  std::vector<std::uint32_t> reference_, result_;
};

using HistogramStep = Step<HistogramCase>;
const auto step = [](auto... a) { return launcher_step<HistogramCase, HistogramLauncher>(a...); };

/// The ladder, in order: what each step changes, and the gain its mechanism should buy.
std::vector<HistogramStep> ladder() {
  return {
      step(1, "global_atomics", "one atomicAdd to global memory per sample: adds to one counter queue in L2",
           "baseline", TUTOR_LAUNCHER(launch_global_atomics)),
      step(2, "shared_private", "a private histogram per block in shared memory, added to global once: "
                                "contention among one block's threads only", "~2-5x uniform, >10x contended",
           TUTOR_LAUNCHER(launch_shared_private)),
      step(3, "warp_aggregated", "lanes with the same bin elect a leader that adds the group's count "
                                 "(match_any): 32 colliding adds become one", "~1x uniform, >2x one bin",
           TUTOR_LAUNCHER(launch_warp_aggregated)),
      step(4, "per_warp", "one sub-histogram per warp in shared memory, summed at the end: only a warp's "
                          "lanes can collide", "+10-50% over shared_private",
           TUTOR_LAUNCHER(launch_per_warp)),
      step(5, "per_warp_vec", "per_warp reading 16 bytes per load (16 8-bit samples): fewer load "
                              "instructions per byte", "near copy bandwidth (uniform, 256 bins)",
           TUTOR_LAUNCHER(launch_per_warp_vec)),
      step(0, "exercise_private", "your kernel from exercises/: a private histogram per block in shared memory",
           "as shared_private", TUTOR_LAUNCHER(launch_exercise_private), StepRole::exercise),
      step(0, "exercise_vec", "your kernel from exercises/: per-warp copies fed by 16-byte loads",
           "as per_warp_vec", TUTOR_LAUNCHER(launch_exercise_vec), StepRole::exercise),
      step(0, "vendor", "the vendor's histogram (CUB DeviceHistogram::HistogramEven / rocPRIM histogram_even)",
           "the vendor's reference", TUTOR_LAUNCHER(launch_vendor), StepRole::reference),
  };
}

Distribution distribution_named(const std::string& name) {
  if (name == "zipf") return {Spread::zipf, 0};
  if (name == "one_bin") return {Spread::hot, 100};
  return {Spread::hot, 0};
}

}  // namespace
}  // namespace tutor::a05

int main(int argc, char** argv) {
  using namespace tutor;
  using a05::HistogramCase;
  long long samples = 1ll << 28;
  int bins = 256;
  std::string dtype = "u8", dist = "uniform";
  CLI::Option* dist_opt = nullptr;   // set by add_options
  CLI::Option* sweep_opt = nullptr;  // the runner's --hot-percent, added before add_options runs
  CLI::Option* variant_opt = nullptr;  // the runner's --variant, likewise
  LadderLab<HistogramCase> lab;
  lab.name = "a05_histogram";
  lab.module = "A05";
  lab.summary = "A05 Atomics and histograms: a histogram ladder from global atomics to per-warp shared-memory "
                "copies, with a contention sweep, every step verified exactly and timed on this GPU";
  lab.steps = a05::ladder();
  lab.run_defaults = {.reps = 30, .warmup = 3, .skip_large_check = true};
  auto shape_of = [&](long long n, a05::Distribution d) { return HistogramCase::Shape{n, bins, dtype == "f32", d}; };
  // Sizes that are not multiples of a block, a warp or a 16-byte vector, on each distribution,
  // then the timed size (checked too: the runner verifies the timed case before timing it).
  lab.timed_shape = [&] { return shape_of(samples, a05::distribution_named(dist)); };
  // --skip-large-check drops the 2^20+7 cases (sanitizer runs, which are slow per access).
  lab.is_large = [](const HistogramCase::Shape& s) { return s.n > (1 << 20); };
  lab.check_options = [&] {
    // Each sweep point draws its own mix (PCT% in bin 0, the rest uniform): a --distribution
    // given with it would be silently ignored, and the record would not be the run asked for.
    if (dist_opt && dist_opt->count() > 0 && sweep_opt && sweep_opt->count() > 0)
      throw UsageError("--distribution: not with --hot-percent, which sets the distribution at each point "
                       "(0 = uniform, 100 = one_bin)");
    if (dtype == "u8" && (bins > 256 || (bins & (bins - 1)) != 0))
      throw UsageError("--bins: with --dtype u8, a power of two from 16 to 256 (each bin the same count of values)");
    // The exercise launchers keep one copy of the counts in the default 48 KiB of shared memory
    // per block (CUDA C++ Programming Guide, "Shared Memory") and, unlike the ladder's steps, do
    // not fall back to global atomics: refuse here rather than after the inputs are drawn.
    constexpr int kExerciseMaxBins = 48 * 1024 / 4;
    if (variant_opt && bins > kExerciseMaxBins)
      for (const std::string& name : variant_opt->results())
        if (name.starts_with("exercise"))
          throw UsageError(fmt::format("--bins: at most {} with --variant {} (its counts live in 48 KiB of shared "
                                       "memory, with no fallback to global atomics)", kExerciseMaxBins, name));
    for (long long n : {1ll, 33ll, 1000ll, (1ll << 20) + 7})
      for (auto d : {a05::Distribution{a05::Spread::hot, 0}, a05::Distribution{a05::Spread::hot, 100},
                     a05::Distribution{a05::Spread::zipf, 0}})
        lab.verify_shapes.push_back(shape_of(n, d));
  };
  lab.add_options = [&](GpuLab& g) {
    CLI::App& app = g.app();
    app.add_option("--samples", samples, "samples to count (the timed size)")
        ->check(decimal_integer())->check(CLI::Range(1ll, 1ll << 30));
    app.add_option("--bins", bins, "even bins (u8: a power of two 16..256; f32: 16..65536)")
        ->check(decimal_integer())->check(CLI::Range(16, 65536));
    app.add_option("--dtype", dtype, "sample type: u8 (0..255, image-like) or f32 (in [0, 1))")
        ->check(CLI::IsMember({"u8", "f32"}));
    dist_opt = app.add_option("--distribution", dist, "how samples fall in bins for the timed run: uniform, "
                                                      "one_bin, zipf (not with --hot-percent, which sets it per point)")
                   ->check(CLI::IsMember({"uniform", "one_bin", "zipf"}));
    sweep_opt = app.get_option_no_throw("--hot-percent");
    variant_opt = app.get_option_no_throw("--variant");
  };
  lab.sweep = LadderLab<HistogramCase>::Sweep{
      "--hot-percent", "the contention sweep: time every step with PCT% of the samples in bin 0 and the rest "
                       "uniform, at each PCT (comma-separated, 0 = uniform, 100 = all in one bin)",
      "hot_percent", 0, 100,
      [&](int x, int) { return shape_of(samples, {a05::Spread::hot, x}); }, std::nullopt};
  lab.describe = [](const HistogramCase::Shape& s) {
    return fmt::format("histogram of {} {} samples, {} even bins, {} data, {:.3f} GB read per launch", s.n,
                       s.f32 ? "fp32" : "8-bit", s.bins, s.dist.label(), HistogramCase::bytes(s) / 1e9);
  };
  lab.problem = [](const HistogramCase::Shape& s) {
    return nlohmann::json{{"op", "histogram_even"}, {"dtype", s.f32 ? "fp32" : "u8"}, {"samples", s.n},
                          {"bins", s.bins}, {"distribution", s.dist.label()},
                          {"range", s.f32 ? "[0, 1)" : "[0, 256)"}, {"counts", "uint32"},
                          {"bytes_per_launch", HistogramCase::bytes(s)}};
  };
  lab.model_row = [](const StepInfo& step, const HistogramCase::Shape& s) {
    return ModelRow{step.name, HistogramCase::bytes(s), 0,
                    "every step reads the samples once; the floor ignores contention, which the sweep measures"};
  };
  lab.device_bytes = [](const HistogramCase::Shape& s) { return HistogramCase::bytes(s); };
  return ladder_main(lab, argc, argv);
}
