// a02_transpose: the transpose ladder, verified and timed on this machine's GPU.
//
// Reads top to bottom: one problem instance (a Case: device buffers, fresh random input,
// exact CPU reference), the ladder (declared once, as data), and main, which hands both to the
// lab main (tutor/ladder_lab.hpp): options, device, ceiling, verify-time-verify every step,
// table, record, exit codes.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "transpose.hpp"
#include "transpose_reference.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"

namespace tutor::a02 {
namespace {

/// The file an exercise step's kernel is in (its HIP twin has the same name under hip/).
std::string exercise_file(const StepInfo& step) {
  return step.name == "exercise" ? "exercises/cuda/transpose_tile.cu" : "exercises/cuda/transpose_ilp4.cu";
}

/// One problem instance: a rows x cols input of fresh random floats on the device, an
/// output buffer, and the exact reference computed on the host.
class TransposeCase {
 public:
  struct Shape {
    int rows, cols;
    bool operator==(const Shape&) const = default;
  };
  /// Each input read once, each output written once.
  static double bytes(const Shape& s) { return 2.0 * double(s.rows) * double(s.cols) * sizeof(float); }

  TransposeCase(const Shape& s, std::uint64_t seed)
      : shape_(s), n_(std::size_t(s.rows) * std::size_t(s.cols)),
        in_(n_ * sizeof(float)), out_(n_ * sizeof(float)), reference_(n_), result_(n_) {
    std::vector<float> host_in(n_);
    fill_random(host_in, seed);
    in_.upload(host_in.data(), n_ * sizeof(float));
    transpose_reference(host_in, reference_, s.rows, s.cols);
  }
  const Shape& shape() const { return shape_; }
  std::string label() const { return fmt::format("{}x{}", shape_.rows, shape_.cols); }
  void poison() { out_.fill_u32(kPoisonBitsF32); }
  Comparison check(const StepInfo& step) {
    out_.download(result_.data(), n_ * sizeof(float));
    Comparison c = compare(result_, reference_, 0.0);  // a transpose moves bits: it must be exact
    if (step.role == StepRole::exercise && c.count > 0 && c.nonfinite == c.count)
      c.reason = "nothing written: every element still holds the NaN poison (is the TODO in " + exercise_file(step) +
                 " done?)";
    return c;
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return 0; }
  void run(TransposeLauncher launcher) { launcher(in_.as<float>(), out_.as<float>(), shape_.rows, shape_.cols); }

 private:
  Shape shape_;
  std::size_t n_;
  gpu::DeviceBuffer in_, out_;
  std::vector<float> reference_, result_;
};

using TransposeStep = Step<TransposeCase>;
const auto step = [](auto... a) { return launcher_step<TransposeCase, TransposeLauncher>(a...); };


/// The ladder, in order: what each step changes, and the gain its mechanism should buy.
std::vector<TransposeStep> ladder() {
  return {
      step(1, "naive_row", "one thread per element: coalesced reads, strided writes", "baseline",
           TUTOR_LAUNCHER(launch_naive_row)),
      step(2, "naive_col", "swap the strided side: strided reads (served partly by L1/L2), coalesced writes",
           "~1.5-2x", TUTOR_LAUNCHER(launch_naive_col)),
      step(3, "tile32", "stage a 32x32 tile in shared memory: both global sides coalesced, but a 32-way "
                        "bank conflict on the column read", "~1-2x", TUTOR_LAUNCHER(launch_tile32)),
      step(4, "padded32", "pad the tile to [32][33]: a column's 32 elements fall in 32 different banks",
           "~2x", TUTOR_LAUNCHER(launch_padded32)),
      step(5, "padded32_ilp4", "32x8 threads, 4 elements each: independent loads in flight, index math and "
                               "barrier paid once per 4 elements", "+10-20%", TUTOR_LAUNCHER(launch_padded32_ilp4)),
      step(6, "tile64_vec4", "64x64 tile, 4x4 per thread with 128-bit loads/stores and a swizzled tile: "
                             "4x the bytes per memory instruction", "near copy bandwidth",
           TUTOR_LAUNCHER(launch_tile64_vec4)),
      step(0, "exercise", "your kernel from exercises/: a bank-conflict-free shared-memory tile", "as padded32",
           TUTOR_LAUNCHER(launch_exercise_tile), StepRole::exercise),
      step(0, "exercise_ilp4", "your kernel from exercises/: the padded tile moved by 32x8 threads, 4 elements each",
           "as padded32_ilp4", TUTOR_LAUNCHER(launch_exercise_ilp4), StepRole::exercise),
  };
}

}  // namespace
}  // namespace tutor::a02

int main(int argc, char** argv) {
  using namespace tutor;
  using a02::TransposeCase;
  TransposeCase::Shape size{16384, 16384};
  LadderLab<TransposeCase> lab;
  lab.name = "a02_transpose";
  lab.module = "A02";
  lab.summary = "A02 Memory coalescing: a transpose ladder from naive to near copy bandwidth, every step "
                "verified and timed on this GPU";
  lab.steps = a02::ladder();
  lab.run_defaults = {.reps = 50, .warmup = 5, .skip_large_check = true};
  // 1 element; sizes that are not multiples of any tile; multiples of 4 that are not multiples of
  // 64 (tile64_vec4 mixes its vector and scalar paths there); a prime-ish rectangle; the square
  // the lab times.
  lab.verify_shapes = {{1, 1}, {31, 33}, {1028, 516}, {4099, 3001}, {16384, 16384}};
  lab.is_large = [](const TransposeCase::Shape& s) { return double(s.rows) * s.cols > (1 << 24); };
  lab.timed_shape = [&] { return size; };
  lab.add_options = [&](GpuLab& g) {
    CLI::App& app = g.app();
    app.add_option("--rows", size.rows, "rows of the input matrix (its height)")
        ->check(decimal_integer())->check(CLI::Range(1, 65536));
    app.add_option("--cols", size.cols, "columns of the input matrix (its width)")
        ->check(decimal_integer())->check(CLI::Range(1, 65536));
  };
  lab.describe = [](const TransposeCase::Shape& s) {
    return fmt::format("transpose fp32 {}x{} -> {}x{}, {:.3f} GB read + written per launch", s.rows, s.cols, s.cols,
                       s.rows, TransposeCase::bytes(s) / 1e9);
  };
  lab.problem = [](const TransposeCase::Shape& s) {
    return nlohmann::json{{"op", "transpose"}, {"dtype", "fp32"}, {"layout", "row-major, out-of-place"},
                          {"rows", s.rows}, {"cols", s.cols}, {"bytes_per_launch", TransposeCase::bytes(s)}};
  };
  lab.model_row = [](const StepInfo& step, const TransposeCase::Shape& s) {
    return ModelRow{step.name, TransposeCase::bytes(s), 0, "every step moves the same bytes"};
  };
  lab.device_bytes = [](const TransposeCase::Shape& s) { return TransposeCase::bytes(s); };
  return ladder_main(lab, argc, argv);
}
