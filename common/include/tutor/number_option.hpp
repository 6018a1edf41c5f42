#pragma once
// Numeric options and the numbers derived from them, checked in one place.
//
// CLI11's Range lets NaN through, std::stod throws a library exception on "1e400", and a
// huge or subnormal value that passes a "> 0" test turns into inf, -nan or a negative pool
// three formulas later. Every numeric option of the serving and sharding tools is read through
// number_in / integer_in: a finite decimal number, not subnormal, within [lo, hi]; a bad value
// is one line naming the option and the range, exit 2. Quantities derived from several inputs
// are checked before they are printed or converted to an integer (checked_int64, require_reportable).
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "tutor/cli.hpp"

namespace tutor {

/// A closed or half-open interval of allowed values.
struct NumberRange {
  double lo = 0, hi = 0;
  bool lo_open = false;  ///< (lo, ...: lo itself is refused (a rate or an efficiency > 0)
  bool hi_open = false;
  bool allow_inf = false;  ///< "inf" is a value of its own (an offline batch: every arrival at t = 0)
  /// "[1, 1e6]", "(0, 1]"; "or inf" when allowed.
  std::string text() const;
  bool contains(double v) const;
};

/// Validator: a finite decimal number (no hex, no nan; inf only with allow_inf), not
/// subnormal, within `range`. CLI11 prefixes the option name: "--rate: must be a number in
/// (0, 1e6] or inf, got '1e-320'". --help shows the range. "-0" is read as "0" when the
/// validator is added with ->transform (->check works on a copy): a report never echoes "-0".
CLI::Validator number_in(NumberRange range);
inline CLI::Validator number_in(double lo, double hi) { return number_in(NumberRange{lo, hi}); }

/// Validator: plain decimal digits (a leading '-' only when lo < 0) within [lo, hi]:
/// "--gpus: must be an integer in [1, 1024], got '99999999999'".
CLI::Validator integer_in(std::int64_t lo, std::int64_t hi);

/// Throws UsageError("<what>: <detail>: <v> is not a finite number in [lo, hi]") unless v is
/// finite, not subnormal and within the range: for values that are not options but depend on
/// them (a ratio of two options, a config value times an option).
void require_in_range(double v, const NumberRange& range, const std::string& what);

/// `v` as an int64 after checking it is finite and within [lo, hi]: converting a double out of
/// range of the integer type is undefined behaviour (C++ [conv.fpint]) and printed a negative
/// count. Throws UsageError("<what>: <v> ... ").
std::int64_t checked_int64(double v, const std::string& what, double lo = 0, double hi = 9.0e18);

/// Throws UsageError("<what>: <v> is not a finite number >= 0 (...)") unless v can be printed
/// as a size, a count or a time: called on derived quantities before a report prints them.
void require_reportable(double v, const std::string& what);

}  // namespace tutor
