// The vendor reference on NVIDIA: cuBLAS. HIP twin: ../hip/vendor_blas.hip.
#include <cublas_v2.h>

#include "tutor_cublas.hpp"

#include <string>

#include "tutor_gpu_check.hpp"
#include "vendor_blas.hpp"

namespace tutor::a07 {

using gpu::check_cublas;
using gpu::cublas_handle;

bool vendor_blas_available() { return true; }

const char* vendor_blas_name(VendorMath math) {
  return math == VendorMath::fp32 ? "cublasSgemm, CUBLAS_DEFAULT_MATH (fp32 FMA, no tensor cores)"
                                  : "cublasSgemm, CUBLAS_TF32_TENSOR_OP_MATH (TF32 tensor cores)";
}

void vendor_sgemm(const GemmArgs& p, VendorMath math) {
  cublasHandle_t h = cublas_handle();
  check_cublas(cublasSetMathMode(h, math == VendorMath::fp32 ? CUBLAS_DEFAULT_MATH : CUBLAS_TF32_TENSOR_OP_MATH),
        "cublasSetMathMode");
  // Row-major C (m x n) = A B is column-major C^T (n x m) = B^T A^T: swap the operands.
  check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, p.k, &p.alpha, p.b, p.n, p.a, p.k, &p.beta,
                    p.c, p.n),
        "cublasSgemm");
  TUTOR_GPU_CHECK(cudaPeekAtLastError());
}

}  // namespace tutor::a07
