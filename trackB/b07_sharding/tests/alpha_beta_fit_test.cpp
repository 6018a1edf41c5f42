// B07 multi-GPU lab, host side: the alpha-beta fit against sweeps written by hand from the ring
// formulas, and the lab's oracle (nccl-tests' size convention, the expected value of every
// output element) against the collectives' definitions in the NCCL API documentation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "alpha_beta_fit.hpp"
#include "collectives.hpp"

using namespace tutor::b07;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// A sweep from 8 B to 4 GiB (30 sizes) of t = steps alpha + share S / B, written out from the
/// ring formula, not from predict(): S / B in us is S / (B x 1e3) for B in GB/s.
std::vector<SweepPoint> ring_sweep(double steps, double share, double alpha_us, double beta_GBps,
                                   double max_bytes = 4 * kGiB) {
  std::vector<SweepPoint> points;
  for (double s = 8; s <= max_bytes; s *= 2) points.push_back({s, steps * alpha_us + share * s / (beta_GBps * 1e3)});
  return points;
}

}  // namespace

// ---- The ring coefficients -----------------------------------------------------------------

// Patarasuk & Yuan 2009: ring all-reduce = reduce-scatter + all-gather, 2(n-1) steps, each rank
// sends 2(n-1)/n S. n = 8: 14 steps, share 1.75. Thakur et al. 2005: ring all-gather n-1 steps
// of S/n: n = 4: 3 steps, share 0.75. Broadcast as a pipelined chain: n-1 hops, share 1.
TEST(RingCoefficients, MatchTheRingFormulas) {
  const RingCoefficients ar = ring_coefficients(Collective::allreduce, 8);
  EXPECT_NEAR(ar.steps, 14.0, 1e-12);
  EXPECT_NEAR(ar.link_share, 1.75, 1e-12);
  const RingCoefficients ag = ring_coefficients(Collective::allgather, 4);
  EXPECT_NEAR(ag.steps, 3.0, 1e-12);
  EXPECT_NEAR(ag.link_share, 0.75, 1e-12);
  const RingCoefficients rs = ring_coefficients(Collective::reducescatter, 3);
  EXPECT_NEAR(rs.steps, 2.0, 1e-12);
  EXPECT_NEAR(rs.link_share, 2.0 / 3.0, 1e-12);
  const RingCoefficients a2a = ring_coefficients(Collective::alltoall, 2);
  EXPECT_NEAR(a2a.steps, 1.0, 1e-12);
  EXPECT_NEAR(a2a.link_share, 0.5, 1e-12);
  const RingCoefficients bc = ring_coefficients(Collective::broadcast, 4);
  EXPECT_NEAR(bc.steps, 3.0, 1e-12);
  EXPECT_NEAR(bc.link_share, 1.0, 1e-12);
}

// The bus bandwidth factor of nccl-tests (doc/PERFORMANCE.md) is the ring's link share for every
// op but broadcast's 1 = 1: that is why the large end's busbw reads B directly.
TEST(RingCoefficients, LinkShareIsNcclTestsBusBandwidthFactor) {
  for (Collective c : {Collective::allreduce, Collective::allgather, Collective::reducescatter, Collective::alltoall,
                       Collective::broadcast})
    for (int n : {2, 3, 4, 8, 16})
      EXPECT_NEAR(ring_coefficients(c, n).link_share, bus_bandwidth_factor(c, n), 1e-12) << name(c) << " n=" << n;
}

TEST(RingCoefficients, OneRankHasNothingToFit) {
  EXPECT_THROW(ring_coefficients(Collective::allreduce, 1), std::invalid_argument);
}

// ---- The fit ---------------------------------------------------------------------------------

// All-reduce on 4 ranks, alpha = 5 us, B = 400 GB/s: t = 6 x 5 + 1.5 S / (400e3) us. The fit
// must give the link back from the ends.
TEST(AlphaBetaFit, RecoversTheLinkOfAnExactRingSweep) {
  const auto points = ring_sweep(6, 1.5, 5.0, 400.0);
  ASSERT_EQ(points.size(), 30u);
  const AlphaBetaFit f = fit_alpha_beta(Collective::allreduce, 4, points);
  EXPECT_NEAR(f.link.alpha_us, 5.0, 5.0 * 1e-9);
  EXPECT_NEAR(f.link.beta_GBps, 400.0, 400.0 * 1e-9);
  EXPECT_NEAR(f.latency_end_us, 30.0, 1e-7);
  EXPECT_EQ(f.latency_indices, (std::vector<std::size_t>{0, 1, 2, 3}));    // 8 B .. 64 B
  EXPECT_EQ(f.bandwidth_indices, (std::vector<std::size_t>{27, 28, 29}));  // 1 GiB .. 4 GiB
  // At 4 GiB: 1.5 x 4 GiB / 400e3 = 16106.1 us of transfer against 30 us of start-ups.
  EXPECT_NEAR(f.bandwidth_term_fraction, 16106.127 / (16106.127 + 30.0), 1e-6);
  EXPECT_NE(f.link.source.find("fitted"), std::string::npos);
}

