#include "histogram_reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tutor::a05 {
namespace {

void check_bins(int bins, bool u8) {
  const bool pow2 = bins > 0 && (bins & (bins - 1)) == 0;
  if (u8 ? !(pow2 && bins >= 16 && bins <= 256) : !(bins >= 16 && bins <= 65536))
    throw std::invalid_argument(u8 ? "8-bit samples: bins must be a power of two from 16 to 256"
                                   : "fp32 samples: bins must be 16..65536");
}

// SplitMix64's output function (Steele, Lea, Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014), used as a counter-based hash: sample i of a seed gets the mix of
// seed + i + golden gamma (not the SplitMix64 sequence, which steps by the gamma), so seeds s and
// s + 1 give the same words shifted by one sample.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

std::vector<std::uint32_t> histogram_reference(std::span<const std::uint8_t> samples, int bins) {
  check_bins(bins, true);
  std::vector<std::uint32_t> counts(std::size_t(bins), 0);
  for (std::uint8_t s : samples) ++counts[std::size_t(bin_of_u8(s, bins))];
  return counts;
}

std::vector<std::uint32_t> histogram_reference(std::span<const float> samples, int bins) {
  check_bins(bins, false);
  std::vector<std::uint32_t> counts(std::size_t(bins), 0);
  for (float s : samples) {
    if (!(s >= 0.0f && s < 1.0f)) throw std::invalid_argument("fp32 samples must lie in [0, 1)");
    ++counts[std::size_t(bin_of_f32(s, bins))];
  }
  return counts;
}

std::string Distribution::label() const {
  if (spread == Spread::zipf) return "zipf";
  if (hot_percent == 0) return "uniform";
  if (hot_percent == 100) return "one_bin";
  return "hot " + std::to_string(hot_percent) + "%";
}

namespace {

// Calls put(i, bin, random word) for every sample i, the bin drawn from `d`.
template <class Put>
void draw(std::size_t n, int bins, const Distribution& d, std::uint64_t seed, Put put) {
  if (d.spread == Spread::zipf) {
    // Inverse CDF of Zipf(1) over `bins` ranks, tabulated at 2^20 evenly spaced quantiles:
    // a sample takes the top 20 bits of its random word as its quantile.
    constexpr int kTable = 1 << 20;
    std::vector<double> cdf(static_cast<std::size_t>(bins));
    double sum = 0;
    for (int k = 0; k < bins; ++k) cdf[std::size_t(k)] = (sum += 1.0 / double(k + 1));
    std::vector<std::int32_t> table(kTable);
    int k = 0;
    for (int q = 0; q < kTable; ++q) {
      const double p = (double(q) + 0.5) / kTable * sum;
      while (k < bins - 1 && cdf[std::size_t(k)] < p) ++k;
      table[std::size_t(q)] = k;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t r = splitmix64(seed + i);
      put(i, table[r >> 44], r & 0xffffffffull);
    }
    return;
  }
  const std::uint64_t threshold = std::uint64_t(d.hot_percent) * 42949673ull;  // 1% of 2^32, rounded up
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = splitmix64(seed + i);
    const bool hot = d.hot_percent >= 100 || (r >> 32) < threshold;
    put(i, hot ? 0 : int((r & 0xffffffffull) % std::uint64_t(bins)), r >> 40);
  }
}

}  // namespace

void draw_samples(std::span<std::uint8_t> out, int bins, const Distribution& d, std::uint64_t seed) {
  check_bins(bins, true);
  draw(out.size(), bins, d, seed, [&](std::size_t i, int b, std::uint64_t r) { out[i] = sample_u8(b, bins, r); });
}

void draw_samples(std::span<float> out, int bins, const Distribution& d, std::uint64_t seed) {
  check_bins(bins, false);
  draw(out.size(), bins, d, seed, [&](std::size_t i, int b, std::uint64_t r) { out[i] = sample_f32(b, bins, r); });
}

std::uint8_t sample_u8(int b, int bins, std::uint64_t r) {
  const int width = 256 / bins;
  return std::uint8_t(b * width + int(r % std::uint64_t(width)));
}

float sample_f32(int b, int bins, std::uint64_t r) {
  const float u = float(1 + int(r % 15)) / 16.0f;  // 1/16 .. 15/16
  return (float(b) + u) / float(bins);
}

}  // namespace tutor::a05
