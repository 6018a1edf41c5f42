#pragma once
// The numerical hazards of low-precision training and inference, each as a small experiment
// run on the CPU with bit-exact emulation of the narrow formats (no GPU is used):
//
//   fp16-overflow  exp() of an attention logit above ln(65520) is inf in fp16; softmax then
//                  gives NaN; subtracting the row maximum first removes the hazard.
//   bf16-sum       a running sum kept in bf16 stops growing once each addend is below half an
//                  ulp of the sum (1 + 1 + ... stalls at 256).
//   variance       the one-pass formula E[x^2] - E[x]^2 cancels catastrophically when the mean
//                  is large; Welford's update does not.
//   tf32-matmul    a matmul whose inputs are rounded to TF32 (10 fraction bits) against one in
//                  fp32, for growing K.
//   fp8-range      E4M3 vs E5M2: range against precision, on tensors whose magnitudes span a
//                  few binades (activations) or many (gradients).
//
// How the emulation works: an fp16 or bf16 operation is the fp32 operation rounded to the
// narrow format with the codec's to_fp16 / to_bf16 (round to nearest, ties to even). That is
// the correctly rounded narrow result, because fp32 carries p' = 24 >= 2p + 2 significand bits
// for fp16 (p = 11) and bf16 (p = 8), so rounding twice is innocuous (S. A. Figueroa, "When is
// double rounding innocuous?", ACM SIGNUM Newsletter 30(3), 1995).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "low_precision.hpp"

