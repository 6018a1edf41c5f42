// b07_collectives: all-reduce, all-gather, reduce-scatter, all-to-all and broadcast measured on
// every GPU of this machine, each size checked, with the alpha-beta model printed beside it.
//
// Reads top to bottom: options; the sweep (per op and size: fill, poison, one checked launch,
// warm-up, timed launches, check again); the fit of the model's link to the two ends of the
// measured curve; the table, the record (JSON), the CSV and the plot. The vendor layer is in
// cuda/collectives.cu (NCCL) and hip/collectives.hip (RCCL); the model in collective_model.hpp.
//
// Timing, and how it differs from nccl-tests (src/common.cu, BenchTime): nccl-tests reads a
// host clock around `iters` (20) back-to-back group launches, waits, divides by iters (a mean)
// and averages over its threads / processes. This lab records a CUDA event pair on every
// rank's stream around each launch, the launches also back to back; per launch it keeps the
// slowest rank (a collective is done when its last rank is), and reports the median over
// launches (robust to the occasional slow launch on a shared machine) with min, max and the
// mean. Both count the single host thread's launch of n kernels at the small end.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "alpha_beta_fit.hpp"
#include "collective_model.hpp"
#include "collectives.hpp"
#include "tutor/cli.hpp"
#include "tutor/gpu.hpp"
#include "tutor/hardware.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"
#include "tutor/stats.hpp"
#include "tutor/svg_plot.hpp"
#include "tutor/verify.hpp"

#ifndef TUTOR_B07_BUILD_NOTE
#define TUTOR_B07_BUILD_NOTE "build: host preset (no GPU runtime, no NCCL / RCCL): a run exits 3"
#endif

namespace tutor::b07 {

static_assert(kOutputPoisonBits == kPoisonBitsF32, "the kernels' poison must be common's poison NaN");

#if defined(TUTOR_HOST_ONLY)
// The host preset builds no kernels and links no NCCL: the lab answers --help, --list and
// --model, and a run stops at open_device with exit code 3 before it gets here.
int visible_gpu_count() { throw gpu::NoDevice("this binary was built with the host preset, without NCCL or RCCL"); }
std::unique_ptr<Clique> open_clique(int) {
  visible_gpu_count();  // throws
  return nullptr;
}
const char* collective_library_name() { return "none (host preset)"; }
#endif

namespace {

using json = nlohmann::json;

constexpr const char* kProgram = "b07_collectives";
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
/// Memory kept free on every GPU beyond the two message buffers: NCCL allocates its channel
/// buffers (per protocol, per peer) when an algorithm first connects, after this lab's buffers.
constexpr double kNcclReserveBytes = 2 * kGiB;
/// Timed launches per size never go below this (unless --iters does): a median needs a few.
constexpr int kMinIterations = 10;
/// Model error the summary counts as "the model holds here".
constexpr double kHoldsWithin = 0.10;

constexpr const char* kModelSource =
    "alpha-beta model, ring formulas of collective_model.hpp: R. Thakur, R. Rabenseifner, W. Gropp, Optimization of "
    "Collective Communication Operations in MPICH, IJHPCA 19(1), 2005; P. Patarasuk, X. Yuan, Bandwidth optimal "
    "all-reduce algorithms for clusters of workstations, JPDC 69(2), 2009; bus bandwidth: NVIDIA nccl-tests "
    "doc/PERFORMANCE.md";
constexpr const char* kTimingMethod =
    "CUDA/HIP events on every rank's stream around each group launch, launches back to back; per launch the "
    "slowest rank; median over launches (nccl-tests instead divides a host-clock interval over 20 back-to-back "
    "launches by 20 and averages over ranks: src/common.cu, BenchTime)";



std::string factor_text(Collective c) {
  return c == Collective::allreduce ? "2(n-1)/n" : c == Collective::broadcast ? "1" : "(n-1)/n";
}

/// "8 B", "64 KiB", "4 GiB": sizes in the summary lines (the table keeps nccl-tests' bytes).
std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) bytes /= 1024, ++u;
  return bytes == std::floor(bytes) ? fmt::format("{:.0f} {}", bytes, units[u])
                                    : fmt::format("{:.3g} {}", bytes, units[u]);
}

/// "8", "4K", "64M", "4G": a size as b07_sharding and nccl-tests read it back.
std::string cli_size(double bytes) {
  const char* suffix[] = {"", "K", "M", "G"};
  int u = 0;
  while (u < 3 && std::fmod(bytes, 1024.0) == 0 && bytes >= 1024) bytes /= 1024, ++u;
  return fmt::format("{:.0f}{}", bytes, suffix[u]);
}

struct Options {
  std::vector<std::string> ops;
  std::string min_bytes = "8", max_bytes = "4G";
  int gpus = 0;  // 0: every visible GPU
  int iters = 50, warmup = 5;
  double budget_ms = 200;
  std::uint64_t seed = 0;
  std::string link, model_gpu;
  bool quick = false, list = false;
};

