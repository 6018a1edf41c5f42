#include "tutor/number_option.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

namespace tutor {

std::string NumberRange::text() const {
  std::string out = fmt::format("{}{:g}, {:g}{}", lo_open ? "(" : "[", lo, hi, hi_open ? ")" : "]");
  if (allow_inf) out += " or inf";
  return out;
}

bool NumberRange::contains(double v) const {
  if (std::isinf(v) && v > 0 && allow_inf) return true;
  if (!std::isfinite(v)) return false;
  if (v != 0 && std::fabs(v) < std::numeric_limits<double>::min()) return false;  // subnormal
  return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
}

namespace {
/// The value as a message quotes it: at most 40 characters, printable.
std::string quoted_value(const std::string& s) {
  std::string out;
  for (const char ch : s.substr(0, 40)) out += (ch >= 0x20 && ch < 0x7f) ? ch : '?';
  return "'" + out + (s.size() > 40 ? "...'" : "'");
}
}  // namespace

CLI::Validator number_in(NumberRange range) {
  CLI::Validator v(
      [range](std::string& s) -> std::string {
        const std::string why = fmt::format("must be a number in {}, got {}", range.text(), quoted_value(s));
        if (range.allow_inf && (s == "inf" || s == "infinity")) return "";
        // Decimal only: strtod also reads hex ("0x10"), "nan" and "infinity".
        if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string::npos) return why;
        char* end = nullptr;
        const double d = std::strtod(s.c_str(), &end);
        // "1e400" reads as inf: a number too large is refused even where "inf" itself is allowed.
        if (end != s.c_str() + s.size() || !std::isfinite(d) || !range.contains(d)) return why;
        // "-0", "-0.0e5": the value is 0, and a report that echoes the option must not print "-0".
        if (d == 0) s = "0";
        return "";
      },
      "NUMBER in [" + fmt::format("{:g}", range.lo) + " - " + fmt::format("{:g}", range.hi) + "]");
  return v;
}

CLI::Validator integer_in(std::int64_t lo, std::int64_t hi) {
  CLI::Validator v(
      [lo, hi](std::string& s) -> std::string {
        const std::string why = fmt::format("must be an integer in [{}, {}], got {}", lo, hi, quoted_value(s));
        const std::size_t sign = (lo < 0 && !s.empty() && s[0] == '-') ? 1 : 0;
        const std::string digits = s.substr(sign);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return why;
        if (digits.size() > 1 && digits[0] == '0') return why;  // CLI11 2.1 reads "010" as octal
        std::int64_t value = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), value);
        if (r.ec != std::errc() || r.ptr != s.data() + s.size() || value < lo || value > hi) return why;
        return "";
      },
      fmt::format("INT in [{} - {}]", lo, hi));
  return v;
}

void require_in_range(double v, const NumberRange& range, const std::string& what) {
  if (!range.contains(v)) throw UsageError(fmt::format("{}: {:g} is not a finite number in {}", what, v, range.text()));
}

std::int64_t checked_int64(double v, const std::string& what, double lo, double hi) {
  if (!(std::isfinite(v) && v >= lo && v <= hi))
    throw UsageError(fmt::format("{}: {:g} is out of range (a count from {:g} to {:g})", what, v, lo, hi));
  return static_cast<std::int64_t>(v);
}

void require_reportable(double v, const std::string& what) {
  if (!(std::isfinite(v) && v >= 0))
    throw UsageError(fmt::format("{}: {:g} is not a finite number >= 0 (the inputs are out of the model's range)",
                                 what, v));
}

}  // namespace tutor
