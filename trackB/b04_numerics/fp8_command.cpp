// b04_numerics fp8: the codec of low_precision.hpp on the command line (fp8_command.hpp).
#include "fp8_command.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "low_precision.hpp"
#include "misread.hpp"
#include "tutor/cli.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"

namespace tutor::b04 {
namespace {

using nlohmann::json;

constexpr Format kAllFormats[] = {Format::e4m3fn, Format::e5m2, Format::e4m3fnuz,
                                  Format::e5m2fnuz, Format::e2m1, Format::e8m0};

// ---- parsing --------------------------------------------------------------------------------

/// The format named by option `option` (--format, --from); bad input names that option.
Format format_or_throw(const std::string& name, const char* option = "--format") {
  if (const auto f = parse_format(name)) return *f;
  throw UsageError(fmt::format("{}: unknown format '{}'; allowed: {}", option, name, kFormatNames));
}

/// "0x38", "0b00111000" or "56" -> the code; its range is the format's (8 bits, 4 for e2m1).
std::uint8_t parse_code(const std::string& text, Format f) {
  const unsigned limit = unsigned(code_count(f)) - 1;
  const std::string range = f == Format::e2m1 ? "0x0..0xF (4 bits)" : "0x00..0xFF (8 bits)";
  int base = 10;
  std::string digits = text;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    digits = text.substr(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    digits = text.substr(2);
  }
  const char* allowed = base == 16 ? "0123456789abcdefABCDEF" : base == 2 ? "01" : "0123456789";
  if (digits.empty() || digits.find_first_not_of(allowed) != std::string::npos)
    throw UsageError(fmt::format("CODE: '{}' is not a code; write hex (0x38), binary (0b00111000) or decimal (56) "
                                 "in {}", text, range));
  unsigned long value = 0;
  for (char ch : digits) {  // digit by digit, so "0x1234567890" cannot wrap around
    const unsigned d = unsigned(ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
    value = value * unsigned(base) + d;
    if (value > limit) throw UsageError(fmt::format("CODE: {} is out of range for {}: {}", text, info(f).name, range));
  }
  return std::uint8_t(value);
}

/// The input as fp32, rounded once from its text by strtof (decimal to fp32 directly: going
/// through double would round twice); "inf" and "nan" are accepted because they are exactly
/// the inputs whose handling differs.
struct Fp32Input {
  float x = 0;
  bool out_of_range = false;  ///< strtof said ERANGE: +-inf, or a subnormal / zero
};
Fp32Input parse_value(const std::string& text) {
  const bool blank = text.empty() || text.find_first_of(" \t\n") != std::string::npos;
  char* end = nullptr;
  errno = 0;
  const float x = blank ? 0.0f : std::strtof(text.c_str(), &end);
  if (blank || end != text.c_str() + text.size())
    throw UsageError(fmt::format("VALUE: '{}' is not a number; give a decimal (1.5, -3e-5), a hex float (0x1.8p0), "
                                 "inf or nan", text));
  return {x, errno == ERANGE};
}

// ---- formatting -----------------------------------------------------------------------------

std::string hex_code(Format f, std::uint8_t c) {
  return f == Format::e2m1 ? fmt::format("0x{:x}", c & 0xF) : fmt::format("0x{:02x}", c);
}

/// The code's fields, sign first: "0 0111 000" (e8m0: "01111111", no sign, no fraction).
std::string bit_fields(Format f, std::uint8_t c) {
  const FormatInfo fi = info(f);
  const int width = f == Format::e2m1 ? 4 : 8;
  std::string bits;
  for (int i = width - 1; i >= 0; --i) bits += ((c >> i) & 1) ? '1' : '0';
  if (f == Format::e8m0) return bits;
  return bits.substr(0, 1) + " " + bits.substr(1, std::size_t(fi.exponent_bits)) + " " +
         bits.substr(1 + std::size_t(fi.exponent_bits));
}


/// The exact binary form m x 2^e with m in [1, 2) ("1.75 x 2^8"); "0" and specials as is.
std::string exact_form(float v) {
  if (!std::isfinite(v) || v == 0) return value_text(v);
  int e = 0;
  const double m = std::frexp(double(v), &e) * 2.0;  // frexp gives [0.5, 1)
  return fmt::format("{} x 2^{}", m, e - 1);
}

/// "value 1.5 = 1.5 x 2^0", or just "value NaN" where the two forms are the same.
std::string value_and_form(float v) {
  const std::string text = value_text(v), form = exact_form(v);
  return text == form ? "value " + text : "value " + text + " = " + form;
}



json format_json(Format f) {
  const FormatInfo fi = info(f);
  return {{"name", fi.name}, {"exponent_bits", fi.exponent_bits}, {"mantissa_bits", fi.mantissa_bits},
          {"bias", fi.bias}, {"max_finite", fi.max_finite}, {"min_normal", fi.min_normal},
          {"min_subnormal", fi.min_subnormal}, {"has_inf", fi.has_inf}, {"has_nan", fi.has_nan},
          {"has_negative_zero", fi.has_negative_zero}, {"source", fi.source}};
}

json code_json(Format f, std::uint8_t c) {
  const float v = decode(f, c);
  return {{"code", hex_code(f, c)}, {"bits", bit_fields(f, c)}, {"class", to_string(classify(f, c))},
          {"value", json_number(v)}, {"exact", exact_form(v)}};
}

const char* mode_name(Overflow o) { return o == Overflow::saturate ? "saturating" : "non-saturating"; }

// ---- decode ---------------------------------------------------------------------------------

int run_decode(Format f, std::uint8_t c, Outputs& outputs, const std::string& command) {
  std::FILE* out = outputs.human();
  const FormatInfo fi = info(f);
  const float v = decode(f, c);
  fmt::print(out, "kind: model (format definition: {})\n", fi.source);
  fmt::print(out, "{} code {} = {}: {}, {}\n", fi.name, hex_code(f, c), bit_fields(f, c), to_string(classify(f, c)),
             value_and_form(v));
  json others = json::array();
  if (f != Format::e2m1) {
    fmt::print(out, "the same bits in the other 8-bit formats:\n");
    for (Format g : kAllFormats) {
      if (g == f || g == Format::e2m1) continue;
      const float w = decode(g, c);
      fmt::print(out, "  {:<9} {:<14} {}\n", info(g).name, value_text(w), to_string(classify(g, c)));
      others.push_back({{"format", info(g).name}, {"value", json_number(w)}, {"class", to_string(classify(g, c))}});
    }
  }
  if (outputs.json()) {
    json j = record_head("b04_numerics", "B04", "model", command, "fp8 decode");
    j["format"] = format_json(f);
    j["result"] = code_json(f, c);
    j["same_bits_in_other_formats"] = others;
    outputs.write_json(j);
  }
  return kExitOk;
}

// ---- encode ---------------------------------------------------------------------------------

/// One way of converting the input that some implementation uses, and the code it gives.
struct Convention {
  std::string name;
  std::uint8_t code;
};

/// What each convention gives for `x` in format `f`: the places where well-known
/// implementations disagree (see encode()'s docstring in low_precision.hpp).
std::vector<Convention> conventions(Format f, float x, Overflow chosen) {
  std::vector<Convention> rows;
  if (f == Format::e8m0) {
    rows.push_back({"toward zero, 2^floor(log2|x|) (MX sec. 6.3; CUDA cudaRoundZero)",
                    encode_e8m0(x, E8m0Rounding::toward_zero, chosen)});
    rows.push_back({"up, 2^ceil(log2|x|) (CUDA cudaRoundPosInf)", encode_e8m0(x, E8m0Rounding::up, chosen)});
    rows.push_back({"nearest power of two, ties to the even code", encode_e8m0(x, E8m0Rounding::nearest_even, chosen)});
    return rows;
  }
  if (f == Format::e2m1) {
    rows.push_back({"CUDA __nv_cvt_float_to_fp4 (saturates; NaN -> +6)", encode(f, x, Overflow::saturate)});
  } else {
    rows.push_back({"saturating (OFP8 sat. mode; CUDA __NV_SATFINITE)", encode(f, x, Overflow::saturate)});
    rows.push_back({"non-saturating (OFP8; CUDA __NV_NOSAT)", encode(f, x, Overflow::non_saturating)});
    // ONNX Cast(saturate=1): +-inf -> NaN for the FNUZ formats, +-max for the OCP ones
    // (onnx.ai "Float stored in 8 bits", Cast table).
    const bool fnuz_inf = is_fnuz(f) && std::isinf(x);
    rows.push_back({"ONNX Cast saturate=1 (FNUZ: +-inf -> NaN)",
                    fnuz_inf ? std::uint8_t(0x80) : encode(f, x, Overflow::saturate)});
  }
  rows.push_back({fmt::format("fp32 -> fp16 -> {} (rounds twice)", info(f).name), encode(f, from_fp16(to_fp16(x)), chosen)});
  rows.push_back({fmt::format("fp32 -> bf16 -> {} (rounds twice)", info(f).name), encode(f, from_bf16(to_bf16(x)), chosen)});
  return rows;
}

/// The mode a result was encoded in, in words.
std::string mode_words(Format f, Overflow o) {
  if (f == Format::e8m0) return "rounded toward zero";
  if (f == Format::e2m1) return "saturating: e2m1 has no inf or NaN";
  return mode_name(o);
}

int run_encode(Format f, const std::string& text, Overflow o, Outputs& outputs, const std::string& command) {
  const Fp32Input in = parse_value(text);
  const float x = in.x;
  std::FILE* out = outputs.human();
  const FormatInfo fi = info(f);
  const std::uint8_t c = encode(f, x, o);
  const float v = decode(f, c);
  fmt::print(out, "kind: model (round to nearest, ties to even, once from fp32: OCP OFP8 rev 1.0 sec. 5.2.1; "
                  "format: {})\n", fi.source);
  fmt::print(out, "input '{}' as fp32: 0x{:08x} = {}{}\n", text, bits_of(x), value_text(x),
             in.out_of_range ? " (outside fp32's normal range: strtof gives this)" : "");
  // e8m0 has no sign: its error is against |x|
  const double reference = f == Format::e8m0 ? std::fabs(double(x)) : double(x);
  std::string error = "error n/a";
  if (std::isfinite(x) && std::isfinite(v)) {
    error = fmt::format("error {}", value_text(float(double(v) - reference)));
    if (reference != 0) error += fmt::format(" ({:+.3g}% of {})", 100.0 * (double(v) - reference) / std::fabs(reference),
                                             f == Format::e8m0 ? "|x|" : "the input");
  }
  fmt::print(out, "{} ({}): code {} = {}: {}, {}; {}\n", fi.name, mode_words(f, o), hex_code(f, c), bit_fields(f, c),
             to_string(classify(f, c)), value_and_form(v), error);
  if (f == Format::e8m0 && std::signbit(x) && !std::isnan(x))
    fmt::print(out, "note: e8m0 has no sign bit (a scale is a magnitude): it encodes |x|, and the sign is lost\n");
  const auto rows = conventions(f, x, o);
  fmt::print(out, "what each convention gives for this input (where implementations disagree):\n");
  json conv = json::array();
  for (const auto& r : rows) {
    const bool differs = r.code != c;
    fmt::print(out, "  {:<64} {:<5} {}{}\n", r.name, hex_code(f, r.code), value_text(decode(f, r.code)),
               differs ? "  <- differs" : "");
    conv.push_back({{"convention", r.name}, {"code", hex_code(f, r.code)}, {"value", json_number(decode(f, r.code))},
                    {"differs", differs}});
  }
  std::string note;
  if (f == Format::e2m1 && std::isnan(x))
    note = "e2m1 has no NaN: CUDA's cuda_fp4.h gives +6; inside an MX block (quantize_mx, as microxcaling does) the "
           "NaN goes to the block's E8M0 scale instead (0xFF), and the whole block decodes to NaN";
  else if (is_fnuz(f) && std::signbit(x) && c == 0x00)
    note = "FNUZ has no -0: a negative input that rounds to zero gives 0x00 (0x80 would be NaN)";
  if (!note.empty()) fmt::print(out, "note: {}\n", note);
  if (outputs.json()) {
    json j = record_head("b04_numerics", "B04", "model", command, "fp8 encode");
    if (!note.empty()) j["note"] = note;
    j["format"] = format_json(f);
    j["input"] = {{"text", text}, {"fp32_bits", fmt::format("0x{:08x}", bits_of(x))}, {"fp32", json_number(x)}};
    j["overflow"] = mode_words(f, o);
    j["result"] = code_json(f, c);
    j["conventions"] = conv;
    outputs.write_json(j);
  }
  return kExitOk;
}

// ---- table ----------------------------------------------------------------------------------

int run_table(Format f, Outputs& outputs, const std::string& command) {
  std::FILE* out = outputs.human();
  const FormatInfo fi = info(f);
  fmt::print(out, "kind: model ({})\n", fi.source);
  fmt::print(out, "{}: {} exponent bits, {} fraction bits, bias {}; max finite {}, min normal {}, min subnormal {}; "
                  "inf: {}, NaN: {}, -0: {}\n", fi.name, fi.exponent_bits, fi.mantissa_bits, fi.bias,
             value_text(fi.max_finite), exact_form(fi.min_normal), exact_form(fi.min_subnormal),
             fi.has_inf ? "yes" : "no", fi.has_nan ? "yes" : "no", fi.has_negative_zero ? "yes" : "no");
  fmt::print(out, "{:<6} {:<11} {:<10} {:<16} {}\n", "code", "bits", "class", "value", "exact");
  json rows = json::array();
  for (int i = 0; i < code_count(f); ++i) {
    const auto c = std::uint8_t(i);
    const float v = decode(f, c);
    fmt::print(out, "{:<6} {:<11} {:<10} {:<16} {}\n", hex_code(f, c), bit_fields(f, c), to_string(classify(f, c)),
               value_text(v), exact_form(v));
    rows.push_back(code_json(f, c));
  }
  if (outputs.json()) {
    json j = record_head("b04_numerics", "B04", "model", command, "fp8 table");
    j["format"] = format_json(f);
    j["codes"] = rows;
    outputs.write_json(j);
  }
  return kExitOk;
}

// ---- misread --------------------------------------------------------------------------------

struct MisreadOptions {
  std::string from = "e4m3fn";
  std::uint64_t count = 1'000'000;
  std::uint64_t seed = 1;
  std::uint64_t nans = 4;
};

/// Elements whose dequantized values differ (NaN equals NaN; +0 equals -0).
std::size_t changed_values(const std::vector<float>& a, const std::vector<float>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) ++n;
  return n;
}

json counts_json(const MisreadCounts& n) {
  return {{"elements", n.elements},     {"halved", n.halved},           {"doubled", n.doubled},
          {"zeros_kept", n.zeros_kept}, {"nan_to_zero", n.nan_to_zero}, {"nan_to_value", n.nan_to_value},
          {"zero_to_nan", n.zero_to_nan}, {"value_to_nan", n.value_to_nan}, {"value_to_inf", n.value_to_inf},
          {"inf_to_value", n.inf_to_value}, {"nan_kept", n.nan_kept},   {"other", n.other}};
}

int run_misread(const MisreadOptions& o, Outputs& outputs, const std::string& command) {
  const Format from = format_or_throw(o.from, "--from");
  if (from == Format::e2m1 || from == Format::e8m0)
    throw UsageError(fmt::format("--from: {} has no OCP/FNUZ partner; allowed: e4m3fn, e4m3fnuz, e5m2, e5m2fnuz",
                                 o.from));
  const Format to = fnuz_partner(from);
  std::FILE* out = outputs.human();
  const std::vector<float> w = synthetic_weights(std::size_t(o.count), o.seed, 0.02, std::size_t(o.nans));
  const ScaledTensor written = quantize_per_tensor(w, from);
  const std::vector<float> truth = dequantize(written);
  const MisreadCounts n = misread(written, to);
  const VariantConversion conv = convert_variant(written);
  const std::size_t changed = changed_values(truth, dequantize(conv.tensor));
  const PlainCast cast = plain_cast(written);
  const std::size_t cast_changed = changed_values(truth, dequantize(cast.tensor));

  const auto g = [](std::size_t v) { return thousands(std::int64_t(v)); };
  fmt::print(out, "kind: simulation (a seeded synthetic tensor through the codec of low_precision.hpp)\n");
  fmt::print(out, "tensor: {} weights ~ N(0, 0.02^2), 1 in 1000 an outlier x8-20, {} NaN; seed {}\n", g(w.size()),
             g(std::size_t(o.nans)), o.seed);
  fmt::print(out, "written as {} with a per-tensor scale amax / {} = {:.6g}\n", info(from).name,
             value_text(info(from).max_finite), written.scale);
  fmt::print(out, "read as {} (same bits, same scale):\n", info(to).name);
  const double factor = is_fnuz(to) ? 0.5 : 2.0;
  fmt::print(out, "  finite nonzero values scaled by {:<4}      {:>12}  (the same code is worth {}x in {})\n", factor,
             g(is_fnuz(to) ? n.halved : n.doubled), factor, info(to).name);
  fmt::print(out, "  zeros still zero                      {:>12}\n", g(n.zeros_kept));
  fmt::print(out, "  -0 that now reads as NaN              {:>12}  (OCP's -0 = 0x80 is FNUZ's only NaN)\n",
             g(n.zero_to_nan));
  fmt::print(out, "  numbers that now read as NaN          {:>12}\n", g(n.value_to_nan));
  fmt::print(out, "  numbers that now read as inf          {:>12}\n", g(n.value_to_inf));
  fmt::print(out, "  NaN that now reads as zero            {:>12}  (a real NaN hidden as a harmless -0)\n",
             g(n.nan_to_zero));
  fmt::print(out, "  NaN that now reads as a number        {:>12}\n", g(n.nan_to_value));
  fmt::print(out, "  inf that now reads as a number        {:>12}\n", g(n.inf_to_value));
  if (n.other > 0) fmt::print(out, "  other changes                         {:>12}\n", g(n.other));
  fmt::print(out, "the right conversion ({} -> {}): keep the bits, {} the scale (to {:.6g}), ", info(from).name,
             info(to).name, is_fnuz(to) ? "double" : "halve", conv.tensor.scale);
  if (is_fnuz(to))
    fmt::print(out, "map 0x80 (-0) to 0x00 and NaN{} codes to 0x80\n", from == Format::e5m2 ? " and inf" : "");
  else
    fmt::print(out, "map 0x80 (NaN) to 0x7f and clamp the codes above {}'s max to +-{}\n", info(to).name,
               value_text(info(to).max_finite));
  fmt::print(out, "  -0 -> 0: {}, NaN remapped: {}, inf -> NaN: {}, saturated: {}; dequantized values changed: {} of {}"
                  "{}\n", g(conv.negative_zero_to_zero), g(conv.nan_remapped), g(conv.inf_to_nan), g(conv.saturated),
             g(changed), g(truth.size()), changed > 0 && changed == conv.saturated ? " (the saturated ones)" : "");
  fmt::print(out, "a plain cast instead (decode, encode as {} with the same scale): {} values saturate at +-{}; "
                  "dequantized values changed: {} of {}\n", info(to).name, g(cast.saturated),
             value_text(info(to).max_finite), g(cast_changed), g(truth.size()));

  if (outputs.json()) {
    json j = record_head("b04_numerics", "B04", "simulation", command, "fp8 misread");
    j["tensor"] = {{"count", o.count}, {"seed", o.seed}, {"std", 0.02}, {"outlier_rate", 1e-3},
                   {"outlier_factor", {8, 20}}, {"nan_count", o.nans}};
    j["written"] = {{"format", info(from).name}, {"scale", written.scale}};
    j["read_as"] = info(to).name;
    j["misread"] = counts_json(n);
    j["conversion"] = {{"to", info(to).name}, {"scale", conv.tensor.scale},
                       {"negative_zero_to_zero", conv.negative_zero_to_zero}, {"nan_remapped", conv.nan_remapped},
                       {"inf_to_nan", conv.inf_to_nan}, {"saturated", conv.saturated},
                       {"dequantized_values_changed", changed}};
    j["plain_cast"] = {{"saturated", cast.saturated}, {"dequantized_values_changed", cast_changed}};
    outputs.write_json(j);
  }
  return kExitOk;
}

}  // namespace

std::function<int()> add_fp8_command(CLI::App& app, const std::string& command_line) {
  struct State {
    std::string format, code, value;
    bool saturate = false;
    MisreadOptions misread;
    std::unique_ptr<Outputs> decode_out, encode_out, table_out, misread_out;  ///< --json of each form
  };
  auto s = std::make_shared<State>();
  const std::string formats = fmt::format("number format: {}", kFormatNames);

  CLI::App* fp8 = app.add_subcommand("fp8", "fp8 / fp4 / e8m0 codecs: OCP (Hopper, CDNA 4) vs FNUZ (CDNA 3), "
                                            "decode, encode, table, misread (kind: model)");
  fp8->require_subcommand(1, 1);

  CLI::App* dec = fp8->add_subcommand("decode", "a code's value and class, and the same bits in the other formats");
  dec->add_option("--format", s->format, formats)->required();
  dec->add_option("CODE", s->code, "the code: hex 0x38, binary 0b00111000 or decimal 56; 0..255 (e2m1: 0..15)")
      ->required();
  s->decode_out = std::make_unique<Outputs>(*dec);

  CLI::App* enc = fp8->add_subcommand("encode", "the nearest code (ties to even) and what each convention gives");
  enc->add_option("--format", s->format, formats)->required();
  enc->add_flag("--saturate", s->saturate, "overflow and +-inf give +-max finite (default: the format's own "
                                           "result: inf for e5m2, NaN otherwise; e2m1 always saturates)");
  enc->add_option("VALUE", s->value, "the number to encode: decimal (1.5, -3e-5), hex float (0x1.8p0), inf, -inf "
                                     "or nan; read as fp32 first");
  // CLI11 reads "-inf" as the short options -i -n -f: keep what it cannot place, and take a lone
  // leftover as the value (checked after parsing).
  enc->allow_extras();
  s->encode_out = std::make_unique<Outputs>(*enc);

  CLI::App* tab = fp8->add_subcommand("table", "every code of a format with its value and class");
  tab->add_option("--format", s->format, formats)->required();
  s->table_out = std::make_unique<Outputs>(*tab);

  CLI::App* mis = fp8->add_subcommand("misread", "a weight tensor written in one variant and read as the other "
                                                 "(OCP vs FNUZ), and the right conversion (kind: simulation)");
  mis->add_option("--from", s->misread.from, "the variant the tensor was written in: e4m3fn, e4m3fnuz, e5m2, "
                                             "e5m2fnuz (default e4m3fn; it is read as its partner)");
  mis->add_option("--count", s->misread.count, "weights in the tensor")
      ->check(decimal_integer())->check(CLI::Range(std::uint64_t(1), std::uint64_t(20'000'000)));
  mis->add_option("--seed", s->misread.seed, "seed of the synthetic tensor")->check(decimal_integer());
  mis->add_option("--nans", s->misread.nans, "NaN elements planted in the tensor")
      ->check(decimal_integer())->check(CLI::Range(std::uint64_t(0), std::uint64_t(1000)));
  s->misread_out = std::make_unique<Outputs>(*mis);

  return [=, command = command_line]() -> int {
    if (!fp8->parsed()) return -1;
    Outputs& out = mis->parsed() ? *s->misread_out : dec->parsed() ? *s->decode_out
                   : enc->parsed() ? *s->encode_out : *s->table_out;
    out.check();
    if (mis->parsed()) return run_misread(s->misread, out, command);
    const Format f = format_or_throw(s->format);
    if (dec->parsed()) return run_decode(f, parse_code(s->code, f), out, command);
    if (enc->parsed()) {
      std::vector<std::string> extras;
      for (const std::string& e : enc->remaining())
        if (e != "--") extras.push_back(e);
      if (s->value.empty() && extras.size() == 1) s->value = extras[0];
      else if (!extras.empty())
        throw UsageError(fmt::format("VALUE: unexpected argument '{}'; give one number", extras[0]));
      if (s->value.empty()) throw UsageError("VALUE: missing; give the number to encode (1.5, -3e-5, 0x1.8p0, inf, nan)");
      return run_encode(f, s->value, s->saturate ? Overflow::saturate : Overflow::non_saturating, out,
                        command);
    }
    return run_table(f, out, command);
  };
}

}  // namespace tutor::b04
