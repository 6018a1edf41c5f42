// B07: pipeline schedules as explicit slot lists, timed by list scheduling (pipeline_schedule.hpp).
#include "pipeline_schedule.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace tutor::b07 {
namespace {

struct Op {
  Pass pass;
  int microbatch;
  int chunk;
};

/// Stage s's slot order for GPipe: every forward, then every backward.
std::vector<Op> gpipe_order(int m) {
  std::vector<Op> ops;
  for (int i = 0; i < m; ++i) ops.push_back({Pass::forward, i, 0});
  for (int i = 0; i < m; ++i) ops.push_back({Pass::backward, i, 0});
  return ops;
}

/// PipeDream-Flush (1F1B): min(p-s-1, m) warm-up forwards, then one forward and one backward
/// in turn, then the remaining backwards (Narayanan et al. ICML'21 sec. 3.1, Figure 4 top).
std::vector<Op> one_f_one_b_order(int p, int m, int s) {
  const int warmup = std::min(p - s - 1, m);
  std::vector<Op> ops;
  for (int i = 0; i < warmup; ++i) ops.push_back({Pass::forward, i, 0});
  for (int i = 0; i < m - warmup; ++i) {
    ops.push_back({Pass::forward, warmup + i, 0});
    ops.push_back({Pass::backward, i, 0});
  }
  for (int i = m - warmup; i < m; ++i) ops.push_back({Pass::backward, i, 0});
  return ops;
}

/// Interleaved 1F1B as Megatron-LM runs it (megatron/core/pipeline_parallel/schedules.py,
/// forward_backward_pipelining_with_interleaving): the k-th forward of a GPU works on chunk
/// (k mod pv) / p and micro-batch (k / pv) p + k mod p; the k-th backward on chunk
/// v-1-(k mod pv)/p of the same micro-batch; warm-up 2(p-s-1) + (v-1)p forwards (all m v
/// when m == p), then 1F1B.
std::vector<Op> interleaved_order(int p, int m, int v, int s) {
  const int total = m * v;
  const int group = p * v;
  auto microbatch = [&](int k) { return (k / group) * p + k % p; };
  auto forward_chunk = [&](int k) { return (k % group) / p; };
  auto backward_chunk = [&](int k) { return v - 1 - (k % group) / p; };
  const int warmup = m == p ? total : std::min(2 * (p - s - 1) + (v - 1) * p, total);
  std::vector<Op> ops;
  for (int k = 0; k < warmup; ++k) ops.push_back({Pass::forward, microbatch(k), forward_chunk(k)});
  for (int k = 0; k < total - warmup; ++k) {
    const int f = warmup + k;
    ops.push_back({Pass::forward, microbatch(f), forward_chunk(f)});
    ops.push_back({Pass::backward, microbatch(k), backward_chunk(k)});
  }
  for (int k = total - warmup; k < total; ++k) ops.push_back({Pass::backward, microbatch(k), backward_chunk(k)});
  return ops;
}

std::vector<Op> stage_order(const PipelineParams& pp, int s) {
  switch (pp.schedule) {
    case Schedule::gpipe: return gpipe_order(pp.microbatches);
    case Schedule::one_f_one_b: return one_f_one_b_order(pp.stages, pp.microbatches, s);
    case Schedule::interleaved: return interleaved_order(pp.stages, pp.microbatches, pp.virtual_stages, s);
  }
  return {};
}

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

/// Shade of a chunk in the SVG: 0 (darkest) for chunk 0, lighter for later chunks.
int chunk_shade(int chunk, int chunks) { return chunks <= 1 ? 0 : std::min(3, chunk * 4 / chunks); }

/// Colours of the SVG: forward blue, backward green, lighter for later chunks.
std::string slot_colour(Pass pass, int chunk, int chunks) {
  static const char* kForward[] = {"#1f77b4", "#4f9bd0", "#86bde6", "#b5d7f0"};
  static const char* kBackward[] = {"#2ca02c", "#5cbf5c", "#8fd68f", "#bfe8bf"};
  const int shade = chunk_shade(chunk, chunks);
  return pass == Pass::forward ? kForward[shade] : kBackward[shade];
}

}  // namespace

std::optional<Schedule> parse_schedule(std::string_view text) {
  std::string s;
  for (char c : text) s += char(std::tolower(static_cast<unsigned char>(c)));
  if (s == "gpipe") return Schedule::gpipe;
  if (s == "1f1b" || s == "pipedream-flush") return Schedule::one_f_one_b;
  if (s == "interleaved" || s == "interleaved-1f1b") return Schedule::interleaved;
  return std::nullopt;
}

std::string_view name(Schedule s) {
  switch (s) {
    case Schedule::gpipe: return "gpipe";
    case Schedule::one_f_one_b: return "1f1b";
    case Schedule::interleaved: return "interleaved";
  }
  return "?";
}

