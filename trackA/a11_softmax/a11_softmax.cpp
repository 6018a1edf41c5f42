// a11_softmax: the row-softmax ladder, verified against an fp64 CPU reference and timed on this
// machine's GPU against its device-to-device copy, and the sweep over row length (--sweep-cols)
// that shows where each step falls off.
//
// Reads top to bottom: one problem instance (a Case: device buffers, fresh random logits with
// masked, equal and large rows, the fp64 reference), the ladder (declared once, as data), and
// main, which hands both to the lab main (tutor/ladder_lab.hpp): options, device, ceiling,
// verify-time-verify every step, table, record, exit codes.
//
// No vendor row: CUDA's toolkit has no softmax (cuDNN's is a separate library, and torch's
// kernels are reached from Python): triton/softmax.py times torch.softmax and torch.compile.
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "softmax.hpp"
#include "softmax_reference.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"

namespace tutor::a11 {
namespace {

constexpr std::uint32_t kPoisonBitsBf16 = 0x7fedu;  // a bf16 NaN no arithmetic produces

/// One problem instance: rows x cols logits (fp32 or bf16), the output, three_pass's row
/// statistics, and the fp64 reference computed from exactly the values the GPU reads.
class SoftmaxCase {
 public:
  struct Shape {
    long long rows;
    int cols;
    bool bf16;
    bool operator==(const Shape&) const = default;
  };
  static std::size_t elem_bytes(const Shape& s) { return s.bf16 ? 2 : 4; }
  static double elements(const Shape& s) { return double(s.rows) * double(s.cols); }
  /// The floor: each input read once, each output written once.
  static double bytes(const Shape& s) { return 2.0 * elements(s) * double(elem_bytes(s)); }

  SoftmaxCase(const Shape& s, std::uint64_t seed)
      : shape_(s), n_(std::size_t(s.rows) * std::size_t(s.cols)), in_(n_ * elem_bytes(s)),
        out_(n_ * elem_bytes(s)), stats_(2 * std::size_t(s.rows) * sizeof(float)), reference_(n_) {
    std::vector<float> x(n_);
    fill_logits(x, s.cols, seed, s.bf16);
    if (s.bf16) {
      std::vector<std::uint16_t> bits(n_);
      for (std::size_t i = 0; i < n_; ++i) bits[i] = float_to_bf16(x[i]);  // exact: x is bf16 already
      in_.upload(bits.data(), n_ * 2);
    } else {
      in_.upload(x.data(), n_ * 4);
    }
    softmax_reference(x, s.cols, reference_);  // fp64, rows over the host's threads
  }
  const Shape& shape() const { return shape_; }
  std::string label() const { return fmt::format("{} x {} {}", shape_.rows, shape_.cols, shape_.bf16 ? "bf16" : "fp32"); }
  void poison() { out_.fill_u32(shape_.bf16 ? (kPoisonBitsBf16 << 16 | kPoisonBitsBf16) : kPoisonBitsF32); }
  Comparison check(const StepInfo& step) {
    std::vector<float> got(n_);
    if (shape_.bf16) {
      std::vector<std::uint16_t> bits(n_);
      out_.download(bits.data(), n_ * 2);
      for (std::size_t i = 0; i < n_; ++i) got[i] = bf16_to_float(bits[i]);
    } else {
      out_.download(got.data(), n_ * 4);
    }
    const double tol = softmax_tolerance(shape_.bf16, shape_.cols);  // softmax_reference.hpp says why
    Comparison c = check_softmax(got, reference_, shape_.cols, tol, shape_.bf16 ? kPoisonBitsBf16 << 16 : kPoisonBitsF32);
    if (step.role == StepRole::exercise && !c.passed && c.reason.find("never written") != std::string::npos)
      c.reason += fmt::format(" (is the TODO in exercises/cuda/softmax_{}.cu done?)",
                              step.name == "exercise_online" ? "online" : "registers");
    return c;
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return 0; }
  void run(SoftmaxLauncher launcher) {
    SoftmaxArgs a;
    a.in = in_.as<unsigned char>();
    a.out = out_.as<unsigned char>();
    a.rows = int(shape_.rows);
    a.cols = shape_.cols;
    a.bf16 = shape_.bf16;
    a.row_stats = stats_.as<float>();
    launcher(a);
  }

