// b04_numerics int8: how the granularity of the scales decides what a few outlier channels do
// to int8 (and fp8) weights. See int8_quant.hpp for the layout and the recipes.
#include "int8_quant.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hazards.hpp"  // SeededRng
#include "tutor/cli.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"

namespace tutor::b04 {

using nlohmann::json;

namespace {
constexpr float kInt8Max = 127;      // symmetric grid [-127, 127]: LLM.int8() sec. 2, absmax quantization
constexpr float kE4m3MaxFinite = 448;  // OCP OFP8 rev. 1.0, E4M3: S.1111.110 = 1.75 x 2^8
}  // namespace

// ---- the matrix ------------------------------------------------------------------------------

WeightMatrix make_weight_matrix(const WeightSpec& s) {
  if (s.rows < 1) throw std::invalid_argument("rows: must be >= 1");
  if (s.cols < 1) throw std::invalid_argument("cols: must be >= 1");
  if (!(s.sigma > 0) || !std::isfinite(s.sigma)) throw std::invalid_argument("sigma: must be a finite number > 0");
  if (s.outlier_channels < 0 || s.outlier_channels > s.cols)
    throw std::invalid_argument("outlier_channels: must be in [0, cols]");
  if (!(s.outlier_scale >= 1) || !std::isfinite(s.outlier_scale))
    throw std::invalid_argument("outlier_scale: must be a finite number >= 1");
  WeightMatrix w;
  w.rows = s.rows;
  w.cols = s.cols;
  SeededRng rng(s.seed);
  // The outlier columns: the first k of a Fisher-Yates shuffle of 0..cols-1.
  std::vector<int> perm(std::size_t(s.cols));
  std::iota(perm.begin(), perm.end(), 0);
  for (int i = 0; i < s.outlier_channels; ++i) {
    const auto j = std::size_t(i) + std::size_t(rng.below(std::uint64_t(s.cols - i)));
    std::swap(perm[std::size_t(i)], perm[j]);
  }
  w.outlier_columns.assign(perm.begin(), perm.begin() + s.outlier_channels);
  std::sort(w.outlier_columns.begin(), w.outlier_columns.end());
  w.is_outlier.assign(std::size_t(s.cols), false);
  for (int c : w.outlier_columns) w.is_outlier[std::size_t(c)] = true;
  w.values.resize(std::size_t(s.rows) * std::size_t(s.cols));
  for (std::size_t r = 0; r < std::size_t(s.rows); ++r)
    for (std::size_t c = 0; c < std::size_t(s.cols); ++c) {
      const double scale = w.is_outlier[c] ? s.sigma * s.outlier_scale : s.sigma;
      w.values[r * std::size_t(s.cols) + c] = float(scale * rng.normal());
    }
  return w;
}

// ---- scalar pieces ---------------------------------------------------------------------------

float int8_scale(float range) { return range > 0 ? range / kInt8Max : 1.0f; }

std::int8_t quantize_int8(float x, float scale) {
  const float q = std::nearbyint(x / scale);  // ties to even in the default rounding mode
  return static_cast<std::int8_t>(std::clamp(q, -kInt8Max, kInt8Max));
}

double percentile_of_magnitudes(std::span<const float> x, double p) {
  if (x.empty()) throw std::invalid_argument("percentile_of_magnitudes: no values");
  if (!(p >= 0 && p <= 100)) throw std::invalid_argument("percentile_of_magnitudes: p must be in [0, 100]");
  std::vector<float> m(x.size());
  std::transform(x.begin(), x.end(), m.begin(), [](float v) { return std::abs(v); });
  // Hyndman & Fan definition 7: h = (n - 1) p; interpolate between the order statistics floor(h), +1.
  const double h = double(m.size() - 1) * p / 100.0;
  const auto lo = std::size_t(std::floor(h));
  std::nth_element(m.begin(), m.begin() + std::ptrdiff_t(lo), m.end());
  const double below = m[lo];
  if (lo + 1 >= m.size()) return below;
  const double above = *std::min_element(m.begin() + std::ptrdiff_t(lo) + 1, m.end());
  return below + (h - double(lo)) * (above - below);
}

double sqnr_db(std::span<const float> signal, std::span<const float> reconstruction) {
  if (signal.size() != reconstruction.size()) throw std::invalid_argument("sqnr_db: sizes differ");
  double s = 0, n = 0;
  for (std::size_t i = 0; i < signal.size(); ++i) {
    s += double(signal[i]) * signal[i];
    const double e = double(signal[i]) - reconstruction[i];
    n += e * e;
  }
  if (!(s > 0)) throw std::invalid_argument("sqnr_db: the signal is all zero");
  return n > 0 ? 10 * std::log10(s / n) : std::numeric_limits<double>::infinity();
}

// ---- schemes ---------------------------------------------------------------------------------

std::vector<QuantScheme> standard_schemes(int group_size, std::span<const double> clip_percentiles) {
  std::vector<QuantScheme> s = {
      {"int8 per-tensor absmax", Grid::int8, Granularity::per_tensor, group_size, 100},
      {"int8 per-channel absmax", Grid::int8, Granularity::per_channel, group_size, 100},
      {fmt::format("int8 per-group({}) absmax", group_size), Grid::int8, Granularity::per_group, group_size, 100},
  };
  for (double p : clip_percentiles)
    s.push_back({fmt::format("int8 per-tensor clip p{:g}", p), Grid::int8, Granularity::per_tensor, group_size, p});
  s.push_back({"fp8 e4m3 per-tensor absmax", Grid::fp8_e4m3, Granularity::per_tensor, group_size, 100});
  s.push_back({"fp8 e4m3 per-channel absmax", Grid::fp8_e4m3, Granularity::per_channel, group_size, 100});
  return s;
}

QuantResult quantize_dequantize(std::span<const float> w, int rows, int cols, const QuantScheme& scheme) {
  if (rows < 1 || cols < 1 || w.size() != std::size_t(rows) * std::size_t(cols))
    throw std::invalid_argument("quantize_dequantize: w must hold rows x cols values");
  if (scheme.granularity == Granularity::per_group && scheme.group_size < 1)
    throw std::invalid_argument("quantize_dequantize: group_size must be >= 1");
  if (!(scheme.clip_percentile > 0 && scheme.clip_percentile <= 100))
    throw std::invalid_argument("quantize_dequantize: clip_percentile must be in (0, 100]");
  // Every block is a contiguous run of W: the whole tensor, a row, or a group within a row.
  const std::size_t n = w.size(), row_len = std::size_t(cols);
  const bool whole = scheme.granularity == Granularity::per_tensor;
  const std::size_t run = whole ? n : row_len;  // blocks never straddle a run
  const std::size_t block = whole                                            ? n
                            : scheme.granularity == Granularity::per_channel ? row_len
                                                                             : std::min(std::size_t(scheme.group_size), row_len);
  QuantResult r;
  r.dequantized.resize(n);
  std::size_t clipped = 0, zeroed = 0, nonzero = 0;
  for (std::size_t run_start = 0; run_start < n; run_start += run) {
    for (std::size_t b = run_start; b < run_start + run; b += block) {
      const auto x = w.subspan(b, std::min(block, run_start + run - b));
      float range = 0;
      if (scheme.clip_percentile < 100) {
        range = float(percentile_of_magnitudes(x, scheme.clip_percentile));
      } else {
        for (float v : x) range = std::max(range, std::abs(v));
      }
      ++r.scale_count;
      float* out = &r.dequantized[b];
      if (scheme.grid == Grid::int8) {
        const float scale = int8_scale(range);
        for (std::size_t i = 0; i < x.size(); ++i) out[i] = float(quantize_int8(x[i], scale)) * scale;
      } else {
        const float scale = range > 0 ? range / kE4m3MaxFinite : 1.0f;
        for (std::size_t i = 0; i < x.size(); ++i)
          out[i] = decode(Format::e4m3fn, encode(Format::e4m3fn, x[i] / scale, Overflow::saturate)) * scale;
      }
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (std::abs(x[i]) > range) ++clipped;
        if (x[i] != 0) {
          ++nonzero;
          if (out[i] == 0) ++zeroed;
        }
      }
    }
  }
  r.clipped_fraction = double(clipped) / double(n);
  r.zeroed_fraction = nonzero ? double(zeroed) / double(nonzero) : 0;
  return r;
}

