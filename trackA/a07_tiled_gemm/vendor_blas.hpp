#pragma once
// The vendor reference: the same GEMM through the vendor's BLAS (cuBLAS on NVIDIA). The
// ladder reports every step as a fraction of it, measured in the same run.
// Implemented in cuda/vendor_blas.cu and hip/vendor_blas.hip. C++17 (included by GPU sources).
#include "sgemm.hpp"

namespace tutor::a07 {

/// Which arithmetic the vendor library may use.
enum class VendorMath {
  fp32,  ///< pure fp32 FMA (cuBLAS: CUBLAS_DEFAULT_MATH, no tensor cores) - the ladder's reference
  tf32,  ///< TF32 tensor cores (cuBLAS: CUBLAS_TF32_TENSOR_OP_MATH): inputs rounded to a
         ///< 10-bit mantissa, fp32 accumulation; a different, less accurate computation
};

/// True when this build has a vendor BLAS (cuBLAS: yes; the HIP build: only with rocBLAS or
/// hipBLAS, which Debian 12 does not package, so no).
bool vendor_blas_available();

/// A one-line name for the table ("cublasSgemm, CUBLAS_DEFAULT_MATH (fp32, no tensor cores)"),
/// or why there is none.
const char* vendor_blas_name(VendorMath math);

/// C = alpha * A * B + beta * C through the vendor library, row-major as in GemmArgs (cuBLAS
/// is column-major: it computes C^T = B^T A^T, the same bytes). Enqueued on the default
/// stream. Throws gpu::Error when the library fails or is not available.
void vendor_sgemm(const GemmArgs& args, VendorMath math);

}  // namespace tutor::a07
