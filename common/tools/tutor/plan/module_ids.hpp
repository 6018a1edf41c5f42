#pragma once
// Module ids as the learner types them: case does not matter (a02 is A02), an unknown one is
// bad input naming the ids there are.
#include <string>
#include <string_view>
#include <vector>

#include "tutor/curriculum.hpp"

namespace tutor::plan {

/// The curriculum's ids in a few words: a run per track ("A01..A16, B01..B07, C01..C07"), or
/// the ids one by one where a track's numbers are not consecutive from 01.
std::string module_id_ranges(const curriculum::Curriculum& curriculum);

/// `typed` as the curriculum spells it (upper case). Throws UsageError "<context>: unknown
/// module '<typed>'; the modules are A01..A16, ..." when there is no such module.
std::string canonical_module_id(const curriculum::Curriculum& curriculum, std::string_view typed,
                                std::string_view context);

/// canonical_module_id of each, in the order given, each id once.
std::vector<std::string> canonical_module_ids(const curriculum::Curriculum& curriculum,
                                              const std::vector<std::string>& typed, std::string_view context);

}  // namespace tutor::plan
