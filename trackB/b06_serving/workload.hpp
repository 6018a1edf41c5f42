#pragma once
// B06: the requests the continuous-batching simulator serves.
//
// Two sources:
//  - synthetic: Poisson arrivals (exponential inter-arrival times of mean 1 / lambda)
//    and lognormal prompt and output lengths, from a seed. A lognormal is what measured
//    LLM length distributions are usually fitted with (long right tail, no negatives);
//    it is parameterised here by its MEDIAN and SIGMA (the standard deviation of the
//    natural log of the length), because the median is what survives rounding to whole
//    tokens and what a trace summary reports; LognormalLength::from_mean_sd converts
//    from a mean and standard deviation instead.
//  - a CSV trace: `timestamp_s,prompt_tokens,output_tokens`, one request per row.
//
// Reproducible across compilers and standard libraries: the engine is std::mt19937_64
// (its output sequence is fixed by the C++ standard) and the exponential and normal
// variates are computed here from its raw 64-bit output (inverse CDF and Box-Muller),
// not by std::exponential_distribution / std::normal_distribution, whose algorithms the
// standard leaves to each library. Arrivals, prompt lengths and output lengths come from
// three engines seeded from the one seed, so changing the arrival rate leaves the lengths
// unchanged (common random numbers: two configurations compared on the same requests).
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <string>
#include <vector>

#include "tutor/cli.hpp"

namespace tutor::b06 {

/// One request: when it arrives, how long its prompt is, how many tokens it generates.
struct Request {
  double arrival_s = 0;             ///< arrival time, seconds
  std::int32_t prompt_tokens = 0;   ///< >= 1
  std::int32_t output_tokens = 0;   ///< >= 1 (the first comes out of the prefill)
  friend bool operator==(const Request&, const Request&) = default;
};

/// A lognormal length: ln(length) ~ Normal(ln(median_tokens), sigma^2), rounded to the
/// nearest whole token and clamped to [1, max_tokens]. Its mean is
/// median * exp(sigma^2 / 2) (before rounding and clamping).
struct LognormalLength {
  double median_tokens = 1;   ///< >= 1
  double sigma = 0;           ///< >= 0; 0 gives every request median_tokens
  std::int32_t max_tokens = 1 << 20;

  /// The lognormal with this mean and standard deviation (of the length, not its log):
  /// sigma^2 = ln(1 + sd^2 / mean^2), median = mean / sqrt(1 + sd^2 / mean^2).
  static LognormalLength from_mean_sd(double mean_tokens, double sd_tokens,
                                      std::int32_t max_tokens = 1 << 20);
};

struct SyntheticWorkload {
  std::size_t requests = 1000;        ///< >= 1
  double arrival_rate_per_s = 1;      ///< lambda > 0; +infinity puts every arrival at t = 0
  LognormalLength prompt{512, 1.0};
  LognormalLength output{128, 1.0};
  std::uint64_t seed = 1;
  /// Generation stops with a UsageError naming --requests once the requests made so far hold
  /// more prompt + output tokens than this (b06_serving batch: kMaxWorkloadTokens), so an
  /// oversized workload is refused before it is all in memory.
  double max_total_tokens = std::numeric_limits<double>::infinity();
};

/// The requests of `spec`, sorted by arrival; the first arrives one exponential gap after
/// t = 0. Throws tutor::UsageError naming the field if a value is out of range.
std::vector<Request> generate_workload(const SyntheticWorkload& spec);

/// A malformed trace: the message is one line, "<source>:<line>: <field>: <what>",
/// e.g. "trace.csv:17: output_tokens: expected a positive integer, got '0'". It is a
/// tutor::UsageError, so a CLI's run_main() maps it to exit code 2.
class ParseError : public UsageError {
 public:
  ParseError(const std::string& source, std::size_t line, const std::string& field,
             const std::string& what);
  const std::string& source() const { return source_; }
  std::size_t line() const { return line_; }          ///< 1-based line of the file (the header is line 1)
  const std::string& field() const { return field_; } ///< column name, "header" or "row"

 private:
  std::string source_;
  std::size_t line_;
  std::string field_;
};

/// Bounds of a trace, checked as it is read so that a hostile file is refused at its first bad
/// byte, line or row, in bounded memory: a row is three numbers (a timestamp of at most about
/// 25 characters, two integers of at most 10 digits), so 1 KiB is a generous line; the rows are
/// --requests' own limit; blank lines are allowed up to 5 million more; 1 GiB holds 20 million
/// rows of 50 bytes.
inline constexpr std::size_t kMaxTraceLineBytes = 1024;
inline constexpr std::size_t kMaxTraceRows = 20'000'000;
inline constexpr std::size_t kMaxTraceLines = kMaxTraceRows + 5'000'000;
inline constexpr std::size_t kMaxTraceBytes = std::size_t(1) << 30;
/// Blank (or whitespace-only) lines in a row before the trace is refused: a file of a million
/// lines of spaces is not a trace, and was read whole (1 GiB, 4.6 s) before "no request rows".
inline constexpr std::size_t kMaxBlankLineRun = 1000;

/// The header a trace starts with, in this order.
inline constexpr const char* kTraceHeader = "timestamp_s,prompt_tokens,output_tokens";

/// Reads a trace: the header line, then one request per line: timestamp_s a finite
/// number >= 0 of seconds and not earlier than the previous row's, prompt_tokens and
/// output_tokens positive integers whose sum is at most 2^31 - 1 (a sequence's length). Spaces around fields, a UTF-8
/// byte-order mark, CRLF line ends and blank lines are accepted. Throws ParseError on the
/// first malformed line (and when no request follows the header), and at the first byte that
/// is not printable ASCII, tab, CR or LF (a NUL: a binary file), the first line longer than
/// kMaxTraceLineBytes, the row past kMaxTraceRows and the blank line past a run of
/// kMaxBlankLineRun, without reading further; `source_name` is what the message calls the
/// input. Reading stops after `max_rows` rows (--requests N takes the first N: the rest of a
/// 20-million-row file is neither stored nor read).
std::vector<Request> parse_trace_csv(std::istream& in, const std::string& source_name,
                                     std::size_t max_rows = kMaxTraceRows);

/// The most prompt + output tokens a workload may hold: the simulator takes at least one step
/// per decode token of a lone request (tens of millions of steps a second here), so 2^32 tokens
/// bound a run to minutes; beyond it a run would take hours and is refused before it starts.
inline constexpr double kMaxWorkloadTokens = 4294967296.0;

/// Throws UsageError("<what>: <n> prompt + output tokens to simulate; at most 2^32 = 4.29e9
/// ...") when the requests hold more than kMaxWorkloadTokens; `what` names the options the
/// requests came from ("--trace t.csv", "--requests 20000000 x the length options").
void require_simulable(const std::vector<Request>& requests, const std::string& what);

/// parse_trace_csv on the file at `path` (named by `path` in messages), read in 64 KiB pieces,
/// never whole. Throws tutor::InputError ("<path>: <why>") if it cannot be opened,
/// is not a regular file (a pipe, /dev/zero, a link loop) or is larger than kMaxTraceBytes.
std::vector<Request> read_trace_csv(const std::string& path, std::size_t max_rows = kMaxTraceRows);

}  // namespace tutor::b06
