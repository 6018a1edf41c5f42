// b04_fp8_codec: E4M3FNUZ decode and encode on the device, checked bit for bit against the
// library's codec (low_precision.hpp) on all 256 codes and on the inputs rounding gets wrong
// first; the learner's exercises run beside the library's rows and are timed against them.
//
// Reads top to bottom: the encode side's edge cases, one problem instance (a Case: codes and
// fp32 inputs on the device, both outputs, the library's answers on the host), the steps
// (declared once, as data), and main, which hands both to the ladder main (tutor/ladder_lab.hpp).
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fp8_codec.hpp"
#include "low_precision.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/launcher.hpp"
#include "tutor/report.hpp"

namespace tutor::b04 {
namespace {

constexpr Format kFormat = Format::e4m3fnuz;

/// Inputs a hand-written encoder gets wrong first, each with the code it must give (low_precision
/// .hpp's table: bias 8, 240 largest, 2^-10 smallest subnormal). The check compares with encode(),
/// which its own tests derive from the specifications; these lead the input so every run hits them.
std::vector<float> encode_edge_cases() {
  const float inf = std::numeric_limits<float>::infinity();
  return {
      0.0f, -0.0f,                          // 0x00 both: FNUZ has no -0 (0x80 is NaN)
      1.0f, 0.5f, -1.5f,                    // 0x40, 0x38 (0.5 is 0x38, not e4m3fn's 1.0), 0xC4
      1.0625f, 1.1875f,                     // ties: 1 + 1/16 -> 1.0 (even), 1 + 3/16 -> 1.25 (even)
      232.0f, -232.0f,                      // tie between 224 (0x7E) and 240 (0x7F): even, 0x7E
      239.99f, 240.0f, 247.99f, 248.0f,     // 0x7F: the largest, and everything above saturates
      256.0f, 1e30f, inf, -inf,             // 0x7F / 0xFF
      std::nanf(""), -std::nanf(""),        // 0x80, the only NaN
      0x1p-10f, -0x1p-10f,                  // the smallest subnormal, 0x01 / 0x81
      0x1p-11f, -0x1p-11f,                  // half of it: a tie with zero -> 0x00 (even), never 0x80
      std::nextafter(0x1p-11f, 1.0f),       // just above the tie -> 0x01
      0x1.8p-10f, 0x1.4p-9f,                // ties 1.5 and 2.5 subnormal steps -> 0x02, 0x02
      0x1p-7f, 0x1.ep-8f,                   // 0x08, the smallest normal; 7.5 * 2^-10 ties up to 0x08
      0x1.cp-8f,                            // 7 * 2^-10: the largest subnormal, 0x07
      1e-30f, 0x1p-149f, -0x1p-126f,        // far below: 0x00 (fp32 subnormal and smallest normal)
  };
}

/// An fp32 value from its bits.
float from_bits(std::uint32_t u) { return float_of(u); }

/// Random fp32 inputs for the encode side, three kinds in turn: magnitudes spread evenly over
/// binades from 2^-14 to 2^9 (the subnormal range, the normals, overflow), values at and one ulp
/// beside a tie between two neighbouring codes, and arbitrary bit patterns (NaN, inf, fp32
/// subnormals, huge).
float random_encode_input(std::mt19937_64& rng, std::size_t i) {
  const std::uint32_t r = static_cast<std::uint32_t>(rng());
  const std::uint32_t sign = (r & 1u) << 31;
  switch (i % 3) {
    case 0: {
      const int e = int((r >> 1) % 24) - 14;
      return from_bits(sign | std::uint32_t(e + 127) << 23 | ((r >> 8) & 0x7FFFFFu));
    }
    case 1: {
      const std::uint8_t c = std::uint8_t(1 + (r >> 1) % 0x7E);  // 0x01 .. 0x7E and the next code
      const float tie = 0.5f * (decode(kFormat, c) + decode(kFormat, std::uint8_t(c + 1)));  // exact in fp32
      const int nudge = int((r >> 9) % 3) - 1;  // one ulp below, the tie itself, one ulp above
      const float v = nudge == 0 ? tie : std::nextafter(tie, nudge < 0 ? 0.0f : 1e9f);
      return sign ? -v : v;
    }
    default:
      return from_bits(r);
  }
}

/// One problem instance: n codes (all 256 first, in order, then random) and n fp32 inputs (the
/// edge cases first, then random), both outputs on the device, and the library's answers.
class CodecCase {
 public:
  struct Shape {
    std::size_t n;
    bool operator==(const Shape&) const = default;
  };
  /// A 1-byte code and a 4-byte float per element, one read and one written, either direction.
  static double bytes(const Shape& s) { return 5.0 * double(s.n); }

