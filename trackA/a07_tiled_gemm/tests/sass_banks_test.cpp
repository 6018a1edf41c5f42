// A07: the FFMA register-bank counter read against hand-written SASS. The rule (Jia et al. 2018,
// arXiv:1804.06826): bank = register number mod 2; a conflict needs all three sources in one
// bank; a source read in the same slot as a .reuse flag on the previous FFMA comes from the
// operand reuse cache. Every expected count below is worked out by hand next to its snippet.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sass_banks.hpp"

namespace tutor::a07 {
namespace {

constexpr const char* kNaive = "_ZN5tutor3a0711sgemm_naiveENS0_8GemmArgsE";

/// A kernel as cuobjdump -sass prints it: the elf header, `Function :`, then each instruction
/// on its own line with its address, followed by the line that holds the rest of its encoding.
std::string kernel(std::initializer_list<const char*> instructions, const std::string& arch = "sm_90",
                   const std::string& mangled = kNaive) {
  std::string text = "Fatbin elf code:\n================\narch = " + arch + "\ncode version = [1,8]\n\n\tcode for " +
                     arch + "\n\n\t\tFunction : " + mangled + "\n\t.headerflags\t@\"EF_CUDA_SM90\"\n";
  int address = 0;
  for (const char* ins : instructions) {
    char addr[16];
    std::snprintf(addr, sizeof addr, "/*%04x*/", address);
    address += 0x10;
    text += std::string("        ") + addr + "                   " + ins + " ;   /* 0x0000002520797223 */\n" +
            "                                                       /* 0x000fe20000000037 */\n";
  }
  return text + "\t\t..........\n";
}

std::vector<KernelBanks> count(const std::string& text) {
  std::istringstream in(text);
  return count_ffma_banks(in);
}

/// The counts of the only kernel in `text`.
KernelBanks one(const std::string& text) {
  const auto kernels = count(text);
  EXPECT_EQ(kernels.size(), 1u);
  return kernels.at(0);
}

TEST(SassBanks, AllThreeSourcesEvenIsSameBank) {
  // R2, R4, R6: 2 mod 2 = 4 mod 2 = 6 mod 2 = 0, one bank, and nothing came before it.
  const KernelBanks k = one(kernel({"FFMA R1, R2, R4, R6"}));
  EXPECT_EQ(k.ffma, 1);
  EXPECT_EQ(k.ffma_three_registers, 1);
  EXPECT_EQ(k.same_bank, 1);
  EXPECT_EQ(k.same_bank_uncached, 1);
}

TEST(SassBanks, AllThreeSourcesOddIsSameBank) {
  // The destination's bank does not matter: R0 is even, R3, R5, R7 are odd.
  EXPECT_EQ(one(kernel({"FFMA R0, R3, R5, R7"})).same_bank, 1);
}

TEST(SassBanks, MixedParityIsNoConflict) {
  // R2, R3, R4: banks 0, 1, 0.
  const KernelBanks k = one(kernel({"FFMA R1, R2, R3, R4"}));
  EXPECT_EQ(k.ffma_three_registers, 1);
  EXPECT_EQ(k.same_bank, 0);
  EXPECT_EQ(k.same_bank_uncached, 0);
}

TEST(SassBanks, ReuseFlagOnThePreviousFfmaCoversTheSameSlot) {
  // The first FFMA (R3, R4, R10: banks 1, 0, 0) is no conflict and keeps R4 of slot b; the second
  // reads R4 in slot b from the reuse cache, so of its three even sources only two touch a bank.
  const KernelBanks k = one(kernel({"FFMA R1, R3, R4.reuse, R10", "FFMA R5, R2, R4, R6"}));
  EXPECT_EQ(k.ffma, 2);
  EXPECT_EQ(k.same_bank, 1);
  EXPECT_EQ(k.same_bank_uncached, 0);
}

TEST(SassBanks, ReuseFlagInAnotherSlotDoesNotCover) {
  // R4 was kept for slot a; the second FFMA reads R4 in slot b: a bank read.
  const KernelBanks k = one(kernel({"FFMA R1, R4.reuse, R3, R10", "FFMA R5, R2, R4, R6"}));
  EXPECT_EQ(k.same_bank, 1);
  EXPECT_EQ(k.same_bank_uncached, 1);
}

TEST(SassBanks, ReuseFlagCoversOnlyTheSameRegister) {
  // Slot b kept R4; the second FFMA reads R8 there.
  EXPECT_EQ(one(kernel({"FFMA R1, R3, R4.reuse, R10", "FFMA R5, R2, R8, R6"})).same_bank_uncached, 1);
}

TEST(SassBanks, AnInstructionInBetweenClearsTheReuseCache) {
  // As ReuseFlagOnThePreviousFfmaCoversTheSameSlot, but an LDS comes between the two FFMAs.
  const KernelBanks k = one(kernel({"FFMA R1, R3, R4.reuse, R10", "LDS.128 R32, [R15+0x2f80]", "FFMA R5, R2, R4, R6"}));
  EXPECT_EQ(k.ffma, 2);
  EXPECT_EQ(k.same_bank, 1);
  EXPECT_EQ(k.same_bank_uncached, 1);
}

TEST(SassBanks, ReuseCacheLastsOneInstruction) {
  // Two FFMAs after the one that flagged R4: only the next one is covered; the one after reads a bank.
  const KernelBanks k =
      one(kernel({"FFMA R1, R3, R4.reuse, R10", "FFMA R5, R2, R4, R6", "FFMA R7, R8, R4, R12"}));
  EXPECT_EQ(k.same_bank, 2);
  EXPECT_EQ(k.same_bank_uncached, 1);
}

TEST(SassBanks, ZeroRegisterImmediatesUniformAndConstantOperandsAreNotRegisterReads) {
  // Each has an even-register pair and one source that reads no bank: FFMA counted, nothing else.
  const KernelBanks k = one(kernel({"FFMA R1, R2, R4, RZ", "FFMA R1, R2, 0.5, R4", "FFMA R1, R2, -INF, R4",
                                    "FFMA R1, R2, 0x3f800000, R4", "FFMA R1, R2, c[0x0][0x210], R4",
                                    "FFMA R1, R2, UR4, R4", "FFMA R4, R0.reuse, R7.reuse, 1"}));
  EXPECT_EQ(k.ffma, 7);
  EXPECT_EQ(k.ffma_three_registers, 0);
  EXPECT_EQ(k.same_bank, 0);
}

TEST(SassBanks, OutOfRangeRegisterNumbersAreNotRegisterReads) {
  // R0..R254 exist; a larger or overlong number (a malformed listing) reads no bank.
  const KernelBanks k = one(kernel({"FFMA R1, R2, R4, R2147483648", "FFMA R1, R2, R4, R256",
                                    "FFMA R1, R2, R4, R99999999999999999999"}));
  EXPECT_EQ(k.ffma, 3);
  EXPECT_EQ(k.ffma_three_registers, 0);
}

TEST(SassBanks, NegatedAndAbsoluteSourcesAreRegisterReads) {
  // -R2 and |R4| read R2 and R4 from their banks like plain R2 and R4.
  const KernelBanks k = one(kernel({"FFMA R1, -R2, |R4|, R6"}));
  EXPECT_EQ(k.ffma_three_registers, 1);
  EXPECT_EQ(k.same_bank, 1);
}

TEST(SassBanks, PredicatedFfmaCounts) {
  const KernelBanks k = one(kernel({"@P0 FFMA R1, R2, R4, R6", "@!P1 FFMA R1, R2, R3, R6", "@!PT FFMA R1, R3, R5, R7"}));
  EXPECT_EQ(k.ffma, 3);
  EXPECT_EQ(k.ffma_three_registers, 3);
  EXPECT_EQ(k.same_bank, 2);  // R2 R4 R6 and R3 R5 R7
}

TEST(SassBanks, FfmaWithModifiersCountsOtherFmasDoNot) {
  // .FTZ, .SAT and .RZ are FFMA; FFMA2, HFMA2, DFMA and FMUL are other opcodes (and clear the cache).
  const KernelBanks k = one(kernel({"FFMA.FTZ R1, R2, R4, R6", "FFMA.SAT R1, R2, R4, R6", "FFMA.RZ R1, R3, R4, R6",
                                    "FFMA2 R2, R4, R6, R8", "HFMA2.MMA R7, -RZ, RZ, 0.5, 0", "DFMA R2, R4, R6, R8",
                                    "FMUL R1, R2, R4"}));
  EXPECT_EQ(k.ffma, 3);
  EXPECT_EQ(k.same_bank, 2);
}

TEST(SassBanks, SameFunctionInTwoArchSectionsCountsTwice) {
  // A fatbin for sm_80 and sm_90 holds each kernel twice; the ptx section in between has no SASS.
  const std::string ptx = "Fatbin ptx code:\n================\narch = sm_90\ncode version = [9,0]\n\n";
  const auto kernels = count(kernel({"FFMA R1, R2, R4, R6"}, "sm_80") + ptx +
                             kernel({"FFMA R1, R2, R4, R6", "FFMA R1, R2, R3, R6"}, "sm_90"));
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].arch, "sm_80");
  EXPECT_EQ(kernels[0].ffma, 1);
  EXPECT_EQ(kernels[1].arch, "sm_90");
  EXPECT_EQ(kernels[1].ffma, 2);
  EXPECT_EQ(kernels[0].mangled, kernels[1].mangled);
}