QuantError quantization_error(const WeightMatrix& w, std::span<const float> dq) {
  if (dq.size() != w.values.size()) throw std::invalid_argument("quantization_error: sizes differ");
  double signal = 0, noise = 0, signal_ord = 0, noise_ord = 0;
  QuantError e;
  const std::size_t cols = std::size_t(w.cols);
  for (std::size_t i = 0; i < dq.size(); ++i) {
    const double x = w.values[i], d = x - double(dq[i]);
    signal += x * x;
    noise += d * d;
    e.max_abs_error = std::max(e.max_abs_error, std::abs(d));
    if (w.is_outlier[i % cols]) {
      e.max_abs_error_outliers = std::max(e.max_abs_error_outliers, std::abs(d));
    } else {
      signal_ord += x * x;
      noise_ord += d * d;
    }
  }
  const auto db = [](double s, double n) {
    return n > 0 ? 10 * std::log10(s / n) : std::numeric_limits<double>::infinity();
  };
  e.rel_l2_error = signal > 0 ? std::sqrt(noise / signal) : 0;
  e.sqnr_db = db(signal, noise);
  e.sqnr_db_ordinary = signal_ord > 0 ? db(signal_ord, noise_ord) : std::numeric_limits<double>::quiet_NaN();
  return e;
}

