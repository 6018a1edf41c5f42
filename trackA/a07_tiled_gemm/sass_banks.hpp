#pragma once
// A07's register-bank check: counts the FFMAs of each kernel in `cuobjdump -sass` text whose
// three source registers sit in one register bank, the conflict that costs the SGEMM ladder's
// best kernel an issue cycle (README, "register allocation"). Pure text in, counts out.
//
// Rule (Jia, Maggioni, Staiger, Scarpazza, "Dissecting the NVIDIA Volta GPU Architecture via
// Microbenchmarking", 2018, arXiv:1804.06826, the section on register banks): from Volta on the
// register file has two banks, bank = register number mod 2, and an FFMA waits an extra cycle
// when all three of its source registers are in the same bank. An operand flagged
// `.reuse` stays in the operand reuse cache for the next instruction, and a read of the same
// register in the same operand slot there is served from the cache, not from a bank.
#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace tutor::a07 {

/// The FFMA counts of one kernel (one `Function :` of one `arch =` section). All counts are
/// static: instructions in the listing, not executions.
struct KernelBanks {
  std::string arch;     ///< "sm_90", from the last `arch = sm_XX` or `code for sm_XX` line; "unknown" if none
  std::string mangled;  ///< the name after `Function :`, as the ELF symbol spells it
  std::string name;     ///< `mangled` demangled (abi::__cxa_demangle); `mangled` if that fails
  long ffma = 0;                  ///< FFMA instructions (any modifier: .FTZ, .SAT, .RZ ...; predicated too)
  long ffma_three_registers = 0;  ///< of those, the ones whose three sources are all R<n> (not RZ, UR<n>,
                                  ///< an immediate or a constant-bank operand c[..][..])
  long same_bank = 0;             ///< of those, the ones whose three source register numbers have equal parity
  long same_bank_uncached = 0;    ///< of those, the ones with no source read served by the reuse cache
};

/// Counts register-bank conflicts of FFMA, kernel by kernel, in the order the listing gives
/// them; the same kernel in two arch sections gives two entries.
///
/// Reads `cuobjdump -sass` output: instruction lines `/*0c60*/  [@P0 ]FFMA R121, R32, R37.reuse,
/// R55 ;  /* 0x... */`; every other line (the encoding-only `/* 0x... */` lines, headers, blank
/// lines) is skipped. "Fatbin ptx code" sections hold no `Function :` and add nothing.
///
/// A source read is served by the reuse cache when the instruction right before, in listing
/// order, is an FFMA that flagged the same slot (a, b or c) `.reuse` with the same register.
/// Simplifications: any instruction other than FFMA clears the cache (the hardware keeps it
/// across some of them), and a branch target's predecessor in the listing is taken to be the
/// instruction executed before it.
///
/// Most `Function :` entries read; a cuobjdump listing of the whole a07_sgemm has about 30.
inline constexpr std::size_t kMaxKernels = 100'000;

/// Throws std::invalid_argument when the text holds no `Function :` line (not SASS), and
/// std::length_error when it holds more than kMaxKernels of them.
std::vector<KernelBanks> count_ffma_banks(std::istream& sass);

}  // namespace tutor::a07