TEST(SassBanks, CodeForLineSetsTheArchWithoutAFatbinHeader) {
  // cuobjdump -sass of a .cubin prints no "arch =" line, only "code for sm_XX".
  const auto kernels = count("\n\tcode for sm_86\n\t\tFunction : k\n        /*0000*/  FFMA R1, R2, R4, R6 ;\n");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].arch, "sm_86");
  EXPECT_EQ(kernels[0].same_bank, 1);
}

TEST(SassBanks, NamesAreDemangledAndKeptMangled) {
  const KernelBanks k = one(kernel({}, "sm_90", "_ZN5tutor3a0721sgemm_double_bufferedILi128ELi256ELi8ELi32ELi64ELb1EEEvNS0_8GemmArgsE"));
  EXPECT_EQ(k.name, "void tutor::a07::sgemm_double_buffered<128, 256, 8, 32, 64, true>(tutor::a07::GemmArgs)");
  EXPECT_EQ(k.mangled, "_ZN5tutor3a0721sgemm_double_bufferedILi128ELi256ELi8ELi32ELi64ELb1EEEvNS0_8GemmArgsE");
  EXPECT_EQ(k.ffma, 0);
  // An extern "C" kernel's symbol is not a mangled name: it is kept as it is.
  EXPECT_EQ(one(kernel({}, "sm_90", "vector_add")).name, "vector_add");
}

