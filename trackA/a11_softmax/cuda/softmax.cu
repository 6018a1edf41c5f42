// A11 softmax ladder, NVIDIA (CUDA). HIP twin: ../hip/softmax.hip, same kernels in the same
// order. Every step writes out = softmax(in) over each row of a rows x cols matrix, fp32 or bf16
// in and out, fp32 arithmetic (softmax.hpp). Kernels are templates over the element type
// (float, or std::uint16_t holding bf16 bits); one launcher per step picks the instance.
//
// Softmax is memory-bound: a few operations per element against 4 (fp32) or 2 (bf16) bytes read
// and written, so a step's time is the HBM traffic it causes. The ladder removes traffic: three
// kernels (four passes over HBM) -> one kernel reading the row three times -> the online
// normaliser (two reads) -> the row kept in registers (one read, one write: the floor).
#include <cstdint>

#include "softmax.hpp"
#include "softmax_device.hpp"
#include "tutor/device/block_reduce.hpp"
#include "tutor/device/ceil_div.hpp"
#include "tutor/device/vector_io.hpp"
#include "tutor/device/warp_reduce.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a11 {

namespace {
using device::ceil_div;
using device::kWarpLanes;

// The threads of one warp (wavefront) as the host sees it: from the runtime, since the host
// pass of a HIP compile has no target (tutor/device/portability.hpp).
int lanes_of_device() {
  int device = 0, lanes = 0;
  TUTOR_GPU_CHECK(cudaGetDevice(&device));
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&lanes, cudaDevAttrWarpSize, device));
  return lanes;
}

// Runs `launch.template operator()<T>()` with T the element type of the operands.
template <class Launch>
void by_type(const SoftmaxArgs& a, Launch launch) {
  if (a.bf16) launch(std::uint16_t{});
  else launch(float{});
}

template <class T>
__device__ inline const T* row_in(const void* in, int row, int cols) {
  return static_cast<const T*>(in) + static_cast<std::size_t>(row) * static_cast<std::size_t>(cols);
}
template <class T>
__device__ inline T* row_out(void* out, int row, int cols) {
  return static_cast<T*>(out) + static_cast<std::size_t>(row) * static_cast<std::size_t>(cols);
}
}  // namespace

// ---- Step 1: three_pass --------------------------------------------------------------------
// The definition, one kernel per pass: the row maxima, then the sums of exp(x - max), then an
// elementwise normalise. Each kernel reads the whole matrix from HBM (three reads and one write
// per element, plus the row statistics), and a launch separates each pass.
template <class T>
__global__ void three_pass_max(const void* in, int cols, float* row_max) {
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  const T* x = row_in<T>(in, blockIdx.x, cols);
  float m = to_f32(minus_infinity<T>());
  for (int j = threadIdx.x; j < cols; j += blockDim.x) m = device::Max{}(m, to_f32(x[j]));
  m = device::block_reduce_max(m, scratch);
  if (threadIdx.x == 0) row_max[blockIdx.x] = m;
}
template <class T>
__global__ void three_pass_sum(const void* in, int cols, const float* row_max, float* row_sum) {
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  const T* x = row_in<T>(in, blockIdx.x, cols);
  const float m = row_max[blockIdx.x];
  float d = 0.0f;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) d += shifted_exp(to_f32(x[j]), m);
  d = device::block_reduce_sum(d, scratch);
  if (threadIdx.x == 0) row_sum[blockIdx.x] = d;
}
template <class T>
__global__ void three_pass_normalise(const void* in, void* out, int rows, int cols, const float* row_max,
                                     const float* row_sum) {
  const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::size_t r = i / static_cast<std::size_t>(cols);
    static_cast<T*>(out)[i] = from_f32<T>(shifted_exp(to_f32(static_cast<const T*>(in)[i]), row_max[r]) / row_sum[r]);
  }
}
void launch_three_pass(const SoftmaxArgs& a) {
  float* row_max = a.row_stats;
  float* row_sum = a.row_stats + a.rows;
  const std::size_t n = static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(a.cols);
  const unsigned blocks = static_cast<unsigned>(ceil_div(n, std::size_t(kBlockThreads)) < (1u << 20)
                                                    ? ceil_div(n, std::size_t(kBlockThreads)) : (1u << 20));
  by_type(a, [&](auto t) {
    using T = decltype(t);
    three_pass_max<T><<<a.rows, kBlockThreads>>>(a.in, a.cols, row_max);
    TUTOR_GPU_CHECK_LAUNCH(three_pass_max<T>);
    three_pass_sum<T><<<a.rows, kBlockThreads>>>(a.in, a.cols, row_max, row_sum);
    TUTOR_GPU_CHECK_LAUNCH(three_pass_sum<T>);
    three_pass_normalise<T><<<blocks, kBlockThreads>>>(a.in, a.out, a.rows, a.cols, row_max, row_sum);
    TUTOR_GPU_CHECK_LAUNCH(three_pass_normalise<T>);
  });
}

