#pragma once
// B05 profile: the launchers of the layer's sub-ops (profile_model.hpp lists them), the
// interface between the host driver (profile_case.cpp, written once) and each vendor's files:
// cuda/profile_kernels.cu and hip/profile_kernels.hip (the simple kernels of our own, twins),
// cuda/profile_gemm.cu and hip/profile_gemm.hip (the GEMMs through the vendor's BLAS).
// Every launcher enqueues on the default stream and checks the launch; none times or verifies.
// Kernel files include this header, so it stays C++17.
//
// Tensors are bf16, held as their 16 bits (std::uint16_t), row-major, token-major:
//   a token row of width w starts at token * w;
//   tokens are ordered sequence by sequence: token t of sequence b is b * tokens_per_seq + t,
//     at position first_position + t of its sequence (prefill: 0 + t; decode: context - 1);
//   the KV cache of sequence b holds cache_len slots of kv_heads x head_dim each:
//     k_cache[((b * cache_len + slot) * kv_heads + head) * head_dim + c], v_cache alike.
#include <cstddef>
#include <cstdint>

namespace tutor::b05::gpu_layer {

/// The largest head_dim the attention kernel holds in registers (a query row spread over one
/// warp's lanes).
inline constexpr int kMaxHeadDim = 256;

// ---- inputs and checks -------------------------------------------------------------------

/// out[0..n) = bf16 of uniform values in [lo, hi) from a counter-based hash of (seed, i), so
/// a layer's weights and a KV cache of gigabytes need no host-to-device copy.
void fill_uniform_bf16(std::uint16_t* out, std::size_t n, std::uint64_t seed, float lo, float hi);

/// `rows` rows of `row_elems` elements, each `row_stride` elements after the previous, set to
/// `bits`: poisons an output (a NaN pattern) before a launch, also one slot per sequence of a
/// KV cache.
void fill_rows_bf16(std::uint16_t* base, std::size_t rows, std::size_t row_elems, std::size_t row_stride,
                    std::uint16_t bits);

/// `bytes` from device memory at `device` to host memory at `host` (synchronous): the checks
/// read sampled rows of large outputs.
void copy_to_host(void* host, const void* device, std::size_t bytes);

/// One empty kernel of one block: the device time of a launch that does nothing, the floor
/// under every sub-op that the roofline cannot see.
void launch_empty();

// ---- the simple kernels of our own (cuda/profile_kernels.cu, hip/profile_kernels.hip) --------

/// out = RMSNorm(x) * weight for `rows` rows of `width`, one block per row, fp32 sums.
void rmsnorm(const std::uint16_t* x, const std::uint16_t* weight, std::uint16_t* out, int rows, int width,
             float eps);

/// From the fused projection qkv (tokens x (heads + 2 kv_heads) head_dim: q heads, then k,
/// then v): q rotated into q_out (tokens x heads x head_dim), k rotated and v copied into the
/// cache slot of each token's position. The rotation of pair (i, i + head_dim/2) is by the
/// angle position x inv_freq[i], an fp32 product (inv_freq: head_dim/2 floats on the device).
void rope_kv(const std::uint16_t* qkv, const float* inv_freq, std::uint16_t* q_out, std::uint16_t* k_cache,
             std::uint16_t* v_cache, int batch, int tokens_per_seq, int first_position, int cache_len, int heads,
             int kv_heads, int head_dim);

/// out (tokens x heads x head_dim) = softmax(q k^T / sqrt(head_dim)) v, each token's query over
/// the cache slots 0 .. its position (causal), query head j reading KV head j / (heads / kv_heads).
/// One block per (token, head); its warps split the keys, each keeps an online softmax, and
/// the block merges them at the end. Not FlashAttention: later modules replace it.
void attention(const std::uint16_t* q, const std::uint16_t* k_cache, const std::uint16_t* v_cache,
               std::uint16_t* out, int batch, int tokens_per_seq, int first_position, int cache_len, int heads,
               int kv_heads, int head_dim);

/// out[i] = a[i] + b[i] for i < n.
void residual_add(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* out, std::size_t n);

/// out (rows x width) = silu(gate) * up, gate_up rows being [gate (width) | up (width)].
void silu_mul(const std::uint16_t* gate_up, std::uint16_t* out, int rows, int width);

// ---- the GEMMs (cuda/profile_gemm.cu: cuBLAS; hip/profile_gemm.hip: the AMD counterpart) ----

/// True when this build has a vendor BLAS for the GEMMs (the HIP build on Debian 12 has none).
bool blas_available();

/// One line naming the library call, its types and its accumulation, or why there is none.
const char* blas_name();

/// y (tokens x out_features) = x (tokens x in_features) W^T, W out_features x in_features
/// row-major (a PyTorch nn.Linear weight): bf16 in and out, fp32 accumulation. Throws
/// gpu::Error when the library fails or is not in this build.
void linear(const std::uint16_t* x, const std::uint16_t* w, std::uint16_t* y, int tokens, int out_features,
            int in_features);

}  // namespace tutor::b05::gpu_layer
