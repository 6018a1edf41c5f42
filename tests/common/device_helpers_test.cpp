// Device helpers (common/include/tutor/device/) on the host: ceil_div and round_up, the
// decision and tail logic of the vector loads and stores, and the butterfly reduction run by
// the lane simulator at 32 lanes (an NVIDIA warp) and 64 lanes (an AMD CDNA wavefront).
// Every expected value is derived by hand in the comment beside it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "tutor/device/block_reduce.hpp"
#include "tutor/device/ceil_div.hpp"
#include "tutor/device/lane_simulator.hpp"
#include "tutor/device/vector_io.hpp"
#include "tutor/device/warp_reduce.hpp"

namespace {

using tutor::device::ceil_div;
using tutor::device::LaneSimulator;
using tutor::device::load_vec;
using tutor::device::Max;
using tutor::device::round_up;
using tutor::device::store_vec;
using tutor::device::Sum;
using tutor::device::Vec;
using tutor::device::vec_access;
using tutor::device::VecAccess;
using tutor::device::warps_in_block;

// ------------------------------------------------------------------ ceil_div, round_up

TEST(CeilDiv, ZeroAndOne) {
  EXPECT_EQ(ceil_div(0, 1), 0);
  EXPECT_EQ(ceil_div(0, 256), 0);     // no work: no blocks
  EXPECT_EQ(ceil_div(1, 1), 1);
  EXPECT_EQ(ceil_div(1, 256), 1);     // one element still needs one block
}

TEST(CeilDiv, ExactMultiplesDoNotRoundUp) {
  EXPECT_EQ(ceil_div(256, 256), 1);
  EXPECT_EQ(ceil_div(512, 256), 2);
  EXPECT_EQ(ceil_div(255, 256), 1);
  EXPECT_EQ(ceil_div(257, 256), 2);
  // 1,000,003 = 3906 * 256 + 67: 3906 full blocks and one for the last 67 elements.
  EXPECT_EQ(ceil_div(1'000'003, 256), 3907);
}

TEST(CeilDiv, LargeValuesDoNotOverflow) {
  constexpr std::uint64_t max64 = std::numeric_limits<std::uint64_t>::max();  // 2^64 - 1, odd
  // (2^64 - 1) / 2 = 2^63 - 1 remainder 1 -> 2^63. (a + b - 1) / b would wrap to 0 / 2 = 0.
  EXPECT_EQ(ceil_div(max64, std::uint64_t{2}), std::uint64_t{1} << 63);
  EXPECT_EQ(ceil_div(max64, max64), 1u);
  constexpr int max32 = std::numeric_limits<int>::max();  // 2^31 - 1
  EXPECT_EQ(ceil_div(max32, 1), max32);
  EXPECT_EQ(ceil_div(max32, 2), 1 << 30);                 // 2^30 - 1 remainder 1 -> 2^30
  EXPECT_EQ(ceil_div(max32, max32), 1);
}

TEST(CeilDiv, MixedOperandTypesUseTheCommonType) {
  const std::size_t n = 1000;
  static_assert(std::is_same_v<decltype(ceil_div(n, 256)), std::size_t>);
  EXPECT_EQ(ceil_div(n, 256), 4u);    // 3 * 256 = 768 < 1000 <= 1024 = 4 * 256
  static_assert(ceil_div(10, 3) == 4, "usable in constant expressions (template arguments)");
}

TEST(RoundUp, ToTheNextMultiple) {
  EXPECT_EQ(round_up(0, 4), 0);
  EXPECT_EQ(round_up(1, 4), 4);
  EXPECT_EQ(round_up(4, 4), 4);
  EXPECT_EQ(round_up(5, 4), 8);
  EXPECT_EQ(round_up(1, 1), 1);
  EXPECT_EQ(round_up(1000, 256), 1024);
  // 2^62 + 1 lies between 1 * 2^62 and 2 * 2^62 = 2^63.
  EXPECT_EQ(round_up((std::uint64_t{1} << 62) + 1, std::uint64_t{1} << 62), std::uint64_t{1} << 63);
  // 2^64 - 16 is a multiple of 16: it stays, and computing it must not overflow.
  constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max() - 15;
  EXPECT_EQ(round_up(top, std::uint64_t{16}), top);
}

// ------------------------------------------------------------------ vector loads and stores

static_assert(sizeof(Vec<float, 4>) == 16 && alignof(Vec<float, 4>) == 16, "one 128-bit access");
static_assert(sizeof(Vec<float, 2>) == 8 && alignof(Vec<float, 2>) == 8, "one 64-bit access");
static_assert(sizeof(Vec<std::uint16_t, 8>) == 16, "8 half/bf16 values: one 128-bit access");
static_assert(sizeof(Vec<std::uint16_t, 2>) == 4 && alignof(Vec<std::uint16_t, 2>) == 4,
              "a half/bf16 pair: one 32-bit access");

// Eleven floats 0..10 in a 16-byte aligned buffer of 16; the five past n = 11 hold a poison
// value that a correct load never returns and a correct store never overwrites.
struct Floats {
  static constexpr std::size_t n = 11;
  static constexpr float poison = 999.0f;
  alignas(16) float a[16];
  Floats() {
    for (std::size_t k = 0; k < 16; ++k) a[k] = k < n ? static_cast<float>(k) : poison;
  }
};

TEST(VecAccess, WideOnlyWhenInBoundsAndAligned) {
  const Floats f;
  // float4: the address must be a multiple of 16 bytes, i.e. the index a multiple of 4 here.
  EXPECT_EQ(vec_access<4>(f.a, 0, f.n), VecAccess::wide);        // [0, 4)
  EXPECT_EQ(vec_access<4>(f.a, 4, f.n), VecAccess::wide);        // [4, 8)
  EXPECT_EQ(vec_access<4>(f.a, 8, f.n), VecAccess::by_element);  // [8, 12): 11 is past the end
  EXPECT_EQ(vec_access<4>(f.a, 7, f.n), VecAccess::by_element);  // 28 bytes: misaligned
  EXPECT_EQ(vec_access<4>(f.a, 1, f.n), VecAccess::by_element);  // 4 bytes: misaligned
  EXPECT_EQ(vec_access<4>(f.a, 11, f.n), VecAccess::by_element); // starts at the end
  EXPECT_EQ(vec_access<4>(f.a, 12, f.n), VecAccess::by_element); // starts past the end
  // An index near the type's maximum is out of bounds, not wrapped around into them.
  EXPECT_EQ(vec_access<4>(f.a, std::numeric_limits<std::size_t>::max() - 1, f.n),
            VecAccess::by_element);
  // float2: 8-byte alignment, so even indices.
  EXPECT_EQ(vec_access<2>(f.a, 2, f.n), VecAccess::wide);        // 8 bytes
  EXPECT_EQ(vec_access<2>(f.a, 1, f.n), VecAccess::by_element);  // 4 bytes
  EXPECT_EQ(vec_access<2>(f.a, 10, f.n), VecAccess::by_element); // [10, 12): 11 is past the end
  EXPECT_EQ(vec_access<2>(f.a, 8, f.n), VecAccess::wide);        // [8, 10)
}

TEST(VecAccess, AlignmentIsOfTheAddressNotTheIndex) {
  // Row 1 of a matrix with 5 columns starts at element 5: a view whose index 3 is element 8
  // of the buffer, 32 bytes in, aligned; its index 0 is element 5, 20 bytes in, not aligned.
  const Floats f;
  const float* row = f.a + 5;
  EXPECT_EQ(vec_access<4>(row, 3, 6), VecAccess::by_element);  // [3, 7) but the row has 6
  EXPECT_EQ(vec_access<4>(row, 3, 7), VecAccess::wide);
  EXPECT_EQ(vec_access<4>(row, 0, 6), VecAccess::by_element);
}

TEST(VecAccess, HalfAndBf16Storage) {
  // 2-byte elements (the storage of half and bf16): 8 per 128-bit access, 2 per 32-bit pair.
  alignas(16) std::uint16_t h[20] = {};
  EXPECT_EQ(vec_access<8>(h, 0, 20), VecAccess::wide);
  EXPECT_EQ(vec_access<8>(h, 8, 20), VecAccess::wide);         // 16 bytes in
  EXPECT_EQ(vec_access<8>(h, 4, 20), VecAccess::by_element);   // 8 bytes in: misaligned
  EXPECT_EQ(vec_access<8>(h, 16, 20), VecAccess::by_element);  // [16, 24): 20 is past the end
  EXPECT_EQ(vec_access<2>(h, 2, 20), VecAccess::wide);         // 4 bytes in
  EXPECT_EQ(vec_access<2>(h, 1, 20), VecAccess::by_element);   // 2 bytes in
  EXPECT_EQ(vec_access<2>(h, 19, 20), VecAccess::by_element);  // [19, 21): 20 is past the end
}

TEST(LoadVec, WidePathReadsTheFourElements) {
  const Floats f;
  const Vec<float, 4> v = load_vec<4>(f.a, 4, f.n, -1.0f);
  EXPECT_EQ(v[0], 4.0f);
  EXPECT_EQ(v[1], 5.0f);
  EXPECT_EQ(v[2], 6.0f);
  EXPECT_EQ(v[3], 7.0f);
}

TEST(LoadVec, TailFillsPastTheEndAndNeverReadsThere) {
  const Floats f;
  const Vec<float, 4> v = load_vec<4>(f.a, 8, f.n, -1.0f);  // elements 8, 9, 10, then the end
  EXPECT_EQ(v[0], 8.0f);
  EXPECT_EQ(v[1], 9.0f);
  EXPECT_EQ(v[2], 10.0f);
  EXPECT_EQ(v[3], -1.0f);                                   // the fill, not the poison 999
  const Vec<float, 4> past = load_vec<4>(f.a, 11, f.n, 0.0f);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(past[k], 0.0f);
  const Vec<float, 4> empty = load_vec<4>(f.a, 0, 0, 0.0f);  // n = 0: nothing is in bounds
  for (int k = 0; k < 4; ++k) EXPECT_EQ(empty[k], 0.0f);
}

TEST(LoadVec, MisalignedStartReadsElementByElement) {
  const Floats f;
  const Vec<float, 4> v = load_vec<4>(f.a, 1, f.n, -1.0f);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], 2.0f);
  EXPECT_EQ(v[2], 3.0f);
  EXPECT_EQ(v[3], 4.0f);
  const Vec<float, 4> tail = load_vec<4>(f.a, 9, f.n, -1.0f);  // misaligned and a tail
  EXPECT_EQ(tail[0], 9.0f);
  EXPECT_EQ(tail[1], 10.0f);
  EXPECT_EQ(tail[2], -1.0f);
  EXPECT_EQ(tail[3], -1.0f);
}

