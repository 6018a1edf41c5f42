// A04 exercise 1, scan_blelloch (HIP; CUDA twin: ../cuda/scan_blelloch.cu).
//
// Write the work-efficient block scan, then run
//   ./build/a04_scan --variant exercise --variant brent_kung --skip-large-check --n 16777216
// The lab verifies it in fp32 and int32, inclusive and exclusive, at 1 and 1000 (and 2^20+3
// and 2^28 without --skip-large-check) on fresh random inputs, and times it beside brent_kung (the
// ladder's version, with padded shared memory); until the TODO is done it fails verification:
// the output keeps its poison ("nothing written").
//
// Hints: 512 threads, two elements each. Which elements does round d of the up-sweep add, and
// why must the root be cleared before the down-sweep? How does an inclusive result follow from
// the exclusive one without a second scan? The worked solution: ../solutions/hip/scan_blelloch.cu.
//
// A work-efficient block scan (Blelloch 1990, sections 1.2-1.3): an up-sweep builds partial
// sums in a tree in place, the root is cleared, a down-sweep turns the tree into exclusive
// prefixes. 2n additions where Kogge-Stone does n log n.
#include <cstdint>

#include "scan.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a04 {

namespace {
constexpr int kExBlock = 1024;  // elements per block, two per thread
unsigned ex_blocks_for(long long n) { return static_cast<unsigned>((n + kExBlock - 1) / kExBlock); }
std::size_t ex_align256(std::size_t b) { return (b + 255) / 256 * 256; }

template <class T>
__global__ void exercise_blelloch_blocks(const T* in, T* out, long long n, bool exclusive, T* block_sums) {
  // TODO: scan the block's kExBlock elements (in[blockIdx.x * kExBlock ...], zeros past n) in
  // shared memory with an up-sweep and a down-sweep; write the inclusive or exclusive prefixes
  // to out, and the block's total to block_sums[blockIdx.x] when block_sums is not null.
  (void)in; (void)out; (void)n; (void)exclusive; (void)block_sums;
}

// Given: block b adds the inclusive scan of the block totals at b-1.
template <class T>
__global__ void exercise_add_offsets(T* out, long long n, const T* scanned_sums) {
  if (blockIdx.x == 0) return;
  const T offset = scanned_sums[blockIdx.x - 1];
  const long long base = (long long)blockIdx.x * kExBlock;
  for (int t = threadIdx.x; t < kExBlock; t += blockDim.x)
    if (base + t < n) out[base + t] += offset;
}

// Given: the device-wide recursion (scan blocks, scan their totals in place, add offsets).
template <class T>
void exercise_scan(const T* in, T* out, long long n, bool exclusive, T* sums) {
  const unsigned blocks = ex_blocks_for(n);
  exercise_blelloch_blocks<T><<<blocks, kExBlock / 2>>>(in, out, n, exclusive, blocks > 1 ? sums : nullptr);
  TUTOR_GPU_CHECK_LAUNCH(exercise_blelloch_blocks<T>);
  if (blocks == 1) return;
  T* next = reinterpret_cast<T*>(reinterpret_cast<char*>(sums) + ex_align256(std::size_t(blocks) * sizeof(T)));
  exercise_scan<T>(sums, sums, blocks, false, next);
  exercise_add_offsets<T><<<blocks, 256>>>(out, n, sums);
  TUTOR_GPU_CHECK_LAUNCH(exercise_add_offsets<T>);
}
}  // namespace

void launch_exercise_blelloch(const ScanArgs& a) {
  if (a.type == ScanType::f32)
    exercise_scan(static_cast<const float*>(a.in), static_cast<float*>(a.out), a.n, a.exclusive,
                  static_cast<float*>(a.workspace));
  else
    exercise_scan(static_cast<const std::int32_t*>(a.in), static_cast<std::int32_t*>(a.out), a.n, a.exclusive,
                  static_cast<std::int32_t*>(a.workspace));
}

}  // namespace tutor::a04
