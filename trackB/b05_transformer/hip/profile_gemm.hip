// B05 profile on AMD: the layer's four GEMMs. CUDA twin: ../cuda/profile_gemm.cu (cuBLAS).
// AMD's counterparts are hipBLASLt (hipblasLtMatmul with HIP_R_16BF A, B and C and
// HIPBLAS_COMPUTE_32F) and rocBLAS (rocblas_gemm_ex with rocblas_datatype_bf16_r and
// rocblas_datatype_f32_r compute, operands transposed as in the CUDA twin). Debian 12, where this
// project's HIP build is checked, packages neither, so this build has no GEMM and the profile
// says so (exit 3) instead of timing a GEMM of our own as if it were the library's.
#include <hip/hip_runtime.h>

#include <cstdint>

#include "profile_kernels.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b05::gpu_layer {

bool blas_available() { return false; }

const char* blas_name() {
  return "no vendor BLAS in this HIP build (hipBLASLt/rocBLAS not installed): the layer's GEMMs cannot run";
}

// ---- Step 1: linear ------------------------------------------------------------------------------
void linear(const std::uint16_t*, const std::uint16_t*, std::uint16_t*, int, int, int) {
  throw gpu::Error("linear: this HIP build has no hipBLASLt or rocBLAS");
}

}  // namespace tutor::b05::gpu_layer
