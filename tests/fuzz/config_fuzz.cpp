// libFuzzer harness: a config.json through the whole B05 reader and calculator, as
// `b05_transformer calc` runs them: JSON reader, ModelConfig, parameter count, KV bytes, FLOPs
// and activations (load_model_file's steps, without the file). Bad input must be a ConfigError or InputError; a config that is accepted must
// give finite, non-negative numbers (a negative parameter count printed with exit 0 was a bug).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "calculator.hpp"
#include "model.hpp"
#include "model_bounds.hpp"
#include "tutor/json_input.hpp"

namespace {
void require_sane(double v) {
  if (!(std::isfinite(v) && v >= 0)) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tutor::b05;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ModelConfig m;
  try {
    m = parse_hf_config(tutor::parse_json_text(text, "fuzz.json"), "fuzz");
    require_countable(m);  // as load_model_file does
  } catch (const tutor::InputError&) {
    return 0;
  } catch (const ConfigError&) {
    return 0;
  }
  const ParamCount p = count_params(m);
  for (double v : {p.embedding, p.attention, p.mlp, p.norms, p.total, p.active}) require_sane(v);
  for (const std::int64_t context : {std::int64_t(1), std::int64_t(4096), m.max_position_embeddings > 0 ? m.max_position_embeddings : 1}) {
    require_sane(kv_bytes_for_context(m, 2, context));
    require_sane(prefill_flops(m, context).total());
    require_sane(decode_flops(m, context).total());
  }
  for (const auto& g : kv_layer_groups(m, 1)) require_sane(g.bytes_per_token_per_layer);
  require_sane(kv_bytes_per_token_full(m, 2));
  require_sane(kv_bytes_per_token_uncapped(m, 2));
  require_sane(activation_memory(m, 2).peak_bytes_per_token);
  require_sane(weight_bytes(m, 2));
  return 0;
}
