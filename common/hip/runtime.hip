// The GPU runtime layer for HIP: implements tutor/gpu.hpp.
// CUDA twin: common/cuda/runtime.cu (same functions, same order).
// No profiler-range header: Debian's ROCm 5.2 ships no roctracer (roctx); see ProfilerRange.

#include <algorithm>
#include <memory>
#include <vector>

#include "tutor_gpu_check.hpp"

namespace tutor::gpu {

DeviceInfo open_device(int ordinal) {
  int count = 0;
  const hipError_t status = hipGetDeviceCount(&count);
  if (status != hipSuccess || count == 0)
    throw NoDevice(std::string("no AMD GPU or driver found (hipGetDeviceCount: ") +
                   (status == hipSuccess ? "0 devices" : hipGetErrorName(status)) +
                   ")");
  if (ordinal < 0 || ordinal >= count)
    throw NoDevice("device " + std::to_string(ordinal) + " was asked for; HIP sees " +
                   std::to_string(count) + " (0.." + std::to_string(count - 1) + ")");
  TUTOR_GPU_CHECK(hipSetDevice(ordinal));
  hipDeviceProp_t p{};
  TUTOR_GPU_CHECK(hipGetDeviceProperties(&p, ordinal));
  int clock_kHz = 0, mem_clock_kHz = 0, bus_bits = 0, runtime = 0;
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&clock_kHz, hipDeviceAttributeClockRate, ordinal));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&mem_clock_kHz, hipDeviceAttributeMemoryClockRate, ordinal));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&bus_bits, hipDeviceAttributeMemoryBusWidth, ordinal));
  TUTOR_GPU_CHECK(hipRuntimeGetVersion(&runtime));
  DeviceInfo d;
  d.vendor = "AMD";
  d.name = p.name;
  d.arch = p.gcnArchName;  // "gfx90a:sramecc+:xnack-": target plus feature flags
  d.ordinal = ordinal;
  d.sm_count = p.multiProcessorCount;
  d.warp_size = p.warpSize;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.regs_per_sm = p.regsPerBlock;  // HIP 5.2 reports registers per block only
  d.smem_per_block_bytes = p.sharedMemPerBlock;
  d.smem_per_block_optin_bytes = p.sharedMemPerBlock;  // LDS has no opt-in tier: 64 KiB per block
  d.smem_per_sm_bytes = p.maxSharedMemoryPerMultiProcessor;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.global_mem_bytes = p.totalGlobalMem;
  d.sm_clock_MHz = clock_kHz / 1e3;
  d.mem_clock_MHz = mem_clock_kHz / 1e3;
  d.mem_bus_bits = bus_bits;
  d.runtime_version = "HIP " + std::to_string(runtime / 10000000) + "." + std::to_string(runtime / 100000 % 100);
  return d;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes > 0) TUTOR_GPU_CHECK(hipMalloc(&ptr_, bytes));
}
DeviceBuffer::~DeviceBuffer() {
  if (ptr_) (void)hipFree(ptr_);  // no throw from a destructor; a failed free is not recoverable
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
  TUTOR_GPU_CHECK(hipMemcpy(ptr_, host, bytes, hipMemcpyHostToDevice));
}
void DeviceBuffer::download(void* host, std::size_t bytes) const {
  if (bytes > bytes_) throw Error("download of " + std::to_string(bytes) + " B from a buffer of " + std::to_string(bytes_));
  TUTOR_GPU_CHECK(hipMemcpy(host, ptr_, bytes, hipMemcpyDeviceToHost));
}
void DeviceBuffer::copy_from(const DeviceBuffer& src) {
  if (src.bytes_ != bytes_) throw Error("copy of " + std::to_string(src.bytes_) + " B into a buffer of " + std::to_string(bytes_));
  TUTOR_GPU_CHECK(hipMemcpy(ptr_, src.ptr_, bytes_, hipMemcpyDeviceToDevice));
}
void DeviceBuffer::fill_bytes(std::uint8_t value) {
  TUTOR_GPU_CHECK(hipMemset(ptr_, value, bytes_));
}

// Fills n 32-bit words with one pattern (hipMemset sets bytes only).
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
  hipEvent_t e;
  TUTOR_GPU_CHECK(hipEventCreate(&e));
  handle_ = e;
}
Event::~Event() { (void)hipEventDestroy(static_cast<hipEvent_t>(handle_)); }
void Event::record() { TUTOR_GPU_CHECK(hipEventRecord(static_cast<hipEvent_t>(handle_))); }
void Event::synchronize() { TUTOR_GPU_CHECK(hipEventSynchronize(static_cast<hipEvent_t>(handle_))); }
float Event::elapsed_ms_since(const Event& start) const {
  float ms = 0;
  TUTOR_GPU_CHECK(hipEventElapsedTime(&ms, static_cast<hipEvent_t>(start.handle_),
                                       static_cast<hipEvent_t>(handle_)));
  return ms;
}

void synchronize() { TUTOR_GPU_CHECK(hipDeviceSynchronize()); }

void check_last_error(const char* where) {
  const hipError_t status = hipGetLastError();
  if (status != hipSuccess)
    throw Error(std::string(where) + ": " + hipGetErrorName(status) + " (" + hipGetErrorString(status) + ")");
}

void flush_l2() {
  static DeviceBuffer scratch;
  if (scratch.bytes() == 0) {
    int device = 0, l2 = 0;
    TUTOR_GPU_CHECK(hipGetDevice(&device));
    TUTOR_GPU_CHECK(hipDeviceGetAttribute(&l2, hipDeviceAttributeL2CacheSize, device));
    // CDNA3 (MI300) has a 256 MB Infinity Cache behind the L2 the runtime reports, so twice
    // the L2 is not enough to evict it: write at least 512 MiB (the CUDA twin needs only 2x L2).
    scratch = DeviceBuffer(std::max<std::size_t>(2 * static_cast<std::size_t>(l2), std::size_t(512) << 20));
  }
  TUTOR_GPU_CHECK(hipMemsetAsync(scratch.get(), 0, scratch.bytes()));
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
    TUTOR_GPU_CHECK(hipMemcpyAsync(dst.get(), src.get(), bytes, hipMemcpyDeviceToDevice));
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
  TUTOR_GPU_CHECK(hipGetDevice(&device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device));
  TUTOR_GPU_CHECK(hipDeviceGetAttribute(&threads_per_sm, hipDeviceAttributeMaxThreadsPerMultiProcessor, device));
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
  hipFuncAttributes a{};
  if (hipFuncGetAttributes(&a, kernel) != hipSuccess) return;  // the record then lacks it; the launch was checked
  g_captured.push_back({n, a.numRegs, a.sharedSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock});
}

// ROCm's management library (rocm_smi) is not loaded by this build: Debian 12 does not package
// it. The record says so instead of guessing the clocks.
ClockSample read_clocks() { return {false, "not read: this build does not load ROCm SMI", 0, 0, 0, 0, 0, 0, {}}; }

// rocprof names kernels by symbol; a named range needs roctx, which this build lacks.
ProfilerRange::ProfilerRange(const char* name) { (void)name; }
ProfilerRange::~ProfilerRange() {}

}  // namespace tutor::gpu
