// B05 exercise "kv_cache": checks exercise::kv_bytes_for_context (kv_cache.cpp, or the worked
// solution) against the calculator's tutor::b05::kv_bytes_for_context, case by case:
//   1. the cases public calculators get wrong, each named by its trap;
//   2. every config shipped in data/models/ at 1 token, 4,097 tokens (one past a 4,096 window)
//      and 131,072 tokens (past every window);
//   3. random shapes (random_models.hpp) at random contexts and dtypes, from --seed.
#include <cstdint>
#include <random>
#include <string>

#include <fmt/format.h>

#include "calculator.hpp"
#include "kv_cache.hpp"
#include "model.hpp"
#include "random_models.hpp"
#include "tutor/exercise.hpp"

namespace tutor::b05 {
namespace {

void compare(tutor::exercise::Checker& ck, const std::string& name, const ModelConfig& m, double bytes,
             std::int64_t context) {
  const double expected = kv_bytes_for_context(m, bytes, context);
  if (auto got = ck.attempt(name, expected, [&] { return exercise::kv_bytes_for_context(m, bytes, context); }))
    ck.number(name, expected, *got);
}

void add_cases(tutor::exercise::Checker& ck, std::uint64_t seed) {
  // 1. The traps. The calculator's values, derived by hand for the record:
  //   Llama-3.1-70B bf16 (GQA, 8 KV heads of 64 query heads): 80 x 2 x 8 x 128 x 2 = 327,680 B per token,
  //     not 80 x 2 x 64 x 128 x 2 = 2,621,440 (query heads counted).
  //   Falcon-7B (MQA, one KV head): 32 x 2 x 1 x 64 x 2 = 8,192 B per token.
  //   DeepSeek-V3 bf16 (MLA): 61 x (512 + 64) x 2 = 70,272 B per token, although its config says
  //     num_key_value_heads 128.
  //   Mistral-7B (sliding window 4,096): at 4,096 tokens 32 x 2 x 8 x 128 x 2 x 4,096 = 512 MiB; at
  //     4,097 and beyond it stays there.
  //   Gemma-3-27B: head_dim 128 while hidden / heads = 168; 5 of 6 layers keep a 1,024-token window.
  //   Llama-4-Scout: 3 of 4 layers are chunked (8,192-token chunks), the 4th global.
  const ModelConfig llama70 = load_shipped_model("llama-3.1-70b");
  compare(ck, "GQA counts KV heads, not query heads: llama-3.1-70b bf16, 1 token", llama70, 2, 1);
  compare(ck, "GQA at 128k tokens: llama-3.1-70b bf16, 131072 tokens", llama70, 2, 131072);
  compare(ck, "MQA, one KV head: falcon-7b bf16, 2048 tokens", load_shipped_model("falcon-7b"), 2, 2048);
  const ModelConfig dsv3 = load_shipped_model("deepseek-v3");
  compare(ck, "MLA caches the latent, not 128 heads: deepseek-v3 bf16, 1 token", dsv3, 2, 1);
  compare(ck, "MLA at fp8: deepseek-v3 fp8, 32768 tokens", dsv3, 1, 32768);
  const ModelConfig mistral = load_shipped_model("mistral-7b");
  compare(ck, "sliding window, below it: mistral-7b bf16, 4095 tokens", mistral, 2, 4095);
  compare(ck, "sliding window, at it: mistral-7b bf16, 4096 tokens", mistral, 2, 4096);
  compare(ck, "sliding window, one past it: mistral-7b bf16, 4097 tokens", mistral, 2, 4097);
  compare(ck, "sliding window, far past it: mistral-7b bf16, 32768 tokens", mistral, 2, 32768);
  const ModelConfig gemma3 = load_shipped_model("gemma-3-27b");
  compare(ck, "head_dim != hidden/heads, 5 local : 1 global: gemma-3-27b bf16, 1024 tokens", gemma3, 2, 1024);
  compare(ck, "5 local : 1 global past the window: gemma-3-27b bf16, 131072 tokens", gemma3, 2, 131072);
  compare(ck, "alternating 128-token windows: gpt-oss-120b bf16, 129 tokens", load_shipped_model("gpt-oss-120b"), 2,
          129);
  const ModelConfig scout = load_shipped_model("llama-4-scout-17b-16e");
  compare(ck, "chunked attention, inside a chunk: llama-4-scout bf16, 8192 tokens", scout, 2, 8192);
  compare(ck, "chunked attention, past a chunk: llama-4-scout bf16, 8193 tokens", scout, 2, 8193);
  compare(ck, "packed fp4 (0.5 B per element): llama-3.1-8b, 1000 tokens", load_shipped_model("llama-3.1-8b"), 0.5,
          1000);

  // 2. Every shipped config.
  for (const std::string& stem : shipped_models()) {
    const ModelConfig m = load_shipped_model(stem);
    for (const std::int64_t context : {std::int64_t{1}, std::int64_t{4097}, std::int64_t{131072}})
      compare(ck, fmt::format("{} bf16, context {}", stem, context), m, 2, context);
  }

  // 3. Random shapes, contexts and dtypes.
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 60; ++i) {
    const ModelConfig m = exercise::random_model(rng, i);
    const double bytes = std::vector<double>{0.5, 1, 2, 4}[rng() % 4];
    const std::int64_t context = 1 + static_cast<std::int64_t>(rng() % 200000);
    compare(ck, fmt::format("{} ({} layers, {} of {} heads{}), {} B, context {}", m.name, m.num_layers, m.num_kv_heads,
                            m.num_heads, m.is_mla() ? ", MLA" : "", bytes, context),
            m, bytes, context);
  }
}

}  // namespace
}  // namespace tutor::b05

int main(int argc, char** argv) {
  return tutor::exercise::run_checker(
      argc, argv,
      {"b05_exercise_kv_cache", "B05", "kv_cache", "kv_bytes_for_context(model, bytes_per_element, context)",
       "trackB/b05_transformer/exercises/kv_cache.cpp", "tutor::b05::kv_bytes_for_context (calculator.hpp)"},
      tutor::b05::add_cases);
}
