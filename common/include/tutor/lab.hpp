#pragma once
// What every GPU lab repeats, written once: the shared options, the device and the ceilings
// measured in the same run, the clocks, the record's head, the outputs and the exit codes.
//
//   GpuLab lab("a02_transpose", "A02", "A02 Memory coalescing: ...");
//   lab.add_run_options({.reps = 50, .warmup = 5});   // --device --seed --reps --warmup --no-flush-l2 ...
//   lab.app().add_option("--rows", rows, "...");       // the lab's own options
//   if (int rc = lab.parse(argc, argv); rc >= 0) return rc;
//   lab.open();                                        // device, copy and FMA ceilings, clocks
//   ... run, verify, time ...
//   return lab.finish(record, failed);                 // clocks again, outputs, exit code
//
// A ladder lab does not use this directly: run_ladder_lab (tutor/ladder_lab.hpp) builds on it.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tutor/cli.hpp"
#include "tutor/gpu.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"

namespace tutor {

/// Defaults of the options every GPU lab shares.
struct RunDefaults {
  int reps = 50;            ///< timed launches per step
  std::string reps_per = "step";  ///< what --reps counts launches of: "step", "size", "point"
  int warmup = 5;           ///< untimed launches first
  int max_reps = 10000;
  bool skip_large_check = false;  ///< offer --skip-large-check (labs with a large verification case)
};

/// The values of the shared options after parsing.
struct RunOptions {
  int device = 0;
  int reps = 50, warmup = 5;
  std::uint64_t seed = 0;   ///< 0 on the command line: fresh every run (the record keeps the one used)
  bool flush_l2 = true;
  bool skip_large_check = false;
};

class GpuLab {
 public:
  /// `summary` is the first line of --help.
  GpuLab(std::string name, std::string module, const std::string& summary, OutputSet outputs = {});

  CLI::App& app() { return app_; }
  Outputs& outputs() { return *outputs_; }
  const RunOptions& run() const { return run_; }
  const std::string& name() const { return name_; }
  const std::string& module() const { return module_; }

  /// Adds --device, --seed, --reps, --warmup, --no-flush-l2 (and --skip-large-check).
  void add_run_options(RunDefaults defaults = {});
  /// Adds --model GPU: "print ... for a GPU of the table instead of running (no GPU needed)".
  CLI::Option* add_model_option(const std::string& what);
  /// Adds --list: "list the steps ... then exit (no GPU needed)".
  CLI::Option* add_list_option(const std::string& what);

  /// Marks a lab's own option as one that only a run reads: --model and --list refuse it.
  CLI::Option* run_only(CLI::Option* option) {
    run_only_.push_back(option);
    return option;
  }
  /// Throws UsageError naming the first run option given: for modes that run nothing (B02's
  /// `model` subcommand).
  void refuse_run_options(const std::string& why) const;

  bool model_requested() const { return !model_gpu_.empty(); }
  const std::string& model_gpu() const { return model_gpu_; }
  bool list_requested() const { return list_; }

  /// Parses the command line. Returns -1 to go on, or the exit code (--help: 0, bad input: 2).
  /// Then checks the outputs (a bad path is exit 2 before any work) and refuses outputs for
  /// --list and --model, which print only, and run options for --model.
  int parse(int argc, char** argv, const std::vector<std::pair<std::string, std::string>>& inputs = {});

  /// What works without a GPU, for the no-GPU message ("--model GPU, --list"; B02: "the model
  /// subcommand"); by default the --model and --list this lab added.
  void set_no_gpu_views(std::string views) { no_gpu_views_ = std::move(views); }
  /// Rethrows a "no usable GPU" with what this lab still does without one (open() does this; a
  /// lab that opens the device itself, like A01's whole-program run, calls it).
  [[noreturn]] void no_device(const gpu::NoDevice& e) const;

  /// Opens the device, samples its clocks, measures the copy bandwidth over `copy_bytes` (0:
  /// 8x the L2, at least 1 GiB) and the FMA rate: the ceilings the lab reports fractions of.
  /// Throws gpu::NoDevice (exit 3) when there is no usable GPU. Draws a fresh seed if none given.
  const DeviceRecord& open(std::size_t copy_bytes = 0);
  const DeviceRecord& device() const { return device_; }

  /// The seed the run uses (after open()).
  std::uint64_t seed() const { return run_.seed; }
  /// Human output: stdout, or stderr when an output writes to stdout.
  std::FILE* human() const { return outputs_->human(); }
  /// Whether progress lines are printed (stderr is a terminal).
  bool progress() const { return progress_; }

  /// The head of the record: schema_version, lab, module, version, timestamp, command, kind,
  /// device with its measured ceilings, clocks at the start (and at the end, once finish ran).
  nlohmann::json record_head(const std::string& kind = "measurement") const;

  /// Samples the clocks again, adds them to `record` ("clocks": {"start", "end"}), writes the
  /// outputs, and returns the exit code: 1 naming `failed` on stderr when it is not empty.
  int finish(nlohmann::json record, const std::vector<std::string>& failed);

 private:
  std::string name_, module_, command_;
  CLI::App app_;
  std::unique_ptr<Outputs> outputs_;
  RunOptions run_;
  std::vector<CLI::Option*> run_only_;
  std::string model_gpu_;
  CLI::Option* model_ = nullptr;
  CLI::Option* list_opt_ = nullptr;
  bool list_ = false;
  bool no_flush_l2_ = false;
  std::string no_gpu_views_;
  bool progress_ = false;
  DeviceRecord device_;
  gpu::ClockSample clocks_start_;
};

/// `--model GPU`'s table of every step's floor: bytes over the datasheet HBM bandwidth, FLOPs
/// over the datasheet peak of `dtype`, the larger of the two, and the bound (Williams, Waterman
/// and Patterson, CACM 52(4) 2009, eq. 1). Printed to stdout with "kind: model".
struct ModelRow {
  std::string name;
  double bytes = 0, flops = 0;
  std::string note;
};
void print_model_table(const std::string& gpu, const std::string& dtype, const std::string& problem,
                       const std::vector<ModelRow>& rows);

/// "device-to-device copy (cudaMemcpy)" or "(hipMemcpy)" for `vendor` ("NVIDIA", "AMD"): the
/// memory ceiling every memory-bound lab reports its fraction of.
std::string copy_ceiling_name(const std::string& vendor);

/// Whether a device of architecture `device_arch` ("sm_90", "gfx942:sramecc+:xnack-") can run a
/// step that needs `min_arch`: "" (any), "sm_80" (compute capability 8.0 or newer), "sm_90a"
/// (exactly 9.0: arch-specific features), "gfx940" (that AMD target family, by name prefix).
/// Several requirements may be given separated by '|' (any one suffices).
bool arch_supports(const std::string& device_arch, const std::string& min_arch);

}  // namespace tutor
