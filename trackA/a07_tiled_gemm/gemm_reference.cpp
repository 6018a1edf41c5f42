#include "gemm_reference.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tutor::a07 {

void gemm_reference(int m, int n, int k, double alpha, std::span<const float> a, std::span<const float> b,
                    double beta, std::span<const float> c, std::span<double> out, unsigned threads) {
  if (m < 1 || n < 1 || k < 1) throw std::invalid_argument("gemm_reference: m, n and k must be >= 1");
  const std::size_t mn = std::size_t(m) * n;
  if (a.size() < std::size_t(m) * k || b.size() < std::size_t(k) * n || out.size() < mn ||
      (beta != 0.0 && c.size() < mn))
    throw std::invalid_argument("gemm_reference: a span is shorter than its matrix");
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<unsigned>(threads, unsigned(m));

  // Row i of the result accumulates k scaled rows of B (i-p-j order): the inner loop runs
  // along contiguous memory in both B and the fp64 accumulator, so it vectorises.
  auto rows = [&](int first, int last) {
    std::vector<double> acc(static_cast<std::size_t>(n));
    for (int i = first; i < last; ++i) {
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int p = 0; p < k; ++p) {
        const double aip = a[std::size_t(i) * k + p];
        const float* brow = b.data() + std::size_t(p) * n;
        for (int j = 0; j < n; ++j) acc[j] += aip * double(brow[j]);
      }
      double* o = out.data() + std::size_t(i) * n;
      for (int j = 0; j < n; ++j)
        o[j] = beta == 0.0 ? alpha * acc[j] : alpha * acc[j] + beta * double(c[std::size_t(i) * n + j]);
    }
  };
  std::vector<std::thread> pool;
  const int per = (m + int(threads) - 1) / int(threads);
  for (int first = 0; first < m; first += per) pool.emplace_back(rows, first, std::min(m, first + per));
  for (auto& t : pool) t.join();
}

double gemm_tolerance(int k) { return default_tolerance(DType::f32, std::size_t(std::max(k, 1)) + 2); }

Comparison check_gemm(std::span<const float> got, std::span<const double> ref, int k) {
  return compare(got, ref, gemm_tolerance(k));
}

}  // namespace tutor::a07
