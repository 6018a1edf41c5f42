// B04 exercise 1, fp8_decode (CUDA; HIP twin: ../hip/fp8_decode.hip).
//
// Decode E4M3FNUZ from its bit layout: one byte per element, s eeee mmm, exponent bias 8.
//   e > 0:          (-1)^s * 2^(e - 8) * (1 + m/8)      (normal)
//   e = 0, m > 0:   (-1)^s * 2^-7 * (m/8)                (subnormal: no implicit 1)
//   0x00:           +0
//   0x80:           NaN (the pattern that is -0 in IEEE formats; FNUZ has no -0 and no infinity)
// Then run
//   ./build/b04_fp8_codec --variant exercise_decode
// The lab feeds all 256 codes (in order) and random codes, at 1, 1,000,003 and 2^28 elements,
// compares every output bit for bit with the library's decode() (any NaN is accepted for 0x80),
// and times your kernel beside the reference row decode_library. Until the TODO is done it
// fails verification: the output keeps its poison ("nothing written").
//
// Hints: every code's value is exact in fp32, so build it without rounding: ldexpf(8 + m, e - 11)
// or the fp32 bits directly (exponent e - 8 + 127, mantissa m << 20). Check 0x01 = 2^-10,
// 0x08 = 2^-7, 0x38 = 0.5 (not 1.0: that is e4m3fn's bias), 0x7F = 240, 0xFF = -240.
// The worked solution: ../solutions/cuda/fp8_decode.cu.
#include "fp8_codec.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b04 {

namespace {
constexpr unsigned kExerciseThreads = 256;
}

__global__ void fp8_decode_exercise(const std::uint8_t* codes, float* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  // TODO: out[i] = the E4M3FNUZ value of codes[i] (sign, exponent, mantissa as above).
  (void)codes; (void)out;
}

void launch_exercise_decode(const std::uint8_t* codes, float* out, std::size_t n) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>((n + kExerciseThreads - 1) / kExerciseThreads);
  fp8_decode_exercise<<<blocks, kExerciseThreads>>>(codes, out, n);
  TUTOR_GPU_CHECK_LAUNCH(fp8_decode_exercise);
}

}  // namespace tutor::b04
