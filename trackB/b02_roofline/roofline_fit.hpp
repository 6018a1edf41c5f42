#pragma once
// B02: fitting the roofline to measured points.
//
// Model (Williams, Waterman and Patterson, CACM 52(4), 2009, eq. 1):
//   P(I) = min(B * I, P_peak),  I = arithmetic intensity [FLOP/byte],
// with B the memory roof [byte/s] and P_peak the compute roof [FLOP/s]; they meet at the
// ridge point I* = P_peak / B. We fit B and I* by least squares on log P (each point's
// error counts relatively, so the slow memory-bound points weigh as much as the fast
// compute-bound ones): for a fixed ridge r the best log B is the mean of
// log P_i - log min(I_i, r), so the fit is a one-dimensional search over r.
#include <cstddef>
#include <span>

namespace tutor::b02 {

/// One measured point: intensity in FLOP/byte, achieved rate in TFLOP/s (both > 0).
struct RooflinePoint {
  double intensity;
  double TFLOPs;
};

/// The fitted roofline.
struct RooflineFit {
  double bandwidth_GBps = 0;   ///< memory roof B, 1e9 byte/s
  double peak_TFLOPs = 0;      ///< compute roof P_peak, 1e12 FLOP/s
  double ridge_point = 0;      ///< I* = P_peak / B, FLOP/byte
  double rms_log_residual = 0; ///< sqrt(mean((log P_i - log P_fit(I_i))^2)), natural log
  double max_rel_residual = 0; ///< max_i |P_i / P_fit(I_i) - 1|
  std::size_t memory_bound_points = 0;   ///< points with I_i < I*
  std::size_t compute_bound_points = 0;  ///< points with I_i >= I*
};

/// Fits the roofline to `points`. Needs at least 3 points with positive intensity and rate
/// spanning at least two distinct intensities; throws std::invalid_argument otherwise.
/// The ridge is searched between the smallest and largest intensity: a sweep that never
/// leaves the memory roof (or never reaches it) puts the ridge at the end of its range,
/// and then one roof is an extrapolation (memory_bound_points or compute_bound_points is 0).
RooflineFit fit_roofline(std::span<const RooflinePoint> points);

}  // namespace tutor::b02
