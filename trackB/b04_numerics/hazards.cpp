// b04_numerics hazards: five numerical hazards of low-precision arithmetic, each a short
// experiment that prints its numbers (see hazards.hpp for the list and for why emulating fp16
// and bf16 through fp32 operations gives the correctly rounded narrow results).
#include "hazards.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>

#include "tutor/cli.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"
#include "tutor/verify.hpp"

namespace tutor::b04 {

using nlohmann::json;

// ---- shared helpers --------------------------------------------------------------------------

double SeededRng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double u1 = 1.0 - uniform();  // in (0, 1]: log(u1) is finite
  const double u2 = uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  spare_ = r * std::sin(2.0 * std::numbers::pi * u2);
  has_spare_ = true;
  return r * std::cos(2.0 * std::numbers::pi * u2);
}




// ---- rounding helpers ------------------------------------------------------------------------

float round_fp16(float x) { return from_fp16(to_fp16(x)); }
float round_bf16(float x) { return from_bf16(to_bf16(x)); }

float round_tf32(float x) {
  if (!std::isfinite(x)) return x;
  // RNE on the 13 fraction bits TF32 drops: add 0x0fff plus the lowest kept bit, then clear. A carry
  // out of the fraction moves into the exponent, which is the correctly rounded result (and inf past
  // the largest finite value).
  std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
  bits += 0x0fffu + ((bits >> 13) & 1u);
  bits &= ~0x1fffu;
  return std::bit_cast<float>(bits);
}

float ulp(float x, int fraction_bits) {
  int e = 0;
  std::frexp(x, &e);  // |x| = m 2^e with m in [0.5, 1): the binade is [2^(e-1), 2^e)
  return std::ldexp(1.0f, e - 1 - fraction_bits);
}

// ---- fp16-overflow ---------------------------------------------------------------------------

namespace {
constexpr std::uint16_t kFp16PositiveInf = 0x7c00;  // IEEE 754-2019 sec. 3.4: E = 11111, T = 0
constexpr std::uint16_t kFp16MaxFinite = 0x7bff;
}  // namespace

Fp16Limits fp16_limits() {
  Fp16Limits l;
  l.max_finite = from_fp16(kFp16MaxFinite);
  // Smallest positive fp32 whose fp16 rounding is inf: binary search on the bit patterns, which order
  // positive floats by value; everything above max_finite's pattern is a candidate.
  std::uint32_t lo = std::bit_cast<std::uint32_t>(l.max_finite);  // rounds to a finite value
  std::uint32_t hi = std::bit_cast<std::uint32_t>(std::numeric_limits<float>::infinity());
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    (to_fp16(std::bit_cast<float>(mid)) == kFp16PositiveInf ? hi : lo) = mid;
  }
  l.overflow_threshold = std::bit_cast<float>(hi);
  l.exp_overflow_exact = std::log(double(l.overflow_threshold));
  // Smallest positive fp16 logit whose exp rounds to inf: walk the codes upward from 1.0 (0x3c00).
  for (std::uint16_t c = 0x3c00; c <= kFp16MaxFinite; ++c) {
    const float x = from_fp16(c);
    if (std::isinf(round_fp16(float(std::exp(double(x)))))) {
      l.exp_overflow_logit = x;
      break;
    }
  }
  return l;
}

std::vector<float> softmax_fp16_naive(std::span<const float> logits) {
  std::vector<float> e(logits.size());
  float sum = 0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    e[i] = round_fp16(float(std::exp(double(round_fp16(logits[i])))));
    sum = round_fp16(sum + e[i]);
  }
  for (auto& v : e) v = round_fp16(v / sum);
  return e;
}

std::vector<float> softmax_fp16_max_subtracted(std::span<const float> logits) {
  if (logits.empty()) return {};
  float m = -std::numeric_limits<float>::infinity();
  for (float x : logits) m = std::max(m, round_fp16(x));
  std::vector<float> e(logits.size());
  float sum = 0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    const float d = round_fp16(round_fp16(logits[i]) - m);
    e[i] = round_fp16(float(std::exp(double(d))));
    sum = round_fp16(sum + e[i]);
  }
  for (auto& v : e) v = round_fp16(v / sum);
  return e;
}

std::vector<double> softmax_reference(std::span<const float> logits) {
  if (logits.empty()) return {};
  double m = -std::numeric_limits<double>::infinity();
  for (float x : logits) m = std::max(m, double(x));
  std::vector<double> p(logits.size());
  double sum = 0;
  for (std::size_t i = 0; i < logits.size(); ++i) sum += p[i] = std::exp(double(logits[i]) - m);
  for (auto& v : p) v /= sum;
  return p;
}

float attention_score_fp16(std::span<const float> q, std::span<const float> k, float scale, bool scale_first) {
  if (q.size() != k.size()) throw std::invalid_argument("attention_score_fp16: q and k differ in length");
  float acc = 0;  // fp32 accumulator; a product of two fp16 values is exact in fp32 (11 + 11 <= 24 bits)
  for (std::size_t i = 0; i < q.size(); ++i) {
    const float qi = scale_first ? round_fp16(round_fp16(q[i]) * scale) : round_fp16(q[i]);
    const float product = qi * round_fp16(k[i]);
    acc += product;
  }
  const float stored = round_fp16(acc);  // the GEMM writes S in fp16
  return scale_first ? stored : round_fp16(stored * scale);
}

// ---- bf16-sum --------------------------------------------------------------------------------

