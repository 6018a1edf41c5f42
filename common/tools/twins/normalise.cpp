// The normaliser of the twin test: comments out, one spelling for what the two vendors
// spell differently, whitespace collapsed.
#include "normalise.hpp"

#include <cctype>
#include <regex>
#include <utility>

namespace tutor::twins {

std::string strip_comments(std::string_view source) {
  enum class State { code, line_comment, block_comment, string, character };
  State state = State::code;
  std::string out;
  out.reserve(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    const char next = i + 1 < source.size() ? source[i + 1] : '\0';
    switch (state) {
      case State::code:
        if (c == '/' && next == '/') {
          state = State::line_comment;
          ++i;
        } else if (c == '/' && next == '*') {
          state = State::block_comment;
          out += ' ';  // a/**/b is two tokens
          ++i;
        } else {
          // A quote after a digit or letter is a digit separator (1'000), not a literal.
          const bool separator = c == '\'' && i > 0 && std::isalnum(static_cast<unsigned char>(source[i - 1]));
          if (c == '"') state = State::string;
          if (c == '\'' && !separator) state = State::character;
          out += c;
        }
        break;
      case State::line_comment:
        if (c == '\n') {
          state = State::code;
          out += c;
        }
        break;
      case State::block_comment:
        if (c == '*' && next == '/') {
          state = State::code;
          ++i;
        } else if (c == '\n') {
          out += c;
        }
        break;
      case State::string:
      case State::character:
        out += c;
        if (c == '\\' && i + 1 < source.size()) {
          out += next;  // an escaped quote does not end the literal
          ++i;
        } else if ((state == State::string && c == '"') || (state == State::character && c == '\'') ||
                   c == '\n') {
          state = State::code;
        }
        break;
    }
  }
  return out;
}

namespace {

struct Rule {
  std::regex pattern;
  const char* replacement;  // std::regex_replace format: $1 is a group, $$ a literal '$'
};

// Applied in order. The tables hold only spellings a twin in this tree uses or is likely to:
// a new pair that differs elsewhere gets an allowlist entry or a new row here.
const std::vector<Rule>& rules() {
  static const std::vector<Rule> table = [] {
    const std::pair<const char*, const char*> rows[] = {
        // Headers: <cuda_X.h> and <hip/hip_X.h> are the same header of each vendor.
        {R"(<hip/hip_(\w+)\.h>)", "<gpu_$1.h>"},
        {R"(<cuda_(\w+)\.h>)", "<gpu_$1.h>"},
        {R"(<nccl\.h>|<rccl/rccl\.h>)", "<$$ccl.h>"},
        {R"(<nvtx3/nvToolsExt\.h>|<roctracer/roctx\.h>)", "<$$tx.h>"},
        // Runtime names that differ beyond the prefix (CUDA spelling -> HIP spelling).
        {R"(\bcudaMallocHost\b)", "hipHostMalloc"},
        {R"(\bcudaFreeHost\b)", "hipHostFree"},
        {R"(\bcudaDeviceProp\b)", "hipDeviceProp_t"},
        {R"(\bcudaDeviceAttr\b)", "hipDeviceAttribute_t"},
        {R"(\bcudaDevAttrMultiProcessorCount\b)", "hipDeviceAttributeMultiprocessorCount"},
        {R"(\bcudaDevAttrGlobalMemoryBusWidth\b)", "hipDeviceAttributeMemoryBusWidth"},
        {R"(\bcudaDevAttr(?=\w))", "hipDeviceAttribute"},
        // The BLAS libraries (before the runtime prefix: hipBLAS is not hip + BLAS).
        {R"(\b(cuBLAS|hipBLAS)\b)", "$$BLAS"},
        {R"(\b(cublas|hipblas)(?=[A-Z]))", "$$blas"},
        // The runtime prefix: cudaMalloc / hipMalloc, cudaError_t / hipError_t.
        {R"(\b(cuda|hip)(?=[A-Z]))", "gpu"},
        // CUDA's warp intrinsics take a lane mask first; HIP's take none.
        {R"(\b__(shfl|shfl_up|shfl_down|shfl_xor|ballot|any|all)_sync\(\s*[^,]+,\s*)", "__$1("},
        // Vendor words, in strings and names.
        {R"(\b(CUDA|HIP)\b)", "$$API"},
        {R"(\b(NVIDIA|AMD)\b)", "$$VENDOR"},
        {R"(\b(NCCL|RCCL)\b)", "$$CCL"},
        {R"(\b(Nccl|Rccl)(?=[A-Z]))", "$$Ccl"},
        {R"(\b(nvtx|roctx)(?=[A-Z]))", "$$tx"},
    };
    std::vector<Rule> built;
    for (const auto& [pattern, replacement] : rows) built.push_back({std::regex(pattern), replacement});
    return built;
  }();
  return table;
}

}  // namespace

std::string normalise_line(std::string_view line) {
  std::string text(line);
  for (const Rule& rule : rules()) text = std::regex_replace(text, rule.pattern, rule.replacement);
  std::string collapsed;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
    if (!space)
      collapsed += c;
    else if (!collapsed.empty() && collapsed.back() != ' ')
      collapsed += ' ';
  }
  if (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
  return collapsed;
}

std::vector<Line> normalise_source(std::string_view source) {
  const std::string code = strip_comments(source);
  std::vector<Line> lines;
  int number = 1;
  std::size_t start = 0;
  while (start <= code.size()) {
    std::size_t end = code.find('\n', start);
    if (end == std::string::npos) end = code.size();
    std::string text = normalise_line(std::string_view(code).substr(start, end - start));
    if (!text.empty()) lines.push_back({number, std::move(text)});
    ++number;
    start = end + 1;
  }
  return lines;
}

}  // namespace tutor::twins
