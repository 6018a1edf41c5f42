// B05 profile: the sub-ops' FLOPs and bytes and their roofline times, against hand derivations
// for Llama-3.1-8B (hidden 4096, 32 query / 8 KV heads x 128, MLP 14336; the fused q/k/v
// projection is 4096 + 2 x 1024 = 6144 wide), and against the calculator they must agree with.
// Every expected number is worked out in the comment beside it.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "calculator.hpp"
#include "model.hpp"
#include "profile_model.hpp"

namespace tutor::b05 {
namespace {

const LayerShape kLlama8B{4096, 32, 8, 128, 14336};

const SubOpCost& cost_of(const std::vector<SubOpCost>& costs, SubOp op) {
  for (const auto& c : costs)
    if (c.op == op) return c;
  throw std::logic_error("no such sub-op");
}

TEST(ProfileLayer, Llama31_8B_ShapeFromItsConfig) {
  const LayerShape l = layer_shape(load_shipped_model("llama-3.1-8b"));
  EXPECT_EQ(l.hidden, 4096);
  EXPECT_EQ(l.heads, 32);
  EXPECT_EQ(l.kv_heads, 8);
  EXPECT_EQ(l.head_dim, 128);  // 4096 / 32
  EXPECT_EQ(l.intermediate, 14336);
  EXPECT_EQ(l.qkv_width(), 6144);  // 32 x 128 + 2 x 8 x 128
}

TEST(ProfileLayer, RefusesWhatIsNotLlamaStyleWithOneLineNamingTheFeature) {
  EXPECT_EQ(llama_style_refusal(load_shipped_model("llama-3.1-8b")), "");
  EXPECT_EQ(llama_style_refusal(load_shipped_model("llama-2-7b")), "");  // MHA: GQA group 1 is still Llama-style
  EXPECT_NE(llama_style_refusal(load_shipped_model("gemma-3-27b")).find("4 norms per layer"), std::string::npos);
  EXPECT_NE(llama_style_refusal(load_shipped_model("mixtral-8x7b")).find("mixture-of-experts"), std::string::npos);
  EXPECT_NE(llama_style_refusal(load_shipped_model("deepseek-v3")).find("MLA"), std::string::npos);
  EXPECT_NE(llama_style_refusal(load_shipped_model("qwen2.5-7b")).find("biases"), std::string::npos);
  EXPECT_NE(llama_style_refusal(load_shipped_model("qwen3-8b")).find("normalises q and k"), std::string::npos);
  EXPECT_NE(llama_style_refusal(load_shipped_model("gpt2")).find("not RMSNorm"), std::string::npos);
  // Gemma 1 has Llama's norms and shapes but a GELU gate (GeGLU, Gemma Team 2024, sec. 2).
  EXPECT_NE(llama_style_refusal(load_shipped_model("gemma-7b")).find("GeGLU"), std::string::npos);
  EXPECT_THROW(layer_shape(load_shipped_model("gemma-3-27b")), std::invalid_argument);
}

TEST(ProfilePhase, LabelsKeysAndTheDefaultSet) {
  const Phase prefill{PhaseKind::prefill, 2, 3}, decode{PhaseKind::decode, 4, 10};
  EXPECT_EQ(prefill.tokens(), 6);
  EXPECT_DOUBLE_EQ(prefill.key_visits(), 12);  // per sequence 1 + 2 + 3 = 6 causal pairs, x 2 sequences
  EXPECT_EQ(decode.tokens(), 4);
  EXPECT_DOUBLE_EQ(decode.key_visits(), 40);   // 4 queries x 10 keys
  EXPECT_EQ(prefill.label(), "prefill 2x3");
  EXPECT_EQ(decode.label(), "decode 4 @ 10");
  EXPECT_EQ(decode.id(), "decode_b4_c10");
  const auto set = default_phases();  // prefill 1x2048; decode 1, 32, 256 at 2048
  ASSERT_EQ(set.size(), 4u);
  EXPECT_EQ(set[0].id(), "prefill_b1_s2048");
  EXPECT_EQ(set[3].id(), "decode_b256_c2048");
}

TEST(ProfileCosts, Llama31_8B_Prefill1x2048ByHand) {
  const auto costs = layer_costs(kLlama8B, {PhaseKind::prefill, 1, 2048});
  ASSERT_EQ(costs.size(), 11u);
  // attn_norm: 2 B x (2 x 2048 x 4096 + 4096) = 2 x 16,781,312 = 33,562,624 B, no FLOPs.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::attn_norm).bytes, 33'562'624);
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::attn_norm).flops, 0);
  // qkv_proj: 2 x 2048 x 4096 x 6144 = 103,079,215,104 FLOPs;
  // 2 B x (2048 x 4096 + 4096 x 6144 + 2048 x 6144) = 2 x (8,388,608 + 25,165,824 + 12,582,912) = 92,274,688 B,
  // of which the weight is 2 x 25,165,824 = 50,331,648 B.
  const SubOpCost& qkv = cost_of(costs, SubOp::qkv_proj);
  EXPECT_DOUBLE_EQ(qkv.flops, 103'079'215'104);
  EXPECT_DOUBLE_EQ(qkv.bytes, 92'274'688);
  EXPECT_DOUBLE_EQ(qkv.weight_bytes, 50'331'648);
  EXPECT_EQ(qkv.reduction, 4096);
  EXPECT_EQ(qkv.flops_formula, "2 x 2048 x 4096 x 6144");
  // rope: 6144 values per token read and written: 2 B x 2 x 2048 x 6144 = 50,331,648 B.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::rope).bytes, 50'331'648);
  // attention: 4 x 32 x 128 x (2048 x 2049 / 2 = 2,098,176 causal pairs) = 34,376,515,584 FLOPs;
  // q and the output 2 x 2048 x 4096, K and V 2 x 2048 x 1024: 2 B x 20,971,520 = 41,943,040 B.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::attention).flops, 34'376'515'584);
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::attention).bytes, 41'943'040);
  // o_proj: 2 x 2048 x 4096 x 4096 = 68,719,476,736 FLOPs; 2 B x (8,388,608 + 16,777,216 + 8,388,608) = 67,108,864 B.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::o_proj).flops, 68'719'476'736);
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::o_proj).bytes, 67'108'864);
  // attn_residual: 2 B x 3 x 2048 x 4096 = 50,331,648 B.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::attn_residual).bytes, 50'331'648);
  // gate_up_proj: 2 x 2048 x 4096 x 28672 = 481,036,337,152 FLOPs;
  // 2 B x (8,388,608 + 117,440,512 + 58,720,256) = 369,098,752 B.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::gate_up_proj).flops, 481'036'337'152);
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::gate_up_proj).bytes, 369'098'752);
  // silu_mul: 2 B x 3 x 2048 x 14336 = 176,160,768 B.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::silu_mul).bytes, 176'160'768);
  // down_proj: 2 x 2048 x 14336 x 4096 = 240,518,168,576 FLOPs;
  // 2 B x (29,360,128 + 58,720,256 + 8,388,608) = 192,937,984 B.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::down_proj).flops, 240'518'168'576);
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::down_proj).bytes, 192'937'984);
}

