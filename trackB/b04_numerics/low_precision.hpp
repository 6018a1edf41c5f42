#pragma once
// B04 Precision and numerics: the codecs of the narrow floating-point formats, written once for
// host and device code (every function is `__host__ __device__` under nvcc / hipcc, plain C++
// elsewhere; no vendor intrinsics, so the GPU lab can compare it with the hardware).
//
// Formats (value = (-1)^s * 2^(e - bias) * 1.m for normal codes, 2^(1 - bias) * 0.m for e = 0):
//
//   name      bits   bias  max finite  min normal  min subnormal  specials                     source
//   e4m3fn    1.4.3  7     448         2^-6        2^-9           NaN S.1111.111, no inf       OFP8 5.1
//   e5m2      1.5.2  15    57344       2^-14       2^-16          inf S.11111.00, NaN S.11111.xx OFP8 5.1
//   e4m3fnuz  1.4.3  8     240         2^-7        2^-10          NaN 0x80 only, no inf, no -0 FNUZ
//   e5m2fnuz  1.5.2  16    57344       2^-15       2^-17          NaN 0x80 only, no inf, no -0 FNUZ
//   e2m1      1.2.1  1     6           1           0.5            none (no inf, no NaN)        MX 5.3.3
//   e8m0      0.8.0  127   2^127       2^-127      (none)         NaN 0xFF; no sign, no zero   MX 5.4.1
//
// The same bits mean different numbers: 0x38 = 0 0111 000 is 1.0 in e4m3fn and 0.5 in
// e4m3fnuz; 0x80 is -0 in e4m3fn and NaN in e4m3fnuz.
//
// Sources: OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, 2023-06-20 (sec. 5.1 Tables 1
// and 2: formats; sec. 5.2 and 5.2.1: conversion, round to nearest even, saturating and
// non-saturating modes). OCP Microscaling Formats (MX) Specification v1.0, 2023-09 (sec. 5.3.3:
// FP4 E2M1; sec. 5.4.1: E8M0 scale; sec. 6.3: conversion from FP32). FNUZ: B. Noune et al., "8-bit
// Numerical Formats for Deep Neural Networks", arXiv:2206.02915 (2022), which introduced them;
// AMD ROCm "Data types and precision support" (float8 on MI300: no infinity or signed zero, NaN is
// the negative-zero code) and the HIP "FP8 numbers" page (gfx940/941/942: FNUZ only); the bias
// and limits as tabulated in the StableHLO RFC "Float8E4M3FNUZ and Float8E5M2FNUZ" (2023).
// CUDA: cuda_fp8.h (__nv_cvt_float_to_fp8, __NV_SATFINITE / __NV_NOSAT), cuda_fp4.h
// (__nv_cvt_float_to_fp4), and __nv_cvt_float_to_e8m0 (cudaRoundZero / cudaRoundPosInf).
//
// Conversion from fp32 (encode) rounds once, to nearest with ties to even, through the
// subnormal range (OFP8 sec. 5.2.1). Where well-known implementations disagree, this header
// follows OFP8 and CUDA's documented conversions; encode()'s docstring lists each choice.
//
// This header stays C++17 (GPU sources compile as C++17). With C++20's std::bit_cast (host
// code) the codecs are also constexpr.
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#if __has_include(<version>)
#include <version>  // defines __cpp_lib_bit_cast where std::bit_cast exists (C++20)
#endif
#if defined(__cpp_lib_bit_cast)
#include <bit>
#endif

#ifndef TUTOR_HD
#if defined(__CUDACC__) || defined(__HIPCC__)
#define TUTOR_HD __host__ __device__
#else
#define TUTOR_HD
#endif
#endif

// constexpr when the float <-> bits reinterpretation can be (std::bit_cast, C++20 host code).
// The two builds of these functions live in different inline namespaces, so a C++17 GPU
// translation unit and a C++20 host one never define the same inline function differently.
#if defined(__cpp_lib_bit_cast)
#define TUTOR_B04_CONSTEXPR constexpr
#define TUTOR_B04_ABI cx20
#else
#define TUTOR_B04_CONSTEXPR
#define TUTOR_B04_ABI cx17
#endif