namespace {
constexpr int kBf16FractionBits = 7;  // bf16: 1 sign, 8 exponent, 7 fraction bits

float pairwise_bf16(std::span<const float> v) {
  if (v.empty()) return 0;
  if (v.size() == 1) return v[0];
  const std::size_t half = v.size() / 2;
  return round_bf16(pairwise_bf16(v.first(half)) + pairwise_bf16(v.subspan(half)));
}
}  // namespace

SumComparison sum_in_bf16(std::span<const float> values) {
  if (values.empty()) throw std::invalid_argument("sum_in_bf16: no values");
  std::vector<float> v(values.size());
  std::transform(values.begin(), values.end(), v.begin(), round_bf16);
  SumComparison r;
  r.n = v.size();
  float bf16_sum = 0, fp32_sum = 0;
  double ref = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const float next = round_bf16(bf16_sum + v[i]);
    if (!r.stall.stalled && v[i] != 0 && next == bf16_sum) {
      r.stall = {true, std::int64_t(i + 1), bf16_sum, v[i],
                 bf16_sum == 0 ? 0.0f : ulp(bf16_sum, kBf16FractionBits) / 2};
    }
    bf16_sum = next;
    fp32_sum += v[i];
    ref += double(v[i]);
  }
  r.reference = ref;
  r.bf16_sequential = bf16_sum;
  r.fp32_sequential = fp32_sum;
  r.bf16_pairwise = pairwise_bf16(v);
  return r;
}

// ---- variance --------------------------------------------------------------------------------

// Each operation is its own statement, so that no compiler contracts a multiply and an add into
// one fused operation (C++ allows contraction only within an expression): the emulated
// arithmetic is plain fp32, as the hand derivations in the tests assume.

float variance_one_pass(std::span<const float> x) {
  if (x.empty()) return std::numeric_limits<float>::quiet_NaN();
  float sum = 0, sumsq = 0;
  for (float v : x) {
    sum += v;
    const float sq = v * v;
    sumsq += sq;
  }
  const float n = float(x.size());
  const float mean = sum / n;
  const float mean_sq = mean * mean;
  const float mean_of_sq = sumsq / n;
  return mean_of_sq - mean_sq;
}

float variance_welford(std::span<const float> x) {
  if (x.empty()) return std::numeric_limits<float>::quiet_NaN();
  float mean = 0, m2 = 0;
  std::size_t k = 0;
  for (float v : x) {
    ++k;
    const float delta = v - mean;
    const float step = delta / float(k);
    mean += step;
    const float delta_after = v - mean;
    const float term = delta * delta_after;
    m2 += term;
  }
  return m2 / float(x.size());
}

float variance_two_pass(std::span<const float> x) {
  if (x.empty()) return std::numeric_limits<float>::quiet_NaN();
  float sum = 0;
  for (float v : x) sum += v;
  const float mean = sum / float(x.size());
  float ss = 0;
  for (float v : x) {
    const float d = v - mean;
    const float sq = d * d;
    ss += sq;
  }
  return ss / float(x.size());
}