 private:
  Shape shape_;
  std::size_t n_;
  gpu::DeviceBuffer in_, out_, stats_;
  std::vector<double> reference_;
};

using SoftmaxStep = Step<SoftmaxCase>;
const auto step = [](auto... a) { return launcher_step<SoftmaxCase, SoftmaxLauncher>(a...); };

/// The ladder, in order: what each step changes, and the gain its mechanism should buy.
std::vector<SoftmaxStep> ladder() {
  return {
      step(1, "three_pass", "the definition as three kernels: row maxima, sums of exp(x - max), normalise; "
                            "the matrix crosses HBM three times in and once out", "baseline (4 passes over HBM)",
           TUTOR_LAUNCHER(launch_three_pass)),
      step(2, "block_fused", "one block per row runs all three passes in one kernel: no launches or row statistics "
                             "between passes; the re-reads hit L2 while the row is there", "~1.3-2x",
           TUTOR_LAUNCHER(launch_block_fused)),
      step(3, "online", "the online normaliser (Milakov and Gimelshein 2018): the maximum and the sum from one "
                        "read, so two reads of the row instead of three", "+10-40%",
           TUTOR_LAUNCHER(launch_online)),
      step(4, "warp_row", "one warp (wavefront) per row up to 1,024 columns: shuffles only, no block barriers, "
                          "no idle threads on short rows; longer rows as online", "~1x long rows, >2x short rows",
           TUTOR_LAUNCHER(launch_warp_row)),
      step(5, "vectorised", "16-byte loads into registers: the row read once and written once (rows up to 32,768 "
                            "columns); longer rows: the online form with the same loads", "near copy bandwidth",
           TUTOR_LAUNCHER(launch_vectorised)),
      step(6, "fast_math", "step 5 with the approximate exponential (__expf) and one reciprocal per row instead of "
                           "a division per element: fewer instructions per element", "~1x fp32, up to 2x bf16",
           TUTOR_LAUNCHER(launch_fast_math)),
      step(0, "exercise_online", "your kernel from exercises/: one block per row with the online normaliser",
           "as online", TUTOR_LAUNCHER(launch_exercise_online), StepRole::exercise),
      step(0, "exercise_registers", "your kernel from exercises/: one warp per row, the row held in registers",
           "between warp_row and vectorised", TUTOR_LAUNCHER(launch_exercise_registers), StepRole::exercise),
  };
}

/// Passes over the matrix a step makes in HBM when no re-read hits a cache (the --model floor):
/// each read of the input and the one write of the output.
double passes(const std::string& step, int cols) {
  if (step == "three_pass" || step == "block_fused") return 4;
  if (step == "vectorised" || step == "fast_math") return cols <= 32768 ? 2 : 3;
  if (step == "exercise_registers") return cols <= 512 ? 2 : 3;
  return 3;  // online, warp_row, exercise_online: two reads and a write
}

}  // namespace
}  // namespace tutor::a11

