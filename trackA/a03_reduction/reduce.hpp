#pragma once
// A03 Parallel reduction: the ladder's interface (host-only types, C++17: kernel files include it).
//
// Every step writes out[0] = the fp32 sum of in[0..n) for any n >= 1. The launchers live in
// cuda/reduce.cu and hip/reduce.hip (same names, same order); each enqueues its kernels on the
// default stream and checks each launch. `workspace` is device memory of `workspace_bytes`
// bytes (at least workspace_bytes_for(n)), zero-filled once when the case is made; the steps
// leave the single-pass counter at zero again, so every launch starts from the same state.
#include <cstddef>

namespace tutor::a03 {

/// Threads per block of every step: a multiple of 64, so whole warps (32) and whole
/// wavefronts (64) fill it on either vendor.
inline constexpr int kBlockThreads = 256;

/// Partial sums the multi-pass steps (1-5) write per pass: one per block, at most one block per
/// kBlockThreads elements. Two such arrays (ping-pong between passes) and one counter word.
inline constexpr std::size_t partials_capacity(std::size_t n) { return n / kBlockThreads + 1; }
inline constexpr std::size_t workspace_bytes_for(std::size_t n) {
  return 2 * partials_capacity(n) * sizeof(float) + 16;
}

/// The signature every step's launcher shares. `in` and `out` come from cudaMalloc/hipMalloc.
using ReduceLauncher = void (*)(const float* in, float* out, std::size_t n, void* workspace,
                                std::size_t workspace_bytes);

void launch_interleaved(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);
void launch_sequential(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);
void launch_first_add(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);
void launch_unroll_last_warp(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);
void launch_warp_shuffle(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);
void launch_single_pass_atomic(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);
void launch_single_pass_deterministic(const float* in, float* out, std::size_t n, void* workspace,
                                      std::size_t workspace_bytes);

/// The learner's exercises (exercises/cuda|hip/, worked solutions in exercises/solutions/):
/// TODO kernels the lab runs only when named (--variant exercise, exercise_two_pass).
void launch_exercise_first_add(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);
void launch_exercise_two_pass(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);

/// The vendor library's sum (CUB on NVIDIA, rocPRIM on AMD where it was found at configure
/// time): its name, whether this build has it, and the temporary storage it asks for.
bool vendor_available();
const char* vendor_name();
std::size_t vendor_workspace_bytes(std::size_t n);
void launch_vendor_sum(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes);

}  // namespace tutor::a03