double variance_reference(std::span<const float> x) {
  if (x.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (float v : x) sum += v;
  const double mean = sum / double(x.size());
  double ss = 0;
  for (float v : x) ss += (v - mean) * (v - mean);
  return ss / double(x.size());
}

double variance_condition_number(std::span<const float> x) {
  if (x.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (float v : x) sum += v;
  const double mean = sum / double(x.size());
  double s = 0;
  for (float v : x) s += (v - mean) * (v - mean);
  if (s == 0) return std::numeric_limits<double>::infinity();
  return std::sqrt(1.0 + double(x.size()) * mean * mean / s);
}

// ---- tf32-matmul -----------------------------------------------------------------------------

MatmulError tf32_matmul_error(int m, int n, int k, std::uint64_t seed) {
  if (m < 1 || n < 1 || k < 1) throw std::invalid_argument("tf32_matmul_error: m, n and k must be >= 1");
  SeededRng rng(seed);
  const auto uz = [](int v) { return std::size_t(v); };
  // A is m x k row-major; B is stored transposed (n x k) so both operands stream contiguously.
  std::vector<float> a(uz(m) * uz(k)), bt(uz(n) * uz(k));
  for (auto& v : a) v = float(2 * rng.uniform() - 1);
  for (auto& v : bt) v = float(2 * rng.uniform() - 1);
  std::vector<float> a32(a.size()), bt32(bt.size());
  std::transform(a.begin(), a.end(), a32.begin(), round_tf32);
  std::transform(bt.begin(), bt.end(), bt32.begin(), round_tf32);
  std::vector<double> ref(uz(m) * uz(n));
  std::vector<float> c_fp32(ref.size()), c_tf32(ref.size());
  for (std::size_t i = 0; i < uz(m); ++i)
    for (std::size_t j = 0; j < uz(n); ++j) {
      const float* ar = &a[i * uz(k)];
      const float* br = &bt[j * uz(k)];
      const float* ar32 = &a32[i * uz(k)];
      const float* br32 = &bt32[j * uz(k)];
      double acc64 = 0;
      float acc32 = 0, acc_tf32 = 0;
      for (std::size_t p = 0; p < uz(k); ++p) {
        acc64 += double(ar[p]) * double(br[p]);
        const float prod = ar[p] * br[p];
        acc32 += prod;
        const float prod_tf32 = ar32[p] * br32[p];  // exact: 11 x 11 significand bits fit in 24
        acc_tf32 += prod_tf32;
      }
      ref[i * uz(n) + j] = acc64;
      c_fp32[i * uz(n) + j] = acc32;
      c_tf32[i * uz(n) + j] = acc_tf32;
    }
  MatmulError e;
  e.k = k;
  e.rel_l2_fp32 = compare(c_fp32, ref, 1).rel_l2;
  e.rel_l2_tf32 = compare(c_tf32, ref, 1).rel_l2;
  return e;
}

// ---- fp8-range -------------------------------------------------------------------------------

namespace {
bool is_fp8(Format f) {
  return f == Format::e4m3fn || f == Format::e5m2 || f == Format::e4m3fnuz || f == Format::e5m2fnuz;
}
}  // namespace

RangeFacts range_facts(Format f) {
  const FormatInfo i = info(f);
  RangeFacts r;
  r.format = f;
  r.name = i.name;
  r.max_finite = i.max_finite;
  r.min_normal = i.min_normal;
  r.min_subnormal = i.min_subnormal;
  r.normal_binades = std::log2(r.max_finite / r.min_normal);
  r.binades_with_subnormals = std::log2(r.max_finite / r.min_subnormal);
  r.unit_roundoff = std::ldexp(1.0, -(i.mantissa_bits + 1));
  return r;
}

CastStats cast_with_amax_scale(std::span<const float> x, Format f) {
  if (!is_fp8(f)) throw std::invalid_argument("cast_with_amax_scale: not an 8-bit floating-point format");
  float amax = 0;
  for (float v : x) amax = std::max(amax, std::abs(v));
  if (x.empty() || !(amax > 0) || !std::isfinite(amax))
    throw std::invalid_argument("cast_with_amax_scale: the tensor must be nonempty, finite and not all zero");
  const FormatInfo fi = info(f);
  const float scale = fi.max_finite / amax;  // an fp32 scale, as a kernel would hold it
  std::size_t nonzero = 0, zeros = 0, subnormals = 0;
  double rel_sum = 0, signal = 0, noise = 0;
  for (float v : x) {
    const float decoded = decode(f, encode(f, v * scale, Overflow::saturate));
    const float back = decoded / scale;
    signal += double(v) * v;
    noise += (double(back) - v) * (double(back) - v);
    if (v == 0) continue;
    ++nonzero;
    if (decoded == 0) ++zeros;
    else if (std::abs(decoded) < fi.min_normal) ++subnormals;
    rel_sum += std::abs(double(back) - v) / std::abs(double(v));
  }
  CastStats s;
  s.zero_fraction = nonzero ? double(zeros) / double(nonzero) : 0;
  s.subnormal_fraction = nonzero ? double(subnormals) / double(nonzero) : 0;
  s.mean_rel_error = nonzero ? rel_sum / double(nonzero) : 0;
  s.sqnr_db = noise > 0 ? 10 * std::log10(signal / noise) : std::numeric_limits<double>::infinity();
  return s;
}

std::vector<float> log_uniform_tensor(std::size_t n, double binades, std::uint64_t seed) {
  SeededRng rng(seed);
  std::vector<float> x(n);
  for (auto& v : x) {
    const double magnitude = std::exp2(-binades * rng.uniform());
    v = float(rng.uniform() < 0.5 ? -magnitude : magnitude);
  }
  return x;
}

std::vector<float> normal_tensor(std::size_t n, std::uint64_t seed) {
  SeededRng rng(seed);
  std::vector<float> x(n);
  for (auto& v : x) v = float(rng.normal());
  return x;
}

// ---- the subcommand --------------------------------------------------------------------------

namespace {

struct HazardsOptions {
  std::string only;
  std::uint64_t seed = 1;
  std::int64_t sum_count = 10000;  ///< signed: CLI11 would wrap "-3" into a huge unsigned count
  std::int64_t samples = 4096;
  std::int64_t max_k = 16384;
};

// At most 100,000: above about 500,000 terms the fp32 accumulator's own error passes the
// experiment's 1e-3 check against fp64, and the experiment is about bf16, not fp32.
constexpr std::int64_t kMaxSumCount = 100'000;
constexpr std::int64_t kMaxSamples = 10'000'000;
constexpr std::int64_t kMinK = 64, kMaxK = 65536;

constexpr const char* kMethod =
    "bit-exact emulation on the CPU: every fp16/bf16/TF32/fp8 value is an fp32 value rounded to the narrow "
    "format by round to nearest, ties to even (the b04 codec, low_precision.hpp); no GPU ran";

/// What one experiment prints and records; `passed` is false when a fix it demonstrates did not hold.
struct Outcome {
  json record;
  bool passed = true;
};

/// A hazard experiment as data: its name (--only), one line saying what it shows, and how it runs.
struct Hazard {
  const char* name;
  const char* title;
  Outcome (*run)(std::FILE* out, const HazardsOptions& o);
};

std::string g(double v) { return std::isnan(v) ? "nan" : fmt::format("{:.7g}", v); }

json check(const std::string& what, bool passed) { return {{"check", what}, {"passed", passed}}; }

void print_check(std::FILE* out, const std::string& what, bool passed) {
  fmt::print(out, "  check: {} -> {}\n", what, passed ? "holds" : "DOES NOT HOLD");
}

std::string list(std::span<const float> v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + g(v[i]);
  return s + "]";
}
std::string list(std::span<const double> v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + fmt::format("{:.4g}", v[i]);
  return s + "]";
}
json json_list(std::span<const float> v) {
  json a = json::array();
  for (float x : v) a.push_back(json_number(x));
  return a;
}

// -- fp16-overflow

Outcome run_fp16_overflow(std::FILE* out, const HazardsOptions&) {
  const Fp16Limits l = fp16_limits();
  fmt::print(out, "fp16 has p = 11 significand bits and emax = 15 (IEEE 754-2019 Table 3.5, binary16).\n");
  fmt::print(out, "  largest finite fp16: (2 - 2^-10) x 2^15 = {}; every fp32 value >= {} rounds to inf (the midpoint\n"
                  "  to 2^16: a tie, and ties-to-even picks 2^16, whose significand is even, which overflows)\n",
             g(l.max_finite), g(l.overflow_threshold));
  fmt::print(out, "  exp(x) overflows fp16 for x >= ln({}) = {:.6f}; the first fp16 logit that does: {}\n",
             g(l.overflow_threshold), l.exp_overflow_exact, g(l.exp_overflow_logit));

  Outcome o;
  json rows = json::array();
  bool fixed_everywhere = true;
  double worst_fixed_error = 0;
  const std::vector<std::pair<std::string, std::vector<float>>> cases = {
      {"one logit above 11.09", {12.0f, 10.0f, 9.5f, 6.0f, 0.0f, -4.0f}},
      {"no exp overflows, their fp16 sum does", {10.5f, 10.5f, 10.0f, 8.0f}},
  };
  for (const auto& [label, logits] : cases) {
    const auto naive = softmax_fp16_naive(logits);
    const auto fixed = softmax_fp16_max_subtracted(logits);
    const auto ref = softmax_reference(logits);
    double naive_err = 0, fixed_err = 0;
    std::size_t naive_nan = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      if (std::isnan(naive[i])) ++naive_nan;
      naive_err = std::isfinite(naive[i]) ? std::max(naive_err, std::abs(naive[i] - ref[i]))
                                          : std::numeric_limits<double>::infinity();
      fixed_err = std::isfinite(fixed[i]) ? std::max(fixed_err, std::abs(fixed[i] - ref[i]))
                                          : std::numeric_limits<double>::infinity();
    }
    worst_fixed_error = std::max(worst_fixed_error, fixed_err);
    fmt::print(out, "  softmax row ({}): logits {}\n", label, list(std::span<const float>(logits)));
    fmt::print(out, "    fp16, exp and sum as they come:  {}  max |error| {}\n", list(std::span<const float>(naive)),
               g(naive_err));
    fmt::print(out, "    fp16, row max subtracted first:  {}  max |error| {}\n", list(std::span<const float>(fixed)),
               g(fixed_err));
    fmt::print(out, "    fp64 reference:                  {}\n", list(std::span<const double>(ref)));
    rows.push_back({{"case", label}, {"logits", json_list(logits)}, {"naive_fp16", json_list(naive)},
                    {"max_subtracted_fp16", json_list(fixed)}, {"reference_fp64", ref},
                    {"naive_max_abs_error", json_number(naive_err)}, {"naive_nan_count", naive_nan},
                    {"max_subtracted_max_abs_error", json_number(fixed_err)}});
  }
  // fp16 probabilities carry 11 significant bits: a few units of 2^-11 is the expected error.
  const double tolerance = 0x1.0p-8;
  fixed_everywhere = worst_fixed_error <= tolerance;

  // One attention score of a head with d = 128: the GEMM accumulates in fp32 and stores S in fp16.
  constexpr int d = 128;
  constexpr float component = 23.0f;  // constructed: 128 x 23 x 23 = 67,712 > 65,504
  const std::vector<float> q(d, component), k(d, component);
  const float scale = float(1.0 / std::sqrt(double(d)));
  const float late = attention_score_fp16(q, k, scale, false);
  const float early = attention_score_fp16(q, k, scale, true);
  const double exact = double(d) * component * component / std::sqrt(double(d));
  fmt::print(out, "  attention score, head dim {}, q_i = k_i = {} (constructed): q.k = {} > 65504\n", d, g(component),
             g(double(d) * component * component));
  fmt::print(out, "    S = QK^T stored in fp16, then x 1/sqrt(d):        {}\n", g(late));
  fmt::print(out, "    q scaled by 1/sqrt(d) in fp16 first, then stored: {}   (exact {:.2f})\n", g(early), exact);
  fmt::print(out, "  fix: subtract the row max before exp (softmax(x) = softmax(x - max x) exactly), and scale\n"
                  "  before storing S in fp16 or keep S in fp32\n");
  const bool attention_fixed = std::isinf(late) && std::isfinite(early) && std::abs(early - exact) <= 8;
  const std::string what1 = fmt::format("max-subtracted fp16 softmax within {} of fp64 on every row", g(tolerance));
  const std::string what2 = "scaling q before the fp16 store keeps the score finite (within 8 of exact)";
  print_check(out, what1, fixed_everywhere);
  print_check(out, what2, attention_fixed);
  o.passed = fixed_everywhere && attention_fixed;
  o.record = {{"format", "fp16 (IEEE 754-2019 binary16)"},
              {"max_finite", l.max_finite},
              {"overflow_threshold", l.overflow_threshold},
              {"exp_overflow_logit_fp16", l.exp_overflow_logit},
              {"exp_overflow_logit_exact", l.exp_overflow_exact},
              {"softmax_rows", rows},
              {"attention_score", {{"head_dim", d}, {"component", component}, {"scale", scale},
                                   {"exact_scaled", exact}, {"stored_then_scaled_fp16", json_number(late)},
                                   {"scaled_then_stored_fp16", json_number(early)}}},
              {"checks", {check(what1, fixed_everywhere), check(what2, attention_fixed)}},
              {"source", "IEEE 754-2019 sec. 3.6 Table 3.5 (binary16: p = 11, emax = 15) and sec. 4.3.1 "
                         "(roundTiesToEven); softmax shift invariance: Goodfellow, Bengio & Courville, Deep "
                         "Learning (2016) sec. 4.1"}};
  return o;
}

// -- bf16-sum

Outcome run_bf16_sum(std::FILE* out, const HazardsOptions& opt) {
  const std::size_t n = std::size_t(opt.sum_count);
  fmt::print(out, "bf16 keeps 8 significand bits (7 stored). For a sum s in [2^e, 2^(e+1)) the spacing is\n"
                  "  ulp(s) = 2^(e-7); s + x rounds back to s when x < ulp(s)/2, and at x = ulp(s)/2 (a tie) when\n"
                  "  s's last significand bit is 0. Each input is first rounded to bf16; n = {}.\n",
             thousands(std::int64_t(n)));
  SeededRng rng(opt.seed);
  std::vector<float> random(n);
  for (auto& v : random) v = float(0.02 * rng.uniform());
  const std::vector<std::pair<std::string, std::vector<float>>> inputs = {
      {"x = 1", std::vector<float>(n, 1.0f)},
      {"x = 0.01", std::vector<float>(n, 0.01f)},
      {fmt::format("x ~ U[0, 0.02), seed {}", opt.seed), random},
  };
  fmt::print(out, "  {:<26} {:>14} {:>12} {:>12} {:>12} {:>12}\n", "addends", "first lost at", "bf16 seq.",
             "bf16 pairw.", "fp32 acc.", "fp64");
  Outcome o;
  json rows = json::array();
  bool fp32_ok = true;
  for (const auto& [label, values] : inputs) {
    const SumComparison r = sum_in_bf16(values);
    const std::string stall = r.stall.stalled ? thousands(r.stall.step) : "never";
    fmt::print(out, "  {:<26} {:>14} {:>12} {:>12} {:>12} {:>12}\n", label, stall, g(r.bf16_sequential),
               g(r.bf16_pairwise), g(r.fp32_sequential), g(r.reference));
    if (r.stall.stalled)
      fmt::print(out, "    step {}: sum {} has ulp {} and half-ulp {}; the addend {} {} it, so sum + x == sum\n",
                 thousands(r.stall.step), g(r.stall.sum), g(2 * r.stall.half_ulp), g(r.stall.half_ulp),
                 g(r.stall.addend),
                 r.stall.addend == r.stall.half_ulp ? "ties with" : (r.stall.addend < r.stall.half_ulp ? "is below" : "exceeds"));
    const double fp32_rel = std::abs(r.fp32_sequential - r.reference) / std::abs(r.reference);
    fp32_ok = fp32_ok && fp32_rel <= 1e-3;
    rows.push_back({{"addends", label}, {"n", r.n}, {"reference_fp64", r.reference},
                    {"bf16_sequential", r.bf16_sequential}, {"bf16_pairwise", r.bf16_pairwise},
                    {"fp32_sequential", r.fp32_sequential},
                    {"stall", {{"stalled", r.stall.stalled}, {"step", r.stall.step}, {"sum", r.stall.sum},
                               {"addend", r.stall.addend}, {"half_ulp", r.stall.half_ulp}}}});
  }
  fmt::print(out, "  fix: accumulate in fp32 (tensor cores take bf16 inputs and keep an fp32 accumulator), or sum\n"
                  "  pairwise, whose error grows like log2(n) instead of n (Higham 1993)\n");
  const std::string what = "the fp32 accumulator is within 1e-3 (relative) of fp64 on every input";
  print_check(out, what, fp32_ok);
  o.passed = fp32_ok;
  o.record = {{"format", "bf16 (8 exponent bits, 7 fraction bits)"},
              {"n", n},
              {"seed", opt.seed},
              {"rows", rows},
              {"rule", "bf16(s + x) == s when x < ulp(s)/2 = 2^(e-8) for s in [2^e, 2^(e+1)); at x = ulp(s)/2 "
                       "ties-to-even keeps s if its last significand bit is 0"},
              {"checks", {check(what, fp32_ok)}},
              {"source", "bf16 layout: Intel, BFLOAT16 - Hardware Numerics Definition (white paper, 2018); "
                         "rounding: IEEE 754-2019 sec. 4.3.1 roundTiesToEven; pairwise summation error: "
                         "N. J. Higham, The accuracy of floating point summation, SIAM J. Sci. Comput. 14(4), 1993"}};
  return o;
}

// -- variance

Outcome run_variance(std::FILE* out, const HazardsOptions& opt) {
  fmt::print(out, "Population variance in fp32 three ways, against fp64 two-pass on the same fp32 data.\n");
  const std::vector<float> known = {10004.0f, 10007.0f, 10013.0f, 10016.0f};
  const float known_one = variance_one_pass(known), known_welford = variance_welford(known);
  fmt::print(out, "  known case {{10004, 10007, 10013, 10016}}: exact 22.5 (deviations -6, -3, 3, 6: 90 / 4)\n"
                  "    one-pass {}   Welford {}   two-pass {}\n",
             g(known_one), g(known_welford), g(variance_two_pass(known)));
  const std::size_t n = std::size_t(opt.samples);
  fmt::print(out, "  {} samples of mean + N(0, 1), seed {}:\n", thousands(std::int64_t(n)), opt.seed);
  fmt::print(out, "  {:>8} {:>10} {:>13} {:>13} {:>13} {:>13} {:>11} {:>11} {:>11}\n", "mean", "kappa", "fp64",
             "one-pass", "Welford", "two-pass", "rel.err 1p", "rel.err W", "rel.err 2p");
  json rows = json::array();
  bool welford_ok = true;
  std::size_t negatives = 0;
  for (double mean : {0.0, 1e1, 1e2, 1e3, 1e4, 1e5}) {
    SeededRng rng(opt.seed);
    std::vector<float> x(n);
    for (auto& v : x) v = float(mean + rng.normal());
    const double ref = variance_reference(x);
    const float one = variance_one_pass(x), wel = variance_welford(x), two = variance_two_pass(x);
    const double kappa = variance_condition_number(x);
    const auto rel = [&](float v) { return std::abs(double(v) - ref) / ref; };
    if (one < 0) ++negatives;
    // The updating (Welford) algorithm's relative error is bounded by ~ n kappa u (Chan, Golub &
    // LeVeque 1983, Table 1); the textbook one-pass formula's only by ~ n kappa^2 u.
    const double welford_bound = double(n) * kappa * 0x1.0p-24;
    welford_ok = welford_ok && rel(wel) <= welford_bound;
    fmt::print(out, "  {:>8} {:>10.4g} {:>13.7g} {:>13.7g} {:>13.7g} {:>13.7g} {:>11.3g} {:>11.3g} {:>11.3g}\n",
               g(mean), kappa, ref, one, wel, two, rel(one), rel(wel), rel(two));
    rows.push_back({{"mean", mean}, {"kappa", kappa}, {"reference_fp64", ref}, {"one_pass_fp32", one},
                    {"welford_fp32", wel}, {"two_pass_fp32", two}, {"rel_error_one_pass", rel(one)},
                    {"rel_error_welford", rel(wel)}, {"rel_error_two_pass", rel(two)},
                    {"welford_bound_n_kappa_u", welford_bound}});
  }
  fmt::print(out, "  why: sumsq/n and mean^2 agree in their leading digits, and their difference keeps only the\n"
                  "  rounding errors (~ kappa^2 u, u = 2^-24); {} of these one-pass variances came out negative,\n"
                  "  where LayerNorm's rsqrt(var + eps) gives NaN. fix: Welford's update (or shift by any sample first)\n",
             negatives);
  if (double(n) * 0x1.0p-24 > 1e-3)
    fmt::print(out, "  note: n u = {:.2g}: at this n the fp32 running sums themselves lose digits (as in bf16-sum),\n"
                    "  which every algorithm here shares; pairwise or blocked sums fix that part\n",
               double(n) * 0x1.0p-24);
  const std::string what = "Welford's relative error within its bound n kappa u (u = 2^-24) at every mean";
  print_check(out, what, welford_ok);
  Outcome o;
  o.passed = welford_ok;
  o.record = {{"n", n},
              {"seed", opt.seed},
              {"known_case", {{"data", known}, {"exact", 22.5}, {"one_pass_fp32", known_one},
                              {"welford_fp32", known_welford}}},
              {"rows", rows},
              {"negative_one_pass", negatives},
              {"formulas", {{"one_pass", "var = sum(x^2)/n - (sum(x)/n)^2"},
                            {"welford", "delta = x - mean; mean += delta/k; m2 += delta (x - mean); var = m2/n"},
                            {"kappa", "sqrt(1 + n mean^2 / S), S = sum (x - mean)^2"}}},
              {"checks", {check(what, welford_ok)}},
              {"source", "B. P. Welford, Note on a method for calculating corrected sums of squares and products, "
                         "Technometrics 4(3), 1962; T. F. Chan, G. H. Golub, R. J. LeVeque, Algorithms for computing "
                         "the sample variance: analysis and recommendations, The American Statistician 37(3), 1983; "
                         "N. J. Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed. (2002), sec. 1.9"}};
  return o;
}

// -- tf32-matmul

Outcome run_tf32_matmul(std::FILE* out, const HazardsOptions& opt) {
  constexpr int m = 64, n = 64;
  fmt::print(out, "TF32 keeps fp32's 8 exponent bits and 10 fraction bits: unit roundoff 2^-11 = {:.3g} vs fp32's\n"
                  "  2^-24 = {:.3g}. Emulated: inputs rounded to TF32 (RNE), exact products, fp32 sum.\n",
             0x1.0p-11, 0x1.0p-24);
  // TensorFlow's documentation example: 1.0001 is within half an ulp (2^-11) of 1 in TF32.
  float dot_fp32 = 0, dot_tf32 = 0;
  for (int i = 0; i < 1024; ++i) {
    dot_fp32 += 1.0001f;
    dot_tf32 += round_tf32(1.0001f);
  }
  fmt::print(out, "  sum of 1024 products 1.0001 x 1: fp32 {:.6g}, TF32 {:.6g} (1.0001 rounds to {} in TF32)\n",
             dot_fp32, dot_tf32, g(round_tf32(1.0001f)));
  fmt::print(out, "  C = A B, A {} x K, B K x {}, entries U[-1, 1), seed {}; relative L2 error vs fp64:\n", m, n, opt.seed);
  fmt::print(out, "  {:>8} {:>12} {:>12} {:>10}\n", "K", "fp32", "TF32", "TF32/fp32");
  std::vector<int> ks;
  for (std::int64_t k = kMinK; k < opt.max_k; k *= 4) ks.push_back(int(k));
  ks.push_back(int(opt.max_k));
  json rows = json::array();
  bool bounded = true;
  for (int k : ks) {
    const MatmulError e = tf32_matmul_error(m, n, k, opt.seed);
    fmt::print(out, "  {:>8} {:>12.3g} {:>12.3g} {:>10.0f}\n", k, e.rel_l2_fp32, e.rel_l2_tf32,
               e.rel_l2_tf32 / e.rel_l2_fp32);
    // Rounding each input moves each product by at most ~2u relative; with random signs the relative
    // error of the sum stays near u: a few units of 2^-11 whatever K is.
    bounded = bounded && e.rel_l2_tf32 <= 4 * 0x1.0p-11;
    rows.push_back({{"k", k}, {"rel_l2_fp32", e.rel_l2_fp32}, {"rel_l2_tf32", e.rel_l2_tf32}});
  }
  fmt::print(out, "  reading: TF32's error is set by rounding the inputs, so it stays near 2^-11 for every K; fp32's\n"
                  "  grows slowly with K (the running sum's rounding). Fine for training; not for a solver that\n"
                  "  needs fp32's 7 digits (cuBLAS uses TF32 only when asked: CUBLAS_COMPUTE_32F_FAST_TF32)\n");
  const std::string what = "TF32 relative L2 error <= 4 x 2^-11 at every K";
  print_check(out, what, bounded);
  Outcome o;
  o.passed = bounded;
  o.record = {{"m", m}, {"n", n}, {"seed", opt.seed}, {"rows", rows},
              {"tensorflow_example", {{"k", 1024}, {"value", 1.0001}, {"fp32", dot_fp32}, {"tf32", dot_tf32}}},
              {"emulation", "inputs rounded to 10 fraction bits by round to nearest, ties to even; products exact "
                            "in fp32; sequential fp32 accumulation (hardware accumulation order differs)"},
              {"checks", {check(what, bounded)}},
              {"source", "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), TF32: 8-bit exponent, 10-bit "
                         "mantissa; cuBLAS documentation, cublasComputeType_t CUBLAS_COMPUTE_32F_FAST_TF32; "
                         "TensorFlow API docs, tf.config.experimental.enable_tensor_float_32_execution (the "
                         "1.0001 example)"}};
  return o;
}

// -- fp8-range

Outcome run_fp8_range(std::FILE* out, const HazardsOptions& opt) {
  fmt::print(out, "  {:<10} {:>10} {:>11} {:>13} {:>16} {:>14}\n", "format", "max", "min normal", "min subnormal",
             "binades (+sub)", "unit roundoff");
  json facts = json::array();
  for (Format f : {Format::e4m3fn, Format::e5m2, Format::e4m3fnuz, Format::e5m2fnuz}) {
    const RangeFacts r = range_facts(f);
    fmt::print(out, "  {:<10} {:>10} {:>11} {:>13} {:>9.1f} ({:.1f}) {:>14}\n", r.name, g(r.max_finite),
               fmt::format("2^{}", std::lround(std::log2(r.min_normal))),
               fmt::format("2^{}", std::lround(std::log2(r.min_subnormal))), r.normal_binades,
               r.binades_with_subnormals, fmt::format("2^{}", std::lround(std::log2(r.unit_roundoff))));
    facts.push_back({{"format", r.name}, {"max_finite", r.max_finite}, {"min_normal", r.min_normal},
                     {"min_subnormal", r.min_subnormal}, {"normal_binades", r.normal_binades},
                     {"binades_with_subnormals", r.binades_with_subnormals}, {"unit_roundoff", r.unit_roundoff},
                     {"source", info(f).source ? info(f).source : ""}});
  }
  constexpr std::size_t samples = 65536;
  fmt::print(out, "  Cast with a per-tensor amax scale (max |x| -> max finite, saturating), {} samples, seed {}.\n"
                  "  The tensors are stand-ins, not taken from a model: N(0, 1) for normalized activations, and\n"
                  "  log-uniform magnitudes over D binades for tensors of wider range such as gradients.\n",
             thousands(std::int64_t(samples)), opt.seed);
  fmt::print(out, "  {:<24} | {:^32} | {:^32}\n", "", "e4m3fn", "e5m2");
  fmt::print(out, "  {:<24} | {:>7} {:>7} {:>9} {:>6} | {:>7} {:>7} {:>9} {:>6}\n", "tensor", "zero%", "subn%",
             "mean rel", "SQNR", "zero%", "subn%", "mean rel", "SQNR");
  std::vector<std::pair<std::string, std::vector<float>>> tensors;
  tensors.emplace_back("N(0, 1)", normal_tensor(samples, opt.seed));
  for (int d : {4, 8, 12, 16, 20, 24, 28, 32, 40})
    tensors.emplace_back(fmt::format("log-uniform, {} binades", d), log_uniform_tensor(samples, d, opt.seed));
  json rows = json::array();
  bool e5m2_keeps_wide = true;
  for (const auto& [label, x] : tensors) {
    const CastStats a = cast_with_amax_scale(x, Format::e4m3fn), b = cast_with_amax_scale(x, Format::e5m2);
    fmt::print(out, "  {:<24} | {:>7.2f} {:>7.2f} {:>9.4f} {:>6.1f} | {:>7.2f} {:>7.2f} {:>9.4f} {:>6.1f}\n", label,
               100 * a.zero_fraction, 100 * a.subnormal_fraction, a.mean_rel_error, a.sqnr_db, 100 * b.zero_fraction,
               100 * b.subnormal_fraction, b.mean_rel_error, b.sqnr_db);
    const auto stats = [](const CastStats& s) {
      return json{{"zero_fraction", s.zero_fraction}, {"subnormal_fraction", s.subnormal_fraction},
                  {"mean_rel_error", s.mean_rel_error}, {"sqnr_db", json_number(s.sqnr_db)}};
    };
    rows.push_back({{"tensor", label}, {"e4m3fn", stats(a)}, {"e5m2", stats(b)}});
    if (label.starts_with("log-uniform, 24")) e5m2_keeps_wide = b.zero_fraction == 0 && a.zero_fraction > 0;
  }
  fmt::print(out, "  reading: up to ~16 binades both formats hold every value, E4M3 at half E5M2's error (one more\n"
                  "  mantissa bit); beyond E4M3's 17.8 binades (subnormals included) it flushes the small values to\n"
                  "  zero, while E5M2 holds 31.8. Hence E4M3 for weights and activations, E5M2 for gradients\n"
                  "  (Micikevicius et al. 2022), whose magnitudes span far more binades (the reason fp16 training\n"
                  "  needed loss scaling: Micikevicius et al. 2018). SQNR barely moves: it weighs each value by its\n"
                  "  square, so it does not see the small values vanish. Measure your own tensors' range first.\n");
  const std::string what = "at 24 binades E4M3 flushes values to zero and E5M2 flushes none";
  print_check(out, what, e5m2_keeps_wide);
  Outcome o;
  o.passed = e5m2_keeps_wide;
  o.record = {{"facts", facts}, {"samples", samples}, {"seed", opt.seed}, {"rows", rows},
              {"scaling", "per-tensor: s = max_finite / max|x|; x -> decode(encode(x s, saturate)) / s"},
              {"checks", {check(what, e5m2_keeps_wide)}},
              {"source", "format facts: OCP 8-bit Floating Point Specification (OFP8) rev. 1.0 (2023) and AMD "
                         "documentation via the codec's info(); E4M3 for weights and activations, E5M2 for "
                         "gradients: P. Micikevicius et al., FP8 Formats for Deep Learning, arXiv:2209.05433 "
                         "(2022), sec. 3; gradient range and loss scaling: P. Micikevicius et al., Mixed Precision "
                         "Training, ICLR 2018, sec. 3.2"}};
  return o;
}

const std::vector<Hazard>& hazards() {
  static const std::vector<Hazard> list = {
      {"fp16-overflow", "fp16 overflow past 65504: an attention logit and its softmax", run_fp16_overflow},
      {"bf16-sum", "summing many small values in bf16: the running sum stalls", run_bf16_sum},
      {"variance", "catastrophic cancellation: one-pass variance vs Welford in fp32", run_variance},
      {"tf32-matmul", "TF32 matmul error vs fp32 as K grows", run_tf32_matmul},
      {"fp8-range", "fp8 E4M3 vs E5M2: dynamic range for activations vs gradients", run_fp8_range},
  };
  return list;
}

std::string joined_names() {
  std::string s;
  for (const auto& h : hazards()) s += (s.empty() ? "" : ", ") + std::string(h.name);
  return s;
}

int run_hazards(const HazardsOptions& o, Outputs& outputs, const std::string& command) {
  if (!o.only.empty() && std::none_of(hazards().begin(), hazards().end(), [&](const Hazard& h) { return o.only == h.name; }))
    throw UsageError(fmt::format("--only: unknown hazard '{}'; allowed: {}", o.only, joined_names()));
  if (o.max_k < kMinK || o.max_k > kMaxK || (o.max_k & (o.max_k - 1)) != 0)
    throw UsageError(fmt::format("--max-k: must be a power of two in [{}, {}], got {}", kMinK, kMaxK, o.max_k));
  std::FILE* out = outputs.human();
  fmt::print(out, "kind: simulation ({})\n", kMethod);
  json record = record_head("b04_numerics", "B04", "simulation", command, "hazards");
  record["method"] = kMethod;
  record["inputs"] = {{"only", o.only}, {"seed", o.seed}, {"sum_count", o.sum_count}, {"samples", o.samples},
                      {"max_k", o.max_k}};
  json experiments = json::array();
  bool all_passed = true;
  for (const Hazard& h : hazards()) {
    if (!o.only.empty() && o.only != h.name) continue;
    fmt::print(out, "\n== {}: {}\n", h.name, h.title);
    Outcome r = h.run(out, o);
    r.record["name"] = h.name;
    r.record["title"] = h.title;
    r.record["kind"] = "simulation";
    r.record["passed"] = r.passed;
    experiments.push_back(std::move(r.record));
    all_passed = all_passed && r.passed;
  }
  record["experiments"] = experiments;
  record["passed"] = all_passed;
  outputs.write_json(record);
  if (!all_passed) {
    fmt::print(stderr, "b04_numerics: hazards: a check did not hold (see 'DOES NOT HOLD' above)\n");
    return kExitCheckFailed;
  }
  return kExitOk;
}

}  // namespace

const std::vector<std::string>& hazard_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& h : hazards()) v.emplace_back(h.name);
    return v;
  }();
  return names;
}

