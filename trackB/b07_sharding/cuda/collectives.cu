// B07 multi-GPU lab, NVIDIA (NCCL). HIP twin: ../hip/collectives.hip (RCCL), same functions in
// the same order. Implements the Clique of ../collectives.hpp: one process, one communicator
// per GPU (ncclCommInitAll), every collective issued to all ranks in one ncclGroupStart/End.
//
// NVLink SHARP (NVLS) stays off: the driver sets NCCL_NVLS_ENABLE=0 before the first NCCL call
// (the machines are shared, and multicast objects are a shared resource); nothing here
// creates a multicast object.
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <limits>
#include <thread>

#include "collectives.hpp"
#include "tutor_gpu_check.hpp"

namespace tutor::b07 {

namespace {

[[noreturn]] void throw_nccl(const char* call, ncclResult_t result, const char* file, int line) {
  std::string detail = ncclGetErrorString(result);
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 13, 0)
  const char* last = ncclGetLastError(nullptr);  // the library's own sentence, when it has one
  if (last && *last) detail += std::string(": ") + last;
#endif
  throw gpu::Error(std::string(call) + " failed: " + detail + " at " + file + ":" + std::to_string(line));
}

#define TUTOR_NCCL_CHECK(call)                                                                        \
  do {                                                                                                \
    const ncclResult_t tutor_nccl_status_ = (call);                                                   \
    if (tutor_nccl_status_ != ncclSuccess) throw_nccl(#call, tutor_nccl_status_, __FILE__, __LINE__); \
  } while (0)

constexpr int kThreads = 256;                // a multiple of 64: a whole number of warps and of wavefronts
constexpr unsigned kMaxBlocks = 8192;        // grid-stride beyond this: 2M threads cover any SM count
constexpr double kWaitTimeoutSeconds = 120;  // far beyond a 4 GiB collective; a hang ends with a message

unsigned blocks_for(std::uint64_t n) {
  const std::uint64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(blocks, kMaxBlocks)));
}

/// What the check kernel counts on one rank: wrong elements and the first wrong index.
struct CheckCounters {
  unsigned long long wrong;
  unsigned long long first;
};

}  // namespace

// ---- Inputs: fresh small integers per (seed, rank, index) ----------------------------------
__global__ void fill_inputs_kernel(float* send, std::uint64_t n, std::uint64_t seed, int rank) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    send[i] = input_value(seed, rank, i);
}

// ---- Outputs: the poison NaN, so an element the collective never wrote fails the check -----
__global__ void poison_kernel(std::uint32_t* out, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = kOutputPoisonBits;
}

// ---- Check: every element against its exact expected value, on the device -----------------
// Done where the data is: a 4 GiB receive buffer per rank would take seconds to copy to the
// host; recomputing the expected value costs a few hash evaluations per element.
__global__ void check_kernel(const float* recv, std::uint64_t n, Collective op, std::uint64_t seed, int ranks, int rank,
                             std::uint64_t count, CheckCounters* counters) {
  unsigned long long wrong = 0, first = ~0ull;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (!(recv[i] == expected_output(op, seed, ranks, rank, i, count))) {  // NaN != anything
      ++wrong;
      if (i < first) first = i;  // ascending i: the first hit is the thread's smallest
    }
  }
  if (wrong > 0) {
    atomicAdd(&counters->wrong, wrong);
    atomicMin(&counters->first, first);
  }
}

namespace {

class NcclClique final : public Clique {
 public:
  explicit NcclClique(int ranks)
      : comms_(std::size_t(ranks)),
        streams_(std::size_t(ranks)),
        send_(std::size_t(ranks)),
        recv_(std::size_t(ranks)),
        counters_(std::size_t(ranks)),
        start_(std::size_t(ranks)),
        stop_(std::size_t(ranks)) {
    for (int r = 0; r < ranks; ++r) {
      TUTOR_GPU_CHECK(cudaSetDevice(r));
      TUTOR_GPU_CHECK(cudaStreamCreateWithFlags(&streams_[r], cudaStreamNonBlocking));
      TUTOR_GPU_CHECK(cudaMalloc(&counters_[r], sizeof(CheckCounters)));
    }
    // Pinned, so the counters' copies stay asynchronous and every rank's check runs at once.
    TUTOR_GPU_CHECK(cudaMallocHost(&host_counters_, std::size_t(ranks) * sizeof(CheckCounters)));
    // devlist = nullptr: ranks 0..n-1 are GPUs 0..n-1, in that order.
    TUTOR_NCCL_CHECK(ncclCommInitAll(comms_.data(), ranks, nullptr));
    comms_open_ = true;
  }

