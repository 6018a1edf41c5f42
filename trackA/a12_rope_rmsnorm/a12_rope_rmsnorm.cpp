// a12_rope_rmsnorm: RMSNorm then RoPE on the q and k heads of a token batch (the QK-norm step of
// Qwen3, OLMo 2 and Gemma 3), from two kernels to one that moves the problem's minimum bytes,
// every step verified and timed on this machine's GPU against the copy bandwidth.
//
// Reads top to bottom: one problem instance (a Case: device buffers, fresh random inputs, an
// fp64 reference on the host), the ladder (declared once, as data), and main, which hands both
// to the lab main (tutor/ladder_lab.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rope_rmsnorm.hpp"
#include "rope_rmsnorm_reference.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"

namespace tutor::a12 {
namespace {

// Qwen3-8B's config.json (Hugging Face Qwen/Qwen3-8B): 32 query heads, 8 key/value heads,
// head_dim 128, rope_theta 1000000, rms_norm_eps 1e-6. Positions are drawn from a 32k context.
constexpr double kRopeBase = 1000000.0;
constexpr float kEps = 1e-6f;
constexpr int kMaxPosition = 32768;

/// How the activations are drawn. `uniform`: bf16 of uniform values in [-1, 1). `large`: in
/// [-2^40, 2^40), whose squares would overflow fp16 or a bf16 accumulator's precision but not an
/// fp32 sum (RMSNorm is scale-invariant: the output is the uniform case's). `zero_rows`: uniform,
/// with every fifth head row all zero (x / sqrt(0 + eps) = 0: the output row is zero).
enum class Values { uniform, large, zero_rows };

struct Shape {
  int tokens = 1, q_heads = 1, kv_heads = 0, head_dim = 2, rotary_dim = 2;
  Layout layout = Layout::rotate_half;
  Values values = Values::uniform;
  bool operator==(const Shape&) const = default;
};

Dims dims(const Shape& s) { return {s.tokens, s.q_heads, s.kv_heads, s.head_dim, s.rotary_dim, s.layout, kEps}; }
const char* layout_name(Layout l) { return l == Layout::rotate_half ? "rotate_half" : "interleaved"; }

class RopeNormCase {
 public:
  using Shape = a12::Shape;
  static double bytes(const Shape& s) { return minimum_bytes(dims(s)); }
  static std::size_t elements(const Shape& s) { return head_rows(s.tokens, s.q_heads, s.kv_heads) * s.head_dim; }

