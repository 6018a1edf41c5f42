// A03's host side: the compensated sum and the error bound against hand derivations, and the
// 64-lane (AMD wavefront) path of the block reduction simulated on the host.
#include <cmath>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "reduce_reference.hpp"
#include "tutor/device/lane_simulator.hpp"

namespace tutor::a03 {
namespace {

TEST(CompensatedSum, RecoversWhatPlainFp64SummationLoses) {
  // 2^60 + 1 - 2^60: plain fp64 summation rounds 2^60 + 1 to 2^60 (53-bit significand) and
  // returns 0; Neumaier's correction keeps the lost 1.
  const std::vector<float> x = {std::ldexp(1.0f, 60), 1.0f, -std::ldexp(1.0f, 60)};
  double naive = 0;
  for (float f : x) naive += f;
  EXPECT_EQ(naive, 0.0);
  EXPECT_EQ(compensated_sum(x), 1.0);
}

TEST(CompensatedSum, SmallCasesByHand) {
  EXPECT_EQ(compensated_sum(std::vector<float>{}), 0.0);
  EXPECT_EQ(compensated_sum(std::vector<float>{0.5f}), 0.5);
  // 1 + 2 + ... + 33 = 33 * 34 / 2 = 561.
  std::vector<float> x(33);
  std::iota(x.begin(), x.end(), 1.0f);
  EXPECT_EQ(compensated_sum(x), 561.0);
  EXPECT_EQ(abs_sum(std::vector<float>{-1.0f, 2.0f, -3.0f}), 6.0);
}

TEST(ErrorBound, GammaOfTheDepthTimesTheAbsoluteSum) {
  // depth 8: gamma_8 = 8u / (1 - 8u), u = 2^-24; times sum |x| = 2.
  const double u = std::ldexp(1.0, -24);
  EXPECT_DOUBLE_EQ(tree_error_bound(2.0, 8), 8 * u / (1 - 8 * u) * 2.0);
  EXPECT_EQ(tree_error_bound(5.0, 0), 0.0);
  // ceil(log2 n) levels + chain + 1: n = 1 -> 0 levels; n = 33 -> 6; n = 2^20 + 7 -> 21.
  EXPECT_EQ(allowed_depth(1, 0), 1u);
  EXPECT_EQ(allowed_depth(33, 10), 17u);
  EXPECT_EQ(allowed_depth((std::size_t(1) << 20) + 7, 0), 22u);
  EXPECT_EQ(allowed_depth(std::size_t(1) << 20, 0), 21u);
}

// Values 1..256 in one block: their sum is 256 * 257 / 2 = 32896, exact in fp32.
std::vector<float> one_to_256() {
  std::vector<float> v(256);
  std::iota(v.begin(), v.end(), 1.0f);
  return v;
}

TEST(UnrolledLastWarp, CorrectWhenTheTailStartsAtTheLaneCount) {
  EXPECT_EQ(block_tree_sum(one_to_256(), 32, 32), 32896.0f);  // NVIDIA: loop stops at 32 lanes
  EXPECT_EQ(block_tree_sum(one_to_256(), 64, 64), 32896.0f);  // AMD CDNA: 64-lane wavefront
}

TEST(UnrolledLastWarp, ATailWrittenFor32LanesDropsHalfOfWhatA64LaneLoopLeaves) {
  // The loop (strides 128) leaves slot t = v[t] + v[t + 128] in slots 0..127; the 32-lane tail
  // sums slots 0..63 only: sum over t < 64 of (t + 1) + (t + 129) = 2080 + 10272 = 12352.
  EXPECT_EQ(block_tree_sum(one_to_256(), 64, 32), 12352.0f);
}

TEST(WaveReduce, SixtyFourLanesGiveOnePartialPerWavefront) {
  // block_reduce at 64 lanes (simulation): 256 threads are 4 wavefronts; wavefront w holds
  // 64w + 1 .. 64w + 64, whose sum is 64 * (64w) + 64 * 65 / 2 = 4096w + 2080.
  using Sim = device::LaneSimulator<float, 64>;
  const auto r = Sim::block_reduce(one_to_256(), device::Sum{});
  ASSERT_EQ(r.partials.size(), 4u);
  for (int w = 0; w < 4; ++w) EXPECT_EQ(r.partials[w], 4096.0f * w + 2080.0f);
  for (float total : r.per_thread) EXPECT_EQ(total, 32896.0f);
}

TEST(WaveReduce, ThirtyTwoLanesGiveEightPartials) {
  using Sim = device::LaneSimulator<float, 32>;
  const auto r = Sim::block_reduce(one_to_256(), device::Sum{});
  ASSERT_EQ(r.partials.size(), 8u);
  EXPECT_EQ(r.partials[0], 528.0f);  // 1 + ... + 32 = 32 * 33 / 2
  EXPECT_EQ(r.per_thread[255], 32896.0f);
}

TEST(WaveReduce, ButterflyOverSixtyFourLanesReachesEveryLane) {
  // One wavefront holding lane + 1: every lane must end with 64 * 65 / 2 = 2080 after six
  // xor steps; stopping at 32 lanes (Width = 32) gives each half its own sum: 528 and 1552.
  using Sim = device::LaneSimulator<float, 64>;
  Sim::Register v;
  for (int l = 0; l < 64; ++l) v[l] = float(l + 1);
  const auto full = Sim::warp_reduce(v, device::Sum{});
  for (float x : full) EXPECT_EQ(x, 2080.0f);
  const auto half = Sim::warp_reduce<32>(v, device::Sum{});
  EXPECT_EQ(half[0], 528.0f);
  EXPECT_EQ(half[63], 1552.0f);  // 33 + ... + 64 = 2080 - 528
}

TEST(BlockTreeSum, RefusesShapesItCannotModel) {
  EXPECT_THROW(block_tree_sum(std::vector<float>(100), 32, 32), std::invalid_argument);
  EXPECT_THROW(block_tree_sum(one_to_256(), 32, 64), std::invalid_argument);
}

}  // namespace
}  // namespace tutor::a03
