// B07: the memory planner against the ZeRO paper's example, Korthikanti et al.'s per-layer
// formulas for a GPT-3-scale layer, and the lesson that pipelining does not cut activations.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "memory_planner.hpp"
#include "model.hpp"

using namespace tutor::b07;
namespace b05 = tutor::b05;

namespace {

constexpr double kGB = 1e9;
constexpr double k80GB = 80e9;

std::string plan_error(const b05::ModelConfig& m, const ParallelConfig& c) {
  try {
    plan_memory(m, c, k80GB);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// Rajbhandari et al. 2020, Figure 1: Psi = 7.5B, N_d = 64, K = 12:
//   baseline (2 + 2 + 12) x 7.5e9                  = 120 GB
//   P_os     4 x 7.5e9 + 12 x 7.5e9 / 64           = 30 + 1.40625 = 31.40625 GB  ("31.4GB")
//   P_os+g   2 x 7.5e9 + 14 x 7.5e9 / 64           = 15 + 1.640625 = 16.640625 GB ("16.6GB")
//   P_os+g+p 16 x 7.5e9 / 64                       = 1.875 GB                     ("1.9GB")
TEST(ZeroModelStates, PaperFigure1_7p5B_On64Gpus) {
  const double psi = 7.5e9;
  EXPECT_DOUBLE_EQ(zero_model_states(psi, 0, 64).total(), 120e9);
  EXPECT_DOUBLE_EQ(zero_model_states(psi, 1, 64).total(), 31.40625e9);
  EXPECT_DOUBLE_EQ(zero_model_states(psi, 2, 64).total(), 16.640625e9);
  EXPECT_DOUBLE_EQ(zero_model_states(psi, 3, 64).total(), 1.875e9);
  EXPECT_NEAR(zero_model_states(psi, 1, 64).total() / kGB, 31.4, 0.05);
  EXPECT_NEAR(zero_model_states(psi, 2, 64).total() / kGB, 16.6, 0.05);
  EXPECT_NEAR(zero_model_states(psi, 3, 64).total() / kGB, 1.9, 0.05);
  // Which state each stage shards: stage 2 keeps the weights whole, shards gradients and optimizer.
  const ModelStates z2 = zero_model_states(psi, 2, 64);
  EXPECT_DOUBLE_EQ(z2.weight_bytes, 15e9);
  EXPECT_DOUBLE_EQ(z2.gradient_bytes, 15e9 / 64);
  EXPECT_DOUBLE_EQ(z2.optimizer_bytes, 90e9 / 64);
  EXPECT_THROW(zero_model_states(psi, 4, 64), std::invalid_argument);
  EXPECT_THROW(zero_model_states(psi, 1, 0), std::invalid_argument);
}

// Korthikanti et al. 2022 Table 2 for a GPT-3 175B layer (Table 3: a = 96, h = 12288, s = 2048),
// b = 1, t = 8. s b h = 2048 x 12288 = 25,165,824; 5 a s / (h t) = 5 x 96 x 2048 / (12288 x 8) = 10.
//   TP:                     s b h (10 + 24/8 + 10) = 23    s b h = 578,813,952 B
//   TP + SP:                s b h (34/8 + 10)      = 14.25 s b h = 358,612,992 B
//   TP + selective:         s b h (10 + 3)         = 13    s b h = 327,155,712 B
//   TP + SP + selective:    s b h (34/8)           = 4.25  s b h = 106,954,752 B
//   no parallelism (t = 1): s b h (34 + 80)        = 114   s b h = 2,868,903,936 B
//   full recomputation:     2 s b h = 50,331,648 B (with SP: / 8 = 6,291,456 B)
TEST(KorthikantiTable2, Gpt3LayerWithTp8) {
  const double s = 2048, b = 1, h = 12288, a = 96;
  EXPECT_DOUBLE_EQ(korthikanti_layer_bytes(s, b, h, a, 8, false, Recompute::none), 578813952);
  EXPECT_DOUBLE_EQ(korthikanti_layer_bytes(s, b, h, a, 8, true, Recompute::none), 358612992);
  EXPECT_DOUBLE_EQ(korthikanti_layer_bytes(s, b, h, a, 8, false, Recompute::selective), 327155712);
  EXPECT_DOUBLE_EQ(korthikanti_layer_bytes(s, b, h, a, 8, true, Recompute::selective), 106954752);
  EXPECT_DOUBLE_EQ(korthikanti_layer_bytes(s, b, h, a, 1, false, Recompute::none), 2868903936);
  EXPECT_DOUBLE_EQ(korthikanti_layer_bytes(s, b, h, a, 8, false, Recompute::full), 50331648);
  EXPECT_DOUBLE_EQ(korthikanti_layer_bytes(s, b, h, a, 8, true, Recompute::full), 6291456);
  // SP + selective is 5.4x smaller than TP alone for this layer: the paper's "5x".
  EXPECT_NEAR(578813952.0 / 106954752.0, 5.41, 0.01);
}

// The term-by-term accounting reduces to Table 2 for the paper's layer, for every t, SP and
// recomputation mode.
TEST(LayerActivations, TermsSumToKorthikantiForTheGptLayer) {
  const LayerShape gpt = gpt_layer_shape(12288, 96);
  for (int t : {1, 2, 4, 8})
    for (bool sp : {false, true})
      for (Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
        ActivationOptions o;
        o.tp = t, o.sequence_parallel = sp, o.recompute = r;
        const LayerActivations la = layer_activations(gpt, 2048, 1, o);
        EXPECT_DOUBLE_EQ(la.stored_bytes, korthikanti_layer_bytes(2048, 1, 12288, 96, t, sp, r))
            << "t=" << t << " sp=" << sp << " r=" << name(r);
      }
  // s = 4096, b = 2, a GPT-2-XL-sized layer (h 1600, 25 heads), no parallelism.
  const LayerActivations small = layer_activations(gpt_layer_shape(1600, 25), 4096, 2, {});
  EXPECT_DOUBLE_EQ(small.stored_bytes, 4096.0 * 2 * 1600 * (34 + 5.0 * 25 * 4096 / 1600));
}

// data/models/gpt-3-175b.json writes GPT-3's 4h GeLU MLP as a gated MLP of width 8h/3 = 32768:
// the gate and up outputs (2 x 32768) plus the product (32768) are 6 x 32768 = 16 h elements
// per token, Korthikanti's 8sbh + 8sbh. The shipped config therefore reproduces Table 2.
TEST(LayerActivations, ShippedGpt3ConfigReproducesTable2) {
  const b05::ModelConfig gpt3 = b05::load_shipped_model("gpt-3-175b");
  EXPECT_EQ(gpt3.num_layers, 96);
  EXPECT_EQ(gpt3.hidden_size, 12288);
  ActivationOptions o;
  o.tp = 8;
  EXPECT_DOUBLE_EQ(layer_activations(layer_shape(gpt3), 2048, 1, o).stored_bytes, 578813952);
  o.sequence_parallel = true;
  o.recompute = Recompute::selective;
  EXPECT_DOUBLE_EQ(layer_activations(layer_shape(gpt3), 2048, 1, o).stored_bytes, 106954752);
}

// FlashAttention keeps no s x s tensor, only an fp32 log-sum-exp per head and token (4 a s b / t);
// dropout-free training drops the three masks and keeps one s x s tensor (2 a s^2 b, not 5).
TEST(LayerActivations, FlashAttentionAndNoDropout) {
  const LayerShape gpt = gpt_layer_shape(12288, 96);
  const double s = 2048, sbh = 2048.0 * 12288, a = 96;
  ActivationOptions flash;
  flash.flash_attention = true;
  const LayerActivations f = layer_activations(gpt, s, 1, flash);
  // 34 sbh minus the softmax dropout mask (it was a quadratic term) = 34 sbh + 4 a s.
  EXPECT_DOUBLE_EQ(f.stored_bytes, 34 * sbh + 4 * a * s);
  for (const auto& t : f.terms) EXPECT_FALSE(t.quadratic) << t.name;
  ActivationOptions no_dropout;
  no_dropout.dropout = false;
  EXPECT_DOUBLE_EQ(layer_activations(gpt, s, 1, no_dropout).stored_bytes, 32 * sbh + 2 * a * s * s);
}

// GQA: Llama-2-7B has 32 K/V heads (MHA), Llama-3.1-8B 8 (GQA): K and V shrink 4x, Q does not.
// Llama-3.1-8B, s = 4096, b = 1, t = 1, dropout on: h = 4096, a = 32, d = 128, g = 8, f = 14336:
//   linear: norms 4 + inputs 4 + Q 2 + K 0.5 + V 0.5 + proj 2 + masks 2 = 15 sbh, MLP 6 x 14336/4096 = 21 sbh
//   -> 36 sbh; quadratic 5 a s^2 b = 5 x 32 x 4096^2.
TEST(LayerActivations, GqaAndGatedMlpOfLlama31_8B) {
  const b05::ModelConfig m = b05::load_shipped_model("llama-3.1-8b");
  const LayerShape shape = layer_shape(m);
  EXPECT_DOUBLE_EQ(shape.kv_heads, 8);
  EXPECT_DOUBLE_EQ(shape.mlp_width, 14336);
  const double s = 4096, sbh = 4096.0 * 4096;
  const LayerActivations la = layer_activations(shape, s, 1, {});
  EXPECT_DOUBLE_EQ(la.stored_bytes, 36 * sbh + 5 * 32 * s * s);
}

// The module's lesson (Korthikanti et al. 2022 sec. 4.2.3): under 1F1B the first stage holds
// L/p layers for each of p micro-batches in flight, so its layer activations are L layers'
// worth whatever p is. A planner in which pipelining reduced them would fail here.
TEST(PipelineLesson, FirstStageActivationsDoNotShrinkWithPipelineDepth) {
  const b05::ModelConfig m = b05::load_shipped_model("llama-2-7b");  // 32 layers
  for (Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
    ParallelConfig c;
    c.tp = 1;
    c.microbatches = 64;  // fixed global batch: m >= p for every depth below
    c.seq_len = 4096;
    c.activations.recompute = r;
    c.pp = 1;
    c.gpus = 1;
    const MemoryPlan one = plan_memory(m, c, k80GB);
    const double per_layer = one.layer.stored_bytes;
    EXPECT_DOUBLE_EQ(one.first.layer_activation_bytes, 32 * per_layer);
    double previous_states = one.first.states.total();
    for (int p : {2, 4, 8, 16, 32}) {
      c.pp = p;
      c.gpus = p;
      const MemoryPlan plan = plan_memory(m, c, k80GB);
      EXPECT_EQ(plan.first.peak_in_flight, p) << "p=" << p;
      EXPECT_DOUBLE_EQ(plan.first.layer_passes, 32) << "p=" << p;
      EXPECT_DOUBLE_EQ(plan.first.layer_activation_bytes, one.first.layer_activation_bytes)
          << "p=" << p << " recompute=" << name(r);
      EXPECT_GT(plan.first.layer_activation_bytes, 32.0 / p * per_layer * 1.5) << "p=" << p;
      // What pipelining does cut: the model states per GPU.
      EXPECT_LT(plan.first.states.total(), previous_states) << "p=" << p;
      previous_states = plan.first.states.total();
      // The last stage holds one micro-batch: L/p layers.
      EXPECT_DOUBLE_EQ(plan.last.layer_passes, 32.0 / p) << "p=" << p;
    }
  }
}

// Interleaving adds (p-1)/(p v) of L (Korthikanti et al. 2022 sec. 4.2.3): p = 4, v = 2, L = 32:
// 32 x (1 + 3/8) = 44 layer passes = (v-1)p + 2(p-1) + 1 = 11 chunk passes of 4 layers.
// GPipe holds all m: m x L/p = 16 x 8 = 128 layer passes.
TEST(PipelineLesson, InterleavedAddsAndGpipeMultiplies) {
  const b05::ModelConfig m = b05::load_shipped_model("llama-2-7b");
  ParallelConfig c;
  c.gpus = 4;
  c.pp = 4;
  c.microbatches = 16;
  c.schedule = Schedule::interleaved;
  c.virtual_stages = 2;
  EXPECT_DOUBLE_EQ(plan_memory(m, c, k80GB).first.layer_passes, 44);
  c.schedule = Schedule::gpipe;
  c.virtual_stages = 1;
  EXPECT_DOUBLE_EQ(plan_memory(m, c, k80GB).first.layer_passes, 128);
}

// Parameters per stage: Llama-2-7B (untied, 6,738,415,616 parameters) split into two stages
// holds the embedding on the first and the final norm and LM head on the last; together
// they are the whole model. TP divides all of it but the norm weights (next test).
TEST(MemoryPlan, StagesSplitTheParameters) {
  const b05::ModelConfig m = b05::load_shipped_model("llama-2-7b");
  ParallelConfig c;
  c.gpus = 1;
  const MemoryPlan whole = plan_memory(m, c, k80GB);
  EXPECT_NEAR(whole.first.params, 6738415616.0, 1);
  c.gpus = 2;
  c.pp = 2;
  const MemoryPlan two = plan_memory(m, c, k80GB);
  EXPECT_NEAR(two.first.params + two.last.params, 6738415616.0, 1);
  c.gpus = 4;
  c.tp = 2;
  const MemoryPlan tp = plan_memory(m, c, k80GB);
  const double first_stage_norms = 16 * 2 * 4096.0;  // 16 layers x 2 RMSNorms of h = 4096
  EXPECT_NEAR(tp.first.params, (two.first.params - first_stage_norms) / 2 + first_stage_norms, 1);
  // ZeRO over DP = 16 / (2 x 2) = 4 for the comparison rows.
  c.gpus = 16;
  c.zero = 3;
  const MemoryPlan z = plan_memory(m, c, k80GB);
  EXPECT_EQ(z.dp, 4);
  EXPECT_DOUBLE_EQ(z.first.states.total(), 16 * z.first.params / 4);
  EXPECT_DOUBLE_EQ(z.first_states_by_zero[0].total(), 16 * z.first.params);
}

// Megatron-LM splits every linear layer, the embedding and the LM head over the TP group but
// keeps a whole copy of every norm weight on each rank (Shoeybi et al. 2019, sec. 3: layer
// normalization duplicated across the GPUs of the group; Korthikanti et al. 2022, sec. 4.2.2:
// sequence parallelism splits the norms' inputs, not their weights). By hand, Llama-2-7B
// (h = 4096, MLP 11008 gated, 32 layers, vocab 32000, untied, 2 RMSNorms of h per layer and a
// final one) at TP 2, PP 2:
//   one layer's matrices: q, k, v, o 4 h^2 = 67,108,864 + gate, up, down 3 h f = 135,266,304
//                         = 202,375,168; its norms 2 h = 8,192
//   first stage: (16 x 202,375,168 + 32000 x 4096 embedding) / 2 = 3,369,074,688 / 2
//                = 1,684,537,344, plus 16 x 8,192 = 131,072 of norms: 1,684,668,416
//   last stage:  the same split part with the LM head in place of the embedding, 1,684,537,344,
//                plus 131,072 + the final norm 4,096: 1,684,672,512
// Dividing the norms too would give 65,536 and 67,584 fewer.
TEST(MemoryPlan, NormWeightsAreReplicatedAcrossTensorParallelRanks) {
  const b05::ModelConfig m = b05::load_shipped_model("llama-2-7b");
  ParallelConfig c;
  c.gpus = 4;
  c.tp = 2;
  c.pp = 2;
  const MemoryPlan plan = plan_memory(m, c, k80GB);
  EXPECT_DOUBLE_EQ(plan.first.params, 1684668416.0);
  EXPECT_DOUBLE_EQ(plan.last.params, 1684672512.0);
  // Mixed-precision Adam's 16 bytes per parameter, ZeRO-0.
  EXPECT_DOUBLE_EQ(plan.first.states.total(), 16 * 1684668416.0);
}

TEST(MemoryPlan, VerdictAgainstCapacity) {
  const b05::ModelConfig m = b05::load_shipped_model("llama-3.1-8b");
  ParallelConfig c;
  c.gpus = 1;  // 8.03e9 x 16 B = 128 GB of states alone: does not fit 80 GB
  EXPECT_FALSE(plan_memory(m, c, k80GB).fits());
  c.gpus = 8;
  c.zero = 3;
  c.seq_len = 1024;
  c.activations.recompute = Recompute::full;
  EXPECT_TRUE(plan_memory(m, c, k80GB).fits());
}

TEST(MemoryPlan, BadLayoutsNameTheOption) {
  const b05::ModelConfig m = b05::load_shipped_model("llama-2-7b");  // 32 layers, 32 heads
  ParallelConfig c;
  c.gpus = 64;
  c.pp = 64;  // more stages than layers
  EXPECT_EQ(plan_error(m, c).rfind("--pp: 64 stages for 32 layers", 0), 0u) << plan_error(m, c);
  c.gpus = 3;
  c.pp = 3;  // does not divide 32
  EXPECT_EQ(plan_error(m, c).rfind("--pp", 0), 0u);
  c = {};
  c.gpus = 6;
  c.tp = 4;
  EXPECT_EQ(plan_error(m, c).rfind("--gpus", 0), 0u);
  c = {};
  c.gpus = 3;
  c.tp = 3;  // does not divide 32 heads
  EXPECT_EQ(plan_error(m, c).rfind("--tp", 0), 0u);
  c = {};
  c.zero = 4;
  EXPECT_EQ(plan_error(m, c).rfind("--zero", 0), 0u);
  c = {};
  c.gpus = 2;
  c.tp = 2;
  c.seq_len = 1001;
  c.activations.sequence_parallel = true;
  EXPECT_EQ(plan_error(m, c).rfind("--seq-len", 0), 0u);
  c = {};
  c.gpus = 4;
  c.pp = 4;
  c.schedule = Schedule::interleaved;
  c.virtual_stages = 2;
  c.microbatches = 6;
  EXPECT_EQ(plan_error(m, c).rfind("--microbatches", 0), 0u);
  c.microbatches = 8;
  c.virtual_stages = 16;  // 4 x 16 = 64 chunks for 32 layers
  EXPECT_EQ(plan_error(m, c).rfind("--virtual-stages", 0), 0u);
}

TEST(MemoryPlan, ApproximationsAreNoted) {
  const b05::ModelConfig mixtral = b05::load_shipped_model("mixtral-8x7b");
  ParallelConfig c;
  c.gpus = 8;
  c.tp = 8;
  const MemoryPlan plan = plan_memory(mixtral, c, k80GB);
  bool moe_note = false, kv_note = false;
  for (const auto& n : plan.notes) {
    moe_note = moe_note || n.find("mixture of experts") != std::string::npos;
    kv_note = kv_note || n.find("K/V heads over TP 8") != std::string::npos;
  }
  EXPECT_TRUE(moe_note);
  EXPECT_FALSE(kv_note);  // 8 K/V heads over TP 8: one each, nothing replicated
  EXPECT_DOUBLE_EQ(plan.shape.mlp_width, 2 * 14336);  // top-2 experts of 14336
}
