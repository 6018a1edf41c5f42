#pragma once
// A01 Foundations: the first kernel's interface (host-only types, C++17: kernels include it).
#include <cstddef>

namespace tutor::a01 {

/// c[i] = a[i] + b[i] for i < n. Device pointers from cudaMalloc / hipMalloc; n any.
/// One thread per element, 256 threads per block; enqueued on the default stream and checked.
void launch_vector_add(const float* a, const float* b, float* c, std::size_t n);

}  // namespace tutor::a01
