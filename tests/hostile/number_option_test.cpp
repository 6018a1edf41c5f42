// number_in / integer_in and the checks of derived quantities (tutor/number_option.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tutor/number_option.hpp"

namespace {

using tutor::integer_in;
using tutor::number_in;
using tutor::NumberRange;

/// The validator's complaint about `text` ("" when accepted).
std::string check(const CLI::Validator& v, std::string text) { return v(text); }

TEST(NumberIn, AcceptsDecimalNumbersInRange) {
  const auto v = number_in(0, 10);
  for (const char* ok : {"0", "10", "2.5", "1e1", "1E-3", "+3", "0.0"}) EXPECT_EQ(check(v, ok), "") << ok;
}

TEST(NumberIn, RefusesNonFiniteSubnormalHexAndOutOfRange) {
  const auto v = number_in(0, 10);
  for (const char* bad : {"nan", "inf", "-inf", "1e400", "4e-320", "0x1p3", "11", "-1", "", "1,5", " 1", "1e"})
    EXPECT_EQ(check(v, bad).rfind("must be a number in [0, 10], got '", 0), 0u) << bad;
}

TEST(NumberIn, OpenBoundsAndInfinityWhereAllowed) {
  const auto fraction = number_in(NumberRange{0, 1, true});
  EXPECT_NE(check(fraction, "0"), "");
  EXPECT_EQ(check(fraction, "1"), "");
  EXPECT_EQ(check(fraction, "1e-300"), "");  // normal, if tiny: the caller's lower bound decides
  const auto rate = number_in(NumberRange{1e-3, 1e6, false, false, true});
  EXPECT_EQ(check(rate, "inf"), "");
  EXPECT_NE(check(rate, "1e400"), "");  // overflows to inf: not the word inf
  EXPECT_NE(check(rate, "nan"), "");
}

TEST(NumberIn, MinusZeroIsReadAsZero) {
  // A report that echoes an option printed "-0" (--alpha-us -0): the value is 0, and the
  // validator, added with ->transform, hands CLI11 "0".
  const auto v = number_in(0, 10);
  for (const char* zero : {"-0", "-0.0", "-0e5", "+0", "0"}) {
    std::string text = zero;
    EXPECT_EQ(v(text), "") << zero;
    EXPECT_EQ(text, "0") << zero;
  }
  std::string two = "2.50";
  EXPECT_EQ(v(two), "");
  EXPECT_EQ(two, "2.50");  // other values are left as given
}

TEST(NumberIn, TheMessageQuotesAtMost40PrintableCharacters) {
  const std::string msg = check(number_in(0, 1), std::string(100, '9') + "\x1b");
  EXPECT_NE(msg.find("...'"), std::string::npos);
  EXPECT_EQ(msg.find('\x1b'), std::string::npos);
}

TEST(IntegerIn, AcceptsPlainDecimalsInRange) {
  const auto v = integer_in(1, 1024);
  for (const char* ok : {"1", "16", "1024"}) EXPECT_EQ(check(v, ok), "") << ok;
  EXPECT_EQ(check(integer_in(-5, 5), "-5"), "");
}

TEST(IntegerIn, RefusesOctalExponentsSignsAndHugeValues) {
  const auto v = integer_in(1, 1024);
  for (const char* bad : {"0", "1025", "010", "1e3", "-1", "+1", "1.0", "99999999999999999999", "0x10", ""})
    EXPECT_EQ(check(v, bad).rfind("must be an integer in [1, 1024], got '", 0), 0u) << bad;
}

TEST(CheckedInt64, RefusesWhatAnIntegerCannotHold) {
  EXPECT_EQ(tutor::checked_int64(12.0, "pages"), 12);
  EXPECT_THROW(tutor::checked_int64(1e19, "pages"), tutor::UsageError);  // past int64: undefined to convert
  EXPECT_THROW(tutor::checked_int64(std::nan(""), "pages"), tutor::UsageError);
  EXPECT_THROW(tutor::checked_int64(-1, "pages"), tutor::UsageError);
}

TEST(RequireReportable, RefusesNegativeAndNonFiniteQuantities) {
  EXPECT_NO_THROW(tutor::require_reportable(0, "pool"));
  EXPECT_THROW(tutor::require_reportable(-1, "pool"), tutor::UsageError);
  EXPECT_THROW(tutor::require_reportable(std::numeric_limits<double>::infinity(), "pool"), tutor::UsageError);
  EXPECT_THROW(tutor::require_in_range(5e-324, NumberRange{0, 1}, "x"), tutor::UsageError);
}

}  // namespace
