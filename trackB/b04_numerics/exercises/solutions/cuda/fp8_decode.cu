// B04 exercise 1, fp8_decode: the worked solution (CUDA; HIP twin: ../hip/fp8_decode.hip).
//
// Builds the fp32 bits of each E4M3FNUZ code directly: no multiply, no rounding, every code exact.
// A normal code 1.m * 2^(e - 8) has fp32 exponent field e - 8 + 127 and its 3 mantissa bits at the
// top of fp32's 23; a subnormal 0.m * 2^-7 is normalised first (shift m left until its leading one
// becomes the implicit bit, one exponent step per shift). 0x80 is the one NaN; 0x00 is +0.
#include "fp8_codec.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b04 {

namespace {
constexpr unsigned kExerciseThreads = 256;

__device__ float decode_e4m3fnuz(std::uint8_t code) {
  if (code == 0x80) return __uint_as_float(0x7fc00000u);  // the only NaN: a quiet fp32 NaN
  const unsigned sign = unsigned(code & 0x80) << 24;
  unsigned e = (code >> 3) & 0xFu, m = code & 0x7u;
  int exponent = int(e) - 8;  // unbiased, for a normal code
  if (e == 0) {
    if (m == 0) return __uint_as_float(sign);  // 0x00: +0 (0x80 was NaN above)
    exponent = -7;                             // 0.m * 2^-7: normalise to 1.m' * 2^(-7 - shifts)
    while ((m & 0x8u) == 0) {
      m <<= 1;
      --exponent;
    }
    m &= 0x7u;
  }
  return __uint_as_float(sign | (unsigned(exponent + 127) << 23) | (m << 20));
}
}  // namespace

__global__ void fp8_decode_exercise(const std::uint8_t* codes, float* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  out[i] = decode_e4m3fnuz(codes[i]);
}

void launch_exercise_decode(const std::uint8_t* codes, float* out, std::size_t n) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>((n + kExerciseThreads - 1) / kExerciseThreads);
  fp8_decode_exercise<<<blocks, kExerciseThreads>>>(codes, out, n);
  TUTOR_GPU_CHECK_LAUNCH(fp8_decode_exercise);
}

}  // namespace tutor::b04
