// a02_transpose: the transpose ladder, verified and timed on this machine's GPU.
//
// Reads top to bottom: the ladder (declared once, as data), one problem instance (a Case:
// device buffers, fresh random input, exact CPU reference), and main: options, device,
// ceiling, verify-time-verify every step, table, JSON.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "transpose.hpp"
#include "transpose_reference.hpp"
#include "tutor/cli.hpp"
#include "tutor/gpu.hpp"
#include "tutor/hardware.hpp"
#include "tutor/ladder.hpp"
#include "tutor/launcher.hpp"
#include "tutor/report.hpp"

namespace tutor::a02 {
namespace {

/// One problem instance: a rows x cols input of fresh random floats on the device, an
/// output buffer, and the exact reference computed on the host.
class TransposeCase {
 public:
  TransposeCase(int rows, int cols, std::uint64_t seed)
      : rows_(rows), cols_(cols), n_(std::size_t(rows) * std::size_t(cols)),
        in_(n_ * sizeof(float)), out_(n_ * sizeof(float)), reference_(n_), result_(n_) {
    std::vector<float> host_in(n_);
    fill_random(host_in, seed);
    in_.upload(host_in.data(), n_ * sizeof(float));
    transpose_reference(host_in, reference_, rows, cols);
  }
  std::string label() const { return fmt::format("{}x{}", rows_, cols_); }
  void poison() { out_.fill_u32(kPoisonBitsF32); }
  Comparison check() {
    out_.download(result_.data(), n_ * sizeof(float));
    return compare(result_, reference_, 0.0);  // a transpose moves bits: it must be exact
  }
  double bytes() const { return 2.0 * double(n_) * sizeof(float); }  // read once + write once
  double flops() const { return 0; }
  void run(TransposeLauncher launcher) { launcher(in_.as<float>(), out_.as<float>(), rows_, cols_); }

