// B07: the alpha-beta model of collectives (formulas and sources: collective_model.hpp).
#include "collective_model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "tutor/hardware.hpp"

namespace tutor::b07 {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

/// "all_reduce", "all-reduce" and "allreduce" are the same name.
std::string squashed(std::string_view s) {
  std::string out;
  for (char c : lower(s))
    if (c != '_' && c != '-' && c != ' ') out += c;
  return out;
}

/// ceil(log2 n) for n >= 1: the rounds of a log-depth algorithm.
int ceil_log2(int n) {
  int rounds = 0;
  for (long long reach = 1; reach < n; reach *= 2) ++rounds;
  return rounds;
}

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

// Per-step start-up costs the vendor libraries use in their own tuning models (microseconds).
// NCCL src/graph/tuning.cc, table hwLat[NVLINK|PCI|NET][RING][SIMPLE]: 3.4, 5.7, 14.0 (NCCL
// 2.18+; 3.4 and 5.7 are unchanged since the table appeared, NET was 9.6 in NCCL 2.7).
constexpr double kNcclNvlinkStepUs = 3.4;
constexpr double kNcclPciStepUs = 5.7;
constexpr double kNcclNetStepUs = 14.0;
// RCCL src/graph/tuning.cc, hwLat[NVLINK][RING][SIMPLE] = 2.7 (RCCL files xGMI under NVLINK).
constexpr double kRcclXgmiStepUs = 2.7;

struct NamedLink {
  std::string_view key;
  double alpha_us;
  double beta_GBps;
  std::string_view source;
};

constexpr NamedLink kLinkPresets[] = {
    {"pcie-gen4", kNcclPciStepUs, 31.5,
     "PCIe 4.0 x16: 16 GT/s x 16 lanes x 128/130 / 8 = 31.5 GB/s per direction (PCI Express Base "
     "Specification 4.0); alpha = NCCL hwLat PCI Ring/Simple 5.7 us (src/graph/tuning.cc)"},
    {"pcie-gen5", kNcclPciStepUs, 63.0,
     "PCIe 5.0 x16: 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s per direction (PCI Express Base "
     "Specification 5.0; H100 datasheet 'PCIe Gen5: 128GB/s' bidirectional); alpha = NCCL hwLat PCI "
     "Ring/Simple 5.7 us (src/graph/tuning.cc)"},
    {"ib-hdr", kNcclNetStepUs, 25.0,
     "InfiniBand HDR, one 200 Gb/s port per GPU = 25 GB/s per direction (NVIDIA ConnectX-6 HDR); "
     "alpha = NCCL hwLat NET Ring/Simple 14.0 us (src/graph/tuning.cc)"},
    {"ib-ndr", kNcclNetStepUs, 50.0,
     "InfiniBand NDR, one 400 Gb/s port per GPU = 50 GB/s per direction (NVIDIA ConnectX-7 NDR; DGX "
     "H100: eight 400 Gb/s ports, one per GPU); alpha = NCCL hwLat NET Ring/Simple 14.0 us "
     "(src/graph/tuning.cc)"},
};

}  // namespace

std::optional<Collective> parse_collective(std::string_view text) {
  std::string s = squashed(text);
  if (s.size() > 4 && s.compare(s.size() - 4, 4, "perf") == 0) s.resize(s.size() - 4);  // all_reduce_perf
  if (s == "allreduce") return Collective::allreduce;
  if (s == "allgather") return Collective::allgather;
  if (s == "reducescatter") return Collective::reducescatter;
  if (s == "alltoall") return Collective::alltoall;
  if (s == "broadcast" || s == "bcast") return Collective::broadcast;
  return std::nullopt;
}

std::string_view name(Collective c) {
  switch (c) {
    case Collective::allreduce: return "allreduce";
    case Collective::allgather: return "allgather";
    case Collective::reducescatter: return "reducescatter";
    case Collective::alltoall: return "alltoall";
    case Collective::broadcast: return "broadcast";
  }
  return "?";
}

std::string known_collectives() { return "allreduce, allgather, reducescatter, alltoall, broadcast"; }

