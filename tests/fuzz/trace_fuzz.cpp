// libFuzzer harness: B06's trace reader (`b06_serving batch --trace`) on any bytes. Bad input is
// a ParseError; accepted rows are in range and in time order.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const auto rows = tutor::b06::parse_trace_csv(in, "trace.csv");
    double last = 0;
    for (const auto& r : rows) {
      if (!(std::isfinite(r.arrival_s) && r.arrival_s >= last && r.prompt_tokens >= 1 && r.output_tokens >= 1))
        std::abort();
      last = r.arrival_s;
    }
  } catch (const tutor::UsageError&) {
  }
  return 0;
}