TEST(LoadVec, MaxFillIsMinusInfinity) {
  const Floats f;
  const float minus_inf = -std::numeric_limits<float>::infinity();
  const Vec<float, 2> v = load_vec<2>(f.a, 10, f.n, minus_inf);  // element 10, then the end
  EXPECT_EQ(v[0], 10.0f);
  EXPECT_EQ(v[1], minus_inf);
}

TEST(StoreVec, WidePathWritesAllFour) {
  Floats f;
  store_vec<4>(f.a, 4, f.n, Vec<float, 4>{{40.0f, 50.0f, 60.0f, 70.0f}});
  EXPECT_EQ(f.a[3], 3.0f);  // neighbours untouched
  EXPECT_EQ(f.a[4], 40.0f);
  EXPECT_EQ(f.a[7], 70.0f);
  EXPECT_EQ(f.a[8], 8.0f);
}

TEST(StoreVec, TailWritesOnlyInBoundsElements) {
  Floats f;
  store_vec<4>(f.a, 8, f.n, Vec<float, 4>{{80.0f, 90.0f, 100.0f, 110.0f}});
  EXPECT_EQ(f.a[8], 80.0f);
  EXPECT_EQ(f.a[9], 90.0f);
  EXPECT_EQ(f.a[10], 100.0f);
  EXPECT_EQ(f.a[11], Floats::poison);  // past n: not written
  store_vec<4>(f.a, 11, f.n, Vec<float, 4>{{1.0f, 1.0f, 1.0f, 1.0f}});
  for (std::size_t k = Floats::n; k < 16; ++k) EXPECT_EQ(f.a[k], Floats::poison);
}