int main(int argc, char** argv) {
  using namespace tutor;
  using a11::SoftmaxCase;
  long long rows = 32768;
  int cols = 8192;
  std::string dtype = "fp32";
  LadderLab<SoftmaxCase> lab;
  lab.name = "a11_softmax";
  lab.module = "A11";
  lab.summary = "A11 Softmax: a row-softmax ladder from three passes to one fused, vectorised pass, fp32 or bf16, "
                "every step verified against an fp64 reference and timed against this GPU's copy bandwidth";
  lab.steps = a11::ladder();
  lab.run_defaults = {.reps = 30, .warmup = 3, .skip_large_check = true};
  bool is_bf16 = false;  // from --dtype, after parsing
  lab.timed_shape = [&] { return SoftmaxCase::Shape{rows, cols, is_bf16}; };
  // --skip-large-check drops the cases over 2^20 elements (sanitizer runs, slow per access).
  lab.is_large = [](const SoftmaxCase::Shape& s) { return SoftmaxCase::elements(s) > double(1 << 20); };
  lab.check_options = [&] {
    is_bf16 = dtype == "bf16";
    if (double(rows) * double(cols) > double(1ll << 31))
      throw UsageError("--rows: rows x cols at most 2^31 elements (2,147,483,648)");
    // 1 column; rows with all four special kinds (rows >= 5); no multiple of a warp, a block or a
    // vector; each boundary between the vectorised step's forms, plus one; the longest row.
    for (auto [r, c] : std::vector<std::pair<long long, int>>{
             {1, 1}, {70, 1}, {9, 7}, {9, 33}, {7, 1000}, {6, 1025}, {6, 2049}, {5, 8193}, {5, 32768}, {5, 32769},
             {5, 262143}, {5, a11::kMaxCols}})
      lab.verify_shapes.push_back({r, c, is_bf16});
  };
  lab.add_options = [&](GpuLab& g) {
    CLI::App& app = g.app();
    app.add_option("--rows", rows, "rows of the timed matrix")
        ->check(decimal_integer())->check(CLI::Range(1ll, 1ll << 20));
    app.add_option("--cols", cols, "columns of the timed matrix: the softmax's length")
        ->check(decimal_integer())->check(CLI::Range(1, a11::kMaxCols));
    app.add_option("--dtype", dtype, "element type in and out: fp32 or bf16 (arithmetic in fp32)")
        ->check(CLI::IsMember({"fp32", "bf16"}));
  };
  lab.sweep = LadderLab<SoftmaxCase>::Sweep{
      "--sweep-cols", "time every step at each row length (comma-separated), with 2^25 / cols rows "
                      "(at least 1): the same 2^25 elements at every point",
      "cols", 1, a11::kMaxCols,
      [&](int x, int) { return SoftmaxCase::Shape{std::max(1ll, (1ll << 25) / x), x, is_bf16}; }, std::nullopt};
  lab.describe = [](const SoftmaxCase::Shape& s) {
    return fmt::format("softmax over {} rows x {} columns, {} in and out, {:.3f} GB read and written per launch",
                       s.rows, s.cols, s.bf16 ? "bf16" : "fp32", SoftmaxCase::bytes(s) / 1e9);
  };
  lab.problem = [](const SoftmaxCase::Shape& s) {
    return nlohmann::json{{"op", "softmax"}, {"dim", "rows (last)"}, {"rows", s.rows}, {"cols", s.cols},
                          {"dtype", s.bf16 ? "bf16" : "fp32"}, {"accumulation", "fp32"},
                          {"special_rows", "row % 64: 1 masked (-inf), 2 partly masked, 3 equal, 4 large (10,000 + [0, 20))"},
                          {"bytes_per_launch", SoftmaxCase::bytes(s)}};
  };
  lab.model_row = [](const StepInfo& step, const SoftmaxCase::Shape& s) {
    return ModelRow{step.name, a11::passes(step.name, s.cols) * SoftmaxCase::elements(s) * double(SoftmaxCase::elem_bytes(s)),
                    0, "every read of the row counted as HBM traffic; L2 can serve re-reads of rows in flight"};
  };
  lab.after_steps = [](LadderRun<SoftmaxCase>& run, nlohmann::json&) {
    run.notes["vendor_row"] = "none: CUDA's toolkit has no softmax (cuDNN's is a separate library); "
                              "triton/softmax.py times torch.softmax and torch.compile beside this lab's last step, fast_math";
  };
  lab.device_bytes = [](const SoftmaxCase::Shape& s) {
    return SoftmaxCase::bytes(s) + 8.0 * double(s.rows);
  };
  return ladder_main(lab, argc, argv);
}
