#pragma once
// TUTOR_LAUNCHER(f): a kernel launcher in a lab's step list. In a host-only build (the host
// preset, no GPU compiler) there are no kernels, so the step keeps its name and description
// (--list and --model still work) and its launcher is nullptr; such a build never reaches a
// launch, because opening the device fails first (exit code 3).
#if defined(TUTOR_HOST_ONLY)
#define TUTOR_LAUNCHER(f) nullptr
#else
#define TUTOR_LAUNCHER(f) f
#endif