// ---- the subcommand --------------------------------------------------------------------------

namespace {

constexpr int kMaxDim = 16384;
constexpr std::int64_t kMaxWeights = std::int64_t(1) << 25;  // 33.5 M weights: ~400 MB at peak

struct Int8Options {
  WeightSpec spec;
  int group_size = 128;
  std::vector<double> clip_percentiles = {99.9, 99.99};
};

const char* to_string(Grid g) { return g == Grid::int8 ? "int8" : "fp8_e4m3fn"; }
const char* to_string(Granularity g) {
  return g == Granularity::per_tensor ? "per_tensor" : g == Granularity::per_channel ? "per_channel" : "per_group";
}

std::string columns_text(const std::vector<int>& cols) {
  std::string s;
  const std::size_t shown = std::min<std::size_t>(cols.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) s += (i ? ", " : "") + std::to_string(cols[i]);
  if (cols.size() > shown) s += fmt::format(", ... ({} in all)", cols.size());
  return s;
}

int run_int8(Int8Options o, Outputs& outputs, const std::string& command) {
  const WeightSpec& s = o.spec;
  if (std::int64_t(s.rows) * s.cols > kMaxWeights)
    throw UsageError(fmt::format("--rows x --cols: at most {} weights, got {} x {}", thousands(kMaxWeights), s.rows,
                                 s.cols));
  if (s.outlier_channels > s.cols)
    throw UsageError(fmt::format("--outlier-channels: must be in [0, --cols = {}], got {}", s.cols, s.outlier_channels));
  if (o.clip_percentiles.size() > 8)
    throw UsageError(fmt::format("--clip-percentiles: at most 8 values, got {}", o.clip_percentiles.size()));
  for (double p : o.clip_percentiles)
    if (!(p >= 50 && p < 100))
      throw UsageError(fmt::format("--clip-percentiles: each must be in [50, 100), got {:g}", p));

  const WeightMatrix w = make_weight_matrix(s);
  std::FILE* out = outputs.human();
  fmt::print(out, "kind: simulation (quantize and dequantize on the CPU, fp8 through the b04 codec; no GPU ran)\n");
  const std::string outliers =
      s.outlier_channels == 0
          ? std::string("no outlier channels")
          : fmt::format("{} outlier input channel{} x{:g} (column{} {})", s.outlier_channels,
                        s.outlier_channels == 1 ? "" : "s", s.outlier_scale, s.outlier_channels == 1 ? "" : "s",
                        columns_text(w.outlier_columns));
  fmt::print(out, "W: {} x {} (rows = output channels, columns = input channels), N(0, {:g}^2); {}; seed {}\n",
             s.rows, s.cols, s.sigma, outliers, s.seed);
  float amax = 0;
  for (float v : w.values) amax = std::max(amax, std::abs(v));
  fmt::print(out, "max |w| = {:.4g} = {:.0f} sigma: the per-tensor int8 step is {:.3g} = {:.2f} sigma\n\n", amax,
             amax / s.sigma, int8_scale(amax), int8_scale(amax) / s.sigma);

  const auto schemes = standard_schemes(o.group_size, o.clip_percentiles);
  // Run every scheme first (progress on a terminal), then print the table in one piece.
  std::vector<QuantResult> results;
  std::vector<QuantError> errors;
  const bool progress = ::isatty(STDERR_FILENO) && w.values.size() >= (std::size_t(1) << 22);
  for (const QuantScheme& q : schemes) {
    if (progress) fmt::print(stderr, "\rquantizing: {} ({}/{})        ", q.name, results.size() + 1, schemes.size());
    QuantResult r = quantize_dequantize(w.values, w.rows, w.cols, q);
    errors.push_back(quantization_error(w, r.dequantized));
    r.dequantized = {};  // keep only the statistics
    results.push_back(std::move(r));
  }
  if (progress) fmt::print(stderr, "\r{:70}\r", "");

  fmt::print(out, "{:<31} {:>9} {:>8} {:>8} {:>10} {:>9} {:>8} {:>10} {:>12}\n", "scheme", "scales", "clipped",
             "zeroed", "max|err|", "rel L2", "SQNR dB", "SQNR dB", "max|err|");
  fmt::print(out, "{:<31} {:>9} {:>8} {:>8} {:>10} {:>9} {:>8} {:>10} {:>12}\n", "", "", "%", "%", "", "", "all",
             "ordinary", "outliers");
  json rows = json::array();
  std::vector<double> zeroed;
  for (std::size_t i = 0; i < schemes.size(); ++i) {
    const QuantScheme& q = schemes[i];
    const QuantResult& r = results[i];
    const QuantError& e = errors[i];
    zeroed.push_back(r.zeroed_fraction);
    fmt::print(out, "{:<31} {:>9} {:>8.3f} {:>8.2f} {:>10.3g} {:>9.3g} {:>8.1f} {:>10.1f} {:>12}\n", q.name,
               thousands(std::int64_t(r.scale_count)), 100 * r.clipped_fraction, 100 * r.zeroed_fraction,
               e.max_abs_error, e.rel_l2_error, e.sqnr_db, e.sqnr_db_ordinary,
               w.outlier_columns.empty() ? std::string("-") : fmt::format("{:.3g}", e.max_abs_error_outliers));
    rows.push_back({{"name", q.name}, {"grid", to_string(q.grid)}, {"granularity", to_string(q.granularity)},
                    {"group_size", q.granularity == Granularity::per_group ? json(q.group_size) : json(nullptr)},
                    {"clip_percentile", q.clip_percentile}, {"scale_count", r.scale_count},
                    {"clipped_fraction", r.clipped_fraction}, {"zeroed_fraction", r.zeroed_fraction},
                    {"max_abs_error", e.max_abs_error}, {"rel_l2_error", e.rel_l2_error},
                    {"sqnr_db", json_number(e.sqnr_db)}, {"sqnr_db_ordinary", json_number(e.sqnr_db_ordinary)},
                    {"max_abs_error_outliers", e.max_abs_error_outliers}});
  }
  // The lesson, in this run's numbers (schemes 0..2 are int8 per-tensor, per-channel, per-group).
  fmt::print(out, "\nreading:\n");
  const bool has_ordinary = s.outlier_channels < s.cols;
  fmt::print(out, "  per-tensor: one scale for all weights, set by the largest: {:.1f}% of the weights round to 0",
             100 * zeroed[0]);
  if (has_ordinary)
    fmt::print(out, ", and\n  the ordinary weights keep {:.1f} dB vs {:.1f} dB per-group({})", errors[0].sqnr_db_ordinary,
               errors[2].sqnr_db_ordinary, o.group_size);
  fmt::print(out, "\n");
  if (s.outlier_channels > 0 && has_ordinary) {
    fmt::print(out, "  per-channel (one scale per output row): {:.1f} dB; every row crosses the outlier input columns,\n"
                    "  so every row's absmax is an outlier too; per-group confines the outliers to their own groups\n",
               errors[1].sqnr_db_ordinary);
    if (schemes.size() > 3 && schemes[3].clip_percentile < 100)
      fmt::print(out, "  clipping trades the outliers for the rest: {} errs by up to {:.3g} on outlier weights, and\n"
                      "  LLM.int8() shows such outlier features carry the model's quality (Dettmers et al. 2022, sec. 4)\n",
                 schemes[3].name, errors[3].max_abs_error_outliers);
  }
  if (has_ordinary)
    fmt::print(out, "  fp8 e4m3 has the same relative step (3 fraction bits) at every magnitude of its range, so a\n"
                    "  per-tensor scale costs it little: {:.1f} dB on the ordinary weights\n",
               errors[errors.size() - 2].sqnr_db_ordinary);

  if (outputs.json()) {
    json j = record_head("b04_numerics", "B04", "simulation", command, "int8");
    j["method"] = "quantize and dequantize on the CPU (int8: clamp(round_half_even(w / s), -127, 127) s; fp8: the "
                  "b04 codec's e4m3fn encode with saturation and decode); no GPU ran";
    j["problem"] = {{"rows", s.rows}, {"cols", s.cols}, {"sigma", s.sigma}, {"outlier_channels", s.outlier_channels},
                    {"outlier_columns", w.outlier_columns}, {"outlier_scale", s.outlier_scale}, {"seed", s.seed},
                    {"group_size", o.group_size}, {"clip_percentiles", o.clip_percentiles},
                    {"layout", "row-major rows x cols; rows = output channels, cols = input channels"}};
    j["schemes"] = rows;
    j["formulas"] = {{"int8", "s = range / 127; q = clamp(round_half_even(w / s), -127, 127); w^ = q s"},
                     {"fp8_e4m3", "s = range / 448; w^ = decode(encode_e4m3fn(w / s, saturate)) s"},
                     {"range", "absmax of the block, or the clip percentile of its |w| (Hyndman-Fan 7)"},
                     {"rel_l2_error", "||w - w^||_2 / ||w||_2"},
                     {"sqnr_db", "10 log10(sum w^2 / sum (w - w^)^2) = -20 log10(rel_l2_error)"}};
    j["sources"] = {
        "B. Jacob et al., Quantization and Training of Neural Networks for Efficient Integer-Arithmetic-Only "
        "Inference, CVPR 2018 (affine quantization scheme, sec. 2)",
        "M. Nagel et al., A White Paper on Neural Network Quantization, arXiv:2106.08295 (2021), sec. 2 "
        "(symmetric uniform quantization, per-tensor vs per-channel)",
        "T. Dettmers et al., LLM.int8(): 8-bit Matrix Multiplication for Transformers at Scale, NeurIPS 2022 "
        "(absmax quantization sec. 2; outlier features sec. 4)",
        "H. Wu et al., Integer Quantization for Deep Learning Inference: Principles and Empirical Evaluation, "
        "arXiv:2004.09602 (2020) (percentile calibration)",
        "E. Frantar et al., GPTQ, ICLR 2023, and J. Lin et al., AWQ, MLSys 2024 (groups of 128 input channels)",
        "P. Micikevicius et al., FP8 Formats for Deep Learning, arXiv:2209.05433 (2022) (E4M3 max 448; fp8 "
        "post-training quantization)"};
    outputs.write_json(j);
  }
  return kExitOk;
}

}  // namespace

