#pragma once
// Random model shapes for the B05 exercise checkers: every feature the calculator knows, mixed
// at random (attention kinds and windows, GQA and MQA, MLA with and without query compression,
// norm kinds and counts, biases, gated and plain MLPs, experts, shared experts and their gate),
// so a solution that only handles the shipped configs' combinations does not pass.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "model.hpp"

namespace tutor::b05::exercise {

inline ModelConfig random_model(std::mt19937_64& rng, int index) {
  auto pick = [&](const std::vector<std::int64_t>& v) { return v[rng() % v.size()]; };
  auto coin = [&] { return rng() % 2 == 0; };
  ModelConfig m;
  m.name = fmt::format("random-{}", index);
  m.model_type = "llama";
  m.num_heads = pick({1, 2, 4, 8, 12, 16, 32, 40, 64, 128});
  std::vector<std::int64_t> divisors;
  for (std::int64_t d = 1; d <= m.num_heads; ++d)
    if (m.num_heads % d == 0) divisors.push_back(d);
  m.num_kv_heads = pick(divisors);  // MHA when equal to num_heads, MQA when 1, GQA between
  m.head_dim = pick({32, 64, 80, 96, 128, 256});
  // Half the models have hidden_size != heads x head_dim (Gemma 3, Qwen3 set head_dim apart).
  m.hidden_size = coin() ? m.num_heads * m.head_dim : pick({512, 1024, 2048, 3072, 5376});
  m.num_layers = 1 + static_cast<std::int64_t>(rng() % 64);
  m.intermediate_size = pick({256, 1408, 2816, 11008, 14336});
  m.vocab_size = pick({1000, 32000, 128256});
  m.max_position_embeddings = pick({2048, 8192, 131072});
  m.tie_word_embeddings = coin();
  m.gated_mlp = coin();
  m.qkv_bias = coin();
  m.o_bias = coin();
  m.mlp_bias = coin();
  m.attention_sinks = rng() % 4 == 0;
  m.norm = static_cast<NormKind>(rng() % 4);
  m.norms_per_layer = pick({1, 2, 4});
  m.final_norm = rng() % 4 != 0;
  m.qk_norm = static_cast<QkNorm>(rng() % 3);

  const bool mla = rng() % 4 == 0;
  if (mla) {
    // Like DeepSeek-V2/V3: num_key_value_heads stays num_heads in the config, never cached.
    m.num_kv_heads = m.num_heads;
    m.kv_lora_rank = pick({128, 256, 512});
    m.qk_rope_head_dim = pick({32, 64});
    m.qk_nope_head_dim = pick({64, 128});
    m.v_head_dim = pick({64, 128});
    m.q_lora_rank = coin() ? pick({768, 1536}) : 0;
    m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
    m.qk_norm = QkNorm::none;
  }
  const bool moe = rng() % 3 == 0;
  if (moe) {
    m.num_experts = pick({4, 8, 16, 64});
    m.experts_per_token = 1 + static_cast<std::int64_t>(rng() % 4);
    m.moe_intermediate_size = pick({256, 704, 1408});
    m.num_shared_experts = pick({0, 0, 1, 2});
    m.shared_expert_intermediate_size = m.num_shared_experts > 0 && coin() ? pick({1408, 5632}) : 0;
    m.shared_expert_gate = m.num_shared_experts > 0 && coin();
    m.router_bias = coin();
    m.first_dense_layers = std::min<std::int64_t>(m.num_layers - 1, pick({0, 0, 1, 3}));
  }

  const std::int64_t window = pick({1, 128, 512, 4096, 8192});
  const int pattern = static_cast<int>(rng() % 5);  // all full, all sliding, 5 local : 1 global, alternating, chunked
  for (std::int64_t i = 0; i < m.num_layers; ++i) {
    LayerSpec l;
    if (mla) {
      l.attention = AttentionKind::mla;
    } else if (pattern == 1 || (pattern == 2 && (i + 1) % 6 != 0) || (pattern == 3 && i % 2 == 0)) {
      l.attention = AttentionKind::sliding_window;
      l.window = window;
    } else if (pattern == 4 && (i + 1) % 4 != 0) {
      l.attention = AttentionKind::chunked;
      l.window = window;
    }
    l.moe = moe && i >= m.first_dense_layers;
    m.layers.push_back(l);
  }
  return m;
}

}  // namespace tutor::b05::exercise
