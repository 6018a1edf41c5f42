// The host preset builds every lab without a GPU compiler (TUTOR_HOST_ONLY): --help and
// --list work, and a run stops at open_device with exit code 3. These stand in for the
// GPU sources' definitions there; in a GPU build this file is empty.
#if defined(TUTOR_HOST_ONLY)
#include "sgemm.hpp"
#include "tutor/gpu.hpp"
#include "vendor_blas.hpp"

namespace tutor::a07 {
namespace {
[[noreturn]] void no_gpu() { throw gpu::NoDevice("this binary was built with the host preset, without GPU kernels"); }
}  // namespace
int TileConfig::threads() const { return (bm / wm) * (bn / wn) * 32; }
int tile_config_count() { return 1; }  // the GPU builds list their own (cuda/sgemm.cu, hip/sgemm.hip)
TileConfig tile_config(int) { return {128, 256, 8, 32, 64}; }
void select_tile_config(int) {}
bool vendor_blas_available() { return false; }
const char* vendor_blas_name(VendorMath) { return "none (host-only build)"; }
void vendor_sgemm(const GemmArgs&, VendorMath) { no_gpu(); }
}  // namespace tutor::a07
#endif