namespace tutor::b04 {

/// The formats this header encodes and decodes. Names follow LLVM / PyTorch / ONNX: FN = finite
/// (no infinity) with NaN, UZ = unsigned zero (no -0; NaN takes its code).
enum class Format { e4m3fn, e5m2, e4m3fnuz, e5m2fnuz, e2m1, e8m0 };

/// What encode() does with a finite value whose rounded magnitude exceeds the largest finite
/// value, and with +-inf. saturate: +-max finite. non_saturating: the format's own result,
/// +-inf where the format has one (e5m2), else NaN (e4m3fn, FNUZ; e8m0); e2m1 has neither and
/// always saturates.
enum class Overflow { saturate, non_saturating };

/// The facts of a format. Values are in fp32 (all are exactly representable; e8m0's 2^-127 is
/// an fp32 subnormal). For e8m0 every code is a power of two: min_normal = min_subnormal =
/// 2^-127 (it has no subnormals and no zero).
struct FormatInfo {
  const char* name;
  int exponent_bits, mantissa_bits, bias;
  float max_finite, min_normal, min_subnormal;
  bool has_inf, has_nan, has_negative_zero;
  const char* source;  ///< where the numbers above come from (spec and section)
};

/// The table of formats (the header's opening comment derives each value).
TUTOR_HD constexpr FormatInfo info(Format f) {
  switch (f) {
    case Format::e4m3fn:
      return {"e4m3fn", 4, 3, 7, 448.0f, 0x1p-6f, 0x1p-9f, false, true, true,
              "OCP OFP8 rev 1.0 sec. 5.1, Tables 1-2: bias 7, max S.1111.110 = 1.75*2^8, NaN S.1111.111"};
    case Format::e5m2:
      return {"e5m2", 5, 2, 15, 57344.0f, 0x1p-14f, 0x1p-16f, true, true, true,
              "OCP OFP8 rev 1.0 sec. 5.1, Tables 1-2: bias 15, max S.11110.11 = 1.75*2^15, inf S.11111.00"};
    case Format::e4m3fnuz:
      return {"e4m3fnuz", 4, 3, 8, 240.0f, 0x1p-7f, 0x1p-10f, false, true, false,
              "Noune et al. arXiv:2206.02915; AMD ROCm precision support: bias 8, max S.1111.111 = "
              "1.875*2^7, NaN 0x80, no inf, no -0"};
    case Format::e5m2fnuz:
      return {"e5m2fnuz", 5, 2, 16, 57344.0f, 0x1p-15f, 0x1p-17f, false, true, false,
              "Noune et al. arXiv:2206.02915; AMD ROCm precision support: bias 16, max S.11111.11 = "
              "1.75*2^15, NaN 0x80, no inf, no -0"};
    case Format::e2m1:
      return {"e2m1", 2, 1, 1, 6.0f, 1.0f, 0.5f, false, false, true,
              "OCP MX v1.0 sec. 5.3.3: bias 1, max S.11.1 = 1.5*2^2, min subnormal S.00.1 = 0.5, no inf/NaN"};
    case Format::e8m0:
      return {"e8m0", 8, 0, 127, 0x1p127f, 0x1p-127f, 0x1p-127f, false, true, false,
              "OCP MX v1.0 sec. 5.4.1: unsigned, bias 127, 0x00 = 2^-127 .. 0xFE = 2^127, NaN 0xFF"};
  }
  return {"?", 0, 0, 0, 0.0f, 0.0f, 0.0f, false, false, false, "?"};
}

/// Codes a format has: 256, or 16 for e2m1 (a 4-bit code held in the low bits of a byte).
TUTOR_HD constexpr int code_count(Format f) { return f == Format::e2m1 ? 16 : 256; }

/// "e4m3fn" ... -> the format; anything else -> nullopt. Host only.
inline std::optional<Format> parse_format(std::string_view name) {
  for (Format f : {Format::e4m3fn, Format::e5m2, Format::e4m3fnuz, Format::e5m2fnuz, Format::e2m1, Format::e8m0})
    if (name == info(f).name) return f;
  return std::nullopt;
}

/// The names parse_format accepts, for error messages.
inline constexpr const char* kFormatNames = "e4m3fn, e5m2, e4m3fnuz, e5m2fnuz, e2m1, e8m0";

namespace detail {

inline constexpr std::uint32_t kF32Inf = 0x7F800000u;
inline constexpr std::uint32_t kF32QuietNaN = 0x7FC00000u;

/// Rounds a finite, normal fp32 magnitude (bits `a`, sign cleared, 0x00800000 <= a < 0x7F800000,
/// or a == kF32Inf, which lands above every format's largest code) to a binary format with
/// `m` fraction bits and exponent bias `bias`, to nearest with ties to even, with gradual
/// underflow and an unbounded exponent above. Returns the magnitude code (exponent field << m
/// | fraction), which exceeds the format's largest finite code when the value overflows.
///
/// |x| = s * 2^(e - 23) with s the 24-bit significand. A normal target keeps the top m + 1 bits
/// of s; below the target's minimum exponent emin = 1 - bias the kept bits shrink by emin - e
/// (the subnormal range). The rounding increment carries into the exponent field by itself
/// (0.111 + 1 ulp = 1.000 * 2: the code of the next binade), as in IEEE 754-2019 sec. 4.3.1.
TUTOR_HD constexpr std::uint32_t round_magnitude(std::uint32_t a, int m, int bias) {
  const int e = int(a >> 23) - 127;
  const std::uint32_t s = (a & 0x007FFFFFu) | 0x00800000u;
  const int emin = 1 - bias;
  int shift = 23 - m;
  std::uint32_t code = 0;
  if (e >= emin) {
    code = (std::uint32_t(e + bias) << m) + ((s >> shift) - (1u << m));
  } else {
    shift += emin - e;
    if (shift > 24) return 0;  // |x| < half the smallest subnormal: rounds to zero
    code = s >> shift;
  }
  const std::uint32_t rest = s & ((1u << shift) - 1u);
  const std::uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (code & 1u))) ++code;
  return code;
}

