// B07: the alpha-beta collective model against hand derivations and nccl-tests' bus bandwidth.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "collective_model.hpp"

using namespace tutor::b07;

namespace {

/// The H100/H200 NVLink link of the model: 900 GB/s bidirectional / 2, NCCL's 3.4 us step.
const LinkParams kNvlink{3.4, 450.0, "test"};
const double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string what_of(Collective c, Algorithm a, int ranks, double bytes, const LinkParams& link) {
  try {
    predict(c, a, ranks, bytes, link);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// nccl-tests doc/PERFORMANCE.md, "Summary": allreduce 2(n-1)/n, reducescatter, allgather and
// alltoall (n-1)/n, broadcast 1. For n = 8: 14/8 = 1.75 and 7/8 = 0.875.
TEST(BusBandwidthFactor, MatchesNcclTestsPerformanceMd) {
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::allreduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::allgather, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::reducescatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::alltoall, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::broadcast, 8), 1.0);
  // n = 2: 2(1)/2 = 1 and 1/2.
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::allreduce, 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::allgather, 2), 0.5);
  for (int n : {1, 3, 7, 64, 1000}) {
    EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::allreduce, n), 2.0 * (n - 1) / n) << n;
    EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::allgather, n), double(n - 1) / n) << n;
  }
  EXPECT_THROW(bus_bandwidth_factor(Collective::allreduce, 0), std::invalid_argument);
}

// Ring all-reduce, n = 8, S = 1 GiB, alpha = 3.4 us, B = 450 GB/s:
//   S/B = 1,073,741,824 B / 450e3 B/us = 2386.0929 us
//   t   = 2(n-1) alpha + 2(n-1)/n S/B = 14 x 3.4 + 1.75 x 2386.0929 = 47.6 + 4175.6626 = 4223.2626 us
//   algbw = S / t = 254.245 GB/s; busbw = 1.75 x algbw = 444.93 GB/s (the link's 450 less latency)
TEST(RingAllReduce, OneGiBOnEightH100sByHand) {
  const CollectivePrediction p = predict(Collective::allreduce, Algorithm::ring, 8, kGiB, kNvlink);
  const double s_over_b = kGiB / 450e3;
  EXPECT_NEAR(s_over_b, 2386.0929, 1e-3);
  EXPECT_NEAR(p.time_us, 47.6 + 1.75 * s_over_b, 1e-9);
  EXPECT_NEAR(p.time_us, 4223.2626, 1e-3);
  EXPECT_NEAR(p.algbw_GBps, kGiB / (p.time_us * 1e3), 1e-12);
  EXPECT_NEAR(p.busbw_GBps, 444.93, 0.01);
  EXPECT_NE(p.formula.find("2(n-1) alpha + 2(n-1)/n S/B"), std::string::npos) << p.formula;
}

// Without latency an optimal algorithm's bus bandwidth IS the link bandwidth: that is what
// nccl-tests' factor was designed for (PERFORMANCE.md: "reflects how optimally the hardware is used").
TEST(RingAlgorithms, BusBandwidthEqualsLinkBandwidthWhenAlphaIsZero) {
  const LinkParams no_latency{0, 100, "test"};
  for (Collective c : {Collective::allreduce, Collective::allgather, Collective::reducescatter, Collective::alltoall,
                       Collective::broadcast})
    for (int n : {2, 3, 8, 72}) {
      const CollectivePrediction p = predict(c, Algorithm::ring, n, 12345678, no_latency);
      EXPECT_NEAR(p.busbw_GBps, 100, 1e-9) << name(c) << " n=" << n;
    }
}

// Ring all-gather, n = 4, S = 64 MiB (the OUTPUT, nccl-tests' size), alpha 2, B 100:
//   t = 3 x 2 + 3/4 x 67,108,864 / 1e5 = 6 + 503.31648 = 509.31648 us
TEST(RingAllGather, SizeIsTheOutputBufferByHand) {
  const CollectivePrediction p = predict(Collective::allgather, Algorithm::ring, 4, 64 * 1048576.0, {2, 100, "t"});
  EXPECT_NEAR(p.time_us, 509.31648, 1e-9);
}

