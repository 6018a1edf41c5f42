// B05: reading config.json files. Every bad field is rejected with its name; every default
// is the one the family's transformers configuration class applies.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "model.hpp"

namespace tutor::b05 {
namespace {

using nlohmann::json;

const std::string kFixtures = std::string(TUTOR_SOURCE_DIR) + "/trackB/b05_transformer/tests/fixtures/";

/// Llama-3.1-8B's config.json, the fields the calculator reads (data/models/llama-3.1-8b.json).
json llama_3_1_8b() {
  return {{"model_type", "llama"}, {"hidden_size", 4096}, {"intermediate_size", 14336},
          {"num_hidden_layers", 32}, {"num_attention_heads", 32}, {"num_key_value_heads", 8},
          {"vocab_size", 128256}, {"tie_word_embeddings", false}};
}

/// The message of the ConfigError `config` raises ("" if it parses).
std::string error_of(const json& config) {
  try {
    parse_hf_config(config, "test");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelConfig, MoreThan100000LayersIsRejectedBeforeAnyPerLayerWork) {
  json c = llama_3_1_8b();
  c["num_hidden_layers"] = 2147483647;
  EXPECT_EQ(error_of(c), "num_hidden_layers: must be at most 100000");
  c["num_hidden_layers"] = 1e300;  // above int range too: the message names the real limit
  EXPECT_EQ(error_of(c), "num_hidden_layers: must be at most 100000");
  c["num_hidden_layers"] = 100000;
  EXPECT_EQ(error_of(c), "");
}

TEST(ModelConfig, ReadsLlamaAndDefaultsHeadDimToHiddenOverHeads) {
  const ModelConfig m = parse_hf_config(llama_3_1_8b(), "llama");
  EXPECT_EQ(m.head_dim, 128);  // 4096 / 32
  EXPECT_EQ(m.num_kv_heads, 8);
  ASSERT_EQ(m.layers.size(), 32u);
  for (const auto& l : m.layers) EXPECT_EQ(l.attention, AttentionKind::full);
  EXPECT_EQ(m.norms_per_layer, 2);
  EXPECT_FALSE(m.qkv_bias);
}

TEST(ModelConfig, NumKeyValueHeadsDefaultsToNumAttentionHeads) {
  json c = llama_3_1_8b();
  c.erase("num_key_value_heads");
  EXPECT_EQ(parse_hf_config(c, "mha").num_kv_heads, 32);
}

TEST(ModelConfig, MissingNumHiddenLayersIsRejectedNamingTheField) {
  json c = llama_3_1_8b();
  c.erase("num_hidden_layers");
  try {
    parse_hf_config(c, "broken");
    FAIL() << "a config without num_hidden_layers parsed";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.field(), "num_hidden_layers");
    EXPECT_EQ(std::string(e.what()).rfind("num_hidden_layers: ", 0), 0u) << e.what();
  }
}

TEST(ModelConfig, NonPositiveSizesAreRejectedNamingTheField) {
  json c = llama_3_1_8b();
  c["num_key_value_heads"] = 0;
  EXPECT_EQ(error_of(c), "num_key_value_heads: must be a positive integer");
  c = llama_3_1_8b();
  c["hidden_size"] = -4096;
  EXPECT_EQ(error_of(c), "hidden_size: must be a positive integer");
  c = llama_3_1_8b();
  c["vocab_size"] = "128256";
  EXPECT_EQ(error_of(c), "vocab_size: must be a positive integer");
  c = llama_3_1_8b();
  c["intermediate_size"] = 14336.5;
  EXPECT_EQ(error_of(c), "intermediate_size: must be a positive integer");
}

TEST(ModelConfig, KvHeadsMustDivideQueryHeads) {
  json c = llama_3_1_8b();
  c["num_key_value_heads"] = 5;
  EXPECT_EQ(error_of(c).rfind("num_key_value_heads: must divide", 0), 0u) << error_of(c);
}

TEST(ModelConfig, UnknownFamilyIsRejectedRatherThanGuessed) {
  json c = llama_3_1_8b();
  c["model_type"] = "mamba";
  EXPECT_EQ(error_of(c).rfind("model_type: 'mamba' is not a family", 0), 0u) << error_of(c);
  c.erase("model_type");
  EXPECT_EQ(error_of(c).rfind("model_type: missing", 0), 0u) << error_of(c);
}

TEST(ModelConfig, UnderscoreKeysAreIgnoredAndSourceIsKept) {
  json c = llama_3_1_8b();
  c["_source"] = "somewhere";
  c["_comment"] = 42;
  EXPECT_EQ(parse_hf_config(c, "x").source, "somewhere");
}

TEST(ModelConfig, GemmaHeadDimComesFromTheConfigNotHiddenOverHeads) {
  const ModelConfig m = load_shipped_model("gemma-3-27b");
  EXPECT_EQ(m.head_dim, 128);  // config head_dim; 5376 / 32 = 168 would be wrong
  EXPECT_EQ(m.norms_per_layer, 4);
  EXPECT_EQ(m.qk_norm, QkNorm::per_head);
  EXPECT_TRUE(m.tie_word_embeddings);
}

TEST(ModelConfig, Gemma3HasFiveLocalLayersPerGlobalLayer) {
  // Gemma 3 technical report sec. 2.2; transformers Gemma3 decoder layer: sliding iff
  // (i + 1) % sliding_window_pattern != 0 with pattern 6, so layers 5, 11, ..., 59 are global:
  // 10 global and 52 local of 62.
  const ModelConfig m = load_shipped_model("gemma-3-27b");
  ASSERT_EQ(m.layers.size(), 62u);
  int global = 0;
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const bool expect_global = (i + 1) % 6 == 0;
    EXPECT_EQ(m.layers[i].attention, expect_global ? AttentionKind::full : AttentionKind::sliding_window) << i;
    if (!expect_global) {
      EXPECT_EQ(m.layers[i].window, 1024) << i;
    }
    global += expect_global;
  }
  EXPECT_EQ(global, 10);
}

TEST(ModelConfig, MultimodalConfigIsReadFromItsTextConfig) {
  // google/gemma-3-27b-it ships Gemma3ForConditionalGeneration with the language model under
  // text_config, leaving vocab_size and the 5:1 pattern to Gemma3TextConfig's defaults.
  const json nested = {{"architectures", {"Gemma3ForConditionalGeneration"}},
                       {"model_type", "gemma3"},
                       {"text_config", {{"head_dim", 128}, {"hidden_size", 5376}, {"intermediate_size", 21504},
                                        {"model_type", "gemma3_text"}, {"num_attention_heads", 32},
                                        {"num_hidden_layers", 62}, {"num_key_value_heads", 16},
                                        {"query_pre_attn_scalar", 168}, {"sliding_window", 1024}}}};
  // (The vision tower is counted apart; families_c_test reads the Hub's full vision_config.)
  const ModelConfig a = parse_hf_config(nested, "nested");
  const ModelConfig b = load_shipped_model("gemma-3-27b");
  EXPECT_EQ(a.vocab_size, 262208);
  EXPECT_EQ(a.hidden_size, b.hidden_size);
  EXPECT_EQ(a.num_layers, b.num_layers);
  EXPECT_EQ(a.tie_word_embeddings, b.tie_word_embeddings);
  ASSERT_EQ(a.layers.size(), b.layers.size());
  for (std::size_t i = 0; i < a.layers.size(); ++i) EXPECT_EQ(a.layers[i].attention, b.layers[i].attention);
}

TEST(ModelConfig, AKeyFromTextConfigIsNamedWithItsPrefix) {
  // The rules read text_config merged over the top level; an error in a key that came from
  // text_config names it there, where the user has to look.
  const json nested = {{"model_type", "gemma3"},
                       {"text_config", {{"head_dim", 128}, {"hidden_size", 5376}, {"intermediate_size", 21504},
                                        {"model_type", "gemma3_text"}, {"num_attention_heads", 32},
                                        {"num_hidden_layers", 62}, {"num_key_value_heads", 5},
                                        {"sliding_window", 1024}}}};
  try {
    parse_hf_config(nested, "nested");
    ADD_FAILURE() << "accepted 5 K/V heads for 32 heads";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("text_config/num_key_value_heads: must divide num_attention_heads (32), got 5", 0), 0u)
        << e.what();
  }
}