void validate(const PipelineParams& pp) {
  require(pp.stages >= 1, fmt::format("--stages: must be >= 1, got {}", pp.stages));
  require(pp.microbatches >= 1, fmt::format("--microbatches: must be >= 1, got {}", pp.microbatches));
  require(pp.virtual_stages >= 1, fmt::format("--virtual-stages: must be >= 1, got {}", pp.virtual_stages));
  require(std::isfinite(pp.forward_time) && pp.forward_time > 0,
          fmt::format("--forward-time: must be a finite number > 0, got {}", pp.forward_time));
  require(std::isfinite(pp.backward_time) && pp.backward_time > 0,
          fmt::format("--backward-time: must be a finite number > 0, got {}", pp.backward_time));
  if (pp.schedule != Schedule::interleaved) {
    require(pp.virtual_stages == 1, fmt::format("--virtual-stages: {} chunks per GPU need --schedule interleaved",
                                                pp.virtual_stages));
    return;
  }
  require(pp.virtual_stages >= 2, "--virtual-stages: the interleaved schedule needs >= 2 chunks per GPU");
  require(pp.stages >= 2, "--stages: the interleaved schedule needs >= 2 stages");
  // Megatron-LM: "number of microbatches must be divisible by pipeline-model-parallel-size
  // when using interleaved schedule" (the chunk/micro-batch mapping works in groups of p).
  require(pp.microbatches % pp.stages == 0,
          fmt::format("--microbatches: the interleaved schedule needs a multiple of --stages ({}), got {}",
                      pp.stages, pp.microbatches));
}

double bubble_fraction_closed_form(Schedule s, int p, int m, int v) {
  const double chunks = s == Schedule::interleaved ? v : 1;
  return double(p - 1) / (chunks * m);
}

int first_stage_peak_in_flight(Schedule s, int p, int m, int v) {
  switch (s) {
    case Schedule::gpipe: return m;
    case Schedule::one_f_one_b: return std::min(p, m);
    case Schedule::interleaved:
      return m == p ? m * v : std::min(m * v, (v - 1) * p + 2 * (p - 1) + 1);
  }
  return 0;
}

PipelineRun simulate(const PipelineParams& pp) {
  validate(pp);
  const int p = pp.stages, v = pp.virtual_stages, m = pp.microbatches;
  const int virtual_count = p * v;
  const double tf = pp.forward_time / v, tb = pp.backward_time / v;  // one chunk's share

  std::vector<std::vector<Op>> orders(p);
  for (int s = 0; s < p; ++s) orders[s] = stage_order(pp, s);

  // Finish times of each (pass, micro-batch, virtual stage), filled as slots are placed.
  std::vector<double> f_end(std::size_t(m) * virtual_count, -1), b_end(std::size_t(m) * virtual_count, -1);
  auto at = [&](int mb, int vs) { return std::size_t(mb) * virtual_count + vs; };

  PipelineRun run;
  run.params = pp;
  run.stages.resize(p);
  std::vector<std::size_t> next(p, 0);
  std::vector<double> free_at(p, 0);
  std::size_t remaining = 0;
  for (const auto& o : orders) remaining += o.size();

  // List scheduling: a stage runs its next slot as soon as the slot's dependency has
  // finished. Each pass places at least one slot unless the orders deadlock.
  while (remaining > 0) {
    bool placed = false;
    for (int s = 0; s < p; ++s) {
      while (next[s] < orders[s].size()) {
        const Op& op = orders[s][next[s]];
        const int vs = op.chunk * p + s;
        double ready = 0;
        if (op.pass == Pass::forward) {
          if (vs > 0) {
            ready = f_end[at(op.microbatch, vs - 1)];
            if (ready < 0) break;
          }
        } else {
          ready = vs + 1 < virtual_count ? b_end[at(op.microbatch, vs + 1)] : f_end[at(op.microbatch, vs)];
          if (ready < 0) break;
        }
        const double start = std::max(free_at[s], ready);
        const double end = start + (op.pass == Pass::forward ? tf : tb);
        (op.pass == Pass::forward ? f_end : b_end)[at(op.microbatch, vs)] = end;
        free_at[s] = end;
        run.stages[s].slots.push_back({op.pass, op.microbatch, op.chunk, start, end});
        run.stages[s].busy_time += end - start;
        ++next[s];
        --remaining;
        placed = true;
      }
    }
    if (!placed) throw std::logic_error("pipeline schedule deadlocked: a slot waits for one that never runs");
  }

  for (auto& st : run.stages) {
    int in_flight = 0;
    for (const Slot& slot : st.slots) {
      in_flight += slot.pass == Pass::forward ? 1 : -1;
      st.peak_in_flight = std::max(st.peak_in_flight, in_flight);
    }
    run.step_time = std::max(run.step_time, st.slots.empty() ? 0.0 : st.slots.back().end);
  }
  run.ideal_time = m * (pp.forward_time + pp.backward_time);
  // Each stage runs its m forwards and m backwards one after another, so step >= ideal; a
  // difference below 0 is the rounding of summing slot times (p = 1 printed -3.55e-15).
  run.bubble_time = std::max(0.0, run.step_time - run.ideal_time);
  run.bubble_fraction = run.bubble_time / run.ideal_time;
  run.idle_share = run.bubble_time / run.step_time;
  run.closed_form_bubble_fraction = bubble_fraction_closed_form(pp.schedule, p, m, v);
  return run;
}

