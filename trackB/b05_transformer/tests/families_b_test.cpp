// B05 families: Qwen2-MoE, Llama 4 (text model), Granite and GraniteMoE, InternLM2, EXAONE, GLM
// and GLM-4-0414. Each family: its shipped config against the published parameter count (within
// the card's rounding) and an exact count derived by hand from the family's modelling code
// (written next to it); one test per feature the family exercises; one refusal of a key
// combination its rule does not reproduce. data/models/SOURCES.md names the sources.
#include <fstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "calculator.hpp"
#include "model.hpp"

namespace tutor::b05 {
namespace {

using nlohmann::json;

ModelConfig parse(const json& j) { return parse_hf_config(j, "test"); }

/// The shipped config (its text_config, for a multimodal one) with some keys changed; a null
/// value erases the key.
json shipped_with(const std::string& stem, const json& patch) {
  std::ifstream in(models_dir() + "/" + stem + ".json");
  json j = json::parse(in);
  json& target = j.contains("text_config") ? j["text_config"] : j;
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (it.value().is_null()) target.erase(it.key());
    else target[it.key()] = it.value();
  }
  return j;
}

std::string refusal(const json& j) {
  try {
    parse(j);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

// ---- Qwen2-MoE: Qwen1.5-MoE-A2.7B ------------------------------------------------------------
// h 2048, 24 layers, 16 heads of 128 (MHA), vocab 151936, untied.
//   attention  q/k/v 3 x 2048^2 + q/k/v bias 3 x 2048 + o 2048^2           =  16,783,360
//   MoE block  60 experts x 3 x 2048 x 1408 = 519,045,120; shared expert 3 x 2048 x 5632
//              = 34,603,008; shared_expert_gate 2048; router 60 x 2048 = 122,880 = 553,773,056
//   norms      2 x 2048                                                     =       4,096
//   layer                                                                   = 570,560,512
//   total      24 x 570,560,512 + 2 x 151936 x 2048 + 2048                  = 14,315,784,192
//   active     24 x (16,783,360 + 4 x 8,650,752 + 34,603,008 + 2048 + 122,880 + 4096)
//              + 622,329,856 + 2048                                         =  2,689,173,504

TEST(Qwen2Moe, Qwen15MoeA27BMatchesTheModelCard) {
  const ParamCount c = count_params(load_shipped_model("qwen1.5-moe-a2.7b"));
  EXPECT_DOUBLE_EQ(c.total, 14'315'784'192.0);
  EXPECT_DOUBLE_EQ(c.active, 2'689'173'504.0);
  // Model card: "14.3B parameters in total and 2.7B activated parameters" (rounded to 0.1B).
  EXPECT_NEAR(c.total, 14.3e9, 0.05e9);
  EXPECT_NEAR(c.active, 2.7e9, 0.05e9);
}

TEST(Qwen2Moe, SharedExpertHasItsOwnWidthAndASigmoidGate) {
  const ModelConfig m = load_shipped_model("qwen1.5-moe-a2.7b");
  EXPECT_EQ(m.num_shared_experts, 1);
  EXPECT_EQ(m.shared_expert_intermediate_size, 5632);
  EXPECT_EQ(m.moe_intermediate_size, 1408);
  EXPECT_TRUE(m.shared_expert_gate);
  // Halving the shared expert removes 24 layers x 3 x 2048 x 2816 weights, nothing else.
  const ModelConfig half = parse(shipped_with("qwen1.5-moe-a2.7b", {{"shared_expert_intermediate_size", 2816}}));
  EXPECT_DOUBLE_EQ(count_params(m).total - count_params(half).total, 24.0 * 3 * 2048 * 2816);
}

TEST(Qwen2Moe, MlpOnlyLayersAndSparseStepGiveDenseLayersOfIntermediateSize) {
  // decoder_sparse_step 2: layers 1 and 3 are MoE; mlp_only_layers [3] makes 3 dense again.
  const ModelConfig m = parse(shipped_with("qwen1.5-moe-a2.7b", {{"num_hidden_layers", 4},
                                                                 {"decoder_sparse_step", 2},
                                                                 {"mlp_only_layers", {3}}}));
  ASSERT_EQ(m.layers.size(), 4u);
  EXPECT_FALSE(m.layers[0].moe);
  EXPECT_TRUE(m.layers[1].moe);
  EXPECT_FALSE(m.layers[2].moe);
  EXPECT_FALSE(m.layers[3].moe);
  EXPECT_EQ(m.intermediate_size, 5632);
}

TEST(Qwen2Moe, QkvCarryABiasTheOutputProjectionDoesNot) {
  const ModelConfig m = load_shipped_model("qwen1.5-moe-a2.7b");
  EXPECT_TRUE(m.qkv_bias);  // Qwen2MoeConfig qkv_bias=True, absent from the file
  EXPECT_FALSE(m.o_bias);
}

TEST(Qwen2Moe, RefusesSlidingWindowWithoutLayerTypes) {
  const std::string why = refusal(shipped_with("qwen1.5-moe-a2.7b", {{"use_sliding_window", true}}));
  EXPECT_NE(why.find("use_sliding_window"), std::string::npos) << why;
}

// ---- Llama 4 Scout (text model; vision tower apart) -------------------------------------------
// text_config: h 5120, 48 layers, 40 heads, 8 KV heads, head_dim 128, vocab 202048, untied;
// every layer MoE (interleave_moe_layer_step 1): 16 experts of 8192, top-1, one shared expert
// of 8192; q/k norm is a weightless L2 norm.
//   attention  5120 x 5120 x 2 + 2 x 5120 x 1024                           =    62,914,560
//   MoE block  16 x 3 x 5120 x 8192 + 3 x 5120 x 8192 + router 16 x 5120     = 2,139,176,960
//   norms      2 x 5120                                                     =        10,240
//   total      48 x 2,202,101,760 + 2 x 202048 x 5120 + 5120                = 107,769,861,120
//   active     48 x (62,914,560 + 2 x 125,829,120 + 81,920 + 10,240)
//              + 2,068,971,520 + 5120                                       =  17,172,894,720
// The vision tower (871,932,416, counted apart: families_c_test's VisionTower tests) brings the
// checkpoint to 108,641,793,536, the card's "109B total".

TEST(Llama4, ScoutTextModelMatchesTheModelCard) {
  const ParamCount c = count_params(load_shipped_model("llama-4-scout-17b-16e"));
  EXPECT_DOUBLE_EQ(c.total, 107'769'861'120.0);
  EXPECT_DOUBLE_EQ(c.active, 17'172'894'720.0);
  // Meta's model card: 17B activated (rounded to 1B).
  EXPECT_NEAR(c.active, 17e9, 0.5e9);
}

TEST(Llama4, ThreeLayersInFourAreChunkedTheFourthIsGlobalAndPositionFree) {
  const ModelConfig m = load_shipped_model("llama-4-scout-17b-16e");
  ASSERT_EQ(m.layers.size(), 48u);
  int chunked = 0;
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const bool global = (i + 1) % 4 == 0;  // no_rope_layer_interval 4: layers 3, 7, ... are NoPE
    EXPECT_EQ(m.layers[i].attention, global ? AttentionKind::full : AttentionKind::chunked) << i;
    if (!global) {
      EXPECT_EQ(m.layers[i].window, 8192) << i;
      ++chunked;
    }
  }
  EXPECT_EQ(chunked, 36);
}

TEST(Llama4, InterleavedMoeDenseLayersUseIntermediateSizeMlp) {
  // Maverick's pattern: interleave_moe_layer_step 2, so layers 1 and 3 are MoE and 0 and 2 are
  // Llama4TextMLP of intermediate_size_mlp (16384), the experts intermediate_size (8192).
  const ModelConfig m = parse(shipped_with("llama-4-scout-17b-16e", {{"num_hidden_layers", 4},
                                                                     {"interleave_moe_layer_step", 2}}));
  EXPECT_FALSE(m.layers[0].moe);
  EXPECT_TRUE(m.layers[1].moe);
  EXPECT_FALSE(m.layers[2].moe);
  EXPECT_TRUE(m.layers[3].moe);
  EXPECT_EQ(m.intermediate_size, 16384);
  EXPECT_EQ(m.moe_intermediate_size, 8192);
  EXPECT_EQ(m.shared_expert_intermediate_size, 8192);
  // 2 dense layers of 3 x 5120 x 16384 and 2 MoE blocks of 2,139,176,960, 4 x 62,914,560
  // attention, 4 x 10,240 + 5120 norms, 2 x 202048 x 5120 embeddings.
  EXPECT_DOUBLE_EQ(count_params(m).total, 2 * 3.0 * 5120 * 16384 + 2 * 2'139'176'960.0 + 4 * 62'914'560.0 +
                                              4 * 10'240.0 + 5120 + 2 * 202048.0 * 5120);
}

// Llama 4 Maverick's text_config differs from Scout's in num_local_experts (128),
// interleave_moe_layer_step (2: layers 1, 3, ..., 47 MoE) and use_qk_norm (false); values from
// NVIDIA TensorRT-LLM's Llama 4 modelling test (LLAMA_4_MAVERICK_TWO_LAYER_CONFIG: Maverick's
// config with its 48 layers cut to 2).
//   dense layer  62,914,560 + 3 x 5120 x 16384 + 10,240                   =    314,583,040
//   MoE layer    62,914,560 + 128 x 125,829,120 + 125,829,120 + 128 x 5120 + 10,240
//                                                                         = 16,295,536,640
//   total        24 x 314,583,040 + 24 x 16,295,536,640 + 2 x 202048 x 5120 + 5120
//                                                                         = 400,711,848,960
//   active       24 x 314,583,040 + 24 x (62,914,560 + 2 x 125,829,120 + 655,360 + 10,240)
//                + 2,068,971,520 + 5120                                   = 17,184,691,200
TEST(Llama4, MaverickInterleavesDenseAndMoeLayers) {
  const ParamCount c = count_params(parse(shipped_with(
      "llama-4-scout-17b-16e", {{"num_local_experts", 128}, {"interleave_moe_layer_step", 2}, {"use_qk_norm", false}})));
  EXPECT_DOUBLE_EQ(c.total, 400'711'848'960.0);
  EXPECT_DOUBLE_EQ(c.active, 17'184'691'200.0);
  // Meta's card: 17B active, 400B total (a round figure: the text model is 400.7B, 401.6B with
  // the vision tower).
  EXPECT_NEAR(c.active, 17e9, 0.5e9);
  EXPECT_NEAR(c.total, 400e9, 2e9);
}

TEST(Llama4, QkNormHasNoParameters) {
  const double with = count_params(load_shipped_model("llama-4-scout-17b-16e")).total;
  const double without = count_params(parse(shipped_with("llama-4-scout-17b-16e", {{"use_qk_norm", false}}))).total;
  EXPECT_DOUBLE_EQ(with, without);
}

TEST(Llama4, RefusesANullChunkSize) {
  json j = shipped_with("llama-4-scout-17b-16e", json::object());
  j["text_config"]["attention_chunk_size"] = nullptr;  // chunked layers without a chunk
  const std::string why = refusal(j);
  EXPECT_NE(why.find("attention_chunk_size"), std::string::npos) << why;
}

// ---- Granite 3.3 8B ----------------------------------------------------------------------------
// h 4096, 40 layers, 32 heads, 8 KV heads (head_dim 128), MLP 12800, vocab 49159, tied; no biases.
//   layer  4096^2 x 2 + 2 x 4096 x 1024 + 3 x 4096 x 12800 + 2 x 4096      = 199,237,632
//   total  40 x 199,237,632 + 49159 x 4096 + 4096                          = 8,170,864,640

TEST(Granite, Granite33_8BMatchesTheHandDerivation) {
  // 8,170,864,640 is also what a third-party table reads from the Hub's safetensors metadata;
  // the model card says 8B.
  EXPECT_DOUBLE_EQ(count_params(load_shipped_model("granite-3.3-8b")).total, 8'170'864'640.0);
}

TEST(Granite, MultipliersAddNoParameters) {
  const ModelConfig plain = parse(shipped_with("granite-3.3-8b", {{"embedding_multiplier", nullptr},
                                                                  {"residual_multiplier", nullptr},
                                                                  {"attention_multiplier", nullptr},
                                                                  {"logits_scaling", nullptr}}));
  EXPECT_DOUBLE_EQ(count_params(plain).total, 8'170'864'640.0);
}

TEST(Granite, RefusesAHeadDimItsAttentionIgnores) {
  const std::string why = refusal(shipped_with("granite-3.3-8b", {{"head_dim", 64}}));
  EXPECT_NE(why.find("head_dim"), std::string::npos) << why;
}

// ---- GraniteMoE 3.1 3B-A800M -------------------------------------------------------------------
// h 1536, 32 layers, 24 heads of 64, 8 KV heads, 40 experts of 512, top-8, vocab 49155, tied.
//   attention  1536^2 x 2 + 2 x 1536 x 512                                 =   6,291,456
//   experts    40 x 3 x 1536 x 512 = 94,371,840; router 40 x 1536 = 61,440  =  94,433,280
//   total      32 x (6,291,456 + 94,433,280 + 3072) + 49155 x 1536 + 1536  = 3,298,793,472
//   active without the embedding
//              32 x (6,291,456 + 8 x 2,359,296 + 61,440 + 3072) + 1536     =   807,372,288

TEST(GraniteMoe, Granite31_3BA800MMatchesItsName) {
  const ParamCount c = count_params(load_shipped_model("granite-3.1-3b-a800m"));
  EXPECT_DOUBLE_EQ(c.total, 3'298'793'472.0);
  EXPECT_DOUBLE_EQ(c.active_without_input_embedding, 807'372'288.0);
  // The name: 3B total (rounded to 1B), 800M active (to 100M).
  EXPECT_NEAR(c.total, 3e9, 0.5e9);
  EXPECT_NEAR(c.active_without_input_embedding, 800e6, 50e6);
}

TEST(GraniteMoe, RefusesAMissingExpertCount) {
  const std::string why = refusal(shipped_with("granite-3.1-3b-a800m", {{"num_local_experts", nullptr}}));
  EXPECT_NE(why.find("num_local_experts"), std::string::npos) << why;
}

// ---- InternLM2.5 7B ----------------------------------------------------------------------------
// h 4096, 32 layers, 32 heads, 8 KV heads, MLP 14336, vocab 92544, bias false, untied.
//   wqkv   4096 x (32 + 2 x 8) x 128 = 25,165,824 (q, k and v in one matrix); wo 16,777,216
//   layer  41,943,040 + 3 x 4096 x 14336 + 2 x 4096                       = 218,112,000
//   total  32 x 218,112,000 + 2 x 92544 x 4096 + 4096                      = 7,737,708,544

TEST(InternLM2, InternLM25_7BMatchesTheHandDerivation) {
  const ParamCount c = count_params(load_shipped_model("internlm2.5-7b"));
  EXPECT_DOUBLE_EQ(c.total, 7'737'708'544.0);
  EXPECT_NEAR(c.total, 7.7e9, 0.05e9);  // HF lists 7.74B; the name says 7B
}

TEST(InternLM2, BiasDefaultsToTrueWhenTheKeyIsAbsent) {
  // InternLM2Config bias=True: wqkv gains (32 + 16) x 128 and wo 4096 per layer.
  const ModelConfig m = parse(shipped_with("internlm2.5-7b", {{"bias", nullptr}}));
  EXPECT_TRUE(m.qkv_bias);
  EXPECT_TRUE(m.o_bias);
  EXPECT_DOUBLE_EQ(count_params(m).total - 7'737'708'544.0, 32.0 * (48 * 128 + 4096));
}

TEST(InternLM2, RefusesAHeadDimItsAttentionIgnores) {
  const std::string why = refusal(shipped_with("internlm2.5-7b", {{"head_dim", 96}}));
  EXPECT_NE(why.find("head_dim"), std::string::npos) << why;
}

// ---- EXAONE 3.0 7.8B ---------------------------------------------------------------------------
// h 4096, num_layers 32, 32 heads, 8 KV heads, MLP 14336, vocab 102400, untied; no biases.
//   layers 32 x (41,943,040 + 176,160,768 + 8192)                         = 6,979,584,000
//   total  6,979,584,000 + 2 x 102400 x 4096 + 4096                        = 7,818,448,896

TEST(Exaone, Exaone30_7_8BMatchesTheModelCard) {
  const ParamCount c = count_params(load_shipped_model("exaone-3.0-7.8b"));
  EXPECT_DOUBLE_EQ(c.total, 7'818'448'896.0);
  EXPECT_NEAR(c.total, 7.8e9, 0.05e9);  // "7.8B", rounded to 0.1B
}

TEST(Exaone, ReadsItsOwnKeysAndTiesWhenTheFieldIsAbsent) {
  const ModelConfig m = load_shipped_model("exaone-3.0-7.8b");
  EXPECT_EQ(m.num_layers, 32);  // from num_layers
  // ExaoneConfig: tie_word_embeddings=True, intermediate_size 4 x hidden_size when absent.
  const ModelConfig tied = parse(shipped_with("exaone-3.0-7.8b", {{"tie_word_embeddings", nullptr}}));
  EXPECT_TRUE(tied.tie_word_embeddings);
  EXPECT_DOUBLE_EQ(count_params(m).total - count_params(tied).total, 102400.0 * 4096);
  EXPECT_EQ(parse(shipped_with("exaone-3.0-7.8b", {{"intermediate_size", nullptr}})).intermediate_size, 4 * 4096);
}

TEST(Exaone, RefusesABias) {
  const std::string why = refusal(shipped_with("exaone-3.0-7.8b", {{"attention_bias", true}}));
  EXPECT_NE(why.find("attention_bias"), std::string::npos) << why;
}

// ---- GLM-4-9B (glm) and GLM-4-9B-0414 (glm4) --------------------------------------------------
// h 4096, 40 layers, 32 heads, 2 KV heads, head_dim 128, MLP 13696 (fused gate_up_proj),
// vocab 151552, untied; q/k/v bias, no o_proj bias.
//   attention  4096^2 + 4096 + 2 x (4096 x 256 + 256) + 4096^2             =  35,656,192
//   layer      35,656,192 + 3 x 4096 x 13696 + 2 x 4096                    = 203,960,832
//   glm        40 x 203,960,832 + 2 x 151552 x 4096 + 4096                 = 9,399,951,360
//   glm4       + 40 x 2 x 4096 (post_self_attn_layernorm, post_mlp_layernorm) = 9,400,279,040

TEST(Glm, Glm4_9BMatchesTheHandDerivation) {
  const ParamCount c = count_params(load_shipped_model("glm-4-9b"));
  EXPECT_DOUBLE_EQ(c.total, 9'399'951'360.0);
  EXPECT_NEAR(c.total, 9e9, 0.5e9);  // "9B", rounded to 1B
}

TEST(Glm, QkvHaveABiasTheOutputProjectionDoesNot) {
  const ModelConfig m = load_shipped_model("glm-4-9b");
  EXPECT_TRUE(m.qkv_bias);
  EXPECT_FALSE(m.o_bias);
  const ModelConfig unbiased = parse(shipped_with("glm-4-9b", {{"attention_bias", false}}));
  EXPECT_DOUBLE_EQ(count_params(m).total - count_params(unbiased).total, 40.0 * (4096 + 2 * 256));
}

TEST(Glm, Glm4_0414AddsTwoPostNormsPerLayer) {
  const ModelConfig m = load_shipped_model("glm-4-9b-0414");
  EXPECT_EQ(m.norms_per_layer, 4);
  EXPECT_DOUBLE_EQ(count_params(m).total, 9'400'279'040.0);
  EXPECT_NEAR(count_params(m).total, 9e9, 0.5e9);  // "9B"
}

TEST(Glm, RefusesAHeadDimTheReleasesDisagreeOn) {
  const std::string why = refusal(shipped_with("glm-4-9b", {{"head_dim", 64}}));
  EXPECT_NE(why.find("head_dim"), std::string::npos) << why;
}

}  // namespace
}  // namespace tutor::b05
