// b01_occupancy: how much of the GPU a launch uses, measured. One streaming kernel (y = 2x + 0.5)
// launched with grids chosen from the device's properties: one block, one block per SM, every SM
// full, and the learner's grid (the exercise), each verified and timed against the copy ceiling.
//
// Reads top to bottom: one problem instance (a Case), the steps (declared once, as data), and
// main, which hands both to the ladder main (tutor/ladder_lab.hpp).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "occupancy.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"

namespace tutor::b01 {
namespace {

/// One problem instance: n fresh random floats in, n out, and the reference on the host.
class StreamCase {
 public:
  struct Shape {
    std::size_t n;
    bool operator==(const Shape&) const = default;
  };
  /// Each input read once, each output written once.
  static double bytes(const Shape& s) { return 8.0 * double(s.n); }

  StreamCase(const Shape& s, std::uint64_t seed) : shape_(s), x_(4 * s.n), y_(4 * s.n), ref_(s.n), got_(s.n) {
    std::vector<float> x(s.n);
    fill_random(x, seed);
    x_.upload(x.data(), 4 * s.n);
    for (std::size_t i = 0; i < s.n; ++i) ref_[i] = double(kScale) * double(x[i]) + double(kShift);
  }
  const Shape& shape() const { return shape_; }
  std::string label() const { return fmt::format("n={}", shape_.n); }
  void poison() { y_.fill_u32(kPoisonBitsF32); }
  Comparison check() {
    y_.download(got_.data(), 4 * shape_.n);
    // 2x is exact in fp32 and the add rounds once (contracted to an FMA or not): two terms.
    Comparison c = compare(got_, ref_, default_tolerance(DType::f32, 2));
    std::size_t unwritten = 0;
    for (float v : got_) unwritten += !(v == v);
    if (unwritten == shape_.n) c.reason = "nothing written: every output still holds the poison (is the kernel "
                                          "still the TODO?)";
    else if (unwritten > 0) c.reason = fmt::format("{} of {} outputs never written (still the poison NaN): does "
                                                   "the grid-stride loop cover every i < n?", unwritten, shape_.n);
    return c;
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return 2.0 * double(shape_.n); }
  void run(StreamLauncher launcher) { launcher(x_.as<float>(), y_.as<float>(), shape_.n); }

 private:
  Shape shape_;
  gpu::DeviceBuffer x_, y_;
  std::vector<double> ref_;
  std::vector<float> got_;
};

const auto step = [](auto... a) { return launcher_step<StreamCase, StreamLauncher>(a...); };

/// The steps, in order: what each grid uses of the device, and what that should buy.
std::vector<Step<StreamCase>> steps() {
  return {
      step(1, "one_block", "one block of 256 threads: one SM streams everything, the others idle",
           "baseline (about one SM's share of the bandwidth)", TUTOR_LAUNCHER(launch_one_block)),
      step(2, "one_block_per_sm", "one block per SM (multiProcessorCount): every SM works, 256 threads each",
           "up to ~SM-count x", TUTOR_LAUNCHER(launch_one_block_per_sm)),
      step(3, "full_occupancy", "blocks per SM from the occupancy calculator: every SM holds its maximum of "
                                "resident threads, enough loads in flight to cover DRAM latency",
           "~2-4x, near copy bandwidth", TUTOR_LAUNCHER(launch_full_occupancy)),
      step(0, "exercise_grid", "your grid from exercises/: SMs x resident threads per SM / 256, from the device's "
                               "properties", "as full_occupancy", TUTOR_LAUNCHER(launch_exercise_grid),
           StepRole::exercise),
  };
}

}  // namespace
}  // namespace tutor::b01

int main(int argc, char** argv) {
  using namespace tutor;
  using b01::StreamCase;
  StreamCase::Shape size{std::size_t(1) << 26};
  LadderLab<StreamCase> lab;
  lab.name = "b01_occupancy";
  lab.module = "B01";
  lab.summary = "B01 occupancy: one streaming kernel launched with grids chosen from the device's properties (one "
                "block, one per SM, every SM full, and yours: --variant exercise_grid), verified and timed against "
                "the copy ceiling";
  lab.steps = b01::steps();
  lab.run_defaults = {.reps = 20, .warmup = 3};
  // 1 element; an odd size (no grid divides it); the timed size is verified too.
  lab.verify_shapes = {{1}, {1000003}};
  lab.timed_shape = [&] { return size; };
  lab.add_options = [&](GpuLab& g) {
    g.app().add_option("--elements", size.n, "fp32 elements per launch (8 bytes each moved)")
        ->check(decimal_integer())->check(CLI::Range(std::size_t(1), std::size_t(1) << 28));
  };
  lab.describe = [](const StreamCase::Shape& s) {
    return fmt::format("y = 2x + 0.5 on {} fp32 elements, {:.3f} GB read + written per launch", s.n,
                       StreamCase::bytes(s) / 1e9);
  };
  lab.problem = [](const StreamCase::Shape& s) {
    return nlohmann::json{{"op", "y[i] = 2 * x[i] + 0.5"}, {"dtype", "fp32"}, {"elements", s.n},
                          {"threads_per_block", b01::kBlockThreads}, {"bytes_per_launch", StreamCase::bytes(s)}};
  };
  lab.model_row = [](const StepInfo& step, const StreamCase::Shape& s) {
    return ModelRow{step.name, StreamCase::bytes(s), 2.0 * double(s.n),
                    "every grid moves the same bytes; the floor assumes the whole GPU streams"};
  };
  lab.device_bytes = [](const StreamCase::Shape& s) { return 8.0 * double(s.n); };
  lab.after_steps = [](LadderRun<StreamCase>& run, nlohmann::json&) {
    const gpu::DeviceInfo& d = run.lab.device().info;
    run.notes["device_properties"] = {{"sm_count", d.sm_count}, {"threads_per_block", b01::kBlockThreads},
                                      {"what", "the properties the grids are chosen from (b01_device_info prints "
                                               "them all)"}};
  };
  return ladder_main(lab, argc, argv);
}
