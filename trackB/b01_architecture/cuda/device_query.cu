// B01 device query, NVIDIA (CUDA). HIP twin: ../hip/device_query.hip (same functions, same
// order; the lines that differ say why there).
//
// Runtime queries only, no kernels. cudaGetDeviceProperties for what cudaDeviceProp still
// holds; cudaDeviceGetAttribute for the clocks (CUDA 13 removed clockRate, memoryClockRate
// and computeMode from cudaDeviceProp) and for the limits the HIP twin can only ask for by
// attribute, so both files ask the same way; cudaDeviceCanAccessPeer for the peer matrix;
// NVML for the PCIe and NVLink state, loaded with dlopen at run time, so the build never
// needs NVML and the binary runs where the driver's libnvidia-ml.so.1 is missing.
#include <dlfcn.h>

#include <optional>
#include <string>
#include <vector>

#include "device_query.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b01 {
namespace {

// ---- runtime helpers ---------------------------------------------------------------------

/// An attribute the runtime may not implement: empty (printed "not reported by ...") rather
/// than an error, so one missing attribute does not hide the others.
std::optional<double> attribute(cudaDeviceAttr attr, int ordinal) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attr, ordinal) != cudaSuccess) {
    (void)cudaGetLastError();  // clear it, so the next checked call does not report it
    return std::nullopt;
  }
  return value;
}

