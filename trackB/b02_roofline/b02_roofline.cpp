// b02_roofline: find the roofline of this GPU by measuring it, and place any kernel on it.
//
//   b02_roofline [sweep]  a kernel whose arithmetic intensity is set at run time, swept from
//                         1/8 to 1024 FLOP/byte (fp32, and bf16 on the vector units); every
//                         point verified and timed; the roofline fitted to the points.
//   b02_roofline model    the analytic roofline of a GPU of the table (no GPU needed).
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline_fit.hpp"
#include "sweep.hpp"
#include "tutor/cli.hpp"
#include "tutor/gpu.hpp"
#include "tutor/hardware.hpp"
#include "tutor/lab.hpp"
#include "tutor/ladder.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/output.hpp"
#include "tutor/launcher.hpp"
#include "tutor/report.hpp"
#include "tutor/roofline.hpp"
#include "tutor/svg_plot.hpp"

namespace tutor::b02 {
namespace {

// ---- the data types of the sweep --------------------------------------------------------

/// One data type of the sweep: element size, its launcher, and how to turn a float into the
/// element's bits and back on the host.
struct SweepType {
  std::string name;          // "fp32" | "bf16"
  std::size_t elem_bytes;    // 4 | 2
  double min_intensity;      // lowest reachable with >= 1 FLOP per element
};
const SweepType kFp32{"fp32", 4, 1.0 / 8};
const SweepType kBf16{"bf16", 2, 1.0 / 4};

/// bf16 = the top 16 bits of fp32, rounded to nearest even (Kalamkar et al., "A Study of
/// BFLOAT16 for Deep Learning Training", 2019, sec. 2).
std::uint16_t to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}
float from_bf16(std::uint16_t h) {
  const std::uint32_t u = std::uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// f_k of sweep.hpp, in double on the host: the reference every point is checked against.
double reference(double x, int flops) {
  if (flops == 1) return x * kSweepA;
  for (int i = 0; i < flops / 2; ++i) x = x * kSweepA + kSweepB;
  return x;
}

/// One point of the sweep: n elements of fresh random input, f_k with k FLOPs per element.
/// The output is checked for unwritten (poisoned) elements everywhere and against the fp64
/// reference on 65,536 evenly spaced elements plus the last 8 (the tail path).
class SweepCase {
 public:
  SweepCase(const SweepType& type, std::size_t n, int flops, std::uint64_t seed)
      : type_(type), n_(n), flops_(flops), in_(n * type.elem_bytes), out_(n * type.elem_bytes) {
    std::vector<float> x(n);
    fill_random(x, seed);
    std::vector<std::uint8_t> bits(n * type.elem_bytes);
    for (std::size_t i = 0; i < n; ++i) {
      if (type.elem_bytes == 4) std::memcpy(&bits[4 * i], &x[i], 4);
      else { const auto h = to_bf16(x[i]); std::memcpy(&bits[2 * i], &h, 2); }
    }
    in_.upload(bits.data(), bits.size());
    const std::size_t step = std::max<std::size_t>(1, n / 65536);
    for (std::size_t i = 0; i < n; i += step) sample_.push_back(i);
    for (std::size_t i = n >= 8 ? n - 8 : 0; i < n; ++i) sample_.push_back(i);
    for (std::size_t i : sample_) {
      const double xi = type.elem_bytes == 4 ? double(x[i]) : double(from_bf16(to_bf16(x[i])));
      expected_.push_back(reference(xi, flops));
    }
  }
  std::string label() const { return fmt::format("{} n={} k={}", type_.name, n_, flops_); }
  void poison() { out_.fill_u32(kPoisonBitsF32); }  // NaN in fp32; 0x7fff/0xedcb NaN-or-huge in bf16
  Comparison check() {
    std::vector<std::uint8_t> bits(n_ * type_.elem_bytes);
    out_.download(bits.data(), bits.size());
    std::vector<float> got;
    got.reserve(sample_.size());
    std::size_t unwritten = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const float v = value(bits, i);
      if (!std::isfinite(v) || std::abs(v) > 4) ++unwritten;  // f_k maps [-1, 1) into [-0.5, 1]
    }
    for (std::size_t i : sample_) got.push_back(value(bits, i));
    // fp32 chains round once per FMA, bf16 chains once per step: the map contracts by a = 0.5,
    // so rounding errors stay at a few units in the last place whatever k is.
    const double tol = type_.elem_bytes == 4 ? default_tolerance(DType::f32, 64)
                                             : default_tolerance(DType::bf16, 4);
    Comparison c = compare(got, expected_, tol);
    if (unwritten > 0) {
      c.passed = false;
      c.reason = fmt::format("{} of {} elements unwritten or out of range", unwritten, n_);
    }
    return c;
  }
  double bytes() const { return 2.0 * double(n_) * double(type_.elem_bytes); }
  double flops() const { return double(n_) * flops_; }
  double intensity() const { return flops() / bytes(); }
  void run() {
    if (type_.elem_bytes == 4)
      TUTOR_LAUNCHER(launch_sweep_fp32)(in_.as<float>(), out_.as<float>(), n_, flops_);
    else
      TUTOR_LAUNCHER(launch_sweep_bf16)(in_.as<std::uint16_t>(), out_.as<std::uint16_t>(), n_, flops_);
  }

 private:
  float value(const std::vector<std::uint8_t>& bits, std::size_t i) const {
    if (type_.elem_bytes == 4) { float f; std::memcpy(&f, &bits[4 * i], 4); return f; }
    std::uint16_t h;
    std::memcpy(&h, &bits[2 * i], 2);
    return from_bf16(h);
  }
  SweepType type_;
  std::size_t n_;
  int flops_;
  gpu::DeviceBuffer in_, out_;
  std::vector<std::size_t> sample_;
  std::vector<double> expected_;
};

std::string intensity_label(double i) {
  return i >= 1 ? fmt::format("{:g}", i) : fmt::format("1/{:g}", 1 / i);
}

// ---- sweep ------------------------------------------------------------------------------

struct SweepOptions {
  std::vector<std::string> dtypes{"fp32", "bf16"};
  double min_intensity = 1.0 / 8, max_intensity = 1024;
  int max_elements_log2 = 26;
};

/// Elements per point: 2^26 by default (512 MiB of fp32 traffic, 8x a 60 MB L2) while the
/// point is cheap, fewer at high intensity so each launch stays near 2^34 FLOPs (~0.3 ms at
/// 60 TFLOP/s), and never fewer than 2^20 (or the cap, if it is lower).
std::size_t elements_for(int flops, int max_log2) {
  const std::size_t base = std::size_t(1) << max_log2;
  return std::max<std::size_t>(std::min(base, std::size_t(1) << 20), std::min(base, base * 256 / std::size_t(flops)));
}

int run_sweep(const SweepOptions& o, GpuLab& lab) {
  std::FILE* human = lab.human();
  const DeviceRecord& device = lab.open();
  const std::uint64_t seed = lab.seed();
  const Ceiling roof{"measured roofline: min(fp32 FMA rate, intensity x copy bandwidth)", device.fma_TFLOPs,
                     CeilingUnit::TFLOPs};
  const TimingOptions timing{lab.run().warmup, lab.run().reps, lab.run().flush_l2, {}};
  std::vector<StepResult> variants;

  nlohmann::json fits = nlohmann::json::object();
  std::vector<PlotSeries> series;
  std::vector<std::pair<double, std::string>> markers;
  std::string csv = "dtype,intensity_flop_per_byte,flops_per_element,elements,bytes,flops,"
                    "time_ms_median,time_ms_min,time_ms_max,TFLOPs,GBps,verified\n";
  const char* colors[] = {"#1f77b4", "#d62728"};
  int color = 0;
  for (const auto& dname : o.dtypes) {
    const SweepType& type = dname == "fp32" ? kFp32 : kBf16;
    std::vector<RooflinePoint> points;
    std::vector<std::pair<double, double>> measured;
    std::vector<StepResult> rows;  // this dtype's points, finished on their own
    // A small odd-sized case checks the tail path of every point (n % 8 != 0).
    for (double I = std::max(o.min_intensity, type.min_intensity); I <= o.max_intensity * 1.0001; I *= 2) {
      const int k = static_cast<int>(std::lround(I * 2 * double(type.elem_bytes)));
      SweepCase odd(type, 1000003, k, seed + 7 * k + 1);
      SweepCase timed(type, elements_for(k, o.max_elements_log2), k, seed + 7 * k + 2);
      const Step<SweepCase> step{declare(0, fmt::format("{} I={}", type.name, intensity_label(I)),
                                         fmt::format("{} FLOP(s) per {}-byte element", k, 2 * type.elem_bytes),
                                         "on the roofline"),
                                 [](SweepCase& c) { c.run(); }};
      if (lab.progress()) fmt::print(stderr, "{}...\n", step.info.name);
      SweepCase* checks[] = {&odd};
      rows.push_back(run_step(step, std::span<SweepCase* const>(checks), timed, timing));
    }
    finish_ladder(rows, roof);
    for (auto& r : rows) {
      r.speedup_vs_prev = r.speedup_vs_first = 0;  // a sweep is not a ladder
      const double I = r.flops / r.bytes;
      if (r.timed) {
        r.fraction_of_ceiling = r.TFLOPs / std::min(device.fma_TFLOPs, I * device.copy_GBps / 1e3);
        if (r.verified) points.push_back({I, r.TFLOPs}), measured.push_back({I, r.TFLOPs});
      }
      csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", type.name, I,
                         std::lround(r.flops / (r.bytes / (2.0 * type.elem_bytes))),
                         std::llround(r.bytes / (2.0 * type.elem_bytes)), r.bytes, r.flops,
                         r.time_ms.median, r.time_ms.min, r.time_ms.max, r.TFLOPs, r.GBps, r.verified);
    }
    variants.insert(variants.end(), rows.begin(), rows.end());
    if (points.size() < 3) continue;
    const RooflineFit fit = fit_roofline(points);
    const double measured_ridge = roofline::ridge_point(device.fma_TFLOPs, device.copy_GBps);
    fits[type.name] = {{"memory_roof_GBps", fit.bandwidth_GBps},
                       {"compute_roof_TFLOPs", fit.peak_TFLOPs},
                       {"ridge_point_flop_per_byte", fit.ridge_point},
                       {"rms_log_residual", fit.rms_log_residual},
                       {"max_rel_residual", fit.max_rel_residual},
                       {"memory_bound_points", fit.memory_bound_points},
                       {"compute_bound_points", fit.compute_bound_points},
                       {"memory_roof_over_copy", fit.bandwidth_GBps / device.copy_GBps}};
    if (type.name == "fp32") {
      fits["fp32"]["compute_roof_over_fma"] = fit.peak_TFLOPs / device.fma_TFLOPs;
      fits["fp32"]["measured_ridge_fma_over_copy"] = measured_ridge;
      fits["fp32"]["ridge_over_measured_ridge"] = fit.ridge_point / measured_ridge;
    }
    const auto& c = colors[color++ % 2];
    series.push_back({type.name + " measured", measured, PlotSeries::Style::markers, c});
    std::vector<std::pair<double, double>> roof;
    for (double I = points.front().intensity; I <= points.back().intensity * 1.0001; I *= std::sqrt(2.0))
      roof.push_back({I, fit.bandwidth_GBps / 1e3 * std::min(I, fit.ridge_point)});
    roof.push_back({fit.ridge_point, fit.peak_TFLOPs});
    std::sort(roof.begin(), roof.end());
    series.push_back({type.name + " fitted roofline", roof, PlotSeries::Style::line, c});
    markers.push_back({fit.ridge_point, fmt::format("{} ridge {:.1f}", type.name, fit.ridge_point)});
  }

