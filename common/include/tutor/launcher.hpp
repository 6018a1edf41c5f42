#pragma once
// TUTOR_LAUNCHER(f): a kernel launcher as a lab's host code uses it (in a step list, or
// called). In a host-only build (the host preset, no GPU compiler) there are no kernels:
// the launcher becomes a function of the same signature that throws gpu::NoDevice, so
// --help, --list and --model still work, and a run stops with exit code 3 (it already does
// at open_device, before any launch).
#include "tutor/gpu.hpp"

namespace tutor::detail {
template <class R, class... Args>
R no_kernel_in_host_build(Args...) {
  throw gpu::NoDevice("this binary was built with the host preset, without GPU kernels");
}
template <class R, class... Args>
constexpr auto no_kernel(R (*)(Args...)) -> R (*)(Args...) {
  return &no_kernel_in_host_build<R, Args...>;
}
}  // namespace tutor::detail

#if defined(TUTOR_HOST_ONLY)
#define TUTOR_LAUNCHER(f) (::tutor::detail::no_kernel(static_cast<decltype(&f)>(nullptr)))
#else
#define TUTOR_LAUNCHER(f) f
#endif
