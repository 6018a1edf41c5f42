// B06's trace reader against hostile streams: refused at the first bad byte, line or row,
// having read at most a few 64 KiB pieces of a stream that never ends.
#include <gtest/gtest.h>

#include <sstream>
#include <streambuf>
#include <string>

#include "workload.hpp"

namespace {

using tutor::b06::ParseError;
using tutor::b06::parse_trace_csv;

/// An endless stream: `head` once, then `unit` repeated forever; counts the bytes handed out.
class EndlessBuf : public std::streambuf {
 public:
  EndlessBuf(std::string head, std::string unit) : head_(std::move(head)), unit_(std::move(unit)) {}
  std::size_t bytes_read() const { return served_; }

 protected:
  int_type underflow() override {
    chunk_ = head_done_ ? std::string() : head_;
    head_done_ = true;
    while (chunk_.size() < 4096) chunk_ += unit_;
    served_ += chunk_.size();
    setg(chunk_.data(), chunk_.data(), chunk_.data() + chunk_.size());
    return traits_type::to_int_type(chunk_[0]);
  }

 private:
  std::string head_, unit_, chunk_;
  bool head_done_ = false;
  std::size_t served_ = 0;
};

std::string refusal(EndlessBuf& buf) {
  std::istream in(&buf);
  try {
    parse_trace_csv(in, "trace.csv");
  } catch (const ParseError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

TEST(TraceReader, EndlessNulBytesAreRefusedAtTheFirstByte) {
  EndlessBuf buf("", std::string(1, '\0'));
  EXPECT_EQ(refusal(buf), "trace.csv:1: row: byte 0x00 at column 1: a trace is plain ASCII text (is this a binary file?)");
  EXPECT_LE(buf.bytes_read(), 128u << 10);
}

TEST(TraceReader, AnEndlessLineIsRefusedPast1KiB) {
  EndlessBuf buf("timestamp_s,prompt_tokens,output_tokens\n0,", "7");
  EXPECT_EQ(refusal(buf), "trace.csv:2: row: longer than 1024 bytes (a row is three numbers); refused before reading on");
  EXPECT_LE(buf.bytes_read(), 128u << 10);
}

TEST(TraceReader, EndlessBlankLinesAreRefusedAfter1000InARow) {
  EndlessBuf buf("timestamp_s,prompt_tokens,output_tokens\n", "\n");
  // The header is line 1; blank lines 2 to 1001 are the 1000 allowed, line 1002 is refused.
  EXPECT_EQ(refusal(buf), "trace.csv:1002: row: more than 1000 blank lines in a row (a trace is a header and one "
                          "request per line)");
  EXPECT_LE(buf.bytes_read(), 128u << 10);
}

TEST(TraceReader, BlankLinesBetweenRowsStopAtTheLineLimit) {
  // Each row follows a blank line, so no run passes 1000: the 25,000,000-line limit stops it
  // (12,500,000 rows, under the row limit).
  EndlessBuf buf("timestamp_s,prompt_tokens,output_tokens\n", "\n0,1,1\n");
  EXPECT_NE(refusal(buf).find("more than 25000000 lines"), std::string::npos);
}

TEST(TraceReader, EndlessRowsStopBeingReadAtMaxRows) {
  EndlessBuf buf("timestamp_s,prompt_tokens,output_tokens\n", "0,1,1\n");
  std::istream in(&buf);
  EXPECT_EQ(parse_trace_csv(in, "trace.csv", 1000).size(), 1000u);
  EXPECT_LE(buf.bytes_read(), 128u << 10);  // the rest of an endless stream is never read
}

TEST(TraceReader, EscapeSequencesAndUtf8AreNotText) {
  std::istringstream esc("timestamp_s,prompt_tokens,output_tokens\n0,\x1b[2J,1\n");
  EXPECT_THROW(parse_trace_csv(esc, "t.csv"), ParseError);
  std::istringstream utf8("timestamp_s,prompt_tokens,output_tokens\n0,1\xc2\xa0,1\n");
  EXPECT_THROW(parse_trace_csv(utf8, "t.csv"), ParseError);
  std::istringstream half_bom("\xEF\xBBtimestamp_s,prompt_tokens,output_tokens\n0,1,1\n");
  EXPECT_THROW(parse_trace_csv(half_bom, "t.csv"), ParseError);
}

TEST(TraceReader, AByteOrderMarkAndCrLfStillRead) {
  std::istringstream ok("\xEF\xBB\xBFtimestamp_s,prompt_tokens,output_tokens\r\n0,5,7\r\n\r\n1.5,2,3");
  const auto rows = parse_trace_csv(ok, "t.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].prompt_tokens, 5);
  EXPECT_EQ(rows[1].arrival_s, 1.5);
}

}  // namespace
