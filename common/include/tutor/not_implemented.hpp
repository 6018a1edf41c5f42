#pragma once
// What an exercise stub throws where the learner has not written the code yet. The checker
// (tutor/exercise.hpp) shows the message as the case's result, so the stub fails with a line
// that says what to write next ("not implemented yet: KV bytes of a full-attention layer"),
// never a crash or a plausible wrong number.
#include <stdexcept>
#include <string>

namespace tutor::exercise {

class NotImplemented : public std::logic_error {
 public:
  explicit NotImplemented(const std::string& what) : std::logic_error("not implemented yet: " + what) {}
};

}  // namespace tutor::exercise
