// The transpose lab's host side: the CPU reference, and the verifier rejecting wrong
// transposes (gpu-mode/reference-kernels style: known-wrong solutions kept as tests).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "transpose_reference.hpp"
#include "tutor/verify.hpp"

using tutor::a02::transpose_reference;

namespace {
std::vector<float> iota(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float(i + 1);
  return v;
}
std::vector<float> reference(const std::vector<float>& in, int rows, int cols) {
  std::vector<float> out(in.size());
  transpose_reference(in, out, rows, cols);
  return out;
}
}  // namespace

TEST(TransposeReference, TwoByThreeByHand) {
  // in = [1 2 3; 4 5 6]  ->  out = [1 4; 2 5; 3 6]
  const std::vector<float> in = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(reference(in, 2, 3), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(TransposeReference, OneByOneIsIdentity) {
  EXPECT_EQ(reference({7.5f}, 1, 1), (std::vector<float>{7.5f}));
}

TEST(TransposeReference, RowVectorBecomesColumnWithSameMemoryOrder) {
  const auto in = iota(37);
  EXPECT_EQ(reference(in, 1, 37), in);
  EXPECT_EQ(reference(in, 37, 1), in);
}

TEST(TransposeReference, TwiceIsIdentityAtSizesThatAreNotMultiplesOfTheBlock) {
  for (auto [r, c] : {std::pair{31, 33}, {67, 129}, {127, 1}, {65, 64}, {409, 301}}) {
    const auto in = iota(std::size_t(r) * c);
    const auto once = reference(in, r, c);
    EXPECT_EQ(reference(once, c, r), in) << r << "x" << c;
    EXPECT_EQ(once[std::size_t(c - 1) * r + (r - 1)], in.back()) << "last element lands last";
  }
}

TEST(TransposeReference, RejectsBadShapes) {
  std::vector<float> in(6), out(6);
  EXPECT_THROW(transpose_reference(in, out, 0, 6), std::invalid_argument);
  EXPECT_THROW(transpose_reference(in, out, 2, 4), std::invalid_argument);
}

// ---- known-wrong transposes the verifier must reject ------------------------------------

TEST(TransposeVerifier, RejectsACopyThatForgotToTranspose) {
  const int rows = 31, cols = 33;
  const auto in = iota(std::size_t(rows) * cols);
  const auto ref = reference(in, rows, cols);
  const auto cmp = tutor::compare(in, ref, 0.0);  // the "kernel" just copied
  EXPECT_FALSE(cmp.passed);
  ASSERT_TRUE(cmp.first_mismatch.has_value());
  EXPECT_EQ(*cmp.first_mismatch, 1u);  // element 0 is the same either way
}

TEST(TransposeVerifier, RejectsAKernelThatSkipsTheEdgeTile) {
  // A kernel without bounds handling that simply never writes the last partial column.
  const int rows = 4099, cols = 3001;
  const auto in = iota(std::size_t(rows) * cols);
  const auto ref = reference(in, rows, cols);
  auto got = ref;
  std::vector<float> poisoned(1);
  tutor::poison(poisoned);
  for (int r = 0; r < rows; ++r) got[std::size_t(cols - 1) * rows + r] = poisoned[0];
  const auto cmp = tutor::compare(got, ref, 0.0);
  EXPECT_FALSE(cmp.passed);
  EXPECT_EQ(cmp.nonfinite, std::size_t(rows));
  EXPECT_EQ(*cmp.first_mismatch, std::size_t(cols - 1) * rows);
}

TEST(TransposeVerifier, RejectsSwappedNeighbours) {
  // An off-by-one in the output index: two neighbouring elements swapped.
  const int rows = 64, cols = 96;
  const auto ref = reference(iota(std::size_t(rows) * cols), rows, cols);
  auto got = ref;
  std::swap(got[100], got[101]);
  const auto cmp = tutor::compare(got, ref, 0.0);
  EXPECT_FALSE(cmp.passed);
  EXPECT_EQ(cmp.mismatches, 2u);
  EXPECT_EQ(*cmp.first_mismatch, 100u);
}

TEST(TransposeVerifier, RejectsASingleNaN) {
  const auto ref = reference(iota(12), 3, 4);
  auto got = ref;
  got[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(tutor::compare(got, ref, 0.0).passed);
}

TEST(TransposeVerifier, AcceptsTheExactTranspose) {
  const auto in = iota(4099);
  const auto ref = reference(in, 1, 4099);
  const auto cmp = tutor::compare(ref, ref, 0.0);
  EXPECT_TRUE(cmp.passed) << cmp.reason;
  EXPECT_EQ(cmp.rel_l2, 0.0);
}
