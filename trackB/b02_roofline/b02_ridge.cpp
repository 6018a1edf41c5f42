// b02_ridge: the ridge exercise. The learner chooses the arithmetic intensity that puts B02's
// f_k kernel on this GPU's ridge (from the roofs the lab measures in the same run) and writes a
// kernel that sits there; the lab verifies it, times it beside B02's own sweep kernel at the same
// intensity, and says where it landed on the roofline.
//
// Reads top to bottom: one problem instance (a Case: fresh random input, output, fp64 reference
// at the chosen k), the steps (declared once, as data), the hook that asks the learner's code for
// k once the roofs are measured, and main (tutor/ladder_lab.hpp runs the rest).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ridge.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"
#include "tutor/roofline.hpp"

namespace tutor::b02 {
namespace {

/// f_k of sweep.hpp in fp64: the reference every output is checked against.
double reference(double x, int flops) {
  if (flops == 1) return x * kSweepA;
  for (int i = 0; i < flops / 2; ++i) x = x * kSweepA + kSweepB;
  return x;
}

bool valid_flops(int k) { return k == 1 || (k >= 2 && k <= kMaxRidgeFlops && k % 2 == 0); }

/// The band around the measured ridge the exercise must land in: within a quarter of it.
constexpr double kBandLow = 0.8, kBandHigh = 1.25;

/// One problem instance: n fp32 inputs in [-1, 1), the output, and the reference at k FLOPs per
/// element on 65,536 evenly spaced elements plus the last 8 (the tail path). Every element is
/// also checked for being written: f_k maps [-1, 1) into [-0.5, 1], the poison is a NaN.
class RidgeCase {
 public:
  struct Shape {
    std::size_t n;
    bool operator==(const Shape&) const = default;
  };
  static double bytes(const Shape& s) { return 8.0 * double(s.n); }  // 4 read + 4 written per element

  RidgeCase(const Shape& s, std::uint64_t seed) : shape_(s), in_(4 * s.n), out_(4 * s.n), x_(s.n) {
    fill_random(x_, seed);
    in_.upload(x_.data(), 4 * s.n);
    const std::size_t step = std::max<std::size_t>(1, s.n / 65536);
    for (std::size_t i = 0; i < s.n; i += step) sample_.push_back(i);
    for (std::size_t i = s.n >= 8 ? s.n - 8 : 0; i < s.n; ++i) sample_.push_back(i);
    set_flops(1, "");
  }
  const Shape& shape() const { return shape_; }
  std::string label() const { return fmt::format("n={}", shape_.n); }

  /// The k every step runs at, and why the exercise cannot pass (empty: it can): set by the lab
  /// once the roofs are measured and the learner's exercise_flops_per_element has answered.
  void set_flops(int k, std::string exercise_problem) {
    k_ = k;
    exercise_problem_ = std::move(exercise_problem);
    expected_.clear();
    for (std::size_t i : sample_) expected_.push_back(reference(double(x_[i]), k));
  }
  int flops_per_element() const { return k_; }

  void poison() { out_.fill_u32(kPoisonBitsF32); }
  Comparison check(const StepInfo& step) {
    std::vector<float> all(shape_.n);
    out_.download(all.data(), 4 * shape_.n);
    std::size_t unwritten = 0;
    for (float v : all) unwritten += !std::isfinite(v) || std::abs(v) > 4;
    std::vector<float> got;
    for (std::size_t i : sample_) got.push_back(all[i]);
    // fp32 chains round once per FMA; the map contracts by a = 0.5, so errors stay at a few ulp.
    Comparison c = compare(got, expected_, default_tolerance(DType::f32, 64));
    if (unwritten > 0) {
      c.passed = false;
      c.reason = unwritten == shape_.n
                     ? "nothing written: every output still holds the poison (is the kernel still the TODO?)"
                     : fmt::format("{} of {} elements unwritten or out of range", unwritten, shape_.n);
    }
    if (step.role == StepRole::exercise && !exercise_problem_.empty()) {
      c.passed = false;
      c.reason = exercise_problem_ + (c.reason.empty() ? "" : "; and the output: " + c.reason);
    }
    return c;
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return double(shape_.n) * k_; }
  void run(RidgeLauncher launcher) { launcher(in_.as<float>(), out_.as<float>(), shape_.n, k_); }

