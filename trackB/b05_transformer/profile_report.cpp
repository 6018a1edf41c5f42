// B05 profile: the table, CSV, SVG and record rows of a run, and the --model-gpu and --list
// tables (profile_report.hpp).
#include "profile_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tutor/report.hpp"

namespace tutor::b05 {
namespace {

constexpr const char* kRooflineFormula =
    "roofline time = max(FLOPs / compute roof, bytes / memory roof) (Williams, Waterman and Patterson, CACM 52(4) "
    "2009, eq. 1, read as a time); FLOPs and bytes by B05's conventions (profile_model.hpp: 2 FLOPs per "
    "multiply-accumulate, Kaplan et al. 2020 Table 1; attention 4 n_q d per causal (query, key) pair, Korthikanti "
    "et al. 2022 sec. 4.1; bytes the minimum, weights and KV read once, Pope et al. 2022 sec. 2)";

std::string kernel_of(SubOp op) {
  switch (op) {
    case SubOp::attn_norm:
    case SubOp::mlp_norm: return "our rmsnorm_kernel (one block per row)";
    case SubOp::rope: return "our rope_kv_kernel (one thread per pair)";
    case SubOp::attention: return "our attention_kernel (one block per token and head; not FlashAttention)";
    case SubOp::attn_residual:
    case SubOp::mlp_residual: return "our residual_add_kernel";
    case SubOp::silu_mul: return "our silu_mul_kernel";
    default: return "the vendor BLAS (cublasGemmEx on NVIDIA: bf16, fp32 accumulation)";
  }
}

nlohmann::json prediction_json(const Prediction& p) {
  return {{"compute_ms", p.compute_ms}, {"memory_ms", p.memory_ms}, {"time_ms", p.time_ms}, {"bound", p.bound}};
}

std::string tokens_text(std::int64_t n) { return n == 1 ? "1 token" : fmt::format("{} tokens", n); }

std::string ms_text(double ms) { return ms >= 100 ? fmt::format("{:.1f}", ms) : fmt::format("{:.4f}", ms); }

// Eleven distinguishable colours, one per sub-op (the GEMMs in blues, our kernels in warm colours).
constexpr const char* kColors[] = {"#fdae6b", "#08519c", "#e6550d", "#d62728", "#3182bd", "#bcbddc",
                                   "#fdd0a2", "#6baed6", "#a63603", "#9ecae1", "#756bb1"};

}  // namespace

double PhaseRun::predicted_layer_ms() const {
  double sum = 0;
  for (const auto& s : sub_ops) sum += s.predicted.time_ms;
  return sum;
}

double PhaseRun::measured_sum_ms() const {
  double sum = 0;
  for (const auto& s : sub_ops) sum += s.result.timed ? s.result.time_ms.median : 0;
  return sum;
}

void predict_sub_op(SubOpRun& run, const ProfileRoofs& roofs) {
  run.predicted = predict(run.cost.flops, run.cost.bytes, roofs.measured);
  run.bound = std::string(bound_with_launch(run.predicted, roofs.launch_ms));
  if (roofs.datasheet) run.datasheet = predict(run.cost.flops, run.cost.bytes, *roofs.datasheet);
}

void print_phase(std::FILE* out, const PhaseRun& run, const ProfileRoofs& roofs, bool flush_l2) {
  const Phase& p = run.phase;
  fmt::print(out, "\n{}: {}; each sequence's KV cache holds {}; {}\n", p.label(), tokens_text(p.tokens()),
             tokens_text(p.cache_tokens()),
             flush_l2 ? "L2 flushed before every timed launch" : "L2 not flushed (--no-flush-l2)");
  fmt::print(out, "{:<14} {:>28} {:>10} {:>9} {:>8} {:>8} {:>11} {:>8} {:<8} {:>12} {:>6} {}\n", "sub-op",
             "time ms: median (min-max)", "GFLOP", "MB", "TFLOP/s", "GB/s", "roofline ms", "x roof", "bound",
             roofs.datasheet ? "datasheet ms" : "", "vs L2", "verified");
  for (const SubOpRun& s : run.sub_ops) {
    const StepResult& r = s.result;
    const std::string name(to_string(s.cost.op));
    const std::string ds = s.datasheet ? ms_text(s.datasheet->time_ms) : "";
    if (!r.timed) {
      fmt::print(out, "{:<14} {:>28} {:>10.3f} {:>9.2f} {:>8} {:>8} {:>11} {:>8} {:<8} {:>12} {:>6} NO: {}\n", name,
                 "not timed", s.cost.flops / 1e9, s.cost.bytes / 1e6, "", "", ms_text(s.predicted.time_ms), "",
                 s.bound, ds, s.inputs_exceed_l2 ? "> L2" : "< L2",
                 r.checks.empty() ? std::string("not run") : r.checks.back().cmp.reason);
      continue;
    }
    fmt::print(out, "{:<14} {:>28} {:>10.3f} {:>9.2f} {:>8} {:>8.0f} {:>11} {:>7.2f}x {:<8} {:>12} {:>6} {}\n", name,
               fmt::format("{} ({}-{})", ms_text(r.time_ms.median), ms_text(r.time_ms.min), ms_text(r.time_ms.max)),
               s.cost.flops / 1e9, s.cost.bytes / 1e6, s.cost.flops > 0 ? fmt::format("{:.1f}", r.TFLOPs) : "-",
               r.GBps, ms_text(s.predicted.time_ms), r.time_ms.median / s.predicted.time_ms, s.bound, ds,
               s.inputs_exceed_l2 ? "> L2" : "< L2", r.verified ? "yes" : "NO");
  }
  double flops = 0, bytes = 0, ds_sum = 0;
  for (const SubOpRun& s : run.sub_ops) {
    flops += s.cost.flops, bytes += s.cost.bytes;
    ds_sum += s.datasheet ? s.datasheet->time_ms : 0;
  }
  const double predicted = run.predicted_layer_ms(), measured = run.measured_sum_ms();
  fmt::print(out, "{:<14} {:>28} {:>10.3f} {:>9.2f} {:>8} {:>8} {:>11} {:>7.2f}x {:<8} {:>12}\n", "sum of sub-ops",
             ms_text(measured), flops / 1e9, bytes / 1e6, "", "", ms_text(predicted), measured / predicted, "",
             roofs.datasheet ? ms_text(ds_sum) : "");
  const StepResult& l = run.layer;
  if (l.timed)
    fmt::print(out, "{:<14} {:>28} {:>10} {:>9} {:>8} {:>8} {:>11} {:>7.2f}x {:<8} {:>12} {:>6} {}\n", "whole layer",
               fmt::format("{} ({}-{})", ms_text(l.time_ms.median), ms_text(l.time_ms.min), ms_text(l.time_ms.max)),
               "", "", "", "", ms_text(predicted), l.time_ms.median / predicted, "", "", "",
               l.verified ? "yes" : "NO");
  else
    fmt::print(out, "{:<14} not timed: a sub-op failed its check\n", "whole layer");
}

void print_gemm_summary(std::FILE* out, const std::vector<PhaseRun>& runs) {
  std::string within, outside;
  for (const PhaseRun& run : runs)
    for (const SubOpRun& s : run.sub_ops) {
      if (!is_gemm(s.cost.op) || s.cost.flops <= 1e9 || !s.result.timed) continue;
      const double ratio = s.result.time_ms.median / s.predicted.time_ms;
      std::string& list = std::abs(ratio - 1) <= 0.25 ? within : outside;
      list += fmt::format("{}{} {} {:.2f}x", list.empty() ? "" : ", ", run.phase.label(), to_string(s.cost.op), ratio);
    }
  fmt::print(out, "\nGEMMs above 1 GFLOP within 25% of the roofline: {}\n", within.empty() ? "none" : within);
  fmt::print(out, "GEMMs above 1 GFLOP outside 25% of the roofline: {}\n", outside.empty() ? "none" : outside);
}

std::string profile_csv(const std::vector<PhaseRun>& runs) {
  std::string csv =
      "phase,sub_op,verified,time_ms_median,time_ms_min,time_ms_max,flops,bytes,TFLOPs,GBps,roofline_ms,"
      "roofline_compute_ms,roofline_memory_ms,measured_over_roofline,bound,datasheet_ms,bytes_over_l2\n";
  for (const PhaseRun& run : runs) {
    for (const SubOpRun& s : run.sub_ops) {
      const StepResult& r = s.result;
      csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", run.phase.id(), to_string(s.cost.op),
                         r.verified, r.timed ? r.time_ms.median : 0, r.timed ? r.time_ms.min : 0,
                         r.timed ? r.time_ms.max : 0, s.cost.flops, s.cost.bytes, r.TFLOPs, r.GBps, s.predicted.time_ms,
                         s.predicted.compute_ms, s.predicted.memory_ms,
                         r.timed ? r.time_ms.median / s.predicted.time_ms : 0, s.bound,
                         s.datasheet ? s.datasheet->time_ms : 0, s.inputs_exceed_l2);
    }
    const StepResult& l = run.layer;
    const double predicted = run.predicted_layer_ms();
    double flops = 0, bytes = 0;
    for (const SubOpRun& s : run.sub_ops) flops += s.cost.flops, bytes += s.cost.bytes;
    csv += fmt::format("{},layer,{},{},{},{},{},{},{},{},{},,,{},,,\n", run.phase.id(), l.verified,
                       l.timed ? l.time_ms.median : 0, l.timed ? l.time_ms.min : 0, l.timed ? l.time_ms.max : 0, flops,
                       bytes, l.TFLOPs, l.GBps, predicted, l.timed ? l.time_ms.median / predicted : 0);
  }
  return csv;
}

