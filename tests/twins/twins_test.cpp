// The twin test's pieces (common/tools/twins/): what the normaliser treats as the same line,
// that the diff reports one inserted line as one, what the outline reader counts as a kernel
// and as a launcher, and what an allowlist accepts. Expected values are written out by hand.
#include <gtest/gtest.h>

#include <stdexcept>

#include "allowlist.hpp"
#include "compare.hpp"
#include "line_diff.hpp"
#include "normalise.hpp"
#include "structure.hpp"

namespace twins = tutor::twins;

TEST(TwinNormaliser, RemovesCommentsButNotCommentMarkersInsideLiterals) {
  EXPECT_EQ(twins::strip_comments("a = 1; // why\nb = \"//x\"; /* one\ntwo */ c = '/';"),
            "a = 1; \nb = \"//x\";  \n c = '/';");
  EXPECT_EQ(twins::strip_comments("n = 1'000; // digit separator, not a character literal"), "n = 1'000; ");
}

TEST(TwinNormaliser, RuntimeNamesOfBothVendorsReadTheSame) {
  EXPECT_EQ(twins::normalise_line("const cudaError_t s = cudaMalloc(&p, n);"),
            twins::normalise_line("const hipError_t s = hipMalloc(&p, n);"));
  EXPECT_EQ(twins::normalise_line("cudaMallocHost(&h, n)"), twins::normalise_line("hipHostMalloc(&h, n)"));
  EXPECT_EQ(twins::normalise_line("cudaDeviceProp p{};"), twins::normalise_line("hipDeviceProp_t p{};"));
  EXPECT_EQ(twins::normalise_line("cudaDevAttrMultiProcessorCount"),
            twins::normalise_line("hipDeviceAttributeMultiprocessorCount"));
  EXPECT_EQ(twins::normalise_line("#include <cuda_runtime.h>"), "#include <gpu_runtime.h>");
  EXPECT_EQ(twins::normalise_line("#include <hip/hip_runtime.h>"), "#include <gpu_runtime.h>");
}

TEST(TwinNormaliser, WarpShuffleMaskIsDropped) {
  EXPECT_EQ(twins::normalise_line("v += __shfl_down_sync(0xffffffffu, v, 16);"), "v += __shfl_down(v, 16);");
  EXPECT_EQ(twins::normalise_line("v = __shfl_sync(mask, v, 0);"), "v = __shfl(v, 0);");
}

TEST(TwinNormaliser, VendorWordsReadTheSameButLongerNamesAreKept) {
  EXPECT_EQ(twins::normalise_line("\"the CUDA runtime found no NVIDIA GPU\""), "\"the $API runtime found no $VENDOR GPU\"");
  EXPECT_EQ(twins::normalise_line("\"the HIP runtime found no AMD GPU\""), "\"the $API runtime found no $VENDOR GPU\"");
  EXPECT_EQ(twins::normalise_line("nvtxRangePop();"), twins::normalise_line("roctxRangePop();"));
  EXPECT_EQ(twins::normalise_line("NCCL_VERSION_CODE"), "NCCL_VERSION_CODE");  // RCCL keeps NCCL's names
  EXPECT_EQ(twins::normalise_line("__CUDA_ARCH__"), "__CUDA_ARCH__");
}

