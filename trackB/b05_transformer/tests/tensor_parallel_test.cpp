// B05 --tp: what one rank of a tensor-parallel group holds and moves, against hand derivations.
//
// Llama-3.1-8B (data/models/llama-3.1-8b.json; its count 8,030,261,248 is derived in
// trackB/b06_serving/tests/kv_planner_test.cpp): the only replicated tensors are its RMSNorm
// scales, 2 per layer x 32 layers x 4096 + the final 4096 = 266,240 parameters; no biases, no
// router. Everything else, 8,029,995,008 parameters, is split over the ranks.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "model.hpp"
#include "tensor_parallel.hpp"

using namespace tutor::b05;

// TP=2: 8,029,995,008 / 2 + 266,240 = 4,015,263,744 parameters = 8,030,527,488 B in bf16.
// KV: 8 KV heads / 2 = 4 per rank: 2 x 32 layers x 4 x 128 x 2 B = 65,536 B per token; a
// 8192-token sequence 8192 x 65,536 = 536,870,912 B. A step reads the weights less the input
// embedding's share, 128,256 x 4096 / 2 = 262,668,288 parameters: (4,015,263,744 - 262,668,288)
// x 2 = 7,505,190,912 B; decode at 8192 adds the sequence's KV: 8,042,061,824 B.
TEST(TensorParallel, Llama31_8B_TwoRanksShardMatricesAndReplicateNorms) {
  const ModelConfig m = load_shipped_model("llama-3.1-8b");
  const TensorParallelShare s = tensor_parallel_share(m, 2, 2, 2, 8192);
  EXPECT_DOUBLE_EQ(s.replicated_params, 266240.0);
  EXPECT_DOUBLE_EQ(s.sharded_params, 8029995008.0);
  EXPECT_DOUBLE_EQ(s.params_per_gpu, 4015263744.0);
  EXPECT_DOUBLE_EQ(s.weight_bytes_per_gpu, 8030527488.0);
  EXPECT_EQ(s.kv_heads_per_gpu, 4);
  EXPECT_FALSE(s.kv_heads_replicated);
  EXPECT_DOUBLE_EQ(s.kv_bytes_per_token_per_gpu, 65536.0);
  EXPECT_DOUBLE_EQ(s.kv_bytes_for_context_per_gpu, 536870912.0);
  EXPECT_DOUBLE_EQ(s.weight_read_bytes_per_gpu, 7505190912.0);
  EXPECT_DOUBLE_EQ(s.decode_bytes_per_gpu, 8042061824.0);
}

// TP=16 > 8 KV heads: each rank holds one whole KV head (vLLM get_num_kv_heads = max(1, 8 / 16)),
// so its k and v weights are 2 x 4096 x 128 = 1,048,576 per layer instead of the even split's
// 1,048,576 x 8 / 16 = 524,288: 524,288 x 32 layers = 16,777,216 extra parameters per rank.
//   per rank = 8,029,995,008 / 16 + 266,240 + 16,777,216 = 518,918,144
//   KV per token per rank 2 x 32 x 1 x 128 x 2 = 16,384 B (the group stores each head twice).
TEST(TensorParallel, KvHeadsAreReplicatedWhenRanksOutnumberThem) {
  const ModelConfig m = load_shipped_model("llama-3.1-8b");
  const TensorParallelShare s = tensor_parallel_share(m, 16, 2, 2, 8192);
  EXPECT_TRUE(s.kv_heads_replicated);
  EXPECT_EQ(s.kv_heads_per_gpu, 1);
  EXPECT_DOUBLE_EQ(s.kv_head_copy_params, 16777216.0);
  EXPECT_DOUBLE_EQ(s.params_per_gpu, 518918144.0);
  EXPECT_DOUBLE_EQ(s.kv_bytes_per_token_per_gpu, 16384.0);
}

// TP=1 is the whole model on one GPU: every parameter, all 8 KV heads (131,072 B per token).
TEST(TensorParallel, OneRankHoldsTheWholeModel) {
  const ModelConfig m = load_shipped_model("llama-3.1-8b");
  const TensorParallelShare s = tensor_parallel_share(m, 1, 2, 2, 4096);
  EXPECT_DOUBLE_EQ(s.params_per_gpu, 8030261248.0);
  EXPECT_DOUBLE_EQ(s.kv_bytes_per_token_per_gpu, 131072.0);
}

