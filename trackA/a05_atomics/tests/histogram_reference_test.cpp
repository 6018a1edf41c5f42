// A05: the binning rule and the CPU histogram against counts derived by hand, and the sample
// generators against the distributions they promise.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "histogram_reference.hpp"

namespace tutor::a05 {
namespace {

TEST(BinOfU8, EachBinHoldsTheSameCountOfValues) {
  // 16 bins over 0..255: 16 values each, so value v is in bin v / 16.
  EXPECT_EQ(bin_of_u8(0, 16), 0);
  EXPECT_EQ(bin_of_u8(15, 16), 0);
  EXPECT_EQ(bin_of_u8(16, 16), 1);
  EXPECT_EQ(bin_of_u8(255, 16), 15);
  // 256 bins: the value is the bin.
  EXPECT_EQ(bin_of_u8(200, 256), 200);
}

TEST(BinOfF32, EdgesFallInTheUpperBin) {
  // 10 bins over [0, 1): 0.5 * 10 = 5 exactly, the left edge of bin 5.
  EXPECT_EQ(bin_of_f32(0.0f, 10), 0);
  EXPECT_EQ(bin_of_f32(0.5f, 10), 5);
  EXPECT_EQ(bin_of_f32(0.25f, 16), 4);     // 0.25 * 16 = 4 exactly
  EXPECT_EQ(bin_of_f32(0.2499f, 16), 3);
  // The largest float below 1 times 16 rounds to 16.0f (1 - 2^-24 times 2^4 is exact: 16 - 2^-20),
  // so it stays in bin 15; the clamp catches a product that rounds up to `bins`.
  EXPECT_EQ(bin_of_f32(0.99999994f, 16), 15);
  EXPECT_EQ(bin_of_f32(0.99999994f, 65535), 65534);
}

TEST(HistogramReference, CountsByHand) {
  // 8-bit, 16 bins: 0, 15 -> bin 0; 16 -> 1; 255, 255 -> 15.
  const std::vector<std::uint8_t> u8{0, 15, 16, 255, 255};
  const auto h = histogram_reference(u8, 16);
  ASSERT_EQ(h.size(), 16u);
  EXPECT_EQ(h[0], 2u);
  EXPECT_EQ(h[1], 1u);
  EXPECT_EQ(h[15], 2u);
  EXPECT_EQ(std::accumulate(h.begin(), h.end(), 0u), 5u);
  // fp32, 20 bins: 0.0 -> 0, 0.05 * 20 = 1.0000000149 -> 1, 0.51 -> 10, 0.999 -> 19.
  const std::vector<float> f{0.0f, 0.05f, 0.51f, 0.999f};
  const auto g = histogram_reference(f, 20);
  EXPECT_EQ(g[0], 1u);
  EXPECT_EQ(g[1], 1u);
  EXPECT_EQ(g[10], 1u);
  EXPECT_EQ(g[19], 1u);
}

TEST(HistogramReference, RefusesWhatTheLabRefuses) {
  const std::vector<std::uint8_t> u8{1};
  EXPECT_THROW(histogram_reference(u8, 100), std::invalid_argument);   // not a power of two
  EXPECT_THROW(histogram_reference(u8, 512), std::invalid_argument);   // more bins than values
  EXPECT_THROW(histogram_reference(u8, 8), std::invalid_argument);
  const std::vector<float> f{1.0f};
  EXPECT_THROW(histogram_reference(f, 16), std::invalid_argument);     // outside [0, 1)
  const std::vector<float> ok{0.5f};
  EXPECT_THROW(histogram_reference(ok, 65537), std::invalid_argument);
}

TEST(Samples, StayInsideTheirBin) {
  for (int bins : {16, 100, 65536})
    for (int b : {0, bins / 2, bins - 1})
      for (std::uint64_t r = 0; r < 15; ++r) EXPECT_EQ(bin_of_f32(sample_f32(b, bins, r), bins), b);
  // Every value of an 8-bit bin occurs: 16 bins, bin 3 holds 48..63.
  EXPECT_EQ(sample_u8(3, 16, 0), 48);
  EXPECT_EQ(sample_u8(3, 16, 15), 63);
}

TEST(Samples, OneBinPutsEverythingInBinZero) {
  std::vector<std::uint8_t> s(10007);
  draw_samples(s, 256, {Spread::hot, 100}, 1);
  EXPECT_EQ(histogram_reference(s, 256)[0], 10007u);
}

TEST(Samples, UniformSpreadsEvenly) {
  // 2^20 samples over 16 bins: 65,536 expected per bin, standard deviation about 248; 5 sigma.
  std::vector<std::uint8_t> s(1 << 20);
  draw_samples(s, 16, {Spread::hot, 0}, 7);
  for (std::uint32_t c : histogram_reference(s, 16)) EXPECT_NEAR(double(c), 65536.0, 5 * 248.0);
}

TEST(Samples, HotPercentFillsBinZero) {
  // 30% hot plus 70% / 256 of the uniform rest: 0.30273 of 2^20 = 317,440 expected.
  std::vector<float> s(1 << 20);
  draw_samples(s, 256, {Spread::hot, 30}, 3);
  EXPECT_NEAR(double(histogram_reference(s, 256)[0]), 317440.0, 3000.0);
}

TEST(Samples, ZipfFollowsOneOverRank) {
  // Zipf(1) over 16 ranks: P(rank k) = (1/k) / H_16, H_16 = 3.3807; bin 0 gets 0.29580,
  // bin 1 half of that.
  std::vector<std::uint8_t> s(1 << 20);
  draw_samples(s, 16, {Spread::zipf, 0}, 5);
  const auto h = histogram_reference(s, 16);
  EXPECT_NEAR(double(h[0]) / (1 << 20), 0.29580, 0.003);
  EXPECT_NEAR(double(h[1]) / double(h[0]), 0.5, 0.01);
  EXPECT_GT(h[14], h[15]);
}

TEST(Samples, SameSeedSameSamples) {
  std::vector<std::uint8_t> a(1000), b(1000);
  draw_samples(a, 64, {Spread::zipf, 0}, 11);
  draw_samples(b, 64, {Spread::zipf, 0}, 11);
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace tutor::a05
