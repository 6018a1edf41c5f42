#pragma once
// B07: fitting the alpha-beta model's link to a measured collective sweep, one end at a time.
//
// The model (collective_model.hpp) says a ring collective takes t(S) = a alpha + b S / B:
// a start-ups of alpha each and a share b of the message over the busiest link of bandwidth
// B. At the small end S / B vanishes and t is a alpha; at the large end the alpha term
// vanishes and busbw = b S / t is B (nccl-tests' bus bandwidth factors are exactly the ring's
// b: doc/PERFORMANCE.md). So each parameter is read off the end where it dominates:
//   alpha = median over the smallest sizes of (t - b S / B) / a
//   B     = median over the largest sizes of b S / (t - a alpha)
// each corrected for the other's small term (three alternations settle both to well under
// 0.1%). A least-squares fit over every size would be pulled by the middle sizes, where
// NCCL changes protocol (LL, LL128, Simple) and channel count and the model does not hold;
// anchoring at the ends shows where it holds and how far it misses in between.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "collective_model.hpp"

namespace tutor::b07 {

/// One measured size of a sweep: S (nccl-tests' size, bytes) and the time, microseconds.
struct SweepPoint {
  double bytes;
  double time_us;
};

/// The ring formula of a collective, t = steps x alpha + link_share x S / B (the "ring" rows of
/// collective_model.hpp, predict): allreduce 2(n-1) and 2(n-1)/n; allgather, reducescatter
/// and alltoall n-1 and (n-1)/n; broadcast n-1 and 1.
struct RingCoefficients {
  double steps;       ///< start-ups, multiplies alpha
  double link_share;  ///< multiplies S / B
};

/// The ring coefficients of `op` over `ranks`, read from collective_model's predict (which is
/// linear in alpha and in S / B), so the fit and the model cannot drift apart.
/// Throws std::invalid_argument ("--gpus: ...") if ranks < 2 (one rank sends nothing).
RingCoefficients ring_coefficients(Collective op, int ranks);

/// How many sizes each end uses. Defaults: the 4 smallest (8 B to 64 B of a full sweep) and
/// the 3 largest (1 GiB to 4 GiB); both are cut to share the points when fewer are measured.
struct FitOptions {
  int latency_points = 4;
  int bandwidth_points = 3;
};

/// The fitted link and what it was fitted on (kind: model).
struct AlphaBetaFit {
  LinkParams link;  ///< alpha_us, beta_GBps (per direction), source = how
  RingCoefficients ring;
  std::vector<std::size_t> latency_indices;    ///< points used for alpha (indices into the sweep)
  std::vector<std::size_t> bandwidth_indices;  ///< points used for B
  double latency_end_us = 0;                   ///< a x alpha: the model's time at S -> 0
  /// The largest size's bandwidth term over its model time: below 0.9 the largest sizes are
  /// not bandwidth-bound (a sweep that stops at 64 MiB), and B is an underestimate.
  double bandwidth_term_fraction = 0;
};

/// Fits alpha and B of the ring formula of `op` over `ranks` to `points`, which must be
/// sorted by strictly increasing bytes with finite positive times.
/// Throws std::invalid_argument if ranks < 2, fewer than 2 points, options < 1, the points are
/// not sorted or not positive, or the large end runs no faster than the latency alone.
AlphaBetaFit fit_alpha_beta(Collective op, int ranks, std::span<const SweepPoint> points,
                            const FitOptions& options = {});

/// (model - measured) / measured: +0.25 means the model says 25% slower than measured.
double relative_error(double model, double measured);

}  // namespace tutor::b07
