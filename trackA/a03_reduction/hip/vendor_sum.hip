// The vendor reference on AMD: rocPRIM's device-wide reduce, where librocprim-dev was found at
// configure time. CUDA twin: ../cuda/vendor_sum.cu (CUB).
#include <hip/hip_runtime.h>

#if defined(TUTOR_HAVE_ROCPRIM)
#include <rocprim/rocprim.hpp>
#endif

#include "tutor_gpu_check.hpp"
#include "reduce.hpp"

namespace tutor::a03 {

#if defined(TUTOR_HAVE_ROCPRIM)

bool vendor_available() { return true; }

const char* vendor_name() { return "rocprim::reduce (rocPRIM)"; }

// A null workspace asks rocPRIM for the temporary storage it needs; nothing is launched.
std::size_t vendor_workspace_bytes(std::size_t n) {
  std::size_t bytes = 0;
  TUTOR_GPU_CHECK(rocprim::reduce(nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr), n));
  return bytes;
}

void launch_vendor_sum(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes) {
  std::size_t bytes = workspace_bytes;
  TUTOR_GPU_CHECK(rocprim::reduce(workspace, bytes, in, out, n));
  TUTOR_GPU_CHECK(hipPeekAtLastError());
}

#else  // no rocPRIM: the reference row is skipped and says why

bool vendor_available() { return false; }

const char* vendor_name() { return "no rocPRIM in this HIP build (librocprim-dev not found at configure time)"; }

std::size_t vendor_workspace_bytes(std::size_t) { return 0; }

void launch_vendor_sum(const float*, float*, std::size_t, void*, std::size_t) {}

#endif

}  // namespace tutor::a03
