// B07 exercise "bubble": YOUR CODE. Fill in each TODO, then run
//   ./build-host/b07_exercise_bubble
// until every case passes (README.md in this folder: draw the schedules first).
#include "bubble.hpp"
#include "tutor/not_implemented.hpp"

namespace tutor::b07::exercise {

BubbleAnswer pipeline_bubble(Schedule schedule, int stages, int microbatches, int virtual_stages, double forward_time,
                             double backward_time) {
  (void)stages;
  (void)microbatches;
  (void)virtual_stages;
  (void)forward_time;
  (void)backward_time;
  switch (schedule) {
    case Schedule::gpipe:
      // TODO: all m forwards, then all m backwards. How long does the last micro-batch wait to
      // start on the last stage, and its gradient to come back? How many forwards are in flight?
      throw tutor::exercise::NotImplemented("pipeline_bubble for GPipe");
    case Schedule::one_f_one_b:
      // TODO: warm-up forwards, then one forward one backward. Does the bubble change? What does?
      throw tutor::exercise::NotImplemented("pipeline_bubble for 1F1B");
    case Schedule::interleaved:
      // TODO: v chunks per GPU: what shrinks, by how much, and what does it cost in memory?
      throw tutor::exercise::NotImplemented("pipeline_bubble for interleaved 1F1B");
  }
  throw tutor::exercise::NotImplemented("pipeline_bubble");
}

}  // namespace tutor::b07::exercise
