#pragma once
// Which compiler is reading a device helper, and the few words that differ between vendors.
// The headers in tutor/device/ are included by kernel files (.cu read by nvcc, .hip read by
// clang in HIP mode, both as C++17) and by host tests (plain C++20, g++): this file is the
// only place that tells those three apart.
//
//   TUTOR_VENDOR_CUDA    1 under nvcc (its host and device passes), else 0
//   TUTOR_VENDOR_HIP     1 under clang's HIP mode for AMD GPUs (both passes), else 0
//   TUTOR_GPU_COMPILER   1 under either; 0 in a plain host compiler
//   TUTOR_HOST_DEVICE    a function that host and device code may call (nothing on the host)
//   TUTOR_DEVICE         a device-only function; defined only under a GPU compiler, so device
//                        code in a helper must sit inside `#if TUTOR_GPU_COMPILER`
//   TUTOR_UNROLL         asks a GPU compiler to unroll the next loop (g++ would warn about
//                        an unknown `#pragma unroll`)
//   kWarpLanes           lanes that execute in lock-step (warp / wavefront), device code only
//   LaneMask, kFullLaneMask  one bit per lane, as the vendor's warp intrinsics take it

#if defined(__HIP__)
// clang in HIP mode. hip_common.h then defines __HIP_PLATFORM_AMD__; HIP for NVIDIA GPUs is
// compiled by nvcc and takes the CUDA branch below instead.
#include <hip/hip_runtime.h>
#if !defined(__HIP_PLATFORM_AMD__)
#error "tutor/device: a HIP compile that is not for the AMD platform"
#endif
#define TUTOR_VENDOR_CUDA 0
#define TUTOR_VENDOR_HIP 1
#elif defined(__CUDACC__)
#include <cuda_runtime.h>
#define TUTOR_VENDOR_CUDA 1
#define TUTOR_VENDOR_HIP 0
#else
#define TUTOR_VENDOR_CUDA 0
#define TUTOR_VENDOR_HIP 0
#endif

#if TUTOR_VENDOR_CUDA || TUTOR_VENDOR_HIP
#define TUTOR_GPU_COMPILER 1
#define TUTOR_HOST_DEVICE __host__ __device__
#define TUTOR_DEVICE __device__
#define TUTOR_UNROLL _Pragma("unroll")
#else
#define TUTOR_GPU_COMPILER 0
#define TUTOR_HOST_DEVICE
#define TUTOR_UNROLL
#endif

#if TUTOR_GPU_COMPILER
namespace tutor::device {
// kWarpLanes is a compile-time constant so that butterfly loops unroll. Use it inside device
// code only: in a HIP compile the host pass has no target and sees the fallback value, so
// host code (grid sizes, shared-memory sizes, template arguments of a kernel) must take the
// lane count from the runtime instead (tutor::gpu::DeviceInfo::warp_size).
#if TUTOR_VENDOR_CUDA
// 32 lanes on every NVIDIA architecture; CUDA's `warpSize` holds the same value but is a
// run-time built-in, not a constant expression.
inline constexpr int kWarpLanes = 32;
// __shfl_*_sync and __ballot_sync take the participating lanes as 32 bits.
using LaneMask = unsigned;
inline constexpr LaneMask kFullLaneMask = 0xffffffffu;
#else
#if defined(__AMDGCN_WAVEFRONT_SIZE)
// clang sets this per target: 64 on CDNA (gfx90a, gfx940), 32 on RDNA in wave32 mode. ROCm
// 5.2 defines `warpSize` as this macro (amd_warp_functions.h); later ROCm releases make
// `warpSize` a run-time value, so the macro is what gives a constant.
inline constexpr int kWarpLanes = __AMDGCN_WAVEFRONT_SIZE;
#else
inline constexpr int kWarpLanes = 64;  // host pass of a HIP compile: see above
#endif
// __ballot and __activemask return one bit per lane of a 64-lane wavefront: 64 bits.
using LaneMask = unsigned long long;
inline constexpr LaneMask kFullLaneMask = ~0ull;
#endif

// A block is cut into warps of consecutive linear thread indices (x fastest, then y, then z),
// the first warp holding thread 0 (CUDA C++ Programming Guide, "SIMT Architecture" and
// "Thread Hierarchy"; HIP follows CUDA), so this index modulo kWarpLanes is the lane.
TUTOR_DEVICE inline int linear_thread_index() {
  return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
TUTOR_DEVICE inline int threads_in_block() { return static_cast<int>(blockDim.x * blockDim.y * blockDim.z); }
TUTOR_DEVICE inline int lane_index() { return linear_thread_index() % kWarpLanes; }
}  // namespace tutor::device
#endif
