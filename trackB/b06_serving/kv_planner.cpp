#include "kv_planner.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calculator.hpp"

namespace tutor::b06 {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

/// Runtime totals (what torch.cuda.mem_get_info()[1] and cudaDeviceProp.totalGlobalMem
/// report), where a source records one. The datasheet's "80GB" is neither 80e9 B nor 80 GiB
/// of usable memory: the runtime reports 79.22 GiB = 85.06e9 B on an H100 80GB.
struct RuntimeTotal {
  std::string_view key;
  double bytes;
  std::string_view source;
};
const RuntimeTotal kRuntimeTotals[] = {
    {"h100-sxm", 79.22 * kGiB,
     "runtime total: vLLM logs 'total_gpu_memory (79.22GiB)' (torch.cuda.mem_get_info) on an "
     "H100 80GB, github.com/vllm-project/vllm/pull/12126 and pull/10511"},
    {"h200-sxm", 150109880320.0,
     "runtime total: cudaDeviceProp.totalGlobalMem = 150,109,880,320 B on the H200 measured here, "
     "docs/results/H200/b01_architecture/b01_device_info.txt"},
};

}  // namespace

GpuMemory gpu_memory(const hw::GpuSpec& gpu) {
  for (const auto& r : kRuntimeTotals)
    if (r.key == gpu.key) return {r.bytes, true, std::string(r.source)};
  return {gpu.memory_GB.value * 1e9, false,
          fmt::format("datasheet {} GB x 1e9 B ({}); the runtime total usually differs (an H100 80GB "
                      "reports 79.22 GiB = 85.06e9 B): pass --gpu-memory-gib from torch.cuda.mem_get_info()",
                      gpu.memory_GB.value, gpu.memory_GB.source)};
}

KvPool size_kv_pool(const KvPoolInputs& in) {
  require(in.total_memory_bytes > 0 && std::isfinite(in.total_memory_bytes),
          "--gpu-memory-gib: GPU memory must be > 0");
  require(in.memory_utilization > 0 && in.memory_utilization <= 1,
          fmt::format("--memory-utilization: must be in (0, 1], got {}", in.memory_utilization));
  require(in.weight_bytes >= 0, "weights: must be >= 0 bytes");
  require(in.activation_bytes >= 0 && std::isfinite(in.activation_bytes),
          "--activation-reserve-gib: must be >= 0");
  require(in.non_torch_bytes >= 0 && std::isfinite(in.non_torch_bytes), "--non-torch-gib: must be >= 0");
  require(in.cuda_graph_bytes >= 0 && std::isfinite(in.cuda_graph_bytes), "--cuda-graph-gib: must be >= 0");
  require(in.kv_bytes_per_token > 0, "kv bytes per token: must be > 0");
  require(in.block_size >= 1, fmt::format("--block-size: must be >= 1 token, got {}", in.block_size));
  KvPool p;
  p.budget_bytes = in.total_memory_bytes * in.memory_utilization;
  p.pool_bytes = p.budget_bytes - in.weight_bytes - in.activation_bytes - in.non_torch_bytes - in.cuda_graph_bytes;
  p.block_bytes = double(in.block_size) * in.kv_bytes_per_token;
  // vLLM: num_gpu_blocks = max(int(available_kv_cache_memory // cache_block_size), 0)
  p.blocks = p.pool_bytes > 0 ? static_cast<std::int64_t>(std::floor(p.pool_bytes / p.block_bytes)) : 0;
  p.tokens = p.blocks * in.block_size;
  return p;
}

SchedulerLimits scheduler_defaults(const EngineProfile& engine, const GpuMemory& memory, const std::string& gpu_name,
                                   std::int64_t context) {
  if (engine.v0_batch) {
    // vLLM V0 (vllm/engine/arg_utils.py of v0.6): chunked prefill on by default only past 32K
    // tokens; without it the pass runs max(max_model_len, 2048) tokens; 256 sequences.
    if (context > 32768)
      return {2048, 256, "vLLM V0 default past 32K context (chunked prefill on): 2048 tokens, 256 sequences"};
    return {std::max<std::int64_t>(context, 2048), 256,
            "vLLM V0 default without chunked prefill: max(max_model_len, 2048) tokens, 256 sequences"};
  }
  std::string lower = gpu_name;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool large = memory.total_bytes >= 70 * kGiB && lower.find("a100") == std::string::npos;
  if (large)
    return {8192, 1024,
            fmt::format("vLLM V1 `vllm serve` default for a GPU of >= 70 GiB that is not an A100 ({:.2f} GiB): "
                        "max_num_batched_tokens 8192, max_num_seqs 1024 (vllm/engine/arg_utils.py)",
                        memory.total_bytes / kGiB)};
  return {2048, 256,
          fmt::format("vLLM V1 `vllm serve` default for a GPU below 70 GiB or an A100 ({:.2f} GiB): "
                      "max_num_batched_tokens 2048, max_num_seqs 256 (vllm/engine/arg_utils.py)",
                      memory.total_bytes / kGiB)};
}

