#pragma once
// A03 Parallel reduction: the ladder's interface (host-only types, C++17: kernel files include it).
//
// Every step writes out[0] = the fp32 sum of in[0..n) for any n >= 1. The launchers live in
// cuda/reduce.cu and hip/reduce.hip (same names, same order); each enqueues its kernels on the
// default stream and checks each launch. `workspace` is device memory of `workspace_bytes`
// bytes (at least workspace_bytes_for(n, vendor_workspace_bytes(n))), zero-filled once when the case is made; the steps
// leave the single-pass counter at zero again, so every launch starts from the same state.
#include <cstddef>

namespace tutor::a03 {

/// Threads per block of every step: a multiple of 64, so whole warps (32) and whole
/// wavefronts (64) fill it on either vendor.
inline constexpr int kBlockThreads = 256;

/// Partial sums the multi-pass steps (1-5) write per pass: one per block, at most one block per
/// kBlockThreads elements. The single-pass steps' grids (single_pass_grid) and the exercise's
/// two-pass grid never have more blocks than that, so their per-block slots fit too.
inline constexpr std::size_t partials_capacity(std::size_t n) { return n / kBlockThreads + 1; }

/// The workspace every step shares (one step runs at a time). Its front holds either the two
/// partials arrays (ping-pong between passes) or the vendor library's temporary storage,
/// `vendor_bytes` of it (any count: CUB asks for odd ones); then the single-pass steps' ticket
/// counter, in a 16-byte slot of its own that neither of those overwrites. The slot's offset is
/// rounded up to a multiple of 16, so the counter's atomics are aligned however many bytes
/// the front takes (a 4-byte atomic at an address that is not a multiple of 4 faults on
/// NVIDIA: CUDA C++ Programming Guide, "Device Memory Accesses", natural alignment).
inline constexpr std::size_t kCounterSlotBytes = 16;
inline constexpr std::size_t workspace_bytes_for(std::size_t n, std::size_t vendor_bytes = 0) {
  const std::size_t partials = 2 * partials_capacity(n) * sizeof(float);
  const std::size_t front = partials > vendor_bytes ? partials : vendor_bytes;
  return (front + kCounterSlotBytes - 1) / kCounterSlotBytes * kCounterSlotBytes + kCounterSlotBytes;
}
/// Where the counter sits in a workspace of `workspace_bytes` (at least workspace_bytes_for(n,
/// vendor bytes)): the last whole 16-byte slot, a multiple of 16 bytes from the start (device
/// allocations start on a 256-byte boundary), at or past the end of the front.
inline constexpr std::size_t counter_offset(std::size_t workspace_bytes) {
  return (workspace_bytes - kCounterSlotBytes) / kCounterSlotBytes * kCounterSlotBytes;
}

/// Blocks of the single-pass steps (6, 7) for n elements on a GPU that holds `resident` blocks
/// of kBlockThreads at once: enough to fill it, and enough that no thread's grid-stride loop
/// runs more than `max_vectors_per_thread` 16-byte vectors (that bounds each thread's chain of
/// additions, and so the rounding error the check allows); never more blocks than there are
/// vectors for a first round (ceil(n / 4) / kBlockThreads), so each block has work and step 7's
/// per-block slots fit in partials_capacity(n).
inline constexpr unsigned single_pass_grid(std::size_t n, std::size_t resident, std::size_t max_vectors_per_thread) {
  const std::size_t vectors = (n + 3) / 4;
  const std::size_t needed = (vectors + kBlockThreads * max_vectors_per_thread - 1) / (kBlockThreads * max_vectors_per_thread);
  const std::size_t cap = (vectors + kBlockThreads - 1) / kBlockThreads;
  std::size_t blocks = needed > resident ? needed : resident;
  if (blocks > cap) blocks = cap;
  return static_cast<unsigned>(blocks);
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
