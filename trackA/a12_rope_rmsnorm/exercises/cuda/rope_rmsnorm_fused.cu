// A12 exercise 1, rope_rmsnorm_fused (CUDA; HIP twin: ../hip/rope_rmsnorm_fused.hip).
//
// Step 1 (unfused) runs RMSNorm and RoPE as two kernels, so the activations cross HBM four
// times. Write the fused kernel: one block per token, `Lanes` lanes per head row (one 16-byte
// vector of 8 bf16 each), and for each of the token's heads: load the row, sum its squares in
// fp32 and reduce them across the row's lanes, scale by the reciprocal RMS and the head's weight
// (q_weight for the first q_heads heads, k_weight after), rotate the pairs below rotary_dim with
// the token's (cos, sin) from the table, write the row as bf16. Then run
//   ./build/a12_rope_rmsnorm --variant exercise --variant fused_table
// The lab verifies it on every shape (both layouts, partial rotary, head_dim 7 to 128, tokens 1
// to 4097, large activations, zero rows) and times it beside fused_table; until the TODO is
// done it fails verification: the output keeps its NaN poison.
//
// Hints: tutor/device/vector_io.hpp (load_vec / store_vec: aligned or not, the tail of the row)
// and tutor/device/warp_reduce.hpp (warp_reduce_sum<Lanes>: a reduction within each aligned
// group of Lanes lanes). A lane needs its pair's partner, which another lane may hold: pass the
// row through shared memory (rows, below), with a barrier before the reads and another before
// the next head overwrites it. Every thread must reach every barrier: loop over the heads the
// same number of times in every group. The rotation (RoFormer eq. 34): the lower element a of
// a pair becomes a cos - b sin, the upper b cos + a sin; pair_index (rope_rmsnorm.hpp, a host
// function: write its rule in the kernel) says which elements pair. The worked solution: ../solutions/cuda/rope_rmsnorm_fused.cu.
#include "tutor_gpu_check.hpp"
#include "rope_rmsnorm.hpp"

#include "tutor/device/vector_io.hpp"
#include "tutor/device/warp_reduce.hpp"

namespace tutor::a12 {

// bf16 travels as its 16 bits; widening to fp32 is exact (bf16 is the top half of an fp32).
__device__ inline float ex_bf16_to_f32(std::uint16_t bits) { return __uint_as_float(std::uint32_t(bits) << 16); }

// Round to nearest, ties to even (Kalamkar et al. 2019, sec. 2); a NaN stays a quiet NaN.
__device__ inline std::uint16_t ex_f32_to_bf16(float v) {
  std::uint32_t u = __float_as_uint(v);
  if (v != v) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}

namespace {
template <int Lanes>
__global__ void __launch_bounds__(kBlockThreads) exercise_fused(RopeNormArgs a) {
  __shared__ float2 cs[kMaxHeadDim / 2];            // this token's (cos, sin) per pair
  __shared__ float rows[kBlockThreads * kVec];      // one head row per group of Lanes lanes, fp32
  // TODO: y = RoPE(RMSNorm(x)) for every head of token blockIdx.x (see the comment at the top).
  (void)a; (void)cs; (void)rows;
}
}  // namespace

void launch_exercise_fused(const RopeNormArgs& a) {
  switch (lanes_per_row(a.head_dim)) {
    case 1: exercise_fused<1><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_fused<1>); break;
    case 2: exercise_fused<2><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_fused<2>); break;
    case 4: exercise_fused<4><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_fused<4>); break;
    case 8: exercise_fused<8><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_fused<8>); break;
    case 16: exercise_fused<16><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_fused<16>); break;
    default: exercise_fused<32><<<a.tokens, kBlockThreads>>>(a); TUTOR_GPU_CHECK_LAUNCH(exercise_fused<32>); break;
  }
}

}  // namespace tutor::a12
