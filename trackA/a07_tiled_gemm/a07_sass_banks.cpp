// a07_sass_banks: how many FFMAs of each kernel read all three sources from one register bank,
// counted in the SASS of your own build (sass_banks.hpp has the rule). No GPU needed:
//
//   cuobjdump -sass build/a07_sgemm > a07.sass && ./build/a07_sass_banks --sass a07.sass
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sass_banks.hpp"
#include "tutor/atomic_file.hpp"
#include "tutor/cli.hpp"
#include "tutor/output.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"

namespace tutor::a07 {
namespace {

using nlohmann::json;

constexpr const char* kProgram = "a07_sass_banks";
/// Largest listing read: cuobjdump -sass of the whole a07_sgemm is about 10 MB.
constexpr std::size_t kMaxSassBytes = std::size_t(256) << 20;
constexpr const char* kRule =
    "bank = register mod 2; a conflict needs all three sources in one bank (Jia et al. 2018); static count, "
    "not a measurement";
constexpr const char* kSource =
    "Z. Jia, M. Maggioni, B. Staiger, D. P. Scarpazza, Dissecting the NVIDIA Volta GPU Architecture via "
    "Microbenchmarking, 2018, arXiv:1804.06826, section on the register file (register banks, operand reuse cache)";

/// The demangled name without what every A07 kernel shares: "void tutor::a07::sgemm_naive(tutor::a07::GemmArgs)"
/// -> "sgemm_naive"; other kernels keep their parameters but lose the "tutor::" prefixes.
std::string short_name(std::string name) {
  if (name.starts_with("void ")) name.erase(0, 5);  // every __global__ function returns void
  for (const std::string drop : {"(tutor::a07::GemmArgs)", "tutor::a07::", "tutor::"})
    for (std::size_t at; (at = name.find(drop)) != std::string::npos;) name.erase(at, drop.size());
  return name;
}

bool matches(const KernelBanks& k, const std::string& filter) {
  return k.name.find(filter) != std::string::npos || k.mangled.find(filter) != std::string::npos;
}

std::vector<KernelBanks> read_kernels(const std::string& path) {
  std::string text;
  try {
    text = read_text_file(path, kMaxSassBytes);
  } catch (const std::runtime_error& e) {
    std::string why = e.what();
    if (why.starts_with("cannot open it: ")) why.erase(0, 16);  // said once, by "cannot read"
    throw UsageError(fmt::format("--sass: cannot read {}: {}", path, why));
  }
  std::istringstream in(std::move(text));  // one copy of the listing in memory, not two
  try {
    return count_ffma_banks(in);
  } catch (const std::length_error&) {
    throw UsageError(fmt::format("--sass: {} lists more than {} functions; at most {}", path, kMaxKernels, kMaxKernels));
  } catch (const std::invalid_argument&) {
    throw UsageError(fmt::format("--sass: {} has no SASS functions; give the output of cuobjdump -sass", path));
  }
}

void print_table(std::FILE* out, const std::vector<KernelBanks>& kernels) {
  fmt::print(out, "{:<8} {:>8} {:>11} {:>10} {:>24}  {}\n", "arch", "FFMA", "3-register", "same bank",
             "not covered by reuse", "kernel");
  for (const auto& k : kernels)
    fmt::print(out, "{:<8} {:>8} {:>11} {:>10} {:>24}  {}\n", k.arch, thousands(k.ffma),
               thousands(k.ffma_three_registers), thousands(k.same_bank), thousands(k.same_bank_uncached),
               short_name(k.name));
  fmt::print(out, "{}\n", kRule);
}

int run(int argc, char** argv) {
  CLI::App app{"A07: count the FFMAs whose three source registers sit in one register bank (bank = register "
               "mod 2, Volta and later), kernel by kernel, in the output of cuobjdump -sass. A static count "
               "(kind: model), no GPU needed.",
               kProgram};
  std::string sass_path, kernel_filter;
  Outputs out(app);
  app.add_option("--sass", sass_path, "the output of `cuobjdump -sass build/a07_sgemm` (a text file, up to 256 MiB)")
      ->option_text("FILE")->required();
  auto* kernel_opt = app.add_option("--kernel", kernel_filter, "only kernels whose demangled or mangled name contains "
                                                               "TEXT (e.g. \"128, 256, 8, 32, 64, true\")");
  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  out.check({{"--sass", sass_path}});

  std::vector<KernelBanks> kernels = read_kernels(sass_path);
  if (kernel_opt->count() > 0) {
    std::erase_if(kernels, [&](const KernelBanks& k) { return !matches(k, kernel_filter); });
    if (kernels.empty()) throw UsageError(fmt::format("--kernel: no kernel matches '{}'", kernel_filter));
  }
  print_table(out.human(), kernels);

  if (out.json()) {
    json rows = json::array();
    for (const auto& k : kernels)
      rows.push_back({{"arch", k.arch}, {"name", k.name}, {"mangled", k.mangled}, {"ffma", k.ffma},
                      {"ffma_three_registers", k.ffma_three_registers}, {"same_bank", k.same_bank},
                      {"same_bank_uncached", k.same_bank_uncached}});
    json record = record_head(kProgram, "A07", "model", command_line(argc, argv));
    record["problem"] = {{"sass", sass_path}, {"kernel_filter", kernel_opt->count() > 0 ? json(kernel_filter) : json()}};
    record["kernels"] = rows;
    record["notes"] = {{"rule", kRule}, {"source", kSource}};
    out.write_json(record);
  }
  return kExitOk;
}

}  // namespace
}  // namespace tutor::a07

int main(int argc, char** argv) {
  return tutor::run_main(tutor::a07::kProgram, [&] { return tutor::a07::run(argc, argv); });
}