  // The datasheet roofline of this GPU, where the table knows it (a model, for comparison).
  const hw::GpuSpec* spec = hw::match_runtime_name(device.info.name);
  if (spec && std::isfinite(spec->fp32_TFLOPs.value)) {
    const double bw = spec->hbm_bandwidth_GBps.value, peak = spec->fp32_TFLOPs.value;
    fits["datasheet_fp32"] = {{"gpu", spec->name}, {"hbm_GBps", bw}, {"fp32_TFLOPs", peak},
                              {"ridge_point_flop_per_byte", roofline::ridge_point(peak, bw)},
                              {"kind", "model"}};
    std::vector<std::pair<double, double>> roof;
    for (double I = 1.0 / 8; I <= 1024; I *= 2) roof.push_back({I, roofline::attainable_TFLOPs(I, peak, bw)});
    series.push_back({"fp32 datasheet (model)", roof, PlotSeries::Style::dashed, "#7f7f7f"});
  }

  nlohmann::json record = lab.record_head();
  record["problem"] = {{"op", "intensity sweep: out[i] = f_k(in[i])"}, {"dtypes", o.dtypes},
                    {"max_elements_log2", o.max_elements_log2},
                    {"min_intensity", o.min_intensity}, {"max_intensity", o.max_intensity}, {"seed", seed}};
  record["notes"] = {{"fit", fits},
                  {"fit_method", "least squares on log rate, ridge by 1-D search (roofline_fit.hpp)"},
                  {"timing", {{"warmup", timing.warmup}, {"reps", timing.reps}, {"flush_l2", timing.flush_l2}}},
                  {"fraction_of_ceiling", "TFLOP/s over min(measured fp32 FMA rate, I x measured copy "
                                          "bandwidth) at the point's intensity"}};

