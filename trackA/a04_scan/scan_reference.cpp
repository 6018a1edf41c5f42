// A04 Scan: host reference prefix sums and the verdicts on a step's output.
#include "scan_reference.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace tutor::a04 {

FloatReference float_scan_reference(std::span<const float> in, bool exclusive) {
  FloatReference r;
  r.prefix.resize(in.size());
  r.abs_prefix.resize(in.size());
  double sum = 0, abs_sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (exclusive) {
      r.prefix[i] = sum;
      r.abs_prefix[i] = abs_sum;
    }
    sum += in[i];
    abs_sum += std::fabs(double(in[i]));
    if (!exclusive) {
      r.prefix[i] = sum;
      r.abs_prefix[i] = abs_sum;
    }
  }
  return r;
}

std::vector<std::int64_t> int_scan_reference(std::span<const std::int32_t> in, bool exclusive) {
  std::vector<std::int64_t> out(in.size());
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (exclusive) out[i] = sum;
    sum += in[i];
    if (!exclusive) out[i] = sum;
  }
  return out;
}

double float_error_bound(std::size_t i, double abs_prefix) {
  const double u = std::ldexp(1.0, -24);  // fp32 unit roundoff, round to nearest
  const double d = double(i / 256 + 64);
  return d * u / (1.0 - d * u) * abs_prefix;
}

Comparison check_float_scan(std::span<const float> got, const FloatReference& ref) {
  Comparison c;
  c.count = got.size();
  if (got.size() != ref.prefix.size()) {
    c.reason = fmt::format("{} results for {} reference values", got.size(), ref.prefix.size());
    return c;
  }
  double err2 = 0, ref2 = 0, worst_ratio = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) {
      ++c.nonfinite;
      ++c.mismatches;
      if (!c.first_mismatch) c.first_mismatch = i;
      continue;
    }
    const double err = std::fabs(double(got[i]) - ref.prefix[i]);
    const double bound = float_error_bound(i, ref.abs_prefix[i]);
    err2 += err * err;
    ref2 += ref.prefix[i] * ref.prefix[i];
    c.max_abs_err = std::max(c.max_abs_err, err);
    if (bound > 0) worst_ratio = std::max(worst_ratio, err / bound);
    if (err > bound) {
      ++c.mismatches;
      if (!c.first_mismatch) c.first_mismatch = i;
    }
  }
  c.rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  c.tolerance = worst_ratio;  // the largest error as a fraction of its own bound
  c.passed = c.mismatches == 0;
  if (!c.passed) {
    const std::size_t i = *c.first_mismatch;
    c.reason = c.nonfinite > 0
                   ? fmt::format("{} of {} prefixes are NaN/Inf (the poison left unwritten?), first at {}", c.nonfinite,
                                 c.count, i)
                   : fmt::format("{} of {} prefixes outside gamma_d * sum|x| (first at {}: got {}, want {:.9g})",
                                 c.mismatches, c.count, i, got[i], ref.prefix[i]);
  }
  return c;
}

Comparison check_int_scan(std::span<const std::int32_t> got, std::span<const std::int64_t> ref) {
  Comparison c;
  c.count = got.size();
  c.tolerance = 0;
  if (got.size() != ref.size()) {
    c.reason = fmt::format("{} results for {} reference values", got.size(), ref.size());
    return c;
  }
  double err2 = 0, ref2 = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double err = std::fabs(double(got[i]) - double(ref[i]));
    err2 += err * err;
    ref2 += double(ref[i]) * double(ref[i]);
    c.max_abs_err = std::max(c.max_abs_err, err);
    const bool in_range = ref[i] >= std::numeric_limits<std::int32_t>::min() &&
                          ref[i] <= std::numeric_limits<std::int32_t>::max();
    if (!in_range || std::int64_t(got[i]) != ref[i]) {
      ++c.mismatches;
      if (!c.first_mismatch) c.first_mismatch = i;
    }
  }
  c.rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  c.passed = c.mismatches == 0;
  if (!c.passed) {
    const std::size_t i = *c.first_mismatch;
    c.reason = fmt::format("{} of {} prefixes differ from the exact sum (first at {}: got {}, want {})", c.mismatches,
                           c.count, i, got[i], ref[i]);
  }
  return c;
}

}  // namespace tutor::a04
