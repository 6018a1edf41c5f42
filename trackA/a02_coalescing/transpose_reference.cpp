#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "transpose_reference.hpp"

namespace tutor::a02 {

void transpose_reference(std::span<const float> in, std::span<float> out, int rows, int cols) {
  if (rows < 1 || cols < 1) throw std::invalid_argument("transpose_reference: rows and cols must be >= 1");
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  if (in.size() != n || out.size() != n)
    throw std::invalid_argument("transpose_reference: spans must hold rows*cols elements");
  // Blocks of 16x16: a block's 16 output columns each reuse a cache line of 16 floats
  // before it is evicted (the CPU's version of coalescing). tests/transpose_reference_bench.cpp times this
  // against the row-by-row loop; with power-of-two row strides both suffer from cache-set
  // conflicts, which no block size removes.
  constexpr int kBlock = 16;
  for (int r0 = 0; r0 < rows; r0 += kBlock)
    for (int c0 = 0; c0 < cols; c0 += kBlock)
      for (int r = r0; r < std::min(rows, r0 + kBlock); ++r)
        for (int c = c0; c < std::min(cols, c0 + kBlock); ++c)
          out[std::size_t(c) * rows + r] = in[std::size_t(r) * cols + c];
}

}  // namespace tutor::a02
