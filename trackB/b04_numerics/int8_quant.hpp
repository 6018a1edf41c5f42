#pragma once
// Post-training quantization of a weight matrix with outlier input channels: symmetric int8 with
// one scale per tensor, per output channel or per group of input channels, per-tensor percentile
// clipping, and fp8 E4M3 with per-tensor and per-channel scales. The lesson: a few outlier
// channels set a per-tensor scale so large that the ordinary weights lose most of their bits.
//
// Layout: W is rows x cols, row-major, as a linear layer's weight (rows = output channels,
// cols = input channels; y = W x). "Per channel" means per output channel (one scale per row),
// the usual choice for weights because a row's scale can be applied to its output after the
// integer matmul (Nagel et al. 2021, "A White Paper on Neural Network Quantization",
// arXiv:2106.08295, sec. 2). A per-group scale covers `group_size` consecutive input channels
// of one row (group 128 as in GPTQ, Frantar et al., ICLR 2023, and AWQ, Lin et al., MLSys 2024).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "low_precision.hpp"

namespace tutor::b04 {

/// The synthetic weight matrix: N(0, sigma^2) entries, and `outlier_channels` input channels
/// (columns, chosen at random) multiplied by `outlier_scale`. Input-channel outliers are what
/// SmoothQuant (Xiao et al., ICML 2023) creates when it moves activation outliers (Dettmers et al.
/// 2022, LLM.int8(), sec. 3-4: outliers sit in a few fixed hidden dimensions) into the weights.
struct WeightSpec {
  int rows = 4096;               ///< output channels, >= 1
  int cols = 4096;               ///< input channels, >= 1
  double sigma = 0.02;           ///< standard deviation of the ordinary weights, > 0
  int outlier_channels = 4;      ///< in [0, cols]
  double outlier_scale = 50;     ///< >= 1
  std::uint64_t seed = 1;
};

struct WeightMatrix {
  int rows = 0, cols = 0;
  std::vector<float> values;         ///< rows x cols, row-major
  std::vector<int> outlier_columns;  ///< ascending
  std::vector<bool> is_outlier;      ///< per column
};

/// Builds the matrix (SeededRng: the same seed gives the same matrix with any compiler).
/// Throws std::invalid_argument naming the field when `spec` is out of range.
WeightMatrix make_weight_matrix(const WeightSpec& spec);

/// The grid values are rounded to.
enum class Grid {
  int8,      ///< symmetric, q in [-127, 127], scale = range / 127 (absmax quantization, LLM.int8() sec. 2)
  fp8_e4m3,  ///< OCP E4M3 (e4m3fn), scale = range / 448, encoded with saturation
};
/// Which weights share one scale.
enum class Granularity { per_tensor, per_channel, per_group };

/// One quantization recipe. The range a scale covers is the block's absmax, or with
/// clip_percentile < 100 that percentile of the block's |w| (values beyond it saturate).
struct QuantScheme {
  std::string name;
  Grid grid = Grid::int8;
  Granularity granularity = Granularity::per_tensor;
  int group_size = 128;          ///< per_group only, >= 1
  double clip_percentile = 100;  ///< in (0, 100]; 100 = absmax
};

/// The standard list: int8 per-tensor / per-channel / per-group absmax, int8 per-tensor clipped at
/// each percentile, fp8 E4M3 per-tensor and per-channel absmax.
std::vector<QuantScheme> standard_schemes(int group_size, std::span<const double> clip_percentiles);

/// W after quantize and dequantize (w^ = q s), with what the scales did.
struct QuantResult {
  std::vector<float> dequantized;   ///< same layout as W
  std::size_t scale_count = 0;      ///< number of scales stored
  double clipped_fraction = 0;      ///< weights with |w| above their block's range
  double zeroed_fraction = 0;       ///< nonzero weights that quantized to 0
};
/// Throws std::invalid_argument if the sizes disagree, the group size is < 1 or the percentile is
/// outside (0, 100].
QuantResult quantize_dequantize(std::span<const float> w, int rows, int cols, const QuantScheme& scheme);

/// The int8 scale of a block whose range is `range`: range / 127, or 1 for range 0 (all zero).
float int8_scale(float range);
/// clamp(round(x / scale), -127, 127), rounding half to even (std::nearbyint in the default mode).
std::int8_t quantize_int8(float x, float scale);

/// The p-th percentile (p in [0, 100]) of |x| with linear interpolation between closest ranks
/// (Hyndman & Fan 1996, definition 7; NumPy's default). Throws std::invalid_argument if x is empty.
double percentile_of_magnitudes(std::span<const float> x, double p);

/// Signal-to-quantization-noise ratio in dB: 10 log10(sum x^2 / sum (x - x^)^2); +inf when the
/// noise is 0. It equals -20 log10(relative L2 error). Throws std::invalid_argument on a size
/// mismatch or an all-zero signal.
double sqnr_db(std::span<const float> signal, std::span<const float> reconstruction);

/// The errors of one scheme on W.
struct QuantError {
  double max_abs_error = 0;           ///< max |w - w^|
  double rel_l2_error = 0;            ///< ||w - w^||_2 / ||w||_2
  double sqnr_db = 0;                 ///< over all weights (the outliers dominate the signal power)
  double sqnr_db_ordinary = 0;        ///< over the weights outside the outlier columns
  double max_abs_error_outliers = 0;  ///< max |w - w^| in the outlier columns (0 if none)
};
QuantError quantization_error(const WeightMatrix& w, std::span<const float> dequantized);

/// Adds the `int8` subcommand (with its own options) to `app`. The returned callable is invoked after
/// parsing: it returns -1 when `int8` was not the selected subcommand, else the exit code. It throws
/// tutor::UsageError for bad input found after parsing. `command_line` goes into the JSON record.
std::function<int()> add_int8_command(CLI::App& app, const std::string& command_line);

}  // namespace tutor::b04
