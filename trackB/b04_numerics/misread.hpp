#pragma once
// B04: what happens when an fp8 tensor written in one variant is read as the other (OCP E4M3FN,
// Hopper and CDNA 4, vs FNUZ E4M3FNUZ, CDNA 3; likewise E5M2 vs E5M2FNUZ), and the conversion
// that is right. Host only (C++20).
//
// Same bits, bias one higher: every finite nonzero code of an FNUZ format is worth exactly half
// of the same code in its OCP partner (2^(e - 8) vs 2^(e - 7), normal or subnormal alike). The
// special codes do not line up: OCP's -0 (0x80) is FNUZ's only NaN, OCP's NaN 0x7F / 0xFF
// (E4M3) are FNUZ's +-240, and FNUZ's top binade is OCP's inf / NaN for E5M2 and NaN for E4M3's
// 0x7F. So a misread checkpoint is scaled by 2 or 1/2 everywhere, a real NaN can read as -0,
// a harmless -0 as NaN, and the largest weights as NaN.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "low_precision.hpp"

namespace tutor::b04 {

/// The variant with the same bit layout: e4m3fn <-> e4m3fnuz, e5m2 <-> e5m2fnuz.
/// Throws std::invalid_argument for e2m1 and e8m0, which have no partner.
inline Format fnuz_partner(Format f) {
  switch (f) {
    case Format::e4m3fn: return Format::e4m3fnuz;
    case Format::e4m3fnuz: return Format::e4m3fn;
    case Format::e5m2: return Format::e5m2fnuz;
    case Format::e5m2fnuz: return Format::e5m2;
    default: break;
  }
  throw std::invalid_argument(std::string("no OCP/FNUZ partner for ") + info(f).name);
}

inline bool is_fnuz(Format f) { return f == Format::e4m3fnuz || f == Format::e5m2fnuz; }

/// A tensor as codes of one format and one fp32 scale: value_i = decode(format, codes_i) * scale.
struct ScaledTensor {
  Format format = Format::e4m3fn;
  float scale = 1.0f;
  std::vector<std::uint8_t> codes;
};

/// Per-tensor absmax scaling, the usual fp8 checkpoint recipe: scale = amax / max_finite over
/// the finite elements (1 if all are zero), codes = encode(format, x / scale, saturate).
/// NaN elements stay NaN (encode's NaN code).
inline ScaledTensor quantize_per_tensor(std::span<const float> x, Format format) {
  float amax = 0;
  for (float v : x)
    if (std::isfinite(v)) amax = std::max(amax, std::fabs(v));
  ScaledTensor t{format, amax > 0 ? amax / info(format).max_finite : 1.0f, {}};
  t.codes.reserve(x.size());
  for (float v : x) t.codes.push_back(encode(format, v / t.scale, Overflow::saturate));
  return t;
}

/// decode(format, code) * scale for every element.
inline std::vector<float> dequantize(const ScaledTensor& t) {
  std::vector<float> out;
  out.reserve(t.codes.size());
  for (std::uint8_t c : t.codes) out.push_back(decode(t.format, c) * t.scale);
  return out;
}

/// What reading a tensor's codes as format `as` (same scale) does to its elements.
struct MisreadCounts {
  std::size_t elements = 0;
  std::size_t halved = 0, doubled = 0;          ///< finite nonzero -> exactly x0.5 / x2
  std::size_t zeros_kept = 0;                   ///< zero -> zero
  std::size_t nan_to_zero = 0, nan_to_value = 0;///< a real NaN that now reads as 0 / as a number
  std::size_t zero_to_nan = 0, value_to_nan = 0;///< 0 (OCP's -0) / a number that now reads as NaN
  std::size_t value_to_inf = 0, inf_to_value = 0;
  std::size_t nan_kept = 0;                     ///< NaN -> NaN
  std::size_t other = 0;                        ///< anything else (none, by the argument above)
};

/// Classifies each element of `t` read as `as` instead of t.format.
inline MisreadCounts misread(const ScaledTensor& t, Format as) {
  MisreadCounts n;
  n.elements = t.codes.size();
  for (std::uint8_t c : t.codes) {
    const float was = decode(t.format, c), now = decode(as, c);
    if (std::isnan(was)) {
      if (std::isnan(now)) ++n.nan_kept;
      else if (now == 0) ++n.nan_to_zero;
      else ++n.nan_to_value;
    } else if (std::isnan(now)) {
      (was == 0 ? n.zero_to_nan : n.value_to_nan)++;
    } else if (std::isinf(now) && !std::isinf(was)) {
      ++n.value_to_inf;
    } else if (std::isinf(was) && !std::isinf(now)) {
      ++n.inf_to_value;
    } else if (was == 0 && now == 0) {
      ++n.zeros_kept;
    } else if (now == was * 0.5f) {
      ++n.halved;
    } else if (now == was * 2.0f) {
      ++n.doubled;
    } else {
      ++n.other;
    }
  }
  return n;
}

/// The conversion to the partner variant that keeps every value it can, and what it had to change.
struct VariantConversion {
  ScaledTensor tensor;
  std::size_t negative_zero_to_zero = 0;  ///< OCP -0 (0x80) -> 0x00 (0x80 is FNUZ's NaN)
  std::size_t nan_remapped = 0;           ///< NaN codes moved to the target's NaN code
  std::size_t inf_to_nan = 0;             ///< E5M2 +-inf -> 0x80 (FNUZ has no inf)
  std::size_t saturated = 0;              ///< FNUZ's top codes, above OCP's max: clamped
};

/// Converts `t` to its partner variant without decoding: keep the bits and rescale, because the
/// same finite code is worth 2x in OCP what it is worth in FNUZ.
///   OCP -> FNUZ: scale x 2; 0x80 (-0) -> 0x00; NaN codes -> 0x80; E5M2 +-inf -> 0x80. Exact.
///     (vLLM's normalize_e4m3fn_to_e4m3fnuz does the first two, but leaves E4M3's NaN codes
///     0x7F / 0xFF, which then read as +-240.)
///   FNUZ -> OCP: scale x 0.5; 0x80 (NaN) -> 0x7F; codes above the OCP max finite (E4M3: +-0x7F,
///     240 = 480 in OCP units > 448; E5M2: 0x7C..0x7F) clamp to +-max (E4M3: 448, -6.7%).
/// Every other element dequantizes to exactly the same fp32 value before and after.
inline VariantConversion convert_variant(const ScaledTensor& t) {
  const Format to = fnuz_partner(t.format);
  VariantConversion r;
  r.tensor.format = to;
  r.tensor.scale = is_fnuz(to) ? t.scale * 2.0f : t.scale * 0.5f;
  r.tensor.codes.reserve(t.codes.size());
  const std::uint8_t ocp_max = to == Format::e4m3fn ? 0x7E : 0x7B;
  for (std::uint8_t c : t.codes) {
    const CodeClass k = classify(t.format, c);
    std::uint8_t out = c;
    if (is_fnuz(to)) {
      if (k == CodeClass::nan) {
        out = 0x80;
        ++r.nan_remapped;
      } else if (k == CodeClass::infinity) {
        out = 0x80;
        ++r.inf_to_nan;
      } else if (c == 0x80) {
        out = 0x00;
        ++r.negative_zero_to_zero;
      }
    } else {
      if (k == CodeClass::nan) {
        out = 0x7F;
        ++r.nan_remapped;
      } else if ((c & 0x7F) > ocp_max) {
        out = std::uint8_t((c & 0x80) | ocp_max);
        ++r.saturated;
      }
    }
    r.tensor.codes.push_back(out);
  }
  return r;
}

/// The plain cast instead: decode each code in its own variant and encode the value in the
/// partner, keeping the scale (what `tensor.to(other_fp8_dtype)` does). The ranges differ (E4M3:
/// OCP 2^-9 .. 448, FNUZ 2^-10 .. 240), so OCP -> FNUZ saturates every value above 240 (the
/// outliers, which matter most) and FNUZ -> OCP rounds FNUZ's extra bottom binade.
struct PlainCast {
  ScaledTensor tensor;
  std::size_t saturated = 0;  ///< finite values above the target's max finite
};
inline PlainCast plain_cast(const ScaledTensor& t) {
  const Format to = fnuz_partner(t.format);
  PlainCast r{{to, t.scale, {}}, 0};
  r.tensor.codes.reserve(t.codes.size());
  for (std::uint8_t c : t.codes) {
    const float v = decode(t.format, c);
    if (std::isfinite(v) && std::fabs(v) > info(to).max_finite) ++r.saturated;
    r.tensor.codes.push_back(encode(to, v, Overflow::saturate));
  }
  return r;
}

/// A synthetic weight matrix, flattened: N(0, std_dev^2) from a Box-Muller transform of a
/// 64-bit Mersenne Twister (fixed by the C++ standard, so a seed gives the same tensor with any
/// compiler), with one element in a thousand an outlier scaled by 8-20x (the heavy tail of LLM
/// weights), and `nan_count` elements set to NaN at seeded positions (a diverged update).
inline std::vector<float> synthetic_weights(std::size_t count, std::uint64_t seed, double std_dev = 0.02,
                                            std::size_t nan_count = 4) {
  std::mt19937_64 engine(seed);
  auto uniform = [&] { return (double(engine() >> 11) + 0.5) * 0x1.0p-53; };  // (0, 1)
  const double two_pi = 6.283185307179586476925;
  std::vector<float> w(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double z = std::sqrt(-2.0 * std::log(uniform())) * std::cos(two_pi * uniform());
    double v = std_dev * z;
    if (uniform() < 1e-3) v *= 8.0 + 12.0 * uniform();
    w[i] = float(v);
  }
  for (std::size_t k = 0; k < nan_count && count > 0; ++k)
    w[std::size_t(uniform() * double(count)) % count] = std::nanf("");
  return w;
}

}  // namespace tutor::b04
