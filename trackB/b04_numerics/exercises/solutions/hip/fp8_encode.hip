// B04 exercise 2, fp8_encode: the worked solution (HIP; CUDA twin: ../cuda/fp8_encode.cu).
//
// Rounds the fp32 significand once. |x| = s * 2^(e - 23) with s the 24-bit significand 1.m. A
// normal E4M3FNUZ result (e >= -7) keeps s's top 4 bits: 23 - 3 = 20 bits are dropped; below
// 2^-7 the result is subnormal and one more bit is dropped per binade. Round to nearest, ties to
// even, on the dropped bits; a carry out of the mantissa lands in the exponent field on its own
// (1.111 * 2^k + 1 ulp = 1.000 * 2^(k+1)), as in IEEE 754-2019 sec. 4.3.1.
#include "fp8_codec.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b04 {

namespace {
constexpr unsigned kExerciseThreads = 256;

__device__ std::uint8_t encode_e4m3fnuz(float x) {
  const unsigned u = __float_as_uint(x);
  const unsigned a = u & 0x7fffffffu;
  const unsigned sign = (u >> 24) & 0x80u;
  if (a > 0x7f800000u) return 0x80;               // NaN: the only NaN code
  if (a >= 0x43700000u) return sign | 0x7Fu;      // |x| >= 240 = 1.875 * 2^7, inf too: saturate
  if (a < 0x00800000u) return 0x00;               // fp32 zero and subnormals: far below 2^-11
  const int e = int(a >> 23) - 127;
  const unsigned s = (a & 0x007fffffu) | 0x00800000u;
  int shift = 20;
  unsigned code;
  if (e >= -7) {
    code = (unsigned(e + 8) << 3) + ((s >> shift) - 8u);  // exponent field, then the 3 mantissa bits
  } else {
    shift += -7 - e;                              // subnormal: 0.mmm * 2^-7
    if (shift > 24) return 0x00;                  // below half of 2^-10: rounds to zero
    code = s >> shift;
  }
  const unsigned rest = s & ((1u << shift) - 1u), half = 1u << (shift - 1);
  if (rest > half || (rest == half && (code & 1u))) ++code;
  if (code == 0) return 0x00;                     // rounded to zero: +0, never 0x80
  return static_cast<std::uint8_t>(sign | code);  // code <= 0x7F: |x| < 240 rounds to at most 240
}
}  // namespace

__global__ void fp8_encode_exercise(const float* in, std::uint8_t* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  out[i] = encode_e4m3fnuz(in[i]);
}

void launch_exercise_encode(const float* in, std::uint8_t* out, std::size_t n) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>((n + kExerciseThreads - 1) / kExerciseThreads);
  fp8_encode_exercise<<<blocks, kExerciseThreads>>>(in, out, n);
  TUTOR_GPU_CHECK_LAUNCH(fp8_encode_exercise);
}

}  // namespace tutor::b04
