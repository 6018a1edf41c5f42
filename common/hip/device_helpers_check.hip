// Compile check of the device helpers (common/include/tutor/device/) for AMD: kernels that
// use every helper, so that building tutor_gpu_hip fails when a helper stops compiling for
// the GPU. They are not launched; the host test runs the same logic (device_helpers_test).
// CUDA twin: common/cuda/device_helpers_check.cu (same kernels, same order).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <cmath>
#include <cstddef>

#include "tutor/device/block_reduce.hpp"
#include "tutor/device/ceil_div.hpp"
#include "tutor/device/vector_io.hpp"
#include "tutor/device/warp_reduce.hpp"

namespace tutor::device::check {

// Sum and maximum of each row of a rows x cols matrix, one block per row: 128-bit loads with
// the tail and misaligned rows handled by load_vec, then two block reductions sharing one
// scratch array.
__global__ void row_sum_max(const float* in, float* sums, float* maxima, int cols) {
  __shared__ float scratch[kMaxWarpsPerBlock];
  const float* row = in + std::size_t(blockIdx.x) * cols;
  float sum = 0.0f;
  float max = -INFINITY;
  for (int v = threadIdx.x; v < ceil_div(cols, 4); v += blockDim.x) {
    const Vec<float, 4> x = load_vec<4>(row, std::size_t(4) * v, cols, 0.0f);
    TUTOR_UNROLL
    for (int k = 0; k < 4; ++k) {
      sum += x[k];
      if (4 * v + k < cols) max = Max{}(max, x[k]);
    }
  }
  sum = block_reduce_sum(sum, scratch);
  max = block_reduce_max(max, scratch);
  if (threadIdx.x == 0) sums[blockIdx.x] = sum, maxima[blockIdx.x] = max;
}

// Sub-warp groups of 16 lanes and the integer and double shuffles, generic op included.
__global__ void group_reductions(const int* counts, const double* values, int* count_out,
                                 double* value_out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int count = warp_reduce<16>(i < n ? counts[i] : 0, Sum{});
  const double value = warp_reduce(i < n ? values[i] : 0.0, Min{});
  if (i < n) count_out[i] = count, value_out[i] = value;
}

// Copy of n halves, eight (128 bits) per thread, and a float2 store of a padded length.
__global__ void copy_halves(const __half* in, __half* out, std::size_t n, float2* padded) {
  const std::size_t i = std::size_t(8) * (blockIdx.x * blockDim.x + threadIdx.x);
  store_vec<8>(out, i, n, load_vec<8>(in, i, n, __float2half(0.0f)));
  const Vec<float, 2> pair{{float(round_up(n, 64)), float(warp_reduce_sum(1))}};
  store_vec<2>(reinterpret_cast<float*>(padded), 2 * std::size_t(threadIdx.x), 2 * n, pair);
}

}  // namespace tutor::device::check
