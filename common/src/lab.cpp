#include "tutor/lab.hpp"

#include <unistd.h>

#include <algorithm>

#include "tutor/verify.hpp"

namespace tutor {

GpuLab::GpuLab(std::string name, std::string module, const std::string& summary, OutputSet outputs)
    : name_(std::move(name)), module_(std::move(module)), app_(summary, name_),
      outputs_(std::make_unique<Outputs>(app_, std::move(outputs))) {}

void GpuLab::add_run_options(RunDefaults d) {
  run_.reps = d.reps;
  run_.warmup = d.warmup;
  const auto range = [](int lo, int hi) { return CLI::Range(lo, hi); };
  run_only_.push_back(app_.add_option("--reps", run_.reps, "timed launches per " + d.reps_per +
                                                               " (median, min and max are reported)")
                          ->check(decimal_integer())->check(range(1, d.max_reps)));
  run_only_.push_back(app_.add_option("--warmup", run_.warmup, "untimed launches before timing")
                          ->check(decimal_integer())->check(range(0, 1000)));
  run_only_.push_back(app_.add_option("--seed", run_.seed, "seed of the random inputs (default: fresh every run, "
                                                           "recorded so a failure can be reproduced)")
                          ->check(decimal_integer()));
  run_only_.push_back(app_.add_option("--device", run_.device, "GPU index")->check(decimal_integer())->check(range(0, 63)));
  run_only_.push_back(app_.add_flag("--no-flush-l2", no_flush_l2_, "do not evict L2 before each timed launch"));
  if (d.skip_large_check)
    run_only_.push_back(app_.add_flag("--skip-large-check", run_.skip_large_check,
                                      "verify only the small shapes (for compute-sanitizer runs; the record lists "
                                      "the shapes that were verified)"));
}

CLI::Option* GpuLab::add_model_option(const std::string& what) {
  model_ = app_.add_option("--model", model_gpu_, what + " for a GPU of the table instead of running "
                                                         "(no GPU needed; kind: model)")
               ->option_text("GPU");
  if (list_opt_) list_opt_->excludes(model_);
  return model_;
}

CLI::Option* GpuLab::add_list_option(const std::string& what) {
  list_opt_ = app_.add_flag("--list", list_, what + ", then exit (no GPU needed)");
  if (model_) list_opt_->excludes(model_);
  return list_opt_;
}

int GpuLab::parse(int argc, char** argv, const std::vector<std::pair<std::string, std::string>>& inputs) {
  command_ = command_line(argc, argv);
  if (const int rc = parse_command_line(app_, argc, argv); rc >= 0) return rc;
  run_.flush_l2 = !no_flush_l2_;
  if (list_) {
    outputs_->refuse("--list prints the steps to standard output only");
    refuse_run_options("--list runs nothing");
  }
  if (model_ && model_->count() > 0) {
    if (model_gpu_.empty()) throw UsageError("--model: give a GPU of the table (h200, mi300x, ...)");
    outputs_->refuse("--model prints to standard output only (kind: model); it records nothing");
    refuse_run_options("--model runs nothing");
  }
  outputs_->check(inputs);
  progress_ = ::isatty(STDERR_FILENO);
  return -1;
}

void GpuLab::no_device(const gpu::NoDevice& e) const {
  std::string views = no_gpu_views_;  // what this lab answers without a GPU
  if (views.empty() && model_) views = "--model GPU";
  if (no_gpu_views_.empty() && list_opt_) views += views.empty() ? "--list" : " and --list";
  if (views.empty()) views = "--help";
  const bool several = views.find(" and ") != std::string::npos;
  throw gpu::NoDevice(std::string(e.what()) + "; without a GPU, " + views + (several ? " still work" : " still works"));
}

void GpuLab::refuse_run_options(const std::string& why) const {
  for (const CLI::Option* opt : run_only_)
    if (opt->count() > 0) throw UsageError(opt->get_name() + ": a run option; " + why);
}

const DeviceRecord& GpuLab::open(std::size_t copy_bytes) {
  try {
    device_.info = gpu::open_device(run_.device);
  } catch (const gpu::NoDevice& e) {
    no_device(e);
  }
  clocks_start_ = gpu::read_clocks();
  if (run_.seed == 0) run_.seed = fresh_seed();
  // At least 8x the L2 and 1 GiB, so the copy measures HBM, not the cache.
  const std::size_t floor = std::max<std::size_t>(8 * device_.info.l2_bytes, std::size_t(1) << 30);
  if (progress_) fmt::print(stderr, "measuring the copy ceiling and the FMA rate...\n");
  device_.copy_GBps = gpu::measure_copy_GBps(std::max(copy_bytes, floor));
  device_.fma_TFLOPs = gpu::measure_fma_TFLOPs();
  return device_;
}

nlohmann::json GpuLab::record_head(const std::string& kind) const {
  nlohmann::json j = tutor::record_head(name_, module_, kind, command_);
  j["device"] = to_json(device_);
  j["clocks"] = {{"start", to_json(clocks_start_)}};
  return j;
}

int GpuLab::finish(nlohmann::json record, const std::vector<std::string>& failed) {
  record["clocks"]["end"] = to_json(gpu::read_clocks());
  outputs_->write_json(std::move(record));
  if (failed.empty()) return kExitOk;
  std::string names;
  for (const auto& f : failed) names += (names.empty() ? "" : ", ") + f;
  fmt::print(stderr, "{}: verification FAILED for: {}\n", name_, names);
  return kExitCheckFailed;
}

}  // namespace tutor