TEST(ModelConfig, GptOssAlternatesSlidingAndFullFromLayerTypes) {
  const ModelConfig m = load_shipped_model("gpt-oss-120b");
  ASSERT_EQ(m.layers.size(), 36u);
  for (std::size_t i = 0; i < 36; ++i)
    EXPECT_EQ(m.layers[i].attention, i % 2 == 0 ? AttentionKind::sliding_window : AttentionKind::full) << i;
  EXPECT_TRUE(m.qkv_bias);
  EXPECT_TRUE(m.o_bias);
  EXPECT_TRUE(m.attention_sinks);
  EXPECT_EQ(m.num_experts, 128);
  EXPECT_EQ(m.experts_per_token, 4);
}

TEST(ModelConfig, LayerTypesMustHaveOneEntryPerLayer) {
  json c = llama_3_1_8b();
  c["layer_types"] = json::array({"full_attention", "full_attention"});
  EXPECT_EQ(error_of(c).rfind("layer_types: has 2 entries", 0), 0u) << error_of(c);
}

TEST(ModelConfig, MistralV01SlidesEveryLayerMixtralNone) {
  for (const auto& l : load_shipped_model("mistral-7b").layers) {
    EXPECT_EQ(l.attention, AttentionKind::sliding_window);
    EXPECT_EQ(l.window, 4096);
  }
  for (const auto& l : load_shipped_model("mixtral-8x7b").layers) EXPECT_EQ(l.attention, AttentionKind::full);
}

