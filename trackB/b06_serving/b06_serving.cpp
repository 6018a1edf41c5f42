// b06_serving: the arithmetic of serving a transformer, no GPU needed.
//
//   b06_serving kv     the KV-cache planner: how large a pool an engine carves out of the
//                      GPUs, in bytes, tokens and pages, and how many sequences it holds
//                      (kind: model; vLLM's sizing, kv_planner.hpp).
//   b06_serving batch  a continuous-batching simulation of a request stream on that pool,
//                      each step timed by the roofline (kind: simulation; batch_sim.hpp).
//   b06_serving spec   speculative decoding: tokens per verification step, speedup, best
//                      draft length, break-even acceptance rate (kind: model), and a Monte
//                      Carlo that checks them (kind: simulation; spec_decode.hpp).
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "batch_sim.hpp"
#include "calculator.hpp"
#include "gpu_choice.hpp"
#include "kv_planner.hpp"
#include "model.hpp"
#include "spec_decode.hpp"
#include "step_cost.hpp"
#include "tutor/cli.hpp"
#include "tutor/number_option.hpp"
#include "tutor/option_blame.hpp"
#include "tutor/output.hpp"
#include "tutor/report.hpp"
#include "workload.hpp"

namespace tutor::b06 {
namespace {

using nlohmann::json;

// ---- shared helpers ---------------------------------------------------------------------

double dtype_or_throw(const std::string& option, const std::string& dtype) {
  const auto b = b05::dtype_bytes(dtype);
  if (!b) throw UsageError(fmt::format("{}: unknown dtype '{}'; allowed: {}", option, dtype, b05::known_dtypes()));
  return *b;
}

std::string group(std::int64_t v) { return thousands(v); }
/// A byte or token count the model derived: grouped digits while it fits an int64 exactly
/// (llround of a larger double is undefined), else three significant digits.
std::string count_text(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (std::fabs(v) < 1e15) return thousands(std::llround(v));
  return fmt::format("{:.3e}", v);
}
std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / kGiB); }
/// A parameter count in billions, or millions below 1B ("70.55B", "1.319M").
std::string params_text(double p) {
  return p >= 1e9 ? fmt::format("{:.4g}B", p / 1e9) : fmt::format("{:.4g}M", p / 1e6);
}

// ---- model and GPU choice (kv and batch) -------------------------------------------------

struct ModelOptions {
  std::string model, config;
};

b05::ModelConfig load_model(const ModelOptions& o) { return b05::load_model_option(o.model, o.config); }

/// The config's num_nextn_predict_layers (DeepSeek-V3's multi-token-prediction module), which
/// B05's shape leaves out: read from the same file load_model read, 0 when absent.
std::int64_t mtp_layers(const ModelOptions& o) {
  const std::string path = o.config.empty() ? b05::models_dir() + "/" + o.model + ".json" : o.config;
  std::ifstream in(path);
  const json config = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!config.is_object()) return 0;
  const auto it = config.find("num_nextn_predict_layers");
  return it != config.end() && it->is_number_integer() ? std::max<std::int64_t>(0, it->get<std::int64_t>()) : 0;
}

// ---- kv ---------------------------------------------------------------------------------

struct KvOptions {
  ModelOptions model;
  std::string gpu, weight_dtype = "bf16", kv_dtype = "bf16";
  int gpus = 1, tp = 0, block_size = kDefaultBlockSize;
  double memory_utilization = kDefaultMemoryUtilization;
  double activation_reserve_gib = 0, non_torch_gib = 0, cuda_graph_gib = 0;
  std::string vllm = kDefaultEngineProfile;  ///< --vllm: the release whose start-up profile the defaults follow
  double gpu_memory_gib = 0;
  std::int64_t context = 0;  ///< 0 = the model's max_position_embeddings
  std::int64_t max_num_batched_tokens = 0, max_num_seqs = 0;  ///< kv only; 0 = the engine's default for the GPU
  // Which of the options with a "not given" default the user gave (a given 0 is an error).
  bool context_given = false, tp_given = false, gpus_given = false, gpu_memory_given = false, activation_given = false,
       non_torch_given = false, cuda_graph_given = false, utilization_given = false;

  void mark_given(const CLI::App* app) {
    context_given = app->count("--context") > 0;
    tp_given = app->count("--tp") > 0;
    gpus_given = app->count("--gpus") > 0;
    gpu_memory_given = app->count("--gpu-memory-gib") > 0;
    activation_given = app->count("--activation-reserve-gib") > 0;
    non_torch_given = app->count("--non-torch-gib") > 0;
    cuda_graph_given = app->count("--cuda-graph-gib") > 0;
    utilization_given = app->count("--memory-utilization") > 0;
  }
};

/// Upper bounds of the kv options: far above any GPU (GiB) or engine setting, low enough that
/// every derived quantity stays a finite, printable number.
constexpr double kMaxGiB = 4096;
constexpr std::int64_t kMaxTokens = std::int64_t(1) << 30;

void add_kv_options(CLI::App* app, KvOptions& o) {
  app->add_option("--model", o.model.model, "shipped model: the file stem of a config under data/models/ "
                                            "(llama-3.1-8b, ...)");
  app->add_option("--config", o.model.config, "any Hugging Face config.json (instead of --model)");
  app->add_option("--gpu", o.gpu, "GPU of common's table (h100, h200, a100-80gb, mi300x, ...) or a .json file "
                                  "with the table's fields (name, memory_GB, hbm_bandwidth_GBps, bf16_TFLOPs)")
      ->required();
  app->add_option("--gpus", o.gpus, "GPUs in the node (1 .. 1024; a multiple of --tp)")->check(integer_in(1, 1024));
  app->add_option("--tp", o.tp, "tensor-parallel degree (1 .. 1024; default: --gpus)")->check(integer_in(1, 1024));
  app->add_option("--weight-dtype", o.weight_dtype, "weight storage type: " + b05::known_dtypes() + " (default bf16)");
  app->add_option("--kv-dtype", o.kv_dtype, "KV-cache storage type: " + b05::known_dtypes() + " (default bf16)");
  app->add_option("--vllm", o.vllm,
                  "the vLLM release whose start-up memory profile the defaults follow: " + known_engine_profiles() +
                  " (default " + kDefaultEngineProfile + ", the newest checked against published logs)")
      ->option_text("VERSION");
  app->add_option("--memory-utilization", o.memory_utilization,
                  "fraction of each GPU's total memory the engine may use, in (0, 1] (vLLM "
                  "--gpu-memory-utilization; default the release's: 0.9, 0.92 from v0.21)")
      ->transform(number_in(NumberRange{0, 1, true}));
  app->add_option("--activation-reserve-gib", o.activation_reserve_gib,
                  "peak activation memory of the engine's profiling pass, GiB per GPU, in [0, 4096] (default: "
                  "modelled from the layer shapes, --max-num-batched-tokens and --max-num-seqs; vLLM logs it as "
                  "'PyTorch activation peak memory' or 'peak activation')")
      ->transform(number_in(0, kMaxGiB));
  app->add_option("--non-torch-gib", o.non_torch_gib,
                  "memory outside the tensor allocator that the engine's profile counts (NCCL, all-reduce buffers), "
                  "GiB per GPU, in [0, 4096] (default the release's, from its logs: v0.19 0.25 at TP=1, 2.07 at TP>1)")
      ->transform(number_in(0, kMaxGiB));
  app->add_option("--cuda-graph-gib", o.cuda_graph_gib,
                  "CUDA-graph memory the engine subtracts before sizing the pool, GiB per GPU, in [0, 4096] (default 0 "
                  "before v0.21, which captures graphs after sizing it; --vllm v0.21: 0.84, give its 'Estimated CUDA graph "
                  "memory')")
      ->transform(number_in(0, kMaxGiB));
  app->add_option("--gpu-memory-gib", o.gpu_memory_gib,
                  "total memory of one GPU as the runtime reports it, GiB, in (0, 4096] (overrides the table)")
      ->transform(number_in(NumberRange{0, kMaxGiB, true}));
  app->add_option("--block-size", o.block_size, "tokens per KV page (1 .. 4096; vLLM default 16)")
      ->check(integer_in(1, 4096));
  app->add_option("--context", o.context, "tokens per sequence, prompt + output (1 .. 1073741824; default: the model's "
                                          "max_position_embeddings)")
      ->check(integer_in(1, kMaxTokens));
}

