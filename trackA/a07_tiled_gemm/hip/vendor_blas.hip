// The vendor reference on AMD. CUDA twin: ../cuda/vendor_blas.cu (cuBLAS).
// AMD's counterparts are rocBLAS (rocblas_sgemm) and hipBLAS (hipblasSgemm); Debian 12, where
// this project's HIP build is checked, packages neither, so this build has no vendor
// reference and says so in its table instead of inventing one. With a ROCm install that has
// rocBLAS, the body of vendor_sgemm is one rocblas_sgemm call with the operands swapped as in
// the CUDA twin, and fp32 math only (CDNA's matrix cores have no TF32 path before CDNA3's xf32).
#include <hip/hip_runtime.h>

#include "tutor_gpu_check.hpp"
#include "vendor_blas.hpp"

namespace tutor::a07 {

bool vendor_blas_available() { return false; }

const char* vendor_blas_name(VendorMath) {
  return "no vendor BLAS in this HIP build (rocBLAS/hipBLAS not installed): fractions of it are not reported";
}

void vendor_sgemm(const GemmArgs&, VendorMath) {
  throw gpu::Error("vendor_sgemm: this HIP build has no rocBLAS or hipBLAS");
}

}  // namespace tutor::a07
