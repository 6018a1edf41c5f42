// a03_reduction: the sum reduction ladder, verified and timed on this machine's GPU, with the
// vendor library's sum (CUB / rocPRIM) as the last row of the same run.
//
// Reads top to bottom: one problem instance (a Case: device buffers, fresh random input, a
// compensated fp64 reference on the host), the ladder (declared once, as data), and main,
// which hands both to the lab main (tutor/ladder_lab.hpp).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "reduce.hpp"
#include "reduce_reference.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"

namespace tutor::a03 {
namespace {

/// How the input is drawn. `reals`: uniform in [-1, 1), judged against the rounding-error bound.
/// `integers`: uniform in {-1, 0, 1}; every partial sum of any tree is then an integer far below
/// 2^24 in magnitude (a random walk: about sqrt(n), n <= 2^30), so it is exact in fp32 and the
/// result must equal the reference bit for bit: a single dropped or doubled element shows.
enum class Values { reals, integers };

/// The longest chain of sequential additions a step may put on one path from an input element
/// to the result, as used by the bound. Step 6 adds one total per block into the output in
/// arrival order, and its grid has at most ceil(n / 1024) blocks (one 16-byte vector per
/// thread); every other step stays under n / 16384 + 64: the single-pass loops run at most 16
/// vectors per thread and fold one partial per block in the last block, the exercise's two-pass
/// grid is fixed at 1024 blocks (n / 2^20 vectors per thread), the multi-pass trees have
/// ceil(log2 n) levels, and the vendor library's grid fills the GPU (its per-thread loop, about
/// n / resident threads, is below n / 16384 on any GPU with 16384 or more resident threads).
std::size_t longest_chain(std::size_t n, const std::string& step) {
  if (step == "single_pass_atomic") return n / 1024 + 1 + 64;
  return n / (kBlockThreads * 4 * 16) + 64;
}

class ReduceCase {
 public:
  struct Shape {
    std::size_t n;
    Values values = Values::reals;
    bool operator==(const Shape&) const = default;
  };
  static double bytes(const Shape& s) { return double(s.n) * sizeof(float) + sizeof(float); }

  ReduceCase(const Shape& s, std::uint64_t seed)
      : shape_(s), in_(s.n * sizeof(float)), out_(sizeof(float)),
        workspace_bytes_(workspace_bytes_for(s.n, vendor_workspace_bytes(s.n))),
        workspace_(workspace_bytes_) {
    std::vector<float> host(s.n);
    if (s.values == Values::reals) {
      fill_random(host, seed);
    } else {
      std::mt19937_64 rng(seed);
      std::uniform_int_distribution<int> pick(-1, 1);
      for (float& x : host) x = float(pick(rng));
    }
    in_.upload(host.data(), s.n * sizeof(float));
    workspace_.fill_bytes(0);
    reference_ = compensated_sum(host);
    abs_sum_ = abs_sum(host);
  }
  const Shape& shape() const { return shape_; }
  std::string label() const { return fmt::format("n={}{}", shape_.n, shape_.values == Values::integers ? " (integers)" : ""); }
  void poison() { out_.fill_u32(kPoisonBitsF32); }
  Comparison check(const StepInfo& step) {
    float got = 0;
    out_.download(&got, sizeof got);
    // Integer-valued inputs sum exactly (see Values); real ones within the rounding bound.
    const double bound = shape_.values == Values::integers
                             ? 0.0
                             : tree_error_bound(abs_sum_, allowed_depth(shape_.n, longest_chain(shape_.n, step.name)));
    Comparison c;
    c.count = 1;
    c.tolerance = bound;
    const double err = std::fabs(double(got) - reference_);
    c.max_abs_err = std::isfinite(got) ? err : 0;
    c.nonfinite = std::isfinite(got) ? 0 : 1;
    c.rel_l2 = reference_ != 0 ? err / std::fabs(reference_) : err;
    c.passed = std::isfinite(got) && err <= bound;
    if (!c.passed) {
      c.mismatches = 1;
      c.first_mismatch = 0;
      c.reason = !std::isfinite(got) ? "the sum is not finite (the NaN poison was never overwritten?)"
                                     : fmt::format("sum {} differs from the compensated reference {} by {:.3g}, "
                                                   "more than the bound {:.3g}", got, reference_, err, bound);
    }
    if (!c.passed && step.role == StepRole::exercise && !std::isfinite(got))
      c.reason = fmt::format("nothing written: the sum still holds the NaN poison (is the TODO in {} done?)",
                             step.name == "exercise" ? "exercises/cuda/reduce_first_add.cu"
                                                     : "exercises/cuda/reduce_two_pass.cu");
    // The deterministic step must give the same bits every time it runs on this case.
    if (c.passed && (step.name == "single_pass_deterministic" || step.name == "exercise_two_pass")) {
      const auto bits = std::bit_cast<std::uint32_t>(got);
      const auto [seen, first] = last_bits_.try_emplace(step.name, bits);
      if (!first && seen->second != bits) {
        c.passed = false;
        c.reason = fmt::format("not deterministic: {:#010x} now, {:#010x} before", bits, seen->second);
      }
    }
    return c;
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return double(shape_.n); }
  void run(ReduceLauncher launcher) {
    launcher(in_.as<float>(), out_.as<float>(), shape_.n, workspace_.get(), workspace_bytes_);
  }