TEST(ProfileCosts, Llama31_8B_Decode256At2048ByHand) {
  const auto costs = layer_costs(kLlama8B, {PhaseKind::decode, 256, 2048});
  // qkv_proj: 2 x 256 x 4096 x 6144 = 12,884,901,888 FLOPs; 2 B x (1,048,576 + 25,165,824 + 1,572,864) = 55,574,528 B.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::qkv_proj).flops, 12'884'901'888);
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::qkv_proj).bytes, 55'574'528);
  // attention: 4 x 32 x 128 x 256 x 2048 = 8,589,934,592 FLOPs; every sequence reads its own cache:
  // 2 B x (2 x 256 x 4096 + 2 x 256 x 2048 x 1024) = 2 x 1,075,838,976 = 2,151,677,952 B.
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::attention).flops, 8'589'934'592);
  EXPECT_DOUBLE_EQ(cost_of(costs, SubOp::attention).bytes, 2'151'677'952);
  EXPECT_EQ(cost_of(costs, SubOp::attention).flops_formula, "4 x 32 x 128 x (256 x 2048)");
}

TEST(ProfileCosts, Llama31_8B_SumsToTheCalculator) {
  // The calculator counts the whole model: 32 layers and the LM head (2 x 128256 x 4096 per token).
  const ModelConfig m = load_shipped_model("llama-3.1-8b");
  const double lm_head = 2.0 * 128256 * 4096;
  for (const std::int64_t s : {1, 17, 2048}) {
    double linear = 0, attention = 0;
    for (const auto& c : layer_costs(kLlama8B, {PhaseKind::prefill, 1, s}))
      (c.op == SubOp::attention ? attention : linear) += c.flops;
    const TokenFlops calc = prefill_flops(m, s);
    EXPECT_DOUBLE_EQ(32 * linear + lm_head * double(s), calc.linear) << "prefill " << s;
    EXPECT_DOUBLE_EQ(32 * attention, calc.attention) << "prefill " << s;
  }
  for (const std::int64_t b : {1, 32, 256}) {
    double linear = 0, attention = 0;
    for (const auto& c : layer_costs(kLlama8B, {PhaseKind::decode, b, 2048}))
      (c.op == SubOp::attention ? attention : linear) += c.flops;
    const TokenFlops calc = decode_flops(m, 2048);  // one sequence
    EXPECT_DOUBLE_EQ(32 * linear + lm_head * double(b), double(b) * calc.linear) << "decode batch " << b;
    EXPECT_DOUBLE_EQ(32 * attention, double(b) * calc.attention) << "decode batch " << b;
  }
}

