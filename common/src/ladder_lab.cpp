// The host-only parts of run_ladder_lab (tutor/ladder_lab.hpp): tables, CSV, plot, rates.
#include "tutor/ladder_lab.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace tutor::detail {

std::string ceiling_name(CeilingFrom from, const std::string& vendor, const std::string& step) {
  switch (from) {
    case CeilingFrom::copy: return copy_ceiling_name(vendor);
    case CeilingFrom::fma: return "fp32 FMA rate of a kernel of independent FMA chains";
    case CeilingFrom::reference: return step;
  }
  return "";
}

namespace {
std::string verdict(const StepResult& s) {
  if (!s.skipped.empty()) return "skipped: " + s.skipped;
  if (s.verified) return fmt::format("yes ({:.1e})", s.rel_err);
  for (const auto& c : s.checks)
    if (!c.cmp.passed) return fmt::format("NO at {}: {}", c.shape, c.cmp.reason);
  return "NO";
}
}  // namespace

void print_steps(std::FILE* out, const std::vector<StepResult>& rows, const Ceiling& ceiling) {
  const bool by_bytes = ceiling.unit == CeilingUnit::GBps;
  const char* rate_head = by_bytes ? "GB/s" : "TFLOP/s";
  std::size_t w = 4;
  for (const auto& s : rows) w = std::max(w, s.name.size());
  const auto line = [&](const std::string& name, const std::string& t, const std::string& rate,
                        const std::string& frac, const std::string& prev, const std::string& first,
                        const std::string& v) {
    fmt::print(out, "{:<{}}  {:>26}  {:>9}  {:>8}  {:>7}  {:>8}  {}\n", name, w, t, rate, frac, prev, first, v);
  };
  fmt::print(out, "\n");
  line("step", "time ms: median (min-max)", rate_head, "of ceil", "vs prev", "vs first", "verified (worst rel err)");
  bool rule = false;
  for (const auto& s : rows) {
    if (s.role == "reference" && !rule) {
      fmt::print(out, "{:-<{}}\n", "reference rows (not part of the ladder) ", w + 92);
      rule = true;
    }
    if (!s.timed) {
      line(s.name, s.skipped.empty() ? "not timed" : "skipped", "-", "-", "-", "-", verdict(s));
      continue;
    }
    line(s.name, fmt::format("{:.3f} ({:.3f}-{:.3f})", s.time_ms.median, s.time_ms.min, s.time_ms.max),
         fmt::format("{:.1f}", by_bytes ? s.GBps : s.TFLOPs),
         ceiling.value > 0 ? fmt::format("{:.1f}%", 100.0 * s.fraction_of_ceiling) : "n/a",
         s.speedup_vs_prev > 0 ? fmt::format("{:.2f}x", s.speedup_vs_prev) : "-",
         s.speedup_vs_first > 0 ? fmt::format("{:.2f}x", s.speedup_vs_first) : "-", verdict(s));
  }
  if (ceiling.value > 0)
    fmt::print(out, "ceiling: {} = {:.1f} {} (same device, same run)\n", ceiling.name, ceiling.value, rate_head);
  else
    fmt::print(out, "ceiling: {}: not measured in this run\n", ceiling.name);
}

void print_declaration(const std::vector<StepInfo>& steps) {
  fmt::print("| # | step | what changes | expected | runs on |\n| --- | --- | --- | --- | --- |\n");
  for (const auto& s : steps) {
    const std::string number = s.role == StepRole::ladder ? std::to_string(s.number)
                               : s.role == StepRole::reference ? "ref" : "ex";
    std::string change = s.change;
    if (!s.params.empty()) change += " (" + s.params + ")";
    fmt::print("| {} | {} | {} | {} | {} |\n", number, s.name, change, s.expect.empty() ? "-" : s.expect,
               s.min_arch.empty() ? "any" : s.min_arch);
  }
}

std::string sweep_csv(const std::string& x_label, const std::string& series_label, const std::vector<SweepPoint>& points) {
  std::string csv = x_label + (series_label.empty() ? "" : "," + series_label) +
                    ",step,role,median_ms,min_ms,max_ms,GBps,TFLOPs,fraction_of_ceiling,verified,rel_err\n";
  for (const auto& p : points)
    for (const auto& r : p.rows)
      csv += fmt::format("{}{},{},{},{:.6f},{:.6f},{:.6f},{:.3f},{:.4f},{:.4f},{},{:.3e}\n", p.x,
                         p.series ? fmt::format(",{}", *p.series) : "", r.name, r.role, r.time_ms.median,
                         r.time_ms.min, r.time_ms.max, r.GBps, r.TFLOPs, r.fraction_of_ceiling, r.verified ? 1 : 0,
                         r.rel_err);
  return csv;
}

std::string sweep_svg(const std::string& title, const std::string& x_label, const std::string& series_label,
                      CeilingUnit unit, const std::vector<SweepPoint>& points) {
  static const char* colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                 "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000"};
  std::vector<PlotSeries> series;
  for (const auto& p : points)
    for (const auto& r : p.rows) {
      const std::string label = p.series ? fmt::format("{}, {} {}", r.name, series_label, *p.series) : r.name;
      auto it = std::find_if(series.begin(), series.end(), [&](const auto& s) { return s.label == label; });
      if (it == series.end()) {
        series.push_back({label, {}, r.role == "reference" ? PlotSeries::Style::dashed : PlotSeries::Style::line,
                          colors[series.size() % 11]});
        it = series.end() - 1;
      }
      if (r.timed) it->xy.push_back({double(p.x), unit == CeilingUnit::GBps ? r.GBps : r.TFLOPs});
    }
  return render_svg({title, x_label, unit == CeilingUnit::GBps ? "GB/s" : "TFLOP/s", true, false, 2, series, {}});
}

void finish_rows(std::vector<StepResult>& rows, Ceiling& ceiling, CeilingFrom from, const std::string& ceiling_step) {
  std::vector<StepResult> ladder, refs;
  for (auto& r : rows) (r.role == "reference" ? refs : ladder).push_back(r);
  if (from == CeilingFrom::reference) {
    ceiling.value = 0;
    for (const auto& r : refs)
      if (r.name == ceiling_step && r.timed && r.time_ms.median > 0) {
        const double s = r.time_ms.median * 1e-3;
        ceiling.value = ceiling.unit == CeilingUnit::GBps ? r.bytes / s / 1e9 : r.flops / s / 1e12;
      }
  }
  finish_ladder(ladder, ceiling);
  finish_ladder(refs, ceiling);
  for (auto& r : refs) r.speedup_vs_prev = r.speedup_vs_first = 0;  // not a rung of the ladder
  rows = ladder;
  rows.insert(rows.end(), refs.begin(), refs.end());
}

void attach_step_lines(std::vector<StepResult>& rows, const std::string& step_lines) {
  std::size_t start = 0;
  while (start < step_lines.size()) {
    std::size_t end = step_lines.find(',', start);
    if (end == std::string::npos) end = step_lines.size();
    const std::string item = step_lines.substr(start, end - start);
    if (const std::size_t eq = item.find('='); eq != std::string::npos)
      for (auto& r : rows)
        if (r.name == item.substr(0, eq)) r.lines_of_code = std::atoi(item.c_str() + eq + 1);
    start = end + 1;
  }
}

std::vector<std::string> failed_rows(const std::vector<StepResult>& rows) {
  std::vector<std::string> failed;
  for (const auto& r : rows)
    if (!r.verified) failed.push_back(r.name);
  return failed;
}

nlohmann::json rows_json(const std::vector<StepResult>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) out.push_back(to_json(r));
  return out;
}

}  // namespace tutor::detail
