#include "tutor/verify.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>

namespace tutor {
namespace {

template <class Ref>
Comparison compare_impl(std::span<const float> got, std::span<const Ref> ref, double tol) {
  Comparison c;
  c.tolerance = tol;
  c.count = got.size();
  if (got.size() != ref.size()) {
    c.reason = "size mismatch: got " + std::to_string(got.size()) + " elements, reference " +
               std::to_string(ref.size());
    return c;
  }
  double err2 = 0, ref2 = 0;
  std::size_t first_nonfinite = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double r = static_cast<double>(ref[i]);
    const double g = static_cast<double>(got[i]);
    if (!std::isfinite(g) && std::isfinite(r)) {
      if (c.nonfinite++ == 0) first_nonfinite = i;
      if (!c.first_mismatch) c.first_mismatch = i;
      ++c.mismatches;
      continue;
    }
    const double d = std::abs(g - r);
    err2 += d * d;
    ref2 += r * r;
    c.max_abs_err = std::max(c.max_abs_err, d);
    if (d > tol * (std::abs(r) + 1.0)) {
      if (c.mismatches++ == 0 && !c.first_mismatch) c.first_mismatch = i;
    }
  }
  c.rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  if (c.nonfinite > 0) {
    c.reason = std::to_string(c.nonfinite) + " of " + std::to_string(c.count) +
               " elements are NaN/Inf (unwritten or overflowed); first at index " +
               std::to_string(first_nonfinite);
  } else if (!(c.rel_l2 <= tol)) {
    c.reason = "relative L2 error " + std::to_string(c.rel_l2) + " exceeds " +
               std::to_string(tol) + "; first mismatch at index " +
               (c.first_mismatch ? std::to_string(*c.first_mismatch) : std::string("?"));
  }
  c.passed = c.reason.empty();
  return c;
}

}  // namespace

Comparison compare(std::span<const float> got, std::span<const double> ref, double tol) {
  return compare_impl(got, ref, tol);
}
Comparison compare(std::span<const float> got, std::span<const float> ref, double tol) {
  return compare_impl(got, ref, tol);
}

namespace {
template <class T>
Comparison compare_exact_impl(std::span<const T> got, std::span<const T> ref) {
  Comparison c;
  c.count = got.size();
  if (got.size() != ref.size()) {
    c.reason = "size mismatch: got " + std::to_string(got.size()) + " elements, reference " +
               std::to_string(ref.size());
    return c;
  }
  double err2 = 0, ref2 = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double d = double(got[i]) - double(ref[i]);
    err2 += d * d;
    ref2 += double(ref[i]) * double(ref[i]);
    c.max_abs_err = std::max(c.max_abs_err, std::abs(d));
    if (got[i] != ref[i]) {
      if (!c.first_mismatch) c.first_mismatch = i;
      ++c.mismatches;
    }
  }
  c.rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : (err2 > 0 ? 1.0 : 0.0);
  c.passed = c.mismatches == 0;
  if (!c.passed)
    c.reason = std::to_string(c.mismatches) + " of " + std::to_string(c.count) + " elements differ, first at " +
               std::to_string(*c.first_mismatch) + " (got " + std::to_string(got[*c.first_mismatch]) + ", expected " +
               std::to_string(ref[*c.first_mismatch]) + ")";
  return c;
}
}  // namespace

Comparison compare_exact(std::span<const std::int32_t> got, std::span<const std::int32_t> ref) {
  return compare_exact_impl(got, ref);
}
Comparison compare_exact(std::span<const std::uint32_t> got, std::span<const std::uint32_t> ref) {
  return compare_exact_impl(got, ref);
}

Comparison worst_of(std::initializer_list<Comparison> parts) {
  Comparison out;
  out.passed = true;
  for (const Comparison& c : parts) {
    if (out.passed && !c.passed) {  // the first failure says why, and where
      out.passed = false;
      out.reason = c.reason;
      out.first_mismatch = c.first_mismatch;
    }
    out.rel_l2 = std::max(out.rel_l2, c.rel_l2);
    out.max_abs_err = std::max(out.max_abs_err, c.max_abs_err);
    out.tolerance = std::max(out.tolerance, c.tolerance);
    out.count += c.count;
    out.nonfinite += c.nonfinite;
    out.mismatches += c.mismatches;
  }
  return out;
}

double default_tolerance(DType dtype, std::size_t k) {
  if (k <= 1) return 0.0;  // data movement is exact
  double u = 0;
  switch (dtype) {
    case DType::f64: u = std::ldexp(1.0, -53); break;
    case DType::f32: u = std::ldexp(1.0, -24); break;
    case DType::tf32: u = std::ldexp(1.0, -11); break;
    case DType::f16: u = std::ldexp(1.0, -11); break;
    case DType::bf16: u = std::ldexp(1.0, -8); break;
    case DType::fp8_e4m3: u = std::ldexp(1.0, -4); break;
    case DType::fp8_e5m2: u = std::ldexp(1.0, -3); break;
  }
  // Capped: a relative L2 tolerance near 1 cannot tell a result from all zeros.
  return std::min(kMaxTolerance, 8.0 * u * std::sqrt(static_cast<double>(k)));
}

void poison(std::span<float> out) {
  float p;
  std::memcpy(&p, &kPoisonBitsF32, sizeof p);
  for (auto& x : out) x = p;
}

void fill_random(std::span<float> out, std::uint64_t seed, float lo, float hi) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  // lo + (hi - lo) * u can round up to hi in float: keep the promise of [lo, hi).
  const float below_hi = std::nextafter(hi, lo);
  for (auto& x : out) x = std::min(dist(gen), below_hi);
  // A draw of exactly 0 everywhere is impossible in practice, but a zero input hides
  // unwritten outputs: nudge the first element if it came out zero.
  if (!out.empty() && out[0] == 0.0f) out[0] = hi > 0 ? hi / 2 : lo / 2;
}

std::uint64_t fresh_seed() {
  const auto t = static_cast<std::uint64_t>(
      std::chrono::high_resolution_clock::now().time_since_epoch().count());
  std::random_device rd;
  return t ^ (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace tutor
