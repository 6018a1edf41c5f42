// How fast each hostile input is refused (Google Benchmark). The regression tests check that
// each is refused with exit 2 and one line; this times the refusal, file reading included,
// against reading a good config. Records: docs/results/host/hostile/.
//
//   ./build-host/tests/hostile/hostile_refusal_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "model.hpp"
#include "tutor/json_input.hpp"
#include "workload.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& scratch() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("tutor_hostile_bench_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

std::string shipped_config(const std::string& stem) {
  std::ifstream in(std::string(TUTOR_SOURCE_DIR_BENCH) + "/data/models/" + stem + ".json");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A shipped config (Llama-3.1-8B unless named) with one more member, which wins over an
/// earlier one of the same key, written to the scratch folder; returns its path.
std::string config_with(const std::string& name, const std::string& key, const std::string& value,
                        const std::string& stem = "llama-3.1-8b") {
  std::string text = shipped_config(stem);
  text = text.substr(0, text.rfind('}')) + ",\n  \"" + key + "\": " + value + "\n}\n";
  const fs::path p = scratch() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

template <class F>
void refuse(benchmark::State& state, F read) {
  for (auto _ : state) {
    try {
      read();
      state.SkipWithError("accepted");
      return;
    } catch (const tutor::UsageError&) {
    } catch (const tutor::b05::ConfigError&) {
    }
  }
}

void BM_GoodConfig(benchmark::State& state) {
  const std::string path = std::string(TUTOR_SOURCE_DIR_BENCH) + "/data/models/llama-3.1-8b.json";
  for (auto _ : state) benchmark::DoNotOptimize(tutor::b05::load_model_file(path));
}

void BM_RefuseNesting100000(benchmark::State& state) {
  static const std::string p = config_with("deep.json", "x", std::string(100'000, '[') + std::string(100'000, ']'));
  refuse(state, [&] { tutor::b05::load_model_file(p); });
}

void BM_RefuseLayerList600000(benchmark::State& state) {  // a 10 MB config
  static const std::string p = [] {
    std::string list = "[";
    for (int i = 0; i < 600'000; ++i) list += i ? ",\"full_attention\"" : "\"full_attention\"";
    return config_with("long_list.json", "layer_types", list + "]");
  }();
  refuse(state, [&] { tutor::b05::load_model_file(p); });
}

void BM_RefuseNumberOverflow(benchmark::State& state) {
  static const std::string p = config_with("overflow.json", "text_config", "{\"vocab_size\": 1e999}");
  refuse(state, [&] { tutor::b05::load_model_file(p); });
}

void BM_RefuseHugeSharedExperts(benchmark::State& state) {
  static const std::string p = config_with("shared.json", "n_shared_experts", "1000000000000000", "deepseek-v3");
  refuse(state, [&] { tutor::b05::load_model_file(p); });
}

void BM_RefuseNulTrace1GiB(benchmark::State& state) {  // a sparse file: no disk used
  static const std::string p = [] {
    const fs::path nul = scratch() / "nul.csv";
    const int fd = ::open(nul.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      const int rc = ::ftruncate(fd, off_t(1) << 30);
      ::close(fd);
      if (rc != 0) fs::remove(nul);  // the benchmark then reports the missing file
    }
    return nul.string();
  }();
  refuse(state, [&] { tutor::b06::read_trace_csv(p); });
}

void BM_RefuseTraceLine4MiB(benchmark::State& state) {
  static const std::string p = [] {
    const fs::path t = scratch() / "long_line.csv";
    std::ofstream(t, std::ios::binary) << "timestamp_s,prompt_tokens,output_tokens\n0," << std::string(4 << 20, '7') << ",1\n";
    return t.string();
  }();
  refuse(state, [&] { tutor::b06::read_trace_csv(p); });
}

BENCHMARK(BM_GoodConfig)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RefuseNesting100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RefuseLayerList600000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RefuseNumberOverflow)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RefuseHugeSharedExperts)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RefuseNulTrace1GiB)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RefuseTraceLine4MiB)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::error_code ec;
  fs::remove_all(scratch(), ec);
  return 0;
}
