// A04 exercise 1, scan_blelloch: worked solution (HIP; CUDA twin: ../cuda/scan_blelloch.cu).
// The stub the learner edits: ../../hip/scan_blelloch.cu.
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
  __shared__ T s[kExBlock];
  const int t = threadIdx.x;
  const long long base = (long long)blockIdx.x * kExBlock;
  T x[2];
  for (int k = 0; k < 2; ++k) {
    const int j = t + k * (kExBlock / 2);
    x[k] = base + j < n ? in[base + j] : T(0);
    s[j] = x[k];
  }
  // Up-sweep: after the round with stride d, s[j] for j = 2d-1, 4d-1, ... holds the sum of the
  // 2d elements ending at j.
  for (int stride = 1; stride < kExBlock; stride <<= 1) {
    __syncthreads();
    const int j = (t + 1) * 2 * stride - 1;
    if (j < kExBlock) s[j] += s[j - stride];
  }
  __syncthreads();
  const T total = s[kExBlock - 1];
  __syncthreads();
  if (t == 0) s[kExBlock - 1] = T(0);
  // Down-sweep: each node passes its prefix to its left child and prefix + left sum to its right.
  for (int stride = kExBlock / 2; stride >= 1; stride >>= 1) {
    __syncthreads();
    const int j = (t + 1) * 2 * stride - 1;
    if (j < kExBlock) {
      const T left = s[j - stride];
      s[j - stride] = s[j];
      s[j] += left;
    }
  }
  __syncthreads();
  for (int k = 0; k < 2; ++k) {
    const int j = t + k * (kExBlock / 2);
    if (base + j < n) out[base + j] = exclusive ? s[j] : s[j] + x[k];
  }
  if (block_sums && t == 0) block_sums[blockIdx.x] = total;
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
