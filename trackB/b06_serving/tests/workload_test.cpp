// B06: the workload generator's statistics (with the bound each check uses) and the CSV
// trace reader's contract (a malformed row names its line and field).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "workload.hpp"

using tutor::b06::generate_workload;
using tutor::b06::LognormalLength;
using tutor::b06::ParseError;
using tutor::b06::parse_trace_csv;
using tutor::b06::read_trace_csv;
using tutor::b06::Request;
using tutor::b06::SyntheticWorkload;

namespace {

SyntheticWorkload spec(std::size_t n, double rate, std::uint64_t seed) {
  SyntheticWorkload w;
  w.requests = n;
  w.arrival_rate_per_s = rate;
  w.prompt = {512, 1.0};
  w.output = {128, 0.7};
  w.seed = seed;
  return w;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

TEST(Workload, PoissonMeanInterArrivalIsWithinTwoPercentOfOneOverLambda) {
  // Gaps are Exp(lambda): mean 1/lambda, standard deviation 1/lambda. The mean of n = 100,000
  // gaps has standard error (1/lambda) / sqrt(n) = 0.316% of 1/lambda, so 2% is 6.3 standard
  // errors: a correct generator fails with probability ~3e-10 (normal tail) per seed. The mean
  // gap is the last arrival over n (the first gap starts at t = 0). Five seeds, so that a
  // lucky seed cannot hide a wrong rate.
  const double lambda = 25.0;
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    const auto w = generate_workload(spec(100000, lambda, seed));
    const double mean_gap = w.back().arrival_s / 100000.0;
    EXPECT_NEAR(mean_gap, 1.0 / lambda, 0.02 / lambda) << "seed " << seed;
    for (std::size_t i = 1; i < w.size(); ++i) ASSERT_GE(w[i].arrival_s, w[i - 1].arrival_s);
  }
}

TEST(Workload, LognormalMedianIsWithinTwoPercentAndSigmaMatches) {
  // The sample median of n = 100,000 draws of ln(L) ~ N(mu, sigma^2) has standard error
  // sqrt(pi / 2) sigma / sqrt(n) = 1.2533 * 1.0 / 316.2 = 0.40% (sigma = 1), so 2% is 5
  // standard errors (two-sided ~6e-7); rounding to whole tokens moves a median of 512 by at
  // most 0.5 / 512 = 0.1%. The sample standard deviation of ln(L) has standard error
  // sigma / sqrt(2 n) = 0.22% of sigma: 2% is 9 standard errors.
  const auto w = generate_workload(spec(100000, 10, 11));
  std::vector<double> prompt, output, log_prompt;
  for (const auto& r : w) {
    prompt.push_back(r.prompt_tokens);
    output.push_back(r.output_tokens);
    log_prompt.push_back(std::log(double(r.prompt_tokens)));
  }
  EXPECT_NEAR(median_of(prompt), 512, 0.02 * 512);
  EXPECT_NEAR(median_of(output), 128, 0.02 * 128);
  double mean = 0, var = 0;
  for (double x : log_prompt) mean += x;
  mean /= double(log_prompt.size());
  for (double x : log_prompt) var += (x - mean) * (x - mean);
  const double sd = std::sqrt(var / double(log_prompt.size() - 1));
  EXPECT_NEAR(sd, 1.0, 0.02);
}

TEST(Workload, FromMeanSdInvertsTheLognormalMoments) {
  // Median 100, sigma 1: mean = 100 e^{1/2} = 164.8721, sd = mean sqrt(e - 1) = 216.1197.
  const auto len = LognormalLength::from_mean_sd(164.872127, 216.119742);
  EXPECT_NEAR(len.median_tokens, 100.0, 1e-4);
  EXPECT_NEAR(len.sigma, 1.0, 1e-6);
  const auto fixed = LognormalLength::from_mean_sd(300, 0);
  EXPECT_DOUBLE_EQ(fixed.median_tokens, 300);
  EXPECT_DOUBLE_EQ(fixed.sigma, 0);
}

TEST(Workload, LengthsAreClampedToOneAndTheMaximum) {
  auto s = spec(20000, 10, 3);
  s.prompt = {64, 3.0, 1000};   // a wide spread reaches both ends
  for (const auto& r : generate_workload(s)) {
    ASSERT_GE(r.prompt_tokens, 1);
    ASSERT_LE(r.prompt_tokens, 1000);
  }
}

TEST(Workload, SigmaZeroGivesEveryRequestTheMedian) {
  auto s = spec(100, 10, 3);
  s.prompt = {300, 0.0};
  s.output = {20, 0.0};
  for (const auto& r : generate_workload(s)) {
    EXPECT_EQ(r.prompt_tokens, 300);
    EXPECT_EQ(r.output_tokens, 20);
  }
}

TEST(Workload, SameSeedSameRequestsDifferentSeedDifferentRequests) {
  const auto a = generate_workload(spec(5000, 30, 99));
  const auto b = generate_workload(spec(5000, 30, 99));
  const auto c = generate_workload(spec(5000, 30, 100));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(Workload, ChangingTheRateKeepsTheLengths) {
  // Arrivals and lengths come from separate streams (common random numbers).
  const auto slow = generate_workload(spec(1000, 5, 7));
  const auto fast = generate_workload(spec(1000, 50, 7));
  for (std::size_t i = 0; i < slow.size(); ++i) {
    EXPECT_EQ(slow[i].prompt_tokens, fast[i].prompt_tokens);
    EXPECT_EQ(slow[i].output_tokens, fast[i].output_tokens);
    EXPECT_NEAR(fast[i].arrival_s * 10, slow[i].arrival_s, 1e-9 * slow[i].arrival_s);
  }
}

TEST(Workload, InfiniteRatePutsEveryArrivalAtZero) {
  const auto w = generate_workload(spec(100, std::numeric_limits<double>::infinity(), 1));
  for (const auto& r : w) EXPECT_EQ(r.arrival_s, 0.0);
}

TEST(Workload, RejectsAZeroRateNamingTheField) {
  try {
    generate_workload(spec(10, 0, 1));
    FAIL() << "expected tutor::UsageError";
  } catch (const tutor::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("arrival_rate_per_s"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------------ trace reader

TEST(TraceCsv, ReadsAValidTrace) {
  // A byte-order mark, CRLF line ends, spaces around fields and a blank line are all fine.
  std::istringstream in(
      "\xEF\xBB\xBFtimestamp_s, prompt_tokens ,output_tokens\r\n"
      "0,512,128\r\n"
      "\r\n"
      " 0.25 , 1024, 1\r\n"
      "0.25,7,2000\n");
  const auto w = parse_trace_csv(in, "trace.csv");
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0], (Request{0.0, 512, 128}));
  EXPECT_EQ(w[1], (Request{0.25, 1024, 1}));
  EXPECT_EQ(w[2], (Request{0.25, 7, 2000}));
}

TEST(TraceCsv, MessageNamesTheFileLineAndField) {
  // Header on line 1, 15 good rows on lines 2..16, the bad one on line 17.
  std::string text = "timestamp_s,prompt_tokens,output_tokens\n";
  for (int i = 0; i < 15; ++i) text += std::to_string(i) + ",100,10\n";
  text += "15,100,0\n";
  std::istringstream in(text);
  try {
    parse_trace_csv(in, "trace.csv");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "trace.csv:17: output_tokens: expected a positive integer (1 to 2147483647), got '0'");
    EXPECT_EQ(e.line(), 17u);
    EXPECT_EQ(e.field(), "output_tokens");
    EXPECT_EQ(e.source(), "trace.csv");
  }
}

TEST(TraceCsv, RejectsEachKindOfMalformedRow) {
  struct Case {
    const char* row;
    const char* field;
    const char* says;
  };
  const Case cases[] = {
      {"1,100,-2", "output_tokens", "positive integer"},
      {"1,100,1.5", "output_tokens", "positive integer"},
      {"1,100,3000000000", "output_tokens", "positive integer"},
      {"1,abc,10", "prompt_tokens", "positive integer"},
      {"1,,10", "prompt_tokens", "positive integer"},
      {"1,0x10,10", "prompt_tokens", "positive integer"},
      {"x,100,10", "timestamp_s", "seconds"},
      {"-1,100,10", "timestamp_s", "seconds"},
      {"nan,100,10", "timestamp_s", "seconds"},
      {"inf,100,10", "timestamp_s", "seconds"},
      {"0.5,100,10", "timestamp_s", "time order"},   // the row before is at t = 1
      {"1,100", "output_tokens", "missing"},
      {"1", "prompt_tokens", "missing"},
      {"1,100,10,7", "row", "more than 3 fields"},
  };
  for (const auto& c : cases) {
    std::istringstream in(std::string("timestamp_s,prompt_tokens,output_tokens\n1,100,10\n") + c.row + "\n");
    try {
      parse_trace_csv(in, "t.csv");
      ADD_FAILURE() << "accepted: " << c.row;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 3u) << c.row;
      EXPECT_EQ(e.field(), c.field) << c.row << " -> " << e.what();
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << c.row << " -> " << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("t.csv:3: ", 0), 0u) << e.what();
    }
  }
}