TEST(TwinNormaliser, WhitespaceCollapsesAndBlankLinesDrop) {
  EXPECT_EQ(twins::normalise_line("\t x  =\t1;   \\  "), "x = 1; \\");
  const std::vector<twins::Line> lines = twins::normalise_source("int a;\n\n  // only a comment\nint  b;\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].number, 1);
  EXPECT_EQ(lines[1].number, 4);
  EXPECT_EQ(lines[1].text, "int b;");
}

TEST(TwinLineDiff, OneInsertedLineIsOneEditNotACascade) {
  using K = twins::Edit::Kind;
  const std::vector<std::string> a = {"a", "b", "c", "d"}, b = {"a", "x", "b", "c", "d"};
  const std::vector<twins::Edit> edits = twins::line_diff(a, b);
  ASSERT_EQ(edits.size(), 5u);
  EXPECT_EQ(edits[1].kind, K::only_b);
  EXPECT_EQ(edits[1].b, 1u);
  EXPECT_EQ(edits[1].a, 1u);  // where it would go in a: before "b"
  for (std::size_t i : {0u, 2u, 3u, 4u}) EXPECT_EQ(edits[i].kind, K::same);
}

TEST(TwinLineDiff, AChangedLineIsOneDeletionAndOneInsertion) {
  using K = twins::Edit::Kind;
  const std::vector<twins::Edit> edits = twins::line_diff({"a", "b", "c"}, {"a", "B", "c"});
  ASSERT_EQ(edits.size(), 4u);
  EXPECT_EQ(edits[1].kind, K::only_a);
  EXPECT_EQ(edits[2].kind, K::only_b);
}

TEST(TwinStructure, KernelsInOrderIncludingTemplatesAndLaunchBounds) {
  const twins::Structure s = twins::read_structure(
      "namespace { __global__ void hidden(int) {} }\n"
      "template <int N>\n__global__ void __launch_bounds__((N / 2) * 64)\n  tiled(float* p) { p[0] = N; }\n"
      "__global__ void plain(float* p) { if (p) { p[0] = 1; } }\n");
  ASSERT_EQ(s.kernels.size(), 3u);
  EXPECT_EQ(s.kernels[0].name, "hidden");
  EXPECT_EQ(s.kernels[1].name, "tiled");
  EXPECT_EQ(s.kernels[1].line, 4);
  EXPECT_EQ(s.kernels[2].name, "plain");
}

TEST(TwinStructure, LaunchersAreVisibleHostFunctionsWithParameterNamesDropped) {
  const twins::Structure s = twins::read_structure(
      "namespace lab {\n"
      "namespace { void helper() {} }\n"
      "static void private_helper() {}\n"
      "__device__ float square(float x) { return x * x; }\n"
      "const int table[] = {1, 2};\n"
      "void launch_a(const float* in, unsigned count, cudaStream_t stream = 0) { helper(); }\n"
      "const char* name(VendorMath) { return \"x\"; }\n"
      "Event::~Event() {}\n"
      "}\n");
  ASSERT_EQ(s.launchers.size(), 3u);
  EXPECT_EQ(s.launchers[0].signature, "void launch_a(const float*, unsigned, gpuStream_t)");
  EXPECT_EQ(s.launchers[1].signature, "const char* name(VendorMath)");
  EXPECT_EQ(s.launchers[2].name, "Event::~Event");
}

TEST(TwinStructure, OperatorsAndStatementsAfterABlockDoNotHideLaterFunctions) {
  const twins::Structure s = twins::read_structure(
      "Buffer& Buffer::operator=(Buffer&& o) noexcept { return *this; }\n"
      "const int table[] = {1, 2};\n"
      "void Buffer::upload(const void* host) {}\n"
      "__global__ void fill(int* out) {}\n");
  ASSERT_EQ(s.launchers.size(), 2u);
  EXPECT_EQ(s.launchers[0].signature, "Buffer& Buffer::operator=(Buffer&&) noexcept");
  EXPECT_EQ(s.launchers[1].signature, "void Buffer::upload(const void*)");
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.kernels[0].name, "fill");
}

TEST(TwinStructure, OnlyTheFirstArmOfAnIfIsRead) {
  const twins::Structure s = twins::read_structure(
      "#if HAVE_LIBRARY\nvoid sum(const float* in) { library_sum(in); }\n"
      "#else\nvoid sum(const float*) { throw 1; }\n#endif\nvoid after() {}\n");
  ASSERT_EQ(s.launchers.size(), 2u);
  EXPECT_EQ(s.launchers[0].line, 2);
  EXPECT_EQ(s.launchers[1].signature, "void after()");
}

