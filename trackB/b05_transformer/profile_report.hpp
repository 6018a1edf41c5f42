#pragma once
// B05 profile: what a run found, and how it is shown: the per-phase table (human), the CSV, the
// stacked-bar SVG of the time breakdown, the record's rows, and the prediction-only table of
// `--model-gpu` (kind: model). Host code with no GPU in it, so tests can feed it made-up runs.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile_model.hpp"
#include "tutor/result.hpp"

namespace tutor::b05 {

/// The roofs the predictions divide by: measured in this run, and the datasheet's where the
/// GPU is in the table (a model).
struct ProfileRoofs {
  Roofs measured;
  std::string compute_source;  ///< what measured the compute roof ("cublasGemmEx ... 8192^3")
  std::string memory_source;   ///< what measured the memory roof ("device-to-device copy (cudaMemcpy)")
  double launch_ms = 0;        ///< device time of an empty kernel, measured (0: unknown)
  std::optional<Roofs> datasheet;
  std::string datasheet_gpu;   ///< the table row's name
  std::string datasheet_sources;
};

/// One sub-op of one step as measured, with its two predictions.
struct SubOpRun {
  SubOpCost cost;
  StepResult result;      ///< verified, checks, time_ms, bytes, flops, GBps, TFLOPs
  Prediction predicted;   ///< on the measured roofs
  std::optional<Prediction> datasheet;
  std::string bound;      ///< bound_with_launch on the measured roofs
  bool inputs_exceed_l2 = false;  ///< the sub-op's bytes are more than the L2 holds
};

/// One step: its eleven sub-ops and the whole layer launched as one sequence.
struct PhaseRun {
  Phase phase;
  std::vector<SubOpRun> sub_ops;
  StepResult layer;  ///< the eleven launches back to back, timed as one
  double predicted_layer_ms() const;  ///< sum of the sub-ops' roofline times (measured roofs)
  double measured_sum_ms() const;     ///< sum of the sub-ops' median times
};

/// Fills a SubOpRun's prediction, datasheet prediction and bound from its cost and `roofs`.
void predict_sub_op(SubOpRun& run, const ProfileRoofs& roofs);

/// The table of one step (stdout or stderr, as Outputs::human says).
void print_phase(std::FILE* out, const PhaseRun& run, const ProfileRoofs& roofs, bool flush_l2);

/// The GEMMs of more than 1 GFLOP, each with its measured / roofline ratio, sorted into those
/// within 25% of the roofline and those outside it (the question the table answers first).
void print_gemm_summary(std::FILE* out, const std::vector<PhaseRun>& runs);

/// The CSV: one row per (phase, sub-op) and one per phase's whole layer.
std::string profile_csv(const std::vector<PhaseRun>& runs);

/// The SVG: for each step, a bar of the measured times and a bar of the roofline times, each
/// stacked by sub-op as a share of its total (the total in ms written above it).
std::string profile_svg(const std::vector<PhaseRun>& runs, const std::string& title);

/// The record's "variants" (kind: measurement): each sub-op and layer row as to_json(StepResult)
/// plus "phase", and its "predictions" (kind: model): FLOPs, bytes, formulas, both predictions,
/// the measured / predicted ratio and the bound.
nlohmann::json measurement_rows(const std::vector<PhaseRun>& runs);
nlohmann::json prediction_block(const std::vector<PhaseRun>& runs, const ProfileRoofs& roofs);

/// `--model-gpu`: the roofline prediction of every sub-op of every step on a GPU of the table,
/// from its datasheet (kind: model, to stdout).
void print_model_tables(std::FILE* out, const std::string& model_name, const LayerShape& layer,
                        const std::vector<Phase>& phases, const Roofs& datasheet, const std::string& gpu_name,
                        const std::string& sources);

/// The `--list` table of the sub-ops (Markdown): number, name, what it computes, what runs it.
std::string sub_op_table();

}  // namespace tutor::b05