/// The profiling pass's batch limits: kv only (batch has its own --max-num-seqs and --max-batch-tokens).
void add_profile_options(CLI::App* app, KvOptions& o) {
  app->add_option("--max-num-batched-tokens", o.max_num_batched_tokens,
                  "tokens of the engine's profiling forward pass (1 .. 1073741824; default as vLLM V1 `vllm serve`: "
                  "8192 on a GPU of >= 70 GiB that is not an A100, else 2048; V0 without chunked prefill used "
                  "max_model_len)")
      ->check(integer_in(1, kMaxTokens));
  app->add_option("--max-num-seqs", o.max_num_seqs,
                  "sequences of the profiling pass's sampler (1 .. 1048576; default as vLLM V1: 1024 on a GPU of "
                  ">= 70 GiB that is not an A100, else 256; V0: 256)")
      ->check(integer_in(1, 1 << 20));
}

struct KvSetup {
  b05::ModelConfig model;
  GpuChoice gpu;
  KvPlanRequest request;
  KvPlan plan;
};

KvSetup plan_from_options(KvOptions o) {
  if (o.gpus < 1) throw UsageError(fmt::format("--gpus: must be >= 1, got {}", o.gpus));
  if (o.tp_given && o.tp < 1) throw UsageError(fmt::format("--tp: must be >= 1, got {}", o.tp));
  if (!o.tp_given) o.tp = o.gpus;
  if (o.block_size < 1) throw UsageError(fmt::format("--block-size: must be >= 1 token, got {}", o.block_size));
  if (o.context_given && o.context < 1)
    throw UsageError(fmt::format("--context: must be >= 1 token, got {}", o.context));
  if (o.utilization_given && !(o.memory_utilization > 0 && o.memory_utilization <= 1))
    throw UsageError(fmt::format("--memory-utilization: must be in (0, 1], got {}", o.memory_utilization));
  // The validators refused values out of range; these guard callers that fill KvOptions by hand.
  require_in_range(o.activation_reserve_gib, NumberRange{0, kMaxGiB}, "--activation-reserve-gib: GiB");
  require_in_range(o.non_torch_gib, NumberRange{0, kMaxGiB}, "--non-torch-gib: GiB");
  require_in_range(o.cuda_graph_gib, NumberRange{0, kMaxGiB}, "--cuda-graph-gib: GiB");
  if (o.gpu_memory_given) require_in_range(o.gpu_memory_gib, NumberRange{0, kMaxGiB, true}, "--gpu-memory-gib: GiB");
  KvSetup s;
  s.request.weight_bytes_per_param = dtype_or_throw("--weight-dtype", o.weight_dtype);
  s.request.kv_bytes_per_element = dtype_or_throw("--kv-dtype", o.kv_dtype);
  s.model = load_model(o.model);
  s.request.mtp_layers = mtp_layers(o.model);
  s.gpu = choose_gpu(o.gpu, o.gpu_memory_given ? o.gpu_memory_gib : 0);
  s.request.memory = s.gpu.memory;
  s.request.gpus = o.gpus;
  s.request.tp = o.tp;
  s.request.engine = o.vllm;
  as_usage([&] { return engine_profile(o.vllm); });
  if (o.utilization_given) s.request.memory_utilization = o.memory_utilization;
  if (o.activation_given) s.request.activation_reserve_bytes = o.activation_reserve_gib * kGiB;
  if (o.non_torch_given) s.request.non_torch_bytes = o.non_torch_gib * kGiB;
  if (o.cuda_graph_given) s.request.cuda_graph_bytes = o.cuda_graph_gib * kGiB;
  s.request.max_num_batched_tokens = o.max_num_batched_tokens;
  s.request.max_num_seqs = o.max_num_seqs;
  s.request.gpu_name = s.gpu.name;
  s.request.block_size = o.block_size;
  s.request.context = o.context;
  // Without --context the context is the model's max_position_embeddings: a context too long
  // is then the config's doing (--model or --config), not an option the user typed.
  const std::string model_option = o.model.config.empty() ? "--model" : "--config";
  s.plan = blame_given(o.tp_given, "--tp", "--gpus", [&] {
    try {
      return as_usage([&] { return plan_kv(s.model, s.request); });
    } catch (const UsageError& e) {
      const std::string what = e.what(), prefix = "--context: ";
      if (o.context_given || what.rfind(prefix, 0) != 0) throw;
      throw UsageError(fmt::format("{}: the default context, max_position_embeddings {}: {} (--context was not given)",
                                   model_option, s.model.max_position_embeddings, what.substr(prefix.size())));
    }
  });
  return s;
}

/// The kv record's body (also the batch record's "engine"): the model, the GPU, the inputs
/// and the plan, each written by its own to_json (B05's model, B06's GPU and plan, which C07
/// writes too).
json kv_json(const KvSetup& s, const KvOptions& o) {
  json j = {{"model", b05::to_json(s.model)},
            {"gpu", to_json(s.gpu)},
            {"inputs", {{"gpus", s.request.gpus}, {"tp", s.request.tp}, {"weight_dtype", o.weight_dtype},
                        {"kv_dtype", o.kv_dtype}, {"vllm", s.plan.engine.name},
                        {"memory_utilization", s.plan.pool_inputs.memory_utilization},
                        {"activation_reserve_GiB", s.plan.pool_inputs.activation_bytes / kGiB},
                        {"activation_reserve_given", o.activation_given},
                        {"non_torch_GiB", s.plan.pool_inputs.non_torch_bytes / kGiB},
                        {"cuda_graph_GiB", s.plan.pool_inputs.cuda_graph_bytes / kGiB},
                        {"max_num_batched_tokens", s.plan.scheduler.max_num_batched_tokens},
                        {"max_num_seqs", s.plan.scheduler.max_num_seqs}, {"block_size", s.request.block_size},
                        {"context", s.plan.context}}}};
  j.update(to_json(s.plan));
  return j;
}

