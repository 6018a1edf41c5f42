// A04 scan ladder, AMD (HIP). CUDA twin: ../cuda/scan.cu, same kernels in the same order; lines
// that differ say why.
//
// A scan is a reduction that keeps its partial results. Steps 1 and 2 scan one 1024-element
// block in shared memory and make a device-wide scan by recursion (scan the blocks, scan the
// block totals, add each block's offset): data crosses DRAM about four times. Step 3 reads
// the input twice and writes once (3n). Step 4 reads once and writes once (2n, the floor),
// which is what cub::DeviceScan does.
#include <cstdint>

#include "scan.hpp"
#include "tutor/device/block_reduce.hpp"
#include "tutor/device/ceil_div.hpp"
#include "tutor/device/portability.hpp"
#include "tutor/device/warp_reduce.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a04 {

namespace {
using device::kWarpLanes;

constexpr int kBlock = 1024;       // steps 1-2: elements scanned per block
constexpr int kTileThreads = 256;  // steps 3-4: threads per tile
constexpr int kItems = 16;         // steps 3-4: consecutive elements per thread
constexpr int kTile = kTileThreads * kItems;

unsigned blocks_for(long long n, int per_block) { return static_cast<unsigned>((n + per_block - 1) / per_block); }

// Workspace layout: block sums of every recursion level (steps 1-3), then the look-back
// status words and the tile counter (step 4). Each region 256-byte aligned.
std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }
std::size_t level_sums_bytes(long long n) {
  std::size_t total = 0;
  for (long long m = blocks_for(n, kBlock); m > 1; m = blocks_for(m, kBlock)) total += align256(std::size_t(m) * 4);
  return total + align256(std::size_t(blocks_for(n, kTile)) * 4);
}

// Padding one word per 32 keeps a column of 32 words in 32 different banks.
__device__ __forceinline__ int padded(int i) { return i + (i >> 5); }

// Adds block b's offset (the inclusive scan of the block totals at b-1) to its elements.
template <class T>
__global__ void add_block_offsets(T* out, long long n, const T* scanned_sums, int per_block) {
  if (blockIdx.x == 0) return;
  const T offset = scanned_sums[blockIdx.x - 1];
  const long long base = (long long)blockIdx.x * per_block;
  for (int t = threadIdx.x; t < per_block; t += blockDim.x)
    if (base + t < n) out[base + t] += offset;
}

// Device-wide scan from a block scan: scan each block (writing its total), scan the totals
// (the same way, recursively, in place), add the offsets. `sums` is the workspace.
template <class T, class BlockScan>
void scan_by_blocks(const T* in, T* out, long long n, bool exclusive, T* sums, BlockScan scan_blocks) {
  const unsigned blocks = blocks_for(n, kBlock);
  scan_blocks(in, out, n, exclusive, blocks > 1 ? sums : nullptr, blocks);
  if (blocks == 1) return;
  T* next = reinterpret_cast<T*>(reinterpret_cast<char*>(sums) + align256(std::size_t(blocks) * sizeof(T)));
  scan_by_blocks(static_cast<const T*>(sums), sums, blocks, false, next, scan_blocks);
  add_block_offsets<<<blocks, 256>>>(out, n, sums, kBlock);
  TUTOR_GPU_CHECK_LAUNCH(add_block_offsets<T>);
}

// The per-type dispatch every launcher shares.
template <template <class> class Launch>
void dispatch(const ScanArgs& a) {
  if (a.type == ScanType::f32) Launch<float>{}(a);
  else Launch<std::int32_t>{}(a);
}
}  // namespace

// The status words are sized for 1024-element tiles, so exercises/ scan_lookback fits too.
std::size_t ladder_workspace_bytes(long long n) {
  return level_sums_bytes(n) + align256(std::size_t(blocks_for(n, kBlock)) * 8) + 256;
}