 private:
  int rows_, cols_;
  std::size_t n_;
  gpu::DeviceBuffer in_, out_;
  std::vector<float> reference_, result_;
};

using TransposeStep = Step<TransposeCase>;

TransposeStep step(std::string name, std::string change, TransposeLauncher launcher) {
  return {std::move(name), std::move(change), [launcher](TransposeCase& c) { c.run(launcher); }};
}

/// The ladder, in order. Each line says what the step changes and what it should buy.
std::vector<TransposeStep> ladder() {
  return {
      step("naive_row", "one thread per element: coalesced reads, strided writes (baseline)",
           TUTOR_LAUNCHER(launch_naive_row)),
      step("naive_col", "swap the strided side: strided reads (cached), coalesced writes; ~1.5-2x",
           TUTOR_LAUNCHER(launch_naive_col)),
      step("tile32", "stage a 32x32 tile in shared memory: both global sides coalesced, "
                     "but a 32-way bank conflict on the column read", TUTOR_LAUNCHER(launch_tile32)),
      step("padded32", "pad the tile to [32][33]: removes the bank conflict; ~2x", TUTOR_LAUNCHER(launch_padded32)),
      step("padded32_ilp4", "32x8 threads, 4 elements each: independent loads in flight, "
                            "fewer barriers; +10-20%", TUTOR_LAUNCHER(launch_padded32_ilp4)),
      step("tile64_vec4", "64x64 tile, 4x4 per thread with 128-bit loads/stores and a swizzled "
                          "tile: 4x the bytes per memory instruction; near copy bandwidth",
           TUTOR_LAUNCHER(launch_tile64_vec4)),
  };
}

TransposeStep exercise_step() {
  return step("exercise", "your kernel from exercises/: a bank-conflict-free shared-memory tile",
              TUTOR_LAUNCHER(launch_exercise));
}

/// Shapes every selected step is verified on, on every run: 1 element; sizes that are not
/// multiples of any tile; multiples of 4 that are not multiples of 64 (tile64_vec4 mixes its
/// vector and scalar paths there); a prime-ish rectangle; the large square the lab times.
const std::vector<std::pair<int, int>> kVerifyShapes = {
    {1, 1}, {31, 33}, {1028, 516}, {4099, 3001}, {16384, 16384}};

struct Options {
  int rows = 16384, cols = 16384;
  int reps = 50, warmup = 5;
  int device = 0;
  std::vector<std::string> variants;
  std::string json_path;
  std::string model_gpu;
  std::uint64_t seed = 0;
  bool list = false, no_flush = false, skip_large_check = false;
};

void print_model(const Options& o) {
  const hw::GpuSpec* spec = hw::find_gpu(o.model_gpu);
  if (!spec) throw UsageError("--model: unknown GPU '" + o.model_gpu + "'; allowed: " + hw::known_keys());
  const double bytes = 2.0 * double(o.rows) * double(o.cols) * sizeof(float);
  const double floor_ms = bytes / (spec->hbm_bandwidth_GBps.value * 1e9) * 1e3;
  fmt::print("kind: model (no GPU used): the floor of every step is its bytes over the datasheet "
             "HBM bandwidth\n");
  fmt::print("gpu: {} ({:.0f} GB/s, {})\n", spec->name, spec->hbm_bandwidth_GBps.value,
             spec->hbm_bandwidth_GBps.source);
  fmt::print("problem: transpose fp32 {}x{}: {:.3f} GB read + written per launch\n", o.rows, o.cols,
             bytes / 1e9);
  for (const auto& s : ladder())
    fmt::print("  {:<14} floor {:.3f} ms  ({})\n", s.name, floor_ms, s.change);
  fmt::print("A real GPU reaches 85-95% of datasheet bandwidth on a plain copy; run the lab "
             "to see what each step reaches.\n");
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app{"A02 Memory coalescing: a transpose ladder from naive to near copy bandwidth, "
               "every step verified and timed on this GPU",
               "a02_transpose"};
  app.add_option("--rows", o.rows, "rows of the input matrix (its height)")->check(decimal_integer())->check(CLI::Range(1, 65536));
  app.add_option("--cols", o.cols, "columns of the input matrix (its width)")->check(decimal_integer())->check(CLI::Range(1, 65536));
  app.add_option("--reps", o.reps, "timed launches per step (median, min and max are reported)")
      ->check(decimal_integer())->check(CLI::Range(1, 10000));
  app.add_option("--warmup", o.warmup, "untimed launches before timing")->check(decimal_integer())->check(CLI::Range(0, 1000));
  app.add_option("--variant", o.variants,
                 "run only these steps (repeatable); 'exercise' runs your kernel from exercises/");
  auto* list = app.add_flag("--list", o.list, "list the steps and what each changes, then exit (no GPU needed)");
  auto* json = app.add_option("--json", o.json_path, "write the JSON record to PATH ('-' or no PATH: stdout)")
                   ->expected(0, 1);
  app.add_option("--seed", o.seed, "seed of the random inputs (default: fresh every run)")->check(decimal_integer());
  app.add_option("--device", o.device, "GPU index")->check(decimal_integer())->check(CLI::Range(0, 63));
  app.add_flag("--no-flush-l2", o.no_flush, "do not evict L2 before each timed launch");
  app.add_flag("--skip-large-check", o.skip_large_check,
               "skip the 16384x16384 verification case (for compute-sanitizer runs at a small "
               "size; the record lists the shapes that were verified)");
  auto* model = app.add_option("--model", o.model_gpu,
                 "print the analytic floor for a GPU of the table instead of running (no GPU needed)");
  list->excludes(model);
  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  if (json->count() > 0 && o.json_path.empty()) o.json_path = "-";
  if (json->count() > 0 && (o.list || model->count() > 0))
    throw UsageError("--json: records a run; --list and --model print to stdout only");
  require_writable("--json", o.json_path);

  std::vector<TransposeStep> steps;
  {
    std::vector<TransposeStep> all = ladder();
    if (o.variants.empty()) {
      steps = all;
    } else {
      all.push_back(exercise_step());
      std::string allowed;
      for (const auto& s : all) allowed += (allowed.empty() ? "" : ", ") + s.name;
      for (const auto& want : o.variants) {
        auto it = std::find_if(all.begin(), all.end(), [&](const auto& s) { return s.name == want; });
        if (it == all.end()) throw UsageError("--variant: unknown step '" + want + "'; allowed: " + allowed);
        steps.push_back(*it);
      }
    }
  }
  if (o.list) {
    for (const auto& s : ladder()) fmt::print("{:<14} {}\n", s.name, s.change);
    const auto ex = exercise_step();
    fmt::print("{:<14} {} (only with --variant exercise)\n", ex.name, ex.change);
    return kExitOk;
  }
  if (model->count() > 0) {
    print_model(o);
    return kExitOk;
  }

  // Human output goes to stdout unless the JSON record does.
  std::FILE* human = o.json_path == "-" ? stderr : stdout;
  const bool progress = ::isatty(STDERR_FILENO);
  if (o.seed == 0) o.seed = fresh_seed();

  LabRecord record;
  record.lab = "a02_transpose";
  record.module = "A02";
  record.command = command_line(argc, argv);
  record.device.info = gpu::open_device(o.device);
  const double problem_bytes = double(o.rows) * double(o.cols) * sizeof(float);
  const std::size_t need = 2 * std::size_t(problem_bytes) + 2 * (std::size_t(16384) * 16384 * sizeof(float));
  if (need > record.device.info.global_mem_bytes)
    throw UsageError(fmt::format("--rows/--cols: {}x{} needs {:.1f} GiB with the verification cases; "
                                 "this GPU has {:.1f} GiB", o.rows, o.cols, need / 1073741824.0,
                                 record.device.info.global_mem_bytes / 1073741824.0));

  // The ceiling: a device-to-device copy of at least the problem's size and 8x the L2, so it
  // measures HBM, not the cache; counted as bytes read + written like the steps.
  const std::size_t copy_bytes = std::max<std::size_t>(std::size_t(problem_bytes), 8 * record.device.info.l2_bytes);
  if (progress) fmt::print(stderr, "measuring the copy ceiling and the FMA rate...\n");
  record.device.copy_GBps = gpu::measure_copy_GBps(copy_bytes);
  record.device.fma_TFLOPs = gpu::measure_fma_TFLOPs();
  record.ceiling = {record.device.info.vendor == "AMD" ? "device-to-device copy (hipMemcpy)"
                                                       : "device-to-device copy (cudaMemcpy)",
                    record.device.copy_GBps, CeilingUnit::GBps};

  std::vector<std::unique_ptr<TransposeCase>> cases;
  std::vector<TransposeCase*> checks;
  std::uint64_t case_seed = o.seed;
  for (auto [r, c] : kVerifyShapes) {
    if (r == o.rows && c == o.cols) continue;  // the timed case is verified anyway
    if (o.skip_large_check && std::size_t(r) * c > (1u << 24)) continue;
    cases.push_back(std::make_unique<TransposeCase>(r, c, ++case_seed));
    checks.push_back(cases.back().get());
  }
  TransposeCase timed(o.rows, o.cols, ++case_seed);
  const TimingOptions timing{o.warmup, o.reps, !o.no_flush};

  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (progress) fmt::print(stderr, "[{}/{}] {}: verifying on {} shapes, timing {}...\n", i + 1,
                             steps.size(), steps[i].name, checks.size() + 1, timed.label());
    record.variants.push_back(run_step(steps[i], std::span<TransposeCase* const>(checks), timed, timing));
  }
  finish_ladder(record.variants, record.ceiling);