  record["ceiling"] = to_json(roof);
  record["variants"] = detail::rows_json(variants);
  print_device_header(human, device);
  fmt::print(human, "\n{:<12} {:>10} {:>24} {:>9} {:>9} {:>9}  {}\n", "point", "FLOP/B",
             "time ms: median (min-max)", "TFLOP/s", "GB/s", "of roof", "verified");
  for (const auto& r : variants) {
    if (!r.timed) { fmt::print(human, "{:<12} not timed: verification failed\n", r.name); continue; }
    fmt::print(human, "{:<12} {:>10} {:>24} {:>9.2f} {:>9.0f} {:>8.1f}%  {}\n", r.name,
               intensity_label(r.flops / r.bytes),
               fmt::format("{:.4f} ({:.4f}-{:.4f})", r.time_ms.median, r.time_ms.min, r.time_ms.max),
               r.TFLOPs, r.GBps, 100 * r.fraction_of_ceiling, r.verified ? "yes" : "NO");
  }
  for (auto it = fits.begin(); it != fits.end(); ++it) {
    const auto& f = it.value();
    if (it.key() == "datasheet_fp32") {
      fmt::print(human, "datasheet fp32 (model): {:.0f} GB/s, {:.1f} TFLOP/s, ridge {:.1f} FLOP/B ({})\n",
                 f["hbm_GBps"].get<double>(), f["fp32_TFLOPs"].get<double>(),
                 f["ridge_point_flop_per_byte"].get<double>(), f["gpu"].get<std::string>());
      continue;
    }
    fmt::print(human, "fit {}: memory roof {:.0f} GB/s ({:.1f}% of copy), compute roof {:.2f} TFLOP/s, "
                      "ridge {:.2f} FLOP/B, rms residual {:.1f}%\n", it.key(),
               f["memory_roof_GBps"].get<double>(), 100 * f["memory_roof_over_copy"].get<double>(),
               f["compute_roof_TFLOPs"].get<double>(), f["ridge_point_flop_per_byte"].get<double>(),
               100 * (std::exp(f["rms_log_residual"].get<double>()) - 1));
    if (f.contains("measured_ridge_fma_over_copy"))
      fmt::print(human, "    measured FMA / copy = {:.2f} FLOP/B: the fitted ridge is {:.1f}% of it\n",
                 f["measured_ridge_fma_over_copy"].get<double>(), 100 * f["ridge_over_measured_ridge"].get<double>());
  }

