#include "study/now.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <ctime>
#include <stdexcept>

#include "tutor/cli.hpp"

namespace tutor::study {
namespace {

bool parse_utc(const std::string& text, Instant& out) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  int used = 0;
  const bool date_only = text.size() == 10 &&
                         std::sscanf(text.c_str(), "%4d-%2d-%2d%n", &year, &month, &day, &used) == 3 && used == 10;
  const bool full = !date_only && text.size() == 20 &&
                    std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &year, &month, &day, &hour, &minute,
                                &second, &used) == 6 && used == 20;
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
  Instant parsed;
  if (!parse_utc(text, parsed))
    throw UsageError(fmt::format("{}: must be a UTC time like 2026-12-02T09:30:00Z or a date like 2026-12-02, "
                                 "got '{}'", option, text));
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
