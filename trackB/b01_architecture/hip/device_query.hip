// B01 device query, AMD (HIP). CUDA twin: ../cuda/device_query.cu (same functions, same
// order); lines that differ say why.
//
// Runtime queries only, no kernels. hipGetDeviceProperties for what hipDeviceProp_t holds;
// hipDeviceGetAttribute for the clocks and for the limits ROCm 5.2's hipDeviceProp_t lacks
// (maxBlocksPerMultiProcessor, regsPerMultiprocessor, sharedMemPerBlockOptin,
// persistingL2CacheMaxSize, asyncEngineCount, unifiedAddressing): the attributes exist in
// its enum, and an attribute the runtime does not implement is printed "not reported";
// hipDeviceCanAccessPeer for the peer matrix. No link state: see link_properties.
#include <optional>
#include <string>
#include <vector>

#include "device_query.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b01 {
namespace {

// ---- runtime helpers ---------------------------------------------------------------------

/// An attribute the runtime may not implement: empty (printed "not reported by ...") rather
/// than an error, so one missing attribute does not hide the others. ROCm 5.2 answers
/// hipErrorInvalidValue for attributes it declares but does not implement.
std::optional<double> attribute(hipDeviceAttribute_t attr, int ordinal) {
  int value = 0;
  if (hipDeviceGetAttribute(&value, attr, ordinal) != hipSuccess) {
    (void)hipGetLastError();  // clear it, so the next checked call does not report it
    return std::nullopt;
  }
  return value;
}

std::string runtime_version() {
  int version = 0;
  TUTOR_GPU_CHECK(hipRuntimeGetVersion(&version));  // HIP_VERSION: major x 1e7 + minor x 1e5 + patch
  return "HIP " + std::to_string(version / 10000000) + "." + std::to_string(version / 100000 % 100);
}

std::string compute_mode_name(int mode) {
  switch (mode) {
    case hipComputeModeDefault: return "default";
    case hipComputeModeExclusive: return "exclusive thread";
    case hipComputeModeProhibited: return "prohibited";
    case hipComputeModeExclusiveProcess: return "exclusive process";
    default: return "mode " + std::to_string(mode);
  }
}

// ---- PCIe and Infinity Fabric state ---------------------------------------------------------
// The AMD counterpart of NVML is ROCm SMI (librocm_smi64: rsmi_dev_pci_bandwidth_get,
// rsmi_topo_get_link_type). It is not used in this build: Debian's ROCm 5.2 packages lack
// the rocm_smi development headers. `rocm-smi --showtopo` prints the same on an AMD machine.

const char* const kLinkMeaning =
    "PCIe and Infinity Fabric state would come from ROCm SMI; rocm-smi --showtopo prints them";

/// The host link and the GPU-to-GPU links of the device at `pci_bus_id`: one line saying
/// why they are not queried here (the CUDA twin asks NVML).
std::vector<Property> link_properties(const std::string& pci_bus_id) {
  return {text_property("rocm_smi", "link state (ROCm SMI)",
                        "not queried for " + pci_bus_id + ": ROCm SMI is not used in this build (Debian's ROCm "
                        "5.2 packages lack the rocm_smi development headers)",
                        kLinkMeaning)};
}

}  // namespace

// ---- the three queries of device_query.hpp -----------------------------------------------

int device_count() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess) {
    (void)hipGetLastError();
    return 0;
  }
  return count;
}