// Tree all-reduce (pipelined double binary tree), n = 8: L = 3, t = 2 L alpha + 2 S/B.
//   S = 1 GiB: 6 x 3.4 + 2 x 2386.0929 = 20.4 + 4772.1858 = 4792.5858 us: more start-ups saved
//   than bandwidth lost only for small S.
TEST(TreeAllReduce, DoubleBinaryTreeByHand) {
  const CollectivePrediction big = predict(Collective::allreduce, Algorithm::tree, 8, kGiB, kNvlink);
  EXPECT_NEAR(big.time_us, 20.4 + 2 * kGiB / 450e3, 1e-9);
  const CollectivePrediction ring_big = predict(Collective::allreduce, Algorithm::ring, 8, kGiB, kNvlink);
  EXPECT_GT(big.time_us, ring_big.time_us);
  // 8 bytes: the tree's 6 start-ups beat the ring's 14.
  const CollectivePrediction small = predict(Collective::allreduce, Algorithm::tree, 8, 8, kNvlink);
  const CollectivePrediction ring_small = predict(Collective::allreduce, Algorithm::ring, 8, 8, kNvlink);
  EXPECT_LT(small.time_us, ring_small.time_us);
  EXPECT_NEAR(ring_small.time_us, 14 * 3.4 + 1.75 * 8 / 450e3, 1e-12);
}

// Log-depth algorithms round up: n = 6 takes ceil(log2 6) = 3 rounds, n = 8 also 3, n = 9 takes 4.
TEST(TreeAlgorithms, RoundsAreCeilLog2) {
  const LinkParams alpha_only{1, 1e12, "t"};  // bandwidth term negligible: time ~ rounds x alpha
  EXPECT_NEAR(predict(Collective::allgather, Algorithm::tree, 6, 1, alpha_only).time_us, 3, 1e-6);
  EXPECT_NEAR(predict(Collective::allgather, Algorithm::tree, 8, 1, alpha_only).time_us, 3, 1e-6);
  EXPECT_NEAR(predict(Collective::reducescatter, Algorithm::tree, 9, 1, alpha_only).time_us, 4, 1e-6);
  EXPECT_NEAR(predict(Collective::broadcast, Algorithm::tree, 2, 1, alpha_only).time_us, 1, 1e-6);
}

// Bruck all-to-all (MPICH: lgp.alpha + (n/2).lgp.beta), n = 8, S = 8 MB, alpha 1, B 100:
//   3 x 1 + (8e6 / 2) x 3 / 1e5 = 3 + 120 = 123 us. Pairwise exchange: 7 + 7/8 x 80 = 77 us.
// Binomial broadcast: 3 x (1 + 80) = 243 us; pipelined chain: 7 + 80 = 87 us.
TEST(OtherCollectives, BruckPairwiseBinomialAndChainByHand) {
  const LinkParams link{1, 100, "t"};
  EXPECT_NEAR(predict(Collective::alltoall, Algorithm::tree, 8, 8e6, link).time_us, 123, 1e-9);
  EXPECT_NEAR(predict(Collective::alltoall, Algorithm::ring, 8, 8e6, link).time_us, 77, 1e-9);
  EXPECT_NEAR(predict(Collective::broadcast, Algorithm::tree, 8, 8e6, link).time_us, 243, 1e-9);
  EXPECT_NEAR(predict(Collective::broadcast, Algorithm::ring, 8, 8e6, link).time_us, 87, 1e-9);
  EXPECT_NEAR(predict(Collective::reducescatter, Algorithm::ring, 8, 8e6, link).time_us, 77, 1e-9);
}

TEST(CollectivePredict, OneRankCostsNothingAndBadInputNamesTheOption) {
  const CollectivePrediction p = predict(Collective::allreduce, Algorithm::ring, 1, 1e6, kNvlink);
  EXPECT_EQ(p.time_us, 0);
  EXPECT_EQ(p.busbw_GBps, 0);
  EXPECT_EQ(what_of(Collective::allreduce, Algorithm::ring, 0, 1e6, kNvlink).rfind("--ranks", 0), 0u);
  EXPECT_EQ(what_of(Collective::allreduce, Algorithm::ring, 8, 0, kNvlink).rfind("--bytes", 0), 0u);
  EXPECT_EQ(what_of(Collective::allreduce, Algorithm::ring, 8, NAN, kNvlink).rfind("--bytes", 0), 0u);
  EXPECT_EQ(what_of(Collective::allreduce, Algorithm::ring, 8, 1, {-1, 1, ""}).rfind("--alpha-us", 0), 0u);
  EXPECT_EQ(what_of(Collective::allreduce, Algorithm::ring, 8, 1, {1, 0, ""}).rfind("--beta-GBps", 0), 0u);
}

TEST(CollectiveNames, CollectivesParseInTheSpellingsOfNcclTests) {
  EXPECT_EQ(parse_collective("allreduce"), Collective::allreduce);
  EXPECT_EQ(parse_collective("all_reduce"), Collective::allreduce);
  EXPECT_EQ(parse_collective("All-Reduce"), Collective::allreduce);
  EXPECT_EQ(parse_collective("all_reduce_perf"), Collective::allreduce);
  EXPECT_EQ(parse_collective("reduce_scatter"), Collective::reducescatter);
  EXPECT_EQ(parse_collective("all_gather"), Collective::allgather);
  EXPECT_EQ(parse_collective("alltoall"), Collective::alltoall);
  EXPECT_EQ(parse_collective("broadcast"), Collective::broadcast);
  EXPECT_EQ(parse_collective("reduce"), std::nullopt);  // not modelled
  EXPECT_EQ(parse_collective("gossip"), std::nullopt);
  EXPECT_EQ(name(Collective::reducescatter), "reducescatter");
  EXPECT_EQ(parse_algorithm("Ring"), Algorithm::ring);
  EXPECT_EQ(parse_algorithm("nvls"), std::nullopt);
}

