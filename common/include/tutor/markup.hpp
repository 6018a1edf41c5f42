#pragma once
// Text placed into HTML, SVG or XML: one escape for every writer of markup (plots, the reference
// sheets, the Anki export).
#include <string>
#include <string_view>

namespace tutor {

/// `text` with &, <, > and " replaced by their entities (HTML Living Standard, "Escaping a
/// string"; XML 1.0 section 2.4), so it is safe as element text and inside a double-quoted
/// attribute value. Single quotes are left alone: callers that quote attributes with ' escape them.
std::string escape_markup(std::string_view text);

}  // namespace tutor