std::vector<Property> query_device(int ordinal) {
  const int count = device_count();
  if (ordinal < 0 || ordinal >= count)
    throw gpu::NoDevice("device " + std::to_string(ordinal) + " was asked for; HIP sees " +
                        std::to_string(count) + " AMD GPU(s)");
  hipDeviceProp_t p{};
  TUTOR_GPU_CHECK(hipGetDeviceProperties(&p, ordinal));
  const std::string runtime = runtime_version();
  const std::string missing = "not reported by " + runtime;
  const auto sm_clock_kHz = attribute(hipDeviceAttributeClockRate, ordinal);
  const auto mem_clock_kHz = attribute(hipDeviceAttributeMemoryClockRate, ordinal);
  const auto bus_bits = attribute(hipDeviceAttributeMemoryBusWidth, ordinal);
  const auto kHz_to_MHz = [](std::optional<double> kHz) { return kHz ? std::optional<double>(*kHz / 1e3) : kHz; };
  char pci_bus_id[32] = {};
  TUTOR_GPU_CHECK(hipDeviceGetPCIBusId(pci_bus_id, sizeof pci_bus_id, ordinal));  // "0000:c1:00.0"

  std::vector<Property> out;
  out.push_back(text_property("name", "name", p.name,
                              "the product as the runtime names it; B01 matches it to a datasheet row"));
  out.push_back(text_property("vendor", "vendor", "AMD",
                              "decides the toolchain (hipcc), the profilers (rocprof, Omniperf) and the words: "
                              "wavefront, CU, LDS"));
  out.push_back(text_property("runtime", "runtime", runtime, "the runtime these answers come from"));
  // AMD names the ISA, not a compute capability: gcnArchName is the target plus feature flags
  // (hipDeviceProp_t's major.minor is only an approximation of CUDA's numbering).
  out.push_back(text_property("arch", "gfx arch", p.gcnArchName,
                              "the ISA target kernels are compiled for (--offload-arch); suffixes are features: "
                              "sramecc (ECC on on-chip memory), xnack (page-fault replay)"));
  out.push_back(numeric_property("sm_count", "CU count", p.multiProcessorCount, "",
                                 "compute units run workgroups (blocks) in parallel: a grid of fewer blocks than "
                                 "this leaves CUs idle"));
  // A wavefront is 64 work-items on CDNA (wave64), twice a warp: shuffles, ballots and
  // reductions written for 32 lanes are wrong or half-used here.
  out.push_back(numeric_property("warp_size", "wavefront size", p.warpSize, "threads",
                                 "work-items that issue one instruction together (64 on CDNA); divergence, "
                                 "shuffles and coalescing work in units of a wavefront"));
  out.push_back(numeric_property("max_threads_per_block", "max threads per block", p.maxThreadsPerBlock, "threads",
                                 "the largest block a launch may ask for; above it the launch fails"));
  out.push_back(numeric_property("max_threads_per_sm", "max threads per CU", p.maxThreadsPerMultiProcessor,
                                 "threads", "resident threads per CU: occupancy = resident threads / this"));
  out.push_back(optional_property("max_blocks_per_sm", "max resident blocks per CU",
                                  attribute(hipDeviceAttributeMaxBlocksPerMultiProcessor, ordinal), "blocks", missing,
                                  "small blocks hit this before the thread limit: occupancy <= this x block size"));
  // ROCm 5.2's hipDeviceProp_t has regsPerBlock only; per CU comes from the attribute if at all.
  out.push_back(optional_property("regs_per_sm", "registers per CU",
                                  attribute(hipDeviceAttributeMaxRegistersPerMultiprocessor, ordinal),
                                  "32-bit registers", missing,
                                  "shared by resident threads: registers per thread x resident threads must fit, "
                                  "or occupancy drops"));
  out.push_back(numeric_property("regs_per_block", "registers per block", p.regsPerBlock, "32-bit registers",
                                 "a block needing more than this cannot launch (too many resources requested)"));
  // LDS (local data share) is AMD's shared memory; the field is named differently in HIP.
  out.push_back(numeric_property("smem_per_sm_bytes", "LDS per CU", double(p.maxSharedMemoryPerMultiProcessor),
                                 "bytes", "on-chip scratchpad (local data share) shared by resident workgroups: "
                                          "per-block use x blocks per CU must fit"));
  out.push_back(numeric_property("smem_per_block_bytes", "LDS per block", double(p.sharedMemPerBlock), "bytes",
                                 "what a workgroup may use (64 KiB on CDNA 2/3): static __shared__ arrays are "
                                 "capped here"));
  // LDS has no opt-in tier like CUDA's: a workgroup may use all of sharedMemPerBlock without asking.
  out.push_back(optional_property("smem_per_block_optin_bytes", "LDS per block (opt-in)",
                                  attribute(hipDeviceAttributeSharedMemPerBlockOptin, ordinal), "bytes",
                                  missing + " (LDS has no opt-in tier: the per-block limit is the whole budget)",
                                  "CUDA's larger shared-memory budget after cudaFuncSetAttribute; on AMD the "
                                  "per-block LDS limit above is already the whole budget"));
  // MI300 reports the L2 of one XCD (4 MB); the 256 MB Infinity Cache behind it is not counted.
  out.push_back(numeric_property("l2_bytes", "L2 cache", p.l2CacheSize, "bytes",
                                 "the last on-chip cache before HBM (per XCD on MI300; the Infinity Cache is not "
                                 "counted): a working set that fits is served faster than HBM"));
  // CUDA's persisting-L2 window (cudaAccessPolicyWindow): HIP declares the attribute; a runtime
  // that does not implement it answers "not reported".
  out.push_back(optional_property("persisting_l2_max_bytes", "persisting L2 max",
                                  attribute(hipDeviceAttributePersistingL2CacheMaxSize, ordinal), "bytes", missing,
                                  "L2 a stream may set aside for data reused across kernels (CUDA's "
                                  "cudaAccessPolicyWindow); HIP declares the attribute, ROCm answers it only where implemented"));
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
  out.push_back(optional_property("sm_clock_MHz", "peak CU clock", kHz_to_MHz(sm_clock_kHz), "MHz", missing,
                                  "peak engine clock: peak FLOP/s = CUs x FLOP per clock per CU x this; sustained "
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
  // ROCm 5.2's hipDeviceProp_t has no asyncEngineCount or unifiedAddressing: attributes only.
  out.push_back(optional_property("async_engine_count", "async copy engines",
                                  attribute(hipDeviceAttributeAsyncEngineCount, ordinal), "", missing,
                                  "DMA (SDMA) engines: 2 or more let host->device and device->host copies overlap "
                                  "each other and kernels (pinned memory, separate streams)"));
  out.push_back(optional_property("unified_addressing", "unified addressing",
                                  attribute(hipDeviceAttributeUnifiedAddressing, ordinal), "", missing,
                                  "1: host and all GPUs share one virtual address space, so a pointer names its "
                                  "device (needed for peer access by pointer)"));
  out.push_back(flag_property("managed_memory", "managed memory", p.managedMemory != 0,
                              "hipMallocManaged works: pages migrate on first touch (with xnack+), and each fault "
                              "costs microseconds"));
  out.push_back(flag_property("cooperative_launch", "cooperative launch", p.cooperativeLaunch != 0,
                              "grid-wide synchronisation (cooperative groups) when every block is resident at "
                              "once"));
  const auto mode = attribute(hipDeviceAttributeComputeMode, ordinal);
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
      TUTOR_GPU_CHECK(hipDeviceCanAccessPeer(&can, i, j));
      m[i][j] = can ? 1 : 0;
    }
  return m;
}

}  // namespace tutor::b01