// ---- Step 1: kogge_stone -----------------------------------------------------------------
// Hillis & Steele (1986) / Kogge & Stone (1973): in round d every element adds the one d
// places to its left; log2(1024) = 10 rounds, but n log n additions, and a double buffer so
// no thread reads a slot another thread is writing in the same round.
template <class T>
__global__ void kogge_stone_blocks(const T* in, T* out, long long n, bool exclusive, T* block_sums) {
  __shared__ T buf[2][kBlock];
  const int t = threadIdx.x;
  const long long i = (long long)blockIdx.x * kBlock + t;
  buf[0][t] = i < n ? in[i] : T(0);
  __syncthreads();
  int p = 0;
  for (int d = 1; d < kBlock; d <<= 1) {
    T v = buf[p][t];
    if (t >= d) v += buf[p][t - d];
    buf[p ^ 1][t] = v;
    p ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = exclusive ? (t == 0 ? T(0) : buf[p][t - 1]) : buf[p][t];
  if (block_sums && t == kBlock - 1) block_sums[blockIdx.x] = buf[p][t];
}
template <class T>
struct KoggeStone {
  void operator()(const ScanArgs& a) const {
    scan_by_blocks(static_cast<const T*>(a.in), static_cast<T*>(a.out), a.n, a.exclusive,
                   static_cast<T*>(a.workspace), [](const T* in, T* out, long long n, bool ex, T* sums, unsigned blocks) {
                     kogge_stone_blocks<T><<<blocks, kBlock>>>(in, out, n, ex, sums);
                     TUTOR_GPU_CHECK_LAUNCH(kogge_stone_blocks<T>);
                   });
  }
};
void launch_kogge_stone(const ScanArgs& args) { dispatch<KoggeStone>(args); }

// ---- Step 2: brent_kung ------------------------------------------------------------------
// Work-efficient (Blelloch 1990, "Prefix sums and their applications", sections 1.2-1.3): an
// up-sweep builds a reduction tree in place, a down-sweep pushes prefixes back down: 2n
// additions instead of n log n, 512 threads for 1024 elements, padded shared memory against
// the bank conflicts of the tree's strided accesses (GPU Gems 3, chapter 39).
template <class T>
__global__ void brent_kung_blocks(const T* in, T* out, long long n, bool exclusive, T* block_sums) {
  __shared__ T s[kBlock + kBlock / 32];
  const int t = threadIdx.x;  // 512 threads, 2 elements each
  const long long base = (long long)blockIdx.x * kBlock;
  T x[2];
  for (int k = 0; k < 2; ++k) {
    const int j = t + k * (kBlock / 2);
    x[k] = base + j < n ? in[base + j] : T(0);
    s[padded(j)] = x[k];
  }
  for (int stride = 1; stride < kBlock; stride <<= 1) {  // up-sweep: partial sums of 2*stride
    __syncthreads();
    const int j = (t + 1) * 2 * stride - 1;
    if (j < kBlock) s[padded(j)] += s[padded(j - stride)];
  }
  __syncthreads();
  const T total = s[padded(kBlock - 1)];
  __syncthreads();
  if (t == 0) s[padded(kBlock - 1)] = T(0);
  for (int stride = kBlock / 2; stride >= 1; stride >>= 1) {  // down-sweep: exclusive prefixes
    __syncthreads();
    const int j = (t + 1) * 2 * stride - 1;
    if (j < kBlock) {
      const T left = s[padded(j - stride)];
      s[padded(j - stride)] = s[padded(j)];
      s[padded(j)] += left;
    }
  }
  __syncthreads();
  for (int k = 0; k < 2; ++k) {
    const int j = t + k * (kBlock / 2);
    if (base + j < n) out[base + j] = exclusive ? s[padded(j)] : s[padded(j)] + x[k];
  }
  if (block_sums && t == 0) block_sums[blockIdx.x] = total;
}
template <class T>
struct BrentKung {
  void operator()(const ScanArgs& a) const {
    scan_by_blocks(static_cast<const T*>(a.in), static_cast<T*>(a.out), a.n, a.exclusive,
                   static_cast<T*>(a.workspace), [](const T* in, T* out, long long n, bool ex, T* sums, unsigned blocks) {
                     brent_kung_blocks<T><<<blocks, kBlock / 2>>>(in, out, n, ex, sums);
                     TUTOR_GPU_CHECK_LAUNCH(brent_kung_blocks<T>);
                   });
  }
};
void launch_brent_kung(const ScanArgs& args) { dispatch<BrentKung>(args); }

// ---- Shared by steps 3 and 4: a 4096-element tile in registers -----------------------------
// 256 threads x 16 consecutive elements. Loads and stores go through padded shared memory so
// that global accesses are coalesced (a warp touches 32 consecutive words per instruction)
// while each thread scans its 16 elements serially (Merrill & Garland 2016, section 4: the
// "raking" arrangement: serial work per thread, a warp scan of the thread totals).
template <class T>
struct TileStorage {
  T items[kTile + kTile / 32];
  T warp_totals[device::kMaxWarpsPerBlock];
  T seed;
};

template <class T>
__device__ void load_tile(const T* in, long long base, long long n, T (&x)[kItems], TileStorage<T>& st) {
  for (int k = 0; k < kItems; ++k) {
    const int j = k * kTileThreads + threadIdx.x;
    st.items[padded(j)] = base + j < n ? in[base + j] : T(0);
  }
  __syncthreads();
  for (int k = 0; k < kItems; ++k) x[k] = st.items[padded(threadIdx.x * kItems + k)];
}

// Scans the tile's 16 x 256 elements in place, adding `seed` (the tile's exclusive prefix),
// and stores them coalesced.
template <class T>
__device__ void store_tile(T* out, long long base, long long n, const T (&x)[kItems], T thread_prefix, T seed,
                           bool exclusive, TileStorage<T>& st) {
  __syncthreads();  // every thread has read its items from st.items
  T run = seed + thread_prefix;
  for (int k = 0; k < kItems; ++k) {
    const T before = run;
    run += x[k];
    st.items[padded(threadIdx.x * kItems + k)] = exclusive ? before : run;
  }
  __syncthreads();
  for (int k = 0; k < kItems; ++k) {
    const int j = k * kTileThreads + threadIdx.x;
    if (base + j < n) out[base + j] = st.items[padded(j)];
  }
}

// Inclusive scan across a warp's lanes by shuffles (Kogge-Stone in registers).
template <class T>
__device__ T warp_inclusive_scan(T v) {
  const int lane = device::lane_index();
  for (int d = 1; d < kWarpLanes; d <<= 1) {
    const T up = __shfl_up(v, d);  // HIP's shuffles take no lane mask
    if (lane >= d) v += up;
  }
  return v;
}

// Exclusive scan of one value per thread across the block; `total` gets the block's sum.
template <class T>
__device__ T block_exclusive_scan(T v, T& total, TileStorage<T>& st) {
  const int warp = threadIdx.x / kWarpLanes, warps = kTileThreads / kWarpLanes;
  const T incl = warp_inclusive_scan(v);
  if (device::lane_index() == kWarpLanes - 1) st.warp_totals[warp] = incl;
  __syncthreads();
  T before = T(0);
  total = T(0);
  for (int w = 0; w < warps; ++w) {  // every thread folds the warp totals in the same order
    if (w == warp) before = total;
    total += st.warp_totals[w];
  }
  return before + incl - v;
}

// ---- Step 3: reduce_then_scan -------------------------------------------------------------
// Three kernels: reduce each tile to its total, scan the totals, scan each tile again seeded
// by its prefix. Reads the input twice (3n traffic) but never waits on another block.
template <class T>
__global__ void reduce_tiles(const T* in, long long n, T* tile_sums) {
  __shared__ T scratch[device::kMaxWarpsPerBlock];
  const long long base = (long long)blockIdx.x * kTile;
  T sum = T(0);
  for (int k = 0; k < kItems; ++k) {
    const long long j = base + k * kTileThreads + threadIdx.x;
    if (j < n) sum += in[j];
  }
  sum = device::block_reduce_sum(sum, scratch);
  if (threadIdx.x == 0) tile_sums[blockIdx.x] = sum;
}
template <class T>
__global__ void scan_tiles_seeded(const T* in, T* out, long long n, bool exclusive, const T* scanned_sums) {
  __shared__ TileStorage<T> st;
  const long long base = (long long)blockIdx.x * kTile;
  T x[kItems];
  load_tile(in, base, n, x, st);
  T mine = T(0);
  for (int k = 0; k < kItems; ++k) mine += x[k];
  T total;
  const T prefix = block_exclusive_scan(mine, total, st);
  const T seed = blockIdx.x == 0 ? T(0) : scanned_sums[blockIdx.x - 1];
  store_tile(out, base, n, x, prefix, seed, exclusive, st);
}
template <class T>
struct ReduceThenScan {
  void operator()(const ScanArgs& a) const {
    const unsigned tiles = blocks_for(a.n, kTile);
    T* sums = static_cast<T*>(a.workspace);
    T* level = reinterpret_cast<T*>(static_cast<char*>(a.workspace) + align256(std::size_t(tiles) * sizeof(T)));
    reduce_tiles<T><<<tiles, kTileThreads>>>(static_cast<const T*>(a.in), a.n, sums);
    TUTOR_GPU_CHECK_LAUNCH(reduce_tiles<T>);
    if (tiles > 1) BrentKung<T>{}(ScanArgs{sums, sums, tiles, a.type, false, level, 0});
    scan_tiles_seeded<T><<<tiles, kTileThreads>>>(static_cast<const T*>(a.in), static_cast<T*>(a.out), a.n,
                                                   a.exclusive, sums);
    TUTOR_GPU_CHECK_LAUNCH(scan_tiles_seeded<T>);
  }
};
void launch_reduce_then_scan(const ScanArgs& args) { dispatch<ReduceThenScan>(args); }

// ---- Step 4: decoupled_lookback -----------------------------------------------------------
// Single pass (Merrill & Garland 2016, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", section 4): each tile publishes its aggregate (flag A) as soon as it is
// reduced, then looks back over its predecessors' status words, summing aggregates until it
// meets an inclusive prefix (flag P), and publishes its own inclusive prefix. Flag and value
// share one 64-bit word, so a reader never sees a flag without its value. Tiles are numbered
// by an atomic counter in the order blocks start, so a tile only waits on tiles whose blocks
// are already running: the forward-progress assumption the README discusses.
constexpr unsigned long long kFlagAggregate = 1ull << 32, kFlagPrefix = 2ull << 32;

template <class T>
__device__ unsigned long long pack_status(unsigned long long flag, T value) {
  unsigned bits;
  memcpy(&bits, &value, sizeof bits);  // fp32 and int32 both travel as their 32 bits
  return flag | bits;
}
template <class T>
__device__ T status_value(unsigned long long word) {
  const auto bits = static_cast<unsigned>(word & 0xffffffffull);
  T value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

// Warp 0 of the block: lanes read the 32 predecessors nearest first; once none is empty,
// sum up to and including the nearest P (the shared warp reduction), else all 32 and step back.
template <class T>
__device__ T look_back(unsigned long long* status, long long tile) {
  const int lane = device::lane_index();
  T prefix = T(0);
  long long window = tile - 1;
  while (true) {
    const long long j = window - lane;
    unsigned long long word = kFlagPrefix;  // before tile 0: a prefix of 0
    if (j >= 0) {
      do word = *reinterpret_cast<volatile unsigned long long*>(&status[j]);
      while ((word >> 32) == 0);
    }
    const bool is_prefix = (word >> 32) == 2;
    const auto prefixes = __ballot(is_prefix);  // 64 bits on a 64-lane wavefront
    const int stop = prefixes ? __ffsll(static_cast<long long>(prefixes)) - 1 : kWarpLanes;
    const T mine = (lane <= stop && j >= 0) ? status_value<T>(word) : T(0);
    prefix += device::warp_reduce_sum(mine);
    if (prefixes) return prefix;
    window -= kWarpLanes;
  }
}

template <class T>
__global__ void decoupled_lookback_scan(const T* in, T* out, long long n, bool exclusive,
                                        unsigned long long* status, unsigned* tile_counter) {
  __shared__ TileStorage<T> st;
  __shared__ long long tile_id;
  if (threadIdx.x == 0) tile_id = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const long long tile = tile_id;
  const long long base = tile * kTile;
  T x[kItems];
  load_tile(in, base, n, x, st);
  T mine = T(0);
  for (int k = 0; k < kItems; ++k) mine += x[k];
  T total;
  const T prefix = block_exclusive_scan(mine, total, st);
  if (threadIdx.x == 0) atomicExch(&status[tile], pack_status(tile == 0 ? kFlagPrefix : kFlagAggregate, total));
  if (threadIdx.x < kWarpLanes) {
    const T seed = tile == 0 ? T(0) : look_back<T>(status, tile);
    if (threadIdx.x == 0) {
      if (tile > 0) atomicExch(&status[tile], pack_status(kFlagPrefix, seed + total));
      st.seed = seed;
    }
  }
  __syncthreads();
  store_tile(out, base, n, x, prefix, st.seed, exclusive, st);
}
template <class T>
struct DecoupledLookback {
  void operator()(const ScanArgs& a) const {
    const unsigned tiles = blocks_for(a.n, kTile);
    char* ws = static_cast<char*>(a.workspace) + level_sums_bytes(a.n);
    auto* status = reinterpret_cast<unsigned long long*>(ws);
    auto* counter = reinterpret_cast<unsigned*>(ws + align256(std::size_t(tiles) * 8));
    // Every status word empty and the counter at 0 before each launch (counted in the time, as
    // the library's own initialisation kernel is).
    TUTOR_GPU_CHECK(hipMemsetAsync(ws, 0, align256(std::size_t(tiles) * 8) + 256));
    decoupled_lookback_scan<T><<<tiles, kTileThreads>>>(static_cast<const T*>(a.in), static_cast<T*>(a.out), a.n,
                                                         a.exclusive, status, counter);
    TUTOR_GPU_CHECK_LAUNCH(decoupled_lookback_scan<T>);
  }
};
void launch_decoupled_lookback(const ScanArgs& args) { dispatch<DecoupledLookback>(args); }

}  // namespace tutor::a04