  lab.outputs().write_csv(csv);
  if (!series.empty())
    lab.outputs().write_plot(render_svg({fmt::format("Measured roofline: {}", device.info.name),
                                         "arithmetic intensity (FLOP/byte)", "TFLOP/s", true, true, 2, series, markers}));
  return lab.finish(record, detail::failed_rows(variants));
}

// ---- model ------------------------------------------------------------------------------

struct ModelOptions {
  std::string gpu, dtype = "bf16";
  double flops = 0, bytes = 0;
};

int run_model(const ModelOptions& o, Outputs& out, const std::string& command) {
  const hw::GpuSpec* spec = hw::find_gpu(o.gpu);
  if (!spec) throw UsageError("--gpu: unknown GPU '" + o.gpu + "'; allowed: " + hw::known_keys());
  const hw::Sourced* peak = hw::peak_TFLOPs(*spec, o.dtype);
  if (!peak) throw UsageError("--dtype: unknown '" + o.dtype + "'; allowed: fp32, tf32, bf16, fp16, fp8, fp4");
  if (!std::isfinite(peak->value))
    throw UsageError(fmt::format("--dtype: {} has no {} rate ({})", spec->name, o.dtype, peak->source));
  const double bw = spec->hbm_bandwidth_GBps.value;
  const double I = roofline::arithmetic_intensity(o.flops, o.bytes);
  const double ridge = roofline::ridge_point(peak->value, bw);
  const double attainable = roofline::attainable_TFLOPs(I, peak->value, bw);
  const double t_compute_ms = o.flops / (peak->value * 1e12) * 1e3;
  const double t_memory_ms = o.bytes / (bw * 1e9) * 1e3;
  const std::string bound(roofline::bound(I, peak->value, bw));
  nlohmann::json j = record_head("b02_roofline", "B02", "model", command, "model");
  j.update({{"gpu", spec->name}, {"dtype", o.dtype}, {"flops", o.flops}, {"bytes", o.bytes},
                      {"arithmetic_intensity", I}, {"ridge_point", ridge}, {"peak_TFLOPs", peak->value},
                      {"hbm_bandwidth_GBps", bw}, {"attainable_TFLOPs", attainable}, {"bound", bound},
                      {"time_floor_ms", std::max(t_compute_ms, t_memory_ms)},
                      {"sources", {{"peak", peak->source}, {"bandwidth", spec->hbm_bandwidth_GBps.source}}}});
  std::FILE* human = out.human();
  fmt::print(human, "kind: model (datasheet numbers, no GPU used)\n");
  fmt::print(human, "gpu: {}: {} dense {:g} TFLOP/s, HBM {:g} GB/s\n", spec->name, o.dtype, peak->value, bw);
  fmt::print(human, "kernel: {:g} FLOP, {:g} bytes -> arithmetic intensity {:.4g} FLOP/byte\n", o.flops, o.bytes, I);
  fmt::print(human, "ridge point: {:.1f} FLOP/byte -> {}-bound; attainable {:.4g} TFLOP/s ({:.1f}% of peak)\n",
             ridge, bound, attainable, 100 * attainable / peak->value);
  fmt::print(human, "time floor: {:.4g} ms (compute {:.4g} ms, memory {:.4g} ms)\n",
             std::max(t_compute_ms, t_memory_ms), t_compute_ms, t_memory_ms);
  if (bound == "memory")
    fmt::print(human, "to reach the compute roof the kernel needs {:.1f}x its intensity (fewer bytes or more "
                      "reuse)\n", ridge / I);
  fmt::print(human, "sources: peak: {}; bandwidth: {}\n", peak->source, spec->hbm_bandwidth_GBps.source);
  if (out.plot()) {
    std::vector<std::pair<double, double>> roof;
    for (double x = 1.0 / 8; x <= 4096; x *= 2) roof.push_back({x, roofline::attainable_TFLOPs(x, peak->value, bw)});
    roof.push_back({ridge, peak->value});
    std::sort(roof.begin(), roof.end());
    std::vector<PlotSeries> series = {{fmt::format("{} {} roofline (model)", spec->key, o.dtype), roof,
                                       PlotSeries::Style::line, "#1f77b4"}};
    if (I > 0 && std::isfinite(I))
      series.push_back({"this kernel (attainable)", {{I, attainable}}, PlotSeries::Style::markers, "#d62728"});
    out.write_plot(render_svg({fmt::format("Roofline (model): {} {}", spec->name, o.dtype),
                                               "arithmetic intensity (FLOP/byte)", "TFLOP/s", true, true, 2,
                                               series, {{ridge, fmt::format("ridge {:.1f}", ridge)}}}));
  }
  out.write_json(j);
  return kExitOk;
}

