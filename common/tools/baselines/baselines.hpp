#pragma once
// tutor_baselines: the vendor runtime and libraries on this device, as the reference numbers
// the modules' READMEs quote. This header is the interface between the host driver
// (tutor_baselines.cpp, written once) and each vendor's file (cuda/baselines.cu,
// hip/baselines.hip), which enqueue work on the default stream and never time or check it.
// C++17: the GPU sources include it.
#include <cstddef>
#include <cstdint>

namespace tutor::baselines {

// ---- inputs ------------------------------------------------------------------------------

/// Fills out[0..n) with uniform values in [lo, hi) from a counter-based hash of (seed, i)
/// (SplitMix64, Steele et al., OOPSLA 2014), so 2^28 inputs need no host-to-device copy.
void fill_uniform(float* out, std::size_t n, std::uint64_t seed, float lo, float hi);

/// out[i] = in[i] rounded to bfloat16 (round to nearest even), stored as its 16 bits.
void round_to_bf16(const float* in, std::uint16_t* out, std::size_t n);

// ---- memory: the two copies every module's bandwidth is compared with ----------------------

/// The runtime's device-to-device copy (cudaMemcpyAsync / hipMemcpyAsync) of `bytes`.
void runtime_copy(void* dst, const void* src, std::size_t bytes);

/// The simplest kernel that can reach the copy ceiling: a grid-stride loop of 16-byte loads
/// and stores, one wave of resident blocks, four loads in flight per thread. `n` floats at any
/// n (the n % 4 tail is copied one float at a time); dst and src 16-byte aligned.
void float4_copy(float* dst, const float* src, std::size_t n);

// ---- launch overhead -------------------------------------------------------------------------

/// Launches `count` empty kernels (one block of one thread) back to back on the default stream.
void empty_kernels(int count);

/// An executable graph of `count` empty kernels in a chain, captured from a stream; an opaque
/// handle for the host driver (the graph types are the vendor's).
void* capture_empty_kernel_graph(int count);
/// Replays the graph on the default stream.
void launch_graph(void* graph);
void destroy_graph(void* graph);

// ---- the vendor BLAS ---------------------------------------------------------------------

/// Which GEMM of the vendor's BLAS (cuBLAS on NVIDIA).
enum class GemmMath {
  fp32,  ///< cublasSgemm, CUBLAS_DEFAULT_MATH: fp32 FMA, no tensor cores
  tf32,  ///< cublasSgemm, CUBLAS_TF32_TENSOR_OP_MATH: inputs rounded to TF32, fp32 accumulation
  bf16,  ///< cublasGemmEx: bf16 A and B, fp32 C, CUBLAS_COMPUTE_32F (fp32 accumulation)
};

/// True when this build has a vendor BLAS (the HIP build on Debian 12 has none).
bool blas_available();

/// One line naming the library call and its math mode, or why there is none.
const char* blas_name(GemmMath math);

/// C (m x n) = A (m x k) B (k x n), row-major, alpha 1, beta 0. C is float; A and B are float
/// for fp32 and tf32, bf16 bits (std::uint16_t) for bf16. Throws gpu::Error when the library
/// fails or is not in this build.
void gemm(GemmMath math, int m, int n, int k, const void* a, const void* b, void* c);

// ---- the vendor's device-wide primitives (CUB on NVIDIA, rocPRIM on AMD) -------------------

/// True when this build has them (the HIP build only where rocPRIM was found at configure time).
bool primitives_available();

/// The library and its calls, or why there are none.
const char* primitives_name();

/// Scratch bytes each primitive needs for `n` inputs (the library's size query; no launch).
std::size_t sum_workspace_bytes(std::size_t n);
std::size_t inclusive_scan_workspace_bytes(std::size_t n);
std::size_t histogram_workspace_bytes(std::size_t n, int bins);

/// out[0] = in[0] + ... + in[n-1] (fp32 accumulation in the library's tree order).
void sum(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);

/// out[i] = in[0] + ... + in[i].
void inclusive_scan(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);

/// counts[b] = number of in[i] with lower + b*w <= in[i] < lower + (b+1)*w, w = (upper-lower)/bins;
/// samples outside [lower, upper) are not counted.
void histogram_even(const float* in, int* counts, std::size_t n, int bins, float lower, float upper,
                    void* workspace, std::size_t workspace_bytes);

}  // namespace tutor::baselines