ActivationPeak activation_peak(const b05::ModelConfig& m, int tp, std::int64_t max_num_batched_tokens,
                               std::int64_t max_num_seqs, double sampler_bytes_per_logit) {
  require(max_num_batched_tokens >= 1,
          fmt::format("--max-num-batched-tokens: must be >= 1 token, got {}", max_num_batched_tokens));
  require(max_num_seqs >= 1, fmt::format("--max-num-seqs: must be >= 1, got {}", max_num_seqs));
  require(tp >= 1, fmt::format("--tp: must be >= 1, got {}", tp));
  require(sampler_bytes_per_logit >= 0 && std::isfinite(sampler_bytes_per_logit),
          "--vllm: the engine profile's sampler bytes per logit must be >= 0");
  constexpr double kActivationBytes = 2;  // bf16 activations
  const double h = double(m.hidden_size);
  const double t = double(tp);
  // Attention stage: residual + normed input + this GPU's q, k, v + attention output + o output.
  const double heads = double(m.num_heads) / t;
  double attention = 0;
  if (m.is_mla()) {
    const double d_qk = double(m.qk_nope_head_dim + m.qk_rope_head_dim);
    const double d_v = double(m.v_head_dim);
    attention = 3 * h + heads * (2 * d_qk + 2 * d_v) + double(m.kv_lora_rank + m.qk_rope_head_dim);
  } else {
    const double kv_heads = std::max(1.0, std::floor(double(m.num_kv_heads) / t));
    attention = 3 * h + (2 * heads + 2 * kv_heads) * double(m.head_dim);
  }
  // MLP stage: residual + normed input + gate/up + activation output + down output.
  const double inner_factor = m.gated_mlp ? 3 : 2;
  bool any_dense = false, any_moe = false;
  for (const auto& l : m.layers) (l.moe ? any_moe : any_dense) = true;
  if (m.layers.empty()) any_dense = true;
  const double dense = 3 * h + inner_factor * double(m.intermediate_size) / t;
  double moe = 0;
  if (any_moe) {
    const double i_moe = double(m.moe_intermediate_size > 0 ? m.moe_intermediate_size : m.intermediate_size);
    const double i_shared = double(m.shared_expert_intermediate_size > 0 ? m.shared_expert_intermediate_size : i_moe);
    moe = 3 * h + double(m.experts_per_token) * (inner_factor * i_moe / t + h) +
          double(m.num_shared_experts) * inner_factor * i_shared / t + double(m.num_experts);
  }
  ActivationPeak a;
  a.max_num_batched_tokens = max_num_batched_tokens;
  a.max_num_seqs = max_num_seqs;
  double best = attention;
  a.forward_stage = "attention";
  if (any_dense && dense > best) best = dense, a.forward_stage = "mlp";
  if (any_moe && moe > best) best = moe, a.forward_stage = "moe";
  a.forward_bytes_per_token = best * kActivationBytes;
  a.forward_bytes = a.forward_bytes_per_token * double(max_num_batched_tokens);
  a.hidden_bytes = double(max_num_batched_tokens) * h * kActivationBytes;
  a.sampler_bytes_per_logit = sampler_bytes_per_logit;
  a.sampler_bytes = sampler_bytes_per_logit * double(max_num_seqs) * double(m.vocab_size);
  const double sampler_total = a.hidden_bytes + a.sampler_bytes;
  a.binds = a.forward_bytes >= sampler_total ? "forward" : "sampler";
  a.peak_bytes = std::max(a.forward_bytes, sampler_total);
  return a;
}