TEST(TwinStructure, StepBannersOnly) {
  const twins::Structure s = twins::read_structure(
      "// ---- Step 1: naive ------------\n// ---- runtime helpers ----\n  // ---- Step 2: tiled ----\n");
  ASSERT_EQ(s.banners.size(), 2u);
  EXPECT_EQ(s.banners[0].text, "Step 1: naive");
  EXPECT_EQ(s.banners[1].text, "Step 2: tiled");
  EXPECT_EQ(s.banners[1].line, 3);
}

TEST(TwinAllowlist, ReasonAboveOrAfterAndBlankLineEndsAReason) {
  const std::vector<twins::AllowEntry> entries = twins::parse_allowlist(
      "# header: the format\n\n# why both\ncuda: int a = 32;\nhip: int a = 64;\n\n"
      "hip: #include <x.h>  # why this one\n",
      "x.twin-allow");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].side, twins::AllowEntry::Side::cuda);
  EXPECT_EQ(entries[1].text, "int a = 64;");
  EXPECT_EQ(entries[2].text, "#include <x.h>");
  EXPECT_EQ(entries[2].line, 7);
  EXPECT_THROW(twins::parse_allowlist("# why\ncuda: a\n\nhip: b\n", "x"), std::invalid_argument);
  EXPECT_THROW(twins::parse_allowlist("# why\nrocm: a\n", "x"), std::invalid_argument);
}

TEST(TwinCompare, AllowedLinesPassAndUnusedEntriesAreStale) {
  const twins::Source cuda{"cuda/k.cu", "int w = 32;\nint x = cudaMalloc();\n"};
  const twins::Source hip{"hip/k.hip", "int w = 64;\nint x = hipMalloc();\n"};
  const auto allow = twins::parse_allowlist("# warp size\ncuda: int w = 32;\nhip: int w = 64;\n", "hip/k.twin-allow");
  EXPECT_TRUE(twins::compare_lines(cuda, hip, allow, "hip/k.twin-allow").empty());

  const auto findings = twins::compare_lines(cuda, cuda, allow, "hip/k.twin-allow");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_NE(findings[0].find("hip/k.twin-allow:2"), std::string::npos);
}

TEST(TwinCompare, ADriftedLineNamesBothFilesAndLines) {
  const twins::Source cuda{"cuda/k.cu", "a;\nb;\n\nc = 1;\n"}, hip{"hip/k.hip", "a;\nb;\nc = 2;\n"};
  const auto findings = twins::compare_lines(cuda, hip, {}, "hip/k.twin-allow");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0], "twin drift: cuda/k.cu:4 | hip/k.hip:3: not in hip/k.twin-allow: cuda: c = 1;");
  EXPECT_EQ(findings[1], "twin drift: cuda/k.cu:4 | hip/k.hip:3: not in hip/k.twin-allow: hip: c = 2;");
}

TEST(TwinCompare, AnExtraLineNamesWhereItWouldGoOnTheOtherSide) {
  const twins::Source cuda{"cuda/k.cu", "a;\nb;\n"}, hip{"hip/k.hip", "a;\nx;\nb;\n"};
  const auto findings = twins::compare_lines(cuda, hip, {}, "hip/k.twin-allow");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0], "twin drift: cuda/k.cu:2 | hip/k.hip:2: not in hip/k.twin-allow: hip: x;");
}

TEST(TwinCompare, NvidiaOnlyStubHasTheMarkerAndNoKernels) {
  EXPECT_TRUE(twins::is_nvidia_only_stub("// nvidia-only: TMA has no AMD counterpart\nvoid launch() {}\n"));
  EXPECT_FALSE(twins::is_nvidia_only_stub("// nvidia-only: x\n__global__ void k() {}\n"));
  EXPECT_FALSE(twins::is_nvidia_only_stub("void launch() {}\n"));
}