  std::vector<std::string> shapes;
  for (auto* c : checks) shapes.push_back(c->label());
  shapes.push_back(timed.label());
  record.problem = {{"op", "transpose"}, {"dtype", "fp32"}, {"layout", "row-major, out-of-place"},
                    {"rows", o.rows}, {"cols", o.cols}, {"bytes_per_launch", timed.bytes()},
                    {"verified_shapes", shapes}, {"seed", o.seed}};
  record.notes = {{"timing", {{"warmup", o.warmup}, {"reps", o.reps}, {"flush_l2", !o.no_flush},
                              {"clock", "device events, one pair per launch"}}},
                  {"copy_ceiling_bytes", copy_bytes}};

  print_device_header(human, record.device);
  fmt::print(human, "problem : transpose fp32 {} -> {}x{}, {:.3f} GB read + written per launch; "
                    "verified on {}\n", timed.label(), o.cols, o.rows, timed.bytes() / 1e9,
             fmt::join(shapes, ", "));
  print_ladder_table(human, record);
  if (!o.json_path.empty()) write_json(to_json(record), o.json_path);

  std::vector<std::string> failed;
  for (const auto& s : record.variants)
    if (!s.verified) failed.push_back(s.name);
  if (!failed.empty()) {
    fmt::print(stderr, "a02_transpose: verification FAILED for: {}\n", fmt::join(failed, ", "));
    return kExitCheckFailed;
  }
  return kExitOk;
}

}  // namespace
}  // namespace tutor::a02

int main(int argc, char** argv) {
  return tutor::run_main("a02_transpose", [&] { return tutor::a02::run(argc, argv); });
}
