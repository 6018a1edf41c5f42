#pragma once
// B04 fp8 sweep: the interface between the host driver (fp8_sweep.cpp) and the kernels
// (cuda/fp8_sweep.cu, hip/fp8_sweep.hip, same names in the same order).
//
// The lab converts all 2^32 fp32 bit patterns to fp8 twice, with the vendor's conversion and
// with the library's encode() (low_precision.hpp), on the device, and counts the codes that
// differ; it decodes all 256 codes both ways too. Each launcher enqueues its kernel on the
// default stream and checks the launch; the driver owns the buffers, zeroes them, and times.
// Kernel files include this header, so it stays C++17.
#include <cstdint>

#include "low_precision.hpp"

namespace tutor::b04 {

/// Mismatching inputs the compare kernel keeps for the record (the first ones it meets).
inline constexpr int kMaxMismatchExamples = 16;

/// One input whose two conversions differ.
struct MismatchExample {
  std::uint32_t input_bits;       ///< the fp32 bit pattern
  std::uint8_t vendor, library;   ///< the two codes
  std::uint8_t unused[2];
};

/// Kinds of mismatch, told apart on the device (mismatch_class below).
enum MismatchClass : unsigned int {
  kNanEncoding = 0,   ///< both codes are NaN; only which NaN code differs
  kOverflowMode = 1,  ///< one side saturated (+-max finite), the other gave NaN / inf
  kUnexplained = 2,   ///< anything else
  kMismatchClasses = 3
};

/// The class of a mismatch between codes `a` and `b` of format `f` for input `x` (a != b).
/// OFP8 sec. 5.1 leaves open which NaN code a conversion returns (kNanEncoding); a finite,
/// non-NaN input where one side gives +-max and the other NaN or inf is the other overflow mode
/// (kOverflowMode: expected only where the vendor's mode is not documented).
TUTOR_HD constexpr unsigned mismatch_class(Format f, float x, std::uint8_t a, std::uint8_t b) {
  const CodeClass ca = classify(f, a), cb = classify(f, b);
  if (ca == CodeClass::nan && cb == CodeClass::nan) return kNanEncoding;
  const std::uint32_t magnitude = ~detail::sign_bit(f) & 0xFFu;
  const bool a_max = (a & magnitude) == detail::max_code(f), b_max = (b & magnitude) == detail::max_code(f);
  const bool a_special = ca == CodeClass::nan || ca == CodeClass::infinity;
  const bool b_special = cb == CodeClass::nan || cb == CodeClass::infinity;
  if (x == x && ((a_max && b_special) || (b_max && a_special))) return kOverflowMode;  // x == x: not NaN
  return kUnexplained;
}

/// What the compare kernel accumulates (device memory, zeroed by the caller).
struct SweepCounters {
  unsigned long long mismatches;                  ///< inputs whose vendor and library codes differ
  unsigned long long by_class[kMismatchClasses];  ///< ... split by MismatchClass
  unsigned int stored;                   ///< examples[] written: min(mismatches, kMaxMismatchExamples)
  unsigned int vendor_path;              ///< how the vendor conversion ran (VendorPath)
  MismatchExample examples[kMaxMismatchExamples];
};

/// How the kernel converted on the vendor side, written by the kernel itself (it depends on
/// the architecture the device code was compiled for).
enum VendorPath : unsigned int {
  kVendorNone = 0,      ///< no vendor conversion for this format on this target: library only
  kVendorHardware = 1,  ///< a conversion instruction (PTX cvt ... e4m3x2 / v_cvt_pk_fp8_f32)
  kVendorSoftware = 2,  ///< the vendor header's software path (cuda_fp8.hpp's __NV_NOSAT code)
};

/// Converts every fp32 bit pattern with the vendor conversion and with encode(f, x, o) and
/// counts the differences into *counters.
void launch_encode_compare(Format f, Overflow o, SweepCounters* counters);

/// Converts every fp32 bit pattern with the vendor conversion only (library only), folding the
/// codes into a value that keeps the work alive; for timing. *sink gets a count nobody reads.
void launch_encode_vendor(Format f, Overflow o, unsigned int* sink);
void launch_encode_library(Format f, Overflow o, unsigned int* sink);

/// Decodes the 256 codes of `f` both ways: out[2c] = fp32 bits of the vendor's decode of c
/// (through fp16 on NVIDIA), out[2c + 1] = fp32 bits of decode(f, c); *vendor_path as above.
void launch_decode_compare(Format f, std::uint32_t* out, unsigned int* vendor_path);

}  // namespace tutor::b04