/// One measured size of one collective.
struct Row {
  CollectiveShape shape;
  double requested_bytes = 0;
  int warmup_launches = 0;
  bool timed = false;
  Summary time_us;
  double algbw_GBps = 0, busbw_GBps = 0;
  CollectiveCheck before, after;  ///< the checked launch before timing, and the last timed launch
  bool verified() const { return before.wrong_elements == 0 && after.wrong_elements == 0; }
  std::optional<CollectivePrediction> fit_model, datasheet_model;
  char fit_end = ' ';  ///< 'L' latency end, 'B' bandwidth end: the sizes the fit used
};

struct OpResult {
  Collective op;
  std::vector<Row> rows;
  std::vector<double> skipped_bytes;  ///< sizes with no whole element per rank
  std::optional<AlphaBetaFit> fit;
  std::string fit_note;  ///< why there is no fit, when there is none
};

/// Reads --min-bytes / --max-bytes: nccl-tests' size syntax, a power of two from 4 B to 16 GiB.
double parse_sweep_size(const std::string& option, const std::string& text) {
  const auto bytes = parse_size(text);
  const bool ok = bytes && *bytes >= 4 && *bytes <= 16 * kGiB && std::exp2(std::round(std::log2(*bytes))) == *bytes;
  if (!ok)
    throw UsageError(
        fmt::format("{}: '{}' must be a power of two from 4 B to 16G (bytes, or K/M/G = KiB/MiB/GiB: "
                    "8, 64K, 4G)",
                    option, text));
  return *bytes;
}

std::vector<Collective> parse_ops(const std::vector<std::string>& names) {
  std::vector<Collective> ops;
  for (const auto& n : names) {
    const auto c = parse_collective(n);
    if (!c) throw UsageError(fmt::format("--ops: unknown collective '{}'; allowed: {}", n, known_collectives()));
    if (std::find(ops.begin(), ops.end(), *c) == ops.end()) ops.push_back(*c);
  }
  return ops;
}

std::vector<double> sweep_sizes(double min_bytes, double max_bytes) {
  std::vector<double> sizes;
  for (double s = min_bytes; s <= max_bytes; s *= 2) sizes.push_back(s);
  return sizes;
}

/// The datasheet link for the contrast column: --link, else the table's row of this GPU.
std::optional<LinkParams> datasheet_link(const std::string& link_name, const std::string& runtime_name,
                                         std::string& why_not) {
  if (!link_name.empty()) return link_preset(link_name);  // validated right after parsing
  const hw::GpuSpec* spec = hw::match_runtime_name(runtime_name);
  if (!spec) {
    why_not = fmt::format("'{}' is not in the GPU table; give --link", runtime_name);
    return std::nullopt;
  }
  try {
    return link_preset(spec->key);
  } catch (const std::invalid_argument& e) {
    why_not = e.what();
    return std::nullopt;
  }
}

/// The link a --link or --model names, or a one-line UsageError naming `option`.
LinkParams require_link(const std::string& option, const std::string& link_name) {
  std::optional<LinkParams> link;
  try {
    link = link_preset(link_name);
  } catch (const std::invalid_argument&) {
    const hw::GpuSpec* gpu = hw::find_gpu(link_name);
    throw UsageError(
        fmt::format("{}: {} has no GPU-to-GPU link in the GPU table ({}); name a link instead: "
                    "pcie-gen4, pcie-gen5, ib-hdr, ib-ndr",
                    option, link_name, gpu ? std::string(gpu->interconnect) : "none"));
  }
  if (!link) throw UsageError(fmt::format("{}: unknown link '{}'; allowed: {}", option, link_name, known_links()));
  return *link;
}

void validate_link(const std::string& link_name) {
  if (!link_name.empty()) require_link("--link", link_name);
}

// ---- --list and --model: no GPU needed ---------------------------------------------------

void print_list() {
  for (Collective c : {Collective::allreduce, Collective::allgather, Collective::reducescatter, Collective::alltoall,
                       Collective::broadcast})
    fmt::print("{:<14} nccl-tests {:<20} S = {}; busbw = algbw x {}\n", name(c), nccl_tests_binary(c), size_meaning(c),
               factor_text(c));
}

int print_model(const Options& o, const std::vector<Collective>& ops, const std::vector<double>& sizes) {
  const std::optional<LinkParams> link = require_link("--model", o.model_gpu);
  const int n = o.gpus > 0 ? o.gpus : 8;
  fmt::print(
      "kind: model (no GPU used): the alpha-beta ring formulas of collective_model.hpp with the datasheet link; "
      "run without --model on {} GPUs to measure\n",
      n);
  fmt::print("link: alpha = {:g} us per step, B = {:g} GB/s per direction ({})\n", link->alpha_us, link->beta_GBps,
             link->source);
  for (Collective op : ops) {
    fmt::print("\n{} over n = {} ranks (S = {}; nccl-tests {})\n", name(op), n, size_meaning(op),
               nccl_tests_binary(op));
    fmt::print("  {:>12} {:>12} {:>10} {:>10}\n", "size (B)", "time (us)", "algbw", "busbw");
    for (double s : sizes) {
      const CollectiveShape shape = shape_for(op, n, std::uint64_t(s));
      if (shape.count == 0) continue;
      const CollectivePrediction p = predict(op, Algorithm::ring, n, shape.bytes, *link);
      fmt::print("  {:>12.0f} {:>12.2f} {:>10.2f} {:>10.2f}\n", shape.bytes, p.time_us, p.algbw_GBps, p.busbw_GBps);
    }
  }
  fmt::print("  (GB/s = 1e9 B/s, as nccl-tests prints them)\n");
  return kExitOk;
}