std::string profile_svg(const std::vector<PhaseRun>& runs, const std::string& title) {
  const double left = 70, top = 50, plot_h = 380, bar_w = 46, gap_in = 8, gap_out = 56, legend_w = 170;
  const double plot_w = std::max(1.0, double(runs.size())) * (2 * bar_w + gap_in + gap_out) + gap_out;
  const double width = left + plot_w + legend_w, height = top + plot_h + 90;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
  svg += fmt::format("<text x=\"{:.0f}\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
                     left + plot_w / 2, title);
  // The y axis: the share of the step's time, 0 to 100%.
  for (int pct = 0; pct <= 100; pct += 25) {
    const double y = top + plot_h * (1 - pct / 100.0);
    svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n", left, y,
                       left + plot_w, y);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}%</text>\n", left - 6, y + 4, pct);
  }
  svg += fmt::format("<text transform=\"translate(18 {:.1f}) rotate(-90)\" text-anchor=\"middle\">share of the "
                     "step's layer time</text>\n",
                     top + plot_h / 2);
  double x = left + gap_out;
  for (const PhaseRun& run : runs) {
    for (int bar = 0; bar < 2; ++bar) {  // 0: measured medians, 1: roofline times on the measured roofs
      double total = 0;
      for (const SubOpRun& s : run.sub_ops)
        total += bar == 0 ? (s.result.timed ? s.result.time_ms.median : 0) : s.predicted.time_ms;
      double y = top + plot_h;
      for (std::size_t i = 0; i < run.sub_ops.size() && total > 0; ++i) {
        const SubOpRun& s = run.sub_ops[i];
        const double t = bar == 0 ? (s.result.timed ? s.result.time_ms.median : 0) : s.predicted.time_ms;
        const double hgt = plot_h * t / total;
        y -= hgt;
        svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.2f}\" width=\"{:.1f}\" height=\"{:.2f}\" fill=\"{}\"><title>{} "
                           "{}: {} ms</title></rect>\n",
                           x, y, bar_w, hgt, kColors[std::size_t(s.cost.op) % std::size(kColors)], to_string(s.cost.op),
                           bar == 0 ? "measured" : "roofline", ms_text(t));
      }
      svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"10\">{:.3g} ms</text>\n",
                         x + bar_w / 2, top - 6, total);
      svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"10\">{}</text>\n",
                         x + bar_w / 2, top + plot_h + 14, bar == 0 ? "meas." : "roof");
      x += bar_w + (bar == 0 ? gap_in : 0);
    }
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", x - bar_w - gap_in / 2,
                       top + plot_h + 32, run.phase.label());
    x += gap_out;
  }
  svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"10\">meas.: median device time per sub-op; roof: "
                     "max(FLOPs / measured GEMM rate, bytes / measured copy bandwidth)</text>\n",
                     left, top + plot_h + 56);
  double ly = top;
  for (const SubOp op : kSubOps) {
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n", left + plot_w + 10,
                       ly, kColors[std::size_t(op) % std::size(kColors)]);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", left + plot_w + 28, ly + 10, to_string(op));
    ly += 20;
  }
  svg += "</svg>\n";
  return svg;
}