const char* to_string(Binding b) {
  switch (b) {
    case Binding::context_length: return "context_length";
    case Binding::weights: return "weights";
    case Binding::scheduler: return "scheduler";
    case Binding::kv_pool: return "kv_pool";
  }
  return "?";
}

KvPlan plan_kv(const b05::ModelConfig& model, const KvPlanRequest& r) {
  require(r.gpus >= 1, fmt::format("--gpus: must be >= 1, got {}", r.gpus));
  require(r.tp >= 1, fmt::format("--tp: must be >= 1, got {}", r.tp));
  require(r.gpus % r.tp == 0,
          fmt::format("--tp: {} GPUs do not split into tensor-parallel groups of {}", r.gpus, r.tp));
  require(r.weight_bytes_per_param > 0, "--weight-dtype: bytes per parameter must be > 0");
  require(r.kv_bytes_per_element > 0, "--kv-dtype: bytes per element must be > 0");
  require(r.context >= 0, fmt::format("--context: must be >= 1 token, got {}", r.context));
  // vLLM splits query heads evenly over TP ranks and either splits KV heads evenly or
  // replicates them (vllm/model_executor/models/llama.py, LlamaAttention.__init__:
  // "assert self.total_num_heads % tp_size == 0"; KV: "total_num_kv_heads % tp_size == 0"
  // when there are at least tp of them, else "tp_size % total_num_kv_heads == 0").
  require(model.num_heads % r.tp == 0,
          fmt::format("--tp: {} attention heads of {} do not split over {} GPUs", model.num_heads, model.name, r.tp));
  if (!model.is_mla()) {
    const auto h = model.num_kv_heads;
    require(h >= r.tp ? h % r.tp == 0 : r.tp % h == 0,
            fmt::format("--tp: {} KV heads of {} neither split evenly over {} GPUs nor replicate evenly", h,
                        model.name, r.tp));
  }

  KvPlan plan;
  plan.replicas = r.gpus / r.tp;
  plan.context = r.context > 0 ? r.context : model.max_position_embeddings;
  plan.max_position_embeddings = model.max_position_embeddings;
  require(plan.context >= 1, "--context: the model has no max_position_embeddings; give --context");

  // Weights: one rank's share as B05's `calc --tp` counts it (tensor_parallel.hpp): vLLM shards
  // the linear layers, the embedding and the LM head over the TP group and keeps norms, routers,
  // row-parallel biases and MLA's down-projections whole on every rank. A multimodal checkpoint's
  // vision tower is loaded with the text model (vLLM builds the whole *ForConditionalGeneration
  // model) and split like it, so it is in the weights the pool is carved after.
  plan.weight_bytes_total = b05::count_params(model).total_with_vision * r.weight_bytes_per_param;
  plan.tp_share = b05::tensor_parallel_share(model, r.tp, r.weight_bytes_per_param, r.kv_bytes_per_element, plan.context);
  plan.weight_bytes_per_gpu = plan.tp_share.weight_bytes_per_gpu;
  if (model.vision_params > 0)
    plan.notes.push_back(fmt::format("the weights include the {} vision tower and projector ({:.3f}B parameters), "
                                     "which the engine loads with the text model and splits over TP like it",
                                     model.vision_model, model.vision_params / 1e9));
  if (r.weight_bytes_per_param < 2)
    plan.notes.push_back(fmt::format(
        "every parameter is counted at {:g} B (--weight-dtype): norms, embeddings and routers too. Mixed-precision "
        "checkpoints are not modelled: gpt-oss stores its MoE experts in MXFP4 and the rest in bf16, DeepSeek-V3 its "
        "linear layers in fp8 and its norms and embeddings in bf16; give the dtype of the bulk of the weights and "
        "read the weight line as an estimate",
        r.weight_bytes_per_param));
  if (r.mtp_layers > 0)
    plan.notes.push_back(fmt::format(
        "the config's multi-token-prediction module (num_nextn_predict_layers {}) is not counted: vLLM loads it "
        "only for MTP speculative decoding (--speculative-config), which adds its weights and KV",
        r.mtp_layers));

  // KV per token: every layer stores the token in its page (vLLM's cache block spans all
  // layers), each GPU holding max(1, kv_heads / tp) heads; MLA's latent is not split by head
  // and every rank caches all of it.
  double per_gpu_share = 1;
  if (model.is_mla()) {
    plan.kv_heads_per_gpu = 1;
    if (r.tp > 1)
      plan.notes.push_back(fmt::format("MLA: the compressed latent has no heads to split; every one of the {} "
                                       "TP ranks caches all of it (vLLM get_num_kv_heads = 1 under MLA)", r.tp));
  } else {
    plan.kv_heads_per_gpu = std::max<std::int64_t>(1, model.num_kv_heads / r.tp);
    per_gpu_share = double(plan.kv_heads_per_gpu) / double(model.num_kv_heads);
    plan.kv_heads_replicated = model.num_kv_heads < r.tp;
    if (plan.kv_heads_replicated)
      plan.notes.push_back(fmt::format(
          "KV heads replicated: {} KV heads over TP={} leaves 1 head per GPU, each head stored on {} GPUs, so the "
          "node stores {}x the model's KV bytes (vLLM replicates KV heads when num_kv_heads < tp)",
          model.num_kv_heads, r.tp, r.tp / model.num_kv_heads, r.tp / model.num_kv_heads));
  }
  plan.kv_bytes_per_token_model = b05::kv_bytes_per_token_uncapped(model, r.kv_bytes_per_element);
  plan.kv_bytes_per_token_per_gpu = plan.kv_bytes_per_token_model * per_gpu_share;

  // The profiling pass: its batch limits, its activation peak (modelled unless given), the
  // non-torch memory (the release profile's figure for this TP unless given) and the CUDA-graph estimate.
  plan.engine = engine_profile(r.engine);
  plan.scheduler = scheduler_defaults(plan.engine, r.memory, r.gpu_name, plan.context);
  if (r.max_num_batched_tokens > 0) {
    plan.scheduler.max_num_batched_tokens = r.max_num_batched_tokens;
    plan.scheduler.why = "given";
  }
  if (r.max_num_seqs > 0) {
    plan.scheduler.max_num_seqs = r.max_num_seqs;
    plan.scheduler.why = r.max_num_batched_tokens > 0 ? "given" : plan.scheduler.why + "; max_num_seqs given";
  } else if (r.max_num_batched_tokens > 0) {
    plan.scheduler.why = "max_num_batched_tokens given; max_num_seqs the engine default";
  }
  // vLLM caps the sequences of a step at its tokens (max_num_seqs = min(default, max_num_batched_tokens)).
  plan.scheduler.max_num_seqs = std::min(plan.scheduler.max_num_seqs, plan.scheduler.max_num_batched_tokens);
  plan.activation = activation_peak(model, r.tp, plan.scheduler.max_num_batched_tokens, plan.scheduler.max_num_seqs,
                                    plan.engine.sampler_bytes_per_logit);
  plan.activation_modelled = !r.activation_reserve_bytes.has_value();
  const double activation = plan.activation_modelled ? plan.activation.peak_bytes : *r.activation_reserve_bytes;
  double non_torch = 0;
  if (r.non_torch_bytes) {
    non_torch = *r.non_torch_bytes;
    plan.non_torch_source = "given";
  } else {
    const double gib = r.tp > 1 ? plan.engine.non_torch_gib_tensor_parallel : plan.engine.non_torch_gib_single_gpu;
    non_torch = gib * kGiB;
    plan.non_torch_source =
        fmt::format("vLLM {} logs at {} ({:g} GiB)", plan.engine.name, r.tp > 1 ? "TP > 1" : "TP=1", gib);
  }
  const double cuda_graph = r.cuda_graph_bytes ? *r.cuda_graph_bytes : plan.engine.cuda_graph_gib * kGiB;
  const double utilization = r.memory_utilization ? *r.memory_utilization : plan.engine.memory_utilization;
  plan.pool_inputs = {r.memory.total_bytes, utilization,  plan.weight_bytes_per_gpu, activation, non_torch,
                      cuda_graph,           plan.kv_bytes_per_token_per_gpu, r.block_size};
  plan.pool = size_kv_pool(plan.pool_inputs);
  plan.pool_bytes_total = std::max(0.0, plan.pool.pool_bytes) * r.gpus;
  plan.tokens_total = plan.pool.tokens * plan.replicas;

  // One sequence: window-capped (a sliding-window layer keeps min(context, window) tokens),
  // rounded up to whole pages.
  plan.sequence_bytes_per_gpu = b05::kv_bytes_for_context(model, r.kv_bytes_per_element, plan.context) * per_gpu_share;
  plan.kv_bytes_per_token_growth_model = b05::kv_bytes_per_token_full(model, r.kv_bytes_per_element);
  plan.kv_bytes_per_token_growth_per_gpu = plan.kv_bytes_per_token_growth_model * per_gpu_share;
  plan.blocks_per_sequence =
      static_cast<std::int64_t>(std::ceil(plan.sequence_bytes_per_gpu / plan.pool.block_bytes - 1e-12));
  for (const auto& l : model.layers)
    plan.windowed |= l.attention == b05::AttentionKind::sliding_window || l.attention == b05::AttentionKind::chunked;
  if (plan.windowed)
    plan.notes.push_back(
        "windowed layers (sliding or chunked attention) keep at most their window per sequence: a sequence's pages "
        "are its window-capped KV bytes over the page size (an allocator that frees out-of-window pages, as vLLM's "
        "hybrid KV cache manager does); `tokens` counts a page as block_size tokens of every layer, so the pool "
        "holds more tokens of long sequences than `tokens` says: read the sequence count");

  const double reserves = plan.weight_bytes_per_gpu + activation + non_torch + cuda_graph;
  if (model.max_position_embeddings > 0 && plan.context > model.max_position_embeddings) {
    plan.binds = Binding::context_length;
    plan.max_sequences = 0;
    plan.binds_why = fmt::format("context {} tokens exceeds max_position_embeddings {} of {}", plan.context,
                                 model.max_position_embeddings, model.name);
  } else if (plan.pool.blocks == 0) {
    plan.binds = Binding::weights;
    plan.max_sequences = 0;
    plan.binds_why = fmt::format(
        "weights {:.2f} GiB + activation {:.2f} GiB + non-torch {:.2f} GiB + CUDA graphs {:.2f} GiB per GPU = {:.2f} "
        "GiB leave no room in the {:.2f} GiB budget (vLLM: 'No available memory for the cache blocks')",
        plan.weight_bytes_per_gpu / kGiB, activation / kGiB, non_torch / kGiB, cuda_graph / kGiB,
        reserves / kGiB, plan.pool.budget_bytes / kGiB);
  } else {
    plan.binds = Binding::kv_pool;
    plan.max_sequences = plan.replicas * (plan.pool.blocks / plan.blocks_per_sequence);
    const std::int64_t per_replica = plan.max_sequences / plan.replicas;
    plan.scheduled_sequences = plan.replicas * std::min(per_replica, plan.scheduler.max_num_seqs);
    if (per_replica > plan.scheduler.max_num_seqs) {
      plan.binds = Binding::scheduler;
      plan.binds_why = fmt::format(
          "the pool holds {} sequences of {} tokens per replica ({} pages / {} per sequence) but the scheduler runs at "
          "most max_num_seqs = {} at once (vLLM --max-num-seqs, {}): {} sequences on the node",
          per_replica, plan.context, plan.pool.blocks, plan.blocks_per_sequence, plan.scheduler.max_num_seqs,
          r.max_num_seqs > 0 ? std::string("given") : fmt::format("the vLLM {} default for this GPU", plan.engine.name),
          plan.scheduled_sequences);
    } else if (plan.max_sequences == 0)
      plan.binds_why = fmt::format(
          "one sequence of {} tokens needs {} pages but the pool holds {} (vLLM refuses to start: the max seq len "
          "is larger than the tokens the KV cache can store)",
          plan.context, plan.blocks_per_sequence, plan.pool.blocks);
    else
      plan.binds_why = fmt::format("{} pages per GPU / {} pages per sequence = {} sequences per replica, x {} "
                                   "replica(s)",
                                   plan.pool.blocks, plan.blocks_per_sequence, plan.max_sequences / plan.replicas,
                                   plan.replicas);
  }
  plan.context_tokens_in_all = double(plan.max_sequences) * double(plan.context);
  plan.more_context_than_slots =
      plan.windowed && plan.max_sequences > 0 && plan.context_tokens_in_all > double(plan.tokens_total);
  return plan;
}