  CodecCase(const Shape& s, std::uint64_t seed)
      : shape_(s), n_(s.n), codes_(n_), inputs_(4 * n_), decoded_(4 * n_), encoded_(n_), code_in_(n_), float_in_(n_),
        decode_ref_(n_), encode_ref_(n_) {
    std::mt19937_64 rng(seed);
    const std::vector<float> edges = encode_edge_cases();
    for (std::size_t i = 0; i < n_; ++i) {
      code_in_[i] = i < 256 ? std::uint8_t(i) : std::uint8_t(rng());
      float_in_[i] = i < edges.size() ? edges[i] : random_encode_input(rng, i);
      decode_ref_[i] = decode(kFormat, code_in_[i]);
      encode_ref_[i] = encode(kFormat, float_in_[i], Overflow::saturate);
    }
    codes_.upload(code_in_.data(), n_);
    inputs_.upload(float_in_.data(), 4 * n_);
  }
  const Shape& shape() const { return shape_; }
  std::string label() const { return fmt::format("n={}", n_); }
  void poison() {
    decoded_.fill_u32(kPoisonBitsF32);
    encoded_.fill_bytes(kPoisonCode);
  }
  Comparison check(const StepInfo& step) { return decodes(step) ? check_decode() : check_encode(); }
  double bytes() const { return bytes(shape_); }
  double flops() const { return 0; }
  void decode_with(DecodeLauncher launcher) { launcher(codes_.as<std::uint8_t>(), decoded_.as<float>(), n_); }
  void encode_with(EncodeLauncher launcher) { launcher(inputs_.as<float>(), encoded_.as<std::uint8_t>(), n_); }

  static bool decodes(const StepInfo& step) { return step.name.find("decode") != std::string::npos; }

 private:
  /// Fills the encoded output before each launch. Every byte is some code, so an unwritten output
  /// cannot be told from a written one by value alone: 0x80 is NaN, which only NaN inputs give.
  static constexpr std::uint8_t kPoisonCode = 0x80;

  /// Every output bit for bit, but any NaN for the NaN code (the library's is a quiet NaN with the
  /// code's sign; the format does not say which NaN a decoder returns).
  Comparison check_decode() {
    std::vector<std::uint32_t> got(n_);
    decoded_.download(got.data(), 4 * n_);
    Comparison c = exact_comparison();
    std::size_t unwritten = 0, codes_right = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const float want = decode_ref_[i];
      const bool ok = std::isnan(want) ? std::isnan(from_bits(got[i])) && got[i] != kPoisonBitsF32
                                       : got[i] == bits_of(want);
      unwritten += got[i] == kPoisonBitsF32;
      if (i < 256) codes_right += ok;
      if (!ok && !c.first_mismatch) c.first_mismatch = i;
      c.mismatches += !ok;
    }
    finish(c);
    if (c.passed) return c;
    if (unwritten == n_) {
      c.reason = "nothing written: every output still holds the poison (is the kernel still the TODO?)";
    } else {
      const std::size_t i = *c.first_mismatch;
      c.reason = fmt::format("{} of {} outputs wrong", c.mismatches, n_);
      if (n_ >= 256) c.reason += fmt::format(" ({} of the 256 codes right)", codes_right);
      c.reason += fmt::format("; first: code 0x{:02x} expected {}, got {}{}", code_in_[i], value_text(decode_ref_[i]),
                              value_text(from_bits(got[i])), got[i] == kPoisonBitsF32 ? " (the poison: not written)" : "");
    }
    return c;
  }

  Comparison check_encode() {
    std::vector<std::uint8_t> got(n_);
    encoded_.download(got.data(), n_);
    Comparison c = exact_comparison();
    std::size_t poison_left = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const bool ok = got[i] == encode_ref_[i];
      poison_left += got[i] == kPoisonCode && !std::isnan(float_in_[i]);
      if (!ok && !c.first_mismatch) c.first_mismatch = i;
      c.mismatches += !ok;
    }
    finish(c);
    if (c.passed) return c;
    if (c.mismatches == poison_left && poison_left * 10 > n_ * 9) {
      c.reason = "nothing written: every output still holds the poison code 0x80 (is the kernel still the TODO?)";
    } else {
      const std::size_t i = *c.first_mismatch;
      c.reason = fmt::format("{} of {} codes wrong; first: input {} (bits 0x{:08x}) expected 0x{:02x} = {}, got 0x{:02x} = {}",
                             c.mismatches, n_, value_text(float_in_[i]), bits_of(float_in_[i]), encode_ref_[i],
                             value_text(decode(kFormat, encode_ref_[i])), got[i], value_text(decode(kFormat, got[i])));
    }
    return c;
  }

