// a12_add_rmsnorm: the residual add and the RMSNorm after it (Llama-style blocks, where RMSNorm
// sits before a GEMM and cannot meet RoPE), as two kernels and as one, verified and timed on this
// machine's GPU against the copy bandwidth. The RoPE + RMSNorm ladder is a12_rope_rmsnorm.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "add_rmsnorm.hpp"
#include "rope_rmsnorm_reference.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"

namespace tutor::a12 {
namespace {

// Llama 3 8B's config.json (Hugging Face meta-llama/Meta-Llama-3-8B): hidden_size 4096,
// rms_norm_eps 1e-5.
constexpr float kEps = 1e-5f;

/// `uniform`: bf16 of uniform values in [-1, 1); `large`: in [-2^40, 2^40) (fp16 squares would
/// overflow, fp32 ones do not); `zero_rows`: x and residual both zero in every fifth row.
enum class Values { uniform, large, zero_rows };

class AddNormCase {
 public:
  struct Shape {
    int tokens = 1, hidden = 8;
    Values values = Values::uniform;
    bool operator==(const Shape&) const = default;
  };
  static double bytes(const Shape& s) { return add_norm_minimum_bytes(s.tokens, s.hidden); }
  static std::size_t elements(const Shape& s) { return std::size_t(s.tokens) * std::size_t(s.hidden); }

  AddNormCase(const Shape& s, std::uint64_t seed)
      : shape_(s), x_(elements(s) * 2), residual_(elements(s) * 2), weight_(s.hidden * 2), sum_(elements(s) * 2),
        y_(elements(s) * 2) {
    std::mt19937_64 rng(seed);
    const double scale = s.values == Values::large ? std::ldexp(1.0, 40) : 1.0;
    std::uniform_real_distribution<double> value(-scale, scale), weight(0.5, 1.5);
    std::vector<std::uint16_t> x(elements(s)), r(elements(s)), w(s.hidden);
    for (auto& v : x) v = float_to_bf16(float(value(rng)));
    for (auto& v : r) v = float_to_bf16(float(value(rng)));
    if (s.values == Values::zero_rows)
      for (std::size_t row = 0; row < std::size_t(s.tokens); row += 5)
        for (std::size_t i = 0; i < std::size_t(s.hidden); ++i) x[row * s.hidden + i] = r[row * s.hidden + i] = 0;
    for (auto& v : w) v = float_to_bf16(float(weight(rng)));
    x_.upload(x.data(), x.size() * 2);
    residual_.upload(r.data(), r.size() * 2);
    weight_.upload(w.data(), w.size() * 2);
    sum_ref_ = residual_sum(x, r);
    y_ref_ = rmsnorm_reference(sum_ref_, w, s.hidden, kEps);
  }
  const Shape& shape() const { return shape_; }
  std::string label() const {
    return fmt::format("{} x {}{}", shape_.tokens, shape_.hidden,
                       shape_.values == Values::large ? " (large)" : shape_.values == Values::zero_rows ? " (zero rows)" : "");
  }
  void poison() {
    sum_.fill_u32(kPoisonBitsF32);  // a bf16 NaN in each half
    y_.fill_u32(kPoisonBitsF32);
  }
  Comparison check() {
    std::vector<std::uint16_t> s(elements(shape_)), y(elements(shape_));
    sum_.download(s.data(), s.size() * 2);
    y_.download(y.data(), y.size() * 2);
    // The new residual stream must match bit for bit (one fp32 add, one rounding: residual_sum).
    std::vector<std::uint32_t> got_bits(s.begin(), s.end()), ref_bits(sum_ref_.begin(), sum_ref_.end());
    std::vector<float> got(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) got[i] = bf16_to_float(y[i]);
    return worst_of({compare_exact(got_bits, ref_bits), compare(got, y_ref_, add_norm_tolerance(shape_.hidden))});
  }
  double bytes() const { return bytes(shape_); }
  double flops() const { return 5.0 * double(elements(shape_)); }  // add, square, sum, scale twice
  void run(AddNormLauncher launcher) {
    AddNormArgs a;
    a.x = x_.as<std::uint16_t>();
    a.residual = residual_.as<std::uint16_t>();
    a.weight = weight_.as<std::uint16_t>();
    a.sum = sum_.as<std::uint16_t>();
    a.y = y_.as<std::uint16_t>();
    a.tokens = shape_.tokens;
    a.hidden = shape_.hidden;
    a.eps = kEps;
    launcher(a);
  }