std::function<int()> add_hazards_command(CLI::App& app, const std::string& command_line) {
  auto o = std::make_shared<HazardsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "hazards", "numerical hazards as short experiments: fp16 overflow, bf16 sum stall, one-pass variance, TF32 "
                 "matmul error, fp8 E4M3 vs E5M2 range (kind: simulation, CPU emulation)");
  cmd->add_option("--only", o->only, "run one experiment: " + joined_names());
  cmd->add_option("--seed", o->seed, "seed of the random inputs (default 1)")->check(decimal_integer());
  cmd->add_option("--sum-count", o->sum_count,
                  "bf16-sum: values per sum")
      ->check(decimal_integer())
      ->check(CLI::Range(std::int64_t(1), kMaxSumCount));
  cmd->add_option("--samples", o->samples,
                  "variance: samples per data set")
      ->check(decimal_integer())
      ->check(CLI::Range(std::int64_t(2), kMaxSamples));
  cmd->add_option("--max-k", o->max_k,
                  "tf32-matmul: largest inner dimension K, a power of two; K runs 64, 256, 1024, ... up to it")
      ->check(decimal_integer())
      ->check(CLI::Range(kMinK, kMaxK));
  auto outputs = std::make_shared<Outputs>(*cmd);
  return [cmd, outputs, o, command_line]() -> int {
    if (!cmd->parsed()) return -1;
    outputs->check();
    return run_hazards(*o, *outputs, command_line);
  };
}

}  // namespace tutor::b04
