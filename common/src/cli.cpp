#include "tutor/cli.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <regex>

#include <fmt/format.h>

#include "tutor/atomic_file.hpp"
#include "tutor/gpu.hpp"

namespace tutor {

namespace {
/// The message as one printable ASCII line. A newline becomes a space; other control bytes (an
/// escape sequence quoted from a hostile file or option) become '?'; every byte >= 0x80 is
/// written \xHH, so that neither a C1 control (U+009B is a terminal's CSI, as UTF-8 C2 9B or a
/// bare 9B) nor a byte that is not UTF-8 reaches the terminal. Our own messages are ASCII.
std::string one_line(const std::string& text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '\n') out += ' ';
    else if (c < 0x20 || c == 0x7f) out += '?';
    else if (c >= 0x80) out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    else out += ch;
  }
  return out;
}

/// An option value quoted in a message: at most 40 bytes, printable (one_line).
std::string quoted_option(const std::string& s) {
  return "'" + one_line(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'");
}
}  // namespace

const CLI::Validator& decimal_integer() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || (s.size() > 1 && s[0] == '0'))
          return quoted_option(s) + " is not a plain decimal integer";
        std::uint64_t value = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), value);
        if (r.ec != std::errc()) return quoted_option(s) + " is too large";
        return "";
      },
      "INT");
  return v;
}

const CLI::Validator& finite_number() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const double d = std::strtod(s.c_str(), &end);
        // strtod also reads hex ("0x10") and "infinity": only decimal numbers are accepted.
        if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(d) ||
            s.find_first_of("xXpP") != std::string::npos)
          return quoted_option(s) + " is not a finite decimal number";
        return "";
      },
      "NUMBER");
  return v;
}

namespace {
/// True when two paths name the same file, also when spelled differently (./a and a).
bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (a == b || fs::equivalent(a, b, ec)) return true;  // equivalent: the same inode, hard links too
  const fs::path ca = fs::weakly_canonical(fs::absolute(a), ec);
  if (ec) return false;
  const fs::path cb = fs::weakly_canonical(fs::absolute(b), ec);
  return !ec && ca == cb;
}
}  // namespace

void require_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                              const std::vector<std::pair<std::string, std::string>>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& [a, pa] = outputs[i];
    if (pa.empty()) continue;
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      const auto& [b, pb] = outputs[j];
      if (pb.empty()) continue;
      if (pa == "-" && pb == "-")
        throw UsageError(a + " and " + b + " both write to standard output; give one of them a file");
      if (pa != "-" && pb != "-" && same_file(pa, pb))
        throw UsageError(a + " and " + b + " both write " + pa + "; give them different paths");
    }
    for (const auto& [in, pin] : inputs)
      if (pa != "-" && !pin.empty() && pin != "-" && same_file(pa, pin))
        throw UsageError(a + ": " + pa + " is the file " + in + " reads; give another path");
  }
}


std::string csv_beside_json(const std::string& csv_path, const std::string& json_path) {
  if (!csv_path.empty() || json_path.empty() || json_path == "-") return csv_path;
  const bool ends_json = json_path.size() > 5 && json_path.ends_with(".json");
  return (ends_json ? json_path.substr(0, json_path.size() - 5) : json_path) + ".csv";
}

void require_writable(const std::string& option, const std::string& path) {
  if (path.empty() || path == "-") return;
  if (const std::string why = check_output_path(path); !why.empty())
    throw UsageError(option + ": cannot write " + path + ": " + why);
}