// ---- Step 2: block_fused -------------------------------------------------------------------
// One block per row does all three passes in one kernel: no launches between passes and no row
// statistics in HBM. The row is still read three times; the second and third reads come from
// L2 (or L1) when the blocks in flight keep their rows there, from HBM when they do not.
template <class T>
__global__ void block_fused(const void* in, void* out, int cols) {
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  const T* x = row_in<T>(in, blockIdx.x, cols);
  T* y = row_out<T>(out, blockIdx.x, cols);
  float m = to_f32(minus_infinity<T>());
  for (int j = threadIdx.x; j < cols; j += blockDim.x) m = device::Max{}(m, to_f32(x[j]));
  m = device::block_reduce_max(m, scratch);
  float d = 0.0f;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) d += shifted_exp(to_f32(x[j]), m);
  d = device::block_reduce_sum(d, scratch);
  for (int j = threadIdx.x; j < cols; j += blockDim.x) y[j] = from_f32<T>(shifted_exp(to_f32(x[j]), m) / d);
}
void launch_block_fused(const SoftmaxArgs& a) {
  by_type(a, [&](auto t) {
    using T = decltype(t);
    block_fused<T><<<a.rows, kBlockThreads>>>(a.in, a.out, a.cols);
    TUTOR_GPU_CHECK_LAUNCH(block_fused<T>);
  });
}

// ---- Step 3: online ------------------------------------------------------------------------
// The online normaliser (Milakov and Gimelshein 2018, alg. 3): each thread keeps its running
// maximum and its sum rescaled to it, so the maximum and the sum come from one read of the row;
// the block merges the threads' pairs (block_merge). Two reads of the row instead of three.
template <class T>
__global__ void online(const void* in, void* out, int cols) {
  __shared__ MaxSum scratch[device::kMaxWarpsPerBlock];
  const T* x = row_in<T>(in, blockIdx.x, cols);
  T* y = row_out<T>(out, blockIdx.x, cols);
  MaxSum s{to_f32(minus_infinity<T>()), 0.0f};
  for (int j = threadIdx.x; j < cols; j += blockDim.x) s = online_update(s, to_f32(x[j]));
  s = block_merge(s, scratch);
  for (int j = threadIdx.x; j < cols; j += blockDim.x) y[j] = from_f32<T>(shifted_exp(to_f32(x[j]), s.m) / s.d);
}
void launch_online(const SoftmaxArgs& a) {
  by_type(a, [&](auto t) {
    using T = decltype(t);
    online<T><<<a.rows, kBlockThreads>>>(a.in, a.out, a.cols);
    TUTOR_GPU_CHECK_LAUNCH(online<T>);
  });
}

// ---- Step 4: warp_row ----------------------------------------------------------------------
// A short row leaves most of a 256-thread block idle (32 columns: 224 threads do nothing) and
// pays two block barriers. One warp (wavefront) per row merges with shuffles alone and packs
// several rows into a block. Rows longer than kWarpRowMaxCols take the online kernel.
template <class T>
__global__ void warp_row(const void* in, void* out, int rows, int cols) {
  const int row = blockIdx.x * (blockDim.x / kWarpLanes) + threadIdx.x / kWarpLanes;
  if (row >= rows) return;  // the whole warp leaves together: the merge below has all lanes
  const int lane = device::lane_index();
  const T* x = row_in<T>(in, row, cols);
  T* y = row_out<T>(out, row, cols);
  MaxSum s{to_f32(minus_infinity<T>()), 0.0f};
  for (int j = lane; j < cols; j += kWarpLanes) s = online_update(s, to_f32(x[j]));
  s = warp_merge(s);
  for (int j = lane; j < cols; j += kWarpLanes) y[j] = from_f32<T>(shifted_exp(to_f32(x[j]), s.m) / s.d);
}
void launch_warp_row(const SoftmaxArgs& a) {
  if (a.cols > kWarpRowMaxCols) {
    launch_online(a);
    return;
  }
  const int rows_per_block = kBlockThreads / lanes_of_device();
  by_type(a, [&](auto t) {
    using T = decltype(t);
    warp_row<T><<<ceil_div(a.rows, rows_per_block), kBlockThreads>>>(a.in, a.out, a.rows, a.cols);
    TUTOR_GPU_CHECK_LAUNCH(warp_row<T>);
  });
}