// NCCL's protocol switches make the middle sizes slower than both ends predict; the fit reads
// only the ends, so a doubled middle leaves alpha and B where they were.
TEST(AlphaBetaFit, IsNotPulledByTheMiddleOfTheCurve) {
  auto points = ring_sweep(7, 0.875, 3.0, 350.0);  // all-gather on 8 ranks
  for (std::size_t i = 4; i + 3 < points.size(); ++i) points[i].time_us *= 2;
  const AlphaBetaFit f = fit_alpha_beta(Collective::allgather, 8, points);
  EXPECT_NEAR(f.link.alpha_us, 3.0, 3.0 * 1e-9);
  EXPECT_NEAR(f.link.beta_GBps, 350.0, 350.0 * 1e-9);
}

// A median resists one slow launch at each end (a shared machine).
TEST(AlphaBetaFit, OneOutlierAtEachEndDoesNotMoveIt) {
  auto points = ring_sweep(3, 1.0, 4.0, 300.0);  // broadcast on 4 ranks
  points[1].time_us *= 3;
  points.back().time_us *= 1.5;
  const AlphaBetaFit f = fit_alpha_beta(Collective::broadcast, 4, points);
  EXPECT_NEAR(f.link.alpha_us, 4.0, 4.0 * 1e-6);
  EXPECT_NEAR(f.link.beta_GBps, 300.0, 300.0 * 1e-6);
}

// A sweep that stops at 1 MiB never reaches the bandwidth plateau: 1.5 x 1 MiB / 400e3 =
// 3.93 us of transfer against 30 us of start-ups, 11.6% of the time. The fit says so.
TEST(AlphaBetaFit, FlagsASweepThatStopsBeforeThePlateau) {
  const auto points = ring_sweep(6, 1.5, 5.0, 400.0, 1024.0 * 1024.0);
  const AlphaBetaFit f = fit_alpha_beta(Collective::allreduce, 4, points);
  EXPECT_NEAR(f.bandwidth_term_fraction, 3.93216 / (3.93216 + 30.0), 1e-5);
  EXPECT_LT(f.bandwidth_term_fraction, 0.9);
}