// ---- The sweep -----------------------------------------------------------------------------

/// One size of one op: fill, poison, checked launch, warm-up, timed launches, check again.
Row measure_size(Clique& clique, const CollectiveShape& shape, std::uint64_t seed, const Options& o) {
  Row row;
  row.shape = shape;
  clique.fill_inputs(shape, seed);
  clique.poison_outputs(shape);
  const double first_us = clique.time_us(shape, 1).front();  // also the first warm-up
  row.before = clique.check(shape, seed);
  row.warmup_launches = 1;
  if (row.before.wrong_elements > 0) return row;  // a wrong collective is not timed
  const double budget_us = o.budget_ms * 1e3;
  double estimate_us = first_us;
  if (o.warmup > 1) {
    // The rest of the warm-up within half the budget (a 4 GiB launch takes tens of ms), but at
    // least one: the checked launch also paid NCCL's first connection of this size's protocol.
    const int more = int(std::clamp(std::floor(0.5 * budget_us / first_us), 1.0, double(o.warmup - 1)));
    const std::vector<double> warm = clique.time_us(shape, more);
    estimate_us = summarize(warm).median;
    row.warmup_launches += more;
  }
  const int floor_iters = std::min(kMinIterations, o.iters);
  const int iters =
      int(std::clamp(std::round(budget_us / std::max(estimate_us, 1e-3)), double(floor_iters), double(o.iters)));
  const std::vector<double> times = clique.time_us(shape, iters);
  row.after = clique.check(shape, seed);
  row.timed = true;
  row.time_us = summarize(times);
  row.algbw_GBps = shape.bytes / (row.time_us.median * 1e3);
  row.busbw_GBps = row.algbw_GBps * bus_bandwidth_factor(shape.op, shape.ranks);
  return row;
}

/// Fits the link to the op's measured ends and fills both model columns of every row.
void add_models(OpResult& r, int ranks, const std::optional<LinkParams>& datasheet) {
  if (ranks < 2) {
    r.fit_note = "one rank: nothing is communicated, the model's time is 0 and bus bandwidth is not defined";
    return;
  }
  std::vector<SweepPoint> points;
  std::vector<std::size_t> row_of;
  for (std::size_t i = 0; i < r.rows.size(); ++i)
    if (r.rows[i].timed && r.rows[i].verified()) {
      points.push_back({r.rows[i].shape.bytes, r.rows[i].time_us.median});
      row_of.push_back(i);
    }
  try {
    r.fit = fit_alpha_beta(r.op, ranks, points);
  } catch (const std::invalid_argument& e) {
    r.fit_note = std::string("no fit: ") + e.what();
  }
  if (r.fit) {
    for (std::size_t i : r.fit->latency_indices) r.rows[row_of[i]].fit_end = 'L';
    for (std::size_t i : r.fit->bandwidth_indices) r.rows[row_of[i]].fit_end = 'B';
  }
  for (Row& row : r.rows) {
    if (!row.timed) continue;
    if (r.fit) row.fit_model = predict(r.op, Algorithm::ring, ranks, row.shape.bytes, r.fit->link);
    if (datasheet) row.datasheet_model = predict(r.op, Algorithm::ring, ranks, row.shape.bytes, *datasheet);
  }
}

// ---- Output --------------------------------------------------------------------------------

std::string signed_percent(double rel) { return fmt::format("{:+.1f}%", 100 * rel); }

