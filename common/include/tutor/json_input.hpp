#pragma once
// A JSON file from a user (a Hugging Face config.json, a GPU file), read with bounds.
//
// nlohmann::json::parse accepts any nesting depth, any list length and any number; the tree it
// builds is then walked by code that recurses (dump, comparison, our readers) and loops over
// lists (per-layer lists against the layer count). A hostile file turns that into a crash, a
// hang or a library exception. Here the SAX parser builds the tree and refuses, with the JSON
// pointer of the key:
//  - nesting deeper than max_depth (64): Hub configs nest 3 or 4 levels (text_config/rope_scaling);
//  - an array or object of more than max_elements (100,000): the longest lists in Hub configs are
//    per-layer lists (a few hundred entries); 100,000 bounds what a reader loops over;
//  - more than max_values (1,000,000) values in all: a config holds hundreds;
//  - a number that overflows a double (1e400), or a non-zero one below the normal range (1e-320):
//    no config field means either, and a subnormal turns into inf or 0 in the arithmetic after it.
// The file itself is opened through InputFile (size cap, no pipes, devices or link loops).
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tutor/input_file.hpp"

namespace tutor {

struct JsonLimits {
  std::size_t max_bytes = std::size_t(16) << 20;  ///< file size
  std::size_t max_depth = 64;                     ///< arrays and objects inside each other
  std::size_t max_elements = 100'000;             ///< entries of one array or object
  std::size_t max_values = 1'000'000;             ///< values in the whole document
};

/// Parses `text` under `limits` (max_bytes is not checked here). Throws InputError(source,
/// key, what): key is the JSON pointer of the offending value without the leading '/'
/// ("text_config/vocab_size", "layer_types/3"), "" for the document as a whole.
nlohmann::json parse_json_text(std::string_view text, const std::string& source, const JsonLimits& limits = {});

/// Opens `path` as an InputFile of at most limits.max_bytes and parses it (parse_json_text).
nlohmann::json read_json_file(const std::string& path, const JsonLimits& limits = {});

/// `text` made safe to quote in a one-line message: control bytes and bytes >= 0x80 as \xHH,
/// cut to `max_chars` with "..." (a key or value from a file may hold anything).
std::string printable(std::string_view text, std::size_t max_chars = 64);

}  // namespace tutor
