// B05: the calculator against published numbers and hand derivations. Every expected value
// is written out from the model's shapes (or quoted from its model card) beside the check;
// none comes from running the code under test.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "calculator.hpp"
#include "model.hpp"

namespace tutor::b05 {
namespace {

/// |got / want - 1| <= rel: "within 0.5% of the model card" is WithinRel(got, card, 0.005).
::testing::AssertionResult WithinRel(double got, double want, double rel) {
  const double err = std::abs(got / want - 1);
  if (err <= rel) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << got << " is " << 100 * err << "% from " << want << " (allowed "
                                       << 100 * rel << "%)";
}

// ---- parameters ---------------------------------------------------------------------------

TEST(ParamCount, Llama31_8B_Is8_03B) {
  // hidden 4096, 32 layers, 32 heads x 128, 8 KV heads, MLP 14336, vocab 128256, untied.
  // per layer: q 4096*4096 = 16,777,216; k, v 4096*1024 = 4,194,304 each; o 16,777,216
  //            -> attention 41,943,040; MLP 3*4096*14336 = 176,160,768; 2 RMSNorms 8,192
  //            -> 218,112,000; x 32 = 6,979,584,000
  // embeddings 2 * 128256 * 4096 = 1,050,673,152; final norm 4,096
  // total 8,030,261,248 (model card: 8.03B)
  const ParamCount p = count_params(load_shipped_model("llama-3.1-8b"));
  EXPECT_DOUBLE_EQ(p.total, 8'030'261'248.0);
  EXPECT_TRUE(WithinRel(p.total, 8.03e9, 0.005));
  EXPECT_DOUBLE_EQ(p.active, p.total);
  EXPECT_DOUBLE_EQ(p.embedding, 1'050'673'152.0);
  EXPECT_DOUBLE_EQ(p.attention, 32 * 41'943'040.0);
  EXPECT_DOUBLE_EQ(p.mlp, 32 * 176'160'768.0);
  EXPECT_DOUBLE_EQ(p.norms, 32 * 8'192.0 + 4'096);  // two norms per layer, not one
}

TEST(ParamCount, Llama2_70B_Is68_98B) {
  // hidden 8192, 80 layers, 64 heads x 128, 8 KV heads, MLP 28672, vocab 32000, untied.
  // per layer: q, o 8192*8192 = 67,108,864 each; k, v 8192*1024 = 8,388,608 each
  //            -> 150,994,944; MLP 3*8192*28672 = 704,643,072; norms 16,384 -> 855,654,400
  // x 80 = 68,452,352,000; embeddings 2*32000*8192 = 524,288,000; final norm 8,192
  // total 68,976,648,192 (68.98B; the model is named 70B)
  const ParamCount p = count_params(load_shipped_model("llama-2-70b"));
  EXPECT_DOUBLE_EQ(p.total, 68'976'648'192.0);
  EXPECT_TRUE(WithinRel(p.total, 68.98e9, 0.005));
}

TEST(ParamCount, Llama2_7B_Is6_74B) {
  // 32 layers x (4*4096^2 + 3*4096*11008 + 2*4096) = 32 x 202,383,360 = 6,476,267,520;
  // + 2*32000*4096 = 262,144,000 + 4,096 = 6,738,415,616 (Hugging Face: 6.74B).
  EXPECT_DOUBLE_EQ(count_params(load_shipped_model("llama-2-7b")).total, 6'738'415'616.0);
}

TEST(ParamCount, Mixtral8x7B_Is46_7BTotal12_9BActive) {
  // hidden 4096, 32 layers, 32 heads x 128, 8 KV heads, 8 experts of 14336, top-2, vocab 32000.
  // per layer: attention 41,943,040; expert 3*4096*14336 = 176,160,768; router 4096*8 = 32,768;
  //            norms 8,192
  // total  = 32 x (41,943,040 + 8*176,160,768 + 32,768 + 8,192) + 2*32000*4096 + 4096
  //        = 32 x 1,451,270,144 + 262,144,000 + 4,096 = 46,702,792,704
  // active = total - 32 x 6 x 176,160,768 = 12,879,925,248
  // Mixtral paper (Jiang et al. 2024): 46.7B total, 12.9B active (embedding + head counted).
  const ParamCount p = count_params(load_shipped_model("mixtral-8x7b"));
  EXPECT_DOUBLE_EQ(p.total, 46'702'792'704.0);
  EXPECT_DOUBLE_EQ(p.active, 12'879'925'248.0);
  EXPECT_TRUE(WithinRel(p.total, 46.7e9, 0.005));
  EXPECT_TRUE(WithinRel(p.active, 12.9e9, 0.005));
}

TEST(ParamCount, DeepSeekV3_Is671BTotalAbout37BActive) {
  // How we count: the 61 main layers, embedding and head; the multi-token-prediction module
  // (num_nextn_predict_layers = 1; DeepSeek README_WEIGHTS.md: 11.5B unique + shared embedding
  // and head, "685B" on the Hub = 671B + 14B) is not part of the model card's 671B.
  // MLA per layer: q_a 7168*1536 = 11,010,048; q_b 1536*128*192 = 37,748,736;
  //   kv_a 7168*(512+64) = 4,128,768; kv_b 512*128*(128+128) = 16,777,216;
  //   o 128*128*7168 = 117,440,512 -> 187,105,280
  // norms per layer: 2*7168 + q_a_norm 1536 + kv_a_norm 512 = 16,384
  // dense MLP (layers 0-2): 3*7168*18432 = 396,361,728
  // MoE MLP (layers 3-60): (256 routed + 1 shared) * 3*7168*2048 = 257 * 44,040,192
  //   = 11,318,329,344 + router 256*7168 = 1,835,008 + correction bias 256 -> 11,320,164,608
  // total = 3 x 583,483,392 + 58 x 11,507,286,272 + 2*129280*7168 + 7168 = 671,026,419,200
  // active: MoE layer uses 8 routed + 1 shared experts: 58 x (187,105,280 + 9*44,040,192
  //   + 1,835,264 + 16,384) + 3 x 583,483,392 + 1,853,358,080 + 7,168 = 37,552,297,472
  // DeepSeek's own "36.6B activated (incl. 0.9B output head)" leaves out the input
  // embedding (129280*7168 = 926,679,040): 36,625,618,432.
  const ParamCount p = count_params(load_shipped_model("deepseek-v3"));
  EXPECT_DOUBLE_EQ(p.total, 671'026'419'200.0);
  EXPECT_DOUBLE_EQ(p.active, 37'552'297'472.0);
  EXPECT_TRUE(WithinRel(p.total, 671e9, 0.005));
  EXPECT_TRUE(WithinRel(p.active, 37e9, 0.02));  // "about 37B"
  EXPECT_TRUE(WithinRel(p.active_without_input_embedding, 36.6e9, 0.005));
}

TEST(ParamCount, GptOss120B_Is116_83BTotal5_13BActive) {
  // openai/gpt-oss gpt_oss/torch/model.py, 36 layers:
  // attention: qkv 2880*(64+2*8)*64 = 14,745,600 + bias 5,120; out 4096*2880 = 11,796,480
  //   + bias 2,880; sinks 64 -> 26,550,144
  // experts: mlp1 2880*5760 + 5760 = 16,594,560; mlp2 2880*2880 + 2880 = 8,297,280
  //   -> 24,891,840 each, x 128 = 3,186,155,520; router 2880*128 + 128 = 368,768
  // norms 2*2880 = 5,760; per layer 3,213,080,192; x 36 = 115,670,886,912
  // embedding + unembedding 2*201088*2880 = 1,158,266,880; final norm 2,880
  // total 116,829,156,672 (OpenAI gpt-oss model card: 116.83B)
  // active = total - 36 x 124 unused experts x 24,891,840 = 5,711,982,912; without the input
  // embedding (201088*2880 = 579,133,440): 5,132,849,472 (model card: 5.13B active).
  const ParamCount p = count_params(load_shipped_model("gpt-oss-120b"));
  EXPECT_DOUBLE_EQ(p.total, 116'829'156'672.0);
  EXPECT_DOUBLE_EQ(p.active_without_input_embedding, 5'132'849'472.0);
  EXPECT_TRUE(WithinRel(p.total, 116.83e9, 0.005));
  EXPECT_TRUE(WithinRel(p.active_without_input_embedding, 5.13e9, 0.005));
}

TEST(ParamCount, TyingEmbeddingsRemovesExactlyVocabTimesHidden) {
  ModelConfig m = load_shipped_model("llama-3.1-8b");
  const double untied = count_params(m).total;
  m.tie_word_embeddings = true;
  EXPECT_DOUBLE_EQ(untied - count_params(m).total, 128256.0 * 4096);
}

TEST(ParamCount, WeightBytesApplyTheDtypeOnce) {
  const ModelConfig m = load_shipped_model("llama-3.1-8b");
  EXPECT_DOUBLE_EQ(weight_bytes(m, 2), 2 * 8'030'261'248.0);  // bf16: 16.06 GB
  EXPECT_DOUBLE_EQ(weight_bytes(m, 1), 8'030'261'248.0);      // fp8
  EXPECT_THROW(weight_bytes(m, 0), std::invalid_argument);
}

// ---- KV cache -------------------------------------------------------------------------------

TEST(KvCache, Llama31_70B_Bf16Is327680BytesPerToken) {
  // 80 layers x 2 (K, V) x 8 KV heads x 128 head_dim x 2 B = 327,680 (not 64 query heads).
  const ModelConfig m = load_shipped_model("llama-3.1-70b");
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_full(m, 2), 327'680.0);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(m, 2, 8192), 327'680.0);
  EXPECT_DOUBLE_EQ(kv_bytes_for_context(m, 2, 8192), 327'680.0 * 8192);
}

TEST(KvCache, Llama2_7B_Fp16Is524288BytesPerToken) {
  // 32 layers x 2 x 32 KV heads (MHA) x 128 x 2 B = 524,288.
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_full(load_shipped_model("llama-2-7b"), 2), 524'288.0);
}

TEST(KvCache, DeepSeekV3_MlaBf16Is70272BytesPerToken) {
  // DeepSeek-V2 sec. 2.1: (d_c + d_h^R) per token per layer = (512 + 64) x 2 B x 61 layers
  // = 70,272; full per-head K/V would be 61 x 2 x 128 x 128 x 2 = 3,997,696.
  const ModelConfig m = load_shipped_model("deepseek-v3");
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_layer(m, 0, 2), 1'152.0);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_full(m, 2), 70'272.0);
}

TEST(KvCache, Gemma3_27B_SlidingWindowAt32kVersusAllGlobal) {
  // Per layer per token: 2 x 16 KV heads x 128 x 2 B = 8,192 B. 10 global layers keep all
  // 32,768 tokens, 52 local layers keep 1,024:
  //   10 x 32,768 x 8,192 + 52 x 1,024 x 8,192 = 2,684,354,560 + 436,207,616 = 3,120,562,176 B
  // If all 62 layers were global: 62 x 32,768 x 8,192 = 16,642,998,272 B (5.33x more).
  const ModelConfig m = load_shipped_model("gemma-3-27b");
  EXPECT_DOUBLE_EQ(kv_bytes_for_context(m, 2, 32768), 3'120'562'176.0);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_uncapped(m, 2) * 32768, 16'642'998'272.0);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_full(m, 2), 10 * 8'192.0);  // growth past the window
  // Below the window every layer keeps every token: 62 x 8,192 per token.
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(m, 2, 1024), 62 * 8'192.0);
}

TEST(KvCache, Mistral7B_RollingBufferStopsAtTheWindow) {
  // Mistral 7B paper sec. 2: every layer keeps the last 4,096 tokens: at 32k context the cache
  // holds 32 x 2 x 8 x 128 x 2 B x 4,096 = 536,870,912 B, the same as at 4,096.
  const ModelConfig m = load_shipped_model("mistral-7b");
  EXPECT_DOUBLE_EQ(kv_bytes_for_context(m, 2, 32768), 536'870'912.0);
  EXPECT_DOUBLE_EQ(kv_bytes_for_context(m, 2, 4096), 536'870'912.0);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_full(m, 2), 0.0);
}

TEST(KvCache, GptOss120B_HalfTheLayersGrow) {
  // 36 layers x 2 x 8 x 64 x 2 B = 2,048 B per layer; 18 full layers grow: 36,864 B per token.
  // At 4,096 tokens: 18 x 4,096 x 2,048 + 18 x 128 x 2,048 = 150,994,944 + 4,718,592.
  const ModelConfig m = load_shipped_model("gpt-oss-120b");
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_full(m, 2), 36'864.0);
  EXPECT_DOUBLE_EQ(kv_bytes_for_context(m, 2, 4096), 155'713'536.0);
}

TEST(KvCache, Fp8HalvesAndBadArgumentsThrow) {
  const ModelConfig m = load_shipped_model("llama-3.1-70b");
  EXPECT_DOUBLE_EQ(kv_bytes_per_token_full(m, 1), 163'840.0);
  EXPECT_THROW(kv_bytes_for_context(m, 2, 0), std::invalid_argument);
  EXPECT_THROW(kv_bytes_for_context(m, 0, 10), std::invalid_argument);
  EXPECT_THROW(kv_bytes_per_token_layer(m, 80, 2), std::out_of_range);
}

// ---- FLOPs --------------------------------------------------------------------------------

TEST(Flops, LinearIsTwiceTheMatricesATokenMultipliesBy) {
  // Llama-3.1-8B: matrices = total - input embedding - norms = 8,030,261,248 - 525,336,576
  // - 266,240 = 7,504,658,432 (the LM head stays: it is a matmul); x 2 = 15,009,316,864.
  const ModelConfig m = load_shipped_model("llama-3.1-8b");
  EXPECT_DOUBLE_EQ(decode_flops(m, 1).linear, 15'009'316'864.0);
  EXPECT_DOUBLE_EQ(prefill_flops(m, 100).linear, 100 * 15'009'316'864.0);
}

TEST(Flops, MoeLinearCountsOnlyTheRoutedExperts) {
  // Mixtral: 2 x (active - input embedding - norms) = 2 x (12,879,925,248 - 131,072,000
  // - 266,240) = 25,497,174,016.
  EXPECT_DOUBLE_EQ(decode_flops(load_shipped_model("mixtral-8x7b"), 1).linear, 25'497'174'016.0);
}

TEST(Flops, PrefillAttentionIsCausal) {
  // Llama-3.1-8B, a 4-token prompt: queries see 1, 2, 3, 4 keys = 10 pairs per layer (not 16).
  // Per pair: 2 x 32 heads x (128 + 128) = 16,384 FLOPs; x 10 x 32 layers = 5,242,880.
  const ModelConfig m = load_shipped_model("llama-3.1-8b");
  EXPECT_DOUBLE_EQ(prefill_flops(m, 4).attention, 5'242'880.0);
  EXPECT_DOUBLE_EQ(prefill_flops_per_token(m, 4).attention, 5'242'880.0 / 4);
}

TEST(Flops, DecodeAttentionReadsTheWholeContext) {
  // One token at context 8,192: 32 layers x 16,384 x 8,192 = 4,294,967,296.
  EXPECT_DOUBLE_EQ(decode_flops(load_shipped_model("llama-3.1-8b"), 8192).attention, 4'294'967'296.0);
}

TEST(Flops, SlidingWindowCapsTheKeys) {
  // gpt-oss-120b, prompt of 256: sliding layers see sum_t min(t, 128) = 128*129/2 + 128*128
  // = 24,640 pairs, full layers 256*257/2 = 32,896. Per pair 2 x 64 x (64 + 64) = 16,384.
  // 18 x 16,384 x (24,640 + 32,896) = 18 x 16,384 x 57,536 = 16,968,056,832.
  const ModelConfig m = load_shipped_model("gpt-oss-120b");
  EXPECT_DOUBLE_EQ(prefill_flops(m, 256).attention, 16'968'056'832.0);
  // Decode at 256: 18 x 16,384 x (128 + 256) = 113,246,208.
  EXPECT_DOUBLE_EQ(decode_flops(m, 256).attention, 113'246'208.0);
}

TEST(Flops, MlaPrefillDecompressesDecodeReadsTheLatent) {
  // DeepSeek-V3 per pair per layer: prefill 2 x 128 x (192 + 128) = 81,920;
  // decode (absorbed) 2 x 128 x (576 + 512) = 278,528. At context 1, x 61 layers.
  const ModelConfig m = load_shipped_model("deepseek-v3");
  EXPECT_DOUBLE_EQ(prefill_flops(m, 1).attention, 61 * 81'920.0);
  EXPECT_DOUBLE_EQ(decode_flops(m, 1).attention, 61 * 278'528.0);
}

// ---- activations and dtypes ---------------------------------------------------------------

TEST(Activations, PeakIsTheLargerStageOfOneLayer) {
  // Llama-3.1-8B bf16: attention stage 2*4096 + 4096 (q) + 2*1024 (k, v) + 4096 (out) = 18,432
  // elements; MLP stage 2*4096 + 2*14336 = 36,864 elements -> 73,728 B, the MLP stage.
  const ActivationMemory a = activation_memory(load_shipped_model("llama-3.1-8b"), 2);
  EXPECT_DOUBLE_EQ(a.attention_bytes_per_token, 36'864.0);
  EXPECT_DOUBLE_EQ(a.peak_bytes_per_token, 73'728.0);
  EXPECT_EQ(a.peak_stage, "mlp");
  EXPECT_DOUBLE_EQ(a.logits_bytes_per_sequence, 128256.0 * 4);
}

TEST(Dtypes, BytesPerElement) {
  EXPECT_EQ(dtype_bytes("bf16"), 2.0);
  EXPECT_EQ(dtype_bytes("FP16"), 2.0);
  EXPECT_EQ(dtype_bytes("fp8"), 1.0);
  EXPECT_EQ(dtype_bytes("fp32"), 4.0);
  EXPECT_FALSE(dtype_bytes("int3").has_value());
}

}  // namespace
}  // namespace tutor::b05