void print_op(std::FILE* out, const OpResult& r, int ranks, const std::optional<LinkParams>& datasheet,
              const std::string& datasheet_note) {
  const bool multi = ranks > 1;
  std::string span;
  if (!r.rows.empty())
    span =
        fmt::format("-b {} -e {}", cli_size(r.rows.front().requested_bytes), cli_size(r.rows.back().requested_bytes));
  fmt::print(out, "\n{} over n = {} rank{} (fp32{}); S = {}; nccl-tests: {} {} -f 2 -g {}\n", name(r.op), ranks,
             ranks == 1 ? "" : "s", r.op == Collective::allreduce || r.op == Collective::reducescatter ? ", sum" : "",
             size_meaning(r.op), nccl_tests_binary(r.op), span, ranks);
  fmt::print(out, "  {:<83}| {}\n", "measured (kind: measurement)", "alpha-beta ring model (kind: model)");
  fmt::print(out, "  {:>12} {:>11} {:>10} {:>19} {:>8} {:>8} {:>6}   | {:>10} {:>7} | {:>10} {:>7}\n", "size (B)",
             "count", "time (us)", "min - max (us)", "algbw", "busbw", "check", "fit (us)", "err", "datasheet", "err");
  for (const Row& row : r.rows) {
    const std::string check =
        row.verified() ? "ok" : fmt::format("{} BAD", row.before.wrong_elements + row.after.wrong_elements);
    if (!row.timed) {
      fmt::print(out, "  {:>12.0f} {:>11} {:>10} {:>19} {:>8} {:>8} {:>6}   | not timed: the check failed\n",
                 row.shape.bytes, row.shape.count, "-", "-", "-", "-", check);
      continue;
    }
    const std::string minmax = fmt::format("{:.2f} - {:.2f}", row.time_us.min, row.time_us.max);
    const std::string busbw = multi ? fmt::format("{:.2f}", row.busbw_GBps) : "n/a";
    const std::string fit_t = row.fit_model ? fmt::format("{:.2f}", row.fit_model->time_us) : "-";
    const std::string fit_e =
        row.fit_model ? signed_percent(relative_error(row.fit_model->time_us, row.time_us.median)) : "-";
    const std::string ds_t = row.datasheet_model && multi ? fmt::format("{:.2f}", row.datasheet_model->time_us) : "-";
    const std::string ds_e = row.datasheet_model && multi
                                 ? signed_percent(relative_error(row.datasheet_model->time_us, row.time_us.median))
                                 : "-";
    fmt::print(out, "  {:>12.0f} {:>11} {:>10.2f} {:>19} {:>8.2f} {:>8} {:>6} {} | {:>10} {:>7} | {:>10} {:>7}\n",
               row.shape.bytes, row.shape.count, row.time_us.median, minmax, row.algbw_GBps, busbw, check, row.fit_end,
               fit_t, fit_e, ds_t, ds_e);
  }
  fmt::print(out,
             "  (time: median over timed launches of the slowest rank; GB/s = 1e9 B/s; busbw = algbw x {}; "
             "L / B: the sizes the fit used)\n",
             factor_text(r.op));
  if (!r.skipped_bytes.empty())
    fmt::print(out, "  skipped: {} size(s) from {} with no whole fp32 element per rank\n", r.skipped_bytes.size(),
               human_bytes(r.skipped_bytes.front()));
  if (!multi) {
    fmt::print(out,
               "  bus bandwidth: not defined on one rank (nccl-tests' factor {} is 0 or the link is unused); "
               "the model's time is 0 (nothing to communicate): run on >= 2 GPUs to fit it\n",
               factor_text(r.op));
    return;
  }
  if (!r.fit) {
    fmt::print(out, "  {}\n", r.fit_note);
  } else {
    const AlphaBetaFit& f = *r.fit;
    fmt::print(out,
               "  fit (kind: model): alpha = {:.3f} us per step x {:g} steps = {:.2f} us at S -> 0; "
               "B = {:.1f} GB/s per direction\n",
               f.link.alpha_us, f.ring.steps, f.latency_end_us, f.link.beta_GBps);
    fmt::print(
        out, "    alpha from the {} smallest sizes (L), B from the {} largest (B); ring: t = {:g} alpha + {:.4g} S/B\n",
        f.latency_indices.size(), f.bandwidth_indices.size(), f.ring.steps, f.ring.link_share);
    if (f.bandwidth_term_fraction < 0.9)
      fmt::print(out,
                 "    note: at the largest size the bandwidth term is only {:.0f}% of the model's time: the sweep "
                 "stops before the bandwidth plateau, so B is an underestimate (sweep to 1G or more)\n",
                 100 * f.bandwidth_term_fraction);
    int holds = 0, counted = 0;
    const Row* worst = nullptr;
    double worst_err = 0;
    for (const Row& row : r.rows) {
      if (!row.fit_model) continue;
      const double e = relative_error(row.fit_model->time_us, row.time_us.median);
      ++counted;
      if (std::abs(e) <= kHoldsWithin) ++holds;
      if (!worst || std::abs(e) > std::abs(worst_err)) worst = &row, worst_err = e;
    }
    if (worst)
      fmt::print(out, "    model with the fitted link: within {:.0f}% at {} of {} sizes; worst {} at {}\n",
                 100 * kHoldsWithin, holds, counted, signed_percent(worst_err), human_bytes(worst->shape.bytes));
    fmt::print(out,
               "    the same model from the CLI: b07_sharding collective --op {} --ranks {} --bytes {} --max-bytes {} "
               "--alpha-us {:.4g} --beta-GBps {:.4g}\n",
               name(r.op), ranks, cli_size(r.rows.front().shape.bytes), cli_size(r.rows.back().shape.bytes),
               f.link.alpha_us, f.link.beta_GBps);
  }
  if (datasheet)
    fmt::print(out,
               "  datasheet (kind: model): alpha = {:g} us, B = {:g} GB/s per direction (source: see the header)\n",
               datasheet->alpha_us, datasheet->beta_GBps);
  else
    fmt::print(out, "  datasheet column: none ({})\n", datasheet_note);
}

