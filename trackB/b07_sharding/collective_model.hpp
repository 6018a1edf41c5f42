#pragma once
// B07: what a collective costs on a link, by the alpha-beta (latency-bandwidth) model.
//
// A message of m bytes between two ranks takes alpha + m / B: a fixed start-up cost alpha
// (per message, per algorithm step) plus the bytes over the link bandwidth B (Hockney's
// model, as used by Thakur, Rabenseifner & Gropp 2005, "Optimization of Collective
// Communication Operations in MPICH", IJHPCA 19(1), sec. 3; Chan et al. 2007, "Collective
// communication: theory, practice, and experience", CCPE 19(13), sec. 2). A collective
// algorithm is a sequence of such steps, so its time is (steps) x alpha + (bytes on the
// busiest link) / B. Reductions' arithmetic (the gamma term) is left out: on a GPU it is
// far faster than the link.
//
// This header is C++17 so that the multi-GPU lab may include it from a .cu file: no fmt,
// no nlohmann_json, no C++20 library types.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tutor::b07 {

enum class Collective { allreduce, allgather, reducescatter, alltoall, broadcast };

/// The two algorithm families of the model:
///   ring: bandwidth-optimal, n-1 (all-reduce: 2(n-1)) steps; what NCCL and RCCL run by default;
///   tree: log-depth, ceil(log2 n) steps (NCCL's pipelined double binary tree for all-reduce;
///         the MPICH algorithms of Thakur et al. 2005 for the others, which NCCL does not run).
enum class Algorithm { ring, tree };

/// "allreduce", "allgather", "reducescatter", "alltoall", "broadcast" (also "all_reduce",
/// "all-reduce", "reduce_scatter", ... and nccl-tests' binary names "all_reduce_perf", ...);
/// std::nullopt for anything else.
std::optional<Collective> parse_collective(std::string_view name);

/// "allreduce", "allgather", "reducescatter", "alltoall", "broadcast".
std::string_view name(Collective c);

/// "allreduce, allgather, reducescatter, alltoall, broadcast" (for messages and --help).
std::string known_collectives();

/// The nccl-tests (and rccl-tests) binary that measures `c`: "all_reduce_perf", ...
std::string_view nccl_tests_binary(Collective c);

/// What S, nccl-tests' "size", is for `c`, in words (see predict below for the exact rule).
std::string_view size_meaning(Collective c);

/// "ring" or "tree"; std::nullopt otherwise.
std::optional<Algorithm> parse_algorithm(std::string_view name);
std::string_view name(Algorithm a);

/// nccl-tests' algorithm-to-bus bandwidth factor (NVIDIA nccl-tests, doc/PERFORMANCE.md,
/// "Summary"): busbw = algbw x factor, with factor allreduce 2(n-1)/n, allgather and
/// reducescatter (n-1)/n, alltoall (n-1)/n, broadcast 1. It turns the algorithm bandwidth
/// S / t into the bandwidth one rank's link must sustain for an optimal algorithm, so a
/// measured busbw can be held against the link's peak whatever the rank count.
/// Throws std::invalid_argument ("--ranks: ...") if ranks < 1.
double bus_bandwidth_factor(Collective c, int ranks);

/// One link of the model: alpha_us, the start-up cost of one message (one algorithm step),
/// microseconds; beta_GBps, the bandwidth ONE rank can send (and, at the same time, receive)
/// in ONE direction, 1e9 bytes/s (a datasheet's bidirectional total is halved); `source`
/// says where both numbers come from.
struct LinkParams {
  double alpha_us;
  double beta_GBps;
  std::string source;
};

/// What the model predicts for one collective: time in microseconds; algbw = S / time and
/// busbw = algbw x bus_bandwidth_factor, both 1e9 B/s as nccl-tests prints them; `formula`,
/// the expression with this call's numbers, for --explain and the JSON record.
struct CollectivePrediction {
  double time_us;
  double algbw_GBps;
  double busbw_GBps;
  std::string formula;
};

