#pragma once
// B04: block-scaled formats, host only (C++20): a block of elements shares one scale.
//
//   MXFP8 / MXFP4  OCP Microscaling v1.0 (sec. 5, Table 1; conversion sec. 6.3): block of 32,
//                  scale E8M0 = 2^(floor(log2(amax)) - emax_elem), elements E4M3 / E5M2 / E2M1.
//   NVFP4          NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision
//                  Inference" (developer blog, 2025): block of 16, scale E4M3 (a real fp8
//                  number, not a power of two), elements E2M1, plus one fp32 scale per tensor
//                  that keeps the block scales inside E4M3's range.
//
// value_i = decode(element, code_i) * decode(scale, scale_b) * tensor_scale.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "low_precision.hpp"

namespace tutor::b04 {

/// A tensor in a block-scaled format: one element code per input value (e2m1 codes in the low
/// 4 bits of a byte; not packed two to a byte), one scale code per block of `block` values
/// (the last block may be short), and NVFP4's per-tensor fp32 scale (1 for MX).
struct BlockQuantized {
  std::vector<std::uint8_t> codes;
  std::vector<std::uint8_t> scales;
  Format element = Format::e4m3fn, scale = Format::e8m0;
  int block = 32;
  float tensor_scale = 1.0f;
};

/// floor(log2(max finite)) of an MX element format: the emax_elem of OCP MX v1.0 sec. 6.3
/// (E4M3: 448 = 1.75 * 2^8 -> 8; E5M2: 57344 = 1.75 * 2^15 -> 15; E2M1: 6 = 1.5 * 2^2 -> 2).
inline int mx_emax(Format element) { return std::ilogb(info(element).max_finite); }

/// MX quantization (OCP MX v1.0 sec. 6.3) of `x` with element format e4m3fn (MXFP8), e5m2
/// (MXFP8) or e2m1 (MXFP4) and `block` values per E8M0 scale (32 in the spec; any >= 1 here).
/// Per block: shared exponent = floor(log2(max |x_i|)) - emax_elem, clamped to E8M0's
/// [-127, 127] (an all-zero block gets -127); each element is x_i / 2^shared rounded to
/// nearest-even and saturated to the element's max finite value (sec. 6.3 clamps normals).
/// Because the shared exponent keeps only amax's binade, amax / 2^shared lies in
/// [2^emax, 2^(emax+1)): for E4M3 that is [256, 512), and a block maximum above 448 * 2^shared
/// is clipped to 448 (up to 12.5% error on the largest element; the spec accepts it).
/// A block holding NaN or +-inf gets the NaN scale 0xFF (every value of the block decodes to
/// NaN), as Microsoft's reference implementation microxcaling (mx/mx_ops.py) does.
/// Throws std::invalid_argument for another element format or block < 1.
inline BlockQuantized quantize_mx(std::span<const float> x, Format element, int block = 32) {
  if (element != Format::e4m3fn && element != Format::e5m2 && element != Format::e2m1)
    throw std::invalid_argument(std::string("quantize_mx: element format must be e4m3fn, e5m2 or e2m1, got ") +
                                info(element).name);
  if (block < 1) throw std::invalid_argument("quantize_mx: block must be >= 1");
  BlockQuantized q;
  q.element = element;
  q.scale = Format::e8m0;
  q.block = block;
  q.codes.resize(x.size());
  const int emax = mx_emax(element);
  for (std::size_t start = 0; start < x.size(); start += std::size_t(block)) {
    const std::size_t end = std::min(x.size(), start + std::size_t(block));
    float amax = 0;
    bool nonfinite = false;
    for (std::size_t i = start; i < end; ++i) {
      nonfinite = nonfinite || !std::isfinite(x[i]);
      amax = std::max(amax, std::fabs(x[i]));
    }
    int shared = amax == 0 ? -127 : std::clamp(std::ilogb(amax) - emax, -127, 127);
    q.scales.push_back(nonfinite ? std::uint8_t(0xFF) : std::uint8_t(shared + 127));
    if (nonfinite) shared = 0;
    for (std::size_t i = start; i < end; ++i)
      q.codes[i] = encode(element, std::ldexp(x[i], -shared), Overflow::saturate);
  }
  return q;
}

/// NVFP4 quantization: E2M1 elements, blocks of 16 with an E4M3 scale, and a per-tensor fp32
/// scale s_t = amax_tensor / (6 * 448) so that the largest block scale amax_b / (6 s_t) is 448,
/// E4M3's max (the recipe of NVIDIA TensorRT Model Optimizer, NVFP4QTensor "weight_scale_2").
/// Block scale code = encode(e4m3fn, amax_b / 6 / s_t) (nearest-even, saturating); elements =
/// encode(e2m1, x_i / (decode(scale) * s_t)), saturating. Non-finite inputs are not supported
/// by the format (E2M1 has no NaN; E4M3 scales are finite here): throws std::invalid_argument.
inline BlockQuantized quantize_nvfp4(std::span<const float> x) {
  BlockQuantized q;
  q.element = Format::e2m1;
  q.scale = Format::e4m3fn;
  q.block = 16;
  q.codes.resize(x.size());
  float amax = 0;
  for (float v : x) {
    if (!std::isfinite(v)) throw std::invalid_argument("quantize_nvfp4: input holds NaN or inf");
    amax = std::max(amax, std::fabs(v));
  }
  q.tensor_scale = amax > 0 ? amax / (6.0f * 448.0f) : 1.0f;
  for (std::size_t start = 0; start < x.size(); start += 16) {
    const std::size_t end = std::min(x.size(), start + 16);
    float block_amax = 0;
    for (std::size_t i = start; i < end; ++i) block_amax = std::max(block_amax, std::fabs(x[i]));
    const std::uint8_t s = encode(Format::e4m3fn, block_amax / 6.0f / q.tensor_scale, Overflow::saturate);
    q.scales.push_back(s);
    const float block_scale = decode(Format::e4m3fn, s) * q.tensor_scale;
    for (std::size_t i = start; i < end; ++i)
      q.codes[i] = block_scale > 0 ? encode(Format::e2m1, x[i] / block_scale, Overflow::saturate) : std::uint8_t(0);
  }
  return q;
}

/// The values a BlockQuantized stands for: decode(element, code) * decode(scale, block's
/// scale) * tensor_scale, in fp32 (a NaN scale makes its whole block NaN).
inline std::vector<float> dequantize(const BlockQuantized& q) {
  std::vector<float> out(q.codes.size());
  for (std::size_t i = 0; i < q.codes.size(); ++i) {
    const float scale = decode(q.scale, q.scales.at(i / std::size_t(q.block)));
    out[i] = decode(q.element, q.codes[i]) * scale * q.tensor_scale;
  }
  return out;
}

}  // namespace tutor::b04
