// B05 exercise "layer_params": checks exercise::decoder_layer_params (layer_params.cpp, or the
// worked solution) against the calculator. The calculator counts whole models, so the expected
// parts of layer i come from count_params of the model cut down to that one layer: its attention,
// its MLP, and its norms minus the final norm (embeddings and the final norm are not the layer's).
//   1. the families public calculators get wrong, each named by its trap;
//   2. every shipped config: each distinct kind of layer it has (dense and MoE, full, windowed
//      and MLA attention);
//   3. random shapes (random_models.hpp) with every feature mixed, from --seed.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calculator.hpp"
#include "layer_params.hpp"
#include "model.hpp"
#include "random_models.hpp"
#include "tutor/exercise.hpp"

namespace tutor::b05 {
namespace {

exercise::LayerParams expected_layer(const ModelConfig& m, std::int64_t layer) {
  ModelConfig one = m;
  one.layers = {m.layers.at(static_cast<std::size_t>(layer))};
  one.num_layers = 1;
  const ParamCount p = count_params(one);
  const double final_norm = m.final_norm ? static_cast<double>(m.hidden_size) * params_per_width(m.norm) : 0;
  return {p.attention, p.mlp, p.norms - final_norm};
}

void compare(tutor::exercise::Checker& ck, const std::string& name, const ModelConfig& m, std::int64_t layer) {
  const exercise::LayerParams e = expected_layer(m, layer);
  const nlohmann::json parts = {{"attention", e.attention}, {"mlp", e.mlp}, {"norms", e.norms}};
  if (auto got = ck.attempt(name, parts, [&] { return exercise::decoder_layer_params(m, layer); })) {
    ck.number(name + ": attention", e.attention, got->attention);
    ck.number(name + ": mlp", e.mlp, got->mlp);
    ck.number(name + ": norms", e.norms, got->norms);
  }
}

void add_cases(tutor::exercise::Checker& ck, std::uint64_t seed) {
  // 1. The traps. Hand derivations of two, for the record:
  //   Llama-3.1-8B attention (GQA, h 4096, 32 heads, 8 KV heads of 128): q and o 4096 x 4096 each,
  //     k and v 4096 x 1024 each: 2 x 16,777,216 + 2 x 4,194,304 = 41,943,040 (not 4 x 4096^2).
  //   Llama-3.1-8B MLP (gated, inner 14,336): 3 x 4096 x 14,336 = 176,160,768; norms 2 x 4096.
  compare(ck, "GQA shrinks k and v only: llama-3.1-8b layer 0", load_shipped_model("llama-3.1-8b"), 0);
  compare(ck, "q/k/v biases, no o bias: qwen2.5-7b layer 0", load_shipped_model("qwen2.5-7b"), 0);
  compare(ck, "biases everywhere, sinks, expert and router biases: gpt-oss-120b layer 0",
          load_shipped_model("gpt-oss-120b"), 0);
  compare(ck, "LayerNorm with bias, one norm, plain MLP with biases: phi-2 layer 0", load_shipped_model("phi-2"), 0);
  compare(ck, "non-parametric LayerNorm: olmo-7b layer 0", load_shipped_model("olmo-7b"), 0);
  compare(ck, "4 norms per layer, per-head q/k norms: gemma-3-27b layer 0", load_shipped_model("gemma-3-27b"), 0);
  compare(ck, "full-width q/k norms: olmo-2-1124-13b layer 0", load_shipped_model("olmo-2-1124-13b"), 0);
  const ModelConfig dsv3 = load_shipped_model("deepseek-v3");
  compare(ck, "MLA with query compression, dense MLP: deepseek-v3 layer 0", dsv3, 0);
  compare(ck, "MLA, 256 routed + 1 shared expert: deepseek-v3 layer 3", dsv3, 3);
  compare(ck, "MLA without query compression: deepseek-v2-lite layer 1", load_shipped_model("deepseek-v2-lite"), 1);
  compare(ck, "shared expert of its own width with a gate: qwen1.5-moe-a2.7b layer 0",
          load_shipped_model("qwen1.5-moe-a2.7b"), 0);
  compare(ck, "8 experts and a router: mixtral-8x7b layer 0", load_shipped_model("mixtral-8x7b"), 0);
  compare(ck, "LayerNorm without bias: dbrx-instruct layer 0", load_shipped_model("dbrx-instruct"), 0);

  // 2. Every shipped config, one layer of each kind it has.
  for (const std::string& stem : shipped_models()) {
    const ModelConfig m = load_shipped_model(stem);
    std::vector<LayerSpec> seen;
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(m.layers.size()); ++i) {
      const LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
      bool known = false;
      for (const LayerSpec& s : seen) known |= s.attention == l.attention && s.moe == l.moe;
      if (known) continue;
      seen.push_back(l);
      compare(ck, fmt::format("{} layer {} ({}{})", stem, i, to_string(l.attention), l.moe ? ", MoE" : ""), m, i);
    }
  }

  // 3. Random shapes.
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 40; ++i) {
    const ModelConfig m = exercise::random_model(rng, i);
    const auto layer = static_cast<std::int64_t>(rng() % m.layers.size());
    const LayerSpec& l = m.layers[static_cast<std::size_t>(layer)];
    compare(ck, fmt::format("{} layer {} ({}{}, norm {})", m.name, layer, to_string(l.attention), l.moe ? ", MoE" : "",
                            to_string(m.norm)),
            m, layer);
  }
}

}  // namespace
}  // namespace tutor::b05

int main(int argc, char** argv) {
  return tutor::exercise::run_checker(
      argc, argv,
      {"b05_exercise_layer_params", "B05", "layer_params", "decoder_layer_params(model, layer)",
       "trackB/b05_transformer/exercises/layer_params.cpp",
       "tutor::b05::count_params (calculator.hpp) of the model cut to that layer"},
      tutor::b05::add_cases);
}
