#pragma once
// A01 Foundations: the first kernel's interface (host-only types, C++17: kernels include it).
#include <cstddef>

namespace tutor::a01 {

/// The signature every vector-add launcher shares: c[i] = a[i] + b[i] for i < n. Device
/// pointers from cudaMalloc / hipMalloc; n any. Enqueued on the default stream and checked.
using AddLauncher = void (*)(const float* a, const float* b, float* c, std::size_t n);

/// One thread per element, 256 threads per block.
void launch_vector_add(const float* a, const float* b, float* c, std::size_t n);

/// The learner's exercises (exercises/cuda|hip/, worked solutions in exercises/solutions/), run
/// with --variant exercise_launch or exercise_grid_stride beside launch_vector_add:
/// a launcher with a launch-configuration bug to find, and a grid-stride loop for a fixed grid.
void launch_exercise_launch(const float* a, const float* b, float* c, std::size_t n);
void launch_exercise_grid_stride(const float* a, const float* b, float* c, std::size_t n);

}  // namespace tutor::a01
