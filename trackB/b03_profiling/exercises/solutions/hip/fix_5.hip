// B03 exercise 5, fix_5: the worked solution (HIP; CUDA twin: ../cuda/fix_5.cu). Build with
// -DTUTOR_EXERCISE_SOLUTIONS=ON to run it as the lab's fix_5 row.
//
// mystery_5 turns every output index into coordinates with a 64-bit division and remainder per
// dimension (five of them), then multiplies them by the strides: well over a hundred integer
// instructions for each 8 bytes it moves, so the SM's issue slots, not HBM, set its pace, while
// the FP32 units do one FMA per element (the answer key: ./mystery_5.md). None of that work
// depends on the innermost coordinate, along which both tensors are contiguous. Here a team of
// lanes (one warp, or one wavefront on AMD) takes kRowsPerTeam consecutive output rows of the
// innermost dimension: it divides once, for the first row, steps to the next row with an
// odometer (add a stride, carry when a coordinate wraps), and moves each row's elements with
// coalesced loads and stores. Correct for any StridedView.
#include "mystery.hpp"
#include "tutor/device/portability.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b03 {

namespace {
constexpr int kFixThreads = 256;
constexpr int kRowsPerTeam = 8;
constexpr int kOuter = kViewDims - 1;  // dimensions walked per row; the last one is walked by the lanes
}

// ---- Step 0: fix_5 ---------------------------------------------------------------------------
__global__ void fix_5_strided_affine(const float* x, float* out, StridedView view, std::int64_t n, float a, float b) {
  const std::int64_t inner = view.size[kOuter], inner_stride = view.stride[kOuter];
  const std::int64_t rows = n / inner;
  const int lane = device::lane_index();
  const std::int64_t teams = std::int64_t(gridDim.x) * blockDim.x / device::kWarpLanes;
  const std::int64_t team = (blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) / device::kWarpLanes;
  for (std::int64_t first = team * kRowsPerTeam; first < rows; first += teams * kRowsPerTeam) {
    // The first row's coordinates and input offset: the only divisions of the chunk.
    std::int64_t index[kOuter], rest = first, base = 0;
#pragma unroll
    for (int d = kOuter - 1; d >= 0; --d) {
      index[d] = rest % view.size[d];
      rest /= view.size[d];
      base += index[d] * view.stride[d];
    }
    const std::int64_t last = rows - first < kRowsPerTeam ? rows : first + kRowsPerTeam;
    for (std::int64_t row = first; row < last; ++row) {
      for (std::int64_t j = lane; j < inner; j += device::kWarpLanes)
        out[row * inner + j] = fmaf(a, x[base + j * inner_stride], b);
      // The next row: the last outer coordinate steps by one, carrying into the ones before it.
#pragma unroll
      for (int d = kOuter - 1; d >= 0; --d) {
        base += view.stride[d];
        if (++index[d] < view.size[d]) break;
        base -= view.stride[d] * view.size[d];
        index[d] = 0;
      }
    }
  }
}

void launch_fix_5(const float* x, float* out, const StridedView& view, float a, float b) {
  std::int64_t n = 1;
  for (int d = 0; d < kViewDims; ++d) n *= view.size[d];
  // Enough teams for every chunk of rows, capped where the grid-stride loop takes over.
  const std::int64_t rows = n / view.size[kOuter];
  const std::int64_t blocks = rows / (kRowsPerTeam * (kFixThreads / 32)) + 1;
  fix_5_strided_affine<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), kFixThreads>>>(x, out, view, n, a, b);
  TUTOR_GPU_CHECK_LAUNCH(fix_5_strided_affine);
}

}  // namespace tutor::b03