// DeepSeek-V3's MLA latent, (512 + 64) x 61 layers x 2 B = 70,272 B per token, has no heads:
// every one of 8 ranks caches all of it. Its replicated down-projections (q_a 7168 x 1536,
// kv_a 7168 x 576 per layer: 7168 x 2112 x 61 = 923,516,928) and routers keep a rank's
// parameters above a plain eighth of the total.
TEST(TensorParallel, MlaLatentIsWholeOnEveryRank) {
  const ModelConfig m = load_shipped_model("deepseek-v3");
  const TensorParallelShare s = tensor_parallel_share(m, 8, 1, 2, 4096);
  EXPECT_TRUE(s.mla);
  EXPECT_DOUBLE_EQ(s.kv_bytes_per_token_per_gpu, 70272.0);
  EXPECT_GE(s.replicated_params, 923516928.0);
  EXPECT_GT(s.params_per_gpu, s.params_total / 8);
}

TEST(TensorParallel, RanksThatDoNotDivideTheHeadsAreRefused) {
  const ModelConfig m = load_shipped_model("llama-3.1-8b");
  for (int tp : {0, 3, 1025}) {
    try {
      tensor_parallel_share(m, tp, 2, 2, 4096);
      ADD_FAILURE() << "tp " << tp << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--tp", 0), 0u);
    }
  }
}

// A multimodal checkpoint's vision tower is loaded with the text model and split over the ranks
// like it (vLLM's default mm_encoder_tp_mode "weights"). Gemma 3 27B-it is the text-only Gemma 3
// 27B plus its SigLIP tower and projector, 423,060,336 parameters (families_c_test.cpp): at TP=8 a
// rank holds 423,060,336 / 8 = 52,882,542 more parameters. A step's weight reads do not include the
// tower: it runs once per image, not per generated token.
TEST(TensorParallel, VisionTowerIsSplitWithTheTextModel) {
  const TensorParallelShare it = tensor_parallel_share(load_shipped_model("gemma-3-27b-it"), 8, 2, 2, 4096);
  const TensorParallelShare text = tensor_parallel_share(load_shipped_model("gemma-3-27b"), 8, 2, 2, 4096);
  EXPECT_DOUBLE_EQ(it.vision_params, 423060336.0);
  EXPECT_DOUBLE_EQ(it.params_total - text.params_total, 423060336.0);
  EXPECT_DOUBLE_EQ(it.params_per_gpu - text.params_per_gpu, 52882542.0);
  EXPECT_DOUBLE_EQ(it.weight_bytes_per_gpu, weight_bytes_per_gpu(load_shipped_model("gemma-3-27b-it"), 8, 2));
  EXPECT_DOUBLE_EQ(it.weight_read_bytes_per_gpu, text.weight_read_bytes_per_gpu);
}

// Windowed layers stop growing past their window: Gemma 3 27B (62 layers, 10 global, 16 KV heads
// x 128) at TP=2 holds 8 heads per rank: a page slot 62 x 2 x 8 x 128 x 2 B = 253,952 B per token,
// but past every window a token adds only the 10 global layers' 10 x 2 x 8 x 128 x 2 = 40,960 B.
// DeepSeek-V3's latent per token per layer is (512 + 64) x 2 B = 1,152 B on every rank.
TEST(TensorParallel, WindowGrowthAndMlaLatentPerGpu) {
  const TensorParallelShare g = tensor_parallel_share(load_shipped_model("gemma-3-27b"), 2, 2, 2, 4096);
  EXPECT_DOUBLE_EQ(g.kv_bytes_per_token_per_gpu, 253952.0);
  EXPECT_DOUBLE_EQ(g.kv_growth_bytes_per_token_per_gpu, 40960.0);
  EXPECT_DOUBLE_EQ(g.kv_latent_bytes_per_token_per_layer, 0.0);
  const TensorParallelShare v3 = tensor_parallel_share(load_shipped_model("deepseek-v3"), 8, 1, 2, 4096);
  EXPECT_DOUBLE_EQ(v3.kv_latent_bytes_per_token_per_layer, 1152.0);
  EXPECT_DOUBLE_EQ(v3.kv_growth_bytes_per_token_per_gpu, v3.kv_bytes_per_token_per_gpu);
}