/// The largest finite magnitude code of each format (sign bit clear).
TUTOR_HD constexpr std::uint32_t max_code(Format f) {
  switch (f) {
    case Format::e4m3fn: return 0x7E;   // 0x7F is NaN
    case Format::e5m2: return 0x7B;     // 0x7C is inf
    case Format::e4m3fnuz:
    case Format::e5m2fnuz: return 0x7F; // every exponent is finite
    case Format::e2m1: return 0x7;
    case Format::e8m0: return 0xFE;
  }
  return 0;
}

/// The sign bit of a code: bit 7, or bit 3 for the 4-bit e2m1; e8m0 has none.
TUTOR_HD constexpr std::uint32_t sign_bit(Format f) {
  return f == Format::e2m1 ? 0x8u : (f == Format::e8m0 ? 0u : 0x80u);
}

}  // namespace detail

// ---- code classes ------------------------------------------------------------------------------

/// How a code decodes: for tables and tests.
enum class CodeClass { zero, subnormal, normal, infinity, nan };

/// The class of `code` in format `f` (e2m1 reads the low 4 bits).
TUTOR_HD constexpr CodeClass classify(Format f, std::uint8_t code) {
  const FormatInfo fi = info(f);
  if (f == Format::e2m1) code &= 0xF;
  if (f == Format::e8m0) return code == 0xFF ? CodeClass::nan : CodeClass::normal;
  const std::uint32_t mag = code & ~detail::sign_bit(f) & 0xFFu;
  if ((f == Format::e4m3fnuz || f == Format::e5m2fnuz) && code == 0x80) return CodeClass::nan;
  if (f == Format::e4m3fn && mag == 0x7F) return CodeClass::nan;
  if (f == Format::e5m2 && mag >= 0x7C) return mag == 0x7C ? CodeClass::infinity : CodeClass::nan;
  if (mag == 0) return CodeClass::zero;
  return (mag >> fi.mantissa_bits) == 0 ? CodeClass::subnormal : CodeClass::normal;
}

