#pragma once
// B07 exercise "bubble": the pipeline bubble of a schedule, and the activations its first stage
// holds at its peak.
//
// Write pipeline_bubble in bubble.cpp. The checker (check_bubble.cpp) compares it with B07's
// schedule simulator, tutor::b07::simulate (pipeline_schedule.hpp), which builds every stage's
// slot order and times it: GPipe, 1F1B and interleaved 1F1B, over many p, m, v and pass times.
#include "pipeline_schedule.hpp"

namespace tutor::b07::exercise {

struct BubbleAnswer {
  /// Idle time of a stage over its own work, m (t_f + t_b): (step time - m (t_f + t_b)) / (m (t_f + t_b)).
  double bubble_fraction = 0;
  /// The largest number of (micro-batch, chunk) forwards the FIRST stage has run whose backward
  /// has not finished: the activations it must hold, in units of one micro-batch through one chunk.
  int first_stage_peak_in_flight = 0;
};

/// `schedule` over p = `stages` GPUs, m = `microbatches` micro-batches, v = `virtual_stages` chunks
/// per GPU (interleaved only, else 1); t_f and t_b: one micro-batch's forward and backward through
/// all of a stage's layers (an interleaved chunk takes t_f / v and t_b / v).
BubbleAnswer pipeline_bubble(Schedule schedule, int stages, int microbatches, int virtual_stages, double forward_time,
                             double backward_time);

}  // namespace tutor::b07::exercise
