// tutor_baselines: the reference numbers of this device's runtime and vendor libraries, the
// ones the modules' READMEs compare their kernels with, measured and verified here.
//
//   tutor_baselines [--row NAME]... [--log2-elements 28] [--reps 50] [--warmup 5] [--json PATH]
//   tutor_baselines --list        the rows, what each measures and the bytes or FLOPs it counts
//
// Every row is timed with device events around each sample, after warm-up, and reported as
// the median with min and max; memory rows work on buffers many times the L2 and flush the L2
// before each sample. GB/s counts each input read once and each output written once; TFLOP/s
// counts 2 m n k for a GEMM. Every row whose result can be checked is checked against a host
// reference (in fp64, or exactly) after its timed loop, on an output poisoned before it.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "baselines.hpp"
#include "host_reference.hpp"
#include "tutor/cli.hpp"
#include "tutor/gpu.hpp"
#include "tutor/launcher.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"
#include "tutor/stats.hpp"
#include "tutor/verify.hpp"

namespace tutor::baselines {
namespace {

using nlohmann::json;

constexpr int kLaunchesPerSample = 1000;  // the launch rows time this many launches per sample
constexpr int kHistogramBins = 256;
constexpr int kGemmSizes[] = {4096, 8192};
// The small GEMM each math mode is checked on in full: odd sizes (no tile divides them) and a
// k long enough for the accumulation error to show.
constexpr int kCheckM = 383, kCheckN = 257, kCheckK = 1031;

struct Timing {
  int warmup = 5;
  int reps = 50;
};

/// What one row found.
struct Outcome {
  bool available = true;
  std::string library;           ///< the library and call, named by the vendor file
  Summary time_ms;               ///< per sample, or per launch for the launch rows
  std::optional<bool> verified;  ///< empty: the row computes nothing to check
  std::vector<ShapeCheck> checks;
  std::string note;              ///< why a row is unavailable, or what was checked instead
};

struct Context;

/// One row, declared once: --list, the run, the table and the record read the declaration.
struct Baseline {
  std::string name;
  std::string what;
  double bytes = 0;  ///< each input read once plus each output written once
  double flops = 0;
  std::function<Outcome(Context&)> run;
};

/// The buffers rows share: one input of n floats in [0, 1) (its host copy is every memory and
/// primitive row's reference) and one output, and the GEMM operands of the size in use.
struct GemmOperands {
  int size = 0;
  gpu::DeviceBuffer a, b, a16, b16, c;
  std::vector<float> host_a, host_b, host_a16, host_b16;  // downloaded on first use
};

struct Context {
  Timing timing;
  std::size_t n = 0;
  std::uint64_t seed = 0;
  gpu::DeviceBuffer in, out;
  std::vector<float> host_in;
  GemmOperands gemm;
  std::map<GemmMath, ShapeCheck> small_gemm_checks;

