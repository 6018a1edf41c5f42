#pragma once
// B02: the intensity-sweep kernels' interface (host-only types, C++17: kernel files include it).
//
// Each kernel streams n elements: out[i] = f_k(in[i]), where f_k does `flops_per_element`
// floating-point operations on registers only (one multiply when it is 1, else a chain of
// flops_per_element / 2 fused multiply-adds y = y * a + b, 2 FLOPs each). Bytes moved are
// the input read once and the output written once, so the arithmetic intensity is
//   I = flops_per_element / (2 * sizeof(element))  FLOP/byte,
// set at run time. a = b = 0.5 keep values finite and exactly representable in bf16.
#include <cstddef>
#include <cstdint>

namespace tutor::b02 {

/// fp32: 8 bytes per element (4 read + 4 written). n any; in/out from cudaMalloc/hipMalloc.
/// flops_per_element: 1 or an even number >= 2.
void launch_sweep_fp32(const float* in, float* out, std::size_t n, int flops_per_element);

/// bf16, computed in bf16 with paired (bf16x2) FMA instructions on the vector units, never
/// the tensor cores: 4 bytes per element. Elements are raw bf16 bit patterns; n any.
void launch_sweep_bf16(const std::uint16_t* in, std::uint16_t* out, std::size_t n, int flops_per_element);

/// The multiply and add constants of f_k (exact in fp32 and bf16).
inline constexpr float kSweepA = 0.5f;
inline constexpr float kSweepB = 0.5f;

}  // namespace tutor::b02
