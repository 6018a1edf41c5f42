// B05: configs of popular checkpoints of the Qwen, Gemma and DeepSeek families against their
// published counts, the features those families exercise, and vision towers reported apart
// from the text model (Gemma 3's SigLIP, Llama 4's vision encoder, Mistral 3's Pixtral).
//
// Expected values are the published counts (model cards, papers) or hand derivations from the
// modelling code, written next to each check; the shipped configs and their sources are in
// data/models/SOURCES.md.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "calculator.hpp"
#include "family.hpp"
#include "model.hpp"
#include "vision.hpp"

namespace tutor::b05 {
namespace {

using nlohmann::json;

/// data/models/<stem>.json as JSON (for read_vision_tower, which reads the whole file).
json shipped_json(const std::string& stem) {
  std::ifstream in(models_dir() + "/" + stem + ".json");
  EXPECT_TRUE(in.good()) << stem;
  return json::parse(in);
}

/// The ConfigError message `f` raises ("" if none).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::int64_t count_layers(const ModelConfig& m, AttentionKind kind) {
  std::int64_t n = 0;
  for (const LayerSpec& l : m.layers) n += l.attention == kind;
  return n;
}

// ---- Qwen2.5-7B (qwen2) ------------------------------------------------------------------

// Qwen2.5-7B model card: 7.61B parameters, 6.53B non-embedding (two decimals).
// Hand derivation (modeling_qwen2.py): per layer q 3584x3584 + k, v 3584x512 each + o 3584x3584
// = 29,360,128, q/k/v biases 3584 + 512 + 512 = 4,608, MLP 3 x 3584 x 18944 = 203,685,888, two
// RMSNorms 7,168: 233,057,792; x 28 = 6,525,618,176, + final norm 3,584 = 6,525,621,760
// non-embedding (6.53B, as the card says); + untied embedding and LM head 2 x 152064 x 3584 =
// 1,089,994,752: 7,615,616,512. That rounds to 7.62B: the card's 7.61B is 0.6M parameters
// (0.01%) lower than what this config builds (it is what a 151,936-row vocabulary, the smaller
// Qwen2.5 models' size, would give); the check allows the card 0.01B.
TEST(FamiliesC, Qwen25_7B_MatchesModelCard) {
  const ParamCount c = count_params(load_shipped_model("qwen2.5-7b"));
  EXPECT_DOUBLE_EQ(c.total, 7'615'616'512.0);
  EXPECT_NEAR(c.total, 7.61e9, 0.01e9);
  EXPECT_NEAR(c.total - c.embedding, 6.53e9, 0.005e9);
}

// modeling_qwen2.py: q_proj, k_proj, v_proj bias=True, o_proj bias=False, whatever the config
// says (Qwen2 configs carry no attention_bias key).
TEST(FamiliesC, Qwen2_QkvCarryBiasesTheConfigDoesNotState) {
  const ModelConfig m = load_shipped_model("qwen2.5-7b");
  EXPECT_TRUE(m.qkv_bias);
  EXPECT_FALSE(m.o_bias);
  // 28 x (29,360,128 weights + 4,608 biases)
  EXPECT_DOUBLE_EQ(count_params(m).attention, 28.0 * 29'364'736.0);
}

// Qwen2Config keeps sliding_window only when use_sliding_window is true: Qwen2.5-7B ships
// sliding_window 131072 with use_sliding_window false, so every layer is full attention.
TEST(FamiliesC, Qwen2_SlidingWindowIgnoredWhenUseSlidingWindowIsFalse) {
  const ModelConfig m = load_shipped_model("qwen2.5-7b");
  EXPECT_EQ(count_layers(m, AttentionKind::full), 28);
}

// With use_sliding_window true, layers from max_window_layers on slide (Qwen2Config.layer_types:
// "sliding_attention" for i >= max_window_layers), the earlier ones stay global.
TEST(FamiliesC, Qwen2_UseSlidingWindowSlidesTheLayersFromMaxWindowLayers) {
  json c = shipped_json("qwen2.5-7b");
  c["use_sliding_window"] = true;
  c["sliding_window"] = 4096;
  c["max_window_layers"] = 20;
  const ModelConfig m = parse_hf_config(c, "x");
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    EXPECT_EQ(m.layers[i].attention, i < 20 ? AttentionKind::full : AttentionKind::sliding_window) << i;
  }
  EXPECT_EQ(m.layers[27].window, 4096);
}

TEST(FamiliesC, Qwen2_RefusesALayerTypeItDoesNotModel) {
  json c = shipped_json("qwen2.5-7b");
  c["layer_types"] = json::array();
  for (int i = 0; i < 28; ++i) c["layer_types"].push_back(i == 3 ? "linear_attention" : "full_attention");
  const std::string e = error_of([&] { parse_hf_config(c, "x"); });
  EXPECT_EQ(e.rfind("layer_types", 0), 0u) << e;
}

// ---- Qwen3-30B-A3B (qwen3_moe) -------------------------------------------------------------

// Qwen3-30B-A3B model card: 30.5B in total, 3.3B activated, 29.9B non-embedding.
// Hand derivation (modeling_qwen3_moe.py): per layer q 2048x4096 + k, v 2048x512 each + o
// 4096x2048 = 18,874,368, q_norm and k_norm 2 x 128 = 256, 128 experts x 3 x 2048 x 768 =
// 603,979,776, router 2048 x 128 = 262,144, two norms 4,096: 623,120,640; x 48 =
// 29,909,790,720, + final norm 2,048 = 29,909,792,768 non-embedding; + 2 x 151936 x 2048 =
// 622,329,856: 30,532,122,624. Active: 8 of the 128 experts (37,748,736) instead of all:
// 56,889,600 per layer, x 48 + 2,048 + 622,329,856 = 3,353,032,704 (both embedding matrices,
// as the card counts them; the card writes 3.3B, one decimal cut off).
TEST(FamiliesC, Qwen3_30B_A3B_MatchesModelCard) {
  const ParamCount c = count_params(load_shipped_model("qwen3-30b-a3b"));
  EXPECT_DOUBLE_EQ(c.total, 30'532'122'624.0);
  EXPECT_NEAR(c.total, 30.5e9, 0.05e9);
  EXPECT_NEAR(c.total - c.embedding, 29.9e9, 0.05e9);
  EXPECT_DOUBLE_EQ(c.active, 3'353'032'704.0);
  EXPECT_GE(c.active, 3.3e9);
  EXPECT_LT(c.active, 3.4e9);
}

// decoder_sparse_step 1 and an empty mlp_only_layers: every layer is MoE; q/k norms per head.
TEST(FamiliesC, Qwen3Moe_EveryLayerSparseAndPerHeadQkNorms) {
  const ModelConfig m = load_shipped_model("qwen3-30b-a3b");
  for (const LayerSpec& l : m.layers) EXPECT_TRUE(l.moe);
  EXPECT_EQ(m.qk_norm, QkNorm::per_head);
  EXPECT_FALSE(m.router_bias);  // Qwen3MoeSparseMoeBlock: gate Linear(bias=False)
}

TEST(FamiliesC, Qwen3Moe_RefusesMoreExpertsPerTokenThanExperts) {
  json c = shipped_json("qwen3-30b-a3b");
  c["num_experts_per_tok"] = 129;
  EXPECT_NE(error_of([&] { parse_hf_config(c, "x"); }).find("num_experts_per_tok"), std::string::npos);
}

// ---- Gemma (gemma) -----------------------------------------------------------------------

// Gemma paper (Gemma Team 2024, Table 2): 2B model 1,981,884,416 non-embedding parameters,
// exactly: per layer q 2048 x 2048 + k, v 2048 x 256 each (one KV head of 256) + o 2048 x 2048
// = 9,437,184, MLP 3 x 2048 x 16384 = 100,663,296, two norms 4,096: 110,104,576; x 18 + final
// norm 2,048. The embedding (tied) is 256000 x 2048 = 524,288,000 in the HF file (the paper's
// 524,550,144 counts 256,128 rows): 2,506,172,416, the Hub's 2.51B.
TEST(FamiliesC, Gemma2B_MatchesPaperNonEmbeddingCountExactly) {
  const ParamCount c = count_params(load_shipped_model("gemma-2b"));
  EXPECT_DOUBLE_EQ(c.total - c.embedding, 1'981'884'416.0);
  EXPECT_DOUBLE_EQ(c.embedding, 524'288'000.0);
  EXPECT_DOUBLE_EQ(c.total, 2'506'172'416.0);
}

// Gemma paper Table 2: 7B model 7,751,248,896 non-embedding parameters, exactly: per layer
// 4 x 3072 x 4096 = 50,331,648 attention, 3 x 3072 x 24576 = 226,492,416 MLP, 6,144 norms;
// x 28 + 3,072. Tied embedding 256000 x 3072 = 786,432,000: 8,537,680,896, the Hub's 8.54B.
TEST(FamiliesC, Gemma7B_MatchesPaperNonEmbeddingCountExactly) {
  const ParamCount c = count_params(load_shipped_model("gemma-7b"));
  EXPECT_DOUBLE_EQ(c.total - c.embedding, 7'751'248'896.0);
  EXPECT_DOUBLE_EQ(c.total, 8'537'680'896.0);
}

// gemma-2b's config.json has no tie_word_embeddings key: GemmaConfig's default (True) ties the
// LM head to the embedding; num_key_value_heads 1 is multi-query attention; head_dim 256 is not
// hidden_size / heads (2048 / 8 = 256 here, 3072 / 16 = 192 for gemma-7b, which states 256).
TEST(FamiliesC, Gemma_TiedWhenTheKeyIsAbsentAndMultiQuery) {
  const ModelConfig two = load_shipped_model("gemma-2b");
  EXPECT_TRUE(two.tie_word_embeddings);
  EXPECT_EQ(two.num_kv_heads, 1);
  const ModelConfig seven = load_shipped_model("gemma-7b");
  EXPECT_EQ(seven.head_dim, 256);
  EXPECT_TRUE(seven.tie_word_embeddings);
}

// ---- Gemma 2 (gemma2) --------------------------------------------------------------------

// Gemma 2 paper (Gemma Team 2024, Table 1): 9B model, 917,504,000 embedding and 8,324,201,984
// non-embedding parameters, exactly: per layer q 3584 x 4096 + k, v 3584 x 2048 each + o
// 4096 x 3584 = 44,040,192, MLP 3 x 3584 x 14336 = 154,140,672, four norms 14,336:
// 198,195,200; x 42 + final norm 3,584. Total 9,241,705,984, the Hub's 9.24B.
TEST(FamiliesC, Gemma2_9B_MatchesPaperCountsExactly) {
  const ParamCount c = count_params(load_shipped_model("gemma-2-9b"));
  EXPECT_DOUBLE_EQ(c.embedding, 917'504'000.0);
  EXPECT_DOUBLE_EQ(c.total - c.embedding, 8'324'201'984.0);
  EXPECT_NEAR(c.total, 9.24e9, 0.005e9);
}

// modeling_gemma2.py: four norms per layer (pre and post around attention and MLP); even
// layers slide over 4096 tokens, odd layers are global.
TEST(FamiliesC, Gemma2_FourNormsAndEveryOtherLayerSliding) {
  const ModelConfig m = load_shipped_model("gemma-2-9b");
  EXPECT_EQ(m.norms_per_layer, 4);
  ASSERT_EQ(m.layers.size(), 42u);
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    EXPECT_EQ(m.layers[i].attention, i % 2 == 0 ? AttentionKind::sliding_window : AttentionKind::full) << i;
    if (i % 2 == 0) {
      EXPECT_EQ(m.layers[i].window, 4096) << i;
    }
  }
  EXPECT_TRUE(m.tie_word_embeddings);  // no key in the file: Gemma2Config's default
}

// Newer Gemma2Config files list layer_types; the list, when present, decides the pattern. A list
// of the wrong length is refused.
TEST(FamiliesC, Gemma2_LayerTypesWhenPresentDecideThePattern) {
  json c = shipped_json("gemma-2-9b");
  c["layer_types"] = json::array();
  for (int i = 0; i < 42; ++i) c["layer_types"].push_back("full_attention");
  EXPECT_EQ(count_layers(parse_hf_config(c, "x"), AttentionKind::sliding_window), 0);
  c["layer_types"].erase(0);
  EXPECT_EQ(error_of([&] { parse_hf_config(c, "x"); }).rfind("layer_types", 0), 0u);
}

// ---- DeepSeek-V2-Lite (deepseek_v2) ------------------------------------------------------

// DeepSeek-V2 paper (appendix B): DeepSeek-V2-Lite has 15.7B total parameters, 2.4B activated
// per token. Hand derivation (modeling_deepseek_v2.py, q_lora_rank null so queries use q_proj):
// attention per layer q_proj 2048 x 16 x 192 = 6,291,456, kv_a_proj_with_mqa 2048 x (512 + 64)
// = 1,179,648, kv_b_proj 512 x 16 x (128 + 128) = 2,097,152, o_proj 16 x 128 x 2048 =
// 4,194,304: 13,762,560, + kv_a_layernorm 512 + two norms 4,096. Layer 0 dense: 3 x 2048 x
// 10944 = 67,239,936 -> 81,007,104. Layers 1-26: (64 routed + 2 shared) x 3 x 2048 x 1408 =
// 570,949,632 + router 64 x 2048 = 131,072 -> 584,847,872 each, 15,206,044,672 in all. Plus
// final norm 2,048 and 2 x 102400 x 2048 = 419,430,400: 15,706,484,224. Active: 6 routed + 2
// shared experts (69,206,016) per MoE layer: 83,104,256 x 26 + 81,007,104 + 2,048 + the LM head
// 209,715,200 = 2,451,435,008 without the input embedding (DeepSeek's convention, as for
// DeepSeek-V3's 37B; the paper writes 2.4B, one decimal cut off).
TEST(FamiliesC, DeepSeekV2Lite_MatchesPaper) {
  const ParamCount c = count_params(load_shipped_model("deepseek-v2-lite"));
  EXPECT_DOUBLE_EQ(c.total, 15'706'484'224.0);
  EXPECT_NEAR(c.total, 15.7e9, 0.05e9);
  EXPECT_DOUBLE_EQ(c.active_without_input_embedding, 2'451'435'008.0);
  EXPECT_GE(c.active_without_input_embedding, 2.4e9);
  EXPECT_LT(c.active_without_input_embedding, 2.5e9);
}

// q_lora_rank null: no query compression (q_proj of hidden x heads x 192); one dense layer
// first (first_k_dense_replace 1); two shared experts; DeepSeek-V2's router has no bias
// (e_score_correction_bias is DeepSeek-V3's).
TEST(FamiliesC, DeepSeekV2Lite_UncompressedQueriesDenseFirstLayerNoRouterBias) {
  const ModelConfig m = load_shipped_model("deepseek-v2-lite");
  EXPECT_EQ(m.q_lora_rank, 0);
  EXPECT_EQ(m.kv_lora_rank, 512);
  EXPECT_EQ(count_layers(m, AttentionKind::mla), 27);
  ASSERT_EQ(m.layers.size(), 27u);
  EXPECT_FALSE(m.layers[0].moe);
  for (std::size_t i = 1; i < m.layers.size(); ++i) EXPECT_TRUE(m.layers[i].moe) << i;
  EXPECT_EQ(m.num_shared_experts, 2);
  EXPECT_FALSE(m.router_bias);
}

TEST(FamiliesC, DeepSeekV2_RefusesMoreDenseLayersThanLayers) {
  json c = shipped_json("deepseek-v2-lite");
  c["first_k_dense_replace"] = 28;
  EXPECT_NE(error_of([&] { parse_hf_config(c, "x"); }).find("first_k_dense_replace"), std::string::npos);
}

// ---- Gemma 3 27B, the Hub's nested multimodal config -------------------------------------

// gemma-3-27b-it's config.json nests the language model in text_config and leaves vocab_size,
// tie_word_embeddings and sliding_window_pattern to Gemma3TextConfig's defaults (262208, true,
// 6): the text model must read the same as the flat gemma-3-27b.json. Hand derivation: per
// layer q 5376 x 4096 + k, v 5376 x 2048 each + o 4096 x 5376 = 66,060,288, MLP 3 x 5376 x
// 21504 = 346,816,512, four norms 21,504, q/k norms 256: 412,898,560; x 62 + final norm 5,376
// + tied embedding 262208 x 5376 = 1,409,630,208: 27,009,346,304.
TEST(FamiliesC, Gemma3_27B_NestedConfigReadsLikeTheFlatOne) {
  const ModelConfig nested = load_shipped_model("gemma-3-27b-it");
  const ModelConfig flat = load_shipped_model("gemma-3-27b");
  EXPECT_EQ(nested.vocab_size, 262208);
  EXPECT_TRUE(nested.tie_word_embeddings);
  EXPECT_EQ(count_layers(nested, AttentionKind::full), 10);  // layers 5, 11, ..., 59
  EXPECT_EQ(count_layers(nested, AttentionKind::sliding_window), 52);
  EXPECT_DOUBLE_EQ(count_params(nested).total, 27'009'346'304.0);
  EXPECT_DOUBLE_EQ(count_params(nested).total, count_params(flat).total);
}

// ---- vision towers -----------------------------------------------------------------------

// Gemma 3's SigLIP (modeling_siglip.py) for 896-pixel images in 14-pixel patches:
//   patch_embedding Conv2d 3 x 14 x 14 x 1152 + bias 1152           =     678,528
//   position_embedding (896 / 14)^2 = 4096 x 1152                   =   4,718,592
//   27 layers x (2 LayerNorms 4,608 + q/k/v/out 4 x (1152^2 + 1152) 5,313,024
//                + fc1 1152 x 4304 + 4304 + fc2 4304 x 1152 + 1152 9,921,872)
//              = 27 x 15,239,504                                    = 411,466,608
//   post_layernorm 2 x 1152                                         =       2,304
//   (vision_use_head false: no pooling head)               encoder = 416,866,032
// Gemma3MultiModalProjector: mm_input_projection_weight 1152 x 5376 = 6,193,152 + mm_soft_emb_norm
// 1152 = 6,194,304. Tower 423,060,336 (the Gemma 3 report's "400M variant" of SigLIP).
TEST(VisionTower, Gemma3_27B_SiglipTowerHandDerived) {
  const auto t = read_vision_tower(shipped_json("gemma-3-27b-it"), 5376);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->model_type, "siglip_vision_model");
  EXPECT_DOUBLE_EQ(t->encoder, 416'866'032.0);
  EXPECT_DOUBLE_EQ(t->projector, 6'194'304.0);
  EXPECT_DOUBLE_EQ(t->params(), 423'060'336.0);
}

// The Hub lists google/gemma-3-27b-it at 27.4B parameters: the text model (27,009,346,304, above)
// and the tower (423,060,336): 27,432,406,640. Text alone is 27.0B.
TEST(VisionTower, Gemma3_27B_TextPlusVisionMatchesHubTotal) {
  const double text = count_params(load_shipped_model("gemma-3-27b-it")).total;
  const double vision = read_vision_tower(shipped_json("gemma-3-27b-it"), 5376)->params();
  EXPECT_DOUBLE_EQ(text + vision, 27'432'406'640.0);
  EXPECT_NEAR(text + vision, 27.4e9, 0.05e9);
  EXPECT_NEAR(text, 27.0e9, 0.05e9);
}

// Llama 4 Scout's vision model (modeling_llama4.py), 336-pixel images in 14-pixel patches:
//   patch_embedding (Llama4UnfoldConvolution) Linear 3 x 14 x 14 -> 1408, no bias = 827,904
//   class_embedding 1,408; positional_embedding_vlm (24^2 + 1) x 1408 = 812,416
//   layernorm_pre, layernorm_post 4 x 1408 = 5,632
//   34 layers x (2 LayerNorms 5,632 + q/k/v/o 4 x (1408^2 + 1408) 7,935,488
//                + fc1 1408 x 5632 + 5632 7,935,488 + fc2 5632 x 1408 + 1408 7,931,264)
//              = 34 x 23,807,872                                     = 809,467,648
//   vision_adapter fc1 5632 x 4096 = 23,068,672, fc2 4096 x 4096 = 16,777,216
//                                                          encoder = 850,960,896
// Llama4MultiModalProjector linear_1 4096 x 5120 = 20,971,520. Tower 871,932,416.
TEST(VisionTower, Llama4Scout_VisionTowerHandDerived) {
  const auto t = read_vision_tower(shipped_json("llama-4-scout-17b-16e"), 5120);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->model_type, "llama4_vision_model");
  EXPECT_DOUBLE_EQ(t->encoder, 850'960'896.0);
  EXPECT_DOUBLE_EQ(t->projector, 20'971'520.0);
  EXPECT_DOUBLE_EQ(t->params(), 871'932'416.0);
}

// Meta's model card: Llama 4 Scout, 17B active and 109B total parameters. The text model alone
// is 107.8B (48 layers x (attention 62,914,560 + 16 experts 2,013,265,920 + shared expert
// 125,829,120 + router 81,920 + norms 10,240) + final norm + untied 2 x 202048 x 5120), so the
// 109B includes the vision tower: 107,769,861,120 + 871,932,416 = 108,641,793,536.
TEST(VisionTower, Llama4Scout_TextPlusVisionMatches109B) {
  if (!find_family("llama4_text")) GTEST_SKIP() << "the llama4 text rule is not in the family table yet";
  const double text = count_params(load_shipped_model("llama-4-scout-17b-16e")).total;
  const double vision = read_vision_tower(shipped_json("llama-4-scout-17b-16e"), 5120)->params();
  EXPECT_DOUBLE_EQ(text + vision, 108'641'793'536.0);
  EXPECT_NEAR(text + vision, 109e9, 0.5e9);
}

// The parser reports the tower apart: the text count (total) stays the language model's, the
// tower is in vision and total_with_vision (the figures of the two tests above).
TEST(VisionTower, ParserReportsGemma3TowerApartFromTheTextModel) {
  const ModelConfig m = load_shipped_model("gemma-3-27b-it");
  EXPECT_EQ(m.vision_model, "siglip_vision_model");
  EXPECT_DOUBLE_EQ(m.vision_params, 423'060'336.0);
  const ParamCount c = count_params(m);
  EXPECT_DOUBLE_EQ(c.total, 27'009'346'304.0);
  EXPECT_DOUBLE_EQ(c.total_with_vision, 27'432'406'640.0);
  EXPECT_DOUBLE_EQ(count_params(load_shipped_model("gemma-3-27b")).vision, 0.0);  // flat file: no tower described
}

// A multimodal config whose tower is not counted is refused by the parser, one line naming the
// nested key, rather than reported as text-only.
TEST(VisionTower, ParserRefusesAConfigWithAnUncountedTower) {
  json c = shipped_json("gemma-3-27b-it");
  c["vision_config"]["model_type"] = "clip_vision_model";
  const std::string e = error_of([&] { parse_hf_config(c, "x"); });
  EXPECT_EQ(e.rfind("vision_config.model_type", 0), 0u) << e;
}

// Mistral Small 3.1's Pixtral tower (modeling_pixtral.py) and Mistral3MultiModalProjector:
//   patch_conv 3 x 14 x 14 x 1024, no bias = 602,112; ln_pre (RMSNorm) 1,024
//   24 layers x (attention_norm + ffn_norm 2,048 + q/k/v/o 4 x 1024^2 4,194,304
//                + gate/up/down 3 x 1024 x 4096 12,582,912) = 24 x 16,779,264 = 402,702,336
//                                                                 encoder = 403,305,472
//   projector: norm 1,024 + patch_merger 4 x 1024 x 1024 = 4,194,304 (spatial_merge_size 2)
//              + linear_1 1024 x 5120 = 5,242,880 + linear_2 5120 x 5120 = 26,214,400 (no biases)
//                                                               projector = 35,652,608
// Tower 438,958,080.
TEST(VisionTower, Mistral3_PixtralTowerHandDerived) {
  const auto t = read_vision_tower(shipped_json("mistral-small-3.1-24b"), 5120);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->model_type, "pixtral");
  EXPECT_DOUBLE_EQ(t->encoder, 403'305'472.0);
  EXPECT_DOUBLE_EQ(t->projector, 35'652'608.0);
}

// Mistral AI: Mistral Small 3.1, 24B parameters. Text model (mistral rule, untied): per layer
// attention 2 x 5120 x 4096 + 2 x 5120 x 1024 = 52,428,800, MLP 3 x 5120 x 32768 = 503,316,480,
// norms 10,240; x 40 + 5,120 + 2 x 131072 x 5120 = 23,572,403,200; with the tower
// 24,011,361,280. (Both round to 24B: the published figure cannot tell whether the tower is in it.)
TEST(VisionTower, Mistral3_TextPlusVisionMatches24B) {
  const ModelConfig m = load_shipped_model("mistral-small-3.1-24b");
  const ParamCount c = count_params(m);
  EXPECT_DOUBLE_EQ(c.total, 23'572'403'200.0);
  EXPECT_DOUBLE_EQ(c.total_with_vision, 24'011'361'280.0);
  EXPECT_NEAR(c.total_with_vision, 24e9, 0.5e9);
  EXPECT_EQ(m.vision_model, "pixtral");
}

// Mistral3Config keeps the projector's keys at the top level: two feature layers widen linear_1's
// input (+ 1024 x 5120), multimodal_projector_bias adds 5120 to linear_1 and to linear_2, and
// spatial_merge_size 1 merges nothing (merging_layer 1024 x 1024 instead of 4 x 1024 x 1024).
TEST(VisionTower, Mistral3_ProjectorKeysAreReadFromTheTopLevel) {
  json c = shipped_json("mistral-small-3.1-24b");
  c["vision_feature_layer"] = {-1, -2};
  c["multimodal_projector_bias"] = true;
  c["spatial_merge_size"] = 1;
  const double expected = 35'652'608.0 + 5'242'880.0 + 2 * 5'120.0 - 3 * 1'048'576.0;
  EXPECT_DOUBLE_EQ(read_vision_tower(c, 5120)->projector, expected);
  c["vision_feature_layer"] = "last";
  EXPECT_EQ(error_of([&] { read_vision_tower(c, 5120); }).rfind("vision_feature_layer: must be", 0), 0u);
}

TEST(VisionTower, TextOnlyConfigHasNone) {
  EXPECT_FALSE(read_vision_tower(shipped_json("llama-3.1-8b"), 4096).has_value());
  EXPECT_FALSE(read_vision_tower(shipped_json("gemma-3-27b"), 5376).has_value());
}

/// A small SigLIP tower under gemma3: width 16, MLP 32, 2 layers, 2 heads, 28-pixel images in
/// 14-pixel patches (4 patches), into a text model of width 8.
json small_gemma3() {
  return {{"model_type", "gemma3"},
          {"vision_config",
           {{"model_type", "siglip_vision_model"}, {"hidden_size", 16}, {"intermediate_size", 32},
            {"num_hidden_layers", 2}, {"num_attention_heads", 2}, {"image_size", 28}, {"patch_size", 14},
            {"vision_use_head", false}}}};
}

// Hand derivation for small_gemma3(): patch 3 x 14 x 14 x 16 + 16 = 9,424; positions 4 x 16 = 64;
// per layer 4 x 16 + 4 x (256 + 16) + (16 x 32 + 32) + (32 x 16 + 16) = 64 + 1,088 + 544 + 528 =
// 2,224, x 2 = 4,448; post_layernorm 32: 13,968. Projector 16 x 8 + 16 = 144. SigLIP builds
// the pooling head when vision_use_head is absent (SiglipVisionTransformer): probe 16,
// MultiheadAttention in_proj 3 x 256 + 48 and out_proj 256 + 16, LayerNorm 32, MLP 544 + 528:
// 2,208 more.
TEST(VisionTower, SiglipPoolingHeadCountedUnlessVisionUseHeadIsFalse) {
  json c = small_gemma3();
  const auto without = read_vision_tower(c, 8);
  ASSERT_TRUE(without.has_value());
  EXPECT_DOUBLE_EQ(without->encoder, 13'968.0);
  EXPECT_DOUBLE_EQ(without->projector, 144.0);
  c["vision_config"].erase("vision_use_head");
  EXPECT_DOUBLE_EQ(read_vision_tower(c, 8)->encoder, 13'968.0 + 2'208.0);
}

TEST(VisionTower, RefusesAnUnknownTowerInOneLineNamingTheSupportedOnes) {
  const json llava = {{"model_type", "llava"},
                      {"vision_config", {{"model_type", "clip_vision_model"}, {"hidden_size", 1024}}}};
  const std::string e = error_of([&] { read_vision_tower(llava, 4096); });
  EXPECT_EQ(e.rfind("vision_config.model_type: unknown vision model 'clip_vision_model'", 0), 0u) << e;
  EXPECT_NE(e.find("siglip_vision_model (gemma3), llama4_vision_model (llama4), pixtral (mistral3)"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

// Gemma3Config builds a SigLIP tower from vision_config whatever it declares; a config that
// declares another tower is refused rather than counted as SigLIP. A SigLIP tower under another
// parent has an unknown projector.
TEST(VisionTower, RefusesATowerItsParentDoesNotBuild) {
  json c = small_gemma3();
  c["vision_config"]["model_type"] = "llama4_vision_model";
  EXPECT_NE(error_of([&] { read_vision_tower(c, 8); }).find("vision_config.model_type"), std::string::npos);
  c = small_gemma3();
  c["model_type"] = "paligemma";
  EXPECT_NE(error_of([&] { read_vision_tower(c, 8); }).find("vision_config.model_type"), std::string::npos);
}

// The vision config classes' defaults changed between transformers versions (SigLIP's patch
// size 32, then 16), so a missing size is refused, named under vision_config.
TEST(VisionTower, RefusesAMissingSizeNamingTheNestedKey) {
  json c = small_gemma3();
  c["vision_config"].erase("image_size");
  EXPECT_EQ(error_of([&] { read_vision_tower(c, 8); }).rfind("vision_config.image_size: missing", 0), 0u);
  c = small_gemma3();
  c["vision_config"]["num_attention_heads"] = 3;  // 16 is not split into 3 heads
  EXPECT_EQ(error_of([&] { read_vision_tower(c, 8); }).rfind("vision_config.num_attention_heads", 0), 0u);
}

// Sizes that would give a count beyond 2^53 (where doubles stop holding every integer) are
// refused in one line instead of printed wrong.
TEST(VisionTower, RefusesSizesBeyondAnExactCount) {
  json c = small_gemma3();
  c["vision_config"]["hidden_size"] = 2147483646;
  c["vision_config"]["intermediate_size"] = 2147483647;
  c["vision_config"]["num_hidden_layers"] = 100000;
  const std::string e = error_of([&] { read_vision_tower(c, 8); });
  EXPECT_EQ(e.rfind("vision_config.hidden_size: the sizes give a tower of", 0), 0u) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tutor::b05