void print_kv(std::FILE* out, const KvSetup& s, const KvOptions& o) {
  const KvPlan& p = s.plan;
  const auto& m = s.model;
  fmt::print(out, "kind: model (an engine's KV-pool arithmetic on table numbers; no GPU used)\n");
  if (m.is_mla())
    fmt::print(out, "model: {} ({}): {} layers, MLA: one latent of {} elements per token per layer (kv_lora_rank {} + "
                    "qk_rope_head_dim {}), max_position_embeddings {}\n",
               m.name, m.model_type, m.num_layers, m.kv_lora_rank + m.qk_rope_head_dim, m.kv_lora_rank,
               m.qk_rope_head_dim, m.max_position_embeddings);
  else
    fmt::print(out, "model: {} ({}): {} layers, {} KV heads x head_dim {}, max_position_embeddings {}\n", m.name,
               m.model_type, m.num_layers, m.num_kv_heads, m.head_dim, m.max_position_embeddings);
  fmt::print(out, "gpu: {} x {}, TP={} ({} replica{}); total {} per GPU ({})\n", s.gpu.name, s.request.gpus,
             s.request.tp, p.replicas, p.replicas == 1 ? "" : "s", gib(s.gpu.memory.total_bytes),
             s.gpu.memory.source);
  fmt::print(out, "engine: vLLM {} profile ({}){}\n", p.engine.name, p.engine.engine,
             o.vllm == kDefaultEngineProfile && p.engine.name == kDefaultEngineProfile
                 ? " (the default: give --vllm for another release)" : "");
  fmt::print(out, "\nper GPU\n");
  fmt::print(out, "  budget       {:>12}  = {} x {:.2f} (memory utilization)\n", gib(p.pool.budget_bytes),
             gib(s.gpu.memory.total_bytes), p.pool_inputs.memory_utilization);
  const b05::TensorParallelShare& share = p.tp_share;
  if (s.request.tp == 1)
    fmt::print(out, "  - weights    {:>12}  = {:.4g}B params x {:g} B ({})\n", gib(p.weight_bytes_per_gpu),
               share.params_per_gpu / 1e9, s.request.weight_bytes_per_param, o.weight_dtype);
  else
    fmt::print(out, "  - weights    {:>12}  = {} params x {:g} B ({}): {} sharded / TP {} + {} replicated (kept whole on "
                    "every GPU){} (as b05_transformer calc --tp)\n",
               gib(p.weight_bytes_per_gpu), params_text(share.params_per_gpu), s.request.weight_bytes_per_param,
               o.weight_dtype, params_text(share.sharded_params), s.request.tp, params_text(share.replicated_params),
               share.kv_head_copy_params > 0 ? fmt::format(" + {} KV-head copies", params_text(share.kv_head_copy_params))
                                             : std::string());
  const ActivationPeak& a = p.activation;
  if (p.activation_modelled)
    fmt::print(out, "  - activation {:>12}  peak of the profiling pass (model): max(forward {} tokens x {} B = {}, "
                    "hidden states {} + sampler {} seqs x {} vocab x {:g} B = {}); the {} binds\n",
               gib(a.peak_bytes), group(a.max_num_batched_tokens), count_text(a.forward_bytes_per_token),
               gib(a.forward_bytes), gib(a.hidden_bytes), group(a.max_num_seqs), group(m.vocab_size),
               a.sampler_bytes_per_logit, gib(a.hidden_bytes + a.sampler_bytes), a.binds);
  else
    fmt::print(out, "  - activation {:>12}  peak of the profiling pass (given; the model says {} at {} tokens, {} seqs)\n",
               gib(p.pool_inputs.activation_bytes), gib(a.peak_bytes), group(a.max_num_batched_tokens),
               group(a.max_num_seqs));
  fmt::print(out, "  - non-torch  {:>12}  (NCCL and other memory outside the allocator; {})\n",
             gib(p.pool_inputs.non_torch_bytes), p.non_torch_source);
  fmt::print(out, "  - CUDA graph {:>12}  ({})\n", gib(p.pool_inputs.cuda_graph_bytes),
             o.cuda_graph_given ? "given: vLLM >= v0.21 subtracts its estimate"
             : p.pool_inputs.cuda_graph_bytes > 0
                 ? "vLLM >= v0.21 subtracts its estimate; this is one log's, give yours with --cuda-graph-gib"
                 : "this release captures graphs after sizing the pool");
  fmt::print(out, "  profiling pass: max_num_batched_tokens {}, max_num_seqs {} ({})\n",
             group(p.scheduler.max_num_batched_tokens), group(p.scheduler.max_num_seqs), p.scheduler.why);
  if (p.pool.pool_bytes < 0)  // the weights do not leave room: say so, not a negative pool
    fmt::print(out, "  = KV pool    none: {} short of the budget ({:.2f} GB)\n", gib(-p.pool.pool_bytes),
               -p.pool.pool_bytes / 1e9);
  else
    fmt::print(out, "  = KV pool    {:>12}  ({:.2f} GB)\n", gib(p.pool.pool_bytes), p.pool.pool_bytes / 1e9);
  if (m.is_mla())
    fmt::print(out, "  KV per token {} B (the whole MLA latent on every GPU, {}); page = {} tokens = {} B\n",
               count_text(p.kv_bytes_per_token_per_gpu), o.kv_dtype, s.request.block_size,
               count_text(p.pool.block_bytes));
  else
    fmt::print(out, "  KV per token {} B ({} KV head{} of {} per GPU, {}); page = {} tokens = {} B\n",
               count_text(p.kv_bytes_per_token_per_gpu), p.kv_heads_per_gpu, p.kv_heads_per_gpu == 1 ? "" : "s",
               m.num_kv_heads, o.kv_dtype, s.request.block_size, count_text(p.pool.block_bytes));
  fmt::print(out, "  pages {}   tokens {}{}\n", group(p.pool.blocks), group(p.pool.tokens),
             p.windowed ? " (page slots; windowed layers need fewer)" : "");
  if (p.windowed)
    fmt::print(out, "  KV per token: {} B allocated per page slot (every layer), {} B added per token once a sequence "
                    "is past every window (full-attention layers only)\n",
               count_text(p.kv_bytes_per_token_per_gpu), count_text(p.kv_bytes_per_token_growth_per_gpu));
  fmt::print(out, "\nnode ({} GPU{})\n", s.request.gpus, s.request.gpus == 1 ? "" : "s");
  fmt::print(out, "  KV pool {} in all, {} tokens ({} replica{} x {} tokens)\n", gib(p.pool_bytes_total),
             group(p.tokens_total), p.replicas, p.replicas == 1 ? "" : "s", group(p.pool.tokens));
  // Tokens of context the sequences hold in all: said only when windowed layers let more fit
  // than the page slots count.
  fmt::print(out, "  context {} tokens: {} pages per sequence -> max concurrent sequences {}{}{}\n", group(p.context),
             group(p.blocks_per_sequence), group(p.binds == Binding::scheduler ? p.scheduled_sequences : p.max_sequences),
             p.binds == Binding::scheduler
                 ? fmt::format(" (--max-num-seqs {} per replica; the pool holds {})", group(p.scheduler.max_num_seqs),
                               group(p.max_sequences))
                 : "",
             p.more_context_than_slots ? fmt::format(" ({} tokens of context in all: windowed layers keep less than `tokens` "
                                           "counts, so more tokens fit than the page count says)",
                                           count_text(p.context_tokens_in_all))
                             : "");
  fmt::print(out, "  binds: {}: {}\n", to_string(p.binds), p.binds_why);
  for (const auto& n : p.notes) fmt::print(out, "  note: {}\n", n);
  fmt::print(out, "\nformula: {}\nsource: {}\n", kKvPlanFormula, kKvPlanSource);
}

