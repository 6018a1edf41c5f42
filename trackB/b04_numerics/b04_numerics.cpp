// b04_numerics: the numerics engineers trade for speed, on the CPU (no GPU needed).
//
//   b04_numerics fp8      the fp8 / fp4 / e8m0 codecs: OCP vs FNUZ, decode, encode, table, and a
//                         checkpoint misread in the wrong variant (fp8_command.hpp)
//   b04_numerics hazards  fp16 overflow, bf16 accumulation stall, catastrophic cancellation,
//                         TF32 matmul error, E4M3 vs E5M2 range (hazards.hpp)
//   b04_numerics int8     int8 quantization of a weight matrix with outlier channels (int8_quant.hpp)
//
// Each subcommand registers its own options and returns the callable that runs it; main parses
// once and runs the one selected.
#include <functional>
#include <string>
#include <vector>

#include "fp8_command.hpp"
#include "hazards.hpp"
#include "int8_quant.hpp"
#include "tutor/cli.hpp"

namespace tutor::b04 {
namespace {

int run(int argc, char** argv) {
  CLI::App app{"B04 Precision and numerics: fp8 codecs (OCP vs FNUZ), numerical hazards, int8 quantization. "
               "Computed on the CPU; no GPU needed.",
               "b04_numerics"};
  app.require_subcommand(1, 1);
  const std::string command = command_line(argc, argv);
  const std::vector<std::function<int()>> subcommands = {
      add_fp8_command(app, command), add_hazards_command(app, command), add_int8_command(app, command)};
  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  for (const auto& run_selected : subcommands)
    if (const int rc = run_selected(); rc >= 0) return rc;
  throw UsageError("no subcommand selected; allowed: fp8, hazards, int8");
}

}  // namespace
}  // namespace tutor::b04

int main(int argc, char** argv) {
  return tutor::run_main("b04_numerics", [&] { return tutor::b04::run(argc, argv); });
}
