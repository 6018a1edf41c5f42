// The bounded JSON reader (tutor/json_input.hpp): what a hostile config or GPU file gets back.
// Expected keys are JSON pointers written by hand from each document (RFC 6901: '/' between
// steps, "~1" for a '/' inside a key).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tutor/json_input.hpp"

namespace {

using tutor::InputError;
using tutor::parse_json_text;

/// The InputError `text` raises (fails the test when it parses).
InputError refusal(const std::string& text, const tutor::JsonLimits& limits = {}) {
  try {
    parse_json_text(text, "in.json", limits);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << text.substr(0, 80);
  return InputError("", "", "");
}

TEST(JsonInput, NestingOf64LevelsIsReadAnd65IsRefused) {
  EXPECT_NO_THROW(parse_json_text(std::string(64, '[') + std::string(64, ']'), "in.json"));
  const InputError e = refusal(std::string(65, '[') + std::string(65, ']'));
  EXPECT_EQ(e.what_only(), "nested deeper than 64 levels");
  EXPECT_EQ(e.file(), "in.json");
}

TEST(JsonInput, NestingOf100000LevelsIsRefusedWithAShortPointer) {
  const InputError e = refusal("{\"x\": " + std::string(100'000, '[') + std::string(100'000, ']') + "}");
  // 64 levels: x, then 63 array indices; shown as the first four steps and the last two.
  EXPECT_EQ(e.key(), "x/0/0/0/.../0/0");
  EXPECT_EQ(std::string(e.what()), "in.json: x/0/0/0/.../0/0: nested deeper than 64 levels");
}

TEST(JsonInput, ArrayOfMoreThan100000EntriesNamesTheArray) {
  std::string list = "[0";
  for (int i = 1; i < 100'000; ++i) list += ",0";
  EXPECT_NO_THROW(parse_json_text("{\"layer_types\": " + list + "]}", "in.json"));
  const InputError e = refusal("{\"layer_types\": " + list + ",0]}");
  EXPECT_EQ(e.key(), "layer_types");
  EXPECT_EQ(e.what_only(), "an array of more than 100000 entries");
}

TEST(JsonInput, MoreValuesThanTheLimitAreRefused) {
  const InputError e = refusal("[[1,2],[3,4]]", {.max_values = 5});
  EXPECT_EQ(e.what_only(), "more than 5 values in the file");
}

TEST(JsonInput, NumberOverflowingADoubleNamesItsPointer) {
  EXPECT_EQ(refusal("{\"num_hidden_layers\": 1e400}").key(), "num_hidden_layers");
  const InputError nested = refusal("{\"text_config\": {\"hidden_size\": 8, \"vocab_size\": 1e999}}");
  EXPECT_EQ(nested.key(), "text_config/vocab_size");
  EXPECT_EQ(nested.what_only(), "the number 1e999 overflows a double");
  EXPECT_EQ(refusal("{\"layer_types\": [1, 2, -1e400]}").key(), "layer_types/2");
  EXPECT_EQ(refusal("{\"a/b~c\": 1e400}").key(), "a~1b~0c");
}

TEST(JsonInput, SubnormalNumbersAreRefusedAndZeroIsNot) {
  EXPECT_EQ(refusal("{\"rms_norm_eps\": 4e-320}").key(), "rms_norm_eps");
  EXPECT_NO_THROW(parse_json_text("{\"rms_norm_eps\": 0.0, \"b\": -0.0, \"c\": 2.3e-308}", "in.json"));
}

TEST(JsonInput, HugeIntegersBecomeDoublesNotErrors) {
  // 2^64 does not fit an unsigned 64-bit integer; the lexer reads it as a double (1.8e19).
  const auto j = parse_json_text("{\"n\": 18446744073709551616}", "in.json");
  EXPECT_TRUE(j.at("n").is_number_float());
}

TEST(JsonInput, MalformedTextIsOneLineNamingWhereItBroke) {
  const InputError e = refusal("{\"a\": [1, 2,, 3]}");
  EXPECT_EQ(e.key(), "a/2");
  EXPECT_NE(e.what_only().find("not valid JSON at byte"), std::string::npos);
  EXPECT_NE(refusal("{} trailing").what_only().find("not valid JSON"), std::string::npos);
  EXPECT_NE(refusal("").what_only().find("not valid JSON"), std::string::npos);
  // A control character inside the message is escaped, so it stays one printable line.
  EXPECT_EQ(std::string(refusal("{\"k\\n\\u001b\": 1e400}").what()).find('\n'), std::string::npos);
}

TEST(JsonInput, AShippedConfigReadsAsTheLibraryReadsIt) {
  const std::string path = std::string(TUTOR_SOURCE_DIR) + "/data/models/deepseek-v3.json";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(tutor::read_json_file(path), nlohmann::json::parse(text.str()));
}

TEST(JsonInput, DuplicateKeysKeepTheLastValueAsTheLibraryDoes) {
  EXPECT_EQ(parse_json_text("{\"a\": 1, \"a\": 2}", "in.json"), nlohmann::json::parse("{\"a\": 1, \"a\": 2}"));
}

}  // namespace