nlohmann::json measurement_rows(const std::vector<PhaseRun>& runs) {
  nlohmann::json rows = nlohmann::json::array();
  for (const PhaseRun& run : runs) {
    for (const SubOpRun& s : run.sub_ops) {
      nlohmann::json j = to_json(s.result);
      j["phase"] = run.phase.id();
      j["inputs_exceed_l2"] = s.inputs_exceed_l2;
      rows.push_back(j);
    }
    nlohmann::json j = to_json(run.layer);
    j["phase"] = run.phase.id();
    j["measured_sum_of_sub_ops_ms"] = run.measured_sum_ms();
    rows.push_back(j);
  }
  return rows;
}

nlohmann::json prediction_block(const std::vector<PhaseRun>& runs, const ProfileRoofs& roofs) {
  nlohmann::json block = {{"kind", "model"}, {"formula", kRooflineFormula}};
  block["roofs"]["measured"] = {{"kind", "measurement"},
                                {"compute_TFLOPs", roofs.measured.compute_TFLOPs},
                                {"compute_source", roofs.compute_source},
                                {"memory_GBps", roofs.measured.memory_GBps},
                                {"memory_source", roofs.memory_source},
                                {"launch_ms", roofs.launch_ms},
                                {"launch_source", "device events around one empty kernel of one block (median)"}};
  if (roofs.datasheet)
    block["roofs"]["datasheet"] = {{"kind", "model"},
                                   {"gpu", roofs.datasheet_gpu},
                                   {"bf16_TFLOPs", roofs.datasheet->compute_TFLOPs},
                                   {"hbm_GBps", roofs.datasheet->memory_GBps},
                                   {"sources", roofs.datasheet_sources}};
  else
    block["roofs"]["datasheet"] = nullptr;
  nlohmann::json rows = nlohmann::json::array(), layers = nlohmann::json::array();
  for (const PhaseRun& run : runs) {
    for (const SubOpRun& s : run.sub_ops) {
      nlohmann::json j = {{"phase", run.phase.id()},
                          {"name", to_string(s.cost.op)},
                          {"flops", s.cost.flops},
                          {"bytes", s.cost.bytes},
                          {"weight_bytes", s.cost.weight_bytes},
                          {"flops_formula", s.cost.flops_formula},
                          {"bytes_formula", s.cost.bytes_formula},
                          {"roofline", prediction_json(s.predicted)},
                          {"bound", s.bound},
                          {"datasheet", s.datasheet ? prediction_json(*s.datasheet) : nlohmann::json(nullptr)}};
      if (s.result.timed) j["measured_over_roofline"] = s.result.time_ms.median / s.predicted.time_ms;
      rows.push_back(j);
    }
    nlohmann::json l = {{"phase", run.phase.id()}, {"roofline_ms", run.predicted_layer_ms()}};
    if (run.layer.timed) l["measured_over_roofline"] = run.layer.time_ms.median / run.predicted_layer_ms();
    layers.push_back(l);
  }
  block["rows"] = rows;
  block["layers"] = layers;
  return block;
}