namespace tutor::b04 {

// ---- shared by the hazards and int8 subcommands --------------------------------------------

/// Uniform and normal draws from a 64-bit Mersenne Twister, whose output sequence the C++ standard
/// fixes ([rand.predef]); the transforms are written here (the standard library's distributions
/// differ between implementations), so a seed gives the same data with any compiler.
class SeededRng {
 public:
  explicit SeededRng(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, 1), 53 random bits.
  double uniform() { return double(engine_() >> 11) * 0x1.0p-53; }
  /// Standard normal, Box-Muller (G. E. P. Box, M. E. Muller, Ann. Math. Statist. 29(2), 1958).
  double normal();
  /// Uniform integer in [0, n), n >= 1.
  std::uint64_t below(std::uint64_t n) { return std::uint64_t(uniform() * double(n)) % n; }

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0;
};


// ---- rounding helpers ------------------------------------------------------------------------

/// x rounded to fp16 (IEEE 754-2019 binary16), returned as fp32; RNE, overflow to +-inf.
float round_fp16(float x);
/// x rounded to bf16 (8 exponent bits, 7 fraction bits), returned as fp32; RNE.
float round_bf16(float x);
/// x rounded to TF32: fp32's 8-bit exponent with 10 fraction bits (NVIDIA A100 Tensor Core GPU
/// Architecture whitepaper, 2020, "TF32"; cuBLAS CUBLAS_COMPUTE_32F_FAST_TF32), by round to nearest,
/// ties to even on the 13 dropped bits; NaN and inf pass through; values that round past TF32's
/// largest finite value become inf. This is an emulation choice: CUDA's wmma::__float_to_tf32 uses
/// cvt.rna (ties away from zero, crt/mma.h), which differs from RNE only on exact ties.
float round_tf32(float x);
/// The spacing of numbers with `fraction_bits` fraction bits at |x| (a normal number of a format with
/// fp32's exponent range): 2^(e - fraction_bits) for |x| in [2^e, 2^(e+1)). x must be finite and != 0.
float ulp(float x, int fraction_bits);

// ---- fp16-overflow ---------------------------------------------------------------------------

/// Where fp16 overflows, found by searching the codec, not assumed.
struct Fp16Limits {
  float max_finite = 0;          ///< largest finite fp16: (2 - 2^-10) x 2^15 = 65504
  float overflow_threshold = 0;  ///< smallest fp32 value that rounds to +inf in fp16 (65520)
  float exp_overflow_logit = 0;  ///< smallest fp16 x with round_fp16(exp(x)) = inf (11.09375)
  double exp_overflow_exact = 0; ///< ln(overflow_threshold): the real-valued threshold of exp
};
Fp16Limits fp16_limits();

/// Softmax of one row of logits (each a value of fp16) with every operation rounded to fp16:
/// e_i = fp16(exp(x_i)), s = fp16(s + e_i) in order, p_i = fp16(e_i / s). An exp above 65504
/// becomes inf, s becomes inf, and p_i is NaN (inf / inf) or 0 (finite / inf).
std::vector<float> softmax_fp16_naive(std::span<const float> logits);
/// The same with the row maximum m subtracted first, d_i = fp16(x_i - m): softmax(x) = softmax(x - m)
/// exactly, and every exp is then <= 1, so nothing can overflow.
std::vector<float> softmax_fp16_max_subtracted(std::span<const float> logits);
/// Softmax in fp64 with the maximum subtracted: the reference.
std::vector<double> softmax_reference(std::span<const float> logits);

/// One attention score s = scale * (q . k) as a GEMM with fp32 accumulation and an fp16 output would
/// produce it. scale_first = false: fp32 sum of q_i k_i, stored to fp16, then multiplied by scale
/// in fp16 (an inf stays inf). scale_first = true: q_i is multiplied by scale and rounded to fp16
/// before the dot product, so the stored value is already scaled. q and k have equal lengths.
float attention_score_fp16(std::span<const float> q, std::span<const float> k, float scale, bool scale_first);

// ---- bf16-sum --------------------------------------------------------------------------------

/// The first addition that left a running bf16 sum unchanged.
struct SumStall {
  bool stalled = false;
  std::int64_t step = 0;  ///< 1-based index of the first addend with x != 0 and bf16(sum + x) == sum
  float sum = 0;          ///< the running sum at that step
  float addend = 0;       ///< the addend that was lost
  float half_ulp = 0;     ///< ulp(sum)/2 for bf16 (7 fraction bits): x below it is lost, at it a tie
};

/// One sum of n values in four ways. The inputs are first rounded to bf16 (the tensor holds bf16).
struct SumComparison {
  std::size_t n = 0;
  double reference = 0;        ///< fp64 sum of the bf16 inputs
  float bf16_sequential = 0;   ///< running sum rounded to bf16 after every addition
  float bf16_pairwise = 0;     ///< pairwise (recursive halving) sum, every addition rounded to bf16
  float fp32_sequential = 0;   ///< running sum in fp32 (an fp32 accumulator, as tensor cores use)
  SumStall stall;              ///< of bf16_sequential
};
/// Throws std::invalid_argument if `values` is empty.
SumComparison sum_in_bf16(std::span<const float> values);

// ---- variance --------------------------------------------------------------------------------

/// Population variance (divide by n) of fp32 data, three fp32 algorithms and an fp64 reference.
/// One pass, textbook: mean = sum/n, var = sumsq/n - mean^2 (each operation in fp32, in that order).
float variance_one_pass(std::span<const float> x);
/// Welford's update (B. P. Welford, Technometrics 4(3), 1962): delta = x - mean; mean += delta/k;
/// m2 += delta (x - mean); var = m2/n; all in fp32.
float variance_welford(std::span<const float> x);
/// Two passes in fp32: the mean, then the sum of squared deviations.
float variance_two_pass(std::span<const float> x);
/// Two passes in fp64 on the same fp32 data.
double variance_reference(std::span<const float> x);
/// The condition number of the variance, kappa = ||x||_2 / sqrt(S) = sqrt(1 + n mean^2 / S) with
/// S = sum (x_i - mean)^2 (Chan, Golub & LeVeque, "Algorithms for computing the sample variance",
/// The American Statistician 37(3), 1983). The one-pass formula's relative error grows like
/// kappa^2 u, the updating (Welford) and two-pass algorithms' like kappa u or better.
double variance_condition_number(std::span<const float> x);

// ---- tf32-matmul -----------------------------------------------------------------------------

/// Relative L2 errors of C = A B (A: m x k, B: k x n, uniform in [-1, 1)) against an fp64 product of
/// the same fp32 inputs: with fp32 inputs and an fp32 running sum, and with inputs rounded to TF32
/// first (products of two TF32 values are exact in fp32: 11 + 11 <= 24 bits) and an fp32 sum.
struct MatmulError {
  int k = 0;
  double rel_l2_fp32 = 0;
  double rel_l2_tf32 = 0;
};
/// Throws std::invalid_argument unless m, n, k >= 1.
MatmulError tf32_matmul_error(int m, int n, int k, std::uint64_t seed);

// ---- fp8-range -------------------------------------------------------------------------------

/// Range facts of an 8-bit format from the codec's info().
struct RangeFacts {
  Format format{};
  std::string name;
  double max_finite = 0, min_normal = 0, min_subnormal = 0;
  double normal_binades = 0;       ///< log2(max_finite / min_normal)
  double binades_with_subnormals = 0;  ///< log2(max_finite / min_subnormal)
  double unit_roundoff = 0;        ///< 2^-(mantissa_bits + 1): the largest relative error of RNE on a normal
};
RangeFacts range_facts(Format f);

/// What casting a tensor to an 8-bit format with a per-tensor amax scale does to it: x is multiplied by
/// s = max_finite / max|x| (the largest magnitude lands on the largest finite value), encoded with
/// saturation, decoded and divided by s.
struct CastStats {
  double zero_fraction = 0;       ///< nonzero inputs that became 0 (underflow)
  double subnormal_fraction = 0;  ///< nonzero inputs that landed on a subnormal (fewer significant bits)
  double mean_rel_error = 0;      ///< mean of |x^ - x| / |x| over nonzero inputs (an underflow counts 1)
  double sqnr_db = 0;             ///< 10 log10(sum x^2 / sum (x - x^)^2)
};
/// Throws std::invalid_argument if x is empty or all zero, or `f` is not e4m3fn/e5m2/e4m3fnuz/e5m2fnuz.
CastStats cast_with_amax_scale(std::span<const float> x, Format f);

/// n values whose magnitudes are log-uniform over `binades` binades below 1 (|x| = 2^(-binades u),
/// u ~ U[0, 1)) with random signs: a stand-in for a tensor whose values span that dynamic range.
std::vector<float> log_uniform_tensor(std::size_t n, double binades, std::uint64_t seed);
/// n values from N(0, 1): a stand-in for activations after a normalization layer.
std::vector<float> normal_tensor(std::size_t n, std::uint64_t seed);

// ---- the subcommand --------------------------------------------------------------------------

/// The experiment names `--only` accepts, in the order they run.
const std::vector<std::string>& hazard_names();

/// Adds the `hazards` subcommand (with its own options) to `app`. The returned callable is invoked
/// after parsing: it returns -1 when `hazards` was not the selected subcommand, else the exit code.
/// It throws tutor::UsageError for bad input found after parsing. `command_line` goes into the JSON.
std::function<int()> add_hazards_command(CLI::App& app, const std::string& command_line);

}  // namespace tutor::b04
