// B04 fp8 codec lab, AMD (HIP). CUDA twin: ../cuda/fp8_codec.cu.
//
// The reference rows: the library's E4M3FNUZ codec (low_precision.hpp), the same code the host
// tests check against the specifications, run on the device one element per thread. The learner's
// codec (exercises/) is verified against the same outputs and timed beside these rows.
#include "tutor_gpu_check.hpp"  // first: low_precision.hpp's __host__ __device__ need the runtime header

#include "fp8_codec.hpp"
#include "low_precision.hpp"

namespace tutor::b04 {

namespace {
constexpr unsigned kThreads = 256;
unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }
}  // namespace

// ---- Reference: decode_library -------------------------------------------------------------
// decode() is generic over six formats: it classifies the code, then builds the fp32 bits.
__global__ void decode_library(const std::uint8_t* codes, float* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = decode(Format::e4m3fnuz, codes[i]);
}
void launch_decode_library(const std::uint8_t* codes, float* out, std::size_t n) {
  if (n == 0) return;
  decode_library<<<blocks_for(n), kThreads>>>(codes, out, n);
  TUTOR_GPU_CHECK_LAUNCH(decode_library);
}

// ---- Reference: encode_library -------------------------------------------------------------
// encode() rounds the fp32 significand once, to nearest even, through the subnormal range.
__global__ void encode_library(const float* in, std::uint8_t* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = encode(Format::e4m3fnuz, in[i], Overflow::saturate);
}
void launch_encode_library(const float* in, std::uint8_t* out, std::size_t n) {
  if (n == 0) return;
  encode_library<<<blocks_for(n), kThreads>>>(in, out, n);
  TUTOR_GPU_CHECK_LAUNCH(encode_library);
}

}  // namespace tutor::b04