int run_kv(const KvOptions& o, Outputs& out, const std::string& command) {
  out.check({{"--config", o.model.config}, {"--gpu", o.gpu}});
  const KvSetup s = plan_from_options(o);
  json j = record_head("b06_serving", "B06", "model", command, "kv");
  j.update(kv_json(s, o));
  print_kv(out.human(), s, o);
  out.write_json(j);
  return kExitOk;
}

// ---- batch ------------------------------------------------------------------------------

/// Default fractions of the datasheet roofs a real step reaches, measured on the H200 measured here:
/// HBM: cudaMemcpy device-to-device 4227 GB/s of the datasheet 4800 = 0.88
/// (docs/results/H200/b01_architecture/b01_device_info.txt); compute: cublasGemmEx bf16,
/// m=n=k=8192, 686-779 TFLOP/s (median 740.0) of the dense 989.5 = 0.69-0.79 over 50 samples
/// (docs/results/H200/baselines/tutor_baselines.json): 0.70 is the slow end, for the smaller
/// and irregular GEMMs of a serving step.
constexpr double kDefaultBandwidthEfficiency = 0.88;
constexpr double kDefaultComputeEfficiency = 0.70;

struct BatchOptions {
  KvOptions kv;
  std::int64_t requests = 1000;  ///< signed: CLI11 would wrap "-3" into a huge unsigned count
  bool requests_given = false;
  std::uint64_t seed = 1;
  double rate = std::numeric_limits<double>::infinity();
  double prompt_median = 512, prompt_sigma = 1.0, output_median = 128, output_sigma = 1.0;
  std::string trace;
  bool chunked_prefill = false;
  std::int32_t max_batch_tokens = 0;  ///< 0: the engine profile's (scheduler_defaults), as kv's
  std::int32_t max_num_seqs = 0;      ///< 0: the engine profile's (scheduler_defaults), as kv's
  double compute_efficiency = kDefaultComputeEfficiency, bandwidth_efficiency = kDefaultBandwidthEfficiency;
  double overhead_us = 0;
  std::int64_t series_every_steps = 100;
};

void check_fraction(const char* option, double v) {
  if (!(v > 0 && v <= 1)) throw UsageError(fmt::format("{}: must be in (0, 1], got {}", option, v));
}

std::string series_csv(const SimulationResult& r) {
  std::string csv = "t_s,step_ms,running,waiting,kv_used_tokens,kv_used_blocks,kv_utilization,prefill_tokens,"
                    "decode_seqs\n";
  for (const auto& row : r.series)
    csv += fmt::format("{:.6f},{:.6f},{},{},{},{},{:.6f},{},{}\n", row.t_s, row.step_ms, row.running, row.waiting,
                       row.kv_used_tokens, row.kv_used_blocks,
                       r.kv_pool_blocks > 0 ? double(row.kv_used_blocks) / double(r.kv_pool_blocks) : 0.0,
                       row.prefill_tokens, row.decode_seqs);
  return csv;
}