TEST(ModelConfig, DeepSeekV3IsMlaWithThreeDenseLayersThenMoe) {
  const ModelConfig m = load_shipped_model("deepseek-v3");
  ASSERT_EQ(m.layers.size(), 61u);
  for (std::size_t i = 0; i < 61; ++i) {
    EXPECT_EQ(m.layers[i].attention, AttentionKind::mla) << i;
    EXPECT_EQ(m.layers[i].moe, i >= 3) << i;  // first_k_dense_replace = 3
  }
  EXPECT_EQ(m.kv_lora_rank, 512);
  EXPECT_EQ(m.qk_rope_head_dim, 64);
  EXPECT_EQ(m.num_shared_experts, 1);
  EXPECT_TRUE(m.router_bias);  // e_score_correction_bias
}

TEST(ModelConfig, MoeTopKCannotExceedTheExperts) {
  json c = llama_3_1_8b();
  c["model_type"] = "mixtral";
  c["num_local_experts"] = 8;
  c["num_experts_per_tok"] = 9;
  EXPECT_EQ(error_of(c).rfind("num_experts_per_tok: (9) exceeds", 0), 0u) << error_of(c);
}

TEST(ShippedModels, AllElevenParseAndUnknownStemsListTheAllowedOnes) {
  const auto stems = shipped_models();
  for (const char* s : {"llama-2-7b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "mistral-7b",
                        "mixtral-8x7b", "qwen3-8b", "gemma-3-27b", "gpt-oss-120b", "deepseek-v3"}) {
    EXPECT_NE(std::find(stems.begin(), stems.end(), s), stems.end()) << s;
    const ModelConfig m = load_shipped_model(s);
    EXPECT_EQ(m.name, s);
    EXPECT_FALSE(m.source.empty()) << s << " has no _source";
  }
  try {
    load_shipped_model("llama-9");
    FAIL();
  } catch (const UnknownModelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown model 'llama-9'"), std::string::npos) << what;
    EXPECT_NE(what.find("; allowed: "), std::string::npos) << what;
    EXPECT_NE(what.find("deepseek-v3, "), std::string::npos) << what;
  }
}

TEST(ModelFile, MissingFieldFileAndUnreadableFilesNameWhatIsWrong) {
  try {
    load_model_file(kFixtures + "missing_num_hidden_layers.json");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.field(), "num_hidden_layers");
  }
  try {
    load_model_file(kFixtures + "no_such_file.json");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.field(), kFixtures + "no_such_file.json");
  }
  try {
    load_model_file(kFixtures + "not_json.json");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "message must be one line";
  }
}

}  // namespace
}  // namespace tutor::b05
