// The GPU runtime layer of a host-only build (the host preset): implements tutor/gpu.hpp
// with no GPU runtime behind it. A lab built this way still answers --help, --list and
// --model (analytic, no GPU); anything that needs the device stops at open_device() with
// NoDevice, which the lab turns into exit code 3.
#include "tutor/gpu.hpp"

namespace tutor::gpu {
namespace {
[[noreturn]] void no_runtime() {
  throw NoDevice("no GPU runtime in this binary: it was built with the host preset, which runs no GPU code; "
                 "to measure, build with the cuda or hip preset (docs/SETUP.md)");
}
}  // namespace

DeviceInfo open_device(int) { no_runtime(); }
DeviceBuffer::DeviceBuffer(std::size_t) { no_runtime(); }
DeviceBuffer::~DeviceBuffer() = default;
DeviceBuffer::DeviceBuffer(DeviceBuffer&&) noexcept = default;
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&&) noexcept = default;
void DeviceBuffer::upload(const void*, std::size_t) { no_runtime(); }
void DeviceBuffer::download(void*, std::size_t) const { no_runtime(); }
void DeviceBuffer::copy_from(const DeviceBuffer&) { no_runtime(); }
void DeviceBuffer::fill_bytes(std::uint8_t) { no_runtime(); }
void DeviceBuffer::fill_u32(std::uint32_t) { no_runtime(); }
Event::Event() { no_runtime(); }
Event::~Event() = default;
void Event::record() { no_runtime(); }
void Event::synchronize() { no_runtime(); }
float Event::elapsed_ms_since(const Event&) const { no_runtime(); }
void synchronize() { no_runtime(); }
void check_last_error(const char*) { no_runtime(); }
void flush_l2() { no_runtime(); }
double measure_copy_GBps(std::size_t, int) { no_runtime(); }
double measure_fma_TFLOPs(int) { no_runtime(); }
void begin_kernel_capture() {}
std::vector<KernelInfo> end_kernel_capture() { return {}; }
void detail::note_launch(const char*, const void*) {}
ClockSample read_clocks() { return {false, "no GPU runtime in this build", 0, 0, 0, 0, 0, 0, {}}; }
ProfilerRange::ProfilerRange(const char*) {}
ProfilerRange::~ProfilerRange() {}

}  // namespace tutor::gpu