json summary_json(const Summary& s) {
  return {{"min", s.min},   {"p10", s.p10}, {"median", s.median}, {"p90", s.p90}, {"max", s.max},
          {"mean", s.mean}, {"n", s.n}};
}

json check_json(const CollectiveCheck& c) {
  json j = {{"wrong_elements", c.wrong_elements}};
  if (c.first_rank >= 0)
    j["first_wrong"] = {{"rank", c.first_rank}, {"index", c.first_index}, {"got", c.got}, {"expected", c.expected}};
  return j;
}

json model_json(const std::optional<CollectivePrediction>& p, double measured_us, bool multi) {
  if (!p || !multi) return nullptr;
  return {{"kind", "model"},
          {"time_us", p->time_us},
          {"busbw_GBps", p->busbw_GBps},
          {"rel_err", relative_error(p->time_us, measured_us)}};
}

json op_json(const OpResult& r, int ranks, const std::optional<LinkParams>& datasheet,
             const std::string& datasheet_note) {
  const bool multi = ranks > 1;
  json rows = json::array();
  for (const Row& row : r.rows) {
    json j = {{"bytes", row.shape.bytes},
              {"requested_bytes", row.requested_bytes},
              {"count", row.shape.count},
              {"verified", row.verified()},
              {"check_before_timing", check_json(row.before)},
              {"check_after_timing", check_json(row.after)},
              {"timed", row.timed},
              {"warmup_launches", row.warmup_launches}};
    if (row.timed) {
      j["time_us"] = summary_json(row.time_us);
      j["algbw_GBps"] = row.algbw_GBps;
      j["busbw_GBps"] = multi ? json(row.busbw_GBps) : json(nullptr);
      j["fit_end"] = row.fit_end == 'L' ? json("latency") : row.fit_end == 'B' ? json("bandwidth") : json(nullptr);
      j["model_fit"] = model_json(row.fit_model, row.time_us.median, multi);
      j["model_datasheet"] = model_json(row.datasheet_model, row.time_us.median, multi);
    }
    rows.push_back(j);
  }
  json out = {{"op", name(r.op)},
              {"ranks", ranks},
              {"nccl_tests_binary", nccl_tests_binary(r.op)},
              {"size_convention", size_meaning(r.op)},
              {"bus_bandwidth_factor", bus_bandwidth_factor(r.op, ranks)},
              {"rows", rows},
              {"skipped_bytes", r.skipped_bytes}};
  if (!multi) out["bus_bandwidth"] = "not defined for one rank";
  if (r.fit) {
    const AlphaBetaFit& f = *r.fit;
    std::vector<double> lat, bw;
    for (const Row& row : r.rows) {
      if (row.fit_end == 'L') lat.push_back(row.shape.bytes);
      if (row.fit_end == 'B') bw.push_back(row.shape.bytes);
    }
    out["fit"] = {{"kind", "model"},
                  {"alpha_us", f.link.alpha_us},
                  {"beta_GBps_per_direction", f.link.beta_GBps},
                  {"ring_steps", f.ring.steps},
                  {"ring_link_share", f.ring.link_share},
                  {"latency_end_us", f.latency_end_us},
                  {"latency_bytes", lat},
                  {"bandwidth_bytes", bw},
                  {"bandwidth_term_fraction_at_largest", f.bandwidth_term_fraction},
                  {"method", f.link.source}};
  } else {
    out["fit"] = {{"kind", "model"}, {"note", r.fit_note}};
  }
  if (datasheet && multi)
    out["datasheet"] = {{"kind", "model"},
                        {"alpha_us", datasheet->alpha_us},
                        {"beta_GBps_per_direction", datasheet->beta_GBps},
                        {"source", datasheet->source}};
  else
    out["datasheet"] = {{"kind", "model"}, {"note", multi ? datasheet_note : "one rank"}};
  return out;
}

std::string to_csv(const std::vector<OpResult>& results, int ranks) {
  std::string csv =
      "op,ranks,bytes,count,verified,time_us_median,time_us_min,time_us_max,time_us_mean,iterations,algbw_GBps,"
      "busbw_GBps,fit_end,model_fit_time_us,model_fit_rel_err,model_datasheet_time_us,model_datasheet_rel_err\n";
  auto opt = [](const std::optional<CollectivePrediction>& p, double measured, bool multi) {
    return p && multi ? fmt::format("{:.6g},{:.6g}", p->time_us, relative_error(p->time_us, measured))
                      : std::string(",");
  };
  for (const OpResult& r : results)
    for (const Row& row : r.rows) {
      if (!row.timed) {
        csv += fmt::format("{},{},{:.0f},{},false,,,,,,,,,,,,\n", name(r.op), ranks, row.shape.bytes, row.shape.count);
        continue;
      }
      csv += fmt::format(
          "{},{},{:.0f},{},{},{:.6g},{:.6g},{:.6g},{:.6g},{},{:.6g},{},{},{},{}\n", name(r.op), ranks, row.shape.bytes,
          row.shape.count, row.verified() ? "true" : "false", row.time_us.median, row.time_us.min, row.time_us.max,
          row.time_us.mean, row.time_us.n, row.algbw_GBps, ranks > 1 ? fmt::format("{:.6g}", row.busbw_GBps) : "",
          row.fit_end == 'L'   ? "latency"
          : row.fit_end == 'B' ? "bandwidth"
                               : "",
          opt(row.fit_model, row.time_us.median, ranks > 1), opt(row.datasheet_model, row.time_us.median, ranks > 1));
    }
  return csv;
}

