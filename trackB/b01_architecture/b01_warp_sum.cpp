// b01_warp_sum: the warp (wavefront) as the unit of work, measured. Row sums of an int32 matrix by
// a thread per row, by a warp per row with register shuffles, and by the learner's warp-per-row
// kernel (the exercise), each verified exactly and timed against the copy ceiling.
//
// Reads top to bottom: one problem instance (a Case), the steps (declared once, as data), and
// main, which hands both to the ladder main (tutor/ladder_lab.hpp).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"
#include "warp_sum.hpp"

namespace tutor::b01 {
namespace {

/// One problem instance: a rows x cols int32 matrix of fresh random values in [-1000, 1000], the
/// row sums on the device, and the exact sums on the host.
class RowSumCase {
 public:
  struct Shape {
    int rows, cols;
    bool operator==(const Shape&) const = default;
  };
  /// The matrix read once, the sums written once.
  static double bytes(const Shape& s) { return 4.0 * double(s.rows) * double(s.cols) + 4.0 * double(s.rows); }

  RowSumCase(const Shape& s, std::uint64_t seed)
      : shape_(s), m_(4 * std::size_t(s.rows) * std::size_t(s.cols)), sums_(4 * std::size_t(s.rows)), ref_(s.rows),
        got_(s.rows) {
    const std::size_t n = std::size_t(s.rows) * std::size_t(s.cols);
    std::vector<std::int32_t> m(n);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int32_t> value(-1000, 1000);
    for (auto& v : m) v = value(rng);
    m_.upload(m.data(), 4 * n);
    for (int r = 0; r < s.rows; ++r) {
      std::int64_t sum = 0;
      for (int c = 0; c < s.cols; ++c) sum += m[std::size_t(r) * s.cols + c];
      ref_[r] = static_cast<std::int32_t>(sum);  // |sum| <= 1000 * 2^20 < 2^31
    }
  }
  const Shape& shape() const { return shape_; }
  std::string label() const { return fmt::format("{}x{}", shape_.rows, shape_.cols); }
  void poison() { sums_.fill_u32(kPoisonBitsF32); }  // 2147478987 as int32: no row of [-1000, 1000] x 2^20 sums to it
  Comparison check() {
    sums_.download(got_.data(), 4 * got_.size());
    Comparison c = compare_exact(got_, ref_);
    std::size_t unwritten = 0;
    for (std::int32_t v : got_) unwritten += static_cast<std::uint32_t>(v) == kPoisonBitsF32;
    if (unwritten == got_.size())
      c.reason = "nothing written: every row sum still holds the poison (is the kernel still the TODO?)";
    else if (unwritten > 0)
      c.reason = fmt::format("{} of {} rows never written (still the poison): does every row get a warp, and does "
                             "lane 0 write?; ", unwritten, got_.size()) + c.reason;
    return c;
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return 0; }  // integer adds: no floating-point operations
  void run(RowSumLauncher launcher) { launcher(m_.as<int>(), sums_.as<int>(), shape_.rows, shape_.cols); }

 private:
  Shape shape_;
  gpu::DeviceBuffer m_, sums_;
  std::vector<std::int32_t> ref_, got_;
};

const auto step = [](auto... a) { return launcher_step<RowSumCase, RowSumLauncher>(a...); };

std::vector<Step<RowSumCase>> steps() {
  return {
      step(1, "thread_per_row", "one thread per row: each lane walks its own row, a row apart from its neighbour, "
                                "so a warp's load touches a segment per lane", "baseline",
           TUTOR_LAUNCHER(launch_thread_per_row)),
      step(2, "warp_per_row", "one warp (wavefront) per row: lanes read consecutive elements, then log2(lanes) "
                              "register shuffles fold the partial sums", "several x, near copy bandwidth",
           TUTOR_LAUNCHER(launch_warp_per_row)),
      step(0, "exercise_warp_sum", "your warp-per-row kernel from exercises/: the shuffle tree over warpSize lanes",
           "as warp_per_row", TUTOR_LAUNCHER(launch_exercise_warp_sum), StepRole::exercise),
  };
}

}  // namespace
}  // namespace tutor::b01

int main(int argc, char** argv) {
  using namespace tutor;
  using b01::RowSumCase;
  RowSumCase::Shape size{32768, 4096};
  LadderLab<RowSumCase> lab;
  lab.name = "b01_warp_sum";
  lab.module = "B01";
  lab.summary = "B01 warp sum: int32 row sums by a thread per row, a warp (wavefront) per row with shuffles, and "
                "yours (--variant exercise_warp_sum), verified exactly and timed against the copy ceiling";
  lab.steps = b01::steps();
  lab.run_defaults = {.reps = 20, .warmup = 3};
  // 1x1; rows shorter than a warp; a row count no block divides; long rows, few of them.
  lab.verify_shapes = {{1, 1}, {3, 31}, {33, 1000}, {1000, 33}, {7, 100003}};
  lab.timed_shape = [&] { return size; };
  lab.add_options = [&](GpuLab& g) {
    g.app().add_option("--rows", size.rows, "rows of the matrix (one sum each)")
        ->check(decimal_integer())->check(CLI::Range(1, 1 << 20));
    g.app().add_option("--cols", size.cols, "columns of the matrix (elements per sum; up to 2^20 keeps every sum "
                                            "inside int32)")
        ->check(decimal_integer())->check(CLI::Range(1, 1 << 20));
  };
  lab.check_options = [&] {
    if (double(size.rows) * double(size.cols) > double(1 << 30))
      throw UsageError("--rows x --cols: at most 2^30 elements (4 GiB)");
  };
  lab.describe = [](const RowSumCase::Shape& s) {
    return fmt::format("int32 row sums of {}x{}, {:.3f} GB read + written per launch", s.rows, s.cols,
                       RowSumCase::bytes(s) / 1e9);
  };
  lab.problem = [](const RowSumCase::Shape& s) {
    return nlohmann::json{{"op", "row sums"}, {"dtype", "int32"}, {"rows", s.rows}, {"cols", s.cols},
                          {"values", "uniform in [-1000, 1000]"}, {"bytes_per_launch", RowSumCase::bytes(s)}};
  };
  lab.model_row = [](const StepInfo& step, const RowSumCase::Shape& s) {
    return ModelRow{step.name, RowSumCase::bytes(s), 0, "integer adds, no FLOPs; every step reads the matrix once"};
  };
  lab.device_bytes = [](const RowSumCase::Shape& s) { return RowSumCase::bytes(s); };
  lab.after_steps = [](LadderRun<RowSumCase>& run, nlohmann::json&) {
    run.notes["warp_size"] = run.lab.device().info.warp_size;
  };
  return ladder_main(lab, argc, argv);
}
