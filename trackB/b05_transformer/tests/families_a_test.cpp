// B05 families: GPT-2, GPT-NeoX (Pythia), GPT-J, Falcon, StarCoder2, Phi, Phi-3, Phi-3.5-MoE,
// Cohere, Cohere2, OLMo, OLMo 2, Nemotron (Minitron) and DBRX. Each family: its shipped config
// against the published parameter count (within the card's rounding) or an exact count derived
// by hand from the family's modelling code (written next to it); one test per feature the
// family exercises; one refusal of a key combination its rule does not reproduce.
// data/models/SOURCES.md names the sources of every config and count.
#include <fstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "calculator.hpp"
#include "model.hpp"

namespace tutor::b05 {
namespace {

using nlohmann::json;

ModelConfig parse(const json& j) { return parse_hf_config(j, "test"); }

/// The shipped config with some keys changed; a null value erases the key.
json shipped_with(const std::string& stem, const json& patch) {
  std::ifstream in(models_dir() + "/" + stem + ".json");
  json j = json::parse(in);
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (it.value().is_null()) j.erase(it.key());
    else j[it.key()] = it.value();
  }
  return j;
}

double total(const std::string& stem, const json& patch) { return count_params(parse(shipped_with(stem, patch))).total; }

/// The ConfigError message a config is refused with, or "(accepted)".
std::string refusal(const json& j) {
  try {
    parse(j);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

// ---- GPT-2 (124M) ------------------------------------------------------------------------------
// n_embd 768, 12 layers, 12 heads, n_inner 4 x 768, vocab 50257, 1024 learned positions.
//   ln_1, ln_2        2 x 2 x 768                          =      3,072
//   c_attn            768 x 2304 + 2304                    =  1,771,776
//   attn c_proj       768 x 768 + 768                      =    590,592
//   c_fc              768 x 3072 + 3072                    =  2,362,368
//   mlp c_proj        3072 x 768 + 768                     =  2,360,064
//   layer                                                  =  7,087,872
//   total  12 x 7,087,872 + wte 50257 x 768 + wpe 1024 x 768 + ln_f 2 x 768
//          = 85,054,464 + 38,597,376 + 786,432 + 1,536     = 124,439,808 (lm_head tied to wte)

TEST(Gpt2, SmallMatchesTheModelCard) {
  const ParamCount c = count_params(load_shipped_model("gpt2"));
  EXPECT_DOUBLE_EQ(c.total, 124'439'808.0);
  // Model card: "the smallest version of GPT-2, with 124M parameters" (rounded to 1M).
  EXPECT_NEAR(c.total, 124e6, 0.5e6);
}

TEST(Gpt2, LearnedPositionsAreATableOfNPositionsRows) {
  const ModelConfig m = load_shipped_model("gpt2");
  EXPECT_EQ(m.position_embeddings, 1024);
  EXPECT_EQ(m.norm, NormKind::layer);
  EXPECT_FALSE(m.gated_mlp);
  EXPECT_TRUE(m.qkv_bias && m.o_bias && m.mlp_bias);
  // Doubling n_positions adds 1024 rows of 768: wpe is the only table that grows.
  EXPECT_DOUBLE_EQ(total("gpt2", {{"n_positions", 2048}}) - count_params(m).total, 1024.0 * 768);
}

TEST(Gpt2, LmHeadIsTiedWhenTheFieldIsAbsent) {
  const ModelConfig m = load_shipped_model("gpt2");  // the file has no tie_word_embeddings
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_DOUBLE_EQ(total("gpt2", {{"tie_word_embeddings", false}}) - count_params(m).total, 50257.0 * 768);
}

TEST(Gpt2, LlamaStyleNamesAreTheSameSizesAndMustAgree) {
  // GPT2Config.attribute_map: hidden_size -> n_embd, num_hidden_layers -> n_layer, ...
  const json renamed = shipped_with("gpt2", {{"n_embd", nullptr}, {"hidden_size", 768},
                                             {"n_layer", nullptr}, {"num_hidden_layers", 12}});
  EXPECT_DOUBLE_EQ(count_params(parse(renamed)).total, 124'439'808.0);
  EXPECT_EQ(refusal(shipped_with("gpt2", {{"hidden_size", 1024}})).rfind("hidden_size:", 0), 0u);
}

TEST(Gpt2, CrossAttentionIsRefused) {
  EXPECT_EQ(refusal(shipped_with("gpt2", {{"add_cross_attention", true}})).rfind("add_cross_attention:", 0), 0u);
}

// ---- GPT-NeoX: Pythia-1.4B ---------------------------------------------------------------------
// hidden 2048, 24 layers, 16 heads, intermediate 8192, vocab 50304, untied embed_out.
//   query_key_value   2048 x 6144 + 6144                   = 12,589,056
//   dense             2048 x 2048 + 2048                   =  4,196,352
//   dense_h_to_4h     2048 x 8192 + 8192                   = 16,785,408
//   dense_4h_to_h     8192 x 2048 + 2048                   = 16,779,264
//   two LayerNorms    2 x 2 x 2048                         =      8,192
//   layer                                                  = 50,358,272
//   non-embedding  24 x 50,358,272 + final 4,096           = 1,208,602,624
//   total          + 2 x 50304 x 2048 = 206,045,184        = 1,414,647,808

TEST(GptNeox, Pythia14BMatchesTheModelCardExactly) {
  const ParamCount c = count_params(load_shipped_model("pythia-1.4b"));
  // The Pythia model card lists both counts to the parameter.
  EXPECT_DOUBLE_EQ(c.total, 1'414'647'808.0);
  EXPECT_DOUBLE_EQ(c.total - c.embedding, 1'208'602'624.0);
}

TEST(GptNeox, ParallelResidualKeepsTwoLayerNormsAndBiases) {
  const ModelConfig m = load_shipped_model("pythia-1.4b");
  EXPECT_TRUE(m.parallel_block);
  EXPECT_EQ(m.norms_per_layer, 2);
  EXPECT_FALSE(m.tie_word_embeddings);
  // attention_bias false removes the query_key_value and dense biases: 24 x (6144 + 2048).
  EXPECT_DOUBLE_EQ(count_params(m).total - total("pythia-1.4b", {{"attention_bias", false}}), 24.0 * 8192);
}

TEST(GptNeox, HeadsThatDoNotDivideTheHiddenSizeAreRefused) {
  EXPECT_EQ(refusal(shipped_with("pythia-1.4b", {{"num_attention_heads", 24}})).rfind("num_attention_heads:", 0), 0u);
}

// ---- GPT-J-6B ----------------------------------------------------------------------------------
// n_embd 4096, 28 layers, 16 heads, n_inner null (16384), vocab 50400, untied.
//   q, k, v, out_proj 4 x 4096^2 (no bias)                 =  67,108,864
//   fc_in             4096 x 16384 + 16384                 =  67,125,248
//   fc_out            16384 x 4096 + 4096                  =  67,112,960
//   ln_1              2 x 4096                             =       8,192
//   layer                                                  = 201,355,264
//   total  28 x 201,355,264 + wte 206,438,400 + lm_head 206,438,400 + its bias 50,400 + ln_f 8,192
//          = 6,050,882,784
// The card's n_parameters, 6,053,381,344, was counted on the Mesh Transformer JAX checkpoint and
// is 2,498,560 higher; the test checks the transformers model and the card's "6B".

TEST(Gptj, GptJ6BMatchesTheHandDerivation) {
  const ParamCount c = count_params(load_shipped_model("gpt-j-6b"));
  EXPECT_DOUBLE_EQ(c.total, 6'050'882'784.0);
  EXPECT_NEAR(c.total, 6e9, 0.5e9);  // "6B" (rounded to 1B)
}

TEST(Gptj, OneLayerNormParallelBlockAndAnLmHeadBias) {
  const ModelConfig m = load_shipped_model("gpt-j-6b");
  EXPECT_TRUE(m.parallel_block);
  EXPECT_EQ(m.norms_per_layer, 1);
  EXPECT_FALSE(m.qkv_bias || m.o_bias);
  EXPECT_TRUE(m.mlp_bias);
  EXPECT_TRUE(m.lm_head_bias);
  EXPECT_EQ(m.intermediate_size, 4 * 4096);  // n_inner null
  EXPECT_EQ(m.position_embeddings, 0);       // rotary: no position table
}

TEST(Gptj, DisagreeingSpellingsOfOneSizeAreRefused) {
  EXPECT_EQ(refusal(shipped_with("gpt-j-6b", {{"num_attention_heads", 32}})).rfind("num_attention_heads:", 0), 0u);
}

// ---- Falcon-7B and Falcon-40B ------------------------------------------------------------------
// Falcon-7B: hidden 4544, 32 layers, 71 heads of 64, multi_query (1 K/V head), MLP 4 x 4544,
// no linear biases, one LayerNorm per layer (parallel block), tied.
//   query_key_value   4544 x (4544 + 2 x 64)               =  21,229,568
//   dense             4544 x 4544                          =  20,647,936
//   MLP               2 x 4544 x 18176                     = 165,183,488
//   input_layernorm   2 x 4544                             =       9,088
//   layer                                                  = 207,070,080
//   total  32 x 207,070,080 + 65024 x 4544 + ln_f 9,088    = 6,921,720,704

TEST(Falcon, Falcon7BMatchesTheHandDerivation) {
  const ParamCount c = count_params(load_shipped_model("falcon-7b"));
  EXPECT_DOUBLE_EQ(c.total, 6'921'720'704.0);
  EXPECT_NEAR(c.total, 7e9, 0.5e9);  // model card: "7B parameters"
}

TEST(Falcon, MultiQueryGivesOneKvHeadAndIgnoresNumKvHeads) {
  const ModelConfig m = load_shipped_model("falcon-7b");
  EXPECT_EQ(m.num_kv_heads, 1);  // num_kv_heads absent: FalconConfig's default (71) is ignored
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_layer(m, 0, 2.0), 2.0 * 1 * 64 * 2);
  // Even when written out, num_kv_heads is ignored under multi_query without the new architecture.
  EXPECT_EQ(parse(shipped_with("falcon-7b", {{"num_kv_heads", 71}})).num_kv_heads, 1);
  // Without multi_query every head keeps its K and V: query_key_value grows to 3 x 4544.
  const ModelConfig mha = parse(shipped_with("falcon-7b", {{"multi_query", false}}));
  EXPECT_EQ(mha.num_kv_heads, 71);
  EXPECT_DOUBLE_EQ(count_params(mha).total - count_params(m).total, 32.0 * 4544 * (2 * 4544 - 2 * 64));
}

TEST(Falcon, ParallelBlockHasOneNormAndTheSequentialBlockTwo) {
  const ModelConfig m = load_shipped_model("falcon-7b");
  EXPECT_TRUE(m.parallel_block);
  EXPECT_EQ(m.norms_per_layer, 1);
  const ModelConfig seq = parse(shipped_with("falcon-7b", {{"parallel_attn", false}}));
  EXPECT_EQ(seq.norms_per_layer, 2);
  EXPECT_DOUBLE_EQ(count_params(seq).total - count_params(m).total, 32.0 * 2 * 4544);
}

TEST(Falcon, BiasKeyPutsABiasOnEveryLinear) {
  // bias true: query_key_value 4672 + dense 4544 + dense_h_to_4h 18176 + dense_4h_to_h 4544.
  EXPECT_DOUBLE_EQ(total("falcon-7b", {{"bias", true}}) - total("falcon-7b", {}), 32.0 * (4672 + 4544 + 18176 + 4544));
}

// Falcon-40B: hidden 8192, 60 layers, 128 heads of 64, new_decoder_architecture with 8 K/V heads
// and two LayerNorms (ln_attn, ln_mlp) per layer, MLP 4 x 8192, tied (key absent).
//   query_key_value   8192 x (128 + 2 x 8) x 64            =  75,497,472
//   dense             8192 x 8192                          =  67,108,864
//   MLP               2 x 8192 x 32768                     = 536,870,912
//   ln_attn, ln_mlp   2 x 2 x 8192                         =      32,768
//   layer                                                  = 679,510,016
//   total  60 x 679,510,016 + 65024 x 8192 + ln_f 16,384   = 41,303,293,952

TEST(Falcon, NewDecoderArchitectureReadsKvHeadsAndTwoNorms) {
  const ModelConfig m = load_shipped_model("falcon-40b");
  EXPECT_EQ(m.num_kv_heads, 8);  // multi_query true is ignored under the new architecture
  EXPECT_EQ(m.norms_per_layer, 2);
  EXPECT_DOUBLE_EQ(count_params(m).total, 41'303'293'952.0);
  // num_ln_in_parallel_attn 1 (Falcon2-11B's choice) keeps one norm.
  EXPECT_EQ(parse(shipped_with("falcon-40b", {{"num_ln_in_parallel_attn", 1}})).norms_per_layer, 1);
}

TEST(Falcon, KvHeadsWithoutTheNewArchitectureOrMultiQueryAreRefused) {
  EXPECT_EQ(refusal(shipped_with("falcon-7b", {{"multi_query", false}, {"num_kv_heads", 1}})).rfind("num_kv_heads:", 0), 0u);
  EXPECT_EQ(refusal(shipped_with("falcon-40b", {{"num_ln_in_parallel_attn", 3}})).rfind("num_ln_in_parallel_attn:", 0), 0u);
}

// ---- StarCoder2-3B -----------------------------------------------------------------------------
// hidden 3072, 30 layers, 24 heads of 128, 2 K/V heads, intermediate 12288, vocab 49152, tied,
// every linear with a bias (use_bias), LayerNorm with bias.
//   q_proj, o_proj    2 x (3072 x 3072 + 3072)             = 18,880,512
//   k_proj, v_proj    2 x (3072 x 256 + 256)               =  1,573,376
//   c_fc              3072 x 12288 + 12288                 = 37,761,024
//   c_proj            12288 x 3072 + 3072                  = 37,751,808
//   two LayerNorms    2 x 2 x 3072                         =     12,288
//   layer                                                  = 95,979,008
//   total  30 x 95,979,008 + 49152 x 3072 + final 6,144    = 3,030,371,328

TEST(Starcoder2, Starcoder2_3BMatchesTheHubCount) {
  const ParamCount c = count_params(load_shipped_model("starcoder2-3b"));
  EXPECT_DOUBLE_EQ(c.total, 3'030'371'328.0);
  EXPECT_NEAR(c.total, 3.03e9, 0.005e9);  // the Hub's count of the safetensors, 3.03B
}

TEST(Starcoder2, EveryLayerSlidesAndEveryLinearHasABias) {
  const ModelConfig m = load_shipped_model("starcoder2-3b");
  for (const LayerSpec& l : m.layers) {
    EXPECT_EQ(l.attention, AttentionKind::sliding_window);
    EXPECT_EQ(l.window, 4096);
  }
  EXPECT_FALSE(m.gated_mlp);
  // use_bias false: 30 x (3072 + 2 x 256 + 3072 + 12288 + 3072) bias parameters fewer.
  EXPECT_DOUBLE_EQ(count_params(m).total - total("starcoder2-3b", {{"use_bias", false}}), 30.0 * 22016);
}

TEST(Starcoder2, KvHeadsThatDoNotDivideTheHeadsAreRefused) {
  EXPECT_EQ(refusal(shipped_with("starcoder2-3b", {{"num_key_value_heads", 5}})).rfind("num_key_value_heads:", 0), 0u);
}

// ---- Phi-2 -------------------------------------------------------------------------------------
// hidden 2560, 32 layers, 32 heads, intermediate 10240, vocab 51200, untied, one LayerNorm per
// layer (parallel block), biases everywhere including the LM head.
//   q, k, v, dense    4 x (2560 x 2560 + 2560)             = 26,224,640
//   fc1               2560 x 10240 + 10240                 = 26,224,640
//   fc2               10240 x 2560 + 2560                  = 26,216,960
//   input_layernorm   2 x 2560                             =      5,120
//   layer                                                  = 78,671,360
//   total  32 x 78,671,360 + embed 131,072,000 + lm_head 131,072,000 + its bias 51,200
//          + final_layernorm 5,120                         = 2,779,683,840
// Microsoft calls Phi-2 "a 2.7 billion-parameter language model": the figure truncates.

TEST(Phi, Phi2MatchesTheHandDerivation) {
  const ParamCount c = count_params(load_shipped_model("phi-2"));
  EXPECT_DOUBLE_EQ(c.total, 2'779'683'840.0);
  EXPECT_GE(c.total, 2.7e9);
  EXPECT_LT(c.total, 2.8e9);
}

TEST(Phi, LmHeadHasABiasAndOneNormFeedsTheParallelBlock) {
  const ModelConfig m = load_shipped_model("phi-2");
  EXPECT_TRUE(m.lm_head_bias);
  EXPECT_TRUE(m.parallel_block);
  EXPECT_EQ(m.norms_per_layer, 1);
  EXPECT_EQ(m.norm, NormKind::layer);
  EXPECT_TRUE(m.qkv_bias && m.o_bias && m.mlp_bias);
  EXPECT_DOUBLE_EQ(count_params(m).embedding, 2.0 * 51200 * 2560 + 51200);
}

TEST(Phi, QkLayernormIsALayerNormOfHeadDimOnQAndK) {
  // 32 layers x (q_layernorm + k_layernorm) x (weight + bias) x head_dim 80.
  EXPECT_DOUBLE_EQ(total("phi-2", {{"qk_layernorm", true}}) - total("phi-2", {}), 32.0 * 2 * 2 * 80);
}

TEST(Phi, HeadsThatDoNotDivideTheHiddenSizeAreRefused) {
  EXPECT_EQ(refusal(shipped_with("phi-2", {{"num_attention_heads", 33}, {"num_key_value_heads", 33}})).rfind("head_dim:", 0), 0u);
}

// ---- Phi-3-mini-4k -----------------------------------------------------------------------------
// hidden 3072, 32 layers, 32 heads (MHA), intermediate 8192, vocab 32064, untied, no biases.
//   qkv_proj          3072 x 3 x 3072                      = 28,311,552
//   o_proj            3072 x 3072                          =  9,437,184
//   gate_up_proj      3072 x 2 x 8192                      = 50,331,648
//   down_proj         8192 x 3072                          = 25,165,824
//   two RMSNorms      2 x 3072                             =      6,144
//   layer                                                  = 113,252,352
//   total  32 x 113,252,352 + 2 x 32064 x 3072 + norm 3,072 = 3,821,079,552

TEST(Phi3, Phi3MiniMatchesTheModelCard) {
  const ParamCount c = count_params(load_shipped_model("phi-3-mini-4k"));
  EXPECT_DOUBLE_EQ(c.total, 3'821'079'552.0);
  EXPECT_NEAR(c.total, 3.8e9, 0.05e9);  // model card: "3.8B parameters"
}

TEST(Phi3, FusedProjectionsCountLikeSeparateOnesAndEveryLayerSlides) {
  const ModelConfig m = load_shipped_model("phi-3-mini-4k");
  EXPECT_TRUE(m.gated_mlp);  // gate_up_proj holds the gate and up projections
  EXPECT_FALSE(m.qkv_bias || m.o_bias || m.mlp_bias);
  for (const LayerSpec& l : m.layers) {
    EXPECT_EQ(l.attention, AttentionKind::sliding_window);
    EXPECT_EQ(l.window, 2047);
  }
  // GQA (Phi-3-medium: 40 heads, 10 K/V heads) shrinks qkv_proj's K and V rows only.
  const ModelConfig gqa = parse(shipped_with("phi-3-mini-4k", {{"num_key_value_heads", 8}}));
  EXPECT_DOUBLE_EQ(count_params(m).total - count_params(gqa).total, 32.0 * 2 * 3072 * (3072 - 8 * 96));
}

TEST(Phi3, AttentionBiasIsRefused) {
  EXPECT_EQ(refusal(shipped_with("phi-3-mini-4k", {{"attention_bias", true}})).rfind("attention_bias:", 0), 0u);
}

// ---- Phi-3.5-MoE -------------------------------------------------------------------------------
// hidden 4096, 32 layers, 32 heads of 128, 8 K/V heads, 16 experts of 6400, top-2, vocab 32064,
// untied; q/k/v/o and the LM head carry biases; LayerNorm with bias.
//   q, o              2 x (4096 x 4096 + 4096)             =    33,562,624
//   k, v              2 x (4096 x 1024 + 1024)             =     8,390,656
//   experts           16 x 3 x 4096 x 6400                 = 1,258,291,200
//   router            4096 x 16                            =        65,536
//   two LayerNorms    2 x 2 x 4096                         =        16,384
//   layer                                                  = 1,300,326,400
//   total   32 x 1,300,326,400 + 2 x 32064 x 4096 + 32064 + final 8,192 = 41,873,153,344
//   active  total - 32 x 14 x 3 x 4096 x 6400              =  6,640,999,744

TEST(Phimoe, Phi35MoeMatchesTheModelCard) {
  const ParamCount c = count_params(load_shipped_model("phi-3.5-moe"));
  EXPECT_DOUBLE_EQ(c.total, 41'873'153'344.0);
  EXPECT_DOUBLE_EQ(c.active, 6'640'999'744.0);
  // Model card: "6.6B active parameters when using 2 experts" (rounded to 0.1B).
  EXPECT_NEAR(c.active, 6.6e9, 0.05e9);
}

TEST(Phimoe, LmHeadAndAttentionBiasesAndLayerNorms) {
  const ModelConfig m = load_shipped_model("phi-3.5-moe");
  EXPECT_TRUE(m.lm_head_bias);
  EXPECT_TRUE(m.qkv_bias && m.o_bias);
  EXPECT_FALSE(m.mlp_bias || m.router_bias);
  EXPECT_EQ(m.norm, NormKind::layer);
  for (const LayerSpec& l : m.layers) EXPECT_TRUE(l.moe);
  EXPECT_DOUBLE_EQ(count_params(m).total - total("phi-3.5-moe", {{"lm_head_bias", false}}), 32064.0);
}

TEST(Phimoe, TopKAboveTheExpertsIsRefused) {
  EXPECT_EQ(refusal(shipped_with("phi-3.5-moe", {{"num_experts_per_tok", 17}})).rfind("num_experts_per_tok:", 0), 0u);
}

// ---- Cohere: Command R (v01) -------------------------------------------------------------------
// hidden 8192, 40 layers, 64 heads (MHA), intermediate 22528, vocab 256000, tied; one
// CohereLayerNorm (weight only) per layer feeding attention and MLP in parallel.
//   q, k, v, o        4 x 8192^2                           =   268,435,456
//   gate, up, down    3 x 8192 x 22528                     =   553,648,128
//   input_layernorm   8192                                 =         8,192
//   layer                                                  =   822,091,776
//   total  40 x 822,091,776 + 256000 x 8192 + final 8,192  = 34,980,831,232

TEST(Cohere, CommandRMatchesTheModelCard) {
  const ParamCount c = count_params(load_shipped_model("command-r-v01"));
  EXPECT_DOUBLE_EQ(c.total, 34'980'831'232.0);
  EXPECT_NEAR(c.total, 35e9, 0.5e9);  // "a 35B parameter ... model"
}

TEST(Cohere, OneLayerNormWithoutBiasPerLayerAndTiedEmbeddings) {
  const ModelConfig m = load_shipped_model("command-r-v01");
  EXPECT_EQ(m.norm, NormKind::layer_no_bias);
  EXPECT_EQ(m.norms_per_layer, 1);
  EXPECT_TRUE(m.parallel_block);
  EXPECT_DOUBLE_EQ(count_params(m).norms, 41.0 * 8192);
  // tie_word_embeddings absent: CohereConfig ties.
  EXPECT_TRUE(parse(shipped_with("command-r-v01", {{"tie_word_embeddings", nullptr}})).tie_word_embeddings);
}

TEST(Cohere, QkNormIsAWeightPerHeadAndChannel) {
  // Command R+ style: use_qk_norm with 8 K/V heads. q_norm 64 x 128 and k_norm 8 x 128 weights.
  const ModelConfig m = parse(shipped_with("command-r-v01", {{"use_qk_norm", true}, {"num_key_value_heads", 8}}));
  EXPECT_EQ(m.qk_norm, QkNorm::full_width);
  const double without = total("command-r-v01", {{"num_key_value_heads", 8}});
  EXPECT_DOUBLE_EQ(count_params(m).total - without, 40.0 * (64 + 8) * 128);
}

TEST(Cohere, KvHeadsThatDoNotDivideTheHeadsAreRefused) {
  EXPECT_EQ(refusal(shipped_with("command-r-v01", {{"num_key_value_heads", 48}})).rfind("num_key_value_heads:", 0), 0u);
}

// ---- Cohere2: Command R7B ----------------------------------------------------------------------
// hidden 4096, 32 layers, 32 heads of 128, 8 K/V heads, intermediate 14336, vocab 256000, tied.
//   q, o              2 x 4096 x 4096                      =  33,554,432
//   k, v              2 x 4096 x 1024                      =   8,388,608
//   gate, up, down    3 x 4096 x 14336                     = 176,160,768
//   input_layernorm   4096                                 =       4,096
//   layer                                                  = 218,107,904
//   total  32 x 218,107,904 + 256000 x 4096 + final 4,096  = 8,028,033,024
// The card's "7B" counts differently (8.03B here, 1.05B of it the tied embedding).

TEST(Cohere2, CommandR7BMatchesTheHandDerivation) {
  const ParamCount c = count_params(load_shipped_model("command-r7b"));
  EXPECT_DOUBLE_EQ(c.total, 8'028'033'024.0);
  EXPECT_DOUBLE_EQ(c.embedding, 256000.0 * 4096);
}

TEST(Cohere2, ThreeSlidingLayersThenOneGlobalLayer) {
  const ModelConfig m = load_shipped_model("command-r7b");
  for (std::int64_t i = 0; i < m.num_layers; ++i) {
    const LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    if ((i + 1) % 4 == 0) {
      EXPECT_EQ(l.attention, AttentionKind::full) << "layer " << i;
    } else {
      EXPECT_EQ(l.attention, AttentionKind::sliding_window) << "layer " << i;
      EXPECT_EQ(l.window, 4096);
    }
  }
  // sliding_window absent: Cohere2Config's 4096; layer_types, when given, wins over the pattern.
  EXPECT_EQ(parse(shipped_with("command-r7b", {{"sliding_window", nullptr}})).layers[0].window, 4096);
  json all_full = shipped_with("command-r7b", {});
  all_full["layer_types"] = std::vector<std::string>(32, "full_attention");
  EXPECT_EQ(parse(all_full).layers[0].attention, AttentionKind::full);
}

TEST(Cohere2, QkNormAndAnotherHeadDimAreRefused) {
  EXPECT_EQ(refusal(shipped_with("command-r7b", {{"use_qk_norm", true}})).rfind("use_qk_norm:", 0), 0u);
  EXPECT_EQ(refusal(shipped_with("command-r7b", {{"head_dim", 256}})).rfind("head_dim:", 0), 0u);
  EXPECT_EQ(refusal(shipped_with("command-r7b", {{"use_parallel_block", false}})).rfind("use_parallel_block:", 0), 0u);
}

// ---- OLMo-7B -----------------------------------------------------------------------------------
// hidden 4096, 32 layers, 32 heads, intermediate 11008, vocab 50304, untied; every norm is
// OlmoLayerNorm without weight or bias.
//   q, k, v, o        4 x 4096^2                           =  67,108,864
//   gate, up, down    3 x 4096 x 11008                     = 135,266,304
//   layer                                                  = 202,375,168
//   total  32 x 202,375,168 + 2 x 50304 x 4096             = 6,888,095,744

TEST(Olmo, Olmo7BMatchesTheHandDerivation) {
  const ParamCount c = count_params(load_shipped_model("olmo-7b"));
  EXPECT_DOUBLE_EQ(c.total, 6'888'095'744.0);
  EXPECT_NEAR(c.total, 7e9, 0.5e9);  // "OLMo 7B"
}

TEST(Olmo, NormsHaveNoParameters) {
  const ModelConfig m = load_shipped_model("olmo-7b");
  EXPECT_EQ(m.norm, NormKind::non_parametric);
  EXPECT_DOUBLE_EQ(count_params(m).norms, 0.0);
  // attention_bias puts a bias on q, k, v and o: 4 x 4096 per layer.
  EXPECT_DOUBLE_EQ(total("olmo-7b", {{"attention_bias", true}}) - count_params(m).total, 32.0 * 4 * 4096);
}

TEST(Olmo, MissingIntermediateSizeIsRefused) {
  EXPECT_EQ(refusal(shipped_with("olmo-7b", {{"intermediate_size", nullptr}})).rfind("intermediate_size:", 0), 0u);
}

// ---- OLMo-2-1124-13B ---------------------------------------------------------------------------
// hidden 5120, 40 layers, 40 heads of 128 (MHA), intermediate 13824, vocab 100352, untied; RMSNorm
// after attention and after the MLP, q_norm and k_norm over the full projection width.
//   q, k, v, o        4 x 5120^2                           = 104,857,600
//   gate, up, down    3 x 5120 x 13824                     = 212,336,640
//   post norms        2 x 5120                             =      10,240
//   q_norm, k_norm    40 x 128 + 40 x 128                  =      10,240
//   layer                                                  = 317,214,720
//   total  40 x 317,214,720 + 2 x 100352 x 5120 + norm 5,120 = 13,716,198,400

TEST(Olmo2, Olmo2_13BMatchesTheHandDerivation) {
  const ParamCount c = count_params(load_shipped_model("olmo-2-1124-13b"));
  EXPECT_DOUBLE_EQ(c.total, 13'716'198'400.0);
}

TEST(Olmo2, PostNormsAndFullWidthQkNorms) {
  const ModelConfig m = load_shipped_model("olmo-2-1124-13b");
  EXPECT_EQ(m.norm, NormKind::rms);
  EXPECT_EQ(m.norms_per_layer, 2);
  EXPECT_EQ(m.qk_norm, QkNorm::full_width);
  EXPECT_DOUBLE_EQ(count_params(m).norms, 40.0 * (2 * 5120 + 2 * 5120) + 5120);
  // With 8 K/V heads k_proj, v_proj and k_norm shrink: 40 x (2 x 5120 x 4096 + 4096).
  EXPECT_DOUBLE_EQ(count_params(m).total - total("olmo-2-1124-13b", {{"num_key_value_heads", 8}}),
                   40.0 * (2.0 * 5120 * 4096 + 4096));
}

TEST(Olmo2, KvHeadsThatDoNotDivideTheHeadsAreRefused) {
  EXPECT_EQ(refusal(shipped_with("olmo-2-1124-13b", {{"num_key_value_heads", 3}})).rfind("num_key_value_heads:", 0), 0u);
}

// ---- Nemotron: Minitron-8B ---------------------------------------------------------------------
// hidden 4096, 32 layers, 48 heads of head_dim 128 (6144 wide), 8 K/V heads, ungated MLP of
// 16384, vocab 256000, untied; LayerNorm1P (with bias) twice per layer and at the end.
//   q_proj            4096 x 6144                          =  25,165,824
//   k_proj, v_proj    2 x 4096 x 1024                      =   8,388,608
//   o_proj            6144 x 4096                          =  25,165,824
//   up, down          2 x 4096 x 16384                     = 134,217,728
//   two LayerNorms    2 x 2 x 4096                         =      16,384
//   layer                                                  = 192,954,368
//   total  32 x 192,954,368 + 2 x 256000 x 4096 + final 8,192 = 8,271,699,968

TEST(Nemotron, Minitron8BMatchesTheHandDerivation) {
  const ParamCount c = count_params(load_shipped_model("minitron-8b"));
  EXPECT_DOUBLE_EQ(c.total, 8'271'699'968.0);
  EXPECT_NEAR(c.total, 8e9, 0.5e9);  // "Minitron-8B"
}

TEST(Nemotron, HeadDimFromTheConfigAndAnUngatedMlp) {
  const ModelConfig m = load_shipped_model("minitron-8b");
  EXPECT_EQ(m.head_dim, 128);  // 48 x 128 = 6144, not hidden_size
  EXPECT_FALSE(m.gated_mlp);
  EXPECT_EQ(m.norm, NormKind::layer);
  EXPECT_FALSE(m.tie_word_embeddings);
  // mlp_bias puts a bias on up_proj (16384) and down_proj (4096).
  EXPECT_DOUBLE_EQ(total("minitron-8b", {{"mlp_bias", true}}) - count_params(m).total, 32.0 * (16384 + 4096));
}

TEST(Nemotron, MissingKvHeadsAreRefused) {
  EXPECT_EQ(refusal(shipped_with("minitron-8b", {{"num_key_value_heads", nullptr}})).rfind("num_key_value_heads:", 0), 0u);
}

// ---- DBRX --------------------------------------------------------------------------------------
// d_model 6144, 40 layers, 48 heads of 128, 8 K/V heads, 16 experts of 10752, top-4,
// vocab 100352, untied; LayerNorm without bias; no linear biases.
//   Wqkv              6144 x (6144 + 2 x 8 x 128)          =    50,331,648
//   out_proj          6144 x 6144                          =    37,748,736
//   norm_1, norm_2    2 x 6144                             =        12,288
//   router            6144 x 16                            =        98,304
//   experts           16 x 3 x 6144 x 10752                = 3,170,893,824
//   layer                                                  = 3,259,084,800
//   total   40 x 3,259,084,800 + 2 x 100352 x 6144 + norm_f 6,144 = 131,596,523,520
//   active  total - 40 x 12 x 3 x 6144 x 10752             =  36,469,708,800

TEST(Dbrx, DbrxMatchesTheModelCard) {
  const ParamCount c = count_params(load_shipped_model("dbrx-instruct"));
  EXPECT_DOUBLE_EQ(c.total, 131'596'523'520.0);
  EXPECT_DOUBLE_EQ(c.active, 36'469'708'800.0);
  // Model card: "132B total parameters of which 36B parameters are active" (rounded to 1B).
  EXPECT_NEAR(c.total, 132e9, 0.5e9);
  EXPECT_NEAR(c.active, 36e9, 0.5e9);
}

TEST(Dbrx, NestedAttentionAndExpertSizesAndBiasFreeNorms) {
  const ModelConfig m = load_shipped_model("dbrx-instruct");
  EXPECT_EQ(m.num_kv_heads, 8);  // attn_config.kv_n_heads
  EXPECT_EQ(m.num_experts, 16);
  EXPECT_EQ(m.experts_per_token, 4);
  EXPECT_EQ(m.moe_intermediate_size, 10752);
  EXPECT_EQ(m.norm, NormKind::layer_no_bias);
  EXPECT_DOUBLE_EQ(count_params(m).norms, 81.0 * 6144);
}

TEST(Dbrx, TiedEmbeddingsAndMissingNestedSizesAreRefused) {
  EXPECT_EQ(refusal(shipped_with("dbrx-instruct", {{"tie_word_embeddings", true}})).rfind("tie_word_embeddings:", 0), 0u);
  json j = shipped_with("dbrx-instruct", {});
  j["ffn_config"].erase("moe_top_k");
  EXPECT_EQ(refusal(j).rfind("ffn_config.moe_top_k: missing", 0), 0u);
  EXPECT_EQ(refusal(shipped_with("dbrx-instruct", {{"attn_config", 8}})).rfind("attn_config: must be an object", 0), 0u);
}

// A K/V head count that does not divide the heads is named by the key the config spells it
// with: DBRX's attn_config.kv_n_heads, Falcon's num_kv_heads (not "num_key_value_heads", a key
// neither config has).
TEST(Dbrx, KvHeadsThatDoNotDivideAreNamedByTheirNestedKey) {
  json j = shipped_with("dbrx-instruct", {});
  j["attn_config"]["kv_n_heads"] = 5;  // 48 heads
  EXPECT_EQ(refusal(j).rfind("attn_config.kv_n_heads: must divide n_heads (48), got 5", 0), 0u) << refusal(j);
}

TEST(Falcon, KvHeadsThatDoNotDivideAreNamedByTheirKey) {
  const std::string why = refusal(shipped_with("falcon-40b", {{"num_kv_heads", 5}}));  // 128 heads
  EXPECT_EQ(why.rfind("num_kv_heads: must divide num_attention_heads (128), got 5", 0), 0u) << why;
}

}  // namespace
}  // namespace tutor::b05