TEST(StoreVec, MisalignedStartWritesElementByElement) {
  Floats f;
  store_vec<4>(f.a, 1, f.n, Vec<float, 4>{{10.0f, 20.0f, 30.0f, 40.0f}});
  EXPECT_EQ(f.a[0], 0.0f);
  EXPECT_EQ(f.a[1], 10.0f);
  EXPECT_EQ(f.a[4], 40.0f);
  EXPECT_EQ(f.a[5], 5.0f);
}

TEST(LoadStoreVec, HalfPairsRoundTrip) {
  alignas(16) std::uint16_t h[5] = {1, 2, 3, 4, 5};
  const Vec<std::uint16_t, 2> pair = load_vec<2>(h, 2, 5, std::uint16_t{0});  // wide: 4 bytes in
  EXPECT_EQ(pair[0], 3);
  EXPECT_EQ(pair[1], 4);
  const Vec<std::uint16_t, 2> last = load_vec<2>(h, 4, 5, std::uint16_t{0});  // tail
  EXPECT_EQ(last[0], 5);
  EXPECT_EQ(last[1], 0);
  store_vec<2>(h, 0, 5, Vec<std::uint16_t, 2>{{7, 8}});
  EXPECT_EQ(h[0], 7);
  EXPECT_EQ(h[1], 8);
  EXPECT_EQ(h[2], 3);
}

