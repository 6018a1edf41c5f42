#pragma once
// Integer division rounded up, and rounding up to a multiple: grid sizes (blocks to cover n
// elements), tile counts, padded lengths. Host and device; plain host C++ too.
#include <type_traits>

#include "tutor/device/portability.hpp"

namespace tutor::device {

// ceil(a / b) for a >= 0, b > 0. Written as a / b plus one when there is a remainder, not as
// (a + b - 1) / b, which overflows when a is within b of the type's maximum.
template <class A, class B>
TUTOR_HOST_DEVICE constexpr std::common_type_t<A, B> ceil_div(A a, B b) {
  static_assert(std::is_integral_v<A> && std::is_integral_v<B>, "ceil_div is for integers");
  using T = std::common_type_t<A, B>;
  const T q = static_cast<T>(a) / static_cast<T>(b);
  return static_cast<T>(a) % static_cast<T>(b) != 0 ? q + 1 : q;
}

// The smallest multiple of b that is >= a, for a >= 0, b > 0; the result must fit the type.
template <class A, class B>
TUTOR_HOST_DEVICE constexpr std::common_type_t<A, B> round_up(A a, B b) {
  return ceil_div(a, b) * static_cast<std::common_type_t<A, B>>(b);
}

}  // namespace tutor::device