std::string render_text(const PipelineRun& run, int max_columns) {
  const double unit = run.params.forward_time / run.params.virtual_stages;
  const double columns_exact = run.step_time / unit;
  const auto columns = static_cast<long long>(std::llround(columns_exact));
  if (columns > max_columns || std::abs(columns_exact - double(columns)) > 1e-9 * columns_exact) return {};
  std::string out;
  const int label_width = int(fmt::format("stage {}", run.stages.size() - 1).size());
  for (std::size_t s = 0; s < run.stages.size(); ++s) {
    std::string row(std::size_t(columns), '.');
    for (const Slot& slot : run.stages[s].slots) {
      const double first = slot.start / unit, last = slot.end / unit;
      if (std::abs(first - std::round(first)) > 1e-9 * (1 + first) || std::abs(last - std::round(last)) > 1e-9 * (1 + last))
        return {};  // times not on the grid (a backward time that is not a multiple of the unit)
      const char c = char((slot.pass == Pass::forward ? 'A' : 'a') + slot.microbatch % 26);
      for (long long col = std::llround(first); col < std::llround(last); ++col) row[std::size_t(col)] = c;
    }
    out += fmt::format("{:>{}} |{}|\n", fmt::format("stage {}", s), label_width, row);
  }
  return out;
}

std::string render_svg(const PipelineRun& run) {
  const auto& pp = run.params;
  const double width = 1000, left = 80, right = 20, top = 60, row_height = 28, gap = 6;
  const double scale = (width - left - right) / run.step_time;
  const double height = top + double(run.stages.size()) * (row_height + gap) + 50;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height, width, height);
  svg += fmt::format(
      "<text x=\"{:.0f}\" y=\"22\" font-size=\"14\">{} schedule, p = {} stages, m = {} micro-batches{} (kind: "
      "simulation)</text>\n",
      left, name(pp.schedule), pp.stages, pp.microbatches,
      pp.schedule == Schedule::interleaved ? fmt::format(", v = {} chunks per GPU", pp.virtual_stages) : "");
  svg += fmt::format(
      "<text x=\"{:.0f}\" y=\"40\">bubble = {:.4g} of the ideal time (closed form {:.4g}); a GPU idles {:.1f}% of "
      "the step. Blue: forward, green: backward, white: bubble{}.</text>\n",
      left, run.bubble_fraction, run.closed_form_bubble_fraction, 100 * run.idle_share,
      pp.virtual_stages > 1 ? "; lighter: later chunks" : "");
  for (std::size_t s = 0; s < run.stages.size(); ++s) {
    const double y = top + double(s) * (row_height + gap);
    svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.1f}\" text-anchor=\"end\">stage {}</text>\n", left - 8,
                       y + row_height * 0.65, s);
    svg += fmt::format("<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"white\" "
                       "stroke=\"#d62728\" stroke-width=\"1\"/>\n",
                       left, y, run.step_time * scale, row_height);
    for (const Slot& slot : run.stages[s].slots) {
      const double x = left + slot.start * scale, w = (slot.end - slot.start) * scale;
      svg += fmt::format("<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\" "
                         "stroke=\"white\" stroke-width=\"0.5\"><title>{} micro-batch {}{}: {:g} - {:g}</title></rect>\n",
                         x, y, w, row_height, slot_colour(slot.pass, slot.chunk, pp.virtual_stages),
                         slot.pass == Pass::forward ? "forward" : "backward", slot.microbatch,
                         pp.virtual_stages > 1 ? fmt::format(", chunk {}", slot.chunk) : "", slot.start, slot.end);
      if (w >= 14)
        svg += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
                           x + w / 2, y + row_height * 0.65,
                           chunk_shade(slot.chunk, pp.virtual_stages) >= 2 ? "black" : "white", slot.microbatch);
    }
  }
  const double axis_y = top + double(run.stages.size()) * (row_height + gap) + 16;
  svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.1f}\">time 0</text>\n", left, axis_y);
  svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.1f}\" text-anchor=\"end\">{:g} (t_f = {:g}, t_b = {:g} per "
                     "micro-batch per stage)</text>\n",
                     width - right, axis_y, run.step_time, pp.forward_time, pp.backward_time);
  svg += "</svg>\n";
  return svg;
}

}  // namespace tutor::b07