 private:
  Shape shape_;
  gpu::DeviceBuffer x_, residual_, weight_, sum_, y_;
  std::vector<std::uint16_t> sum_ref_;
  std::vector<double> y_ref_;
};

const auto step = [](auto... a) { return launcher_step<AddNormCase, AddNormLauncher>(a...); };

std::vector<Step<AddNormCase>> ladder() {
  return {
      step(1, "add_then_norm", "residual-add kernel, then RMSNorm kernel: the new stream is written, then read back",
           "baseline", TUTOR_LAUNCHER(launch_add_then_norm)),
      step(2, "add_norm_fused", "one kernel: the stream is written and normalised from registers; four crossings of "
                                "the hidden state instead of five", "~1.25x (0.8 of the bytes)",
           TUTOR_LAUNCHER(launch_add_norm_fused)),
  };
}

}  // namespace
}  // namespace tutor::a12

int main(int argc, char** argv) {
  using namespace tutor;
  using a12::AddNormCase;
  using Shape = AddNormCase::Shape;
  using a12::Values;
  int tokens = 16384, hidden = 4096;
  LadderLab<AddNormCase> lab;
  lab.name = "a12_add_rmsnorm";
  lab.module = "A12";
  lab.summary = "A12 residual add + RMSNorm (Llama-style blocks, bf16): two kernels and one, verified and timed on "
                "this GPU against the copy bandwidth";
  lab.steps = a12::ladder();
  lab.run_defaults = {.reps = 30, .warmup = 3, .skip_large_check = true};
  // Rows of 1 to 4097 tokens; hidden 7 (less than one vector), 100 (rows not 16-byte aligned),
  // 4000 (not a multiple of the block's 2048 elements), 8192 (the widest); large and zero rows.
  lab.verify_shapes = {{1, 4096, Values::uniform},  {3, 7, Values::uniform},      {5, 100, Values::uniform},
                       {17, 4000, Values::uniform}, {33, 8192, Values::uniform},  {33, 512, Values::large},
                       {17, 256, Values::zero_rows}, {4097, 1000, Values::uniform}};
  lab.is_large = [](const Shape& s) { return s.tokens > 1000; };
  lab.timed_shape = [&] { return Shape{tokens, hidden, Values::uniform}; };
  lab.add_options = [&](GpuLab& g) {
    g.app().add_option("--tokens", tokens, "token rows (the timed size)")
        ->check(decimal_integer())->check(CLI::Range(1, 1 << 20));
    g.app().add_option("--hidden", hidden, "elements per row")
        ->check(decimal_integer())->check(CLI::Range(1, a12::kMaxHidden));
  };
  lab.check_options = [&] {
    // The host's fp64 reference holds every element: capped as the RoPE lab and A11 are.
    if (double(tokens) * double(hidden) > double(1ll << 31))
      throw UsageError(fmt::format("--tokens: tokens x hidden at most 2^31 elements (2,147,483,648); {} x {} is {:.0f}",
                                   tokens, hidden, double(tokens) * double(hidden)));
  };
  lab.describe = [](const Shape& s) {
    return fmt::format("residual add + RMSNorm of {} x {} bf16, {:.3f} GB minimum per launch", s.tokens, s.hidden,
                       AddNormCase::bytes(s) / 1e9);
  };
  lab.problem = [](const Shape& s) {
    return nlohmann::json{{"op", "s = x + residual; y = RMSNorm(s) * weight"}, {"dtype", "bf16"},
                          {"accumulation", "fp32"}, {"tokens", s.tokens}, {"hidden", s.hidden},
                          {"rms_norm_eps", a12::kEps},
                          {"reference", "s: one fp32 add rounded to bf16, bit for bit; y: fp64 from s"},
                          {"bytes_per_launch", AddNormCase::bytes(s)}};
  };
  lab.model_row = [](const StepInfo& step, const Shape& s) {
    const double b = step.name == "add_then_norm" ? a12::add_then_norm_bytes(s.tokens, s.hidden)
                                                  : a12::add_norm_minimum_bytes(s.tokens, s.hidden);
    return ModelRow{step.name, b, 5.0 * double(AddNormCase::elements(s)), "the bytes this step moves as the lab "
                                                                           "counts them"};
  };
  lab.device_bytes = [](const Shape& s) { return 4.0 * double(AddNormCase::elements(s)) * 2; };
  lab.after_steps = [](LadderRun<AddNormCase>& run, nlohmann::json&) {
    const Shape& s = run.timed->shape();
    run.notes["bytes_table"] = {{"minimum_bytes", a12::add_norm_minimum_bytes(s.tokens, s.hidden)},
                                {"add_then_norm_bytes", a12::add_then_norm_bytes(s.tokens, s.hidden)}};
  };
  return ladder_main(lab, argc, argv);
}
