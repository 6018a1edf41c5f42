// B05 profile on NVIDIA: the layer's four GEMMs (qkv_proj, o_proj, gate_up_proj, down_proj)
// through cuBLAS, the library a serving engine calls for them. HIP twin: ../hip/profile_gemm.hip.
#include <cublas_v2.h>

#include "tutor_cublas.hpp"

#include <cstdint>

#include "profile_kernels.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b05::gpu_layer {

using gpu::check_cublas;
using gpu::cublas_handle;

bool blas_available() { return true; }

const char* blas_name() {
  return "cublasGemmEx: bf16 A, B and C, CUBLAS_COMPUTE_32F (fp32 accumulation), "
         "CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION (split-K partial sums stay fp32)";
}

// ---- Step 1: linear ------------------------------------------------------------------------------
// y = x W^T as PyTorch's nn.Linear stores W (out x in, row-major). cuBLAS is column-major: the
// row-major y (tokens x out) is the column-major y^T (out x tokens) = W x^T, where the row-major
// W read column-major is W^T (in x out, ld in), hence CUBLAS_OP_T on it, and the row-major x
// read column-major is x^T (in x tokens, ld in): the "TN" GEMM PyTorch issues for a Linear.
// Reduced-precision reductions are disallowed so that every partial sum is fp32, the arithmetic
// the verification's tolerance assumes (cuBLAS documentation, cublasMath_t).
void linear(const std::uint16_t* x, const std::uint16_t* w, std::uint16_t* y, int tokens, int out_features,
            int in_features) {
  cublasHandle_t h = cublas_handle();
  const float alpha = 1.0f, beta = 0.0f;
  check_cublas(cublasSetMathMode(h, static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH |
                                                              CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)),
               "cublasSetMathMode");
  check_cublas(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, out_features, tokens, in_features, &alpha, w, CUDA_R_16BF,
                            in_features, x, CUDA_R_16BF, in_features, &beta, y, CUDA_R_16BF, out_features,
                            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
  TUTOR_GPU_CHECK(cudaPeekAtLastError());
}

}  // namespace tutor::b05::gpu_layer
