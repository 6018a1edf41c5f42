// Counting FFMA register-bank conflicts in `cuobjdump -sass` text (sass_banks.hpp has the rule
// and its source). One pass over the lines; the only state between instructions is what the
// previous FFMA left in the operand reuse cache.
#include "sass_banks.hpp"

#include <cxxabi.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

namespace tutor::a07 {
namespace {

constexpr int kNoRegister = -1;
/// Register banks from Volta on (Jia et al. 2018): bank = register number mod 2.
constexpr int kRegisterBanks = 2;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

/// One source operand: a general register R<n> (its number and whether it carries .reuse), or
/// anything else (RZ, a uniform register UR<n>, an immediate, c[..][..]), which reads no bank.
struct Source {
  int reg = kNoRegister;
  bool reuse = false;
};

Source parse_source(std::string_view operand) {
  std::string text;
  for (char c : trim(operand))
    if (c != '|') text += c;  // |R2| is the absolute value of R2: the read is the same
  std::string_view s = text;
  while (!s.empty() && (s.front() == '-' || s.front() == '!' || s.front() == '~')) s.remove_prefix(1);
  const std::size_t dot = s.find('.');
  const std::string_view base = s.substr(0, dot);
  if (base.size() < 2 || base.front() != 'R' || !all_digits(base.substr(1))) return {};
  // Register numbers are 0..254 (R255 is RZ); anything longer or larger is not a register.
  int number = 0;
  const std::string_view digits = base.substr(1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (ec != std::errc() || end != digits.data() + digits.size() || number > 254) return {};
  Source src{number, false};
  for (std::string_view mods = dot == std::string_view::npos ? "" : s.substr(dot); !mods.empty();) {
    const std::size_t next = mods.find('.', 1);
    if (mods.substr(0, next) == ".reuse") src.reuse = true;
    mods = next == std::string_view::npos ? "" : mods.substr(next);
  }
  return src;
}

/// An instruction line, `/*0c60*/  @P0 FFMA.FTZ R121, R32, R37.reuse, R55 ;  /* 0x... */`:
/// the opcode without modifiers ("FFMA") and the operands, destination first.
struct Instruction {
  std::string opcode;
  std::vector<std::string_view> operands;
};

std::optional<Instruction> parse_instruction(std::string_view line) {
  line = trim(line);
  // The address comment is "/*" hex "*/"; the encoding-only lines start "/* 0x" and are not instructions.
  if (!line.starts_with("/*")) return std::nullopt;
  const std::size_t close = line.find("*/");
  if (close == std::string_view::npos || close == 2) return std::nullopt;
  for (char c : line.substr(2, close - 2))
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
  std::string_view text = line.substr(close + 2);
  text = trim(text.substr(0, text.find(';')));
  if (text.starts_with('@')) text = trim(text.substr(std::min(text.find(' '), text.size())));  // predicate
  const std::size_t space = std::min(text.find(' '), text.size());
  const std::string_view opcode = text.substr(0, space);
  Instruction ins{std::string(opcode.substr(0, opcode.find('.'))), {}};
  for (std::string_view rest = trim(text.substr(space)); !rest.empty();) {
    const std::size_t comma = rest.find(',');
    ins.operands.push_back(trim(rest.substr(0, comma)));
    rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
  }
  return ins;
}

std::string demangle(const std::string& mangled) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> name(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && name ? std::string(name.get()) : mangled;
}

/// What follows `key` on a header line ("arch = sm_90", "code for sm_90"), or "" if the line is another.
std::string_view after(std::string_view line, std::string_view key) {
  line = trim(line);
  return line.starts_with(key) ? trim(line.substr(key.size())) : std::string_view{};
}

/// Counts one FFMA into `k`; `cached` holds, per source slot a, b, c, the register the previous
/// instruction flagged .reuse there (kNoRegister if none), and is updated for the next one.
void count_ffma(const Instruction& ins, KernelBanks& k, std::array<int, 3>& cached) {
  ++k.ffma;
  std::array<Source, 3> src{};
  if (ins.operands.size() == 4)
    for (std::size_t s = 0; s < 3; ++s) src[s] = parse_source(ins.operands[s + 1]);
  bool three_registers = true, served_by_cache = false;
  for (std::size_t s = 0; s < 3; ++s) {
    three_registers = three_registers && src[s].reg != kNoRegister;
    served_by_cache = served_by_cache || (src[s].reg != kNoRegister && src[s].reg == cached[s]);
  }
  if (three_registers) {
    ++k.ffma_three_registers;
    const int bank = src[0].reg % kRegisterBanks;
    if (src[1].reg % kRegisterBanks == bank && src[2].reg % kRegisterBanks == bank) {
      ++k.same_bank;
      if (!served_by_cache) ++k.same_bank_uncached;
    }
  }
  for (std::size_t s = 0; s < 3; ++s) cached[s] = src[s].reuse ? src[s].reg : kNoRegister;
}

}  // namespace

std::vector<KernelBanks> count_ffma_banks(std::istream& sass) {
  std::vector<KernelBanks> kernels;
  std::string arch = "unknown";
  std::array<int, 3> cached{kNoRegister, kNoRegister, kNoRegister};
  for (std::string line; std::getline(sass, line);) {
    if (const auto a = after(line, "arch ="); !a.empty()) arch = a;
    else if (const auto c = after(line, "code for"); !c.empty()) arch = c;
    else if (const auto f = after(line, "Function :"); !f.empty()) {
      if (kernels.size() == kMaxKernels)
        throw std::length_error(fmt::format("more than {} 'Function :' lines", kMaxKernels));
      kernels.push_back({arch, std::string(f), demangle(std::string(f))});
      cached.fill(kNoRegister);
    } else if (const auto ins = parse_instruction(line); ins && !kernels.empty()) {
      if (ins->opcode == "FFMA") count_ffma(*ins, kernels.back(), cached);
      else cached.fill(kNoRegister);  // a simplification: the hardware may keep the cache across some
    }
  }
  if (kernels.empty()) throw std::invalid_argument("no 'Function :' line: not the output of cuobjdump -sass");
  return kernels;
}

}  // namespace tutor::a07