json percentiles_json(const Percentiles& p) {
  return {{"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}, {"mean", p.mean}, {"min", p.min}, {"max", p.max},
          {"n", p.n}};
}

int run_batch(BatchOptions o, Outputs& outputs, const std::string& command) {
  outputs.check({{"--trace", o.trace}, {"--config", o.kv.model.config}, {"--gpu", o.kv.gpu}});
  // The engine: one tensor-parallel group. The pool comes from the KV planner.
  // One engine is one TP group: --tp alone sets the GPUs too (--gpus was not given to blame).
  if (o.kv.tp_given && !o.kv.gpus_given) o.kv.gpus = o.kv.tp;
  if (o.kv.tp_given && o.kv.gpus != o.kv.tp)
    throw UsageError(fmt::format("--gpus: batch simulates one engine (one tensor-parallel group): give --gpus equal "
                                 "to --tp (got {} GPUs, TP {})", o.kv.gpus, o.kv.tp));
  check_fraction("--compute-efficiency", o.compute_efficiency);  // also rejects NaN
  check_fraction("--bandwidth-efficiency", o.bandwidth_efficiency);
  if (!(o.overhead_us >= 0 && std::isfinite(o.overhead_us)))
    throw UsageError(fmt::format("--overhead-us: must be >= 0, got {}", o.overhead_us));
  if (o.max_num_seqs < 0) throw UsageError(fmt::format("--max-num-seqs: must be >= 1, got {}", o.max_num_seqs));
  if (o.max_batch_tokens < 0)
    throw UsageError(fmt::format("--max-batch-tokens: must be >= 1, got {}", o.max_batch_tokens));
  // The engine's profiling pass runs at the scheduler's limits: limits given here go to the
  // planner too, so the pool is carved after the batch this engine runs.
  o.kv.max_num_seqs = o.max_num_seqs;
  o.kv.max_num_batched_tokens = o.max_batch_tokens;
  if (o.requests < 1 || o.requests > std::int64_t(UINT32_MAX))
    throw UsageError(fmt::format("--requests: must be in [1, {}], got {}", UINT32_MAX, o.requests));
  if (o.series_every_steps < 1)
    throw UsageError(fmt::format("--series-every: must be >= 1 step, got {}", o.series_every_steps));
  if (o.trace.empty()) {
    if (!(o.rate > 0) || (std::isfinite(o.rate) && (o.rate < 1e-3 || o.rate > 1e6)))
      throw UsageError(fmt::format("--rate: must be 1e-3 .. 1e6 requests/s, or inf; got {}", o.rate));
    const auto check_length = [](const char* option, double v, double min) {
      if (!(v >= min && std::isfinite(v)))
        throw UsageError(fmt::format("{}: must be a finite number >= {:g}, got {}", option, min, v));
    };
    check_length("--prompt-median", o.prompt_median, 1);
    check_length("--output-median", o.output_median, 1);
    check_length("--prompt-sigma", o.prompt_sigma, 0);
    check_length("--output-sigma", o.output_sigma, 0);
  }
  const KvSetup s = plan_from_options(o.kv);
  const KvPlan& plan = s.plan;
  if (plan.binds != Binding::kv_pool || plan.max_sequences == 0)
    throw UsageError(fmt::format("--model/--gpu: no engine to simulate: {}", plan.binds_why));

  // Scheduler: the limits kv's profiling pass runs at (the engine profile's scheduler_defaults:
  // vLLM V1 `vllm serve` 8192 tokens / 1024 sequences on a GPU of >= 70 GiB that is not an A100,
  // else 2048 / 256; V0 256 sequences). With chunked prefill a step takes that token budget. Without
  // it a step must hold a whole prompt: V0's rule max(max_model_len, budget) (vllm/config.py
  // SchedulerConfig; V1 always chunks, so this mode is V0's scheduling on the profile's limits).
  SchedulerConfig sched;
  sched.kv_pool_tokens = plan.pool.tokens;
  sched.block_size = s.request.block_size;
  sched.chunked_prefill = o.chunked_prefill;
  const std::int64_t profile_budget = plan.scheduler.max_num_batched_tokens;
  const std::int64_t default_budget = o.chunked_prefill ? profile_budget : std::max(plan.context, profile_budget);
  sched.max_batch_tokens = o.max_batch_tokens > 0
                               ? o.max_batch_tokens
                               : static_cast<std::int32_t>(std::min<std::int64_t>(default_budget, INT32_MAX));
  // vLLM caps the default sequences of a step at its tokens; a given --max-num-seqs must fit.
  sched.max_num_seqs = o.max_num_seqs > 0
                           ? o.max_num_seqs
                           : static_cast<std::int32_t>(std::min<std::int64_t>(plan.scheduler.max_num_seqs,
                                                                              sched.max_batch_tokens));
  if (sched.max_batch_tokens < sched.max_num_seqs && o.max_batch_tokens <= 0)  // only --max-num-seqs was given
    throw UsageError(fmt::format("--max-num-seqs: {} sequences exceed the step's default token budget of {} (the "
                                 "engine profile's; --max-batch-tokens was not given): give fewer sequences or "
                                 "--max-batch-tokens >= {}",
                                 sched.max_num_seqs, sched.max_batch_tokens, sched.max_num_seqs));
  if (sched.max_batch_tokens < sched.max_num_seqs)
    throw UsageError(fmt::format("--max-batch-tokens: must be >= --max-num-seqs ({}), got {}", sched.max_num_seqs,
                                 sched.max_batch_tokens));
  const std::string sched_source =
      o.max_num_seqs > 0 && o.max_batch_tokens > 0 ? std::string("given")
                                                   : fmt::format("limits not given: vLLM {} defaults for this GPU, as kv",
                                                                 plan.engine.name);

  // Step cost: the roofline of one GPU of the group, per-GPU work (B05's FLOPs and bytes / TP).
  const b05::TokenFlops one = b05::decode_flops(s.model, 1);  // context 1: one (query, key) pair per layer
  RooflineStepParams cost_params;
  cost_params.weight_bytes = plan.weight_bytes_per_gpu;
  cost_params.flops_per_token_linear = one.linear / s.request.tp;
  cost_params.kv_bytes_per_token = plan.kv_bytes_per_token_per_gpu;
  cost_params.attention_flops_per_pair = one.attention / s.request.tp;
  cost_params.peak_TFLOPs = s.gpu.bf16_TFLOPs * o.compute_efficiency;
  cost_params.hbm_GBps = s.gpu.hbm_bandwidth_GBps * o.bandwidth_efficiency;
  cost_params.overhead_us = o.overhead_us;
  if (!(cost_params.peak_TFLOPs > 0))
    throw UsageError(fmt::format("--gpu: {} has no bf16 rate in the table", s.gpu.name));
  const RooflineStepCost cost(cost_params);

  // Requests.
  std::vector<Request> requests;
  std::string workload_text;
  json workload_json;
  if (!o.trace.empty()) {
    try {
      // --requests N reads the first N rows and stops: the rest is neither read nor stored.
      requests = read_trace_csv(o.trace, o.requests_given ? std::size_t(o.requests) : kMaxTraceRows);
    } catch (const UsageError& e) {
      throw UsageError(std::string("--trace: ") + e.what());
    }
    if (o.requests_given && std::size_t(o.requests) < requests.size()) requests.resize(std::size_t(o.requests));
    workload_text = fmt::format("trace {} ({} requests)", o.trace, group(std::int64_t(requests.size())));
    workload_json = {{"trace", o.trace}, {"requests", requests.size()}};
  } else {
    SyntheticWorkload w;
    w.requests = std::size_t(o.requests);
    w.arrival_rate_per_s = o.rate;
    const auto cap = static_cast<std::int32_t>(std::min<std::int64_t>(plan.context, INT32_MAX));
    w.prompt = {o.prompt_median, o.prompt_sigma, cap};
    w.output = {o.output_median, o.output_sigma, cap};
    w.seed = o.seed;
    w.max_total_tokens = kMaxWorkloadTokens;
    requests = as_usage([&] { return generate_workload(w); });
    workload_text = fmt::format(
        "{} requests, {}, prompt lognormal(median {:g}, sigma {:g}), output lognormal(median {:g}, sigma {:g}), "
        "lengths capped at {} tokens, seed {}",
        group(std::int64_t(o.requests)),
        std::isinf(o.rate) ? std::string("all arriving at t = 0 (offline batch)")
                           : fmt::format("Poisson arrivals at {:g}/s", o.rate),
        o.prompt_median, o.prompt_sigma, o.output_median, o.output_sigma, group(cap), o.seed);
    workload_json = {{"requests", o.requests}, {"arrival_rate_per_s", std::isinf(o.rate) ? json("inf") : json(o.rate)},
                     {"prompt", {{"median_tokens", o.prompt_median}, {"sigma", o.prompt_sigma}}},
                     {"output", {{"median_tokens", o.output_median}, {"sigma", o.output_sigma}}},
                     {"max_tokens", cap}, {"seed", o.seed}};
  }

  require_simulable(requests, o.trace.empty() ? fmt::format("--requests {} x the length options", o.requests)
                                              : "--trace " + o.trace);
  SimulationOptions sim_options;
  sim_options.series_every_steps = o.series_every_steps;
  const bool progress = ::isatty(STDERR_FILENO);
  if (progress)
    sim_options.progress = [](const SimulationProgress& p) {
      fmt::print(stderr, "\rsimulating: {}/{} requests done, {} steps, t = {:.1f} s   ", p.finished, p.requests,
                 p.steps, p.now_s);
    };
  const SimulationResult r = as_usage([&] { return simulate(requests, sched, cost, sim_options); });
  if (progress) fmt::print(stderr, "\r{:80}\r", "");

  // Human report.
  std::FILE* out = outputs.human();
  fmt::print(out, "kind: simulation (continuous batching with roofline step times: a model of an engine, not a "
                  "measurement)\n");
  fmt::print(out, "model: {} ({}), weights {} per GPU ({}), KV {} B per token per GPU ({})\n", s.model.name,
             s.model.model_type, gib(plan.weight_bytes_per_gpu), o.kv.weight_dtype,
             group(std::llround(plan.kv_bytes_per_token_per_gpu)), o.kv.kv_dtype);
  fmt::print(out, "engine: {} x {} (TP={}), KV pool {} per GPU = {} pages x {} = {} tokens (kv planner)\n",
             s.gpu.name, s.request.gpus, s.request.tp, gib(plan.pool.pool_bytes), group(plan.pool.blocks),
             s.request.block_size, group(plan.pool.tokens));
  fmt::print(out, "step cost: max(FLOPs / {:.1f} TFLOP/s, bytes / {:.0f} GB/s) + {:g} us; roofs = bf16 {:g} x {:.2f} "
                  "and HBM {:g} x {:.2f} (efficiencies: measured on an H200, see --help)\n",
             cost_params.peak_TFLOPs, cost_params.hbm_GBps, cost_params.overhead_us, s.gpu.bf16_TFLOPs,
             o.compute_efficiency, s.gpu.hbm_bandwidth_GBps, o.bandwidth_efficiency);
  fmt::print(out, "scheduler: chunked prefill {}, {} tokens per step{}, {} sequences max, watermark {:g}% ({})\n",
             o.chunked_prefill ? "on" : "off", group(sched.max_batch_tokens),
             !o.chunked_prefill && o.max_batch_tokens == 0 && sched.max_batch_tokens > profile_budget
                 ? fmt::format(" (a whole prompt: max(context, {}))", group(profile_budget))
                 : "",
             group(sched.max_num_seqs), 100 * sched.watermark_fraction, sched_source);
  fmt::print(out, "workload: {}\n\n", workload_text);
  fmt::print(out, "completed {} of {} ({} rejected), preemptions {} ({} tokens recomputed), steps {}\n",
             group(std::int64_t(r.completed)), group(std::int64_t(r.requests)), group(std::int64_t(r.rejected)),
             group(r.preemptions), group(r.recomputed_tokens), group(r.steps));
  fmt::print(out, "simulated {:.2f} s (busy {:.2f} s): {:.2f} requests/s, {:.0f} output tokens/s\n", r.simulated_s,
             r.busy_s, r.requests_per_s, r.output_tokens_per_s);
  fmt::print(out, "{:<10} {:>10} {:>10} {:>10} {:>10}\n", "ms", "p50", "p90", "p99", "mean");
  for (const auto& [label, p] : {std::pair{"TTFT", &r.ttft_ms}, std::pair{"TPOT", &r.tpot_ms},
                                 std::pair{"end-to-end", &r.e2e_ms}})
    fmt::print(out, "{:<10} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f}\n", label, p->p50, p->p90, p->p99, p->mean);
  fmt::print(out, "KV utilization: mean {:.1f}%, max {:.1f}%; mean batch {:.1f} sequences, mean step {:.2f} ms, "
                  "longest queue {}\n", 100 * r.kv_utilization_mean, 100 * r.kv_utilization_max, r.mean_batch_seqs,
             r.mean_step_ms, group(r.max_waiting));
  // The simulator charges every token a page slot of every layer; a windowed model's sequence
  // needs only its window in those layers (kv's sequence count), so say what that over-states.
  std::vector<std::string> notes;
  if (plan.windowed)
    notes.push_back(fmt::format(
        "KV accounting: every token takes a page slot of every layer ({} B per token per GPU), as an engine that never "
        "frees out-of-window KV allocates; windowed layers keep only their window, so past it a sequence grows by {} "
        "B per token and the pool holds more long sequences than simulated here (kv's sequence count allows for it)",
        count_text(plan.kv_bytes_per_token_per_gpu), count_text(plan.kv_bytes_per_token_growth_per_gpu)));
  for (const auto& n : notes) fmt::print(out, "note: {}\n", n);

  // Outputs: built whole, then written atomically.
  json j = record_head("b06_serving", "B06", "simulation", command, "batch");
  j["engine"] = kv_json(s, o.kv);
  j["scheduler"] = {{"kv_pool_tokens", sched.kv_pool_tokens}, {"block_size", sched.block_size},
                    {"max_batch_tokens", sched.max_batch_tokens}, {"max_num_seqs", sched.max_num_seqs},
                    {"chunked_prefill", sched.chunked_prefill}, {"watermark_fraction", sched.watermark_fraction},
                    {"source", sched_source}, {"engine_defaults", plan.scheduler.why}};
  j["notes"] = notes;
  j["step_cost"] = {{"model", "roofline: max(flops / peak, bytes / bandwidth) + overhead (step_cost.hpp)"},
                    {"weight_bytes", cost_params.weight_bytes},
                    {"flops_per_token_linear", cost_params.flops_per_token_linear},
                    {"kv_bytes_per_token", cost_params.kv_bytes_per_token},
                    {"attention_flops_per_pair", cost_params.attention_flops_per_pair},
                    {"peak_TFLOPs", cost_params.peak_TFLOPs}, {"hbm_GBps", cost_params.hbm_GBps},
                    {"overhead_us", cost_params.overhead_us}, {"compute_efficiency", o.compute_efficiency},
                    {"bandwidth_efficiency", o.bandwidth_efficiency},
                    {"sources", {{"bf16_TFLOPs", s.gpu.bf16_source}, {"hbm_GBps", s.gpu.bandwidth_source}}}};
  j["workload"] = workload_json;
  j["results"] = {{"requests", r.requests}, {"completed", r.completed}, {"rejected", r.rejected},
                  {"prompt_tokens", r.prompt_tokens}, {"output_tokens", r.output_tokens},
                  {"preemptions", r.preemptions}, {"recomputed_tokens", r.recomputed_tokens}, {"steps", r.steps},
                  {"simulated_s", r.simulated_s}, {"busy_s", r.busy_s}, {"requests_per_s", r.requests_per_s},
                  {"output_tokens_per_s", r.output_tokens_per_s}, {"mean_step_ms", r.mean_step_ms},
                  {"mean_batch_seqs", r.mean_batch_seqs}, {"ttft_ms", percentiles_json(r.ttft_ms)},
                  {"tpot_ms", percentiles_json(r.tpot_ms)}, {"e2e_ms", percentiles_json(r.e2e_ms)},
                  {"kv_pool_blocks", r.kv_pool_blocks}, {"kv_pool_tokens", r.kv_pool_tokens},
                  {"kv_utilization_mean", r.kv_utilization_mean}, {"kv_utilization_max", r.kv_utilization_max},
                  {"max_waiting", r.max_waiting}};
  j["time_series"] = {{"every_steps", o.series_every_steps},
                      {"columns", "t_s,step_ms,running,waiting,kv_used_tokens,kv_used_blocks,kv_utilization,"
                                  "prefill_tokens,decode_seqs"}};
  if (outputs.csv()) outputs.write_csv(series_csv(r));
  outputs.write_json(j);  // last: it names the CSV with its SHA-256
  return kExitOk;
}

// ---- spec -------------------------------------------------------------------------------

struct SpecOptions {
  SpecParams params;
  std::int64_t monte_carlo_steps = 0;  ///< signed: CLI11 would wrap "-3" into a huge unsigned count
  std::uint64_t seed = 1;
  int max_draft_tokens = 64;
};

/// |z| above this fails the Monte Carlo check (exit 1): a correct model exceeds 4 standard
/// errors in about 6 runs of 100,000 (two-sided normal tail).
constexpr double kMonteCarloZLimit = 4;
/// A billion steps take a few seconds; more is not a useful check.
constexpr std::int64_t kMaxMonteCarloSteps = 100'000'000;

int run_spec(const SpecOptions& o, Outputs& outputs, const std::string& command) {
  outputs.check();
  as_usage([&] { validate(o.params); });
  if (o.max_draft_tokens < 1 || o.max_draft_tokens > 1024)
    throw UsageError(fmt::format("--max-draft-tokens: must be in [1, 1024], got {}", o.max_draft_tokens));
  if (o.params.draft_tokens > 1024)
    throw UsageError(fmt::format("--draft-tokens: must be in [1, 1024], got {}", o.params.draft_tokens));
  const auto& p = o.params;
  // Each step draws up to k + 1 numbers: bound the work to about 2 s (1e9 steps ran 25 s).
  if (double(o.monte_carlo_steps) * (p.draft_tokens + 1) > 4e8)
    throw UsageError(fmt::format("--monte-carlo: {} steps x (k + 1 = {}) draws exceed the 4e8 this tool allows",
                                 o.monte_carlo_steps, p.draft_tokens + 1));
  const double E = expected_tokens_per_step(p.acceptance_rate, p.draft_tokens);
  const double S = speedup(p);
  const OptimalDraft best = optimal_draft_tokens(p.acceptance_rate, p.cost_ratio, o.max_draft_tokens);
  const BreakEven be = break_even_acceptance_rate(p.draft_tokens, p.cost_ratio);

  std::FILE* out = outputs.human();
  fmt::print(out, "kind: model (closed form: Leviathan, Kalman & Matias, \"Fast Inference from Transformers via "
                  "Speculative Decoding\", ICML 2023)\n");
  fmt::print(out, "inputs: acceptance rate a = {:g} (i.i.d. per token), draft tokens k = {}, cost ratio c = {:g} "
                  "(draft forward / target forward)\n", p.acceptance_rate, p.draft_tokens, p.cost_ratio);
  fmt::print(out, "expected tokens per verification step  E = (1 - a^(k+1)) / (1 - a)          = {:.4f}   "
                  "[eq. 1]\n", E);
  fmt::print(out, "walltime improvement  S = (1 - a^(k+1)) / ((1 - a)(c k + 1))             = {:.4f}x  "
                  "[Theorem 3.8]\n", S);
  fmt::print(out, "optimal draft length at a = {:g}, c = {:g}: k = {} (S = {:.4f}x){}, searched k = 1..{}\n",
             p.acceptance_rate, p.cost_ratio, best.draft_tokens, best.speedup,
             best.at_search_bound ? " at the search bound (S still grows: raise --max-draft-tokens)" : "",
             o.max_draft_tokens);
  if (best.speedup <= 1) fmt::print(out, "  no draft length pays at this a and c: plain decoding is faster\n");
  if (be.exists)
    fmt::print(out, "break-even acceptance rate for k = {}, c = {:g}: a = {:.4f} (S = 1, bisection); below it "
                    "speculation is slower than plain decoding\n", p.draft_tokens, p.cost_ratio, be.acceptance_rate);
  else
    fmt::print(out, "break-even acceptance rate for k = {}, c = {:g}: none: with c >= 1 even a = 1 gives "
                    "S = (k+1)/(ck+1) <= 1\n", p.draft_tokens, p.cost_ratio);
  fmt::print(out, "assumes: acceptances i.i.d. with rate a (sec. 3.1); the target verifies k+1 tokens in one "
                  "forward's time (memory-bound decode); the k draft forwards run serially at c each\n");

  json j = record_head("b06_serving", "B06", "model", command, "spec");
  j["inputs"] = {{"acceptance_rate", p.acceptance_rate}, {"draft_tokens", p.draft_tokens},
                 {"cost_ratio", p.cost_ratio}, {"max_draft_tokens", o.max_draft_tokens}};
  j["expected_tokens_per_step"] = E;
  j["speedup"] = S;
  j["optimal"] = {{"draft_tokens", best.draft_tokens}, {"speedup", best.speedup},
                  {"at_search_bound", best.at_search_bound}};
  j["break_even"] = be.exists ? json{{"exists", true}, {"acceptance_rate", be.acceptance_rate}}
                              : json{{"exists", false}};
  j["formulas"] = {{"expected_tokens_per_step", "(1 - a^(k+1)) / (1 - a)  [Leviathan et al. 2023, eq. 1]"},
                   {"speedup", "(1 - a^(k+1)) / ((1 - a)(c k + 1))  [Leviathan et al. 2023, Theorem 3.8]"},
                   {"break_even", "a such that speedup = 1, by bisection on [0, 1]"}};
  j["source"] = "Y. Leviathan, M. Kalman, Y. Matias, Fast Inference from Transformers via Speculative Decoding, "
                "ICML 2023 (arXiv:2211.17192)";

  int rc = kExitOk;
  if (o.monte_carlo_steps > 0) {
    const MonteCarloResult mc =
        as_usage([&] { return monte_carlo(p, std::uint64_t(o.monte_carlo_steps), o.seed); });
    const bool consistent = std::abs(mc.z_score) < kMonteCarloZLimit;
    fmt::print(out, "\nkind: simulation (Monte Carlo: {} verification steps, Bernoulli(a) acceptances, seed {})\n",
               group(std::int64_t(mc.steps)), mc.seed);
    fmt::print(out, "  tokens per step {:.4f} +- {:.4f} (standard error; sample sd {:.4f})\n",
               mc.mean_tokens_per_step, mc.standard_error, mc.sample_std);
    fmt::print(out, "  closed form     {:.4f} (exact sd {:.4f}): z = {:+.2f} -> {}\n", mc.closed_form_tokens,
               mc.closed_form_std, mc.z_score,
               consistent ? fmt::format("consistent (|z| < {:g})", kMonteCarloZLimit)
                          : fmt::format("INCONSISTENT (|z| >= {:g})", kMonteCarloZLimit));
    fmt::print(out, "  speedup         {:.4f}x (simulated tokens / (steps x (c k + 1)))\n", mc.speedup);
    j["monte_carlo"] = {{"kind", "simulation"}, {"steps", mc.steps}, {"seed", mc.seed},
                        {"mean_tokens_per_step", mc.mean_tokens_per_step}, {"standard_error", mc.standard_error},
                        {"sample_std", mc.sample_std}, {"closed_form_tokens", mc.closed_form_tokens},
                        {"closed_form_std", mc.closed_form_std}, {"z_score", mc.z_score},
                        {"z_limit", kMonteCarloZLimit}, {"consistent", consistent}, {"speedup", mc.speedup}};
    if (!consistent) rc = kExitCheckFailed;
  }
  outputs.write_json(j);
  if (rc != kExitOk) fmt::print(stderr, "b06_serving: the Monte Carlo disagrees with the closed form (|z| >= {:g})\n",
                                kMonteCarloZLimit);
  return rc;
}

// ---- main -------------------------------------------------------------------------------

int run(int argc, char** argv) {
  CLI::App app{"B06 Inference serving: the KV-cache planner (kv), a continuous-batching simulator (batch) and "
               "the speculative-decoding model (spec). Models and simulations: no GPU needed.",
               "b06_serving"};
  app.require_subcommand(1, 1);
  const std::string command = command_line(argc, argv);

  KvOptions kv;
  auto* kv_cmd = app.add_subcommand("kv", "KV-cache planner: pool bytes, tokens, pages, max concurrent sequences "
                                          "and what binds (kind: model)");
  add_kv_options(kv_cmd, kv);
  add_profile_options(kv_cmd, kv);
  Outputs kv_out(*kv_cmd);

  BatchOptions batch;
  auto* batch_cmd = app.add_subcommand("batch", "continuous-batching simulation of a request stream on the KV pool, "
                                                "roofline step times (kind: simulation)");
  add_kv_options(batch_cmd, batch.kv);
  batch_cmd->add_option("--requests", batch.requests, "synthetic requests to simulate (>= 1; default 1000); with "
                                                      "--trace, the first N rows (at most 20,000,000)")
      ->check(decimal_integer())->check(CLI::Range(1, 20000000));
  batch_cmd->add_option("--seed", batch.seed, "seed of the synthetic workload (default 1)")->check(decimal_integer());
  batch_cmd->add_option("--rate", batch.rate, "Poisson arrival rate, requests/s (> 0; default inf: every request "
                                              "at t = 0, an offline batch; finite rates 1e-3 .. 1e6)")
      ->transform(number_in({1e-3, 1e6, false, false, true}));
  batch_cmd->add_option("--prompt-median", batch.prompt_median, "median prompt length, tokens (1 .. 1e7; default 512)")->transform(number_in(1, 1e7));
  batch_cmd->add_option("--prompt-sigma", batch.prompt_sigma, "sigma of ln(prompt length) (0 .. 10; default 1.0)")->transform(number_in(0, 10));
  batch_cmd->add_option("--output-median", batch.output_median, "median output length, tokens (1 .. 1e7; default 128)")->transform(number_in(1, 1e7));
  batch_cmd->add_option("--output-sigma", batch.output_sigma, "sigma of ln(output length) (0 .. 10; default 1.0)")->transform(number_in(0, 10));
  batch_cmd->add_option("--trace", batch.trace, "CSV trace instead of the synthetic workload: header "
                                                "timestamp_s,prompt_tokens,output_tokens");
  batch_cmd->add_flag("--chunked-prefill", batch.chunked_prefill, "split prompts across steps (Sarathi-Serve); "
                                                                  "default off");
  batch_cmd->add_option("--max-batch-tokens", batch.max_batch_tokens,
                        "tokens per step (>= --max-num-seqs; default the engine profile's, as kv's profiling pass: "
                        "vLLM V1 8192 on a GPU of >= 70 GiB that is not an A100, else 2048; V0 2048; without "
                        "--chunked-prefill a step holds a whole prompt: max(context, that))")->check(integer_in(1, 1 << 30));
  batch_cmd->add_option("--max-num-seqs", batch.max_num_seqs,
                        "sequences per step (1 .. 1048576; default the engine profile's, as kv's: vLLM V1 1024 on a "
                        "GPU of >= 70 GiB that is not an A100, else 256; V0 256; at most --max-batch-tokens)")
      ->check(integer_in(1, 1 << 20));
  batch_cmd->add_option("--compute-efficiency", batch.compute_efficiency,
                        "fraction of the dense bf16 peak a step reaches, 0.01 .. 1 (default 0.70: the slow end of 50 "
                        "cuBLAS bf16 GEMMs at 8192^3 on the H200 measured here, 686-779 of 989.5 TFLOP/s, median 740.0, "
                        "docs/results/H200/baselines/tutor_baselines.json)")->transform(number_in(0.01, 1));
  batch_cmd->add_option("--bandwidth-efficiency", batch.bandwidth_efficiency,
                        "fraction of the datasheet HBM bandwidth a step reaches, 0.01 .. 1 (default 0.88: "
                        "cudaMemcpy 4227 of 4800 GB/s on the H200 measured here)")->transform(number_in(0.01, 1));
  batch_cmd->add_option("--overhead-us", batch.overhead_us, "fixed cost per step, microseconds (0 .. 1e6; default 0: "
                                                            "the roofline floor)")->transform(number_in(0, 1e6));
  batch_cmd->add_option("--series-every", batch.series_every_steps, "one CSV time-series row per N steps (>= 1; "
                                                                    "default 100)")->check(integer_in(1, 1'000'000'000));
  Outputs batch_out(*batch_cmd, {.csv = true, .csv_beside_json = true,
                                 .csv_help = "write the time series (KV utilization, queue, batch per step) as CSV "
                                             "to PATH"});

  SpecOptions spec;
  auto* spec_cmd = app.add_subcommand("spec", "speculative decoding: tokens per step, speedup, optimal draft "
                                              "length, break-even acceptance rate (kind: model)");
  spec_cmd->add_option("--acceptance-rate", spec.params.acceptance_rate,
                       "probability the target accepts a draft token, in [0, 1]")->transform(number_in(0, 1))->required();
  spec_cmd->add_option("--draft-tokens", spec.params.draft_tokens, "draft tokens per verification step (1 to 1024)")
      ->required()->check(integer_in(1, 1024));
  spec_cmd->add_option("--cost-ratio", spec.params.cost_ratio,
                       "draft forward time / target forward time (0 .. 1000)")->transform(number_in(0, 1000))->required();
  spec_cmd->add_option("--max-draft-tokens", spec.max_draft_tokens, "search bound of the optimal draft length "
                                                                    "(1 to 1024, default 64)")->check(integer_in(1, 1024));
  spec_cmd->add_option("--monte-carlo", spec.monte_carlo_steps,
                       "also simulate N verification steps and compare with the closed form (2 .. 1e8, and "
                       "N x (k + 1) at most 4e8 draws: a run of about 2 s)")
      ->check(integer_in(2, kMaxMonteCarloSteps));
  spec_cmd->add_option("--seed", spec.seed, "seed of the Monte Carlo (default 1)")->check(decimal_integer());
  Outputs spec_out(*spec_cmd);

  if (const int rc = parse_command_line(app, argc, argv); rc >= 0) return rc;
  kv.mark_given(kv_cmd);
  batch.kv.mark_given(batch_cmd);
  batch.requests_given = batch_cmd->count("--requests") > 0;
  if (batch_cmd->parsed()) return run_batch(batch, batch_out, command);
  if (kv_cmd->parsed()) return run_kv(kv, kv_out, command);
  if (spec_cmd->count("--monte-carlo") > 0 && (spec.monte_carlo_steps < 2 || spec.monte_carlo_steps > kMaxMonteCarloSteps))
    throw UsageError(fmt::format("--monte-carlo: steps must be in [2, {}], got {}", kMaxMonteCarloSteps,
                                 spec.monte_carlo_steps));
  return run_spec(spec, spec_out, command);
}

}  // namespace
}  // namespace tutor::b06

int main(int argc, char** argv) {
  return tutor::run_main("b06_serving", [&] { return tutor::b06::run(argc, argv); });
}