  ~NcclClique() override {
    // During an exception a communicator may have kernels stuck waiting for a peer:
    // ncclCommAbort returns without waiting for them, ncclCommDestroy would not.
    const bool unwinding = std::uncaught_exceptions() > 0 || !healthy_;
    for (std::size_t r = 0; r < comms_.size(); ++r) {
      (void)cudaSetDevice(int(r));
      if (comms_open_ && comms_[r]) (void)(unwinding ? ncclCommAbort(comms_[r]) : ncclCommDestroy(comms_[r]));
      for (cudaEvent_t e : start_[r]) (void)cudaEventDestroy(e);
      for (cudaEvent_t e : stop_[r]) (void)cudaEventDestroy(e);
      if (send_[r]) (void)cudaFree(send_[r]);
      if (recv_[r]) (void)cudaFree(recv_[r]);
      if (counters_[r]) (void)cudaFree(counters_[r]);
      if (streams_[r]) (void)cudaStreamDestroy(streams_[r]);
    }
    if (host_counters_) (void)cudaFreeHost(host_counters_);
  }

  int ranks() const override { return int(comms_.size()); }

  std::string library() const override {
    int v = 0;
    TUTOR_NCCL_CHECK(ncclGetVersion(&v));
    return "NCCL " + version_text(v) + " (built against " + version_text(NCCL_VERSION_CODE) + ")";
  }

  std::size_t min_free_bytes() const override {
    std::size_t least = std::numeric_limits<std::size_t>::max();
    for (int r = 0; r < ranks(); ++r) {
      std::size_t free_bytes = 0, total_bytes = 0;
      TUTOR_GPU_CHECK(cudaSetDevice(r));
      TUTOR_GPU_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
      least = std::min(least, free_bytes);
    }
    return least;
  }

  void allocate(std::size_t bytes) override {
    for (int r = 0; r < ranks(); ++r) {
      TUTOR_GPU_CHECK(cudaSetDevice(r));
      if (send_[r]) TUTOR_GPU_CHECK(cudaFree(send_[r]));
      if (recv_[r]) TUTOR_GPU_CHECK(cudaFree(recv_[r]));
      send_[r] = recv_[r] = nullptr;
      TUTOR_GPU_CHECK(cudaMalloc(&send_[r], bytes));
      TUTOR_GPU_CHECK(cudaMalloc(&recv_[r], bytes));
    }
  }

  void fill_inputs(const CollectiveShape& shape, std::uint64_t seed) override {
    for (int r = 0; r < ranks(); ++r) {
      TUTOR_GPU_CHECK(cudaSetDevice(r));
      fill_inputs_kernel<<<blocks_for(shape.send_elements), kThreads, 0, streams_[r]>>>(send_[r], shape.send_elements,
                                                                                        seed, r);
      TUTOR_GPU_CHECK_LAUNCH(fill_inputs_kernel);
    }
    wait_all("filling the inputs");
  }

  void poison_outputs(const CollectiveShape& shape) override {
    for (int r = 0; r < ranks(); ++r) {
      TUTOR_GPU_CHECK(cudaSetDevice(r));
      poison_kernel<<<blocks_for(shape.recv_elements), kThreads, 0, streams_[r]>>>(
          reinterpret_cast<std::uint32_t*>(recv_[r]), shape.recv_elements);
      TUTOR_GPU_CHECK_LAUNCH(poison_kernel);
    }
    wait_all("poisoning the outputs");
  }

