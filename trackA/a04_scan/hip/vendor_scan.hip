// A04 scan ladder, AMD: the vendor library's row, rocprim::inclusive_scan / exclusive_scan
// (rocPRIM, Debian's librocprim-dev). NVIDIA counterpart: ../cuda/vendor_scan.cu (CUB).
#include <hip/hip_runtime.h>

#include <cstdint>
#include <stdexcept>

#if TUTOR_HAVE_ROCPRIM
#include <rocprim/rocprim.hpp>
#endif

#include "scan.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::a04 {

#if TUTOR_HAVE_ROCPRIM
namespace {
template <class T>
void run(void* ws, std::size_t& bytes, const T* in, T* out, long long n, bool exclusive) {
  const auto items = static_cast<std::size_t>(n);
  if (exclusive)
    TUTOR_GPU_CHECK(rocprim::exclusive_scan(ws, bytes, in, out, T(0), items, rocprim::plus<T>()));
  else
    TUTOR_GPU_CHECK(rocprim::inclusive_scan(ws, bytes, in, out, items, rocprim::plus<T>()));
}
}  // namespace

const char* vendor_scan_name() { return "rocprim::inclusive_scan / exclusive_scan (rocPRIM)"; }

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
#else
// Built without rocPRIM headers (librocprim-dev): the vendor row fails with this reason.
const char* vendor_scan_name() { return "none (built without rocPRIM)"; }
std::size_t vendor_workspace_bytes(long long, ScanType, bool) { return 0; }
void launch_vendor_scan(const ScanArgs&) {
  throw std::runtime_error("vendor_scan: this build has no rocPRIM (install librocprim-dev and rebuild)");
}
#endif

}  // namespace tutor::a04
