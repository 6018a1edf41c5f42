#pragma once
// The study tools' clock: the system clock, or --now for tests and for looking ahead.
#include <chrono>
#include <string>

namespace tutor::study {

using Instant = std::chrono::sys_seconds;

/// `text` as a UTC instant: "2026-12-02T09:30:00Z" or "2026-12-02" (midnight UTC); empty text
/// gives the system clock now. Throws UsageError naming `option` otherwise.
Instant now_or(const std::string& text, const std::string& option = "--now");

/// "2026-12-02T09:30:00Z".
std::string to_iso8601(Instant instant);

/// Parses what to_iso8601 writes; throws std::runtime_error with a one-line reason otherwise.
Instant from_iso8601(const std::string& text);

}  // namespace tutor::study
