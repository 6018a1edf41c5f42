#include "tutor/roofline.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tutor::roofline {

double arithmetic_intensity(double flops, double bytes) {
  if (!(flops >= 0) || !(bytes >= 0)) throw std::invalid_argument("flops and bytes must be >= 0 (not NaN)");
  if (bytes == 0) return flops > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  return flops / bytes;
}

double ridge_point(double peak_TFLOPs, double bandwidth_GBps) {
  if (!(peak_TFLOPs > 0) || !(bandwidth_GBps > 0))
    throw std::invalid_argument("ridge point needs a positive peak rate and bandwidth");
  return peak_TFLOPs * 1e12 / (bandwidth_GBps * 1e9);
}

double attainable_TFLOPs(double intensity, double peak_TFLOPs, double bandwidth_GBps) {
  if (!(intensity >= 0)) throw std::invalid_argument("arithmetic intensity must be >= 0 (not NaN)");
  ridge_point(peak_TFLOPs, bandwidth_GBps);  // validates the roofs
  return std::min(peak_TFLOPs, intensity * bandwidth_GBps * 1e9 / 1e12);
}

std::string_view bound(double intensity, double peak_TFLOPs, double bandwidth_GBps) {
  if (!(intensity >= 0)) throw std::invalid_argument("arithmetic intensity must be >= 0 (not NaN)");
  return intensity < ridge_point(peak_TFLOPs, bandwidth_GBps) ? "memory" : "compute";
}

}  // namespace tutor::roofline