std::string_view nccl_tests_binary(Collective c) {
  switch (c) {
    case Collective::allreduce: return "all_reduce_perf";
    case Collective::allgather: return "all_gather_perf";
    case Collective::reducescatter: return "reduce_scatter_perf";
    case Collective::alltoall: return "alltoall_perf";
    case Collective::broadcast: return "broadcast_perf";
  }
  return "?";
}

std::string_view size_meaning(Collective c) {
  switch (c) {
    case Collective::allreduce: return "the buffer each rank reduces (count x sizeof(type))";
    case Collective::allgather: return "each rank's output, n x its input";
    case Collective::reducescatter: return "each rank's input, n x its output";
    case Collective::alltoall: return "each rank's send buffer, n blocks of S/n";
    case Collective::broadcast: return "the root's buffer";
  }
  return "";
}

std::optional<Algorithm> parse_algorithm(std::string_view text) {
  const std::string s = lower(text);
  if (s == "ring") return Algorithm::ring;
  if (s == "tree") return Algorithm::tree;
  return std::nullopt;
}

std::string_view name(Algorithm a) { return a == Algorithm::ring ? "ring" : "tree"; }

double bus_bandwidth_factor(Collective c, int ranks) {
  require(ranks >= 1, fmt::format("--ranks: must be >= 1, got {}", ranks));
  const double n = ranks;
  switch (c) {
    case Collective::allreduce: return 2.0 * (n - 1) / n;
    case Collective::allgather:
    case Collective::reducescatter:
    case Collective::alltoall: return (n - 1) / n;
    case Collective::broadcast: return 1.0;
  }
  return 1.0;
}

CollectivePrediction predict(Collective c, Algorithm a, int ranks, double bytes, const LinkParams& link) {
  require(ranks >= 1, fmt::format("--ranks: must be >= 1, got {}", ranks));
  require(std::isfinite(bytes) && bytes > 0, fmt::format("--bytes: must be a finite size > 0, got {}", bytes));
  require(std::isfinite(link.alpha_us) && link.alpha_us >= 0,
          fmt::format("--alpha-us: must be a finite number >= 0, got {}", link.alpha_us));
  require(std::isfinite(link.beta_GBps) && link.beta_GBps > 0,
          fmt::format("--beta-GBps: must be a finite number > 0, got {}", link.beta_GBps));
  CollectivePrediction p{0, 0, 0, ""};
  if (ranks == 1) {
    p.formula = "one rank: nothing to communicate, t = 0";
    return p;
  }
  const double n = ranks;
  const double alpha = link.alpha_us;
  // S / B in microseconds: bytes / (GB/s x 1e9 B/GB) x 1e6 us/s.
  const double s_over_b_us = bytes / (link.beta_GBps * 1e3);
  const int L = ceil_log2(ranks);
  double steps = 0;        // start-ups (multiplies alpha)
  double link_share = 0;   // multiplies S / B
  std::string shape;       // the expression, symbolic
  if (a == Algorithm::ring) {
    switch (c) {
      case Collective::allreduce:
        steps = 2 * (n - 1), link_share = 2 * (n - 1) / n;
        shape = "2(n-1) alpha + 2(n-1)/n S/B";
        break;
      case Collective::allgather:
      case Collective::reducescatter:
      case Collective::alltoall:
        steps = n - 1, link_share = (n - 1) / n;
        shape = "(n-1) alpha + (n-1)/n S/B";
        break;
      case Collective::broadcast:
        steps = n - 1, link_share = 1;
        shape = "(n-1) alpha + S/B";
        break;
    }
  } else {
    switch (c) {
      case Collective::allreduce:
        steps = 2.0 * L, link_share = 2;
        shape = "2 ceil(log2 n) alpha + 2 S/B";
        break;
      case Collective::allgather:
      case Collective::reducescatter:
        steps = L, link_share = (n - 1) / n;
        shape = "ceil(log2 n) alpha + (n-1)/n S/B";
        break;
      case Collective::alltoall:
        steps = L, link_share = 0.5 * L;
        shape = "ceil(log2 n) alpha + (S/2) ceil(log2 n) / B";
        break;
      case Collective::broadcast:
        steps = L, link_share = L;
        shape = "ceil(log2 n) (alpha + S/B)";
        break;
    }
  }
  p.time_us = steps * alpha + link_share * s_over_b_us;
  p.algbw_GBps = p.time_us > 0 ? bytes / (p.time_us * 1e3) : 0;
  p.busbw_GBps = p.algbw_GBps * bus_bandwidth_factor(c, ranks);
  p.formula = fmt::format("{} {}: t = {} = {:g} x {:g} us + {:.6g} x {:.6g} us = {:.6g} us (n = {}, S = {:.0f} B, "
                          "B = {:g} GB/s per direction, alpha = {:g} us)",
                          name(a), name(c), shape, steps, alpha, link_share, s_over_b_us, p.time_us, ranks, bytes,
                          link.beta_GBps, alpha);
  return p;
}

