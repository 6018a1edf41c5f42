#include "tile_choice.hpp"

#include <fmt/format.h>

#include "tutor/launcher.hpp"

namespace tutor::a07 {

namespace {

/// Times every compiled TileConfig of double_buffered on the timed case after verifying it on the
/// checks; returns the fastest verified index and the per-config rows.
int tune(LadderRun<GemmCase>& run, nlohmann::json& rows) {
  int best = -1;
  double best_TFLOPs = 0;
  std::FILE* out = run.lab.human();
  fmt::print(out, "\ntuning double_buffered on {} ({} configurations):\n", run.timed->label(), tile_config_count());
  for (int i = 0; i < tile_config_count(); ++i) {
    select_tile_config(i);
    const Step<GemmCase> s = launcher_step<GemmCase, GemmLauncher>(9, fmt::format("tune_{}", i), describe(tile_config(i)),
                                                                   "", TUTOR_LAUNCHER(launch_double_buffered));
    const StepResult r = run_step(s, std::span<GemmCase* const>(run.checks.data(), run.checks.size()), *run.timed,
                                  run.timing);
    const double tf = r.timed ? run.timed->flops() / (r.time_ms.median * 1e-3) / 1e12 : 0;
    fmt::print(out, "  [{}] {:<36} {:>8.2f} TFLOP/s  {}\n", i, describe(tile_config(i)), tf,
               r.verified ? "verified" : "NOT VERIFIED (excluded)");
    const TileConfig c = tile_config(i);
    rows.push_back({{"index", i}, {"bm", c.bm}, {"bn", c.bn}, {"bk", c.bk}, {"wm", c.wm}, {"wn", c.wn},
                    {"threads", c.threads()}, {"verified", r.verified}, {"TFLOPs", tf},
                    {"time_ms", {{"median", r.time_ms.median}, {"min", r.time_ms.min}, {"max", r.time_ms.max}}}});
    if (r.verified && tf > best_TFLOPs) best = i, best_TFLOPs = tf;
  }
  if (best < 0) throw gpu::Error("--tune: no tile configuration passed verification");
  return best;
}

}  // namespace

void choose_tile(TileOptions& t, LadderRun<GemmCase>& run) {
  if (!t.chosen) {
    const gpu::DeviceInfo& dev = run.lab.device().info;
    const std::string cache = t.cache.empty() ? default_tune_cache_path(dev) : t.cache;
    t.choice = t.index >= 0 ? TileChoice{t.index, "--tile-config"} : choose_tile_config(dev, cache);
    if (t.tune) {
      nlohmann::json rows = nlohmann::json::array();
      const int best = tune(run, rows);
      t.choice = {best, "tuned in this run"};
      std::string where = "not written (no cache path: set XDG_CACHE_HOME or HOME, or give --tune-cache)";
      if (!cache.empty()) {
        double best_tf = 0;
        for (const auto& r : rows)
          if (r["index"] == best) best_tf = r["TFLOPs"].get<double>();
        write_tune_cache(cache, dev, best, best_tf, run.timed->label());
        where = cache;
      }
      fmt::print(run.lab.human(), "chosen: [{}] {}; cached in {}\n", best, describe(tile_config(best)), where);
      t.tuning = {{"configs", rows}, {"chosen", best}, {"cache", where}};
    }
    select_tile_config(t.choice.index);
    t.chosen = true;
  }
  for (auto& s : run.steps)
    if (s.info.name == "double_buffered")
      s.info.params = describe(tile_config(t.choice.index)) + ", " + t.choice.source;
}

}  // namespace tutor::a07