std::string runtime_version() {
  int version = 0;
  TUTOR_GPU_CHECK(cudaRuntimeGetVersion(&version));  // 13000 = 13.0
  return "CUDA " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string compute_mode_name(int mode) {
  switch (mode) {
    case cudaComputeModeDefault: return "default";
    case cudaComputeModeExclusive: return "exclusive thread";
    case cudaComputeModeProhibited: return "prohibited";
    case cudaComputeModeExclusiveProcess: return "exclusive process";
    default: return "mode " + std::to_string(mode);
  }
}

// ---- PCIe and NVLink state through NVML ---------------------------------------------------
// NVML ships with the driver, not the toolkit. We declare the entry points we call with the
// signatures of nvml.h (NVML API Reference, "Device Queries" and "NvLink Methods") and look
// them up with dlsym; every handle is an opaque pointer and every status an int (0 success).
struct NvmlDeviceOpaque;
using NvmlDevice = NvmlDeviceOpaque*;
using NvmlStatus = int;
constexpr NvmlStatus kNvmlSuccess = 0;
constexpr unsigned kNvmlMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS: 18 NVLink 4 links on Hopper

struct Nvml {
  NvmlStatus (*init)() = nullptr;                                        // nvmlInit_v2
  NvmlStatus (*shutdown)() = nullptr;                                    // nvmlShutdown
  const char* (*error_string)(NvmlStatus) = nullptr;                     // nvmlErrorString
  NvmlStatus (*by_pci_bus_id)(const char*, NvmlDevice*) = nullptr;       // nvmlDeviceGetHandleByPciBusId_v2
  NvmlStatus (*pcie_gen_current)(NvmlDevice, unsigned*) = nullptr;       // nvmlDeviceGetCurrPcieLinkGeneration
  NvmlStatus (*pcie_width_current)(NvmlDevice, unsigned*) = nullptr;     // nvmlDeviceGetCurrPcieLinkWidth
  NvmlStatus (*pcie_gen_max)(NvmlDevice, unsigned*) = nullptr;           // nvmlDeviceGetMaxPcieLinkGeneration
  NvmlStatus (*pcie_width_max)(NvmlDevice, unsigned*) = nullptr;         // nvmlDeviceGetMaxPcieLinkWidth
  NvmlStatus (*nvlink_state)(NvmlDevice, unsigned, int*) = nullptr;      // nvmlDeviceGetNvLinkState
  NvmlStatus (*nvlink_version)(NvmlDevice, unsigned, unsigned*) = nullptr;  // nvmlDeviceGetNvLinkVersion
};

template <class F>
bool find_symbol(void* library, const char* name, F& function) {
  void* symbol = dlsym(library, name);
  function = reinterpret_cast<F>(symbol);
  return symbol != nullptr;
}

/// nvmlNvlinkVersion_t (NVML_NVLINK_VERSION_*): 1 = 1.0, 2 = 2.0, 3 = 2.2, 4 = 3.0, 5 = 3.1,
/// 6 = 4.0 (Hopper), 7 = 5.0 (Blackwell).
std::string nvlink_version_name(unsigned code) {
  const char* names[] = {"invalid", "1.0", "2.0", "2.2", "3.0", "3.1", "4.0", "5.0"};
  return code < sizeof names / sizeof names[0] ? std::string("NVLink ") + names[code]
                                               : "NVLink (NVML version code " + std::to_string(code) + ")";
}

const char* const kLinkMeaning =
    "PCIe and NVLink state come from NVML, the driver's management library, loaded at run time";

/// The host link (PCIe generation and width, now and at most) and the GPU-to-GPU links
/// (NVLink: how many are up, which version) of the device at `pci_bus_id`.
std::vector<Property> link_properties(const std::string& pci_bus_id) {
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    return {text_property("nvml", "link state (NVML)",
                          std::string("NVML not found (dlopen libnvidia-ml.so.1: ") + (why ? why : "no reason given") + ")",
                          kLinkMeaning)};
  }
  Nvml nvml;
  const bool complete =
      find_symbol(library, "nvmlInit_v2", nvml.init) && find_symbol(library, "nvmlShutdown", nvml.shutdown) &&
      find_symbol(library, "nvmlErrorString", nvml.error_string) &&
      find_symbol(library, "nvmlDeviceGetHandleByPciBusId_v2", nvml.by_pci_bus_id) &&
      find_symbol(library, "nvmlDeviceGetCurrPcieLinkGeneration", nvml.pcie_gen_current) &&
      find_symbol(library, "nvmlDeviceGetCurrPcieLinkWidth", nvml.pcie_width_current) &&
      find_symbol(library, "nvmlDeviceGetMaxPcieLinkGeneration", nvml.pcie_gen_max) &&
      find_symbol(library, "nvmlDeviceGetMaxPcieLinkWidth", nvml.pcie_width_max) &&
      find_symbol(library, "nvmlDeviceGetNvLinkState", nvml.nvlink_state) &&
      find_symbol(library, "nvmlDeviceGetNvLinkVersion", nvml.nvlink_version);
  if (!complete)
    return {text_property("nvml", "link state (NVML)", "NVML found, but it lacks an entry point this lab needs",
                          kLinkMeaning)};
  if (const NvmlStatus status = nvml.init(); status != kNvmlSuccess)
    return {text_property("nvml", "link state (NVML)", std::string("NVML found, nvmlInit failed: ") +
                                                           nvml.error_string(status), kLinkMeaning)};
  std::vector<Property> out;
  NvmlDevice device = nullptr;
  if (const NvmlStatus status = nvml.by_pci_bus_id(pci_bus_id.c_str(), &device); status != kNvmlSuccess) {
    out.push_back(text_property("nvml", "link state (NVML)",
                                "NVML does not know PCI bus id " + pci_bus_id + ": " + nvml.error_string(status),
                                kLinkMeaning));
    (void)nvml.shutdown();
    return out;
  }
  // One query each; a value NVML cannot give (a virtual GPU, a MIG slice) is "not reported".
  const auto ask = [&](NvmlStatus (*query)(NvmlDevice, unsigned*)) -> std::optional<double> {
    unsigned value = 0;
    if (query(device, &value) != kNvmlSuccess) return std::nullopt;
    return value;
  };
  const std::string missing = "not reported by NVML";
  out.push_back(optional_property("pcie_gen_current", "PCIe generation (now)", ask(nvml.pcie_gen_current), "", missing,
                                  "the generation the link runs at now; an idle GPU may train down to save power "
                                  "and come back up under load"));
  out.push_back(optional_property("pcie_width_current", "PCIe width (now)", ask(nvml.pcie_width_current), "lanes",
                                  missing, "lanes in use now; x8 instead of x16 halves host<->device copy bandwidth"));
  out.push_back(optional_property("pcie_gen_max", "PCIe generation (max)", ask(nvml.pcie_gen_max), "", missing,
                                  "the highest generation this GPU and system support: Gen4 x16 moves ~32 GB/s, "
                                  "Gen5 x16 ~64 GB/s per direction, the ceiling of host<->device copies"));
  out.push_back(optional_property("pcie_width_max", "PCIe width (max)", ask(nvml.pcie_width_max), "lanes", missing,
                                  "the widest link this GPU and system support"));
  // NVLink: probe every link index; NVML answers "not supported" on a GPU without NVLink and
  // "invalid argument" past the last link the chip has.
  unsigned probed = 0, active = 0, version = 0;
  NvmlStatus first_status = kNvmlSuccess;
  for (unsigned link = 0; link < kNvmlMaxLinks; ++link) {
    int state = 0;
    const NvmlStatus status = nvml.nvlink_state(device, link, &state);
    if (status != kNvmlSuccess) {
      if (link == 0) first_status = status;
      break;
    }
    ++probed;
    if (state == 1) {  // NVML_FEATURE_ENABLED
      ++active;
      if (version == 0) (void)nvml.nvlink_version(device, link, &version);
    }
  }
  const char* nvlink_meaning =
      "GPU-to-GPU links that are up: each NVLink 4 link moves 25 GB/s per direction (18 links = 900 GB/s "
      "total on H100/H200); 0 means peers talk over PCIe";
  if (probed == 0)
    out.push_back(text_property("nvlink_active_links", "NVLink links up",
                                std::string("none reported (NVML: ") + nvml.error_string(first_status) + ")",
                                nvlink_meaning));
  else
    out.push_back(numeric_property("nvlink_active_links", "NVLink links up", active, "", nvlink_meaning +
                                   std::string(" (") + std::to_string(probed) + " links probed)"));
  if (active > 0)
    out.push_back(text_property("nvlink_version", "NVLink version", nvlink_version_name(version),
                                "the link generation: NVLink 3 (A100) 25 GB/s, NVLink 4 (Hopper) 25 GB/s, NVLink 5 "
                                "(Blackwell) 50 GB/s per link per direction"));
  (void)nvml.shutdown();
  return out;
}

}  // namespace