// ---- Step 5: vectorised --------------------------------------------------------------------
// The row is read once and written once, the floor: each thread loads its share of the row with
// 16-byte loads (4 fp32 or 8 bf16 per load, tutor/device/vector_io.hpp) into registers, and the
// maximum, the sum and the output all come from those registers. kVecs 16-byte vectors per
// thread hold 32 elements of either type, so a block of up to 1024 threads holds a row of
// kRegisterCols; short rows get one warp (wavefront) each, as in step 4. A longer row does not
// fit: it takes the online form with the same 16-byte loads (two reads of the row).
constexpr int kElemsPerThread = 32;
constexpr int kRegisterCols = 1024 * kElemsPerThread;

template <class T>
constexpr int kVecWidth = 16 / static_cast<int>(sizeof(T));

// `group` threads (a warp, or the whole block) own one row; thread t of the group holds vector p
// at element (p * group + t) * width, so each load instruction of the group is contiguous.
template <class T, bool kWarpPerRow, bool kFast>
__global__ void __launch_bounds__(1024) vectorised_registers(const void* in, void* out, int rows, int cols) {
  constexpr int kWidth = kVecWidth<T>;
  constexpr int kVecs = kElemsPerThread / kWidth;
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  const int group = kWarpPerRow ? kWarpLanes : static_cast<int>(blockDim.x);
  const int t = kWarpPerRow ? device::lane_index() : static_cast<int>(threadIdx.x);
  const int row = kWarpPerRow ? static_cast<int>(blockIdx.x * (blockDim.x / kWarpLanes) + threadIdx.x / kWarpLanes)
                              : static_cast<int>(blockIdx.x);
  if (kWarpPerRow && row >= rows) return;  // whole warps only
  const T* x = row_in<T>(in, row, cols);
  const std::size_t n = static_cast<std::size_t>(cols);
  float v[kVecs][kWidth];
  float m = to_f32(minus_infinity<T>());
  TUTOR_UNROLL
  for (int p = 0; p < kVecs; ++p) {
    const std::size_t i = static_cast<std::size_t>(p * group + t) * kWidth;
    const device::Vec<T, kWidth> raw = device::load_vec<kWidth>(x, i, n, minus_infinity<T>());
    TUTOR_UNROLL
    for (int k = 0; k < kWidth; ++k) {
      v[p][k] = to_f32(raw[k]);
      m = device::Max{}(m, v[p][k]);
    }
  }
  m = kWarpPerRow ? device::warp_reduce_max(m) : device::block_reduce_max(m, scratch);
  float d = 0.0f;
  TUTOR_UNROLL
  for (int p = 0; p < kVecs; ++p) {
    TUTOR_UNROLL
    for (int k = 0; k < kWidth; ++k) {
      // Elements past the row's end hold -infinity: exp gives 0 unless the whole row is masked.
      const std::size_t i = static_cast<std::size_t>(p * group + t) * kWidth + k;
      v[p][k] = i < n ? exp_of<kFast>(v[p][k], m) : 0.0f;
      d += v[p][k];
    }
  }
  d = kWarpPerRow ? device::warp_reduce_sum(d) : device::block_reduce_sum(d, scratch);
  const float inv_d = 1.0f / d;  // step 6: one division per row, a multiply per element
  T* y = row_out<T>(out, row, cols);
  TUTOR_UNROLL
  for (int p = 0; p < kVecs; ++p) {
    device::Vec<T, kWidth> o;
    TUTOR_UNROLL
    for (int k = 0; k < kWidth; ++k) o[k] = from_f32<T>(kFast ? v[p][k] * inv_d : v[p][k] / d);
    device::store_vec<kWidth>(y, static_cast<std::size_t>(p * group + t) * kWidth, n, o);
  }
}

