// The host preset builds every lab without a GPU compiler (TUTOR_HOST_ONLY): --help, --list
// and --model work, and a run stops at open_device with exit code 3. These stand in for the
// GPU sources' definitions there; in a GPU build this file is empty.
#if defined(TUTOR_HOST_ONLY)
#include "scan.hpp"
#include "tutor/gpu.hpp"

namespace tutor::a04 {
namespace {
[[noreturn]] void no_gpu() { throw gpu::NoDevice("this binary was built with the host preset, without GPU kernels"); }
}  // namespace
std::size_t ladder_workspace_bytes(long long) { no_gpu(); }
std::size_t vendor_workspace_bytes(long long, ScanType, bool) { no_gpu(); }
const char* vendor_scan_name() { return "none (host-only build)"; }
void launch_vendor_scan(const ScanArgs&) { no_gpu(); }
}  // namespace tutor::a04
#endif