// ---- the three queries of device_query.hpp -----------------------------------------------

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

std::vector<Property> query_device(int ordinal) {
  const int count = device_count();
  if (ordinal < 0 || ordinal >= count)
    throw gpu::NoDevice("device " + std::to_string(ordinal) + " was asked for; CUDA sees " +
                        std::to_string(count) + " NVIDIA GPU(s)");
  cudaDeviceProp p{};
  TUTOR_GPU_CHECK(cudaGetDeviceProperties(&p, ordinal));
  const std::string runtime = runtime_version();
  const std::string missing = "not reported by " + runtime;
  const auto sm_clock_kHz = attribute(cudaDevAttrClockRate, ordinal);
  const auto mem_clock_kHz = attribute(cudaDevAttrMemoryClockRate, ordinal);
  const auto bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, ordinal);
  const auto kHz_to_MHz = [](std::optional<double> kHz) { return kHz ? std::optional<double>(*kHz / 1e3) : kHz; };
  char pci_bus_id[32] = {};
  TUTOR_GPU_CHECK(cudaDeviceGetPCIBusId(pci_bus_id, sizeof pci_bus_id, ordinal));  // "0000:18:00.0"

  std::vector<Property> out;
  out.push_back(text_property("name", "name", p.name,
                              "the product as the runtime names it; B01 matches it to a datasheet row"));
  out.push_back(text_property("vendor", "vendor", "NVIDIA",
                              "decides the toolchain (nvcc), the profilers (Nsight) and the words: warp, SM, "
                              "shared memory"));
  out.push_back(text_property("runtime", "runtime", runtime, "the runtime these answers come from"));
  out.push_back(text_property("arch", "compute capability",
                              std::to_string(p.major) + "." + std::to_string(p.minor) + " (sm_" +
                                  std::to_string(p.major) + std::to_string(p.minor) + ")",
                              "the instruction set kernels are compiled for (nvcc -arch); it decides which "
                              "features exist (sm_90: TMA, wgmma, FP8 tensor cores)"));
  out.push_back(numeric_property("sm_count", "SM count", p.multiProcessorCount, "",
                                 "streaming multiprocessors run blocks in parallel: a grid of fewer blocks than "
                                 "this leaves SMs idle"));
  out.push_back(numeric_property("warp_size", "warp size", p.warpSize, "threads",
                                 "threads that issue one instruction together; divergence, shuffles and "
                                 "coalescing work in units of a warp"));
  out.push_back(numeric_property("max_threads_per_block", "max threads per block", p.maxThreadsPerBlock, "threads",
                                 "the largest block a launch may ask for; above it the launch fails"));
  out.push_back(numeric_property("max_threads_per_sm", "max threads per SM", p.maxThreadsPerMultiProcessor,
                                 "threads", "resident threads per SM: occupancy = resident threads / this"));
  out.push_back(optional_property("max_blocks_per_sm", "max resident blocks per SM",
                                  attribute(cudaDevAttrMaxBlocksPerMultiprocessor, ordinal), "blocks", missing,
                                  "small blocks hit this before the thread limit: occupancy <= this x block size"));
  out.push_back(optional_property("regs_per_sm", "registers per SM",
                                  attribute(cudaDevAttrMaxRegistersPerMultiprocessor, ordinal), "32-bit registers",
                                  missing, "shared by resident threads: registers per thread x resident threads "
                                           "must fit, or occupancy drops"));
  out.push_back(numeric_property("regs_per_block", "registers per block", p.regsPerBlock, "32-bit registers",
                                 "a block needing more than this cannot launch (too many resources requested)"));
  out.push_back(numeric_property("smem_per_sm_bytes", "shared memory per SM", double(p.sharedMemPerMultiprocessor),
                                 "bytes", "on-chip scratchpad shared by resident blocks: per-block use x blocks "
                                          "per SM must fit (carved from the L1/shared array)"));
  out.push_back(numeric_property("smem_per_block_bytes", "shared memory per block", double(p.sharedMemPerBlock),
                                 "bytes", "what a block may use without asking (48 KiB): static __shared__ "
                                          "arrays are capped here"));
  out.push_back(optional_property("smem_per_block_optin_bytes", "shared memory per block (opt-in)",
                                  attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal), "bytes", missing,
                                  "dynamic shared memory a block may use after cudaFuncSetAttribute("
                                  "MaxDynamicSharedMemorySize): the budget for large GEMM/attention tiles"));
  out.push_back(numeric_property("l2_bytes", "L2 cache", p.l2CacheSize, "bytes",
                                 "the last on-chip cache before HBM: a working set that fits is served several "
                                 "times faster than HBM; flush it between timed runs"));
  out.push_back(optional_property("persisting_l2_max_bytes", "persisting L2 max",
                                  attribute(cudaDevAttrMaxPersistingL2CacheSize, ordinal), "bytes", missing,
                                  "L2 a stream may set aside for data reused across kernels "
                                  "(cudaAccessPolicyWindow): keeps a hot tensor out of HBM"));
  out.push_back(numeric_property("global_mem_bytes", "global memory", double(p.totalGlobalMem), "bytes",
                                 "HBM capacity the runtime can allocate: weights + KV cache + activations must "
                                 "fit"));
  out.push_back(optional_property("mem_bus_bits", "memory bus width", bus_bits, "bits", missing,
                                  "bits moved per memory transfer across all HBM stacks (1024 per stack)"));
  out.push_back(optional_property("mem_clock_MHz", "peak memory clock", kHz_to_MHz(mem_clock_kHz), "MHz", missing,
                                  "the memory clock as the runtime reports it; HBM moves data on both edges"));
  out.push_back(optional_property(
      "derived_bandwidth_GBps", "theoretical bandwidth",
      mem_clock_kHz && bus_bits ? std::optional<double>(derived_bandwidth_GBps(*mem_clock_kHz, *bus_bits))
                                : std::nullopt,
      "GB/s", missing,
      "derived from runtime-reported clock and bus width: 2 x clock x bus/8; HBM3/HBM3e data rates can make "
      "it differ from the datasheet, so compare with both below"));
  out.push_back(optional_property("sm_clock_MHz", "peak SM clock", kHz_to_MHz(sm_clock_kHz), "MHz", missing,
                                  "boost clock: peak FLOP/s = SMs x FLOP per clock per SM x this; sustained "
                                  "clocks under load (power, heat) can be lower"));
  out.push_back(flag_property("ecc", "ECC", p.ECCEnabled != 0,
                              "memory errors corrected in hardware; HBM keeps ECC in side-band bits, so it costs no "
                              "capacity or bandwidth (on GDDR it costs both)"));
  out.push_back(text_property("pci_bus_id", "PCI bus id", pci_bus_id,
                              "domain:bus:device.function: which socket and NUMA node the GPU hangs off; keep "
                              "host threads and pinned buffers near it"));
  out.push_back(numeric_property("pci_domain_id", "PCI domain id", p.pciDomainID, "", "the PCI domain (segment)"));
  out.push_back(numeric_property("pci_bus_number", "PCI bus number", p.pciBusID, "", "the PCI bus the GPU is on"));
  out.push_back(numeric_property("pci_device_number", "PCI device number", p.pciDeviceID, "",
                                 "the device (slot) number on that bus"));
  out.push_back(flag_property("concurrent_kernels", "concurrent kernels", p.concurrentKernels != 0,
                              "kernels from different streams can run at once: small kernels can overlap"));
  out.push_back(optional_property("async_engine_count", "async copy engines",
                                  attribute(cudaDevAttrAsyncEngineCount, ordinal), "", missing,
                                  "DMA engines: 2 or more let host->device and device->host copies overlap each "
                                  "other and kernels (pinned memory, separate streams)"));
  out.push_back(optional_property("unified_addressing", "unified addressing",
                                  attribute(cudaDevAttrUnifiedAddressing, ordinal), "", missing,
                                  "1: host and all GPUs share one virtual address space, so a pointer names its "
                                  "device (needed for peer access by pointer)"));
  out.push_back(flag_property("managed_memory", "managed memory", p.managedMemory != 0,
                              "cudaMallocManaged works: pages migrate on first touch, and each fault costs "
                              "microseconds"));
  out.push_back(flag_property("cooperative_launch", "cooperative launch", p.cooperativeLaunch != 0,
                              "grid-wide synchronisation (cooperative groups) when every block is resident at "
                              "once"));
  const auto mode = attribute(cudaDevAttrComputeMode, ordinal);
  out.push_back(text_property("compute_mode", "compute mode", mode ? compute_mode_name(int(*mode)) : missing,
                              "default: any process may share the GPU while you measure; exclusive process: only one; "
                              "prohibited: none"));
  for (auto& link : link_properties(pci_bus_id)) out.push_back(std::move(link));
  return out;
}

std::vector<std::vector<int>> peer_access_matrix() {
  const int n = device_count();
  std::vector<std::vector<int>> m(n, std::vector<int>(n, -1));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      int can = 0;
      TUTOR_GPU_CHECK(cudaDeviceCanAccessPeer(&can, i, j));
      m[i][j] = can ? 1 : 0;
    }
  return m;
}

}  // namespace tutor::b01