std::string to_svg(const std::vector<OpResult>& results, int ranks, const std::string& device_name) {
  const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};
  const bool multi = ranks > 1;
  PlotSpec spec;
  spec.title = fmt::format("{} x {}: {} (measured: solid; alpha-beta fit: dashed, kind: model)", ranks, device_name,
                           multi ? "bus bandwidth" : "algorithm bandwidth");
  spec.x_label = "message size S (bytes, nccl-tests convention)";
  spec.y_label = multi ? "busbw (GB/s)" : "algbw (GB/s)";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const OpResult& r = results[i];
    PlotSeries measured{std::string(name(r.op)), {}, PlotSeries::Style::line, colors[i % 5]};
    PlotSeries model{std::string(name(r.op)) + " model", {}, PlotSeries::Style::dashed, colors[i % 5]};
    for (const Row& row : r.rows) {
      if (!row.timed) continue;
      measured.xy.emplace_back(row.shape.bytes, multi ? row.busbw_GBps : row.algbw_GBps);
      if (row.fit_model) model.xy.emplace_back(row.shape.bytes, row.fit_model->busbw_GBps);
    }
    spec.series.push_back(measured);
    if (!model.xy.empty()) spec.series.push_back(model);
  }
  return render_svg(spec);
}

// ---- main ------------------------------------------------------------------------------------

