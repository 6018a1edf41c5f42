#pragma once
// The GPU runtime layer, vendor-neutral. Host code (lab drivers, the ladder runner) uses
// only this header; it is implemented once for CUDA (common/cuda/runtime.cu) and once for
// HIP (common/hip/runtime.hip), and a lab links exactly one of the two.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tutor::gpu {

/// A runtime call failed. what() names the call, the runtime's message and file:line.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// No usable GPU: no device, no driver, or a runtime built for another vendor.
/// Labs turn this into exit code 3 with the message, which names what was looked for.
class NoDevice : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Properties of the device that matter for performance, read from the runtime.
struct DeviceInfo {
  std::string vendor;          ///< "NVIDIA" or "AMD"
  std::string name;            ///< marketing name as the runtime reports it
  std::string arch;            ///< "sm_90" (compute capability) or "gfx942" (gcnArchName)
  int ordinal = 0;             ///< device index used
  int sm_count = 0;            ///< streaming multiprocessors (NVIDIA) / compute units (AMD)
  int warp_size = 0;           ///< lanes in lockstep: 32 (warp) or 64 (wavefront)
  int max_threads_per_block = 0;
  int regs_per_sm = 0;         ///< 32-bit registers per SM / CU
  std::size_t smem_per_block_bytes = 0;      ///< default static limit per block
  std::size_t smem_per_block_optin_bytes = 0;///< opt-in dynamic limit per block
  std::size_t smem_per_sm_bytes = 0;
  std::size_t l2_bytes = 0;
  std::size_t global_mem_bytes = 0;
  double sm_clock_MHz = 0;     ///< peak SM clock reported by the runtime (0 if unknown)
  double mem_clock_MHz = 0;    ///< peak memory clock (0 if unknown)
  int mem_bus_bits = 0;        ///< memory bus width (0 if unknown)
  std::string runtime_version; ///< "CUDA 13.0" / "HIP 5.2"
};

/// The clocks of the open device at one moment, from the vendor's management library (NVML on
/// NVIDIA, loaded at run time so a machine without a driver still runs --model). Every record
/// carries one at the start and one at the end of the run: a step measured while the GPU was
/// power- or thermally-limited says so.
struct ClockSample {
  bool available = false;
  std::string source;          ///< "NVML", or why nothing was read
  double sm_MHz = 0;           ///< current SM clock
  double sm_max_MHz = 0;       ///< the SM clock's maximum
  double mem_MHz = 0;          ///< current memory clock
  double temperature_C = 0;
  double power_W = 0;
  unsigned long long throttle_bits = 0;        ///< NVML clocks event reasons, as a bit mask
  std::vector<std::string> throttle_reasons;   ///< their names ("sw_power_cap", "hw_slowdown", ...)
};

/// What the compiler gave one kernel (cudaFuncGetAttributes / hipFuncGetAttributes): the
/// resources that decide how many of its blocks fit on an SM.
struct KernelInfo {
  std::string name;                 ///< as the launcher named it ("sgemm_vectorized<true>")
  int registers = 0;                ///< 32-bit registers per thread
  std::size_t static_shared_bytes = 0;  ///< shared memory (LDS) declared in the kernel, per block
  std::size_t local_bytes = 0;      ///< local memory per thread (spills, arrays the compiler could not keep in registers)
  int max_threads_per_block = 0;    ///< the most threads a block of it may have
};

/// Between begin_kernel_capture() and end_kernel_capture(), every launch checked with
/// TUTOR_GPU_CHECK_LAUNCH is noted once with its KernelInfo: the ladder runner records what each
/// step launched (a step may be several kernels). Not thread-safe; one capture at a time.
void begin_kernel_capture();
std::vector<KernelInfo> end_kernel_capture();

namespace detail {
/// Called by TUTOR_GPU_CHECK_LAUNCH after a launch: notes `kernel` while a capture is on.
void note_launch(const char* name, const void* kernel);
}  // namespace detail

/// Reads the clocks of the device open_device selected; never throws (available = false and
/// `source` says why when the library or the device cannot be read).
ClockSample read_clocks();

/// Selects device `ordinal` and returns its properties.
/// Throws NoDevice when there is none (message names the runtime and what it said).
DeviceInfo open_device(int ordinal = 0);

/// Owning device allocation (RAII; move-only). Contents are uninitialised.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  std::size_t bytes() const { return bytes_; }
  void* get() const { return ptr_; }
  template <class T> T* as() const { return static_cast<T*>(ptr_); }

  void upload(const void* host, std::size_t bytes);   ///< host -> device, synchronous
  void download(void* host, std::size_t bytes) const; ///< device -> host, synchronous
  void copy_from(const DeviceBuffer& src);            ///< device -> device, all of `src` (sizes must match)
  void fill_bytes(std::uint8_t value);                ///< memset of the whole buffer
  void fill_u32(std::uint32_t bits);                  ///< every 32-bit word set to `bits`

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// A device event on the default stream (RAII). Time between two events with elapsed_ms.
class Event {
 public:
  Event();
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record();
  void synchronize();
  /// Milliseconds from `start` to this event; both must have completed.
  float elapsed_ms_since(const Event& start) const;
 private:
  void* handle_ = nullptr;
};

/// Waits for all work on the device.
void synchronize();

/// Throws Error if the last launch failed (checked after every launch by the launchers'
/// TUTOR_GPU_CHECK_LAUNCH, and again here by the runner after synchronising).
void check_last_error(const char* where);

/// Evicts the L2 cache by writing a scratch buffer of twice the L2 size (allocated once).
void flush_l2();

/// Device-to-device copy bandwidth (cudaMemcpy / hipMemcpy) over a buffer of `bytes`,
/// counting bytes read plus bytes written (2 * bytes per copy), in GB/s (1e9 B/s).
/// Median of `reps` timed copies after 3 warm-ups. This is the memory ceiling labs
/// report their fraction of: it is measured on the same device, in the same run.
double measure_copy_GBps(std::size_t bytes, int reps = 20);

/// Peak fp32 fused multiply-add rate in TFLOP/s (2 FLOPs per FMA), from a kernel of
/// independent FMA chains that fills every SM; median of `reps` launches.
double measure_fma_TFLOPs(int reps = 10);

/// Names a region for the profilers (an NVTX range on CUDA, a roctx range on HIP where
/// roctracer is available at build time, else nothing). RAII: the range ends at scope exit.
class ProfilerRange {
 public:
  explicit ProfilerRange(const char* name);
  ~ProfilerRange();
  ProfilerRange(const ProfilerRange&) = delete;
  ProfilerRange& operator=(const ProfilerRange&) = delete;
};

}  // namespace tutor::gpu