TEST(TraceCsv, RejectsAWrongHeaderAnEmptyFileAndAHeaderWithoutRows) {
  const struct {
    const char* text;
    std::size_t line;
    const char* field;
  } cases[] = {
      {"time,prompt,output\n0,1,1\n", 1, "header"},
      {"prompt_tokens,timestamp_s,output_tokens\n0,1,1\n", 1, "header"},
      {"", 1, "header"},
      {"timestamp_s,prompt_tokens,output_tokens\n", 2, "row"},
  };
  for (const auto& c : cases) {
    std::istringstream in(c.text);
    try {
      parse_trace_csv(in, "t.csv");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_EQ(e.field(), c.field) << e.what();
    }
  }
}

TEST(TraceCsv, AParseErrorIsAUsageErrorSoTheCliExitsTwo) {
  std::istringstream in("timestamp_s,prompt_tokens,output_tokens\n0,1,zero\n");
  EXPECT_THROW(parse_trace_csv(in, "t.csv"), tutor::UsageError);
}

TEST(TraceCsv, ReadsAFileAndNamesAMissingOne) {
  const auto path = std::filesystem::temp_directory_path() / ("b06_trace_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".csv");
  {
    std::ofstream f(path);
    f << "timestamp_s,prompt_tokens,output_tokens\n0.5,10,20\n1.5,30,40\n";
  }
  const auto w = read_trace_csv(path.string());
  std::filesystem::remove(path);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[1], (Request{1.5, 30, 40}));
  try {
    read_trace_csv("/nonexistent/b06/trace.csv");
    FAIL() << "expected tutor::UsageError";
  } catch (const tutor::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/b06/trace.csv"), std::string::npos) << e.what();
  }
}