  void ensure_input() {
    if (in.bytes() != 0) return;
    in = gpu::DeviceBuffer(n * sizeof(float));
    out = gpu::DeviceBuffer(n * sizeof(float));
    TUTOR_LAUNCHER(fill_uniform)(in.as<float>(), n, seed, 0.0f, 1.0f);
    host_in.resize(n);
    in.download(host_in.data(), n * sizeof(float));
  }
};

// ---- timing and checks ---------------------------------------------------------------------

/// Median, min and max of `timing.reps` samples after `timing.warmup`, each the device time of
/// one call of `enqueue` divided by `per` (launches in one sample).
Summary time_samples(const std::string& name, const Timing& timing, bool flush_l2, int per,
                     const std::function<void()>& enqueue) {
  gpu::ProfilerRange range(name.c_str());  // ncu --nvtx --nvtx-include "<row>/" profiles one row
  gpu::Event start, stop;
  std::vector<double> ms;
  for (int i = 0; i < timing.warmup + timing.reps; ++i) {
    if (flush_l2) gpu::flush_l2();  // enqueued before `start`: not timed
    start.record();
    enqueue();
    stop.record();
    stop.synchronize();
    if (i >= timing.warmup) ms.push_back(stop.elapsed_ms_since(start) / per);
  }
  gpu::check_last_error(name.c_str());
  return summarize(ms);
}

std::vector<float> download_floats(const gpu::DeviceBuffer& buffer, std::size_t count) {
  std::vector<float> values(count);
  buffer.download(values.data(), count * sizeof(float));
  return values;
}

std::vector<float> download_bf16_as_floats(const gpu::DeviceBuffer& buffer, std::size_t count) {
  std::vector<std::uint16_t> bits(count);
  buffer.download(bits.data(), count * sizeof(std::uint16_t));
  std::vector<float> values(count);
  std::transform(bits.begin(), bits.end(), values.begin(), host::bf16_to_float);
  return values;
}

bool all_passed(const std::vector<ShapeCheck>& checks) {
  return !checks.empty() && std::all_of(checks.begin(), checks.end(), [](const auto& c) { return c.cmp.passed; });
}

// ---- memory rows -----------------------------------------------------------------------------

Outcome copy_row(Context& ctx, const std::string& name,
                 const std::function<void(float*, const float*, std::size_t)>& copy) {
  ctx.ensure_input();
  ctx.out.fill_u32(kPoisonBitsF32);  // an element the copy misses stays NaN and fails the check
  Outcome o;
  o.time_ms = time_samples(name, ctx.timing, true, 1, [&] { copy(ctx.out.as<float>(), ctx.in.as<float>(), ctx.n); });
  const std::vector<float> got = download_floats(ctx.out, ctx.n);
  o.checks.push_back({"output after the timed loop vs input (exact)", compare(got, ctx.host_in, 0.0)});
  o.verified = all_passed(o.checks);
  return o;
}

// ---- launch rows -------------------------------------------------------------------------

Outcome launch_row(Context& ctx, const std::string& name) {
  Outcome o;
  o.time_ms = time_samples(name, ctx.timing, false, kLaunchesPerSample,
                           [] { TUTOR_LAUNCHER(empty_kernels)(kLaunchesPerSample); });
  o.note = fmt::format("per launch: {} launches per sample; an empty kernel has no output (launch status checked)",
                       kLaunchesPerSample);
  return o;
}

Outcome graph_row(Context& ctx, const std::string& name) {
  Outcome o;
  void* graph = TUTOR_LAUNCHER(capture_empty_kernel_graph)(kLaunchesPerSample);
  try {
    o.time_ms = time_samples(name, ctx.timing, false, kLaunchesPerSample, [&] { TUTOR_LAUNCHER(launch_graph)(graph); });
  } catch (...) {
    TUTOR_LAUNCHER(destroy_graph)(graph);
    throw;
  }
  TUTOR_LAUNCHER(destroy_graph)(graph);
  o.note = fmt::format("per kernel: one replay of a graph of {} captured empty kernels per sample; no output "
                       "(launch status checked)", kLaunchesPerSample);
  return o;
}

// ---- GEMM rows -----------------------------------------------------------------------------

const char* math_id(GemmMath math) {
  switch (math) {
    case GemmMath::fp32: return "fp32";
    case GemmMath::tf32: return "tf32";
    case GemmMath::bf16: return "bf16";
  }
  return "";
}

/// The relative-L2 bound for a GEMM of depth k against an fp64 reference of the inputs the
/// library was given. fp32: fp32 accumulation. TF32: inputs rounded to a 10-bit mantissa.
/// bf16: the inputs are exact (the reference uses the rounded values), but tensor-core
/// accumulation is not IEEE fp32 (addends are aligned and truncated: Fasi, Higham, Mikaitis,
/// Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ Comput. Sci. 7:e330, 2021), so
/// it gets the tensor-core (TF32) bound.
double gemm_tolerance(GemmMath math, int k) {
  return default_tolerance(math == GemmMath::fp32 ? DType::f32 : DType::tf32, static_cast<std::size_t>(k));
}

/// Device operands (fp32, and bf16 for the bf16 math) filled with fresh values in [-1, 1).
struct GemmInputs {
  const void* a;
  const void* b;
};

GemmInputs device_inputs(GemmMath math, const GemmOperands& g) {
  if (math == GemmMath::bf16) return {g.a16.get(), g.b16.get()};
  return {g.a.get(), g.b.get()};
}

void fill_gemm_operands(GemmOperands& g, int m, int n, int k, std::uint64_t seed) {
  const auto mk = static_cast<std::size_t>(m) * k, kn = static_cast<std::size_t>(k) * n;
  g.a = gpu::DeviceBuffer(mk * 4);
  g.b = gpu::DeviceBuffer(kn * 4);
  g.a16 = gpu::DeviceBuffer(mk * 2);
  g.b16 = gpu::DeviceBuffer(kn * 2);
  g.c = gpu::DeviceBuffer(static_cast<std::size_t>(m) * n * 4);
  TUTOR_LAUNCHER(fill_uniform)(g.a.as<float>(), mk, seed ^ 0xa, -1.0f, 1.0f);
  TUTOR_LAUNCHER(fill_uniform)(g.b.as<float>(), kn, seed ^ 0xb, -1.0f, 1.0f);
  TUTOR_LAUNCHER(round_to_bf16)(g.a.as<float>(), g.a16.as<std::uint16_t>(), mk);
  TUTOR_LAUNCHER(round_to_bf16)(g.b.as<float>(), g.b16.as<std::uint16_t>(), kn);
  g.host_a.clear();
  g.host_b.clear();
  g.host_a16.clear();
  g.host_b16.clear();
}

/// The host copies of the inputs `math` reads (bf16 ones converted exactly to float).
std::pair<const std::vector<float>*, const std::vector<float>*> host_inputs(GemmMath math, GemmOperands& g, int m,
                                                                            int n, int k) {
  const auto mk = static_cast<std::size_t>(m) * k, kn = static_cast<std::size_t>(k) * n;
  if (math == GemmMath::bf16) {
    if (g.host_a16.empty()) g.host_a16 = download_bf16_as_floats(g.a16, mk);
    if (g.host_b16.empty()) g.host_b16 = download_bf16_as_floats(g.b16, kn);
    return {&g.host_a16, &g.host_b16};
  }
  if (g.host_a.empty()) g.host_a = download_floats(g.a, mk);
  if (g.host_b.empty()) g.host_b = download_floats(g.b, kn);
  return {&g.host_a, &g.host_b};
}

/// Rows `rows` of the device's C against the fp64 reference.
Comparison check_gemm_rows(GemmMath math, GemmOperands& g, int m, int n, int k, const std::vector<int>& rows) {
  const auto [a, b] = host_inputs(math, g, m, n, k);
  const std::vector<double> ref = host::gemm_rows(*a, *b, n, k, rows);
  const std::vector<float> c = download_floats(g.c, static_cast<std::size_t>(m) * n);
  std::vector<float> got;
  got.reserve(ref.size());
  for (int r : rows) got.insert(got.end(), c.begin() + static_cast<std::ptrdiff_t>(r) * n, c.begin() + static_cast<std::ptrdiff_t>(r + 1) * n);
  return compare(got, ref, gemm_tolerance(math, k));
}

/// The whole small product, once per math mode.
ShapeCheck small_gemm_check(Context& ctx, GemmMath math) {
  if (auto it = ctx.small_gemm_checks.find(math); it != ctx.small_gemm_checks.end()) return it->second;
  GemmOperands g;
  fill_gemm_operands(g, kCheckM, kCheckN, kCheckK, ctx.seed ^ 0x5a11);
  g.c.fill_u32(kPoisonBitsF32);
  const GemmInputs in = device_inputs(math, g);
  TUTOR_LAUNCHER(gemm)(math, kCheckM, kCheckN, kCheckK, in.a, in.b, g.c.get());
  gpu::synchronize();
  std::vector<int> all(kCheckM);
  for (int i = 0; i < kCheckM; ++i) all[i] = i;
  ShapeCheck check{fmt::format("{}x{}x{}, all of C vs fp64", kCheckM, kCheckN, kCheckK),
                   check_gemm_rows(math, g, kCheckM, kCheckN, kCheckK, all)};
  ctx.small_gemm_checks.emplace(math, check);
  return check;
}

Outcome gemm_row(Context& ctx, const std::string& name, GemmMath math, int size) {
  Outcome o;
  o.library = TUTOR_LAUNCHER(blas_name)(math);
  if (!TUTOR_LAUNCHER(blas_available)()) {
    o.available = false;
    o.note = o.library;
    return o;
  }
  o.checks.push_back(small_gemm_check(ctx, math));
  if (ctx.gemm.size != size) {
    ctx.gemm = GemmOperands{};  // frees the previous size first
    fill_gemm_operands(ctx.gemm, size, size, size, ctx.seed ^ static_cast<std::uint64_t>(size));
    ctx.gemm.size = size;
  }
  GemmOperands& g = ctx.gemm;
  g.c.fill_u32(kPoisonBitsF32);
  const GemmInputs in = device_inputs(math, g);
  o.time_ms = time_samples(name, ctx.timing, false, 1,
                           [&] { TUTOR_LAUNCHER(gemm)(math, size, size, size, in.a, in.b, g.c.get()); });
  const std::vector<int> rows = {0, size / 2 + 1, size - 1};
  o.checks.push_back({fmt::format("rows 0, {}, {} of the timed C vs fp64", size / 2 + 1, size - 1),
                      check_gemm_rows(math, g, size, size, size, rows)});
  o.verified = all_passed(o.checks);
  return o;
}

// ---- primitive rows --------------------------------------------------------------------------

Outcome unavailable_primitives() {
  Outcome o;
  o.available = false;
  o.library = TUTOR_LAUNCHER(primitives_name)();
  o.note = o.library;
  return o;
}

Outcome sum_row(Context& ctx, const std::string& name) {
  if (!TUTOR_LAUNCHER(primitives_available)()) return unavailable_primitives();
  ctx.ensure_input();
  Outcome o;
  o.library = TUTOR_LAUNCHER(primitives_name)();
  const std::size_t ws_bytes = TUTOR_LAUNCHER(sum_workspace_bytes)(ctx.n);
  gpu::DeviceBuffer ws(std::max<std::size_t>(ws_bytes, 16)), result(sizeof(float));
  result.fill_u32(kPoisonBitsF32);
  o.time_ms = time_samples(name, ctx.timing, true, 1, [&] {
    TUTOR_LAUNCHER(sum)(ctx.in.as<float>(), result.as<float>(), ctx.n, ws.get(), ws_bytes);
  });
  const std::vector<float> got = download_floats(result, 1);
  const std::vector<double> ref = {host::sum(ctx.host_in)};
  o.checks.push_back({"sum after the timed loop vs fp64", compare(got, ref, default_tolerance(DType::f32, ctx.n))});
  o.verified = all_passed(o.checks);
  return o;
}

Outcome scan_row(Context& ctx, const std::string& name) {
  if (!TUTOR_LAUNCHER(primitives_available)()) return unavailable_primitives();
  ctx.ensure_input();
  Outcome o;
  o.library = TUTOR_LAUNCHER(primitives_name)();
  const std::size_t ws_bytes = TUTOR_LAUNCHER(inclusive_scan_workspace_bytes)(ctx.n);
  gpu::DeviceBuffer ws(std::max<std::size_t>(ws_bytes, 16));
  ctx.out.fill_u32(kPoisonBitsF32);
  o.time_ms = time_samples(name, ctx.timing, true, 1, [&] {
    TUTOR_LAUNCHER(inclusive_scan)(ctx.in.as<float>(), ctx.out.as<float>(), ctx.n, ws.get(), ws_bytes);
  });
  const std::vector<float> got = download_floats(ctx.out, ctx.n);
  const std::vector<double> ref = host::inclusive_scan(ctx.host_in);
  o.checks.push_back({"every prefix after the timed loop vs fp64", compare(got, ref, default_tolerance(DType::f32, ctx.n))});
  o.verified = all_passed(o.checks);
  return o;
}

/// Counts must match exactly: bins of width 1/256 over [0, 1) are exact in fp32.
Comparison compare_counts(const std::vector<int>& got, const std::vector<std::int64_t>& ref) {
  Comparison c;
  c.count = got.size();
  c.tolerance = 0;
  double err2 = 0, ref2 = 0;
  for (std::size_t i = 0; i < got.size() && i < ref.size(); ++i) {
    const double d = static_cast<double>(got[i]) - static_cast<double>(ref[i]);
    err2 += d * d;
    ref2 += static_cast<double>(ref[i]) * static_cast<double>(ref[i]);
    c.max_abs_err = std::max(c.max_abs_err, std::abs(d));
    if (d != 0 && c.mismatches++ == 0) c.first_mismatch = i;
  }
  c.rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  if (got.size() != ref.size())
    c.reason = fmt::format("size mismatch: got {} bins, reference {}", got.size(), ref.size());
  else if (c.mismatches > 0)
    c.reason = fmt::format("{} of {} bins differ; first at bin {}", c.mismatches, c.count, *c.first_mismatch);
  c.passed = c.reason.empty();
  return c;
}

Outcome histogram_row(Context& ctx, const std::string& name) {
  if (!TUTOR_LAUNCHER(primitives_available)()) return unavailable_primitives();
  ctx.ensure_input();
  Outcome o;
  o.library = TUTOR_LAUNCHER(primitives_name)();
  const std::size_t ws_bytes = TUTOR_LAUNCHER(histogram_workspace_bytes)(ctx.n, kHistogramBins);
  gpu::DeviceBuffer ws(std::max<std::size_t>(ws_bytes, 16)), counts(kHistogramBins * sizeof(int));
  counts.fill_u32(kPoisonBitsF32);
  o.time_ms = time_samples(name, ctx.timing, true, 1, [&] {
    TUTOR_LAUNCHER(histogram_even)(ctx.in.as<float>(), counts.as<int>(), ctx.n, kHistogramBins, 0.0f, 1.0f, ws.get(),
                                   ws_bytes);
  });
  std::vector<int> got(kHistogramBins);
  counts.download(got.data(), got.size() * sizeof(int));
  o.checks.push_back({"256 counts after the timed loop vs host (exact)",
                      compare_counts(got, host::histogram_even(ctx.host_in, kHistogramBins, 0.0f, 1.0f))});
  o.verified = all_passed(o.checks);
  return o;
}

// ---- the rows ------------------------------------------------------------------------------

std::vector<Baseline> declare_rows(std::size_t n) {
  const double buffer = static_cast<double>(n) * sizeof(float);
  const std::string size_text = fmt::format("{} fp32 ({} MiB)", thousands(static_cast<std::int64_t>(n)),
                                            static_cast<std::int64_t>(buffer) >> 20);
  std::vector<Baseline> rows = {
      {"memcpy_d2d", "the runtime's device-to-device copy (cudaMemcpyAsync; hipMemcpyAsync on AMD) of " + size_text,
       2 * buffer, 0, [](Context& c) {
         return copy_row(c, "memcpy_d2d", [](float* d, const float* s, std::size_t n) {
           TUTOR_LAUNCHER(runtime_copy)(d, s, n * sizeof(float));
         });
       }},
      {"float4_copy", "grid-stride copy kernel, 16-byte loads and stores, one wave of blocks, " + size_text,
       2 * buffer, 0, [](Context& c) {
         return copy_row(c, "float4_copy", [](float* d, const float* s, std::size_t n) {
           TUTOR_LAUNCHER(float4_copy)(d, s, n);
         });
       }},
      {"launch_empty_kernel",
       fmt::format("empty kernel <<<1, 1>>>, {} launched back to back on one stream; time per launch", kLaunchesPerSample),
       0, 0, [](Context& c) { return launch_row(c, "launch_empty_kernel"); }},
      {"graph_empty_kernel",
       fmt::format("graph replay of {} captured empty kernels (cudaGraphLaunch; hipGraphLaunch on AMD); time per kernel",
                   kLaunchesPerSample),
       0, 0, [](Context& c) { return graph_row(c, "graph_empty_kernel"); }},
  };
  for (int s : kGemmSizes) {
    const double sd = s;
    for (GemmMath math : {GemmMath::fp32, GemmMath::tf32, GemmMath::bf16}) {
      const double elem = math == GemmMath::bf16 ? 2 : 4;
      const std::string name = fmt::format("gemm_{}_{}", math_id(math), s);
      const char* how = math == GemmMath::fp32   ? "fp32 in and out, fp32 FMA (no tensor cores)"
                        : math == GemmMath::tf32 ? "fp32 in and out, TF32 tensor cores, fp32 accumulation"
                                                 : "bf16 in, fp32 accumulation and out, bf16 tensor cores";
      rows.push_back({name, fmt::format("vendor BLAS GEMM m=n=k={}, {}", s, how),
                      2 * elem * sd * sd + 4 * sd * sd, 2 * sd * sd * sd,
                      [name, math, s](Context& c) { return gemm_row(c, name, math, s); }});
    }
  }
  rows.push_back({"reduce_sum", "device-wide sum (CUB DeviceReduce::Sum; rocPRIM reduce on AMD) of " + size_text,
                  buffer + 4, 0, [](Context& c) { return sum_row(c, "reduce_sum"); }});
  rows.push_back({"inclusive_scan",
                  "device-wide inclusive prefix sum (CUB DeviceScan::InclusiveSum; rocPRIM inclusive_scan on AMD) of " +
                      size_text,
                  2 * buffer, 0, [](Context& c) { return scan_row(c, "inclusive_scan"); }});
  rows.push_back({"histogram_even_256",
                  "256-bin histogram over [0, 1) (CUB DeviceHistogram::HistogramEven; rocPRIM histogram_even on AMD) of " +
                      size_text,
                  buffer + 4.0 * kHistogramBins, 0, [](Context& c) { return histogram_row(c, "histogram_even_256"); }});
  return rows;
}

// ---- output --------------------------------------------------------------------------------

struct RowResult {
  const Baseline* row;
  Outcome outcome;
  std::string error;  ///< a runtime or library failure in this row (the row then counts as failed)
};

double rate_GBps(const RowResult& r) { return r.row->bytes / (r.outcome.time_ms.median * 1e-3) / 1e9; }
double rate_TFLOPs(const RowResult& r) { return r.row->flops / (r.outcome.time_ms.median * 1e-3) / 1e12; }
bool timed(const RowResult& r) { return r.error.empty() && r.outcome.available && r.outcome.time_ms.n > 0; }

std::string time_text(const RowResult& r) {
  const Summary& t = r.outcome.time_ms;
  if (r.row->bytes == 0 && r.row->flops == 0)  // launch rows: microseconds per launch
    return fmt::format("{:.3f} us ({:.3f}-{:.3f})", t.median * 1e3, t.min * 1e3, t.max * 1e3);
  return fmt::format("{:.4g} ms ({:.4g}-{:.4g})", t.median, t.min, t.max);
}

std::string rate_text(const RowResult& r) {
  if (r.row->flops > 0) return fmt::format("{:.1f} TFLOP/s", rate_TFLOPs(r));
  if (r.row->bytes > 0) return fmt::format("{:.0f} GB/s", rate_GBps(r));
  return "-";
}

std::string verified_text(const RowResult& r) {
  if (!r.outcome.verified) return "-";
  if (!*r.outcome.verified) return "FAILED";
  double worst = 0;
  for (const auto& c : r.outcome.checks) worst = std::max(worst, c.cmp.rel_l2);
  return worst == 0 ? "yes (exact)" : fmt::format("yes ({:.1e})", worst);
}

void print_table(std::FILE* out, const gpu::DeviceInfo& d, const Timing& timing, const std::vector<RowResult>& rows) {
  fmt::print(out, "tutor_baselines on {} ({}, {} SMs, {} MiB L2, {})\n", d.name, d.arch, d.sm_count, d.l2_bytes >> 20,
             d.runtime_version);
  fmt::print(out, "kind: measurement; median (min-max) of {} samples after {} warm-ups, device events; L2 flushed "
                  "before each sample of the memory and primitive rows\n", timing.reps, timing.warmup);
  fmt::print(out, "GB/s: each input read once + each output written once; verified: worst relative L2 error vs the "
                  "host reference\n\n");
  fmt::print(out, "{:<20} {:>32} {:>14}  {:<12}\n", "row", "median (min-max)", "rate", "verified");
  for (const auto& r : rows) {
    if (!r.error.empty()) {
      fmt::print(out, "{:<20} error: {}\n", r.row->name, r.error);
    } else if (!r.outcome.available) {
      fmt::print(out, "{:<20} not available in this build: {}\n", r.row->name, r.outcome.note);
    } else {
      fmt::print(out, "{:<20} {:>32} {:>14}  {:<12}\n", r.row->name, time_text(r), rate_text(r), verified_text(r));
    }
  }
  fmt::print(out, "\n");
  for (const auto& r : rows)
    if (!r.outcome.library.empty() && r.outcome.available && r.error.empty())
      fmt::print(out, "{}: {}\n", r.row->name, r.outcome.library);
}

json row_json(const RowResult& r) {
  json checks = json::array();
  for (const auto& c : r.outcome.checks) {
    json j = to_json(c.cmp);
    j["case"] = c.shape;
    checks.push_back(std::move(j));
  }
  json j = {{"name", r.row->name},
            {"what", r.row->what},
            {"available", r.outcome.available},
            {"library", r.outcome.library.empty() ? json(nullptr) : json(r.outcome.library)},
            {"bytes", r.row->bytes},
            {"flops", r.row->flops},
            {"verified", r.outcome.verified ? json(*r.outcome.verified) : json(nullptr)},
            {"checks", checks}};
  if (timed(r)) {
    const Summary& t = r.outcome.time_ms;
    j["time_ms"] = {{"min", t.min}, {"median", t.median}, {"max", t.max}, {"n", t.n}};
    j["GBps"] = r.row->bytes > 0 ? json(rate_GBps(r)) : json(nullptr);
    j["TFLOPs"] = r.row->flops > 0 ? json(rate_TFLOPs(r)) : json(nullptr);
  } else {
    j["time_ms"] = j["GBps"] = j["TFLOPs"] = nullptr;
  }
  if (!r.outcome.note.empty()) j["note"] = r.outcome.note;
  if (!r.error.empty()) {
    j["error"] = r.error;
    j["verified"] = false;
  }
  return j;
}

// ---- command line ------------------------------------------------------------------------------

int run(int argc, char** argv) {
  CLI::App app{"The reference numbers of this GPU's runtime and vendor libraries (device-to-device copy, a "
               "float4 copy kernel, kernel launch and graph replay overhead, vendor BLAS GEMM in fp32, TF32 and "
               "bf16, device-wide sum, scan and histogram), each timed with device events and verified against a "
               "host reference", "tutor_baselines"};
  int device = 0, log2_elements = 28;
  Timing timing;
  std::uint64_t seed = 0;
  std::vector<std::string> only;
  bool list = false;
  app.add_option("--device", device, "GPU index")->check(decimal_integer())->check(CLI::Range(0, 63));
  app.add_option("--row", only, "measure only this row (repeatable; names from --list)");
  app.add_flag("--list", list, "list the rows, what each measures and the bytes or FLOPs it counts; measures nothing");
  app.add_option("--log2-elements", log2_elements,
                 "fp32 elements of the memory and primitive rows, as a power of two (default 28: 1 GiB, "
                 "many times any L2)")
      ->check(decimal_integer())->check(CLI::Range(20, 30));
  app.add_option("--reps", timing.reps, "timed samples per row (default 50)")
      ->check(decimal_integer())->check(CLI::Range(1, 1000));
  app.add_option("--warmup", timing.warmup, "untimed samples before them (default 5)")
      ->check(decimal_integer())->check(CLI::Range(0, 100));
  auto* seed_opt = app.add_option("--seed", seed, "seed of the random inputs (default: fresh each run, printed)")
                       ->check(decimal_integer());
  Outputs out(app);
  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  out.check();

  const std::size_t n = std::size_t(1) << log2_elements;
  const std::vector<Baseline> rows = declare_rows(n);
  for (const auto& name : only)
    if (std::none_of(rows.begin(), rows.end(), [&](const Baseline& b) { return b.name == name; })) {
      std::string names;
      for (const auto& b : rows) names += (names.empty() ? "" : ", ") + b.name;
      throw UsageError(fmt::format("--row: unknown row '{}'; allowed: {}", name, names));
    }
  if (list) {
    out.refuse("--list prints the rows and measures nothing");
    for (const auto& b : rows) {
      const std::string counts = b.flops > 0   ? fmt::format("{:.4g} FLOP", b.flops)
                                 : b.bytes > 0 ? fmt::format("{:.4g} B", b.bytes)
                                               : std::string("per launch");
      fmt::print("{:<20} {:>14}  {}\n", b.name, counts, b.what);
    }
    return kExitOk;
  }

  const gpu::DeviceInfo info = gpu::open_device(device);  // no GPU: gpu::NoDevice, exit 3
  const gpu::ClockSample clocks_start = gpu::read_clocks();
  if (seed_opt->count() == 0) seed = fresh_seed();
  Context ctx;
  ctx.timing = timing;
  ctx.n = n;
  ctx.seed = seed;
  const bool progress = ::isatty(STDERR_FILENO);
  std::vector<RowResult> results;
  for (const auto& b : rows) {
    if (!only.empty() && std::find(only.begin(), only.end(), b.name) == only.end()) continue;
    if (progress) fmt::print(stderr, "{}...\n", b.name);
    RowResult r{&b, {}, {}};
    try {
      r.outcome = b.run(ctx);
    } catch (const gpu::Error& e) {
      r.error = e.what();  // recorded; later rows still run (a sticky fault fails them too)
    }
    results.push_back(std::move(r));
  }

  print_table(out.human(), info, timing, results);
  fmt::print(out.human(), "seed: {} (--seed {} repeats these inputs)\n", seed, seed);

  json record = record_head("tutor_baselines", "common", "measurement", command_line(argc, argv));
  record["device"] = to_json(info);
  // A row measured while the GPU was power- or thermally-limited shows it here.
  record["clocks"] = {{"start", to_json(clocks_start)}, {"end", to_json(gpu::read_clocks())}};
  record["problem"] = {
      {"elements", n},
      {"buffer_bytes", n * sizeof(float)},
      {"gemm_sizes", kGemmSizes},
      {"gemm_check", {{"m", kCheckM}, {"n", kCheckN}, {"k", kCheckK}}},
      {"histogram_bins", kHistogramBins},
      {"launches_per_sample", kLaunchesPerSample},
      {"reps", timing.reps},
      {"warmup", timing.warmup},
      {"seed", seed},
      {"timing", "device events around each sample; median, min and max of reps samples after warmup; the L2 is "
                 "flushed before each sample of the memory and primitive rows (not the GEMM and launch rows)"},
      {"bytes", "each input read once plus each output written once (a copy of B bytes counts 2B)"},
      {"flops", "2 m n k per GEMM"}};
  json out_rows = json::array();
  bool failed = false;
  for (const auto& r : results) {
    out_rows.push_back(row_json(r));
    failed = failed || !r.error.empty() || (r.outcome.verified && !*r.outcome.verified);
  }
  record["rows"] = out_rows;
  out.write_json(record);
  return failed ? kExitCheckFailed : kExitOk;
}

}  // namespace
}  // namespace tutor::baselines

int main(int argc, char** argv) {
  return tutor::run_main("tutor_baselines", [&] { return tutor::baselines::run(argc, argv); });
}