std::function<int()> add_int8_command(CLI::App& app, const std::string& command_line) {
  auto o = std::make_shared<Int8Options>();
  CLI::App* cmd = app.add_subcommand(
      "int8", "int8 quantization of a weight matrix with outlier channels: per-tensor vs per-channel vs "
              "per-group absmax, percentile clipping, and fp8 E4M3 (kind: simulation)");
  cmd->add_option("--rows", o->spec.rows, "output channels")
      ->check(decimal_integer())
      ->check(CLI::Range(1, kMaxDim));
  cmd->add_option("--cols", o->spec.cols, fmt::format("input channels (rows x cols at most {})", thousands(kMaxWeights)))
      ->check(decimal_integer())
      ->check(CLI::Range(1, kMaxDim));
  cmd->add_option("--sigma", o->spec.sigma, "standard deviation of the ordinary weights")
      ->check(finite_number())
      ->check(CLI::Range(1e-6, 1e3));
  cmd->add_option("--outlier-channels", o->spec.outlier_channels, "input channels scaled by --outlier-scale (at most "
                                                                  "--cols)")
      ->check(decimal_integer())
      ->check(CLI::Range(0, kMaxDim));
  cmd->add_option("--outlier-scale", o->spec.outlier_scale, "factor of the outlier channels")
      ->check(finite_number())
      ->check(CLI::Range(1.0, 1e4));
  cmd->add_option("--group-size", o->group_size, "input channels per scale of the per-group scheme")
      ->check(decimal_integer())
      ->check(CLI::Range(1, kMaxDim));
  cmd->add_option("--clip-percentiles", o->clip_percentiles,
                  "percentiles of |w| the clipped per-tensor schemes cover, each in [50, 100) (default 99.9 99.99)")
      ->check(finite_number());
  cmd->add_option("--seed", o->spec.seed, "seed of the weights and the outlier columns (default 1)")
      ->check(decimal_integer());
  auto outputs = std::make_shared<Outputs>(*cmd);
  return [cmd, outputs, o, command_line]() -> int {
    if (!cmd->parsed()) return -1;
    outputs->check();
    return run_int8(*o, *outputs, command_line);
  };
}

}  // namespace tutor::b04
