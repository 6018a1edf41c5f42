#pragma once
// Roofline math (Williams, Waterman and Patterson, "Roofline: an insightful visual
// performance model for multicore architectures", CACM 52(4), 2009, eq. 1):
//   attainable rate = min(peak compute rate, arithmetic intensity * memory bandwidth).
#include <string_view>

namespace tutor::roofline {

/// Arithmetic intensity in FLOP/byte: `flops` over `bytes` moved through device memory.
/// Returns +inf for bytes == 0 and flops > 0; throws std::invalid_argument for negatives.
double arithmetic_intensity(double flops, double bytes);

/// Ridge point in FLOP/byte: the intensity at which the memory roof meets the compute
/// roof, peak_TFLOPs * 1e12 / (bandwidth_GBps * 1e9). Throws on non-positive inputs.
double ridge_point(double peak_TFLOPs, double bandwidth_GBps);

/// Attainable rate in TFLOP/s at `intensity` FLOP/byte (the roofline, eq. 1 above).
double attainable_TFLOPs(double intensity, double peak_TFLOPs, double bandwidth_GBps);

/// "memory" if intensity is below the ridge point, else "compute".
std::string_view bound(double intensity, double peak_TFLOPs, double bandwidth_GBps);

}  // namespace tutor::roofline
