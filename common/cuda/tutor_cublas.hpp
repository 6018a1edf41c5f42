#pragma once
// cuBLAS for the labs and tools that compare with it (A07's reference rows, the baselines): its
// calls checked like the runtime's, and one handle for the process, created on first use
// (creating one allocates and takes milliseconds). NVIDIA only: the AMD builds have no vendor
// BLAS from Debian (docs/SETUP.md).
#include <cublas_v2.h>

#include <string>

#include "tutor/gpu.hpp"

namespace tutor::gpu {

/// Throws gpu::Error naming the call and cuBLAS's status when `status` is not success.
inline void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string(call) + " failed: " + cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")");
}

inline cublasHandle_t cublas_handle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t created = nullptr;
    check_cublas(cublasCreate(&created), "cublasCreate");
    return created;
  }();
  return handle;
}

}  // namespace tutor::gpu
