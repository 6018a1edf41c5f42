// PLACEHOLDER: implemented by the curriculum work.
#include "tutor/curriculum.hpp"