double half_bandwidth_bytes(Collective c, Algorithm a, int ranks, const LinkParams& link) {
  if (ranks == 1) {
    predict(c, a, ranks, 1, link);  // validates the arguments
    return 0;
  }
  // Every formula of predict() is affine in S: t(S) = start-ups + slope x S.
  // The slope from two large sizes (no cancellation against the start-ups), then the start-ups.
  const double big = 1e12;
  const double slope = (predict(c, a, ranks, 2 * big, link).time_us - predict(c, a, ranks, big, link).time_us) / big;
  const double start_ups = predict(c, a, ranks, 1, link).time_us - slope;
  return start_ups / slope;
}

std::optional<LinkParams> link_preset(std::string_view text) {
  const std::string key = lower(text);
  for (const NamedLink& l : kLinkPresets)
    if (key == l.key) return LinkParams{l.alpha_us, l.beta_GBps, std::string(l.source)};
  const hw::GpuSpec* gpu = hw::find_gpu(text);
  if (!gpu) return std::nullopt;
  const double total = gpu->interconnect_GBps.value;
  if (!std::isfinite(total) || total <= 0)
    throw std::invalid_argument(fmt::format(
        "--link: {} has no GPU-to-GPU link figure in the table ({}); use --link pcie-gen4 / pcie-gen5 or "
        "--alpha-us and --beta-GBps", gpu->key, gpu->interconnect));
  const bool amd = gpu->vendor == "AMD";
  const double alpha = amd ? kRcclXgmiStepUs : kNcclNvlinkStepUs;
  return LinkParams{
      alpha, total / 2,
      fmt::format("{} {}: {:g} GB/s bidirectional total per GPU ({}), halved to {:g} GB/s per direction "
                  "(full-duplex links); alpha = {} {:g} us",
                  gpu->name, gpu->interconnect, total, gpu->interconnect_GBps.source, total / 2,
                  amd ? "RCCL src/graph/tuning.cc hwLat NVLINK-class (xGMI) Ring/Simple"
                      : "NCCL src/graph/tuning.cc hwLat NVLINK Ring/Simple",
                  alpha)};
}

std::string known_links() {
  std::string out;
  for (const NamedLink& l : kLinkPresets) out += (out.empty() ? "" : ", ") + std::string(l.key);
  return out + ", or a GPU of the table (" + hw::known_keys() + ")";
}

std::optional<double> parse_size(std::string_view text) {
  std::string s(text);
  if (s.empty() || std::isspace(static_cast<unsigned char>(s.front()))) return std::nullopt;
  // A decimal number (digits, '.', an exponent), then the unit: strtod alone would also take
  // hex ("0x10"), "inf" and "nan".
  const std::size_t split = s.find_first_not_of("0123456789.eE+-");
  const std::string number = s.substr(0, split);
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size()) return std::nullopt;
  const std::string unit = lower(std::string_view(s).substr(number.size()));
  double scale = 0;
  if (unit.empty() || unit == "b") scale = 1;
  else if (unit == "k" || unit == "kib") scale = 1024.0;
  else if (unit == "m" || unit == "mib") scale = 1024.0 * 1024;
  else if (unit == "g" || unit == "gib") scale = 1024.0 * 1024 * 1024;
  else if (unit == "kb") scale = 1e3;
  else if (unit == "mb") scale = 1e6;
  else if (unit == "gb") scale = 1e9;
  else return std::nullopt;
  const double bytes = value * scale;
  if (!std::isfinite(bytes) || !(bytes > 0)) return std::nullopt;
  return bytes;
}

}  // namespace tutor::b07
