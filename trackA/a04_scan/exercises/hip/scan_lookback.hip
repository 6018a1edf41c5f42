// A04 exercise 2, scan_lookback (HIP; CUDA twin: ../cuda/scan_lookback.cu).
//
// Write the look-back of a single-pass scan, then run
//   ./build/a04_scan --variant exercise_lookback --variant decoupled_lookback --skip-large-check --n 16777216
// The lab verifies it on every shape and times it beside decoupled_lookback (the ladder's
// version: 4096-element tiles, a warp-wide look-back); until the TODO is done every tile but
// the first is missing its prefix and verification fails.
//
// Hints: which flag may you stop at, and which must you add and keep walking past? What must
// you do while a predecessor's word is still 0, and why can that wait never deadlock here (the
// README's "forward progress")? The worked solution: ../solutions/hip/scan_lookback.cu.
//
// A single-pass scan of 1024-element tiles chained by decoupled look-back (Merrill & Garland
// 2016, section 4), with the look-back done by one thread: walk back over the predecessors'
// status words, add aggregates (flag A) until an inclusive prefix (flag P), then publish P.
#include <cstdint>

#include "scan.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a04 {

namespace {
constexpr int kExTile = 1024;  // elements per tile, one per thread
constexpr unsigned long long kExAggregate = 1ull << 32, kExPrefix = 2ull << 32;
unsigned ex_tiles_for(long long n) { return static_cast<unsigned>((n + kExTile - 1) / kExTile); }

// Given: flag and value in one 64-bit word, so a reader never sees a flag without its value.
template <class T>
__device__ unsigned long long ex_pack(unsigned long long flag, T value) {
  unsigned bits;
  memcpy(&bits, &value, sizeof bits);
  return flag | bits;
}
template <class T>
__device__ T ex_value(unsigned long long word) {
  const auto bits = static_cast<unsigned>(word & 0xffffffffull);
  T value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

// The tile's exclusive prefix: the sum of every element of the tiles before `tile`.
// status[j] is 0 until tile j publishes; then kExAggregate | its sum, later kExPrefix | its
// inclusive prefix.
template <class T>
__device__ T exercise_look_back(unsigned long long* status, long long tile) {
  T prefix = T(0);
  // TODO: walk back from tile - 1: wait while status[j] is 0 (read it through a volatile
  // pointer), add its value (ex_value), stop after the first word whose flag is kExPrefix.
  (void)status; (void)tile;
  return prefix;
}

template <class T>
__global__ void exercise_lookback_scan(const T* in, T* out, long long n, bool exclusive,
                                       unsigned long long* status, unsigned* tile_counter) {
  __shared__ T buf[2][kExTile];
  __shared__ long long tile_id;
  __shared__ T seed;
  const int t = threadIdx.x;
  if (t == 0) tile_id = atomicAdd(tile_counter, 1u);  // tiles numbered in the order blocks start
  __syncthreads();
  const long long tile = tile_id;
  const long long i = tile * kExTile + t;
  buf[0][t] = i < n ? in[i] : T(0);
  __syncthreads();
  int p = 0;
  for (int d = 1; d < kExTile; d <<= 1) {  // Kogge-Stone within the tile (step 1's)
    T v = buf[p][t];
    if (t >= d) v += buf[p][t - d];
    buf[p ^ 1][t] = v;
    p ^= 1;
    __syncthreads();
  }
  if (t == 0) {
    const T total = buf[p][kExTile - 1];
    atomicExch(&status[tile], ex_pack(tile == 0 ? kExPrefix : kExAggregate, total));
    const T before = tile == 0 ? T(0) : exercise_look_back<T>(status, tile);
    if (tile > 0) atomicExch(&status[tile], ex_pack(kExPrefix, before + total));
    seed = before;
  }
  __syncthreads();
  if (i < n) out[i] = seed + (exclusive ? (t == 0 ? T(0) : buf[p][t - 1]) : buf[p][t]);
}

template <class T>
void exercise_scan(const T* in, T* out, long long n, bool exclusive, void* workspace) {
  const unsigned tiles = ex_tiles_for(n);
  auto* status = static_cast<unsigned long long*>(workspace);
  auto* counter = reinterpret_cast<unsigned*>(status + tiles);
  TUTOR_GPU_CHECK(hipMemsetAsync(workspace, 0, std::size_t(tiles) * 8 + sizeof(unsigned)));
  exercise_lookback_scan<T><<<tiles, kExTile>>>(in, out, n, exclusive, status, counter);
  TUTOR_GPU_CHECK_LAUNCH(exercise_lookback_scan<T>);
}
}  // namespace

void launch_exercise_lookback(const ScanArgs& a) {
  if (a.type == ScanType::f32)
    exercise_scan(static_cast<const float*>(a.in), static_cast<float*>(a.out), a.n, a.exclusive, a.workspace);
  else
    exercise_scan(static_cast<const std::int32_t*>(a.in), static_cast<std::int32_t*>(a.out), a.n, a.exclusive,
                  a.workspace);
}

}  // namespace tutor::a04
