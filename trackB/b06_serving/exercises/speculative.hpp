#pragma once
// B06 exercise "speculative": what one verification step of speculative decoding yields.
//
// Write the two functions in speculative.cpp. The checker (check_speculative.cpp) compares them
// with B06's tutor::b06::expected_tokens_per_step and tutor::b06::speedup (spec_decode.hpp of the
// module) over a grid of acceptance rates, draft lengths and cost ratios, random ones, and the
// edges (a = 0, a = 1, just below 1, long drafts).

namespace tutor::b06::exercise {

/// Expected tokens one step yields when the draft proposes `draft_tokens` tokens (k >= 1) and the
/// target accepts each with probability `acceptance_rate` (a in [0, 1]), independently, stopping
/// at the first rejection; the target adds one token of its own every step.
double expected_tokens_per_step(double acceptance_rate, int draft_tokens);

/// Wall-time improvement over plain decoding when one draft forward costs `cost_ratio` (c >= 0)
/// target forwards and the target verifies the k + 1 positions in the time of one forward.
double speedup(double acceptance_rate, int draft_tokens, double cost_ratio);

}  // namespace tutor::b06::exercise