 private:
  Shape shape_;
  gpu::DeviceBuffer in_, out_;
  std::vector<float> x_;
  std::vector<std::size_t> sample_;
  std::vector<double> expected_;
  int k_ = 1;
  std::string exercise_problem_;
};

const auto step = [](auto... a) { return launcher_step<RidgeCase, RidgeLauncher>(a...); };

std::vector<Step<RidgeCase>> steps() {
  return {
      // A reference row: it runs with every --variant, so the exercise is always timed beside it.
      step(0, "sweep_kernel", "B02's sweep kernel (cuda/sweep.cu) at the same k: 4 float4 loads in flight and 16 "
                              "independent FMA chains per thread", "on the ridge", TUTOR_LAUNCHER(launch_sweep_fp32),
           StepRole::reference),
      step(0, "exercise_ridge", "your kernel from exercises/, at the k your exercise_flops_per_element returns for "
                                "this GPU's measured roofs", "as sweep_kernel", TUTOR_LAUNCHER(launch_exercise_ridge),
           StepRole::exercise),
  };
}

/// Asks the learner's code for k once the roofs are measured, checks it against the ridge, and
/// sets every case to it (to the lab's own ridge k when the answer is not a k at all).
void choose_flops(LadderRun<RidgeCase>& run) {
  const DeviceRecord& d = run.lab.device();
  const double ridge = roofline::ridge_point(d.fma_TFLOPs, d.copy_GBps);  // FLOP per byte
  const int ridge_k = std::max(2, 2 * int(std::lround(8.0 * ridge / 2.0)));
  const int answer = TUTOR_LAUNCHER(exercise_flops_per_element)(d.fma_TFLOPs, d.copy_GBps);
  const std::string roofs = fmt::format("this GPU's ridge is {:.2f} FLOP/byte (fp32 FMA {:.2f} TFLOP/s over copy "
                                        "{:.0f} GB/s, measured in this run) = about {} FLOPs per 8-byte element",
                                        ridge, d.fma_TFLOPs, d.copy_GBps, ridge_k);
  std::string problem;
  const double intensity = answer / 8.0;
  if (!valid_flops(answer)) {
    problem = fmt::format("not implemented yet: exercise_flops_per_element({:.2f}, {:.0f}) returned {}, not 1 or an "
                          "even number in [2, {}]; {}", d.fma_TFLOPs, d.copy_GBps, answer, kMaxRidgeFlops, roofs);
  } else if (intensity < kBandLow * ridge || intensity > kBandHigh * ridge) {
    problem = fmt::format("off the ridge: k = {} is {:.3g} FLOP/byte, {:.2f}x the ridge ({}x-{}x passes); {}", answer,
                          intensity, intensity / ridge, kBandLow, kBandHigh, roofs);
  }
  const int k = valid_flops(answer) ? answer : ridge_k;
  for (RidgeCase* c : run.checks) c->set_flops(k, problem);
  run.timed->set_flops(k, problem);
  run.notes["ridge"] = {{"measured_ridge_flop_per_byte", ridge},
                        {"ridge_flops_per_element", ridge_k},
                        {"exercise_flops_per_element", answer},
                        {"flops_per_element_run", k},
                        {"intensity_flop_per_byte", k / 8.0},
                        {"intensity_over_ridge", k / 8.0 / ridge},
                        {"band", {kBandLow, kBandHigh}},
                        {"exercise_problem", problem},
                        {"source", "ridge = measured fp32 FMA rate / measured copy bandwidth (Williams, Waterman and "
                                   "Patterson, CACM 52(4) 2009); f_k moves 8 bytes per element"}};
  if (!problem.empty() && run.lab.progress()) fmt::print(stderr, "exercise: {}\n", problem);
}

}  // namespace
}  // namespace tutor::b02

int main(int argc, char** argv) {
  using namespace tutor;
  using b02::RidgeCase;
  RidgeCase::Shape size{std::size_t(1) << 26};
  LadderLab<RidgeCase> lab;
  lab.name = "b02_ridge";
  lab.module = "B02";
  lab.summary = "B02 ridge exercise: put f_k on this GPU's ridge (choose k from the roofs measured in the run) with "
                "a kernel that holds both roofs at once (--variant exercise_ridge), timed beside B02's sweep kernel";
  lab.steps = b02::steps();
  lab.run_defaults = {.reps = 20, .warmup = 3};
  lab.ceiling = CeilingFrom::fma;
  lab.unit = CeilingUnit::TFLOPs;
  // 1 element (the tail path alone); an odd size (vector body and tail). The timed size is verified
  // too, before and after its timed loop.
  lab.verify_shapes = {{1}, {1000003}};
  lab.timed_shape = [&] { return size; };
  lab.add_options = [&](GpuLab& g) {
    g.app().add_option("--elements", size.n, "fp32 elements per launch (8 bytes each moved)")
        ->check(decimal_integer())->check(CLI::Range(std::size_t(1), std::size_t(1) << 28));
  };
  lab.describe = [](const RidgeCase::Shape& s) {
    return fmt::format("f_k on {} fp32 elements, {:.3f} GB per launch; k chosen at run time from the measured ridge",
                       s.n, RidgeCase::bytes(s) / 1e9);
  };
  lab.problem = [](const RidgeCase::Shape& s) {
    return nlohmann::json{{"op", "out[i] = f_k(in[i]) (sweep.hpp)"}, {"dtype", "fp32"}, {"elements", s.n},
                          {"bytes_per_launch", RidgeCase::bytes(s)},
                          {"flops_per_element", "chosen at run time: notes.ridge"}};
  };
  lab.model_row = [](const StepInfo& step, const RidgeCase::Shape& s) {
    return ModelRow{step.name, RidgeCase::bytes(s), 0, "k (FLOPs per element) is chosen at run time from the measured "
                                                       "ridge; at the ridge the FLOP floor equals this byte floor"};
  };
  lab.device_bytes = [](const RidgeCase::Shape& s) { return 8.0 * double(s.n); };
  lab.before_steps = b02::choose_flops;
  return ladder_main(lab, argc, argv);
}
