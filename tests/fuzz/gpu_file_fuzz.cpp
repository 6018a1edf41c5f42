// libFuzzer harness: a GPU file (`--gpu file.json` of b06_serving and c07_capstone) through the
// JSON reader and B06's GPU reader. Bad input is a UsageError; an accepted GPU has numbers in
// range.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gpu_choice.hpp"
#include "tutor/json_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const tutor::b06::GpuChoice g = tutor::b06::gpu_from_json(tutor::parse_json_text(text, "gpu.json"), "gpu.json");
    if (!(g.memory.total_bytes > 0 && std::isfinite(g.memory.total_bytes) && g.hbm_bandwidth_GBps > 0 && g.bf16_TFLOPs > 0))
      std::abort();
    (void)tutor::b06::to_json(g).dump();
  } catch (const tutor::UsageError&) {
  }
  return 0;
}