  std::vector<double> time_us(const CollectiveShape& shape, int iterations) override {
    ensure_events(iterations);
    for (int k = 0; k < iterations; ++k) {
      for (int r = 0; r < ranks(); ++r) {
        TUTOR_GPU_CHECK(cudaSetDevice(r));
        TUTOR_GPU_CHECK(cudaEventRecord(start_[r][k], streams_[r]));
      }
      // One group: NCCL launches every rank's kernel at ncclGroupEnd, so no rank waits in a
      // call for a peer that this single thread has not reached yet (which would deadlock).
      TUTOR_NCCL_CHECK(ncclGroupStart());
      for (int r = 0; r < ranks(); ++r) enqueue(shape, r);
      TUTOR_NCCL_CHECK(ncclGroupEnd());
      for (int r = 0; r < ranks(); ++r) {
        TUTOR_GPU_CHECK(cudaSetDevice(r));
        TUTOR_GPU_CHECK(cudaEventRecord(stop_[r][k], streams_[r]));
      }
    }
    wait_all(name(shape.op).data());
    std::vector<double> slowest(std::size_t(iterations), 0.0);
    for (int k = 0; k < iterations; ++k)
      for (int r = 0; r < ranks(); ++r) {
        float ms = 0;
        TUTOR_GPU_CHECK(cudaEventElapsedTime(&ms, start_[r][k], stop_[r][k]));
        slowest[k] = std::max(slowest[k], double(ms) * 1e3);
      }
    return slowest;
  }

  CollectiveCheck check(const CollectiveShape& shape, std::uint64_t seed) override {
    for (int r = 0; r < ranks(); ++r) {
      host_counters_[r] = CheckCounters{0, ~0ull};
      TUTOR_GPU_CHECK(cudaSetDevice(r));
      TUTOR_GPU_CHECK(cudaMemcpyAsync(counters_[r], &host_counters_[r], sizeof(CheckCounters), cudaMemcpyHostToDevice,
                                      streams_[r]));
      check_kernel<<<blocks_for(shape.recv_elements), kThreads, 0, streams_[r]>>>(
          recv_[r], shape.recv_elements, shape.op, seed, ranks(), r, shape.count, counters_[r]);
      TUTOR_GPU_CHECK_LAUNCH(check_kernel);
      TUTOR_GPU_CHECK(cudaMemcpyAsync(&host_counters_[r], counters_[r], sizeof(CheckCounters), cudaMemcpyDeviceToHost,
                                      streams_[r]));
    }
    wait_all("checking the outputs");
    CollectiveCheck result;
    for (int r = 0; r < ranks(); ++r) {
      const CheckCounters found = host_counters_[r];
      result.wrong_elements += found.wrong;
      if (found.wrong > 0 && result.first_rank < 0) {
        result.first_rank = r;
        result.first_index = found.first;
        result.expected = expected_output(shape.op, seed, ranks(), r, found.first, shape.count);
        TUTOR_GPU_CHECK(cudaSetDevice(r));
        TUTOR_GPU_CHECK(cudaMemcpy(&result.got, recv_[r] + found.first, sizeof(float), cudaMemcpyDeviceToHost));
      }
    }
    return result;
  }

 private:
  static std::string version_text(int code) {
    // NCCL_VERSION(X,Y,Z) is X*1000+Y*100+Z up to 2.8 and X*10000+Y*100+Z from 2.9 on (nccl.h).
    const int major = code >= 10000 ? code / 10000 : code / 1000;
    const int minor = code >= 10000 ? code % 10000 / 100 : code % 1000 / 100;
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
  }

