#pragma once
// A02: the CPU reference the ladder is verified against (host-only, C++20).
#include <span>

namespace tutor::a02 {

/// CPU reference, exact: out[c * rows + r] = in[r * cols + c]. Spans must hold rows*cols
/// elements; throws std::invalid_argument otherwise or when rows or cols < 1.
/// Cache-blocked in 64x64 tiles for the same reason the GPU steps are tiled.
void transpose_reference(std::span<const float> in, std::span<float> out, int rows, int cols);

}  // namespace tutor::a02