/// "zero", "subnormal", "normal", "inf", "NaN".
TUTOR_HD constexpr const char* to_string(CodeClass c) {
  switch (c) {
    case CodeClass::zero: return "zero";
    case CodeClass::subnormal: return "subnormal";
    case CodeClass::normal: return "normal";
    case CodeClass::infinity: return "inf";
    case CodeClass::nan: return "NaN";
  }
  return "?";
}

/// How encode(e8m0, ...) rounds a positive value to a power of two (e8m0 has no fraction bits).
/// toward_zero: 2^floor(log2|x|), the shared-exponent rule of OCP MX v1.0 sec. 6.3 and CUDA's
/// cudaRoundZero. up: 2^ceil(log2|x|), CUDA's cudaRoundPosInf (a scale that never makes a
/// block overflow). nearest_even: the nearer power of two on the linear scale (the tie
/// 1.5 * 2^k goes to the even code). The three disagree for any |x| that is not a power of two.
enum class E8m0Rounding { toward_zero, up, nearest_even };

// The functions below reinterpret fp32 bits, so they are constexpr only where std::bit_cast
// exists; they live in an inline namespace named after that (see TUTOR_B04_ABI above). Types
// and the always-constexpr functions above stay outside it, so signatures that use them (the
// GPU lab's launchers) mangle the same in C++17 and C++20 translation units.
inline namespace TUTOR_B04_ABI {

// ---- fp32 bits ------------------------------------------------------------------------------

/// The IEEE 754 binary32 bits of x, and back. memcpy compiles to a register move on host and
/// device; std::bit_cast where available makes them constexpr.
TUTOR_HD TUTOR_B04_CONSTEXPR std::uint32_t bits_of(float x) {
#if defined(__cpp_lib_bit_cast)
  return std::bit_cast<std::uint32_t>(x);
#else
  std::uint32_t u = 0;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}
TUTOR_HD TUTOR_B04_CONSTEXPR float float_of(std::uint32_t u) {
#if defined(__cpp_lib_bit_cast)
  return std::bit_cast<float>(u);
#else
  float x = 0;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}


// ---- decode ----------------------------------------------------------------------------------

/// The value of `code` in format `f`, exactly (every code of every format is an fp32 number).
/// NaN codes give a quiet fp32 NaN with the code's sign; e2m1 reads the low 4 bits.
/// Built from fp32 bits, not by multiplying, so it is exact and branch-light on a GPU.
TUTOR_HD TUTOR_B04_CONSTEXPR float decode(Format f, std::uint8_t code) {
  if (f == Format::e8m0)  // 2^(code - 127); code 0 = 2^-127 is fp32's subnormal 0x00400000
    return code == 0xFF ? float_of(detail::kF32QuietNaN) : float_of(code == 0 ? 0x00400000u : std::uint32_t(code) << 23);
  const FormatInfo fi = info(f);
  if (f == Format::e2m1) code &= 0xF;
  const std::uint32_t sign = (code & detail::sign_bit(f)) ? 0x80000000u : 0u;
  const CodeClass c = classify(f, code);
  if (c == CodeClass::nan) return float_of(sign | detail::kF32QuietNaN);
  if (c == CodeClass::infinity) return float_of(sign | detail::kF32Inf);
  if (c == CodeClass::zero) return float_of(sign);
  const int m = fi.mantissa_bits;
  const std::uint32_t mag = code & ~detail::sign_bit(f) & 0xFFu;
  std::uint32_t field_e = mag >> m, frac = mag & ((1u << m) - 1u);
  int e = int(field_e) - fi.bias;  // unbiased exponent of a normal code
  if (field_e == 0) {              // subnormal: 0.frac * 2^(1 - bias); normalise for fp32
    e = 1 - fi.bias;
    while ((frac & (1u << m)) == 0) {
      frac <<= 1;
      --e;
    }
    frac &= (1u << m) - 1u;
  }
  return float_of(sign | (std::uint32_t(e + 127) << 23) | (frac << (23 - m)));
}

// ---- encode ----------------------------------------------------------------------------------

/// fp32 -> e8m0 (the MX scale). The sign is ignored (e8m0 has none; CUDA converts |x| too).
/// Results below 2^-127, and 0, clip to 2^-127 (code 0x00, as CUDA documents); NaN -> 0xFF;
/// results above 2^127 (only +-inf with toward_zero) -> 0xFE (saturate) or 0xFF (NaN).
TUTOR_HD TUTOR_B04_CONSTEXPR std::uint8_t encode_e8m0(float x, E8m0Rounding r, Overflow o) {
  const std::uint32_t a = bits_of(x) & 0x7FFFFFFFu;
  if (a > detail::kF32Inf) return 0xFF;
  std::uint32_t code = a >> 23;  // the biased exponent: 2^floor(log2|x|) for normal |x|
  const std::uint32_t frac = a & 0x007FFFFFu;
  if (a != detail::kF32Inf) {
    if (r == E8m0Rounding::up && frac != 0 && a > 0x00400000u) ++code;
    // nearest: up when the fraction is above one half, or exactly one half and the code is odd
    if (r == E8m0Rounding::nearest_even && code != 0 &&
        (frac > 0x00400000u || (frac == 0x00400000u && (code & 1u))))
      ++code;
    // fp32 subnormals are below 2^-126: nearest is 2^-127 (code 0) or 2^-126 (code 1)
    if (r == E8m0Rounding::nearest_even && code == 0 && a > 0x00600000u) code = 1;
  }
  if (code == 0xFF) return o == Overflow::saturate ? 0xFE : 0xFF;
  return std::uint8_t(code);
}

/// fp32 -> the code of format `f` that is nearest to x (ties to even), rounding once.
/// e2m1 codes come back in the low 4 bits. The choices where implementations disagree:
///  - NaN: e4m3fn and e5m2 -> 0x7F (CUDA's canonical NaN; OFP8 leaves NaN sign and payload
///    open, so the input's sign is dropped); FNUZ -> 0x80, the only NaN; e2m1, which has no
///    NaN -> 0x7 = +6 (CUDA cuda_fp4.h: "NaN input values result in positive MAXNORM");
///    e8m0 -> 0xFF.
///  - +-inf with Overflow::saturate -> +-max finite in every format, as CUDA's __NV_SATFINITE
///    does ("input larger than MAXNORM round to MAXNORM of the same sign") and OFP8's
///    saturating mode. ONNX's Cast(saturate=1) table instead maps +-inf to NaN for the FNUZ
///    formats; `b04_numerics fp8 encode` prints both.
///  - Overflow::non_saturating: e4m3fn overflow and +-inf -> NaN carrying the input's sign
///    (0x7F / 0xFF, as cuda_fp8.h's __NV_NOSAT path); e5m2 -> +-inf; FNUZ -> 0x80.
///  - -0.0 and negative values that round to zero: -0 where the format has it; FNUZ -> 0x00
///    (0x80 would be NaN: "never -0 in FNUZ").
///  - e8m0 rounds toward zero (MX sec. 6.3, CUDA cudaRoundZero): see encode_e8m0.
/// fp32 subnormals (|x| < 2^-126) are below half of every format's smallest subnormal and give
/// +-0. Going through fp16 or bf16 first rounds twice and can give a different code: 1.0625 +
/// 2^-13 is 0x39 (1.125) in e4m3fn, but fp16/bf16 round it to the tie 1.0625 and then to 0x38.
TUTOR_HD TUTOR_B04_CONSTEXPR std::uint8_t encode(Format f, float x, Overflow o) {
  if (f == Format::e8m0) return encode_e8m0(x, E8m0Rounding::toward_zero, o);
  const FormatInfo fi = info(f);
  const bool fnuz = f == Format::e4m3fnuz || f == Format::e5m2fnuz;
  const std::uint32_t u = bits_of(x);
  const std::uint32_t a = u & 0x7FFFFFFFu;
  const std::uint32_t sign = (u >> 31) ? detail::sign_bit(f) : 0u;
  if (a > detail::kF32Inf) {  // NaN
    if (f == Format::e2m1) return 0x7;
    return fnuz ? 0x80 : 0x7F;
  }
  const std::uint32_t mag = a < 0x00800000u ? 0u : detail::round_magnitude(a, fi.mantissa_bits, fi.bias);
  if (mag > detail::max_code(f)) {  // overflow, or +-inf
    if (o == Overflow::saturate || f == Format::e2m1) return std::uint8_t(sign | detail::max_code(f));
    if (f == Format::e5m2) return std::uint8_t(sign | 0x7C);
    return fnuz ? 0x80 : std::uint8_t(sign | 0x7F);
  }
  if (mag == 0 && fnuz) return 0x00;
  return std::uint8_t(sign | mag);
}

// ---- bf16 and fp16 -----------------------------------------------------------------------------

/// fp32 -> bf16 bits (1.8.7: fp32's top 16 bits), round to nearest, ties to even; overflow
/// -> +-inf; NaN -> quiet NaN with the input's sign (0x7FC0 | sign). The rounding adds
/// 0x7FFF plus the kept lsb to the 16 dropped bits (the carry is the increment).
TUTOR_HD TUTOR_B04_CONSTEXPR std::uint16_t to_bf16(float x) {
  const std::uint32_t u = bits_of(x);
  if ((u & 0x7FFFFFFFu) > detail::kF32Inf) return std::uint16_t(((u >> 16) & 0x8000u) | 0x7FC0u);
  return std::uint16_t((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
/// bf16 bits -> fp32, exact.
TUTOR_HD TUTOR_B04_CONSTEXPR float from_bf16(std::uint16_t h) { return float_of(std::uint32_t(h) << 16); }

/// fp32 -> IEEE 754 binary16 bits (1.5.10, bias 15, max 65504), round to nearest, ties to
/// even, with subnormals (smallest 2^-24); magnitudes that round past 65504 (>= 65520) ->
/// +-inf; NaN -> quiet NaN with the input's sign (0x7E00 | sign).
TUTOR_HD TUTOR_B04_CONSTEXPR std::uint16_t to_fp16(float x) {
  const std::uint32_t u = bits_of(x);
  const std::uint32_t a = u & 0x7FFFFFFFu;
  const std::uint16_t sign = std::uint16_t((u >> 16) & 0x8000u);
  if (a > detail::kF32Inf) return std::uint16_t(sign | 0x7E00u);
  if (a < 0x00800000u) return sign;
  const std::uint32_t mag = detail::round_magnitude(a, 10, 15);
  return std::uint16_t(sign | (mag >= 0x7C00u ? 0x7C00u : mag));
}
/// binary16 bits -> fp32, exact (subnormals normalised; inf and NaN kept, NaN quieted).
TUTOR_HD TUTOR_B04_CONSTEXPR float from_fp16(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  std::uint32_t e = (h >> 10) & 0x1Fu, frac = h & 0x3FFu;
  if (e == 0x1F) return float_of(sign | detail::kF32Inf | (frac ? 0x00400000u | (frac << 13) : 0u));
  if (e == 0) {
    if (frac == 0) return float_of(sign);
    int exp = -14;  // 0.frac * 2^-14: shift the leading one into the hidden bit
    while ((frac & 0x400u) == 0) {
      frac <<= 1;
      --exp;
    }
    return float_of(sign | (std::uint32_t(exp + 127) << 23) | ((frac & 0x3FFu) << 13));
  }
  return float_of(sign | ((e - 15 + 127) << 23) | (frac << 13));
}

}  // namespace TUTOR_B04_ABI
}  // namespace tutor::b04