  RopeNormCase(const Shape& s, std::uint64_t seed)
      : shape_(s), x_(elements(s) * 2), y_(elements(s) * 2), tmp_(elements(s) * 2), q_weight_(s.head_dim * 2),
        k_weight_(s.head_dim * 2), positions_(s.tokens * 4),
        cos_sin_(std::size_t(kMaxPosition) * (s.rotary_dim / 2) * 8), inv_freq_(s.rotary_dim / 2 * 4) {
    std::mt19937_64 rng(seed);
    const double scale = s.values == Values::large ? std::ldexp(1.0, 40) : 1.0;
    std::uniform_real_distribution<double> value(-scale, scale), weight(0.5, 1.5);
    std::uniform_int_distribution<std::int32_t> position(0, kMaxPosition - 1);
    std::vector<std::uint16_t> x(elements(s)), qw(s.head_dim), kw(s.head_dim);
    for (auto& v : x) v = float_to_bf16(float(value(rng)));
    if (s.values == Values::zero_rows)
      for (std::size_t r = 0; r < head_rows(s.tokens, s.q_heads, s.kv_heads); r += 5)
        std::fill_n(x.begin() + std::ptrdiff_t(r * s.head_dim), s.head_dim, std::uint16_t(0));
    for (auto& v : qw) v = float_to_bf16(float(weight(rng)));
    for (auto& v : kw) v = float_to_bf16(float(weight(rng)));
    std::vector<std::int32_t> pos(std::size_t(s.tokens));
    for (auto& p : pos) p = position(rng);
    const std::vector<float> freq = inv_freq(kRopeBase, s.rotary_dim);
    const std::vector<float> table = cos_sin_table(freq, kMaxPosition);
    x_.upload(x.data(), x.size() * 2);
    q_weight_.upload(qw.data(), qw.size() * 2);
    k_weight_.upload(kw.data(), kw.size() * 2);
    positions_.upload(pos.data(), pos.size() * 4);
    cos_sin_.upload(table.data(), table.size() * 4);
    inv_freq_.upload(freq.data(), freq.size() * 4);
    reference_ = reference(dims(s), x, qw, kw, pos, freq);
  }
  const Shape& shape() const { return shape_; }
  std::string label() const {
    return fmt::format("{} tokens x {}+{} heads x {}, rotary {} {}{}", shape_.tokens, shape_.q_heads, shape_.kv_heads,
                       shape_.head_dim, shape_.rotary_dim, layout_name(shape_.layout),
                       shape_.values == Values::large ? " (large)" : shape_.values == Values::zero_rows ? " (zero rows)" : "");
  }
  void poison() {
    y_.fill_u32(kPoisonBitsF32);  // a bf16 NaN in each half
    tmp_.fill_u32(kPoisonBitsF32);
  }
  Comparison check(const StepInfo& step) {
    std::vector<std::uint16_t> bits(elements(shape_));
    y_.download(bits.data(), bits.size() * 2);
    std::vector<float> got(bits.size());
    for (std::size_t i = 0; i < bits.size(); ++i) got[i] = bf16_to_float(bits[i]);
    Comparison c = compare(got, reference_, tolerance(shape_.head_dim));
    if (!c.passed && step.role == StepRole::exercise && c.nonfinite > 0)
      c.reason = fmt::format("{} outputs are NaN (the poison never overwritten, or a NaN cos/sin: is the TODO in {} "
                             "done?)", c.nonfinite, step.name == "exercise" ? "exercises/cuda/rope_rmsnorm_fused.cu"
                                                                            : "exercises/cuda/rope_rmsnorm_compute.cu");
    return c;
  }
  double bytes() const { return bytes(shape_); }
  double flops() const {  // per element: square, add, scale twice, rotate (2 mul, 1 add)
    return 7.0 * double(elements(shape_));
  }
  void run(RopeNormLauncher launcher) {
    RopeNormArgs a;
    a.x = x_.as<std::uint16_t>();
    a.y = y_.as<std::uint16_t>();
    a.tmp = tmp_.as<std::uint16_t>();
    a.q_weight = q_weight_.as<std::uint16_t>();
    a.k_weight = k_weight_.as<std::uint16_t>();
    a.positions = positions_.as<std::int32_t>();
    a.cos_sin = cos_sin_.as<float>();
    a.inv_freq = inv_freq_.as<float>();
    a.tokens = shape_.tokens;
    a.q_heads = shape_.q_heads;
    a.kv_heads = shape_.kv_heads;
    a.head_dim = shape_.head_dim;
    a.rotary_dim = shape_.rotary_dim;
    a.layout = shape_.layout;
    a.eps = kEps;
    launcher(a);
  }

 private:
  Shape shape_;
  gpu::DeviceBuffer x_, y_, tmp_, q_weight_, k_weight_, positions_, cos_sin_, inv_freq_;
  std::vector<double> reference_;
};

/// The bytes a step moves as the lab counts them (rope_rmsnorm_reference.hpp).
double counted_bytes(const std::string& step, const Shape& s) {
  if (step == "unfused") return unfused_bytes(dims(s));
  if (step == "fused_table" || step == "exercise") return fused_table_bytes(dims(s));
  return fused_compute_bytes(dims(s));
}

const auto step = [](auto... a) { return launcher_step<RopeNormCase, RopeNormLauncher>(a...); };

/// The ladder, in order: what each step changes, and the gain its mechanism should buy.
std::vector<Step<RopeNormCase>> ladder() {
  return {
      step(1, "unfused", "RMSNorm kernel, then RoPE kernel (cos/sin table): the activations cross HBM four times",
           "baseline", TUTOR_LAUNCHER(launch_unfused)),
      step(2, "fused_table", "one kernel: the normalised row is rotated in registers and shared memory; x read "
                             "once, y written once, cos/sin from the table", "~2x (half the bytes)",
           TUTOR_LAUNCHER(launch_fused_table)),
      step(3, "fused_compute", "cos/sin computed per token from positions (fp32 phase, sincosf) instead of read: "
                               "the problem's minimum bytes", "+0-5% (the table was a few % of the bytes)",
           TUTOR_LAUNCHER(launch_fused_compute)),
      step(4, "fused_batched", "each thread loads the rows of up to 4 of its token's heads before it reduces any: "
                               "four 16-byte loads in flight instead of one (Little's law)",
           "slower on the H200: see README 5.1",
           TUTOR_LAUNCHER(launch_fused_batched)),
      step(0, "exercise", "your kernel from exercises/: RMSNorm and RoPE in one kernel, cos/sin from the table",
           "as fused_table", TUTOR_LAUNCHER(launch_exercise_fused), StepRole::exercise),
      step(0, "exercise_compute", "your kernel from exercises/: the fused kernel with cos/sin computed from "
                                  "positions", "as fused_compute", TUTOR_LAUNCHER(launch_exercise_compute),
           StepRole::exercise),
  };
}

}  // namespace
}  // namespace tutor::a12

