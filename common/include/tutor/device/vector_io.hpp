#pragma once
// Bounds-checked vector loads and stores: N consecutive elements from element i of an array
// of n elements, as one wide memory access when that is safe, element by element otherwise.
//
// Why wide: a global memory instruction moves 1, 2, 4, 8 or 16 bytes per thread (CUDA C++
// Programming Guide, "Device Memory Accesses"). A warp whose consecutive lanes load
// consecutive floats reads 128 contiguous bytes per instruction; with a 16-byte
// Vec<float, 4> per lane one instruction reads 512 contiguous bytes. The access is just as
// coalesced (whole 32-byte sectors, no byte wasted), the load/store units issue a quarter of
// the instructions, and each thread has four times the bytes in flight per instruction, which
// helps a bandwidth-bound kernel keep enough requests outstanding to fill the memory pipe
// (Little's law: bytes in flight = bandwidth x latency).
// Why checked: a wide access must be naturally aligned (the address a multiple of its size;
// on NVIDIA a misaligned one faults, and in C++ it is undefined behaviour on any vendor), and
// the last vector of an array whose length is not a multiple of N would run past the end (the
// tail). Both cases take the element-by-element path: elements past the end read as `fill`
// (0 for a sum, -infinity for a max) and are never written.
//
// The decision (vec_access) and the element-by-element path are plain C++ that the host test
// runs; only the wide access itself differs on the device (one vector instruction).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tutor/device/portability.hpp"

#if !TUTOR_GPU_COMPILER
#include <cstring>
#endif

namespace tutor::device {

// N elements of T aligned to their total size, so that a Vec<float, 4> (16 bytes) or a
// Vec<__half, 8> is one 128-bit access, a Vec<float, 2> or Vec<__half, 4> one 64-bit access.
template <class T, int N>
struct alignas(sizeof(T) * N) Vec {
  static_assert(N == 2 || N == 4 || N == 8, "a vector of 2, 4 or 8 elements");
  static_assert((sizeof(T) & (sizeof(T) - 1)) == 0 && sizeof(T) * N <= 16,
                "one access of 2 to 16 bytes (16: the widest global memory access)");
  static_assert(std::is_trivially_copyable_v<T>, "elements are moved as raw bytes");
  T elem[N];
  TUTOR_HOST_DEVICE T& operator[](int k) { return elem[k]; }
  TUTOR_HOST_DEVICE const T& operator[](int k) const { return elem[k]; }
};

enum class VecAccess { wide, by_element };

// How elements [i, i + N) of an n-element array at `base` are accessed: wide when all N lie
// inside the array and base + i sits on a multiple of the vector's size. The bounds are
// checked first (without overflow for i near the index type's maximum), so base + i is only
// formed for an index inside the array.
template <int N, class T>
TUTOR_HOST_DEVICE VecAccess vec_access(const T* base, std::size_t i, std::size_t n) {
  if (i >= n || n - i < static_cast<std::size_t>(N)) return VecAccess::by_element;
  const auto address = reinterpret_cast<std::uintptr_t>(base + i);
  return address % sizeof(Vec<T, N>) == 0 ? VecAccess::wide : VecAccess::by_element;
}

#if TUTOR_GPU_COMPILER
namespace detail {
template <std::size_t Bytes> struct Raw;
template <> struct Raw<2> { using type = unsigned short; };
template <> struct Raw<4> { using type = unsigned; };
template <> struct Raw<8> { using type = uint2; };
template <> struct Raw<16> { using type = uint4; };
}  // namespace detail
// The vendor's built-in type of `Bytes` bytes that the wide access goes through. Copying the
// Vec itself is not enough: clang (15, Debian's HIP compiler) split the aggregate copy into
// one load per element and then merged the last element's load with the element-by-element
// path's, emitting a 96-bit and a 32-bit load instead of one 128-bit load. A uint4 stays one
// load under nvcc and clang alike.
template <std::size_t Bytes>
using RawVector = typename detail::Raw<Bytes>::type;
#endif

// The wide access alone, unchecked: `p` must be aligned to sizeof(Vec<T, N>) and [p, p + N)
// inside the array. On the device this is one vector instruction (its bytes moved into the
// Vec in registers); the host copies the bytes with memcpy, the defined way to reinterpret
// them in standard C++.
template <int N, class T>
TUTOR_HOST_DEVICE Vec<T, N> load_vec_aligned(const T* p) {
  Vec<T, N> v;
#if TUTOR_GPU_COMPILER
  const auto raw = *reinterpret_cast<const RawVector<sizeof v>*>(p);
  __builtin_memcpy(&v, &raw, sizeof v);
#else
  std::memcpy(&v, p, sizeof v);
#endif
  return v;
}

template <int N, class T>
TUTOR_HOST_DEVICE void store_vec_aligned(T* p, const Vec<T, N>& v) {
#if TUTOR_GPU_COMPILER
  RawVector<sizeof v> raw;
  __builtin_memcpy(&raw, &v, sizeof v);
  *reinterpret_cast<RawVector<sizeof v>*>(p) = raw;
#else
  std::memcpy(p, &v, sizeof v);
#endif
}

// Elements [i, i + N) of an n-element array; those at or past n read as `fill`.
template <int N, class T>
TUTOR_HOST_DEVICE Vec<T, N> load_vec(const T* base, std::size_t i, std::size_t n, T fill) {
  if (vec_access<N>(base, i, n) == VecAccess::wide) return load_vec_aligned<N>(base + i);
  const std::size_t in_bounds = i < n ? n - i : 0;
  Vec<T, N> v;
  TUTOR_UNROLL
  for (int k = 0; k < N; ++k) v[k] = static_cast<std::size_t>(k) < in_bounds ? base[i + k] : fill;
  return v;
}

// Writes v to elements [i, i + N) of an n-element array, skipping those at or past n.
template <int N, class T>
TUTOR_HOST_DEVICE void store_vec(T* base, std::size_t i, std::size_t n, const Vec<T, N>& v) {
  if (vec_access<N>(base, i, n) == VecAccess::wide) {
    store_vec_aligned<N>(base + i, v);
    return;
  }
  const std::size_t in_bounds = i < n ? n - i : 0;
  TUTOR_UNROLL
  for (int k = 0; k < N; ++k)
    if (static_cast<std::size_t>(k) < in_bounds) base[i + k] = v[k];
}

}  // namespace tutor::device