TEST(SassBanks, TextWithoutFunctionIsRejected) {
  EXPECT_THROW(count(""), std::invalid_argument);
  EXPECT_THROW(count("Fatbin ptx code:\n================\narch = sm_90\n.version 9.0\n.target sm_90\n"),
               std::invalid_argument);
}

TEST(SassBanks, RealListingCutFromTheLab) {
  // trackA/a07_tiled_gemm/tests/data/a07_two_kernels.sass: 23 instructions of sgemm_double_buffered<64, 128, 8,
  // 32, 64, false> and 14 of <128, 256, 8, 32, 64, true>, cut from cuobjdump -sass of a07_sgemm
  // (sm_90, nvcc 13.0; the second from an older build of the kernel). By hand:
  //  first: 20 FFMA, all three-register. Same bank: /*5180*/ R45 R43 R49 (odd; after an LDS) and
  //    /*5260*/ R47 R41 R125 (odd; the FFMA before flags nothing): 2, both uncached.
  //  second: 12 FFMA, all three-register. Same bank: /*0d70*/ R33 R37 R51, /*0d90*/ R35 R37 R75,
  //    /*0db0*/ R41 R37 R15 (odd), /*0df0*/ R32 R36 R56, /*0e10*/ R34 R36 R50 (even): 5, and each
  //    follows an FFMA that flags its slot-b register .reuse (R37, R37, R37, R36, R36): 0 uncached.
  std::ifstream in(std::string(TUTOR_SOURCE_DIR) + "/trackA/a07_tiled_gemm/tests/data/a07_two_kernels.sass");
  ASSERT_TRUE(in) << "fixture missing";
  const auto kernels = count_ffma_banks(in);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].arch, "sm_90");
  EXPECT_EQ(kernels[0].name, "void tutor::a07::sgemm_double_buffered<64, 128, 8, 32, 64, false>(tutor::a07::GemmArgs)");
  EXPECT_EQ(kernels[0].ffma, 20);
  EXPECT_EQ(kernels[0].ffma_three_registers, 20);
  EXPECT_EQ(kernels[0].same_bank, 2);
  EXPECT_EQ(kernels[0].same_bank_uncached, 2);
  EXPECT_EQ(kernels[1].ffma, 12);
  EXPECT_EQ(kernels[1].ffma_three_registers, 12);
  EXPECT_EQ(kernels[1].same_bank, 5);
  EXPECT_EQ(kernels[1].same_bank_uncached, 0);
}

}  // namespace
}  // namespace tutor::a07