 private:
  Shape shape_;
  gpu::DeviceBuffer in_, out_;
  std::size_t workspace_bytes_;
  gpu::DeviceBuffer workspace_;
  double reference_ = 0, abs_sum_ = 0;
  std::map<std::string, std::uint32_t> last_bits_;  ///< per deterministic step: the bits of its first result
};

using ReduceStep = Step<ReduceCase>;
const auto step = [](auto... a) { return launcher_step<ReduceCase, ReduceLauncher>(a...); };

/// The ladder, in order: what each step changes, and the gain its mechanism should buy.
std::vector<ReduceStep> ladder() {
  std::vector<ReduceStep> steps = {
      step(1, "interleaved", "tree in shared memory, interleaved addressing: threads tid % 2s == 0 add; every warp "
                             "diverges", "baseline", TUTOR_LAUNCHER(launch_interleaved)),
      step(2, "sequential", "sequential addressing: the first s threads add the value s away; whole warps idle, no "
                            "divergence above the last warp", "~1.5-2x", TUTOR_LAUNCHER(launch_sequential)),
      step(3, "first_add", "two elements per thread, added during the load: no thread idle in the first level",
           "~1.5-2x", TUTOR_LAUNCHER(launch_first_add)),
      step(4, "unroll_last_warp", "the last warp's strides without block barriers (__syncwarp between read and write "
                                  "since Volta; the tail starts at the vendor's lane count)", "+10-40%",
           TUTOR_LAUNCHER(launch_unroll_last_warp)),
      step(5, "warp_shuffle", "warps reduce in registers by xor shuffles over kWarpLanes lanes (32 or 64); one "
                              "value per warp through shared memory", "slower at 2 elements per thread: see README 5.1",
           TUTOR_LAUNCHER(launch_warp_shuffle)),
      step(6, "single_pass_atomic", "one pass: grid-stride loop of 16-byte loads, block reduce, one atomicAdd per "
                                    "block; the bits depend on arrival order", "near copy bandwidth",
           TUTOR_LAUNCHER(launch_single_pass_atomic)),
      step(7, "single_pass_deterministic", "one pass, partials in fixed slots, the last block adds them in a fixed "
                                           "order: the same bits every run", "as step 6, minus the last block",
           TUTOR_LAUNCHER(launch_single_pass_deterministic)),
      step(0, "exercise", "your kernel from exercises/: two elements added per thread during the load", "as first_add",
           TUTOR_LAUNCHER(launch_exercise_first_add), StepRole::exercise),
      step(0, "exercise_two_pass", "your kernels from exercises/: per-block partials in fixed slots, then one block "
                                   "adds them (deterministic, no atomics)", "as single_pass_deterministic",
           TUTOR_LAUNCHER(launch_exercise_two_pass), StepRole::exercise),
      step(0, "vendor_sum", "the vendor library's device-wide sum, in the same run", "the vendor's reference",
           TUTOR_LAUNCHER(launch_vendor_sum), StepRole::reference),
  };
  return steps;
}

}  // namespace
}  // namespace tutor::a03

int main(int argc, char** argv) {
  using namespace tutor;
  using a03::ReduceCase;
  using a03::Values;
  std::int64_t n = std::int64_t(1) << 28;
  LadderLab<ReduceCase> lab;
  lab.name = "a03_reduction";
  lab.module = "A03";
  lab.summary = "A03 Parallel reduction: an fp32 sum ladder from a divergent tree to a single pass, every step "
                "verified and timed on this GPU against the vendor library's sum";
  lab.steps = a03::ladder();
  lab.run_defaults = {.reps = 30, .warmup = 3, .skip_large_check = true};
  // 1 element; 33 (one more than a warp, not a multiple of any tile); 2^20 + 7 (several passes,
  // a vector tail of 3); 2^28 (the timed size). Integer-valued copies of 33, 2^20 + 7 and 2^28
  // must match exactly.
  const std::size_t big = std::size_t(1) << 28, mid = (std::size_t(1) << 20) + 7;
  lab.verify_shapes = {{1, Values::reals}, {33, Values::reals}, {mid, Values::reals}, {big, Values::reals},
                       {33, Values::integers}, {mid, Values::integers}, {big, Values::integers}};
  // --skip-large-check (compute-sanitizer runs) keeps 1 and 33 and the timed size.
  lab.is_large = [](const ReduceCase::Shape& s) { return s.n > (std::size_t(1) << 16); };
  lab.timed_shape = [&] { return ReduceCase::Shape{std::size_t(n), Values::reals}; };
  lab.add_options = [&](GpuLab& g) {
    g.app().add_option("--n", n, "elements to sum (the timed size)")
        ->check(decimal_integer())->check(CLI::Range(std::int64_t(1), std::int64_t(1) << 30));
  };
  lab.describe = [](const ReduceCase::Shape& s) {
    return fmt::format("sum of {} fp32 values, {:.3f} GB read per launch", s.n, ReduceCase::bytes(s) / 1e9);
  };
  lab.problem = [](const ReduceCase::Shape& s) {
    return nlohmann::json{{"op", "sum"}, {"dtype", "fp32"}, {"n", s.n},
                          {"reference", "Neumaier-compensated fp64 sum on the host"},
                          {"vendor", a03::vendor_name()}, {"bytes_per_launch", ReduceCase::bytes(s)}};
  };
  lab.model_row = [](const StepInfo& step, const ReduceCase::Shape& s) {
    return ModelRow{step.name, ReduceCase::bytes(s), double(s.n), "every step reads the input once (multi-pass "
                                                                 "steps add about 1/256 more)"};
  };
  lab.device_bytes = [](const ReduceCase::Shape& s) { return 2.0 * ReduceCase::bytes(s); };
  if (!a03::vendor_available())  // a HIP build without rocPRIM: the row says why instead of running
    std::erase_if(lab.steps, [](const auto& s) { return s.info.name == "vendor_sum"; });
  return ladder_main(lab, argc, argv);
}
