// The host preset builds the lab without a GPU compiler (TUTOR_HOST_ONLY): --help, --list and
// --model work, and a run stops at open_device with exit code 3. These stand in for the vendor
// functions of cuda/vendor_sum.cu and hip/vendor_sum.hip there; in a GPU build this file is empty.
#if defined(TUTOR_HOST_ONLY)
#include "reduce.hpp"
#include "tutor/gpu.hpp"

namespace tutor::a03 {
bool vendor_available() { return true; }  // --list shows the row a GPU build runs
const char* vendor_name() { return "none (host-only build)"; }
std::size_t vendor_workspace_bytes(std::size_t) {
  throw gpu::NoDevice("this binary was built with the host preset, without GPU kernels");
}
void launch_vendor_sum(const float*, float*, std::size_t, void*, std::size_t) {
  throw gpu::NoDevice("this binary was built with the host preset, without GPU kernels");
}
}  // namespace tutor::a03
#endif