int run(int argc, char** argv) {
  GpuLab lab("b02_roofline", "B02",
             "B02 Roofline: measure this GPU's roofline with an intensity sweep (the default), or place a kernel "
             "on a GPU's datasheet roofline (b02_roofline model ...; no GPU needed)",
             {.csv = true, .plot = true, .csv_beside_json = true,
              .csv_help = "write the points as CSV to PATH", .plot_help = "draw the measured points and fitted roofline as SVG at PATH"});
  CLI::App& app = lab.app();
  app.require_subcommand(0, 1);
  SweepOptions s;
  lab.add_run_options({.reps = 20, .reps_per = "point", .warmup = 3});
  lab.set_no_gpu_views("the model subcommand (b02_roofline model --gpu h200 --flops F --bytes B)");
  lab.run_only(app.add_option("--dtype", s.dtypes, "data types to sweep (repeatable)"))
      ->transform(CLI::IsMember({"fp32", "bf16"}, CLI::ignore_case));
  app.add_option("--min-intensity", s.min_intensity, "lowest intensity, FLOP/byte (a power of two)")
      ->check(finite_number())->check(CLI::Range(1.0 / 8, 1024.0));
  app.add_option("--max-intensity", s.max_intensity, "highest intensity, FLOP/byte (a power of two)")
      ->check(finite_number())->check(CLI::Range(1.0 / 8, 1024.0));
  app.add_option("--max-elements-log2", s.max_elements_log2,
                 "largest problem, log2 of elements (small values for compute-sanitizer runs)")
      ->check(decimal_integer())->check(CLI::Range(10, 28));
  // "b02_roofline sweep --reps 5" reads as it always did: the word sweep, then the sweep's options.
  app.add_subcommand("sweep", "measure: sweep arithmetic intensity and fit the roofline (the default; the word "
                              "may be left out; its options are listed above)")->fallthrough();

  ModelOptions m;
  CLI::App* model = app.add_subcommand("model", "no GPU needed: place a kernel (FLOPs, bytes) on a GPU's datasheet "
                                                "roofline (kind: model)");
  model->add_option("--gpu", m.gpu, "GPU of the table (h100, h200, mi300x, ...)")->required();
  model->add_option("--dtype", m.dtype, "fp32, tf32, bf16, fp16, fp8 or fp4 (dense rates)");
  model->add_option("--flops", m.flops, "floating-point operations of the kernel (> 0)")->required()
      ->check(finite_number());
  model->add_option("--bytes", m.bytes, "bytes it must move through HBM (> 0)")->required()->check(finite_number());
  Outputs model_out(*model, {.plot = true, .plot_help = "draw the roofline with this kernel as SVG at PATH"});

  if (const int rc = lab.parse(argc, argv); rc >= 0) return rc;
  if (model->parsed()) {
    // Options before the word `model` belong to the sweep: refuse them rather than drop them.
    lab.outputs().refuse("an option of the sweep; `model` takes its own --json/--plot after the word model");
    lab.refuse_run_options("the model subcommand runs nothing");
    model_out.check();
    if (!(m.flops > 0)) throw UsageError("--flops: must be a positive finite number");
    if (!(m.bytes > 0)) throw UsageError("--bytes: must be a positive finite number");
    const double I = m.flops / m.bytes;
    if (!std::isfinite(I) || !(I >= 1e-6) || !(I <= 1e9))
      throw UsageError("--flops/--bytes: arithmetic intensity must be between 1e-6 and 1e9 FLOP/byte");
    for (auto& ch : m.dtype) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return run_model(m, model_out, command_line(argc, argv));
  }
  std::sort(s.dtypes.begin(), s.dtypes.end(), [](const std::string& a, const std::string&) { return a == "fp32"; });
  s.dtypes.erase(std::unique(s.dtypes.begin(), s.dtypes.end()), s.dtypes.end());
  if (s.min_intensity > s.max_intensity)
    throw UsageError("--min-intensity: must not exceed --max-intensity");
  for (double v : {s.min_intensity, s.max_intensity})
    if (std::abs(std::log2(v) - std::round(std::log2(v))) > 1e-9)
      throw UsageError(fmt::format("--min-intensity/--max-intensity: {} is not a power of two (1/8 .. 1024)", v));
  return run_sweep(s, lab);
}

}  // namespace
}  // namespace tutor::b02

int main(int argc, char** argv) {
  return tutor::run_main("b02_roofline", [&] { return tutor::b02::run(argc, argv); });
}