int main(int argc, char** argv) {
  using namespace tutor;
  using a12::Layout;
  using a12::RopeNormCase;
  using a12::Shape;
  using a12::Values;
  int tokens = 16384, q_heads = 32, kv_heads = 8, head_dim = 128, rotary_dim = 0;
  std::string layout_name = "rotate_half";
  LadderLab<RopeNormCase> lab;
  lab.name = "a12_rope_rmsnorm";
  lab.module = "A12";
  lab.summary = "A12 Fused RoPE + RMSNorm: per-head RMSNorm then rotary embedding of q and k (bf16), from two "
                "kernels to one, every step verified and timed on this GPU against the copy bandwidth";
  lab.steps = a12::ladder();
  lab.run_defaults = {.reps = 30, .warmup = 3, .skip_large_check = true};
  // Tokens 1, 17 and 4097 (no multiple of any tile), head_dim 64, 96, 128 and the awkward 100
  // (rows not 16-byte aligned) and 7 (less than one vector); both layouts; partial rotary (64 of
  // 128, 32 of 64, 48 of 96: a half of 24, not a multiple of the 8-element vector); large
  // activations and all-zero rows. The timed shape is verified too.
  lab.verify_shapes = {
      {1, 3, 1, 64, 64, Layout::rotate_half, Values::uniform},
      {17, 3, 1, 96, 96, Layout::interleaved, Values::uniform},
      {17, 5, 2, 128, 64, Layout::rotate_half, Values::uniform},
      {17, 3, 1, 96, 48, Layout::rotate_half, Values::uniform},
      {5, 2, 1, 100, 100, Layout::rotate_half, Values::uniform},
      {3, 2, 1, 7, 6, Layout::interleaved, Values::uniform},
      {33, 4, 2, 128, 128, Layout::rotate_half, Values::large},
      {33, 2, 1, 64, 64, Layout::interleaved, Values::zero_rows},
      {4097, 3, 1, 64, 32, Layout::interleaved, Values::uniform},
      {4097, 2, 1, 128, 128, Layout::rotate_half, Values::uniform},
  };
  lab.is_large = [](const Shape& s) { return s.tokens > 1000; };
  lab.timed_shape = [&] {
    const Layout layout = layout_name == "interleaved" ? Layout::interleaved : Layout::rotate_half;
    return Shape{tokens, q_heads, kv_heads, head_dim, rotary_dim == 0 ? head_dim : rotary_dim, layout, Values::uniform};
  };
  lab.add_options = [&](GpuLab& g) {
    auto& app = g.app();
    app.add_option("--tokens", tokens, "tokens of the batch (the timed size)")
        ->check(decimal_integer())->check(CLI::Range(1, 1 << 20));
    app.add_option("--q-heads", q_heads, "query heads per token")->check(decimal_integer())->check(CLI::Range(1, 256));
    app.add_option("--kv-heads", kv_heads, "key heads per token")->check(decimal_integer())->check(CLI::Range(0, 256));
    app.add_option("--head-dim", head_dim, "elements per head")
        ->check(decimal_integer())->check(CLI::Range(2, a12::kMaxHeadDim));
    app.add_option("--rotary-dim", rotary_dim, "leading elements of each head that RoPE rotates (even, at most "
                                               "--head-dim; 0: all of them)")
        ->check(decimal_integer())->check(CLI::Range(0, a12::kMaxHeadDim));
    app.add_option("--layout", layout_name, "pairs RoPE rotates: rotate_half (Llama, NeoX, Qwen3) or interleaved "
                                            "(GPT-J)")
        ->check(CLI::IsMember({"rotate_half", "interleaved"}))->capture_default_str();
  };
  lab.check_options = [&] {
    // The host's fp64 reference holds every element (8 bytes each, beside the inputs), so the
    // timed size is capped where the host can still check it, as A11 caps rows x cols.
    const double elements = double(tokens) * double(q_heads + kv_heads) * double(head_dim);
    if (elements > double(1ll << 31))
      throw UsageError(fmt::format("--tokens: tokens x (q + k heads) x head_dim at most 2^31 elements "
                                   "(2,147,483,648); {} x {} x {} is {:.0f}", tokens, q_heads + kv_heads, head_dim,
                                   elements));
    if (rotary_dim > head_dim)
      throw UsageError(fmt::format("--rotary-dim: {} is above --head-dim {}; allowed: an even number in 2..{} "
                                   "(or 0 for all)", rotary_dim, head_dim, head_dim));
    if (rotary_dim % 2 != 0 || (rotary_dim == 0 && head_dim % 2 != 0))
      throw UsageError(fmt::format("--rotary-dim: {} is odd (RoPE rotates pairs); allowed: an even number in "
                                   "2..{} (or 0 for all, with an even --head-dim)", rotary_dim == 0 ? head_dim : rotary_dim,
                                   head_dim));
  };
  lab.describe = [](const Shape& s) {
    return fmt::format("RMSNorm + RoPE ({}) of {} tokens x ({} q + {} k) heads x {} bf16, rotary {}, "
                       "{:.3f} GB minimum per launch", a12::layout_name(s.layout), s.tokens, s.q_heads, s.kv_heads,
                       s.head_dim, s.rotary_dim, RopeNormCase::bytes(s) / 1e9);
  };
  lab.problem = [](const Shape& s) {
    return nlohmann::json{{"op", "per-head RMSNorm then RoPE on q and k"}, {"dtype", "bf16"},
                          {"accumulation", "fp32"}, {"tokens", s.tokens}, {"q_heads", s.q_heads},
                          {"kv_heads", s.kv_heads}, {"head_dim", s.head_dim}, {"rotary_dim", s.rotary_dim},
                          {"layout", a12::layout_name(s.layout)}, {"rope_base", a12::kRopeBase},
                          {"rms_norm_eps", a12::kEps}, {"max_position", a12::kMaxPosition},
                          {"reference", "fp64 on the host from the same bf16 inputs, no rounding between the two"},
                          {"tolerance", "relative L2 <= 2 u_bf16 + (head_dim + 8) u_fp32"},
                          {"bytes_per_launch", RopeNormCase::bytes(s)}};
  };
  lab.model_row = [](const StepInfo& step, const Shape& s) {
    return ModelRow{step.name, a12::counted_bytes(step.name, s), 7.0 * double(RopeNormCase::elements(s)),
                    "the bytes this step moves as the lab counts them"};
  };
  lab.device_bytes = [](const Shape& s) {
    return 3.0 * double(RopeNormCase::elements(s)) * 2 + double(a12::kMaxPosition) * (s.rotary_dim / 2) * 8;
  };
  // The bytes table: the problem's minimum (every step's GB/s divides it by the time) and each
  // step's own traffic as the lab counts it.
  lab.after_steps = [](LadderRun<RopeNormCase>& run, nlohmann::json&) {
    const Shape& s = run.timed->shape();
    const double minimum = RopeNormCase::bytes(s), unfused = a12::counted_bytes("unfused", s);
    nlohmann::json table = nlohmann::json::array();
    fmt::print(run.lab.human(), "\nbytes per launch (as the lab counts them; GB/s above = minimum / time)\n"
                                "{:<18} {:>14} {:>12} {:>12}\n", "step", "bytes", "of minimum", "of unfused");
    fmt::print(run.lab.human(), "{:<18} {:>14.0f} {:>12.3f} {:>12.3f}\n", "minimum", minimum, 1.0, minimum / unfused);
    for (const auto& st : run.steps) {
      const double b = a12::counted_bytes(st.info.name, s);
      fmt::print(run.lab.human(), "{:<18} {:>14.0f} {:>12.3f} {:>12.3f}\n", st.info.name, b, b / minimum, b / unfused);
      table.push_back({{"step", st.info.name}, {"counted_bytes", b}, {"of_minimum", b / minimum},
                       {"of_unfused", b / unfused}});
    }
    run.notes["bytes_table"] = {{"minimum_bytes", minimum}, {"steps", table}};
  };
  return ladder_main(lab, argc, argv);
}