  /// An exact check: tolerance 0; rel_l2 reports the fraction of outputs that differ.
  Comparison exact_comparison() const {
    Comparison c;
    c.count = n_;
    c.tolerance = 0;
    return c;
  }
  void finish(Comparison& c) const {
    c.passed = c.mismatches == 0;
    c.rel_l2 = n_ ? double(c.mismatches) / double(n_) : 0;
  }

  Shape shape_;
  std::size_t n_;
  gpu::DeviceBuffer codes_, inputs_, decoded_, encoded_;
  std::vector<std::uint8_t> code_in_;
  std::vector<float> float_in_;
  std::vector<float> decode_ref_;
  std::vector<std::uint8_t> encode_ref_;
};

Step<CodecCase> decode_step(std::string name, std::string change, std::string expect, DecodeLauncher launcher,
                            StepRole role) {
  return {declare(0, std::move(name), std::move(change), std::move(expect), role),
          [launcher](CodecCase& c) { c.decode_with(launcher); }};
}
Step<CodecCase> encode_step(std::string name, std::string change, std::string expect, EncodeLauncher launcher,
                            StepRole role) {
  return {declare(0, std::move(name), std::move(change), std::move(expect), role),
          [launcher](CodecCase& c) { c.encode_with(launcher); }};
}

/// The library's rows (the comparison every exercise is timed against), then the exercises.
std::vector<Step<CodecCase>> steps() {
  return {
      decode_step("decode_library", "the library's decode() (low_precision.hpp), generic over six formats: classify "
                                    "the code, then build the fp32 bits", "memory-bound",
                  TUTOR_LAUNCHER(launch_decode_library), StepRole::reference),
      encode_step("encode_library", "the library's encode(), saturating: one round to nearest even of the fp32 "
                                    "significand, through the subnormal range", "memory-bound",
                  TUTOR_LAUNCHER(launch_encode_library), StepRole::reference),
      decode_step("exercise_decode", "your decoder from exercises/: E4M3FNUZ from its bit layout (bias 8, NaN 0x80, "
                                     "no -0)", "as decode_library", TUTOR_LAUNCHER(launch_exercise_decode),
                  StepRole::exercise),
      encode_step("exercise_encode", "your encoder from exercises/: nearest code, ties to even, saturating at 240",
                  "as encode_library", TUTOR_LAUNCHER(launch_exercise_encode), StepRole::exercise),
  };
}

}  // namespace
}  // namespace tutor::b04

int main(int argc, char** argv) {
  using namespace tutor;
  using b04::CodecCase;
  CodecCase::Shape size{std::size_t(1) << 28};
  LadderLab<CodecCase> lab;
  lab.name = "b04_fp8_codec";
  lab.module = "B04";
  lab.summary = "B04 fp8 codec: E4M3FNUZ decode and encode on the device, checked bit for bit against the library "
                "on all 256 codes and the rounding edge cases; your exercises (--variant exercise_decode, "
                "exercise_encode) timed beside the library's rows";
  lab.steps = b04::steps();
  lab.run_defaults = {.reps = 50, .warmup = 5};
  // 1 element; all 256 codes and every edge case with room to spare; an odd size (the last block
  // partly full). The timed size is verified too, before and after its timed loop.
  lab.verify_shapes = {{1}, {4099}, {1000003}};
  lab.timed_shape = [&] { return size; };
  lab.add_options = [&](GpuLab& g) {
    g.app().add_option("--elements", size.n, "elements per launch (codes decoded, values encoded)")
        ->check(decimal_integer())->check(CLI::Range(std::size_t(1), std::size_t(1) << 30));
  };
  lab.describe = [](const CodecCase::Shape& s) {
    return fmt::format("E4M3FNUZ codec, {} elements: decode 1 B -> 4 B, encode 4 B -> 1 B, {:.3f} GB per launch", s.n,
                       CodecCase::bytes(s) / 1e9);
  };
  lab.problem = [](const CodecCase::Shape& s) {
    return nlohmann::json{{"op", "fp8 codec"}, {"format", "e4m3fnuz"}, {"overflow", "saturate"}, {"elements", s.n},
                          {"bytes_per_launch", CodecCase::bytes(s)},
                          {"inputs", "codes: all 256 in order, then random; fp32: edge cases, then random"}};
  };
  lab.model_row = [](const StepInfo& step, const CodecCase::Shape& s) {
    return ModelRow{step.name, CodecCase::bytes(s), 0, "a 1-byte code and a 4-byte float per element"};
  };
  lab.device_bytes = [](const CodecCase::Shape& s) { return 10.0 * double(s.n); };
  lab.after_steps = [](LadderRun<CodecCase>& run, nlohmann::json&) {
    run.notes["check"] = "exact: every output bit for bit against low_precision.hpp (any NaN for code 0x80); "
                         "rel_err is the fraction of outputs that differ";
  };
  return ladder_main(lab, argc, argv);
}