void print_model_tables(std::FILE* out, const std::string& model_name, const LayerShape& layer,
                        const std::vector<Phase>& phases, const Roofs& datasheet, const std::string& gpu_name,
                        const std::string& sources) {
  fmt::print(out, "kind: model (the datasheet roofs of {}; no GPU used, nothing measured)\n", gpu_name);
  fmt::print(out, "model: {}: one decoder layer, h {}, {} query / {} KV heads x {}, MLP {} (gated), bf16\n", model_name,
             layer.hidden, layer.heads, layer.kv_heads, layer.head_dim, layer.intermediate);
  fmt::print(out, "roofs: bf16 dense {:g} TFLOP/s, HBM {:g} GB/s ({})\n", datasheet.compute_TFLOPs,
             datasheet.memory_GBps, sources);
  fmt::print(out, "{}\n", kRooflineFormula);
  for (const Phase& p : phases) {
    const std::vector<SubOpCost> costs = layer_costs(layer, p);
    double total = 0;
    for (const auto& c : costs) total += predict(c.flops, c.bytes, datasheet).time_ms;
    fmt::print(out, "\n{}: {}; each sequence's KV cache holds {}\n", p.label(), tokens_text(p.tokens()),
               tokens_text(p.cache_tokens()));
    fmt::print(out, "{:<14} {:>10} {:>10} {:>11} {:>11} {:>11} {:<8} {:>7}\n", "sub-op", "GFLOP", "MB", "compute ms",
               "memory ms", "roofline ms", "bound", "share");
    for (const auto& c : costs) {
      const Prediction pr = predict(c.flops, c.bytes, datasheet);
      fmt::print(out, "{:<14} {:>10.3f} {:>10.2f} {:>11} {:>11} {:>11} {:<8} {:>6.1f}%\n", to_string(c.op), c.flops / 1e9,
                 c.bytes / 1e6, ms_text(pr.compute_ms), ms_text(pr.memory_ms), ms_text(pr.time_ms), pr.bound,
                 100 * pr.time_ms / total);
    }
    fmt::print(out, "{:<14} {:>10} {:>10} {:>11} {:>11} {:>11}\n", "layer", "", "", "", "", ms_text(total));
  }
}

std::string sub_op_table() {
  std::string t = "| # | sub-op | what it computes | what runs it |\n| ---: | --- | --- | --- |\n";
  int n = 0;
  for (const SubOp op : kSubOps)
    t += fmt::format("| {} | {} | {} | {} |\n", ++n, to_string(op), describe(op), kernel_of(op));
  return t;
}

}  // namespace tutor::b05
