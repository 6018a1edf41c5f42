#include "workload.hpp"

#include "tutor/input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <numbers>
#include <random>
#include <string_view>

namespace tutor::b06 {

// ------------------------------------------------------------------ synthetic workload

LognormalLength LognormalLength::from_mean_sd(double mean_tokens, double sd_tokens,
                                              std::int32_t max_tokens) {
  if (!(std::isfinite(mean_tokens) && mean_tokens >= 1))
    throw UsageError("mean_tokens: must be a finite number >= 1");
  if (!(std::isfinite(sd_tokens) && sd_tokens >= 0))
    throw UsageError("sd_tokens: must be a finite number >= 0");
  // Moments of the lognormal: E = m exp(s^2/2), Var = E^2 (exp(s^2) - 1), m the median.
  const double cv2 = (sd_tokens / mean_tokens) * (sd_tokens / mean_tokens);
  return {mean_tokens / std::sqrt(1 + cv2), std::sqrt(std::log1p(cv2)), max_tokens};
}

namespace {

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014): turns one user seed into well-separated seeds for the three engines.
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Variates computed from mt19937_64's raw output, so they are the same everywhere.
class Stream {
 public:
  explicit Stream(std::uint64_t seed) : engine_(seed) {}

  /// Uniform on (0, 1]: the top 53 bits, shifted off zero so log() is finite.
  double uniform_open0() { return (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53; }

  /// Exponential of rate 1 by inversion: -ln U, U uniform on (0, 1].
  double exponential() { return -std::log(uniform_open0()); }

  /// Standard normal by the Box-Muller transform (Box and Muller, Ann. Math. Stat. 29, 1958),
  /// both variates of each pair used.
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double radius = std::sqrt(-2.0 * std::log(uniform_open0()));
    const double angle = 2.0 * std::numbers::pi * uniform_open0();
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0;
  bool has_spare_ = false;
};

std::int32_t lognormal_tokens(Stream& s, const LognormalLength& len) {
  const double x = len.median_tokens * std::exp(len.sigma * s.normal());
  const double rounded = std::nearbyint(std::min(x, static_cast<double>(len.max_tokens)));
  return static_cast<std::int32_t>(std::max(1.0, rounded));
}

void check_length(const LognormalLength& len, const std::string& name) {
  if (!(std::isfinite(len.median_tokens) && len.median_tokens >= 1))
    throw UsageError(name + ".median_tokens: must be a finite number >= 1");
  if (!(std::isfinite(len.sigma) && len.sigma >= 0))
    throw UsageError(name + ".sigma: must be a finite number >= 0");
  if (len.max_tokens < 1) throw UsageError(name + ".max_tokens: must be >= 1");
}

}  // namespace

std::vector<Request> generate_workload(const SyntheticWorkload& spec) {
  if (spec.requests < 1) throw UsageError("requests: must be >= 1");
  if (spec.requests > std::numeric_limits<std::uint32_t>::max())
    throw UsageError("requests: must be at most 4294967295");
  if (!(spec.arrival_rate_per_s > 0) || std::isnan(spec.arrival_rate_per_s))
    throw UsageError("arrival_rate_per_s: must be > 0 (or infinity: every request at t = 0)");
  check_length(spec.prompt, "prompt");
  check_length(spec.output, "output");

  std::uint64_t state = spec.seed;
  Stream arrivals(splitmix64(state));
  Stream prompts(splitmix64(state));
  Stream outputs(splitmix64(state));

  std::vector<Request> out;
  out.reserve(spec.requests);  // reserved, not filled: an oversized workload stops before touching it all
  const double mean_gap_s = 1.0 / spec.arrival_rate_per_s;  // 0 for an infinite rate
  double t = 0, tokens = 0;
  for (std::size_t i = 0; i < spec.requests; ++i) {
    Request r;
    // Poisson process: independent exponential gaps of mean 1 / lambda.
    t += arrivals.exponential() * mean_gap_s;
    r.arrival_s = t;
    r.prompt_tokens = lognormal_tokens(prompts, spec.prompt);
    r.output_tokens = lognormal_tokens(outputs, spec.output);
    tokens += double(r.prompt_tokens) + double(r.output_tokens);
    if (tokens > spec.max_total_tokens) {
      char text[160];
      std::snprintf(text, sizeof text, "the first %zu requests already hold more than %.3g prompt + output tokens",
                    i + 1, spec.max_total_tokens);
      throw UsageError("--requests " + std::to_string(spec.requests) + " x the length options: " + text +
                       " (a run past it takes hours): fewer requests or shorter lengths");
    }
    out.push_back(r);
  }
  return out;
}

// ------------------------------------------------------------------ CSV trace

ParseError::ParseError(const std::string& source, std::size_t line, const std::string& field,
                       const std::string& what)
    : UsageError(source + ":" + std::to_string(line) + ": " + field + ": " + what),
      source_(source), line_(line), field_(field) {}

namespace {

std::string_view trim(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

/// A field quoted back in a message, cut short so the message stays one readable line.
std::string quoted(std::string_view s) {
  std::string out = "'";
  out += s.size() <= 40 ? s : s.substr(0, 40);
  if (s.size() > 40) out += "...";
  return out + "'";
}

/// The shortest text that reads back as `x` ("4", "3.5").
std::string shortest(double x) {
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return ec == std::errc() ? std::string(buf, ptr) : std::to_string(x);
}

constexpr const char* kFieldNames[3] = {"timestamp_s", "prompt_tokens", "output_tokens"};

std::int32_t parse_positive_int(std::string_view text, const std::string& source,
                                std::size_t line, const char* field) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < 1 ||
      value > std::numeric_limits<std::int32_t>::max())
    throw ParseError(source, line, field,
                     "expected a positive integer (1 to 2147483647), got " + quoted(text));
  return static_cast<std::int32_t>(value);
}

double parse_timestamp(std::string_view text, const std::string& source, std::size_t line) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  // Bounded at 1e9 s (31 years): beyond that, millisecond step times vanish in the rounding
  // of the arrival times and every latency percentile would silently read 0.
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value) || value < 0 || value > 1e9)
    throw ParseError(source, line, kFieldNames[0],
                     "expected a number of seconds from 0 to 1e9, got " + quoted(text));
  return value;
}

}  // namespace