// With few sizes the two ends split them and never share one.
TEST(AlphaBetaFit, FewSizesAreSplitBetweenTheEnds) {
  const auto two = ring_sweep(1, 0.5, 2.0, 100.0, 16);
  const AlphaBetaFit f2 = fit_alpha_beta(Collective::allgather, 2, two);
  EXPECT_EQ(f2.latency_indices, (std::vector<std::size_t>{0}));
  EXPECT_EQ(f2.bandwidth_indices, (std::vector<std::size_t>{1}));
  const auto five = ring_sweep(1, 0.5, 2.0, 100.0, 128);
  const AlphaBetaFit f5 = fit_alpha_beta(Collective::allgather, 2, five);
  EXPECT_EQ(f5.latency_indices, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(f5.bandwidth_indices, (std::vector<std::size_t>{2, 3, 4}));
}

TEST(AlphaBetaFit, RejectsWhatItCannotFit) {
  const auto points = ring_sweep(6, 1.5, 5.0, 400.0);
  EXPECT_THROW(fit_alpha_beta(Collective::allreduce, 1, points), std::invalid_argument);
  EXPECT_THROW(fit_alpha_beta(Collective::allreduce, 4, std::vector<SweepPoint>{{8, 30}}), std::invalid_argument);
  EXPECT_THROW(fit_alpha_beta(Collective::allreduce, 4, std::vector<SweepPoint>{{64, 30}, {8, 30}}),
               std::invalid_argument);
  EXPECT_THROW(fit_alpha_beta(Collective::allreduce, 4, std::vector<SweepPoint>{{8, 0}, {64, 30}}),
               std::invalid_argument);
  EXPECT_THROW(fit_alpha_beta(Collective::allreduce, 4, std::vector<SweepPoint>{{8, NAN}, {64, 30}}),
               std::invalid_argument);
  EXPECT_THROW(fit_alpha_beta(Collective::allreduce, 4, points, FitOptions{0, 3}), std::invalid_argument);
  // A flat curve has no bandwidth term to read.
  EXPECT_THROW(fit_alpha_beta(Collective::allreduce, 4, std::vector<SweepPoint>{{8, 30}, {64, 30}, {1e9, 30}}),
               std::invalid_argument);
}

TEST(RelativeError, IsModelMinusMeasuredOverMeasured) {
  EXPECT_DOUBLE_EQ(relative_error(1.25, 1.0), 0.25);
  EXPECT_DOUBLE_EQ(relative_error(50.0, 100.0), -0.5);
}

// ---- The lab's oracle: sizes and expected outputs ----------------------------------------------

// nccl-tests src/*.cu getCollByteCount: all-gather sendcount = (S/4)/n, S = n x sendcount x 4.
// 8 B over 4 ranks is 2 floats, no whole float per rank: skipped. 16 B is one per rank.
TEST(CollectiveShape, FollowsNcclTestsSizeConvention) {
  EXPECT_EQ(shape_for(Collective::allgather, 4, 8).count, 0u);
  const CollectiveShape ag = shape_for(Collective::allgather, 4, 16);
  EXPECT_EQ(ag.count, 1u);
  EXPECT_EQ(ag.send_elements, 1u);
  EXPECT_EQ(ag.recv_elements, 4u);
  EXPECT_DOUBLE_EQ(ag.bytes, 16.0);
  // 1024 B over 3 ranks: 256 floats, 85 per rank, S = 3 x 85 x 4 = 1020 B.
  const CollectiveShape odd = shape_for(Collective::reducescatter, 3, 1024);
  EXPECT_EQ(odd.count, 85u);
  EXPECT_EQ(odd.send_elements, 255u);
  EXPECT_EQ(odd.recv_elements, 85u);
  EXPECT_DOUBLE_EQ(odd.bytes, 1020.0);
  const CollectiveShape rs = shape_for(Collective::reducescatter, 8, 1ull << 30);
  EXPECT_EQ(rs.count, 1ull << 25);
  EXPECT_EQ(rs.send_elements, 1ull << 28);
  EXPECT_DOUBLE_EQ(rs.bytes, kGiB);
  const CollectiveShape a2a = shape_for(Collective::alltoall, 4, 64);
  EXPECT_EQ(a2a.count, 4u);
  EXPECT_EQ(a2a.send_elements, 16u);
  EXPECT_EQ(a2a.recv_elements, 16u);
  const CollectiveShape ar = shape_for(Collective::allreduce, 8, 8);
  EXPECT_EQ(ar.count, 2u);
  EXPECT_DOUBLE_EQ(ar.bytes, 8.0);
  EXPECT_EQ(shape_for(Collective::broadcast, 1, 4).count, 1u);
  EXPECT_THROW(shape_for(Collective::allreduce, 0, 8), std::invalid_argument);
}

// Inputs are integers in [-8, 8] (exact fp32 sums), every one of the 17 values occurs, and they
// differ between ranks and between seeds.
TEST(CollectiveInputs, AreSmallIntegersFreshPerRankAndSeed) {
  std::set<float> seen;
  int differ_rank = 0, differ_seed = 0;
  for (std::uint64_t i = 0; i < 10000; ++i) {
    const float v = input_value(42, 0, i);
    EXPECT_EQ(v, std::round(v));
    EXPECT_GE(v, -8.0f);
    EXPECT_LE(v, 8.0f);
    seen.insert(v);
    differ_rank += v != input_value(42, 1, i);
    differ_seed += v != input_value(43, 0, i);
  }
  EXPECT_EQ(seen.size(), 17u);
  EXPECT_GT(differ_rank, 9000);  // 16/17 of pairs differ for independent draws
  EXPECT_GT(differ_seed, 9000);
}

// The expected value of every element of every rank, against the collectives simulated on the
// host from their definitions (NCCL User Guide, "Collective Operations"), for n = 3 ranks and a
// per-rank block of 5 elements.
TEST(CollectiveExpectedOutput, MatchesTheCollectivesDefinitions) {
  const int n = 3;
  const std::uint64_t m = 5, seed = 7;
  std::vector<std::vector<float>> in(n, std::vector<float>(n * m));
  for (int r = 0; r < n; ++r)
    for (std::uint64_t i = 0; i < n * m; ++i) in[r][i] = input_value(seed, r, i);
  std::vector<float> sum(n * m, 0.0f);
  for (int r = 0; r < n; ++r)
    for (std::uint64_t i = 0; i < n * m; ++i) sum[i] += in[r][i];
  for (int r = 0; r < n; ++r) {
    for (std::uint64_t i = 0; i < n * m; ++i) {
      // all-reduce: every rank holds the sum.
      EXPECT_EQ(expected_output(Collective::allreduce, seed, n, r, i, n * m), sum[i]);
      // broadcast: every rank holds the root's buffer.
      EXPECT_EQ(expected_output(Collective::broadcast, seed, n, r, i, n * m), in[kBroadcastRoot][i]);
      // all-gather: rank j's first m elements land at offset j m.
      EXPECT_EQ(expected_output(Collective::allgather, seed, n, r, i, m), in[i / m][i % m]);
      // all-to-all: block j of rank r's output is block r of rank j's input.
      EXPECT_EQ(expected_output(Collective::alltoall, seed, n, r, i, m), in[i / m][r * m + i % m]);
    }
    // reduce-scatter: rank r keeps block r of the sum.
    for (std::uint64_t i = 0; i < m; ++i)
      EXPECT_EQ(expected_output(Collective::reducescatter, seed, n, r, i, m), sum[r * m + i]);
  }
}
