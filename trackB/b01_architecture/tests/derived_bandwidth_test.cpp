// B01: the bandwidth derived from the memory clock and bus width the runtime reports, and the
// properties' text. Expectations are derived by hand next to each test.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "device_query.hpp"

namespace tutor::b01 {
namespace {

// bandwidth = 2 transfers per clock x clock x bus width / 8 bits per byte.
// A100 SXM4 80GB: the CUDA runtime reports a 1593 MHz memory clock and a 5120-bit bus:
// 2 x 1.593e9 /s x 640 B = 2.03904e12 B/s = 2039.04 GB/s; the NVIDIA A100 datasheet (2020)
// prints 2,039 GB/s for the 80GB SXM part.
TEST(DerivedBandwidth, A100_80GB_ClockAndBusGiveTheDatasheets2039GBps) {
  EXPECT_NEAR(derived_bandwidth_GBps(1593000.0, 5120), 2039.04, 1e-9);
}

// A100 SXM4 40GB: 1215 MHz, 5120 bits: 2 x 1.215e9 x 640 = 1555.2 GB/s (datasheet: 1,555 GB/s).
TEST(DerivedBandwidth, A100_40GB_ClockAndBusGiveTheDatasheets1555GBps) {
  EXPECT_NEAR(derived_bandwidth_GBps(1215000.0, 5120), 1555.2, 1e-9);
}

// 1 MHz on an 8-bit bus: 2 x 1e6 transfers/s x 1 byte = 2e6 B/s = 0.002 GB/s.
TEST(DerivedBandwidth, OneMegahertzOnOneByteIsTwoMegabytesPerSecond) {
  EXPECT_DOUBLE_EQ(derived_bandwidth_GBps(1000.0, 8), 0.002);
}

// A runtime that reports no clock or no bus width (0) gives "unknown", never a fake number.
TEST(DerivedBandwidth, UnknownClockOrBusIsZero) {
  EXPECT_EQ(derived_bandwidth_GBps(0, 5120), 0);
  EXPECT_EQ(derived_bandwidth_GBps(1593000.0, 0), 0);
  EXPECT_EQ(derived_bandwidth_GBps(-1, 5120), 0);
  EXPECT_EQ(derived_bandwidth_GBps(std::nan(""), 5120), 0);
}

TEST(Property, NumericTextIsTheWholeNumber) {
  const Property p = numeric_property("l2_bytes", "L2 cache", 62914560, "bytes", "m");
  EXPECT_EQ(p.value, "62914560");  // 60 MiB, no exponent, no rounding
  EXPECT_EQ(p.number, 62914560);
  EXPECT_EQ(p.unit, "bytes");
}

TEST(Property, UnreportedValueSaysWhyAndHasNoNumber) {
  const Property p = optional_property("regs_per_sm", "registers per CU", std::nullopt, "32-bit registers",
                                       "not reported by HIP 5.2", "m");
  EXPECT_EQ(p.value, "not reported by HIP 5.2");
  EXPECT_TRUE(std::isnan(p.number));
}

TEST(Property, FlagIsYesOrNoAndOneOrZero) {
  EXPECT_EQ(flag_property("ecc", "ECC", true, "m").value, "yes");
  EXPECT_EQ(flag_property("ecc", "ECC", false, "m").number, 0);
}

}  // namespace
}  // namespace tutor::b01
