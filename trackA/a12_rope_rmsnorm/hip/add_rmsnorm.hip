// A12 residual add + RMSNorm ladder, AMD (HIP). CUDA twin: ../cuda/add_rmsnorm.cu, same
// kernels in the same order. One block of kBlockThreads per token row; each thread holds up to
// kMaxVecs 16-byte vectors (8 bf16) of the row in registers.
#include "tutor_gpu_check.hpp"
#include "add_rmsnorm.hpp"
#include "rope_rmsnorm.hpp"

#include "tutor/device/block_reduce.hpp"
#include "tutor/device/vector_io.hpp"

namespace tutor::a12 {

namespace {
using device::load_vec;
using device::store_vec;
using Bf16x8 = device::Vec<std::uint16_t, kVec>;
constexpr int kMaxVecs = kMaxHidden / (kBlockThreads * kVec);

__device__ inline float widen(std::uint16_t bits) { return __uint_as_float(std::uint32_t(bits) << 16); }

// Round to nearest, ties to even (Kalamkar et al. 2019, sec. 2); a NaN stays a quiet NaN.
__device__ inline std::uint16_t narrow(float v) {
  std::uint32_t u = __float_as_uint(v);
  if (v != v) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}

// y = RMSNorm(s) * weight for a row whose vectors this thread holds in s[] (bf16 values).
__device__ void norm_row(const Bf16x8 (&s)[kMaxVecs], const AddNormArgs& a, std::uint16_t* y_row) {
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  float sum_sq = 0.0f;
  TUTOR_UNROLL
  for (int j = 0; j < kMaxVecs; ++j)
    TUTOR_UNROLL
    for (int k = 0; k < kVec; ++k) sum_sq += widen(s[j][k]) * widen(s[j][k]);
  const float inv_rms = rsqrtf(device::block_reduce_sum(sum_sq, scratch) / float(a.hidden) + a.eps);
  TUTOR_UNROLL
  for (int j = 0; j < kMaxVecs; ++j) {
    const int i = (j * kBlockThreads + int(threadIdx.x)) * kVec;
    if (i >= a.hidden) continue;
    const Bf16x8 w = load_vec<kVec>(a.weight, i, a.hidden, std::uint16_t(0));
    Bf16x8 o;
    TUTOR_UNROLL
    for (int k = 0; k < kVec; ++k) o[k] = narrow(widen(s[j][k]) * inv_rms * widen(w[k]));
    store_vec<kVec>(y_row, i, a.hidden, o);
  }
}

// s = x + residual for this thread's vectors of the row, rounded to bf16 (the stream's type).
__device__ void add_row(const AddNormArgs& a, std::size_t row, Bf16x8 (&s)[kMaxVecs]) {
  TUTOR_UNROLL
  for (int j = 0; j < kMaxVecs; ++j) {
    const int i = (j * kBlockThreads + int(threadIdx.x)) * kVec;
    const Bf16x8 x = load_vec<kVec>(a.x + row, i, a.hidden, std::uint16_t(0));
    const Bf16x8 r = load_vec<kVec>(a.residual + row, i, a.hidden, std::uint16_t(0));
    TUTOR_UNROLL
    for (int k = 0; k < kVec; ++k) s[j][k] = narrow(widen(x[k]) + widen(r[k]));
    if (i < a.hidden) store_vec<kVec>(a.sum + row, i, a.hidden, s[j]);
  }
}

__global__ void __launch_bounds__(kBlockThreads) residual_add(AddNormArgs a) {
  Bf16x8 s[kMaxVecs];
  add_row(a, std::size_t(blockIdx.x) * a.hidden, s);
}

__global__ void __launch_bounds__(kBlockThreads) rmsnorm_rows(AddNormArgs a) {
  const std::size_t row = std::size_t(blockIdx.x) * a.hidden;
  Bf16x8 s[kMaxVecs];
  TUTOR_UNROLL
  for (int j = 0; j < kMaxVecs; ++j)
    s[j] = load_vec<kVec>(a.sum + row, (j * kBlockThreads + int(threadIdx.x)) * kVec, a.hidden, std::uint16_t(0));
  norm_row(s, a, a.y + row);
}

__global__ void __launch_bounds__(kBlockThreads) add_rmsnorm_fused(AddNormArgs a) {
  const std::size_t row = std::size_t(blockIdx.x) * a.hidden;
  Bf16x8 s[kMaxVecs];
  add_row(a, row, s);
  norm_row(s, a, a.y + row);
}
}  // namespace

// ---- Step 1: add_then_norm -----------------------------------------------------------------
// Two kernels: the residual add reads x and the residual and writes the new stream; RMSNorm
// reads the stream back and writes y. The hidden state crosses HBM five times.
void launch_add_then_norm(const AddNormArgs& a) {
  residual_add<<<a.tokens, kBlockThreads>>>(a);
  TUTOR_GPU_CHECK_LAUNCH(residual_add);
  rmsnorm_rows<<<a.tokens, kBlockThreads>>>(a);
  TUTOR_GPU_CHECK_LAUNCH(rmsnorm_rows);
}

// ---- Step 2: add_norm_fused ----------------------------------------------------------------
// One kernel: the new stream is written and normalised from registers, never read back: four
// crossings instead of five.
void launch_add_norm_fused(const AddNormArgs& a) {
  add_rmsnorm_fused<<<a.tokens, kBlockThreads>>>(a);
  TUTOR_GPU_CHECK_LAUNCH(add_rmsnorm_fused);
}

}  // namespace tutor::a12