namespace {

/// The value placeholder for an option's type ("INT:INT in [1 - 10000]" -> "N").
std::string placeholder(const std::string& type_name) {
  const std::string head = type_name.substr(0, type_name.find_first_of(": "));
  if (head == "INT" || head == "UINT") return "N";
  if (head == "FLOAT" || head == "NUMBER") return "X";
  if (head.empty() || head == "TEXT") return "TEXT";
  return head;
}

/// `--help` without CLI11's type tokens ("INT:INT in [0 - 29]", "FLOAT:NUMBER"): each option
/// shows a plain placeholder (N, X, TEXT, PATH), and its description ends with what it accepts
/// and its default: "timed launches per step [1..10000; default 50]".
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override {
    if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
    if (opt->get_type_size() == 0 || opt->get_type_name().empty()) return "";  // a flag
    std::string out = " " + placeholder(opt->get_type_name());
    // A text option that names a file reads as PATH ("--config PATH"), not TEXT.
    if (out == " TEXT") {
      std::string desc = opt->get_description();
      for (auto& ch : desc) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      for (const char* word : {"file", "path", ".json", "csv", "folder", "sources"})
        if (desc.find(word) != std::string::npos) out = " PATH";
      if (desc.find("stem") != std::string::npos) out = " NAME";  // a name that picks a shipped file
    }
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out += " ...";
    return out;
  }
  std::string make_option_desc(const CLI::Option* opt) const override {
    std::string desc = opt->get_description();
    std::vector<std::string> notes;
    const std::string type = opt->get_type_name();
    static const std::regex range(R"(in \[([^\]]*) - ([^\]]*)\])");
    static const std::regex choices(R"(\{([^}]*)\})");
    std::smatch m;
    if (std::regex_search(type, m, range)) notes.push_back(m[1].str() + ".." + m[2].str());
    else if (std::regex_search(type, m, choices)) notes.push_back("one of " + m[1].str());
    const std::string def = opt->get_default_str();
    const bool says_default = desc.find("default") != std::string::npos;
    // A required option has no default: its variable's initial value is never used.
    if (!opt->get_type_name().empty() && !says_default && !opt->get_required() && !def.empty() && def != "[]" &&
        def != "\"\"")
      notes.push_back("default " + def);
    if (opt->get_required()) notes.push_back("required");
    for (const CLI::Option* other : opt->get_excludes()) notes.push_back("not with " + other->get_name());
    if (notes.empty()) return desc;
    std::string joined;
    for (const auto& n : notes) joined += (joined.empty() ? "" : "; ") + n;
    return desc + " [" + joined + "]";
  }
};

/// Installs the formatter and records every option's default (its variable's value before
/// parsing) on `app` and all its subcommands.
void prepare_help(CLI::App& app, const std::shared_ptr<HelpFormatter>& formatter) {
  app.formatter(formatter);
  for (CLI::Option* opt : app.get_options())
    if (!opt->get_type_name().empty() && opt->get_default_str().empty()) opt->capture_default_str();
  for (CLI::App* sub : app.get_subcommands({})) prepare_help(*sub, formatter);
}

}  // namespace

int parse_command_line(CLI::App& app, int argc, char** argv) {
  prepare_help(app, std::make_shared<HelpFormatter>());
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    // CLI11 quotes the values it refuses: escaped like every other message.
    const std::string what = one_line(e.what());
    std::fprintf(stderr, "%s: error: %s (see --help)\n", app.get_name().c_str(), what.c_str());
    return kExitBadInput;
  }
  return -1;
}

int run_main(const std::string& program, const std::function<int()>& body) {
  int rc = kExitCheckFailed;
  try {
    rc = body();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: error: %s\n", program.c_str(), one_line(e.what()).c_str());
    return kExitBadInput;
  } catch (const gpu::NoDevice& e) {
    std::fprintf(stderr, "%s: no usable GPU: %s\n", program.c_str(), one_line(e.what()).c_str());
    return kExitNoGpu;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: failed: %s\n", program.c_str(), one_line(e.what()).c_str());
    return kExitCheckFailed;
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "%s: failed: cannot write to standard output\n", program.c_str());
    return kExitCheckFailed;
  }
  return rc;
}

namespace {
// The argument with every byte that is not part of a valid UTF-8 sequence written as \xHH,
// so that the JSON record (which must be UTF-8) can always hold the command line.
std::string utf8_or_escaped(const std::string& a) {
  std::string out;
  for (std::size_t i = 0; i < a.size();) {
    const auto c = static_cast<unsigned char>(a[i]);
    const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= a.size() && !(len == 2 && c < 0xC2);
    for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(a[i + k]) & 0xC0) == 0x80;
    if (ok) {
      out.append(a, i, len);
      i += len;
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    }
  }
  return out;
}
}  // namespace

std::string command_line(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    std::string a = utf8_or_escaped(argv[i]);
    const bool plain = !a.empty() && a.find_first_of(" \t'\"$\\*?;&|<>()") == std::string::npos;
    if (!out.empty()) out += ' ';
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char ch : a) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
      out += '\'';
    }
  }
  return out;
}

void require_positive(double v, const char* field) {
  if (!(std::isfinite(v) && v > 0))
    throw UsageError(fmt::format("{}: must be a finite number > 0, got {}", field, v));
}

void require_non_negative(double v, const char* field) {
  if (!(std::isfinite(v) && v >= 0))
    throw UsageError(fmt::format("{}: must be a finite number >= 0, got {}", field, v));
}

void write_output(const std::string& option, const std::string& path, const std::string& text) {
  if (path == "-") {
    std::fputs(text.c_str(), stdout);
    return;
  }
  try {
    write_file_atomic(path, text);
  } catch (const std::runtime_error& e) {
    throw UsageError(option + ": " + e.what());
  }
}

}  // namespace tutor
