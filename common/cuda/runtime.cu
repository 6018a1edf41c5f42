// The GPU runtime layer for CUDA: implements tutor/gpu.hpp.
// HIP twin: common/hip/runtime.hip (same functions, same order).
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <type_traits>
#include <utility>
#include <memory>
#include <vector>

#include "tutor_gpu_check.hpp"

namespace tutor::gpu {

DeviceInfo open_device(int ordinal) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
    throw NoDevice(std::string("no NVIDIA GPU or driver found (cudaGetDeviceCount: ") +
                   (status == cudaSuccess ? "0 devices" : cudaGetErrorName(status)) +
                   ")");
  if (ordinal < 0 || ordinal >= count)
    throw NoDevice("device " + std::to_string(ordinal) + " was asked for; CUDA sees " +
                   std::to_string(count) + " (0.." + std::to_string(count - 1) + ")");
  TUTOR_GPU_CHECK(cudaSetDevice(ordinal));
  cudaDeviceProp p{};
  TUTOR_GPU_CHECK(cudaGetDeviceProperties(&p, ordinal));
  int clock_kHz = 0, mem_clock_kHz = 0, bus_bits = 0, runtime = 0;
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&clock_kHz, cudaDevAttrClockRate, ordinal));
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&mem_clock_kHz, cudaDevAttrMemoryClockRate, ordinal));
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal));
  TUTOR_GPU_CHECK(cudaRuntimeGetVersion(&runtime));
  DeviceInfo d;
  d.vendor = "NVIDIA";
  d.name = p.name;
  d.arch = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
  d.ordinal = ordinal;
  d.sm_count = p.multiProcessorCount;
  d.warp_size = p.warpSize;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.regs_per_sm = p.regsPerMultiprocessor;
  d.smem_per_block_bytes = p.sharedMemPerBlock;
  d.smem_per_block_optin_bytes = p.sharedMemPerBlockOptin;
  d.smem_per_sm_bytes = p.sharedMemPerMultiprocessor;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.global_mem_bytes = p.totalGlobalMem;
  d.sm_clock_MHz = clock_kHz / 1e3;
  d.mem_clock_MHz = mem_clock_kHz / 1e3;
  d.mem_bus_bits = bus_bits;
  d.runtime_version = "CUDA " + std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
  return d;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes > 0) TUTOR_GPU_CHECK(cudaMalloc(&ptr_, bytes));
}
DeviceBuffer::~DeviceBuffer() {
  if (ptr_) (void)cudaFree(ptr_);  // no throw from a destructor; a failed free is not recoverable
}
DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) {
  o.ptr_ = nullptr;
  o.bytes_ = 0;
}
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  std::swap(ptr_, o.ptr_);
  std::swap(bytes_, o.bytes_);
  return *this;
}
void DeviceBuffer::upload(const void* host, std::size_t bytes) {
  if (bytes > bytes_) throw Error("upload of " + std::to_string(bytes) + " B into a buffer of " + std::to_string(bytes_));
  TUTOR_GPU_CHECK(cudaMemcpy(ptr_, host, bytes, cudaMemcpyHostToDevice));
}
void DeviceBuffer::download(void* host, std::size_t bytes) const {
  if (bytes > bytes_) throw Error("download of " + std::to_string(bytes) + " B from a buffer of " + std::to_string(bytes_));
  TUTOR_GPU_CHECK(cudaMemcpy(host, ptr_, bytes, cudaMemcpyDeviceToHost));
}
void DeviceBuffer::copy_from(const DeviceBuffer& src) {
  if (src.bytes_ != bytes_) throw Error("copy of " + std::to_string(src.bytes_) + " B into a buffer of " + std::to_string(bytes_));
  TUTOR_GPU_CHECK(cudaMemcpy(ptr_, src.ptr_, bytes_, cudaMemcpyDeviceToDevice));
}
void DeviceBuffer::fill_bytes(std::uint8_t value) {
  TUTOR_GPU_CHECK(cudaMemset(ptr_, value, bytes_));
}

// Fills n 32-bit words with one pattern (cudaMemset sets bytes only).
__global__ void fill_u32_kernel(std::uint32_t* out, std::size_t n, std::uint32_t bits) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = bits;
}
void DeviceBuffer::fill_u32(std::uint32_t bits) {
  const std::size_t n = bytes_ / 4;
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65535));
  fill_u32_kernel<<<blocks, 256>>>(static_cast<std::uint32_t*>(ptr_), n, bits);
  TUTOR_GPU_CHECK_LAUNCH(fill_u32_kernel);
}