/// Predicts one collective over `ranks` ranks joined by `link`.
///
/// `bytes` is S, the "size" column of nccl-tests / rccl-tests for that op (src/*.cu of
/// nccl-tests; doc/PERFORMANCE.md): the size of the largest buffer of one rank,
///   allreduce:     the buffer every rank contributes and receives (count x sizeof(type));
///   allgather:     the OUTPUT of one rank, n x the per-rank input (sendcount x size x n);
///   reducescatter: the INPUT of one rank, n x the per-rank output (recvcount x size x n);
///   alltoall:      the send buffer of one rank, n blocks of S/n, one per destination;
///   broadcast:     the buffer the root sends and every rank receives.
/// With B = link.beta_GBps (per direction), alpha = link.alpha_us and L = ceil(log2 n):
///   ring  allreduce      2(n-1) alpha + 2 (n-1)/n S/B  reduce-scatter then all-gather on a ring,
///                                                     bandwidth-optimal (Patarasuk & Yuan 2009,
///                                                     "Bandwidth optimal all-reduce algorithms for
///                                                     clusters of workstations", JPDC 69(2))
///   ring  allgather        (n-1) alpha +   (n-1)/n S/B  ring all-gather (Thakur et al. 2005)
///   ring  reducescatter    (n-1) alpha +   (n-1)/n S/B  ring (MPICH's pairwise exchange costs the same)
///   ring  alltoall         (n-1) alpha +   (n-1)/n S/B  pairwise exchange, n-1 steps of S/n
///                                                     (Thakur et al. 2005; MPICH alltoall.c)
///   ring  broadcast        (n-1) alpha +         S/B  pipelined chain: the message streams through
///                                                     n-1 hops in chunks (nccl-tests PERFORMANCE.md:
///                                                     t = S/B); per-chunk start-ups are not counted
///   tree  allreduce       2 L alpha +          2 S/B  pipelined double binary tree (Sanders, Speck &
///                                                     Traff 2009, "Two-tree algorithms for full
///                                                     bandwidth broadcast, reduction and scan",
///                                                     Parallel Computing 35(12)); NCCL's Tree sets
///                                                     algbw = busbw / 2 (src/graph/tuning.cc)
///   tree  allgather          L alpha +   (n-1)/n S/B  recursive doubling (Thakur et al. 2005)
///   tree  reducescatter      L alpha +   (n-1)/n S/B  recursive halving (Thakur et al. 2005)
///   tree  alltoall           L alpha + (S/2) L / B    Bruck et al. 1997, IEEE TPDS 8(11) (MPICH
///                                                     alltoall.c: "lgp.alpha + (n/2).lgp.beta")
///   tree  broadcast          L (alpha + S/B)          binomial tree (Thakur et al. 2005; the "MST"
///                                                     broadcast of Chan et al. 2007)
/// recursive doubling / halving are exact for n a power of two (MPICH pads other n; the model
/// uses L = ceil(log2 n) for them). ranks == 1 costs nothing (time 0, bandwidths reported 0).
/// Throws std::invalid_argument naming the option ("--ranks", "--bytes", "--alpha-us",
/// "--beta-GBps") if ranks < 1, bytes <= 0 or not finite, alpha < 0, or beta <= 0.
CollectivePrediction predict(Collective c, Algorithm a, int ranks, double bytes, const LinkParams& link);

/// Hockney's n_1/2 for this collective: the size S at which the start-up term equals the
/// bandwidth term, where algbw and busbw reach half their large-message value. Below it the
/// collective is latency-bound (more bandwidth does not help); above it bandwidth-bound.
/// Ring all-reduce: 2(n-1) alpha = 2(n-1)/n S/B, so S_1/2 = n alpha B. Returns 0 for one rank.
/// Throws as predict() does.
double half_bandwidth_bytes(Collective c, Algorithm a, int ranks, const LinkParams& link);

/// The model's per-step latency and bandwidth for a named link:
///   a GPU of common's hardware table (its `interconnect` and `interconnect_GBps`): beta =
///     interconnect_GBps / 2 (the table gives the bidirectional total; NVLink and Infinity
///     Fabric links are full duplex), alpha = the vendor library's own per-step estimate for
///     that link class (NCCL src/graph/tuning.cc hwLat, NVLink, Ring/Simple: 3.4 us; RCCL
///     src/graph/tuning.cc hwLat, NVLink class (xGMI), Ring/Simple: 2.7 us);
///   "pcie-gen4", "pcie-gen5": one x16 link, 16 / 32 GT/s x 16 lanes x 128/130 / 8 = 31.5 /
///     63.0 GB/s per direction (PCI Express Base Specification 4.0 / 5.0), alpha = NCCL's PCI
///     Ring/Simple hwLat 5.7 us;
///   "ib-hdr", "ib-ndr": one InfiniBand port per GPU, 200 / 400 Gb/s = 25 / 50 GB/s per
///     direction (NVIDIA ConnectX-6 / ConnectX-7 HDR / NDR), alpha = NCCL's NET Ring/Simple
///     hwLat 14.0 us.
/// Returns std::nullopt for an unknown name; throws std::invalid_argument ("--link: ...")
/// for a GPU of the table that has no GPU-to-GPU link figure (PCIe-only cards).
std::optional<LinkParams> link_preset(std::string_view name);

/// The preset names ("pcie-gen4, pcie-gen5, ib-hdr, ib-ndr") plus "or a GPU of the table".
std::string known_links();

/// nccl-tests' "-b/-e" size syntax and decimal units: "8", "1e9", "4K" / "4KiB" (x 1024),
/// "128M" / "128MiB" (x 2^20), "1G" / "1GiB" (x 2^30), "1KB" / "1MB" / "1GB" (x 1e3 / 1e6 /
/// 1e9). Bare K/M/G are binary, as nccl-tests' parsesize reads them. The number is decimal
/// (no hex, inf or nan). Returns std::nullopt if the text is not a positive finite size.
std::optional<double> parse_size(std::string_view text);

}  // namespace tutor::b07