// nccl-tests' parsesize reads K, M, G as powers of two; decimal units are spelled KB, MB, GB.
TEST(CollectiveSize, NcclTestsSuffixesAndDecimalUnits) {
  EXPECT_EQ(parse_size("8"), 8.0);
  EXPECT_EQ(parse_size("128M"), 134217728.0);
  EXPECT_EQ(parse_size("1G"), 1073741824.0);
  EXPECT_EQ(parse_size("4KiB"), 4096.0);
  EXPECT_EQ(parse_size("1GB"), 1e9);
  EXPECT_EQ(parse_size("1e9"), 1e9);
  EXPECT_EQ(parse_size("2.5MB"), 2.5e6);
  EXPECT_EQ(parse_size("0"), std::nullopt);
  EXPECT_EQ(parse_size("-5"), std::nullopt);
  EXPECT_EQ(parse_size("12 MB"), std::nullopt);
  EXPECT_EQ(parse_size("lots"), std::nullopt);
  EXPECT_EQ(parse_size("0x10"), std::nullopt);  // strtod would read hex, inf and nan
  EXPECT_EQ(parse_size("inf"), std::nullopt);
  EXPECT_EQ(parse_size("nan"), std::nullopt);
  EXPECT_EQ(parse_size("inf"), std::nullopt);
  EXPECT_EQ(parse_size(""), std::nullopt);
}

// The GPU table gives NVLink 4 as 900 GB/s bidirectional (H100/H200 datasheets) and MI300X
// as 7 x 128 = 896; the model uses half, per direction. PCIe 5.0 x16: 63.0 per direction.
TEST(CollectiveLink, TableLinksAreHalvedAndPresetsAreCited) {
  const auto h200 = link_preset("h200");
  ASSERT_TRUE(h200.has_value());
  EXPECT_DOUBLE_EQ(h200->beta_GBps, 450);
  EXPECT_DOUBLE_EQ(h200->alpha_us, 3.4);
  EXPECT_NE(h200->source.find("NVLink 4"), std::string::npos) << h200->source;
  const auto mi300x = link_preset("mi300x");
  ASSERT_TRUE(mi300x.has_value());
  EXPECT_DOUBLE_EQ(mi300x->beta_GBps, 448);
  EXPECT_DOUBLE_EQ(mi300x->alpha_us, 2.7);
  EXPECT_DOUBLE_EQ(link_preset("pcie-gen5")->beta_GBps, 63.0);
  EXPECT_DOUBLE_EQ(link_preset("pcie-gen4")->beta_GBps, 31.5);
  EXPECT_DOUBLE_EQ(link_preset("ib-ndr")->beta_GBps, 50.0);
  EXPECT_DOUBLE_EQ(link_preset("ib-hdr")->beta_GBps, 25.0);
  EXPECT_EQ(link_preset("carrier-pigeon"), std::nullopt);
  try {
    link_preset("l4");  // PCIe-only card: the table has no GPU-to-GPU link figure
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--link", 0), 0u) << e.what();
  }
}

// Hockney's n_1/2. Ring all-reduce: 2(n-1) alpha = 2(n-1)/n S/B  =>  S_1/2 = n alpha B.
//   n = 8, alpha = 3.4 us, B = 450 GB/s = 450e3 B/us: 8 x 3.4 x 450e3 = 12,240,000 B.
// There algbw is half of its large-message value B n / (2(n-1)).
TEST(CollectiveHalfBandwidth, RingAllReduceIsNAlphaB) {
  const double s_half = half_bandwidth_bytes(Collective::allreduce, Algorithm::ring, 8, kNvlink);
  EXPECT_NEAR(s_half, 12240000, 1e-3);
  const CollectivePrediction p = predict(Collective::allreduce, Algorithm::ring, 8, s_half, kNvlink);
  EXPECT_NEAR(p.busbw_GBps, 450.0 / 2, 1e-6);
  // Ring all-gather: (n-1) alpha = (n-1)/n S/B: the same n alpha B.
  EXPECT_NEAR(half_bandwidth_bytes(Collective::allgather, Algorithm::ring, 8, kNvlink), 12240000, 1e-3);
  EXPECT_EQ(half_bandwidth_bytes(Collective::allreduce, Algorithm::ring, 1, kNvlink), 0);
}