Event::Event() {
  cudaEvent_t e;
  TUTOR_GPU_CHECK(cudaEventCreate(&e));
  handle_ = e;
}
Event::~Event() { (void)cudaEventDestroy(static_cast<cudaEvent_t>(handle_)); }
void Event::record() { TUTOR_GPU_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(handle_))); }
void Event::synchronize() { TUTOR_GPU_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(handle_))); }
float Event::elapsed_ms_since(const Event& start) const {
  float ms = 0;
  TUTOR_GPU_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start.handle_),
                                       static_cast<cudaEvent_t>(handle_)));
  return ms;
}

void synchronize() { TUTOR_GPU_CHECK(cudaDeviceSynchronize()); }

void check_last_error(const char* where) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw Error(std::string(where) + ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

void flush_l2() {
  static DeviceBuffer scratch;
  if (scratch.bytes() == 0) {
    int device = 0, l2 = 0;
    TUTOR_GPU_CHECK(cudaGetDevice(&device));
    TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    scratch = DeviceBuffer(std::max<std::size_t>(2 * static_cast<std::size_t>(l2), 1 << 20));
  }
  TUTOR_GPU_CHECK(cudaMemsetAsync(scratch.get(), 0, scratch.bytes()));
}

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace

double measure_copy_GBps(std::size_t bytes, int reps) {
  DeviceBuffer src(bytes), dst(bytes);
  src.fill_u32(0x3f800000u);  // 1.0f: any non-zero pattern; a copy does not look at it
  Event start, stop;
  std::vector<double> ms;
  for (int i = 0; i < 3 + reps; ++i) {
    start.record();
    TUTOR_GPU_CHECK(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice));
    stop.record();
    stop.synchronize();
    if (i >= 3) ms.push_back(stop.elapsed_ms_since(start));
  }
  return 2.0 * static_cast<double>(bytes) / (median(ms) * 1e-3) / 1e9;
}

// Eight independent FMA chains per thread keep the FMA pipes busy without waiting on the
// previous result (FMA latency is ~4 cycles; 8 chains x a full SM of warps hides it).
constexpr int kFmaChains = 8;
constexpr int kFmaIterations = 4096;
__global__ void fma_peak_kernel(float* out, float a, float b) {
  float x[kFmaChains];
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) x[c] = threadIdx.x * 1e-3f + c;
  for (int i = 0; i < kFmaIterations; ++i) {
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) x[c] = fmaf(x[c], a, b);
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) sum += x[c];
  if (sum == 12345.0f) out[0] = sum;  // keeps the chains alive; practically never stores
}

double measure_fma_TFLOPs(int reps) {
  int device = 0, sms = 0, threads_per_sm = 0;
  TUTOR_GPU_CHECK(cudaGetDevice(&device));
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TUTOR_GPU_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  const int block = 256;
  const int blocks = sms * std::max(1, threads_per_sm / block) * 4;  // 4 waves
  DeviceBuffer out(sizeof(float));
  Event start, stop;
  std::vector<double> ms;
  for (int i = 0; i < 2 + reps; ++i) {
    start.record();
    fma_peak_kernel<<<blocks, block>>>(out.as<float>(), 0.999f, 1e-4f);
    TUTOR_GPU_CHECK_LAUNCH(fma_peak_kernel);
    stop.record();
    stop.synchronize();
    if (i >= 2) ms.push_back(stop.elapsed_ms_since(start));
  }
  const double flops = 2.0 * kFmaChains * kFmaIterations * double(blocks) * block;
  return flops / (median(ms) * 1e-3) / 1e12;
}

namespace {
bool g_capturing = false;
std::vector<KernelInfo> g_captured;
}  // namespace

void begin_kernel_capture() {
  g_captured.clear();
  g_capturing = true;
}

std::vector<KernelInfo> end_kernel_capture() {
  g_capturing = false;
  return std::move(g_captured);
}