// ------------------------------------------------------------------ butterfly on 32 and 64 lanes

using Warp32 = LaneSimulator<float, 32>;
using Wave64 = LaneSimulator<float, 64>;

template <class Sim>
typename Sim::Register lane_indices() {
  typename Sim::Register r;
  for (std::size_t l = 0; l < r.size(); ++l) r[l] = static_cast<float>(l);
  return r;
}

TEST(LaneSimulator, ShuffleXorSwapsPartners) {
  const Warp32::Register in = lane_indices<Warp32>();
  const Warp32::Register one = Warp32::shuffle_xor(in, 1);
  EXPECT_EQ(one[0], 1.0f);   // 0 ^ 1
  EXPECT_EQ(one[1], 0.0f);   // 1 ^ 1
  EXPECT_EQ(one[30], 31.0f); // 30 ^ 1
  const Warp32::Register sixteen = Warp32::shuffle_xor(in, 16);
  EXPECT_EQ(sixteen[3], 19.0f);  // 3 ^ 16
  EXPECT_EQ(sixteen[19], 3.0f);
  const Wave64::Register thirty_two = Wave64::shuffle_xor(lane_indices<Wave64>(), 32);
  EXPECT_EQ(thirty_two[5], 37.0f);   // 5 ^ 32: only a 64-lane wavefront has this partner
  EXPECT_EQ(thirty_two[63], 31.0f);
}

TEST(WarpReduce, SumOfLaneIndices32And64) {
  // 0 + 1 + ... + (L - 1) = L (L - 1) / 2: 496 for L = 32, 2016 for L = 64; exact in float.
  for (float v : Warp32::warp_reduce(lane_indices<Warp32>(), Sum{})) EXPECT_EQ(v, 496.0f);
  for (float v : Wave64::warp_reduce(lane_indices<Wave64>(), Sum{})) EXPECT_EQ(v, 2016.0f);
}

TEST(WarpReduce, A32LaneReduceOnAWavefrontCoversOnlyHalf) {
  // Width 32 on 64 lanes (what code that assumes 32 lanes computes on AMD): lanes 0-31 get
  // 0 + ... + 31 = 496, lanes 32-63 get 32 + ... + 63 = 496 + 32 * 32 = 1520.
  const Wave64::Register r = Wave64::warp_reduce<32>(lane_indices<Wave64>(), Sum{});
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], 496.0f) << "lane " << l;
  for (int l = 32; l < 64; ++l) EXPECT_EQ(r[l], 1520.0f) << "lane " << l;
  // Width 16 on 32 lanes: 0 + ... + 15 = 120; 16 + ... + 31 = 120 + 16 * 16 = 376.
  const Warp32::Register h = Warp32::warp_reduce<16>(lane_indices<Warp32>(), Sum{});
  for (int l = 0; l < 16; ++l) EXPECT_EQ(h[l], 120.0f) << "lane " << l;
  for (int l = 16; l < 32; ++l) EXPECT_EQ(h[l], 376.0f) << "lane " << l;
}

