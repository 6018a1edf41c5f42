#pragma once
// B07: pipeline-parallel schedules, built slot by slot and timed by simulation.
//
// A model of L layers is cut into p stages (one per GPU). A mini-batch is cut into m
// micro-batches. Each stage runs, in a fixed order, the forward (F) and backward (B) pass
// of every micro-batch through its layers; F of micro-batch i on stage s waits for F of i
// on stage s-1, B of i on stage s waits for B of i on stage s+1. The three schedules differ
// only in the order each stage runs its slots:
//
//   gpipe        all m forwards, then all m backwards (Huang et al. 2019, "GPipe: Efficient
//                Training of Giant Neural Networks using Pipeline Parallelism", NeurIPS).
//   1f1b         PipeDream-Flush: stage s runs min(p-s-1, m) warm-up forwards, then alternates
//                one forward and one backward, then drains the backwards (Narayanan et al.
//                2021, "Memory-Efficient Pipeline-Parallel DNN Training", ICML, sec. 3.1).
//   interleaved  each GPU holds v chunks of L/(pv) layers (virtual stages: chunk c of GPU s
//                is virtual stage c*p + s); a 1F1B order over chunk-micro-batches whose
//                warm-up is 2(p-s-1) + (v-1)p (Narayanan et al. 2021, "Efficient Large-Scale
//                Language Model Training on GPU Clusters Using Megatron-LM", SC'21, sec. 2.2.2;
//                the order Megatron-LM's forward_backward_pipelining_with_interleaving runs).
//
// The slots are timed by list scheduling (each slot starts when its stage is free and its
// dependency has finished; communication between stages costs nothing here), and the
// simulated bubble is compared with the closed forms:
//   gpipe, 1f1b:  bubble time (p-1)(t_f + t_b),  fraction (p-1)/m        (Narayanan SC'21 sec. 2.2.1)
//   interleaved:  bubble time (p-1)(t_f + t_b)/v, fraction (p-1)/(v m)   (Narayanan SC'21 sec. 2.2.2)
// where the bubble fraction is bubble time over the ideal time m (t_f + t_b), as those papers
// define it (not over the step time).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tutor::b07 {

enum class Schedule { gpipe, one_f_one_b, interleaved };

/// "gpipe", "1f1b" (also "pipedream-flush"), "interleaved"; std::nullopt otherwise.
std::optional<Schedule> parse_schedule(std::string_view name);
/// "gpipe", "1f1b", "interleaved".
std::string_view name(Schedule s);

enum class Pass { forward, backward };

/// One slot of a stage's timeline. Times are in the caller's unit (t_f = 1 by default).
struct Slot {
  Pass pass;
  int microbatch;  ///< 0 .. m-1
  int chunk;       ///< 0 .. v-1 (always 0 unless interleaved)
  double start;
  double end;
};

/// One stage (GPU): its slots in the order it runs them, how long it computes, and the
/// largest number of (micro-batch, chunk) forward passes whose backward has not finished:
/// the activations it must hold at its peak, in units of one micro-batch through one chunk.
struct StageTimeline {
  std::vector<Slot> slots;
  double busy_time = 0;
  int peak_in_flight = 0;
};

struct PipelineParams {
  Schedule schedule = Schedule::one_f_one_b;
  int stages = 1;          ///< p >= 1
  int microbatches = 1;    ///< m >= 1 (interleaved: a multiple of p, as Megatron-LM requires)
  int virtual_stages = 1;  ///< v >= 1 chunks per GPU (interleaved only; 1 for the others)
  double forward_time = 1;   ///< t_f: one micro-batch's forward through ALL of a stage's layers
  double backward_time = 2;  ///< t_b: its backward (default 2 t_f: backward = two matmuls per forward one)
};

/// Throws std::invalid_argument naming the option: "--stages" (p < 1), "--microbatches"
/// (m < 1; interleaved: m not a multiple of p), "--virtual-stages" (v < 1; v > 1 without
/// interleaved; interleaved with v < 2 or p < 2), "--forward-time" / "--backward-time"
/// (not finite or <= 0).
void validate(const PipelineParams& params);

struct PipelineRun {
  PipelineParams params;
  std::vector<StageTimeline> stages;  ///< p entries
  double step_time = 0;               ///< makespan: last slot's end on any stage
  double ideal_time = 0;              ///< m (t_f + t_b): a stage's own work
  double bubble_time = 0;             ///< step_time - ideal_time: idle time of each stage
  double bubble_fraction = 0;         ///< bubble_time / ideal_time (simulated)
  double closed_form_bubble_fraction = 0;  ///< bubble_fraction_closed_form(...)
  double idle_share = 0;              ///< bubble_time / step_time: share of the step a GPU idles
};

/// Builds every stage's slot order for `params` and times it. Throws as validate() does.
/// Throws std::logic_error if the order deadlocks (it cannot for these three schedules).
PipelineRun simulate(const PipelineParams& params);

/// (p-1)/m for gpipe and 1f1b, (p-1)/(v m) for interleaved (sources above).
double bubble_fraction_closed_form(Schedule s, int stages, int microbatches, int virtual_stages);

/// The closed form of the first stage's peak in-flight count, in (micro-batch, chunk) units:
/// gpipe m (every forward runs before any backward); 1f1b min(p, m) (Narayanan ICML'21 sec.
/// 3.1: at most p micro-batches in flight); interleaved: all m v when m == p (Megatron-LM
/// runs every forward first), else min(m v, (v-1)p + 2(p-1) + 1), the warm-up plus one. Times
/// L/(p v) layers this is the first stage's activation count; for 1f1b with m >= p it is
/// p x L/p = L layers whatever p is (Korthikanti et al. 2022, sec. 4.2.3), and for
/// interleaved L (1 + (p-1)/(p v)) layers.
int first_stage_peak_in_flight(Schedule s, int stages, int microbatches, int virtual_stages);

/// The timeline as text, one row per stage, one character per unit of t_f / v: the forward
/// of micro-batch i as the letter 'A' + i % 26, its backward as 'a' + i % 26, idle as '.'.
/// Empty when the timeline would be wider than `max_columns` characters or the times are not
/// whole multiples of the unit.
std::string render_text(const PipelineRun& run, int max_columns = 240);

/// The timeline as a standalone SVG document: one row per stage, a box per slot (forward
/// blue, backward green; chunks of an interleaved schedule in lighter shades), micro-batch
/// numbers inside the boxes that are wide enough, idle time left white with a red outline.
std::string render_svg(const PipelineRun& run);

}  // namespace tutor::b07