TEST(ProfilePrediction, RooflineTimesByHand) {
  const Roofs roofs{1000, 5000};  // 1000 TFLOP/s, 5000 GB/s: ridge 200 FLOP/B
  // qkv_proj, prefill 1x2048: compute 103,079,215,104 / 1e15 s = 0.103079215104 ms;
  // memory 92,274,688 / 5e12 s = 0.0184549376 ms: compute-bound.
  const Prediction p = predict(103'079'215'104, 92'274'688, roofs);
  EXPECT_DOUBLE_EQ(p.compute_ms, 0.103079215104);
  EXPECT_DOUBLE_EQ(p.memory_ms, 0.0184549376);
  EXPECT_DOUBLE_EQ(p.time_ms, 0.103079215104);
  EXPECT_EQ(p.bound, "compute");
  // qkv_proj, decode 1: 2 x 4096 x 6144 = 50,331,648 FLOPs -> 5.0331648e-5 ms;
  // 2 B x (4096 + 25,165,824 + 6144) = 50,352,128 B -> 0.0100704256 ms: memory-bound.
  const auto decode = layer_costs(kLlama8B, {PhaseKind::decode, 1, 2048});
  const Prediction q = predict(cost_of(decode, SubOp::qkv_proj).flops, cost_of(decode, SubOp::qkv_proj).bytes, roofs);
  EXPECT_DOUBLE_EQ(q.compute_ms, 5.0331648e-5);
  EXPECT_DOUBLE_EQ(q.memory_ms, 0.0100704256);
  EXPECT_EQ(q.bound, "memory");
  // attn_norm, decode 1: 2 B x (2 x 4096 + 4096) = 24,576 B -> 4.9152e-6 ms, under a 0.005 ms launch.
  const Prediction n = predict(0, cost_of(decode, SubOp::attn_norm).bytes, roofs);
  EXPECT_DOUBLE_EQ(n.time_ms, 4.9152e-6);
  EXPECT_EQ(bound_with_launch(n, 0.005), "launch");
  EXPECT_EQ(bound_with_launch(q, 0.005), "memory");  // 0.0100704256 ms > 0.005 ms
}

TEST(ProfilePrediction, RefusesWhatHasNoTime) {
  EXPECT_THROW(predict(0, 0, {1000, 5000}), std::invalid_argument);
  EXPECT_THROW(predict(-1, 10, {1000, 5000}), std::invalid_argument);
  EXPECT_THROW(predict(10, 10, {0, 5000}), std::invalid_argument);
  EXPECT_THROW(predict(10, 10, {1000, INFINITY}), std::invalid_argument);
  EXPECT_THROW(layer_costs({0, 1, 1, 2, 1}, {}), std::invalid_argument);
}

TEST(ProfileTolerance, TwoBf16RoundingsPlusFp32Accumulation) {
  // 2 x 2^-8 + 8 x 2^-24 x sqrt(k): k = 1 -> 0.0078125 + 4.76837158203125e-7;
  // k = 4096 -> 0.0078125 + 8 x 2^-24 x 64 = 0.0078125 + 2^-15 = 0.007843017578125.
  EXPECT_DOUBLE_EQ(bf16_output_tolerance(1), 0.0078125 + 4.76837158203125e-7);
  EXPECT_DOUBLE_EQ(bf16_output_tolerance(4096), 0.007843017578125);
}

}  // namespace
}  // namespace tutor::b05