// Rows longer than kRegisterCols: the online pass and the normalise pass, both with 16-byte loads.
template <class T, bool kFast>
__global__ void __launch_bounds__(1024) vectorised_online(const void* in, void* out, int cols) {
  constexpr int kWidth = kVecWidth<T>;
  __shared__ MaxSum scratch[device::kMaxWarpsPerBlock];
  const T* x = row_in<T>(in, blockIdx.x, cols);
  T* y = row_out<T>(out, blockIdx.x, cols);
  const std::size_t n = static_cast<std::size_t>(cols);
  const std::size_t step = static_cast<std::size_t>(blockDim.x) * kWidth;
  MaxSum s{to_f32(minus_infinity<T>()), 0.0f};
  for (std::size_t i = static_cast<std::size_t>(threadIdx.x) * kWidth; i < n; i += step) {
    const device::Vec<T, kWidth> raw = device::load_vec<kWidth>(x, i, n, minus_infinity<T>());
    float vm = to_f32(raw[0]);
    TUTOR_UNROLL
    for (int k = 1; k < kWidth; ++k) vm = device::Max{}(vm, to_f32(raw[k]));
    // The vector's own pair first: one rescale per vector, not per element. A vector of masked
    // elements (vm = -infinity) is an empty sum, 0, not exp(-inf - (-inf)) = NaN.
    float vd = 0.0f;
    if (vm != to_f32(minus_infinity<T>())) {
      TUTOR_UNROLL
      for (int k = 0; k < kWidth; ++k) vd += i + k < n ? exp_of<kFast>(to_f32(raw[k]), vm) : 0.0f;
    }
    s = MergeMaxSum{}(s, MaxSum{vm, vd});
  }
  s = block_merge(s, scratch);
  const float inv_d = 1.0f / s.d;
  for (std::size_t i = static_cast<std::size_t>(threadIdx.x) * kWidth; i < n; i += step) {
    const device::Vec<T, kWidth> raw = device::load_vec<kWidth>(x, i, n, minus_infinity<T>());
    device::Vec<T, kWidth> o;
    TUTOR_UNROLL
    for (int k = 0; k < kWidth; ++k) {
      const float e = exp_of<kFast>(to_f32(raw[k]), s.m);
      o[k] = from_f32<T>(kFast ? e * inv_d : e / s.d);
    }
    device::store_vec<kWidth>(y, i, n, o);
  }
}

template <bool kFast>
void launch_vectorised_as(const SoftmaxArgs& a) {
  const int lanes = lanes_of_device();
  by_type(a, [&](auto t) {
    using T = decltype(t);
    if (a.cols <= lanes * kElemsPerThread) {
      const int rows_per_block = kBlockThreads / lanes;
      vectorised_registers<T, true, kFast><<<ceil_div(a.rows, rows_per_block), kBlockThreads>>>(a.in, a.out, a.rows, a.cols);
      TUTOR_GPU_CHECK_LAUNCH((vectorised_registers<T, true, kFast>));
    } else if (a.cols <= kRegisterCols) {
      // Just enough whole wavefronts (64 threads suits both vendors) for the row at 32 per thread.
      const int threads = static_cast<int>(device::round_up(ceil_div(a.cols, kElemsPerThread), 64));
      vectorised_registers<T, false, kFast><<<a.rows, threads>>>(a.in, a.out, a.rows, a.cols);
      TUTOR_GPU_CHECK_LAUNCH((vectorised_registers<T, false, kFast>));
    } else {
      vectorised_online<T, kFast><<<a.rows, 1024>>>(a.in, a.out, a.cols);
      TUTOR_GPU_CHECK_LAUNCH((vectorised_online<T, kFast>));
    }
  });
}

void launch_vectorised(const SoftmaxArgs& a) { launch_vectorised_as<false>(a); }

// ---- Step 6: fast_math ---------------------------------------------------------------------
// Step 5's kernels with the hardware's approximate exponential (__expf: one multiply by log2(e)
// and the special-function unit's 2^x) and one reciprocal per row instead of a division per
// element. At half the bytes per element, a bf16 row leaves the instructions per element, not
// the bytes, as the limit; this step removes most of them (README section 5).
void launch_fast_math(const SoftmaxArgs& a) { launch_vectorised_as<true>(a); }

}  // namespace tutor::a11
