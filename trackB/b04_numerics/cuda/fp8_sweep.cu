// B04 fp8 sweep, NVIDIA (CUDA). HIP twin: ../hip/fp8_sweep.hip, same kernels in the same order.
//
// The vendor side is cuda_fp8.h: __nv_cvt_float_to_fp8(x, __NV_SATFINITE | __NV_NOSAT,
// __NV_E4M3 | __NV_E5M2). On sm_89 and later its saturating form is one PTX instruction,
// cvt.rn.satfinite.e4m3x2.f32 / .e5m2x2.f32 (the PTX conversion to fp8 has no non-saturating
// form), and its non-saturating form is the header's software path (exact double arithmetic),
// run on the device. Decoding uses __nv_cvt_fp8_to_halfraw: cvt.rn.f16x2.e4m3x2 on sm_89+.
//
// Every kernel covers the 2^32 patterns with a fixed grid of 2^21 threads, 2^11 patterns each:
// 32-bit indices, no bounds check, the same split on any GPU.
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <stdexcept>
#include <string>

#include "fp8_sweep.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b04 {

namespace {
constexpr unsigned kThreads = 256;  // a multiple of 64: the portable block size
constexpr unsigned kBlocks = 8192;
constexpr unsigned kGridThreads = kThreads * kBlocks;                       // 2^21
constexpr unsigned kPerThread = unsigned((1ull << 32) / kGridThreads);      // 2^11
static_assert((1ull << 32) % kGridThreads == 0, "the grid must tile the 2^32 patterns exactly");

__host__ __device__ constexpr __nv_fp8_interpretation_t interpretation(Format f) {
  return f == Format::e4m3fn ? __NV_E4M3 : __NV_E5M2;
}
__host__ __device__ constexpr __nv_saturation_t saturation(Overflow o) {
  return o == Overflow::saturate ? __NV_SATFINITE : __NV_NOSAT;
}

// The vendor conversion of one fp32 value. On sm_89+ the saturating form is the cvt
// instruction; the non-saturating form is the header's software path (no PTX form exists).
template <Format F, Overflow O>
__device__ std::uint8_t vendor_encode(float x) {
  return __nv_cvt_float_to_fp8(x, saturation(O), interpretation(F));
}
// Which path cuda_fp8.hpp takes for this architecture and mode (its own #if, restated).
template <Overflow O>
__device__ constexpr unsigned vendor_path() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  return O == Overflow::saturate ? kVendorHardware : kVendorSoftware;
#else
  return kVendorSoftware;
#endif
}

[[noreturn]] void unsupported(Format f) {
  throw std::invalid_argument(std::string("fp8_sweep (CUDA): cuda_fp8.h has no conversion for ") + info(f).name +
                              "; allowed: e4m3fn, e5m2");
}

// Sums a per-thread count over the block in shared memory (the same code on 32- and 64-lane
// hardware); thread 0 gets the total.
template <class T>
__device__ T block_sum(T value, T* scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) scratch[threadIdx.x] += scratch[threadIdx.x + stride];
    __syncthreads();
  }
  return scratch[0];
}
}  // namespace

// ---- encode_compare: both conversions of every pattern, differences counted --------------------
// Per-thread counts, block sums, one atomic per block and class that found any; a mismatch also
// claims an example slot while slots are free.
template <Format F, Overflow O>
__global__ void encode_compare(SweepCounters* counters) {
  __shared__ unsigned long long scratch[kThreads];
  const unsigned first = blockIdx.x * kThreads + threadIdx.x;
  unsigned long long mismatches = 0, by_class[kMismatchClasses] = {0, 0, 0};
  for (unsigned k = 0; k < kPerThread; ++k) {
    const std::uint32_t bits = first + k * kGridThreads;
    const float x = float_of(bits);
    const std::uint8_t vendor = vendor_encode<F, O>(x);
    const std::uint8_t library = encode(F, x, O);
    if (vendor != library) {
      ++mismatches;
      ++by_class[mismatch_class(F, x, vendor, library)];
      if (counters->stored < unsigned(kMaxMismatchExamples)) {
        const unsigned slot = atomicAdd(&counters->stored, 1u);
        if (slot < unsigned(kMaxMismatchExamples)) counters->examples[slot] = {bits, vendor, library, {0, 0}};
      }
    }
  }
  // Any mismatch in the block? One sum decides; the per-class sums run only then (never, when
  // the two conversions agree).
  const unsigned long long block_mismatches = block_sum(mismatches, scratch);
  if (block_mismatches) {
    for (unsigned k = 0; k < kMismatchClasses; ++k) {
      __syncthreads();
      const unsigned long long n = block_sum(by_class[k], scratch);
      if (threadIdx.x == 0 && n) atomicAdd(&counters->by_class[k], n);
    }
  }
  if (threadIdx.x == 0) {
    if (block_mismatches) atomicAdd(&counters->mismatches, block_mismatches);
    if (blockIdx.x == 0) counters->vendor_path = vendor_path<O>();
  }
}
void launch_encode_compare(Format f, Overflow o, SweepCounters* counters) {
  if (f == Format::e4m3fn && o == Overflow::saturate)
    encode_compare<Format::e4m3fn, Overflow::saturate><<<kBlocks, kThreads>>>(counters);
  else if (f == Format::e4m3fn)
    encode_compare<Format::e4m3fn, Overflow::non_saturating><<<kBlocks, kThreads>>>(counters);
  else if (f == Format::e5m2 && o == Overflow::saturate)
    encode_compare<Format::e5m2, Overflow::saturate><<<kBlocks, kThreads>>>(counters);
  else if (f == Format::e5m2)
    encode_compare<Format::e5m2, Overflow::non_saturating><<<kBlocks, kThreads>>>(counters);
  else
    unsupported(f);
  TUTOR_GPU_CHECK(cudaPeekAtLastError());  // the launch of the encode_compare instance above
}

