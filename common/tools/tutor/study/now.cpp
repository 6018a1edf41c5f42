#include "study/now.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <string_view>

#include "tutor/cli.hpp"
#include "tutor/json_input.hpp"

namespace tutor::study {
namespace {

/// `text` has a digit at every '9' of `shape` and the same byte elsewhere: sscanf's %d alone
/// would also take a sign or a space ("2026-+1-+2", "2026- 1- 2").
bool has_shape(const std::string& text, std::string_view shape) {
  if (text.size() != shape.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (shape[i] == '9' ? !digit : text[i] != shape[i]) return false;
  }
  return true;
}

bool parse_utc(const std::string& text, Instant& out) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  const bool date_only = has_shape(text, "9999-99-99") &&
                         std::sscanf(text.c_str(), "%4d-%2d-%2d", &year, &month, &day) == 3;
  const bool full = !date_only && has_shape(text, "9999-99-99T99:99:99Z") &&
                    std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ", &year, &month, &day, &hour, &minute,
                                &second) == 6;
  if (!date_only && !full) return false;
  using namespace std::chrono;
  const year_month_day date{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                            std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok() || year < 1970 || year > 9999 || hour > 23 || minute > 59 || second > 59) return false;
  out = sys_days{date} + hours{hour} + minutes{minute} + seconds{second};
  return true;
}

}  // namespace

Instant now_or(const std::string& text, const std::string& option) {
  if (text.empty()) return std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
  // The latest --now leaves room for the longest FSRS interval (36,500 days, under 100 years)
  // before 9999-12-31, the last day a state file can hold: a review at that --now must be
  // readable again.
  using namespace std::chrono;
  constexpr Instant kLatest = sys_days{year{9899} / December / 31} + hours{23} + minutes{59} + seconds{59};
  Instant parsed;
  if (!parse_utc(text, parsed) || parsed > kLatest)
    throw UsageError(fmt::format("{}: must be a UTC time like 2026-12-02T09:30:00Z or a date like 2026-12-02, "
                                 "from 1970-01-01 to 9899-12-31, got '{}'",
                                 option, printable(text, 40)));
  return parsed;
}

std::string to_iso8601(Instant instant) {
  const std::time_t t = std::chrono::system_clock::to_time_t(instant);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Instant from_iso8601(const std::string& text) {
  Instant parsed;
  if (!parse_utc(text, parsed)) throw std::runtime_error(fmt::format("'{}' is not a UTC time like 2026-12-02T09:30:00Z", text));
  return parsed;
}

}  // namespace tutor::study
