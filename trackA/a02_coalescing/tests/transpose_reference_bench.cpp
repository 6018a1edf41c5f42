// A02's lesson on the CPU: the same transpose, written two ways, moving the same bytes.
//
// naive_transpose walks the input row by row: its reads are contiguous, but consecutive
// writes land `rows` floats (rows * 4 bytes) apart, so each write touches a different cache
// line. That is the CPU form of an uncoalesced store.
//
// tutor::a02::transpose_reference walks 64x64 blocks so that, in principle, the cache lines
// of one input block and one output block stay resident until they are used fully: the CPU
// form of the tiled GPU step.
//
// Both report bytes processed as 2 * rows * cols * 4 per iteration (each element read once
// and written once), the same count the GPU ladder divides by its time. 1024 and 4096 are
// powers of two: the write stride is a multiple of 4 KiB, so the lines of one block column
// map to the same few cache sets (the CPU cousin of a shared-memory bank conflict).
// 4099 x 3001 are primes: no such aliasing, and neither is a multiple of the block, so the
// ragged edge is timed too. Compare the rows, not only the two functions.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "transpose_reference.hpp"

namespace {

/// out[c * rows + r] = in[r * cols + c], row by row: contiguous reads, strided writes.
void naive_transpose(std::span<const float> in, std::span<float> out, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out[std::size_t(c) * rows + r] = in[std::size_t(r) * cols + c];
}

using Transpose = void (*)(std::span<const float>, std::span<float>, int, int);

void run(benchmark::State& state, Transpose transpose) {
  const int rows = static_cast<int>(state.range(0));
  const int cols = static_cast<int>(state.range(1));
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  std::vector<float> in(n), out(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i % 1021);
  for (auto _ : state) {
    transpose(in, out, rows, cols);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  // Read once + written once, 4 bytes per float.
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<std::int64_t>(n) *
                          static_cast<std::int64_t>(sizeof(float)));
}

void BM_TransposeNaive(benchmark::State& state) { run(state, naive_transpose); }
void BM_TransposeReference(benchmark::State& state) {
  run(state, tutor::a02::transpose_reference);
}

void shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"rows", "cols"});
  b->Args({1024, 1024});
  b->Args({4096, 4096});
  b->Args({4099, 3001});
  b->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_TransposeNaive)->Apply(shapes);
BENCHMARK(BM_TransposeReference)->Apply(shapes);

BENCHMARK_MAIN();
