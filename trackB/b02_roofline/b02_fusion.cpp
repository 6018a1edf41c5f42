// b02_fusion: the roofline's advice for a memory-bound kernel, measured. y = relu(2x - 0.5) as
// two kernels (16 bytes per element) and as one (8 bytes), and the learner's fused kernel (the
// exercise), each verified bit for bit and timed against the copy ceiling.
//
// Reads top to bottom: one problem instance (a Case), the steps (declared once, as data), and
// main, which hands both to the ladder main (tutor/ladder_lab.hpp).
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fusion.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"

namespace tutor::b02 {
namespace {

/// One problem instance: n fresh random floats in [-1, 1), the output, the scratch the unfused
/// step needs, and the exact reference.
class FusionCase {
 public:
  struct Shape {
    std::size_t n;
    bool operator==(const Shape&) const = default;
  };
  /// What the result needs: x read once, y written once. The unfused step moves twice this (t
  /// written and read back); its GB/s counts only these bytes, so it reads as the slower kernel.
  static double bytes(const Shape& s) { return 8.0 * double(s.n); }

  FusionCase(const Shape& s, std::uint64_t seed)
      : shape_(s), x_(4 * s.n), y_(4 * s.n), scratch_(4 * s.n), ref_(s.n), got_(s.n) {
    std::vector<float> x(s.n);
    fill_random(x, seed);
    x_.upload(x.data(), 4 * s.n);
    // 2x is exact and 2x - 0.5 is exact in double: one rounding to fp32, as on the device.
    for (std::size_t i = 0; i < s.n; ++i)
      ref_[i] = std::max(static_cast<float>(double(kFuseScale) * double(x[i]) + double(kFuseShift)), 0.0f);
  }
  const Shape& shape() const { return shape_; }
  std::string label() const { return fmt::format("n={}", shape_.n); }
  void poison() { y_.fill_u32(kPoisonBitsF32); }
  Comparison check() {
    y_.download(got_.data(), 4 * shape_.n);
    Comparison c = compare(got_, ref_, 0.0);  // one rounding everywhere: must be exact
    std::size_t unwritten = 0;
    for (float v : got_) unwritten += !(v == v);
    if (unwritten == shape_.n)
      c.reason = "nothing written: every output still holds the poison (is the kernel still the TODO?)";
    return c;
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return 2.0 * double(shape_.n); }  // the multiply-add; the max is a compare
  void run(FusionLauncher launcher) { launcher(x_.as<float>(), y_.as<float>(), scratch_.as<float>(), shape_.n); }

 private:
  Shape shape_;
  gpu::DeviceBuffer x_, y_, scratch_;
  std::vector<float> ref_, got_;
};

const auto step = [](auto... a) { return launcher_step<FusionCase, FusionLauncher>(a...); };

std::vector<Step<FusionCase>> steps() {
  return {
      step(1, "unfused", "t = 2x - 0.5 to memory, then y = relu(t): two kernels, 16 bytes per element", "baseline",
           TUTOR_LAUNCHER(launch_unfused)),
      step(2, "fused", "one kernel, t in a register: 8 bytes per element, twice the intensity",
           "~2x (half the bytes, below the ridge)", TUTOR_LAUNCHER(launch_fused)),
      step(0, "exercise_fuse", "your fused kernel from exercises/", "as fused", TUTOR_LAUNCHER(launch_exercise_fuse),
           StepRole::exercise),
  };
}

}  // namespace
}  // namespace tutor::b02

int main(int argc, char** argv) {
  using namespace tutor;
  using b02::FusionCase;
  FusionCase::Shape size{std::size_t(1) << 26};
  LadderLab<FusionCase> lab;
  lab.name = "b02_fusion";
  lab.module = "B02";
  lab.summary = "B02 fusion: y = relu(2x - 0.5) as two memory-bound kernels and as one, and yours (--variant "
                "exercise_fuse), verified bit for bit and timed against the copy ceiling";
  lab.steps = b02::steps();
  lab.run_defaults = {.reps = 20, .warmup = 3};
  lab.verify_shapes = {{1}, {1000003}};  // and the timed size, before and after its timed loop
  lab.timed_shape = [&] { return size; };
  lab.add_options = [&](GpuLab& g) {
    g.app().add_option("--elements", size.n, "fp32 elements per launch")
        ->check(decimal_integer())->check(CLI::Range(std::size_t(1), std::size_t(1) << 28));
  };
  lab.describe = [](const FusionCase::Shape& s) {
    return fmt::format("y = relu(2x - 0.5) on {} fp32 elements, {:.3f} GB read + written per launch (fused)", s.n,
                       FusionCase::bytes(s) / 1e9);
  };
  lab.problem = [](const FusionCase::Shape& s) {
    return nlohmann::json{{"op", "y = relu(2x - 0.5)"}, {"dtype", "fp32"}, {"elements", s.n},
                          {"bytes_per_launch", FusionCase::bytes(s)},
                          {"bytes_note", "x read and y written once; the unfused step also writes and reads t"}};
  };
  lab.model_row = [](const StepInfo& step, const FusionCase::Shape& s) {
    const bool unfused = step.name == "unfused";
    return ModelRow{step.name, (unfused ? 2 : 1) * FusionCase::bytes(s), 2.0 * double(s.n),
                    unfused ? "t written and read back: twice the bytes" : "x read once, y written once"};
  };
  lab.device_bytes = [](const FusionCase::Shape& s) { return 12.0 * double(s.n); };
  lab.after_steps = [](LadderRun<FusionCase>& run, nlohmann::json&) {
    run.notes["bytes"] = "every row's GB/s counts 8 bytes per element, what the result needs; the unfused step "
                         "moves 16";
  };
  return ladder_main(lab, argc, argv);
}