  /// Enqueues rank r's part of one collective on its stream (inside the caller's group).
  void enqueue(const CollectiveShape& s, int r) {
    const ncclComm_t comm = comms_[r];
    const cudaStream_t stream = streams_[r];
    switch (s.op) {
      case Collective::allreduce:
        TUTOR_NCCL_CHECK(ncclAllReduce(send_[r], recv_[r], s.count, ncclFloat, ncclSum, comm, stream));
        break;
      case Collective::allgather:
        TUTOR_NCCL_CHECK(ncclAllGather(send_[r], recv_[r], s.count, ncclFloat, comm, stream));
        break;
      case Collective::reducescatter:
        TUTOR_NCCL_CHECK(ncclReduceScatter(send_[r], recv_[r], s.count, ncclFloat, ncclSum, comm, stream));
        break;
      case Collective::alltoall:
        // A send and a receive of one block per peer, self included, as nccl-tests'
        // alltoall_perf does (src/alltoall.cu): works on every NCCL since 2.7 and on RCCL.
        TUTOR_NCCL_CHECK(ncclGroupStart());
        for (int peer = 0; peer < ranks(); ++peer) {
          TUTOR_NCCL_CHECK(ncclSend(send_[r] + std::size_t(peer) * s.count, s.count, ncclFloat, peer, comm, stream));
          TUTOR_NCCL_CHECK(ncclRecv(recv_[r] + std::size_t(peer) * s.count, s.count, ncclFloat, peer, comm, stream));
        }
        TUTOR_NCCL_CHECK(ncclGroupEnd());
        break;
      case Collective::broadcast:
        TUTOR_NCCL_CHECK(ncclBroadcast(send_[r], recv_[r], s.count, ncclFloat, kBroadcastRoot, comm, stream));
        break;
    }
  }

  /// Events for `iterations` timed launches per rank, created once and reused.
  void ensure_events(int iterations) {
    for (int r = 0; r < ranks(); ++r) {
      TUTOR_GPU_CHECK(cudaSetDevice(r));
      while (int(start_[r].size()) < iterations) {
        cudaEvent_t a = nullptr, b = nullptr;
        TUTOR_GPU_CHECK(cudaEventCreate(&a));
        start_[r].push_back(a);
        TUTOR_GPU_CHECK(cudaEventCreate(&b));
        stop_[r].push_back(b);
      }
    }
  }

  /// Waits for every rank's stream, watching NCCL's asynchronous error state, and gives up
  /// after kWaitTimeoutSeconds (a lost peer would otherwise hang the lab for ever).
  void wait_all(const char* what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kWaitTimeoutSeconds);
    for (int r = 0; r < ranks(); ++r) {
      for (;;) {
        const cudaError_t status = cudaStreamQuery(streams_[r]);
        if (status == cudaSuccess) break;
        if (status != cudaErrorNotReady) {
          healthy_ = false;
          TUTOR_GPU_CHECK(status);
        }
        ncclResult_t async = ncclSuccess;
        TUTOR_NCCL_CHECK(ncclCommGetAsyncError(comms_[r], &async));
        if (async != ncclSuccess) {
          healthy_ = false;
          throw_nccl("ncclCommGetAsyncError (while waiting for the collective)", async, __FILE__, __LINE__);
        }
        if (std::chrono::steady_clock::now() > deadline) {
          healthy_ = false;
          throw gpu::Error(std::string("rank ") + std::to_string(r) + " made no progress for " +
                           std::to_string(int(kWaitTimeoutSeconds)) + " s while " + what +
                           "; the communicators were aborted");
        }
        std::this_thread::yield();
      }
    }
  }

  std::vector<ncclComm_t> comms_;
  std::vector<cudaStream_t> streams_;
  std::vector<float*> send_, recv_;
  std::vector<CheckCounters*> counters_;
  CheckCounters* host_counters_ = nullptr;  ///< one per rank, pinned
  std::vector<std::vector<cudaEvent_t>> start_, stop_;
  bool comms_open_ = false;
  bool healthy_ = true;
};

}  // namespace

int visible_gpu_count() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
    throw gpu::NoDevice(std::string("the CUDA runtime found no NVIDIA GPU (cudaGetDeviceCount said: ") +
                        (status == cudaSuccess ? "0 devices" : cudaGetErrorString(status)) + ")");
  return count;
}

std::unique_ptr<Clique> open_clique(int ranks) {
  const int visible = visible_gpu_count();
  if (ranks < 1 || ranks > visible)
    throw gpu::NoDevice(std::to_string(ranks) + " GPUs were asked for; CUDA sees " + std::to_string(visible));
  return std::make_unique<NcclClique>(ranks);
}

const char* collective_library_name() { return "NCCL"; }

}  // namespace tutor::b07
