#pragma once
// Checked CUDA calls for kernel files and the runtime layer. Every runtime call goes through
// TUTOR_GPU_CHECK; every launch is followed by TUTOR_GPU_CHECK_LAUNCH. A failure throws
// tutor::gpu::Error naming the call, the runtime's message and file:line.
// HIP twin: common/hip/tutor_gpu_check.hpp.
#include <cuda_runtime.h>

#include <string>

#include "tutor/gpu.hpp"

namespace tutor::gpu::detail {
[[noreturn]] inline void throw_error(const char* call, cudaError_t err, const char* file, int line) {
  throw Error(std::string(call) + " failed: " + cudaGetErrorName(err) + " (" +
              cudaGetErrorString(err) + ") at " + file + ":" + std::to_string(line));
}
}  // namespace tutor::gpu::detail

#define TUTOR_GPU_CHECK(call)                                                           \
  do {                                                                                  \
    const cudaError_t tutor_status_ = (call);                                           \
    if (tutor_status_ != cudaSuccess)                                                   \
      ::tutor::gpu::detail::throw_error(#call, tutor_status_, __FILE__, __LINE__);      \
  } while (0)

// A launch reports configuration errors (too many threads, too much shared memory) at
// once, and faults inside the kernel at the next synchronising call. `kernel` names the kernel
// that was launched (a template kernel with its arguments, in parentheses:
// TUTOR_GPU_CHECK_LAUNCH((sgemm_vectorized<true>))), so the runner can record its registers.
#define TUTOR_GPU_CHECK_LAUNCH(kernel)                                                        \
  do {                                                                                        \
    TUTOR_GPU_CHECK(cudaPeekAtLastError());                                                     \
    ::tutor::gpu::detail::note_launch(#kernel, reinterpret_cast<const void*>(&(kernel)));     \
  } while (0)
