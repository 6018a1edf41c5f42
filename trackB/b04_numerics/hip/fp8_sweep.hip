// B04 fp8 sweep, AMD (HIP). CUDA twin: ../cuda/fp8_sweep.cu, same kernels in the same order.
//
// The vendor side is the CDNA 3 conversion instructions, reached through clang's builtins (clang
// 15, ROCm 5.2 has them for gfx940): __builtin_amdgcn_cvt_pk_fp8_f32 (v_cvt_pk_fp8_f32, fp32 ->
// E4M3FNUZ) and __builtin_amdgcn_cvt_pk_bf8_f32 (-> E5M2FNUZ), and __builtin_amdgcn_cvt_f32_fp8 /
// _bf8 to decode. CDNA 3 implements the FNUZ variants, so this file checks e4m3fnuz / e5m2fnuz
// where cuda/ checks e4m3fn / e5m2. The builtins set no clamp modifier; which overflow mode
// that is has not been checked on an MI300 here, so the driver compares the instruction with
// both of the library's modes. gfx90a (CDNA 2) has no fp8 instructions: there the kernels run
// the library only and say so (vendor_path = kVendorNone). Compiled in CI, not run here.
//
// Every kernel covers the 2^32 patterns with a fixed grid of 2^21 threads, 2^11 patterns each:
// 32-bit indices, no bounds check, the same split on any GPU.
#include <hip/hip_runtime.h>

#include <stdexcept>
#include <string>

#include "fp8_sweep.hpp"
#include "tutor_gpu_check.hpp"

// The fp8 conversion instructions exist on CDNA 3 (gfx940/941/942) only.
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
#define TUTOR_B04_HAS_FP8_INSTRUCTIONS 1
#else
#define TUTOR_B04_HAS_FP8_INSTRUCTIONS 0
#endif

namespace tutor::b04 {

namespace {
constexpr unsigned kThreads = 256;  // a multiple of 64: four wavefronts, eight warps on NVIDIA
constexpr unsigned kBlocks = 8192;
constexpr unsigned kGridThreads = kThreads * kBlocks;                       // 2^21
constexpr unsigned kPerThread = unsigned((1ull << 32) / kGridThreads);      // 2^11
static_assert((1ull << 32) % kGridThreads == 0, "the grid must tile the 2^32 patterns exactly");

// The vendor conversion of one fp32 value: the instruction where it exists, else the library
// (and the kernel reports kVendorNone). Differs from CUDA: there is no saturation argument.
template <Format F, Overflow O>
__device__ std::uint8_t vendor_encode(float x) {
#if TUTOR_B04_HAS_FP8_INSTRUCTIONS
  return F == Format::e4m3fnuz ? std::uint8_t(__builtin_amdgcn_cvt_pk_fp8_f32(x, 0.0f, 0, false) & 0xFF)
                               : std::uint8_t(__builtin_amdgcn_cvt_pk_bf8_f32(x, 0.0f, 0, false) & 0xFF);
#else
  return encode(F, x, O);
#endif
}
// Which path this target takes (the same for both modes: the instruction has no mode).
template <Overflow O>
__device__ constexpr unsigned vendor_path() {
  return TUTOR_B04_HAS_FP8_INSTRUCTIONS ? kVendorHardware : kVendorNone;
}

[[noreturn]] void unsupported(Format f) {
  throw std::invalid_argument(std::string("fp8_sweep (HIP): CDNA 3 has no conversion for ") + info(f).name +
                              "; allowed: e4m3fnuz, e5m2fnuz");
}

// Sums a per-thread count over the block in shared memory (LDS; the same code on 32- and
// 64-lane hardware); thread 0 gets the total.
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
  if (f == Format::e4m3fnuz && o == Overflow::saturate)
    encode_compare<Format::e4m3fnuz, Overflow::saturate><<<kBlocks, kThreads>>>(counters);
  else if (f == Format::e4m3fnuz)
    encode_compare<Format::e4m3fnuz, Overflow::non_saturating><<<kBlocks, kThreads>>>(counters);
  else if (f == Format::e5m2fnuz && o == Overflow::saturate)
    encode_compare<Format::e5m2fnuz, Overflow::saturate><<<kBlocks, kThreads>>>(counters);
  else if (f == Format::e5m2fnuz)
    encode_compare<Format::e5m2fnuz, Overflow::non_saturating><<<kBlocks, kThreads>>>(counters);
  else
    unsupported(f);
  TUTOR_GPU_CHECK(hipPeekAtLastError());  // the launch of the encode_compare instance above
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
  if (f == Format::e4m3fnuz && o == Overflow::saturate)
    encode_only<Format::e4m3fnuz, Overflow::saturate, kVendor><<<kBlocks, kThreads>>>(sink);
  else if (f == Format::e4m3fnuz)
    encode_only<Format::e4m3fnuz, Overflow::non_saturating, kVendor><<<kBlocks, kThreads>>>(sink);
  else if (f == Format::e5m2fnuz && o == Overflow::saturate)
    encode_only<Format::e5m2fnuz, Overflow::saturate, kVendor><<<kBlocks, kThreads>>>(sink);
  else if (f == Format::e5m2fnuz)
    encode_only<Format::e5m2fnuz, Overflow::non_saturating, kVendor><<<kBlocks, kThreads>>>(sink);
  else
    unsupported(f);
  TUTOR_GPU_CHECK(hipPeekAtLastError());  // the launch of the encode_only instance above
}
void launch_encode_vendor(Format f, Overflow o, unsigned int* sink) { launch_encode_only<true>(f, o, sink); }
void launch_encode_library(Format f, Overflow o, unsigned int* sink) { launch_encode_only<false>(f, o, sink); }

// ---- decode_compare: the 256 codes, vendor (fp8 -> fp32 directly) vs library -----------------
// Differs from CUDA: the instruction decodes straight to fp32 (no fp16 step).
template <Format F>
__global__ void decode_compare(std::uint32_t* out, unsigned int* vendor_path_out) {
  const unsigned code = threadIdx.x;
#if TUTOR_B04_HAS_FP8_INSTRUCTIONS
  const float vendor = F == Format::e4m3fnuz ? __builtin_amdgcn_cvt_f32_fp8(int(code), 0)
                                             : __builtin_amdgcn_cvt_f32_bf8(int(code), 0);
#else
  const float vendor = decode(F, std::uint8_t(code));
#endif
  out[2 * code] = bits_of(vendor);
  out[2 * code + 1] = bits_of(decode(F, std::uint8_t(code)));
  if (code == 0) *vendor_path_out = vendor_path<Overflow::saturate>();
}
void launch_decode_compare(Format f, std::uint32_t* out, unsigned int* vendor_path_out) {
  if (f == Format::e4m3fnuz)
    decode_compare<Format::e4m3fnuz><<<1, 256>>>(out, vendor_path_out);
  else if (f == Format::e5m2fnuz)
    decode_compare<Format::e5m2fnuz><<<1, 256>>>(out, vendor_path_out);
  else
    unsupported(f);
  TUTOR_GPU_CHECK(hipPeekAtLastError());  // the launch of the decode_compare instance above
}

}  // namespace tutor::b04
