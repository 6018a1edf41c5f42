#pragma once
// B07 multi-GPU lab (b07_collectives): the interface between the host driver (collectives.cpp)
// and the vendor layer (cuda/collectives.cu over NCCL, hip/collectives.hip over RCCL).
//
// One process drives every GPU it uses: one communicator per GPU from ncclCommInitAll, and
// each collective issued to all of them inside one ncclGroupStart/ncclGroupEnd. The data is
// fp32, the reduction a sum, every call out-of-place, broadcast's root rank 0.
//
// Inputs are small integers in [-8, 8], so every fp32 sum of up to 2^20 ranks is exact in
// any order: NCCL's ring and tree add in different orders, and an exact check needs no
// tolerance. The expected value of every output element is a function of (seed, rank,
// index) below, evaluated on the device by the check kernel and on the host by the tests.
//
// Kernel files include this header, so it stays C++17 (GPU sources compile as C++17).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "collective_model.hpp"

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
#define TUTOR_B07_HOST_DEVICE __host__ __device__
#else
#define TUTOR_B07_HOST_DEVICE
#endif

namespace tutor::b07 {

/// The root of broadcast (nccl-tests' default, -r 0).
inline constexpr int kBroadcastRoot = 0;

/// The poison written to every receive buffer before a checked launch: tutor::kPoisonBitsF32
/// (a quiet NaN, tutor/verify.hpp; that header is C++20 and stays out of kernel files, so the
/// driver checks the two are equal with a static_assert).
inline constexpr std::uint32_t kOutputPoisonBits = 0x7fffedcbu;

/// The element counts of one collective call on `ranks` ranks, following nccl-tests'
/// size convention (src/*.cu getCollByteCount; collective_model.hpp, predict):
///   allreduce, broadcast: count = S / 4; every rank sends and receives `count` floats;
///   allgather:     count = sendcount = (S / 4) / n; send count, receive n x count;
///   reducescatter: count = recvcount = (S / 4) / n; send n x count, receive count;
///   alltoall:      count = per-peer block = (S / 4) / n; send and receive n x count.
/// `bytes` is the S the line reports: n x count x 4 where the count is per peer, so it is the
/// requested size rounded down to a multiple of 4n bytes. count == 0 means the requested size
/// has no whole element per rank (8 B over 4 ranks): the size is skipped, as nccl-tests
/// reports it as 0 B.
struct CollectiveShape {
  Collective op = Collective::allreduce;
  int ranks = 1;
  std::uint64_t count = 0;          ///< the count argument of the NCCL call, elements
  std::uint64_t send_elements = 0;  ///< per rank
  std::uint64_t recv_elements = 0;  ///< per rank
  double bytes = 0;                 ///< S, nccl-tests' "size" column, bytes
};

/// The shape of `op` over `ranks` ranks for a requested size of `requested_bytes` (fp32).
/// Throws std::invalid_argument ("--gpus: ...") if ranks < 1.
inline CollectiveShape shape_for(Collective op, int ranks, std::uint64_t requested_bytes) {
  if (ranks < 1) throw std::invalid_argument("--gpus: must be >= 1, got " + std::to_string(ranks));
  const std::uint64_t n = static_cast<std::uint64_t>(ranks);
  const std::uint64_t elements = requested_bytes / sizeof(float);
  CollectiveShape s;
  s.op = op;
  s.ranks = ranks;
  switch (op) {
    case Collective::allreduce:
    case Collective::broadcast:
      s.count = elements;
      s.send_elements = s.recv_elements = elements;
      break;
    case Collective::allgather:
      s.count = elements / n;
      s.send_elements = s.count;
      s.recv_elements = s.count * n;
      break;
    case Collective::reducescatter:
      s.count = elements / n;
      s.send_elements = s.count * n;
      s.recv_elements = s.count;
      break;
    case Collective::alltoall:
      s.count = elements / n;
      s.send_elements = s.recv_elements = s.count * n;
      break;
  }
  s.bytes = static_cast<double>(s.send_elements > s.recv_elements ? s.send_elements : s.recv_elements) * sizeof(float);
  if (s.count == 0) s.send_elements = s.recv_elements = 0, s.bytes = 0;
  return s;
}

/// SplitMix64's output function (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number
/// generators", OOPSLA; the finaliser of Vigna's splitmix64.c): a bijective 64-bit mix whose
/// outputs pass BigCrush for consecutive inputs, cheap enough to evaluate per element on a GPU.
TUTOR_B07_HOST_DEVICE inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Element `index` of rank `rank`'s send buffer: an integer in [-8, 8] as a float, fresh for
/// every seed. |sum| <= 8n stays below 2^24 for n <= 2^20 ranks, so fp32 adds it exactly.
TUTOR_B07_HOST_DEVICE inline float input_value(std::uint64_t seed, int rank, std::uint64_t index) {
  const std::uint64_t h = splitmix64(seed ^ splitmix64((index << 20) ^ static_cast<std::uint64_t>(rank)));
  return static_cast<float>(static_cast<int>(h % 17u) - 8);
}

/// What element `index` of rank `rank`'s receive buffer must hold after `op` over `ranks`
/// ranks whose send buffers hold input_value(seed, r, i); `count` is CollectiveShape::count.
/// The placements follow the NCCL API documentation (nccl.h comments; NCCL User Guide,
/// "Collective Operations"):
///   allreduce:     out_r[i] = sum_j in_j[i]
///   allgather:     out_r[j count + i] = in_j[i]                 (rank j's block at offset j count)
///   reducescatter: out_r[i] = sum_j in_j[r count + i]           (rank r keeps block r of the sum)
///   alltoall:      out_r[j count + i] = in_j[r count + i]       (block r of rank j, placed at j)
///   broadcast:     out_r[i] = in_root[i]
TUTOR_B07_HOST_DEVICE inline float expected_output(Collective op, std::uint64_t seed, int ranks, int rank,
                                                   std::uint64_t index, std::uint64_t count) {
  float sum = 0.0f;
  switch (op) {
    case Collective::allreduce:
      for (int j = 0; j < ranks; ++j) sum += input_value(seed, j, index);
      return sum;
    case Collective::allgather: return input_value(seed, static_cast<int>(index / count), index % count);
    case Collective::reducescatter:
      for (int j = 0; j < ranks; ++j) sum += input_value(seed, j, static_cast<std::uint64_t>(rank) * count + index);
      return sum;
    case Collective::alltoall:
      return input_value(seed, static_cast<int>(index / count),
                         static_cast<std::uint64_t>(rank) * count + index % count);
    case Collective::broadcast: return input_value(seed, kBroadcastRoot, index);
  }
  return sum;
}

/// What the check of every rank's receive buffer found. An element is wrong unless it equals
/// expected_output exactly (a NaN left by the poison fill is never equal).
struct CollectiveCheck {
  std::uint64_t wrong_elements = 0;  ///< summed over ranks
  int first_rank = -1;               ///< lowest rank with a wrong element, -1 if none
  std::uint64_t first_index = 0;     ///< its first wrong element
  float got = 0, expected = 0;       ///< the values there
};

/// One communicator per GPU, driven by this process (implemented once per vendor library).
/// Every call checks every NCCL / RCCL and runtime call and throws tutor::gpu::Error naming
/// the call, the library's message (ncclGetErrorString) and file:line.
class Clique {
 public:
  virtual ~Clique() = default;
  /// The number of ranks n (GPUs 0..n-1).
  virtual int ranks() const = 0;
  /// "NCCL 2.28.9" (the library loaded at run time) and the version the lab was built against.
  virtual std::string library() const = 0;
  /// The least free device memory over the ranks' GPUs, bytes (cudaMemGetInfo).
  virtual std::size_t min_free_bytes() const = 0;
  /// Allocates, on every rank, a send and a receive buffer of `bytes` each (and frees earlier ones).
  virtual void allocate(std::size_t bytes) = 0;
  /// Fills every rank's send buffer with input_value(seed, rank, i), i < shape.send_elements.
  virtual void fill_inputs(const CollectiveShape& shape, std::uint64_t seed) = 0;
  /// Fills every rank's receive buffer with the poison NaN (tutor::kPoisonBitsF32).
  virtual void poison_outputs(const CollectiveShape& shape) = 0;
  /// Issues `iterations` collectives back to back, each as one group over all ranks with a
  /// start and a stop event on every rank's stream, then waits for them. Returns, per
  /// iteration, the largest elapsed time over the ranks in microseconds: a collective is done
  /// when its last rank is done.
  virtual std::vector<double> time_us(const CollectiveShape& shape, int iterations) = 0;
  /// Compares every rank's receive buffer with expected_output on the device.
  virtual CollectiveCheck check(const CollectiveShape& shape, std::uint64_t seed) = 0;
};

/// The GPUs this process can use (cudaGetDeviceCount / hipGetDeviceCount).
/// Throws tutor::gpu::NoDevice when there is none.
int visible_gpu_count();

/// Opens a clique over GPUs 0..ranks-1 (ncclCommInitAll), with one non-blocking stream per
/// rank. Throws tutor::gpu::NoDevice if fewer GPUs are visible, tutor::gpu::Error on a failure.
std::unique_ptr<Clique> open_clique(int ranks);

/// "NCCL" or "RCCL": the library this binary was built for.
const char* collective_library_name();

}  // namespace tutor::b07
