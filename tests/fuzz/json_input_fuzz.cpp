// libFuzzer harness: the bounded JSON reader (tutor/json_input.hpp) on any bytes. It must
// return a tree or throw InputError; the tree it returns must print back (dump recurses, so a
// depth past the bound would overflow the stack here).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tutor/json_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const nlohmann::json j = tutor::parse_json_text(text, "fuzz.json");
    (void)j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const tutor::InputError&) {
  }
  return 0;
}