void detail::note_launch(const char* name, const void* kernel) {
  if (!g_capturing) return;
  std::string n = name;
  if (n.size() > 1 && n.front() == '(' && n.back() == ')') n = n.substr(1, n.size() - 2);
  for (const auto& k : g_captured)
    if (k.name == n) return;
  cudaFuncAttributes a{};
  if (cudaFuncGetAttributes(&a, kernel) != cudaSuccess) return;  // the record then lacks it; the launch was checked
  g_captured.push_back({n, a.numRegs, a.sharedSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock});
}

// NVML is the driver's library (libnvidia-ml.so.1), not the toolkit's, so it is loaded at run
// time: a binary still starts (and runs --model) where there is no driver. The few entry points
// used are declared here from the NVML API reference (docs.nvidia.com/deploy/nvml-api):
// nvmlReturn_t is an int (0 = NVML_SUCCESS), nvmlDevice_t an opaque handle; NVML_CLOCK_SM = 1,
// NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0; power in milliwatts.
namespace {
using NvmlDevice = void*;
struct Nvml {
  int (*init)() = nullptr;
  int (*by_pci)(const char*, NvmlDevice*) = nullptr;
  int (*clock)(NvmlDevice, int, unsigned*) = nullptr;
  int (*max_clock)(NvmlDevice, int, unsigned*) = nullptr;
  int (*reasons)(NvmlDevice, unsigned long long*) = nullptr;
  int (*temperature)(NvmlDevice, int, unsigned*) = nullptr;
  int (*power)(NvmlDevice, unsigned*) = nullptr;
  std::string error;
};
const Nvml& nvml() {
  static const Nvml lib = [] {
    Nvml n;
    void* h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) { n.error = "not read: libnvidia-ml.so.1 (the driver's NVML) was not found"; return n; }
    auto sym = [&](auto& fn, const char* name) { fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name)); };
    sym(n.init, "nvmlInit_v2");
    sym(n.by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
    sym(n.clock, "nvmlDeviceGetClockInfo");
    sym(n.max_clock, "nvmlDeviceGetMaxClockInfo");
    sym(n.reasons, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!n.reasons) sym(n.reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");  // drivers before 535
    sym(n.temperature, "nvmlDeviceGetTemperature");
    sym(n.power, "nvmlDeviceGetPowerUsage");
    if (!n.init || !n.by_pci || !n.clock || !n.reasons) n.error = "not read: NVML lacks the entry points used";
    else if (n.init() != 0) n.error = "not read: nvmlInit failed";
    return n;
  }();
  return lib;
}
// nvmlClocksEventReasons bits (NVML API reference, "NvmlClocksEventReasons").
constexpr std::pair<unsigned long long, const char*> kThrottleReasons[] = {
    {0x1, "gpu_idle"},           {0x2, "applications_clocks_setting"}, {0x4, "sw_power_cap"},
    {0x8, "hw_slowdown"},        {0x10, "sync_boost"},                 {0x20, "sw_thermal_slowdown"},
    {0x40, "hw_thermal_slowdown"}, {0x80, "hw_power_brake_slowdown"},  {0x100, "display_clock_setting"}};
}  // namespace

ClockSample read_clocks() {
  ClockSample c;
  const Nvml& n = nvml();
  if (!n.error.empty()) { c.source = n.error; return c; }
  int device = 0;
  char bus_id[32] = {};
  NvmlDevice handle = nullptr;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != cudaSuccess ||
      n.by_pci(bus_id, &handle) != 0) {
    c.source = "not read: NVML does not know the device's PCI bus id";
    return c;
  }
  unsigned v = 0;
  if (n.clock(handle, 1, &v) == 0) c.sm_MHz = v;
  if (n.max_clock && n.max_clock(handle, 1, &v) == 0) c.sm_max_MHz = v;
  if (n.clock(handle, 2, &v) == 0) c.mem_MHz = v;
  if (n.temperature && n.temperature(handle, 0, &v) == 0) c.temperature_C = v;
  if (n.power && n.power(handle, &v) == 0) c.power_W = v / 1e3;
  if (n.reasons(handle, &c.throttle_bits) == 0)
    for (const auto& [bit, name] : kThrottleReasons)
      if (c.throttle_bits & bit) c.throttle_reasons.push_back(name);
  c.available = true;
  c.source = "NVML";
  return c;
}

ProfilerRange::ProfilerRange(const char* name) { nvtxRangePushA(name); }
ProfilerRange::~ProfilerRange() { nvtxRangePop(); }

}  // namespace tutor::gpu
