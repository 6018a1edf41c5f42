// A04 scan ladder, NVIDIA: the vendor library's row, cub::DeviceScan (CUDA toolkit). HIP
// counterpart: ../hip/vendor_scan.hip (rocPRIM).
#include <cstdint>

#include <cub/device/device_scan.cuh>

#include "scan.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a04 {

namespace {
// CUB's item count is an int here; the lab's sizes stay below 2^31.
int items(long long n) { return static_cast<int>(n); }

template <class T>
void run(void* ws, std::size_t& bytes, const T* in, T* out, long long n, bool exclusive) {
  if (exclusive) TUTOR_GPU_CHECK(cub::DeviceScan::ExclusiveSum(ws, bytes, in, out, items(n)));
  else TUTOR_GPU_CHECK(cub::DeviceScan::InclusiveSum(ws, bytes, in, out, items(n)));
}
}  // namespace

const char* vendor_scan_name() { return "cub::DeviceScan::InclusiveSum / ExclusiveSum (CUB, CUDA toolkit)"; }

std::size_t vendor_workspace_bytes(long long n, ScanType type, bool exclusive) {
  std::size_t bytes = 0;  // a null workspace asks for the size; nothing is launched
  if (type == ScanType::f32) run<float>(nullptr, bytes, nullptr, nullptr, n, exclusive);
  else run<std::int32_t>(nullptr, bytes, nullptr, nullptr, n, exclusive);
  return bytes;
}

void launch_vendor_scan(const ScanArgs& a) {
  std::size_t bytes = a.workspace_bytes;
  if (a.type == ScanType::f32)
    run(a.workspace, bytes, static_cast<const float*>(a.in), static_cast<float*>(a.out), a.n, a.exclusive);
  else
    run(a.workspace, bytes, static_cast<const std::int32_t*>(a.in), static_cast<std::int32_t*>(a.out), a.n,
        a.exclusive);
}

}  // namespace tutor::a04