TEST(WarpReduce, MaxWithNegativesFindsTheLargest) {
  // Lane l holds -(l + 1), except one lane near the top holds -0.5: the maximum is -0.5.
  // On 64 lanes that lane is 37, outside the first 32, so a 32-lane reduce would miss it.
  Warp32::Register w;
  for (int l = 0; l < 32; ++l) w[l] = -static_cast<float>(l + 1);
  w[21] = -0.5f;
  for (float v : Warp32::warp_reduce(w, Max{})) EXPECT_EQ(v, -0.5f);
  Wave64::Register a;
  for (int l = 0; l < 64; ++l) a[l] = -static_cast<float>(l + 1);
  a[37] = -0.5f;
  for (float v : Wave64::warp_reduce(a, Max{})) EXPECT_EQ(v, -0.5f);
  // A 32-lane reduce on the wavefront: lanes 0-31 see -1 .. -32 (max -1), lanes 32-63 see -0.5.
  const Wave64::Register half = Wave64::warp_reduce<32>(a, Max{});
  EXPECT_EQ(half[0], -1.0f);
  EXPECT_EQ(half[63], -0.5f);
}

TEST(WarpReduce, MaxPropagatesNaN) {
  Warp32::Register w = lane_indices<Warp32>();
  w[9] = std::numeric_limits<float>::quiet_NaN();
  for (float v : Warp32::warp_reduce(w, Max{})) EXPECT_TRUE(std::isnan(v));
}

TEST(WarpReduce, EveryLaneGetsTheSameBitsWhenOrderMatters) {
  // Float addition is not associative: 2^24 + 1 rounds back to 2^24. Lane 0 holds 2^24, the
  // others 1, so the sum depends on the order of the additions; whatever it is, every lane
  // must hold the same bits (each pair of partners evaluates one expression).
  Wave64::Register a;
  a.fill(1.0f);
  a[0] = 16777216.0f;
  const Wave64::Register r = Wave64::warp_reduce(a, Sum{});
  for (int l = 1; l < 64; ++l) EXPECT_EQ(std::memcmp(&r[l], &r[0], sizeof(float)), 0) << "lane " << l;
}

TEST(WarpReduce, NonCommutativeOperationReducesInLaneOrder) {
  // Concatenation is associative but not commutative: the lane-ordered butterfly must give
  // "0,1,2,...,L-1," on every lane.
  LaneSimulator<std::string, 32>::Register w;
  LaneSimulator<std::string, 64>::Register a;
  std::string expect32, expect64;
  for (int l = 0; l < 64; ++l) {
    if (l < 32) w[l] = std::to_string(l) + ",", expect32 += w[l];
    a[l] = std::to_string(l) + ",";
    expect64 += a[l];
  }
  const auto concat = [](const std::string& x, const std::string& y) { return x + y; };
  for (const std::string& v : LaneSimulator<std::string, 32>::warp_reduce(w, concat)) EXPECT_EQ(v, expect32);
  for (const std::string& v : LaneSimulator<std::string, 64>::warp_reduce(a, concat)) EXPECT_EQ(v, expect64);
}

