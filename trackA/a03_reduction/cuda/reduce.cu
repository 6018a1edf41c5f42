// A03 reduction ladder, NVIDIA (CUDA). HIP twin: ../hip/reduce.hip, same kernels in the same
// order. Every step writes out[0] = sum of in[0..n), fp32.
//
// Steps 1-5 are multi-pass: each pass turns `count` values into one partial sum per block, and
// passes repeat on the partials until one value is left (in `out`). Steps 6 and 7 read the
// input once in a grid-stride loop and finish in the same launch.
#include "tutor_gpu_check.hpp"
#include "reduce.hpp"

#include "tutor/device/block_reduce.hpp"
#include "tutor/device/ceil_div.hpp"
#include "tutor/device/vector_io.hpp"

namespace tutor::a03 {

namespace {
using device::ceil_div;

// The partials of a multi-pass reduction: two arrays in the workspace, used in turn.
float* partials(void* workspace, std::size_t n, int which) {
  return static_cast<float*>(workspace) + std::size_t(which) * partials_capacity(n);
}
// The single-pass steps' ticket counter: its own 16-byte-aligned slot past the partials and
// the vendor's storage (reduce.hpp, counter_offset).
unsigned* counter(void* workspace, std::size_t workspace_bytes) {
  return reinterpret_cast<unsigned*>(static_cast<char*>(workspace) + counter_offset(workspace_bytes));
}

// Runs `pass(src, dst, count, blocks)` until one value is left; each pass's block covers
// `per_block` values. A single input element still takes one pass (it copies it to out).
template <class Pass>
void multi_pass(const float* in, float* out, std::size_t n, void* workspace, int per_block, Pass pass) {
  const float* src = in;
  std::size_t count = n;
  int which = 0;
  do {
    const std::size_t blocks = ceil_div(count, std::size_t(per_block));
    float* dst = blocks == 1 ? out : partials(workspace, n, which);
    pass(src, dst, count, static_cast<unsigned>(blocks));
    src = dst;
    count = blocks;
    which ^= 1;
  } while (count > 1);
}
}  // namespace

// ---- Step 1: interleaved -----------------------------------------------------------------
// Harris's first kernel: at stride s, threads whose index is a multiple of 2s add their
// neighbour s away. The active threads are scattered over every warp, so each warp diverges
// (the % is slow too) and almost no warp retires early.
__global__ void reduce_interleaved(const float* in, float* out, std::size_t n) {
  __shared__ float sdata[kBlockThreads];
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
void launch_interleaved(const float* in, float* out, std::size_t n, void* workspace, std::size_t) {
  multi_pass(in, out, n, workspace, kBlockThreads, [](const float* src, float* dst, std::size_t count, unsigned blocks) {
    reduce_interleaved<<<blocks, kBlockThreads>>>(src, dst, count);
    TUTOR_GPU_CHECK_LAUNCH(reduce_interleaved);
  });
}

// ---- Step 2: sequential ------------------------------------------------------------------
// Sequential addressing: at stride s the first s threads add the value s away. Active threads
// are contiguous, so whole warps are either busy or idle (no divergence until s < 32), and
// consecutive threads touch consecutive words (no bank conflicts).
__global__ void reduce_sequential(const float* in, float* out, std::size_t n) {
  __shared__ float sdata[kBlockThreads];
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
void launch_sequential(const float* in, float* out, std::size_t n, void* workspace, std::size_t) {
  multi_pass(in, out, n, workspace, kBlockThreads, [](const float* src, float* dst, std::size_t count, unsigned blocks) {
    reduce_sequential<<<blocks, kBlockThreads>>>(src, dst, count);
    TUTOR_GPU_CHECK_LAUNCH(reduce_sequential);
  });
}

// ---- Step 3: first_add -------------------------------------------------------------------
// Half the threads of step 2 sat idle from the first iteration: load two elements per thread
// and add them on the way into shared memory. Half the blocks, the same bytes.
__global__ void reduce_first_add(const float* in, float* out, std::size_t n) {
  __shared__ float sdata[kBlockThreads];
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * (2 * blockDim.x) + tid;
  float v = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
void launch_first_add(const float* in, float* out, std::size_t n, void* workspace, std::size_t) {
  multi_pass(in, out, n, workspace, 2 * kBlockThreads,
             [](const float* src, float* dst, std::size_t count, unsigned blocks) {
               reduce_first_add<<<blocks, kBlockThreads>>>(src, dst, count);
               TUTOR_GPU_CHECK_LAUNCH(reduce_first_add);
             });
}

// ---- Step 4: unroll_last_warp ------------------------------------------------------------
// Once only one warp is active, block-wide barriers are wasted: the last log2(lanes) strides
// run in the first warp alone. The classic form relied on the warp's lanes executing in
// lock-step ("warp-synchronous" code through a volatile pointer). Since Volta, a warp's
// threads are scheduled independently, so lane t may read sdata[t + s] before lane t + s has
// written it: each stride reads into a register, waits for the warp (__syncwarp), writes,
// and waits again. The tail starts at the lane count of this vendor's warp (kWarpLanes), not
// at a hard-coded 32: on a 64-lane wavefront a tail from 32 drops slots 64..127.
__global__ void reduce_unroll_last_warp(const float* in, float* out, std::size_t n) {
  constexpr int kLanes = device::kWarpLanes;
  __shared__ float sdata[kBlockThreads];
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * (2 * blockDim.x) + tid;
  float v = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > kLanes; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < kLanes) {
    volatile float* vdata = sdata;
    TUTOR_UNROLL
    for (int s = kLanes; s > 0; s /= 2) {
      const float sum = vdata[tid] + vdata[tid + s];
      __syncwarp();
      vdata[tid] = sum;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
void launch_unroll_last_warp(const float* in, float* out, std::size_t n, void* workspace, std::size_t) {
  multi_pass(in, out, n, workspace, 2 * kBlockThreads,
             [](const float* src, float* dst, std::size_t count, unsigned blocks) {
               reduce_unroll_last_warp<<<blocks, kBlockThreads>>>(src, dst, count);
               TUTOR_GPU_CHECK_LAUNCH(reduce_unroll_last_warp);
             });
}

// ---- Step 5: warp_shuffle ----------------------------------------------------------------
// Shared memory leaves the tree: each warp reduces its lanes' values in registers with xor
// shuffles (tutor/device/warp_reduce.hpp, log2(kWarpLanes) steps: 5 on NVIDIA, 6 on a 64-lane
// wavefront), one value per warp goes through shared memory, and every thread folds those.
__global__ void reduce_warp_shuffle(const float* in, float* out, std::size_t n) {
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  const std::size_t i = std::size_t(blockIdx.x) * (2 * blockDim.x) + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  v = device::block_reduce_sum(v, scratch);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
void launch_warp_shuffle(const float* in, float* out, std::size_t n, void* workspace, std::size_t) {
  multi_pass(in, out, n, workspace, 2 * kBlockThreads,
             [](const float* src, float* dst, std::size_t count, unsigned blocks) {
               reduce_warp_shuffle<<<blocks, kBlockThreads>>>(src, dst, count);
               TUTOR_GPU_CHECK_LAUNCH(reduce_warp_shuffle);
             });
}

// ---- Steps 6 and 7: one pass over the input ----------------------------------------------
namespace {
// Each thread reads 16-byte vectors (tutor/device/vector_io.hpp) in a grid-stride loop, at most
// kMaxVectorsPerThread of them, into four independent accumulators (four adds in flight).
constexpr int kMaxVectorsPerThread = 16;

unsigned single_pass_blocks(std::size_t n) {
  static int resident = 0;  // blocks of kBlockThreads the whole GPU holds at once
  if (resident == 0) {
    int dev = 0, sms = 0, per_sm = 0;
    TUTOR_GPU_CHECK(cudaGetDevice(&dev));
    TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    resident = sms * (per_sm / kBlockThreads);
  }
  // Fill the GPU, at most kMaxVectorsPerThread vectors per thread (reduce.hpp, single_pass_grid).
  return single_pass_grid(n, std::size_t(resident), kMaxVectorsPerThread);
}

__device__ float thread_sum_vec4(const float* in, std::size_t n) {
  float a = 0, b = 0, c = 0, d = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x * 4;
  for (std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) * 4; i < n; i += stride) {
    const device::Vec<float, 4> v = device::load_vec<4>(in, i, n, 0.0f);
    a += v[0];
    b += v[1];
    c += v[2];
    d += v[3];
  }
  return (a + b) + (c + d);
}
}  // namespace

// ---- Step 6: single_pass_atomic ----------------------------------------------------------
// Grid-stride loop with vector loads, a block reduction, and one atomicAdd per block into the
// output (zeroed first). Fast, but the blocks' order of arrival decides the rounding: the
// bits of the result may change from run to run.
__global__ void reduce_single_pass_atomic(const float* in, float* out, std::size_t n) {
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  const float v = device::block_reduce_sum(thread_sum_vec4(in, n), scratch);
  if (threadIdx.x == 0) atomicAdd(out, v);
}
void launch_single_pass_atomic(const float* in, float* out, std::size_t n, void*, std::size_t) {
  TUTOR_GPU_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
  reduce_single_pass_atomic<<<single_pass_blocks(n), kBlockThreads>>>(in, out, n);
  TUTOR_GPU_CHECK_LAUNCH(reduce_single_pass_atomic);
}

// ---- Step 7: single_pass_deterministic ---------------------------------------------------
// The same loop, but each block writes its partial to its own slot; the last block to finish
// (a ticket counter, after a fence that makes the partial visible device-wide: CUDA C++
// Programming Guide, "Memory Fence Functions") adds the partials in a fixed order. Same grid,
// same tree, same bits on every run on this GPU.
__global__ void reduce_single_pass_deterministic(const float* in, float* out, std::size_t n, float* partial,
                                                 unsigned* ticket) {
  __shared__ float scratch[device::kMaxWarpsPerBlock];
  __shared__ bool last;
  const float v = device::block_reduce_sum(thread_sum_vec4(in, n), scratch);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = v;
    __threadfence();
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  const volatile float* p = partial;  // written by other blocks: read past this SM's L1
  float sum = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) sum += p[b];
  sum = device::block_reduce_sum(sum, scratch);
  if (threadIdx.x == 0) {
    out[0] = sum;
    *ticket = 0;  // ready for the next launch
  }
}
void launch_single_pass_deterministic(const float* in, float* out, std::size_t n, void* workspace,
                                      std::size_t workspace_bytes) {
  reduce_single_pass_deterministic<<<single_pass_blocks(n), kBlockThreads>>>(
      in, out, n, partials(workspace, n, 0), counter(workspace, workspace_bytes));
  TUTOR_GPU_CHECK_LAUNCH(reduce_single_pass_deterministic);
}

}  // namespace tutor::a03
