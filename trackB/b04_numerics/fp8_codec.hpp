#pragma once
// B04 fp8 codec lab: E4M3FNUZ decode (code -> fp32) and encode (fp32 -> code, round to nearest
// even, saturating) on the device. The reference rows run the library's codec (low_precision.hpp:
// decode() and encode(), generic over every format); the exercises are the learner's codec for
// this one format, written from the bit layout (exercises/cuda|hip/fp8_decode.*, fp8_encode.*).
//
// E4M3FNUZ: 1 sign, 4 exponent, 3 mantissa bits, bias 8; value = (-1)^s * 2^(e - 8) * 1.m for
// e > 0, (-1)^s * 2^-7 * 0.m for e = 0; 0x80 (the -0 pattern) is the only NaN; no infinity, no -0;
// largest 0x7F = 1.875 * 2^7 = 240, smallest subnormal 0x01 = 2^-10 (low_precision.hpp's table and
// sources). Each launcher enqueues its kernel on the default stream and checks the launch; any n.
// Kernel files include this header, so it stays C++17.
#include <cstddef>
#include <cstdint>

namespace tutor::b04 {

/// out[i] = the value of E4M3FNUZ code codes[i], for i < n (device pointers).
using DecodeLauncher = void (*)(const std::uint8_t* codes, float* out, std::size_t n);
/// out[i] = the E4M3FNUZ code nearest to in[i] (ties to even; |x| >= 240 and +-inf saturate to
/// +-240; NaN -> 0x80; results that round to zero -> 0x00, never the -0 pattern), for i < n.
using EncodeLauncher = void (*)(const float* in, std::uint8_t* out, std::size_t n);

// Reference rows: the library's codec on the device (cuda/fp8_codec.cu, hip/fp8_codec.hip).
void launch_decode_library(const std::uint8_t* codes, float* out, std::size_t n);
void launch_encode_library(const float* in, std::uint8_t* out, std::size_t n);

// The exercises (exercises/cuda|hip/fp8_decode.*, fp8_encode.*; worked solutions in
// exercises/solutions/): run only with --variant exercise_decode / exercise_encode.
void launch_exercise_decode(const std::uint8_t* codes, float* out, std::size_t n);
void launch_exercise_encode(const float* in, std::uint8_t* out, std::size_t n);

}  // namespace tutor::b04