int run(int argc, char** argv) {
  Options o;
  CLI::App app{
      "B07 multi-GPU lab: all-reduce, all-gather, reduce-scatter, all-to-all and broadcast measured on this "
      "machine's GPUs (one process, one communicator per GPU), every size checked, with the alpha-beta "
      "model fitted to the measured ends printed beside each line",
      kProgram};
  app.footer(fmt::format(
      "Sizes follow nccl-tests (S per op: --list); busbw = algbw x nccl-tests' factor. NCCL_NVLS_ENABLE=0 is set "
      "unless you set it (NVLink SHARP off; the lab never creates multicast objects). On one GPU the lab runs one "
      "rank and bus bandwidth is not defined. {}",
      TUTOR_B07_BUILD_NOTE));
  app.add_option("--ops", o.ops, "collectives to run, comma-separated: " + known_collectives() + " (default: all)")
      ->delimiter(',');
  app.add_option("--min-bytes", o.min_bytes, "smallest S, a power of two from 4 B (nccl-tests -b; 8, 64K, 1M)");
  app.add_option("--max-bytes", o.max_bytes,
                 "largest S, a power of two up to 16G (nccl-tests -e); capped with a message to what fits in free "
                 "memory (2 buffers of S per GPU + 2 GiB for NCCL)");
  auto* quick = app.add_flag("--quick", o.quick, "a short sweep: 8 B to 64 MiB, allreduce, allgather, reducescatter");
  app.add_option("--gpus", o.gpus, "ranks = GPUs 0..N-1 (default: every visible GPU; with --model: 8)")
      ->check(decimal_integer())
      ->check(CLI::Range(1, 1024));
  app.add_option("--iters", o.iters,
                 "most timed launches per size (fewer where --budget-ms runs out first, never "
                 "below 10 unless this is lower)")
      ->check(decimal_integer())
      ->check(CLI::Range(1, 1000));
  app.add_option("--warmup", o.warmup, "untimed launches per size, the checked launch included")
      ->check(decimal_integer())
      ->check(CLI::Range(0, 100));
  app.add_option("--budget-ms", o.budget_ms,
                 "time spent in timed launches per size, ms: how many launches a large size gets")
      ->check(finite_number())
      ->check(CLI::Range(1.0, 10000.0));
  app.add_option("--seed", o.seed, "seed of the inputs (default: fresh every run; printed and recorded)")
      ->check(decimal_integer());
  app.add_option("--link", o.link,
                 "datasheet link of the contrast column: " + known_links() + " (default: this GPU's row of the table)");
  Outputs outputs(app, {.csv = true,
                        .plot = true,
                        .csv_help = "write one line per op and size as CSV to PATH",
                        .plot_help = "draw busbw against S, measured and fitted, as SVG to PATH"});
  auto* model = app.add_option("--model", o.model_gpu,
                               "print the model's prediction for a GPU of the table or a link instead of running (no "
                               "GPU needed; kind: model)");
  auto* list = app.add_flag("--list", o.list, "list the collectives, their nccl-tests size convention and factor");
  quick->excludes("--ops")->excludes("--min-bytes")->excludes("--max-bytes");
  list->excludes(model);
  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  if (o.list || model->count() > 0) outputs.refuse("records a run; --list and --model print to stdout only");
  outputs.check();
  validate_link(o.link);
  if (o.quick) o.ops = {"allreduce", "allgather", "reducescatter"}, o.max_bytes = "64M";
  const std::vector<Collective> ops = parse_ops(
      o.ops.empty() ? std::vector<std::string>{"allreduce", "allgather", "reducescatter", "alltoall", "broadcast"}
                    : o.ops);
  const double min_bytes = parse_sweep_size("--min-bytes", o.min_bytes);
  double max_bytes = parse_sweep_size("--max-bytes", o.max_bytes);
  if (max_bytes < min_bytes)
    throw UsageError(fmt::format("--max-bytes: {} is below --min-bytes {}", o.max_bytes, o.min_bytes));
  if (o.list) {
    print_list();
    return kExitOk;
  }
  if (model->count() > 0) return print_model(o, ops, sweep_sizes(min_bytes, max_bytes));

  std::FILE* human = outputs.human();
  const bool progress = ::isatty(STDERR_FILENO);
  // NVLink SHARP off before NCCL reads its environment (at the first NCCL call).
  const char* nvls_user = std::getenv("NCCL_NVLS_ENABLE");
  if (!nvls_user) ::setenv("NCCL_NVLS_ENABLE", "0", 1);
  const std::string nvls = std::getenv("NCCL_NVLS_ENABLE");
  if (nvls != "0")
    fmt::print(stderr,
               "{}: warning: NCCL_NVLS_ENABLE={} was set by you: NVLink SHARP may be used; on a shared "
               "machine leave it at 0\n",
               kProgram, nvls);

  const gpu::DeviceInfo first = gpu::open_device(0);  // no GPU: exit 3 here
  const int visible = visible_gpu_count();
  const int ranks = o.gpus > 0 ? o.gpus : visible;
  if (ranks > visible)
    throw UsageError(fmt::format("--gpus: {} asked for; this machine shows {} GPU{} (1..{})", ranks, visible,
                                 visible == 1 ? "" : "s", visible));
  std::vector<gpu::DeviceInfo> devices{first};
  for (int r = 1; r < ranks; ++r) devices.push_back(gpu::open_device(r));
  if (o.seed == 0) o.seed = fresh_seed();

  if (progress)
    fmt::print(stderr, "opening {} {} communicator(s) (ncclCommInitAll)...\n", ranks, collective_library_name());
  std::unique_ptr<Clique> clique = open_clique(ranks);
  const std::string library = clique->library();
  // Two buffers of max_bytes per GPU, and room for NCCL's own buffers.
  const double requested_max = max_bytes;
  const double free_bytes = double(clique->min_free_bytes());
  while (max_bytes >= min_bytes && 2 * max_bytes + kNcclReserveBytes > free_bytes) max_bytes /= 2;
  if (max_bytes < min_bytes)
    throw UsageError(fmt::format("--min-bytes: {} does not fit: the GPU with the least free memory has {:.2f} GiB",
                                 o.min_bytes, free_bytes / kGiB));
  std::string cap_note;
  if (max_bytes < requested_max) {
    cap_note = fmt::format(
        "--max-bytes capped from {} to {}: the GPU with the least free memory has {:.2f} GiB "
        "(2 buffers of S + 2 GiB for NCCL)",
        human_bytes(requested_max), human_bytes(max_bytes), free_bytes / kGiB);
    fmt::print(stderr, "{}: {}\n", kProgram, cap_note);
  }
  clique->allocate(std::size_t(max_bytes));
  const std::vector<double> sizes = sweep_sizes(min_bytes, max_bytes);

  std::string datasheet_note;
  const std::optional<LinkParams> datasheet = datasheet_link(o.link, first.name, datasheet_note);

  fmt::print(human, "{}: NCCL_NVLS_ENABLE={} ({}: NVLink SHARP multicast off; the machines are shared)\n", kProgram,
             nvls, nvls_user ? "set by you" : "set by the lab");
  fmt::print(human, "device  : {} x {} ({}, {} SMs, {:.1f} GiB, {}); {}\n", ranks, first.name, first.arch,
             first.sm_count, first.global_mem_bytes / kGiB, first.runtime_version, library);
  fmt::print(human, "problem : fp32, sum, out-of-place, broadcast root {}; S from {} to {} by powers of two; seed {}\n",
             kBroadcastRoot, human_bytes(min_bytes), human_bytes(max_bytes), o.seed);
  fmt::print(human, "timing  : {}; up to {} timed launches per size within ~{:g} ms, {} warm-up\n", kTimingMethod,
             o.iters, o.budget_ms, o.warmup);
  fmt::print(human,
             "check   : every size, every rank, every element, exact (inputs are integers in [-8, 8]); "
             "outputs poisoned before the checked launch, checked again after timing\n");
  if (ranks == 1)
    fmt::print(human, "one GPU : one rank; bus bandwidth is not defined and the model has nothing to fit\n");
  else if (datasheet)
    fmt::print(human, "datasheet link (kind: model): alpha = {:g} us per step, B = {:g} GB/s per direction ({})\n",
               datasheet->alpha_us, datasheet->beta_GBps, datasheet->source);

  std::vector<OpResult> results;
  for (std::size_t oi = 0; oi < ops.size(); ++oi) {
    OpResult r{ops[oi], {}, {}, std::nullopt, ""};
    gpu::ProfilerRange range(std::string(name(r.op)).c_str());
    for (std::size_t si = 0; si < sizes.size(); ++si) {
      const CollectiveShape shape = shape_for(r.op, ranks, std::uint64_t(sizes[si]));
      if (shape.count == 0) {
        r.skipped_bytes.push_back(sizes[si]);
        continue;
      }
      if (progress)
        fmt::print(stderr, "[{} {}/{}] {}: {}...\n", name(r.op), si + 1, sizes.size(), human_bytes(shape.bytes),
                   "check, warm-up, time, check");
      const std::uint64_t seed = splitmix64(o.seed ^ splitmix64((oi << 8) + si));
      Row row = measure_size(*clique, shape, seed, o);
      row.requested_bytes = sizes[si];
      r.rows.push_back(row);
    }
    add_models(r, ranks, datasheet);
    print_op(human, r, ranks, datasheet, datasheet_note);
    results.push_back(std::move(r));
  }

  bool verified = true;
  std::vector<std::string> failed;
  for (const OpResult& r : results)
    for (const Row& row : r.rows)
      if (!row.verified()) {
        verified = false;
        const CollectiveCheck& c = row.before.wrong_elements > 0 ? row.before : row.after;
        failed.push_back(fmt::format("{} {} ({} wrong; first on rank {} at element {}: got {} expected {})", name(r.op),
                                     human_bytes(row.shape.bytes), c.wrong_elements, c.first_rank, c.first_index, c.got,
                                     c.expected));
      }

  // The clocks of every rank right after the sweep (open_device selects the GPU read_clocks reads).
  std::vector<gpu::ClockSample> clocks;
  for (int r = 0; r < ranks; ++r) {
    gpu::open_device(r);
    clocks.push_back(gpu::read_clocks());
  }
  gpu::open_device(0);

  outputs.write_csv(to_csv(results, ranks));
  if (outputs.plot()) {
    outputs.write_plot(to_svg(results, ranks, first.name));
    if (outputs.plot_path() != "-") fmt::print(human, "\nwrote {}\n", outputs.plot_path());
  }
  if (outputs.json()) {
    json env = json::object();
    for (char** e = environ; *e; ++e) {
      const std::string kv = *e;
      if (kv.rfind("NCCL_", 0) == 0 || kv.rfind("RCCL_", 0) == 0)
        env[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
    }
    json gpus = json::array();
    for (std::size_t r = 0; r < devices.size(); ++r) {
      json d = to_json(devices[r]);
      d["clocks"] = to_json(clocks[r]);
      gpus.push_back(std::move(d));
    }
    json ops_json = json::array();
    for (const OpResult& r : results) ops_json.push_back(op_json(r, ranks, datasheet, datasheet_note));
    json record = record_head(kProgram, "B07", "measurement", command_line(argc, argv));
    json device = to_json(first);  // rank 0; every rank's properties and clocks are in "gpus"
    device.update({{"ranks", ranks}, {"library", library}, {"gpus", gpus}});
    record["device"] = device;
    record["clocks"] = to_json(clocks.front());
    record["problem"] = {{"dtype", "fp32"},
                         {"reduction", "sum"},
                         {"placement", "out-of-place"},
                         {"broadcast_root", kBroadcastRoot},
                         {"min_bytes", min_bytes},
                         {"max_bytes", max_bytes},
                         {"max_bytes_requested", requested_max},
                         {"seed", o.seed},
                         {"inputs", "integers in [-8, 8] (exact fp32 sums), fresh per op and size"}};
    record["environment"] = env;
    record["timing"] = {{"method", kTimingMethod},
                        {"warmup", o.warmup},
                        {"iters_max", o.iters},
                        {"iters_min", std::min(kMinIterations, o.iters)},
                        {"budget_ms", o.budget_ms}};
    record["results"] = ops_json;
    record["verified"] = verified;
    record["model_source"] = kModelSource;
    if (!cap_note.empty()) record["notes"] = {{"memory_cap", cap_note}};
    outputs.write_json(record);
  }
  if (!verified) {
    fmt::print(stderr, "{}: check FAILED: {}\n", kProgram, fmt::join(failed, "; "));
    return kExitCheckFailed;
  }
  return kExitOk;
}

}  // namespace
}  // namespace tutor::b07

int main(int argc, char** argv) {
  return tutor::run_main("b07_collectives", [&] { return tutor::b07::run(argc, argv); });
}