TEST(WarpReduce, NonAssociativeOperationStillAgreesOnEveryLane) {
  // op(x, y) = 2x + y, lane l holding l. At each step the left (lower-lane) operand is
  // doubled, so lane l's value is counted 2^z(l) times, z(l) = the 0 bits of its B-bit index
  // (B = log2 L). The result is sum_l l 2^z(l) = sum_b 2^b * 3^(B-1): bit b set contributes
  // 2^b, and each of the other B - 1 bits a factor (2 + 1) for its 0 and 1.
  //   L = 32: 3^4 (1 + 2 + 4 + 8 + 16) = 81 * 31 = 2511;  L = 64: 3^5 * 63 = 243 * 63 = 15309.
  // Without the lane order, lane l would compute 2 v_l + v_partner and partners would differ.
  const auto twice_left_plus_right = [](long long x, long long y) { return 2 * x + y; };
  LaneSimulator<long long, 32>::Register w;
  for (int l = 0; l < 32; ++l) w[l] = l;
  for (long long v : LaneSimulator<long long, 32>::warp_reduce(w, twice_left_plus_right)) EXPECT_EQ(v, 2511);
  LaneSimulator<long long, 64>::Register a;
  for (int l = 0; l < 64; ++l) a[l] = l;
  for (long long v : LaneSimulator<long long, 64>::warp_reduce(a, twice_left_plus_right)) EXPECT_EQ(v, 15309);
}

// ------------------------------------------------------------------ block reduction

TEST(BlockReduce, WarpsInABlockDependOnTheLaneCount) {
  EXPECT_EQ(warps_in_block(256, 32), 8);   // NVIDIA: 8 warps
  EXPECT_EQ(warps_in_block(256, 64), 4);   // AMD CDNA: 4 wavefronts
  EXPECT_EQ(warps_in_block(1024, 32), tutor::device::kMaxWarpsPerBlock);  // 32
  EXPECT_EQ(warps_in_block(1024, 64), 16);
  EXPECT_EQ(warps_in_block(96, 64), 2);    // the second wavefront is half empty
  EXPECT_EQ(warps_in_block(1, 32), 1);
}

TEST(BlockReduce, SumOf256ThreadIndicesAt32And64Lanes) {
  std::vector<float> values(256);
  for (int t = 0; t < 256; ++t) values[t] = static_cast<float>(t);
  // 32 lanes: warp w sums 32w .. 32w + 31 = 32 * 32w + 496 = 1024w + 496.
  const auto warp = Warp32::block_reduce(values, Sum{});
  ASSERT_EQ(warp.partials.size(), 8u);
  for (int w = 0; w < 8; ++w) EXPECT_EQ(warp.partials[w], 1024.0f * w + 496.0f) << "warp " << w;
  // 64 lanes: wavefront w sums 64w .. 64w + 63 = 64 * 64w + 2016 = 4096w + 2016.
  const auto wave = Wave64::block_reduce(values, Sum{});
  ASSERT_EQ(wave.partials.size(), 4u);
  for (int w = 0; w < 4; ++w) EXPECT_EQ(wave.partials[w], 4096.0f * w + 2016.0f) << "wavefront " << w;
  // Both: 0 + ... + 255 = 255 * 256 / 2 = 32640 on every thread.
  for (float v : warp.per_thread) EXPECT_EQ(v, 32640.0f);
  for (float v : wave.per_thread) EXPECT_EQ(v, 32640.0f);
}

TEST(BlockReduce, PartialsAreFoldedInWarpOrder) {
  std::vector<std::string> values(128);
  std::string expect;
  for (int t = 0; t < 128; ++t) values[t] = std::to_string(t) + ",", expect += values[t];
  const auto concat = [](const std::string& x, const std::string& y) { return x + y; };
  const auto r = LaneSimulator<std::string, 64>::block_reduce(values, concat);
  ASSERT_EQ(r.partials.size(), 2u);
  EXPECT_EQ(r.partials[0] + r.partials[1], expect);
  for (const std::string& v : r.per_thread) EXPECT_EQ(v, expect);
}

TEST(BlockReduce, SimulatorRefusesAPartialWarp) {
  // block_reduce on the device requires whole warps; the simulator says so.
  EXPECT_THROW(Warp32::block_reduce(std::vector<float>(100), Sum{}), std::invalid_argument);
  EXPECT_THROW(Wave64::block_reduce(std::vector<float>(96), Sum{}), std::invalid_argument);
  EXPECT_THROW(Wave64::block_reduce(std::vector<float>{}, Sum{}), std::invalid_argument);
}

}  // namespace