nlohmann::json to_json(const GpuMemory& m) {
  return {{"total_bytes", m.total_bytes}, {"total_GiB", m.total_bytes / kGiB},
          {"runtime_reported", m.runtime_reported}, {"source", m.source}};
}

nlohmann::json to_json(const KvPlan& p) {
  const KvPoolInputs& in = p.pool_inputs;
  return {
      {"per_gpu",
       {{"total_memory_bytes", in.total_memory_bytes}, {"memory_utilization", in.memory_utilization},
        {"budget_bytes", p.pool.budget_bytes}, {"weight_bytes", in.weight_bytes},
        {"activation_bytes", in.activation_bytes}, {"activation_modelled", p.activation_modelled},
        {"non_torch_bytes", in.non_torch_bytes}, {"non_torch_source", p.non_torch_source},
        {"cuda_graph_bytes", in.cuda_graph_bytes},
        // No pool is 0 bytes, never a negative pool: what the weights lack is a field of its own.
        {"kv_pool_bytes", std::max(0.0, p.pool.pool_bytes)},
        {"kv_pool_GiB", std::max(0.0, p.pool.pool_bytes) / kGiB},
        {"kv_pool_short_bytes", std::max(0.0, -p.pool.pool_bytes)},
        {"params", p.tp_share.params_per_gpu}, {"replicated_params", p.tp_share.replicated_params},
        {"kv_heads", p.kv_heads_per_gpu}, {"kv_bytes_per_token_allocated", p.kv_bytes_per_token_per_gpu},
        {"kv_bytes_per_token_growth", p.kv_bytes_per_token_growth_per_gpu},
        {"block_size", in.block_size}, {"block_bytes", p.pool.block_bytes}, {"blocks", p.pool.blocks},
        {"tokens", p.pool.tokens},
        {"tokens_are", p.windowed ? "page slots: block_size tokens of every layer; windowed layers need fewer, so a "
                                    "long sequence takes fewer pages than its tokens / block_size"
                                  : "page slots: block_size tokens of every layer"}}},
      {"node",
       {{"replicas", p.replicas}, {"kv_pool_bytes", p.pool_bytes_total}, {"tokens", p.tokens_total},
        {"weight_bytes", p.weight_bytes_total},
        {"kv_bytes_per_token_allocated_model", p.kv_bytes_per_token_model},
        {"kv_bytes_per_token_growth_model", p.kv_bytes_per_token_growth_model},
        {"kv_heads_replicated", p.kv_heads_replicated}}},
      {"profile",
       {{"max_num_batched_tokens", p.scheduler.max_num_batched_tokens}, {"max_num_seqs", p.scheduler.max_num_seqs},
        {"scheduler_source", p.scheduler.why}, {"forward_bytes_per_token", p.activation.forward_bytes_per_token},
        {"forward_stage", p.activation.forward_stage}, {"forward_bytes", p.activation.forward_bytes},
        {"hidden_bytes", p.activation.hidden_bytes}, {"sampler_bytes", p.activation.sampler_bytes},
        {"activation_peak_bytes", p.activation.peak_bytes}, {"activation_binds", p.activation.binds},
        {"sampler_bytes_per_logit", p.activation.sampler_bytes_per_logit}, {"vllm", p.engine.name},
        {"engine", p.engine.engine}, {"engine_sources", p.engine.sources}}},
      {"sequence",
       {{"context", p.context}, {"windowed", p.windowed}, {"max_position_embeddings", p.max_position_embeddings},
        {"kv_bytes_per_gpu", p.sequence_bytes_per_gpu}, {"blocks", p.blocks_per_sequence},
        {"pool_sequences", p.max_sequences}, {"context_tokens_in_all", p.context_tokens_in_all},
        {"more_context_than_slots", p.more_context_than_slots}, {"pool_sequences_per_replica", p.max_sequences / p.replicas},
        {"max_num_seqs", p.scheduler.max_num_seqs},
        {"max_concurrent_sequences", p.scheduled_sequences},
        {"max_concurrent_sequences_per_replica", p.scheduled_sequences / p.replicas}}},
      {"binds", to_string(p.binds)},
      {"binds_why", p.binds_why},
      {"notes", p.notes},
      {"formula", kKvPlanFormula},
      {"source", kKvPlanSource}};
}

}  // namespace tutor::b06
