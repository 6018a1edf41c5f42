#pragma once
// A05: the host side of the histogram ladder (C++20): the binning rule, the exact CPU
// histogram every step is checked against, and the sample generators of the contention sweep.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tutor::a05 {

/// 8-bit samples: bins even over 0..255, `bins` a power of two from 16 to 256, so each bin
/// holds 256 / bins sample values: bin = sample * bins / 256.
inline int bin_of_u8(std::uint8_t s, int bins) { return (int(s) * bins) >> 8; }
/// fp32 samples in [0, 1): bin = int(sample * float(bins)), one fp32 multiply rounded to
/// nearest (IEEE 754), so host and GPU agree bit for bit; clamped to the last bin.
inline int bin_of_f32(float s, int bins) {
  const int b = int(s * float(bins));
  return b < bins ? b : bins - 1;
}

/// The exact CPU histogram (counts in 32 bits). Throws std::invalid_argument on bins out of range
/// (8-bit: a power of two 16..256; fp32: 16..65,536) or a fp32 sample outside [0, 1).
std::vector<std::uint32_t> histogram_reference(std::span<const std::uint8_t> samples, int bins);
std::vector<std::uint32_t> histogram_reference(std::span<const float> samples, int bins);

/// How samples fall into bins. `hot` : each sample lands in bin 0 with probability
/// hot_percent / 100, otherwise in a uniformly chosen bin (0 = uniform, 100 = all in one bin).
/// `zipf`: bin k (0-based) with probability proportional to 1 / (k + 1) (Zipf, exponent 1).
enum class Spread { hot, zipf };

struct Distribution {
  Spread spread = Spread::hot;
  int hot_percent = 0;
  std::string label() const;  ///< "uniform", "one_bin", "hot 30%", "zipf"
};

/// Fills `out` with samples whose bins follow `d`, from a counter-based generator (SplitMix64),
/// so the same seed gives the same samples on every machine. Throws std::invalid_argument on
/// bins out of range.
void draw_samples(std::span<std::uint8_t> out, int bins, const Distribution& d, std::uint64_t seed);
void draw_samples(std::span<float> out, int bins, const Distribution& d, std::uint64_t seed);

/// A sample that falls in bin `b`. 8-bit: one of the bin's 256/bins values, chosen by `r`
/// (every value of the bin, edges included, occurs). fp32: (b + u) / bins with u in
/// [1/16, 15/16] chosen by `r`: at least 1/16 of a bin from each edge, so every correct
/// even-bin formula (the vendor's too) agrees; edge cases are the host tests' job.
std::uint8_t sample_u8(int b, int bins, std::uint64_t r);
float sample_f32(int b, int bins, std::uint64_t r);

}  // namespace tutor::a05
