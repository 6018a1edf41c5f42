// The vendor reference on NVIDIA: CUB's device-wide sum (CUDA toolkit). HIP twin:
// ../hip/vendor_sum.hip (rocPRIM).
#include <cub/cub.cuh>

#include "tutor_gpu_check.hpp"
#include "reduce.hpp"

namespace tutor::a03 {

bool vendor_available() { return true; }

const char* vendor_name() { return "cub::DeviceReduce::Sum (CUDA toolkit)"; }

// A null workspace asks CUB for the temporary storage it needs; nothing is launched.
std::size_t vendor_workspace_bytes(std::size_t n) {
  std::size_t bytes = 0;
  TUTOR_GPU_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr),
                                         static_cast<float*>(nullptr), static_cast<int>(n)));
  return bytes;
}

void launch_vendor_sum(const float* in, float* out, std::size_t n, void* workspace, std::size_t workspace_bytes) {
  std::size_t bytes = workspace_bytes;
  TUTOR_GPU_CHECK(cub::DeviceReduce::Sum(workspace, bytes, in, out, static_cast<int>(n)));
  TUTOR_GPU_CHECK(cudaPeekAtLastError());
}

}  // namespace tutor::a03