namespace {

/// The bytes a trace may hold: printable ASCII, tab, CR and LF. Anything else (a NUL, an escape
/// sequence, UTF-8 beyond the leading byte-order mark) means the file is not a trace, and is
/// refused at the first such byte, before the rest of the file is read.
bool trace_byte(unsigned char c) { return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\r' || c == '\n'; }

std::string hex_byte(unsigned char c) {
  static const char* hex = "0123456789abcdef";
  return std::string("0x") + hex[c >> 4] + hex[c & 15];
}

/// Parses rows as they are split into lines: one line at a time, never the whole file.
class TraceParser {
 public:
  TraceParser(const std::string& source, std::size_t max_rows) : source_(source), max_rows_(max_rows) {}

  /// Feeds the next `n` bytes of the file; false once `max_rows` rows are read (read no more).
  bool feed(const char* data, std::size_t n) {
    for (std::size_t i = 0; i < n && !full(); ++i) {
      const auto c = static_cast<unsigned char>(data[i]);
      ++offset_;
      if (in_bom_) {  // a UTF-8 byte-order mark may open the file
        if (c == static_cast<unsigned char>(kBom[offset_ - 1])) {
          in_bom_ = offset_ < 3;
          continue;
        }
        if (offset_ > 1) refuse_byte(static_cast<unsigned char>(kBom[0]));  // half a mark
        in_bom_ = false;
      }
      if (!trace_byte(c)) refuse_byte(c);
      if (c == '\n') {
        end_line();
        continue;
      }
      if (current_.size() >= kMaxTraceLineBytes)
        throw ParseError(source_, line_ + 1, "row",
                         "longer than " + std::to_string(kMaxTraceLineBytes) +
                             " bytes (a row is three numbers); refused before reading on");
      current_ += static_cast<char>(c);
    }
    return !full();
  }

  std::vector<Request> finish() {
    if (!current_.empty() && !full()) end_line();
    if (!have_header_)
      throw ParseError(source_, std::max<std::size_t>(line_, 1), "header",
                       std::string("missing (expected '") + kTraceHeader + "')");
    if (out_.empty()) throw ParseError(source_, line_ + 1, "row", "no request rows after the header");
    return std::move(out_);
  }

 private:
  [[noreturn]] void refuse_byte(unsigned char c) {
    throw ParseError(source_, line_ + 1, "row",
                     "byte " + hex_byte(c) + " at column " + std::to_string(current_.size() + 1) +
                         ": a trace is plain ASCII text (is this a binary file?)");
  }

  void end_line() {
    ++line_;
    if (line_ > kMaxTraceLines)
      throw ParseError(source_, line_, "row",
                       "more than " + std::to_string(kMaxTraceLines) + " lines (at most " +
                           std::to_string(kMaxTraceRows) + " requests)");
    row(current_);
    current_.clear();
  }

  bool full() const { return out_.size() >= max_rows_; }

  void row(std::string_view text) {
    if (trim(text).empty()) {
      if (++blank_run_ > kMaxBlankLineRun)
        throw ParseError(source_, line_, "row",
                         "more than " + std::to_string(kMaxBlankLineRun) +
                             " blank lines in a row (a trace is a header and one request per line)");
      return;
    }
    blank_run_ = 0;
    if (!have_header_) {
      // The header: exactly the three names, in order (spaces around names allowed).
      std::string normalised;
      std::size_t start = 0;
      while (true) {
        const auto comma = text.find(',', start);
        if (!normalised.empty()) normalised += ',';
        normalised += trim(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
      if (normalised != kTraceHeader)
        throw ParseError(source_, line_, "header",
                         std::string("expected '") + kTraceHeader + "', got " + quoted(trim(text)));
      have_header_ = true;
      return;
    }
    if (out_.size() >= kMaxTraceRows)
      throw ParseError(source_, line_, "row", "more than " + std::to_string(kMaxTraceRows) + " requests");
    std::string_view fields[3];
    std::size_t start = 0;
    for (int f = 0; f < 3; ++f) {
      const auto comma = text.find(',', start);
      const bool last = comma == std::string_view::npos;
      if (last && f < 2)
        throw ParseError(source_, line_, kFieldNames[f + 1],
                         "missing (expected 3 comma-separated fields: " + std::string(kTraceHeader) + ")");
      if (!last && f == 2)
        throw ParseError(source_, line_, "row", "more than 3 fields (expected " + std::string(kTraceHeader) + ")");
      fields[f] = trim(text.substr(start, last ? text.npos : comma - start));
      start = last ? text.size() : comma + 1;
    }
    Request r;
    r.arrival_s = parse_timestamp(fields[0], source_, line_);
    r.prompt_tokens = parse_positive_int(fields[1], source_, line_, kFieldNames[1]);
    r.output_tokens = parse_positive_int(fields[2], source_, line_, kFieldNames[2]);
    if (std::int64_t(r.prompt_tokens) + r.output_tokens > std::numeric_limits<std::int32_t>::max())
      throw ParseError(source_, line_, kFieldNames[2],
                       "prompt_tokens + output_tokens is " + std::to_string(std::int64_t(r.prompt_tokens) + r.output_tokens) +
                           "; a sequence holds at most 2147483647 tokens");
    if (!out_.empty() && r.arrival_s < out_.back().arrival_s)
      throw ParseError(source_, line_, kFieldNames[0],
                       quoted(fields[0]) + " is earlier than the previous row's " + shortest(out_.back().arrival_s) +
                           " (rows must be in time order)");
    out_.push_back(r);
  }

  const std::string& source_;
  std::vector<Request> out_;
  std::string current_;
  std::size_t max_rows_;
  std::size_t line_ = 0, offset_ = 0, blank_run_ = 0;
  bool have_header_ = false, in_bom_ = true;
  static constexpr const char* kBom = "\xEF\xBB\xBF";
};

}  // namespace

std::vector<Request> parse_trace_csv(std::istream& in, const std::string& source_name, std::size_t max_rows) {
  TraceParser parser(source_name, max_rows);
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    if (!parser.feed(buffer, static_cast<std::size_t>(in.gcount()))) return parser.finish();
  }
  if (in.bad()) throw UsageError(source_name + ": read error");
  return parser.finish();
}

void require_simulable(const std::vector<Request>& requests, const std::string& what) {
  double tokens = 0;
  for (const Request& r : requests) tokens += double(r.prompt_tokens) + double(r.output_tokens);
  if (tokens > kMaxWorkloadTokens) {
    char text[64];
    std::snprintf(text, sizeof text, "%.3g", tokens);
    throw UsageError(what + ": " + text + " prompt + output tokens to simulate; at most 2^32 = 4.29e9 (a run "
                                          "past it takes hours): fewer requests or shorter lengths");
  }
}

std::vector<Request> read_trace_csv(const std::string& path, std::size_t max_rows) {
  InputFile file(path, kMaxTraceBytes);  // InputError "<path>: <why>" when it cannot be read
  TraceParser parser(path, max_rows);
  char buffer[1 << 16];
  while (const std::size_t n = file.read(buffer, sizeof buffer))
    if (!parser.feed(buffer, n)) break;
  return parser.finish();
}

}  // namespace tutor::b06
