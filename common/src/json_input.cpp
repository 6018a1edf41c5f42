#include "tutor/json_input.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tutor {

using nlohmann::json;

std::string printable(std::string_view text, std::size_t max_chars) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (const char ch : text) {
    if (out.size() >= max_chars) return out + "...";
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

namespace {

/// Builds the tree from SAX events, refusing what JsonLimits bounds. Each open array or object
/// is a frame; the path of the value being read is the frames' keys (objects) and indices
/// (arrays).
class BoundedBuilder {
 public:
  BoundedBuilder(const std::string& source, const JsonLimits& limits) : source_(source), limits_(limits) {}

  json take() { return std::move(root_); }

  bool null() { return add(json(nullptr)); }
  bool boolean(bool v) { return add(json(v)); }
  bool number_integer(json::number_integer_t v) { return add(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return add(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t& text) {
    if (!std::isfinite(v)) fail(pointer(true), "the number " + printable(text) + " is not finite");
    if (v != 0 && std::fabs(v) < std::numeric_limits<double>::min())
      fail(pointer(true), "the number " + printable(text) + " is below the smallest normal double (2.2e-308)");
    return add(json(v));
  }
  bool string(json::string_t& v) { return add(json(std::move(v))); }
  bool binary(json::binary_t&) { fail(pointer(true), "binary values are not JSON text"); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    frames_.back().key = k;
    return true;
  }
  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& e) {
    // 406: a number the lexer read as a double overflowed ("1e400").
    if (e.id == 406) fail(pointer(true), "the number " + printable(last_token) + " overflows a double");
    std::string what = "not valid JSON at byte " + std::to_string(position);
    if (!last_token.empty()) what += " (near '" + printable(last_token, 32) + "')";
    fail(pointer(true), what);
  }

 private:
  struct Frame {
    json* container;
    std::string key;        // objects: the key of the value being read
    std::size_t count = 0;  // entries added so far
  };

  bool add(json&& v) {
    insert(std::move(v));
    return true;
  }

  [[noreturn]] void fail(const std::string& key, const std::string& what) { throw InputError(source_, key, what); }

  /// The JSON pointer (without the leading '/') of the value being read; `pending`: the top
  /// frame's next entry (not added yet) rather than its last one; `depth`: how many frames count.
  std::string pointer(bool pending, std::size_t depth = std::string::npos) const {
    std::vector<std::string> parts;
    depth = std::min(depth, frames_.size());
    for (std::size_t i = 0; i < depth; ++i) {
      const Frame& f = frames_[i];
      const bool top = i + 1 == frames_.size();
      if (top && !pending && f.count == 0) break;
      if (f.container->is_object()) {
        std::string part;
        for (const char ch : f.key) part += ch == '~' ? std::string("~0") : ch == '/' ? std::string("~1") : std::string(1, ch);
        parts.push_back(printable(part, 48));
      } else {
        parts.push_back(std::to_string(top && pending ? f.count : f.count - 1));
      }
    }
    // A pointer 64 levels deep reads as its first four and last two steps.
    if (parts.size() > 8) parts.erase(parts.begin() + 4, parts.end() - 2), parts.insert(parts.begin() + 4, "...");
    std::string out;
    for (const auto& part : parts) out += (out.empty() ? "" : "/") + part;
    return out;
  }

  /// The pointer of the innermost open container (for limits on the container itself).
  std::string container_pointer() const { return pointer(false, frames_.size() - 1); }

  json* insert(json&& v) {
    if (++values_ > limits_.max_values)
      fail(pointer(true), "more than " + std::to_string(limits_.max_values) + " values in the file");
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = frames_.back();
    if (++f.count > limits_.max_elements) {
      const std::string where = container_pointer();
      fail(where, (f.container->is_array() ? "an array of more than " : "an object of more than ") +
                      std::to_string(limits_.max_elements) + " entries");
    }
    if (f.container->is_array()) {
      f.container->push_back(std::move(v));
      return &f.container->back();
    }
    json& slot = (*f.container)[f.key];
    slot = std::move(v);
    return &slot;
  }

  bool open(json&& container) {
    if (frames_.size() >= limits_.max_depth)
      fail(pointer(true), "nested deeper than " + std::to_string(limits_.max_depth) + " levels");
    json* slot = insert(std::move(container));
    frames_.push_back({slot, {}, 0});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  const std::string& source_;
  const JsonLimits& limits_;
  json root_;
  std::vector<Frame> frames_;
  std::size_t values_ = 0;
};

}  // namespace

json parse_json_text(std::string_view text, const std::string& source, const JsonLimits& limits) {
  BoundedBuilder builder(source, limits);
  // strict: nothing but whitespace may follow the value; comments are not JSON.
  json::sax_parse(text.begin(), text.end(), &builder, json::input_format_t::json, true, false);
  return builder.take();
}

json read_json_file(const std::string& path, const JsonLimits& limits) {
  InputFile file(path, limits.max_bytes);
  const std::string text = file.read_all();
  return parse_json_text(text, path, limits);
}

}  // namespace tutor