// ---- encode_vendor / encode_library: one conversion of every pattern, for timing ---------------
// The codes are summed per thread and the sum compared with a value it cannot reach, so the
// compiler keeps every conversion and the kernel writes (almost) nothing.
template <Format F, Overflow O, bool kVendor>
__global__ void encode_only(unsigned int* sink) {
  const unsigned first = blockIdx.x * kThreads + threadIdx.x;
  unsigned sum = 0;
  for (unsigned k = 0; k < kPerThread; ++k) {
    const float x = float_of(first + k * kGridThreads);
    sum += kVendor ? unsigned(vendor_encode<F, O>(x)) : unsigned(encode(F, x, O));
  }
  if (sum == 0xFFFFFFFFu) atomicAdd(sink, 1u);  // 2^11 codes of at most 255 never sum to this
}
template <bool kVendor>
void launch_encode_only(Format f, Overflow o, unsigned int* sink) {
  if (f == Format::e4m3fn && o == Overflow::saturate)
    encode_only<Format::e4m3fn, Overflow::saturate, kVendor><<<kBlocks, kThreads>>>(sink);
  else if (f == Format::e4m3fn)
    encode_only<Format::e4m3fn, Overflow::non_saturating, kVendor><<<kBlocks, kThreads>>>(sink);
  else if (f == Format::e5m2 && o == Overflow::saturate)
    encode_only<Format::e5m2, Overflow::saturate, kVendor><<<kBlocks, kThreads>>>(sink);
  else if (f == Format::e5m2)
    encode_only<Format::e5m2, Overflow::non_saturating, kVendor><<<kBlocks, kThreads>>>(sink);
  else
    unsupported(f);
  TUTOR_GPU_CHECK(cudaPeekAtLastError());  // the launch of the encode_only instance above
}
void launch_encode_vendor(Format f, Overflow o, unsigned int* sink) { launch_encode_only<true>(f, o, sink); }
void launch_encode_library(Format f, Overflow o, unsigned int* sink) { launch_encode_only<false>(f, o, sink); }

// ---- decode_compare: the 256 codes, vendor (fp8 -> fp16 -> fp32, both exact) vs library -----
// Differs from HIP: cuda_fp8.h decodes to fp16 (cvt.rn.f16x2.e4m3x2), then fp16 -> fp32.
template <Format F>
__global__ void decode_compare(std::uint32_t* out, unsigned int* vendor_path_out) {
  const unsigned code = threadIdx.x;
  const __half_raw h = __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t(code), interpretation(F));
  out[2 * code] = bits_of(__half2float(__half(h)));
  out[2 * code + 1] = bits_of(decode(F, std::uint8_t(code)));
  if (code == 0) *vendor_path_out = vendor_path<Overflow::saturate>();  // hardware on sm_89+, like the cvt
}
void launch_decode_compare(Format f, std::uint32_t* out, unsigned int* vendor_path_out) {
  if (f == Format::e4m3fn)
    decode_compare<Format::e4m3fn><<<1, 256>>>(out, vendor_path_out);
  else if (f == Format::e5m2)
    decode_compare<Format::e5m2><<<1, 256>>>(out, vendor_path_out);
  else
    unsupported(f);
  TUTOR_GPU_CHECK(cudaPeekAtLastError());  // the launch of the decode_compare instance above
}

}  // namespace tutor::b04
