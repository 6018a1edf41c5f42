#pragma once
// C07 Capstone: sizing an LLM serving node. A model, not a measurement.
//
// The question an engineer brings to a capacity review: "G GPUs of this kind, this model,
// a time-per-output-token (TPOT) SLO of T ms: how many sequences does the node serve at once,
// and what limits it?" Two budgets answer it, and the smaller one binds:
//
//   1. The HBM-bound KV pool. What is left of each GPU's memory after the weights and the
//      engine's reserves holds KV pages; the pool, divided by one sequence's pages, is the
//      number of sequences the node can keep resident (B_pool). B06's planner sizes it the
//      way vLLM does (kv_planner.hpp has the formula and its sources).
//
//   2. The SLO-bound batch. Every decode step streams the weights once and the KV cache of
//      every sequence in the batch once, and computes one token per sequence. With B
//      sequences of context c on one GPU of a tensor-parallel group of p GPUs:
//        bytes(B) = W / p + B * KV(c) / p                 (weights once, KV per sequence)
//        flops(B) = B * (2 * active params + attention FLOPs at c) / p
//        t(B)     = max(bytes / BW, flops / peak) + all-reduce(B) + overhead
//      which is the roofline (Williams, Waterman and Patterson, "Roofline: an insightful
//      visual performance model for multicore architectures", CACM 52(4), 2009, eq. 1) in
//      time form, applied to the whole step (B06's RooflineStepCost, step_cost.hpp), plus the
//      tensor-parallel all-reduces that sit between layers. The largest B with t(B) <= SLO is
//      the batch the scheduler can afford (B_slo). Both roofs grow linearly in B, so B_slo
//      has a closed form: in the memory-bound case
//        B_slo = (SLO - overhead - all-reduce latency - W/p/BW) / (KV(c)/p/BW + all-reduce per sequence)
//      and the compute roof gives a second limit; B_slo is the floor of the smaller one.
//      That per-step budget is B_slo tokens computed (Sarathi-Serve's "token budget":
//      Agrawal et al., "Taming Throughput-Latency Tradeoff in LLM Inference with
//      Sarathi-Serve", OSDI 2024, choose it so an iteration fits the time-between-tokens
//      SLO), and B_slo * c tokens of KV read.
//
// The classic finding, and the assumptions that produce it. "HBM allows a pool of millions of
// tokens but the latency SLO caps the scheduler at a fraction of it" holds in two senses that
// must not be mixed up:
//   - per-step tokens: a step computes B_slo tokens (hundreds), the pool holds millions.
//     This holds for any realistic SLO: it is the difference between storing a token's KV
//     and computing a token.
//   - KV tokens: the SLO lets a step read B_slo * c tokens of KV. That is below the pool only
//     when the SLO is shorter than t(B_pool), the time a step takes with the pool full, which
//     is about the time to stream the weights plus the whole pool once (plus communication).
//     An H100 streams its 80 GB in ~30 ms at 80% of 3.35 TB/s, so a 50 ms TPOT SLO does not
//     cap a pool-full batch there: the pool binds first. A tighter SLO (or a slower memory,
//     a larger per-step overhead, a lower bandwidth efficiency) makes the SLO bind first.
//   size_node() reports both, with the crossover SLO t(B_pool), rather than assuming either.
//
// What fp8 changes is re-run through the same arithmetic (precisions()): fp8 weights with bf16
// compute (weight-only, W8A16), fp8 KV, fp8 weights and activations (W8A8: the linear layers
// run at the fp8 tensor-core rate), and W8A8 with fp8 KV.
//
// Assumptions (each is printed by the CLI and recorded in its JSON):
//   - every sequence in a step is at the full context c (the worst step the SLO must cover);
//   - all weights are read every step except the input embedding table (a lookup of B rows);
//     for MoE models every expert is assumed touched (true once B * top_k >> experts);
//   - KV per sequence and the pool come from B06's planner (window caps and KV-head
//     replication under TP included), with the same defaults as B06's kv: utilisation and
//     reserves from the --vllm release profile, the activation peak modelled from the layer
//     shapes at the profiling pass's scheduler defaults;
//   - datasheet rates derated by measured efficiencies (kDefaultBandwidthEfficiency,
//     kDefaultComputeEfficiency); activations are assumed to stay on chip;
//   - tensor parallelism (Megatron-LM, Shoeybi et al. 2019, sec. 3): two all-reduces of
//     B x hidden bf16 activations per layer, not overlapped with compute, each costed as
//     alpha + 2(p-1)/p * bytes / link bandwidth (ring all-reduce, Patarasuk and Yuan, "Bandwidth
//     optimal all-reduce algorithms for clusters of workstations", JPDC 69(2), 2009), alpha
//     from NCCL's own tuning model (nccl_ring_allreduce_latency_us);
//   - fp8 weights quantise the decoder layers' linear weights; embeddings, the LM head and
//     norms stay bf16 (the usual fp8 checkpoint recipe, e.g. llm-compressor's FP8 scheme with
//     ignore=["lm_head"]); under W8A8 the linear layers except the LM head run at the fp8
//     rate, attention at the bf16 rate.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "calculator.hpp"
#include "gpu_choice.hpp"
#include "kv_planner.hpp"
#include "model.hpp"

namespace tutor::c07 {

// ---- defaults, each with where it comes from ---------------------------------------------

/// Fraction of the datasheet HBM bandwidth a step reaches. The roofline B02 fitted on the
/// H200 puts its memory roof at 3824.6 GB/s for the fp32 sweep
/// (docs/results/H200/b02_roofline/history/b02_roofline_a1f5e90.json, notes.fit.fp32.memory_roof_GBps), 3824.6 / 4800 =
/// 0.797, rounded to 0.80. (The bf16 sweep fitted 3527 GB/s = 0.73; cudaMemcpy reached 0.87-0.88,
/// which B06's batch simulator uses: C07's default is the more conservative fitted roof.)
inline constexpr double kDefaultBandwidthEfficiency = 0.80;

/// Fraction of the datasheet dense tensor-core rate a step reaches. Decode's matmuls run on
/// tensor cores, which B02's sweep (CUDA-core FMAs: fitted 55.7 of 67 TFLOP/s fp32 = 0.83) does
/// not exercise, so the default is a tensor-core measurement instead: cublasGemmEx bf16,
/// m = n = k = 8192 on the H200 measured here, 686-779 TFLOP/s over 50 samples (median 740.0) of the dense
/// 989.5 = 0.69-0.79 (docs/results/H200/baselines/tutor_baselines.json): 0.70 is the slow end, the
/// same default as B06's batch simulator. fp8 uses the same fraction (no fp8 GEMM is recorded
/// here, so whether fp8 reaches it is not known).
inline constexpr double kDefaultComputeEfficiency = 0.70;

/// Tokens per sequence (prompt + output) when --context is not given: a 4k-token conversation.
inline constexpr std::int64_t kDefaultContext = 4096;

/// NCCL's tuning model for an all-reduce on NVLink with the ring algorithm and the LL protocol
/// (the one NCCL picks for small messages): latency = baseLat + 2(p-1) * hwLat (nccl
/// src/graph/tuning.cc, ncclTopoTuneModel, baseLat[Ring][LL] = 6.6 us,
/// hwLat[NVLINK][Ring][LL] = 0.6 us, NCCL 2.18 and later). A model constant, not a measurement.
inline constexpr double kNcclRingLlBaseLatencyUs = 6.6;
inline constexpr double kNcclRingLlNvlinkStepLatencyUs = 0.6;

/// alpha of one ring all-reduce over `ranks` GPUs: 6.6 + 2(ranks-1) * 0.6 us (15.0 us for 8).
/// 0 for one rank. Throws std::invalid_argument for ranks < 1.
double nccl_ring_allreduce_latency_us(int ranks);

// ---- part 1: one decode step, on plain numbers (per GPU) ----------------------------------

/// What one GPU of a tensor-parallel group does in one decode step, per step and per sequence.
/// Rates are the effective ones (datasheet x efficiency).
struct DecodeStepModel {
  double weight_bytes_read = 0;             ///< weights this GPU streams once per step, bytes
  double kv_bytes_per_sequence = 0;         ///< KV this GPU reads for one sequence at context c, bytes
  double linear_flops_per_sequence = 0;     ///< matmul FLOPs of one decoded token on this GPU
  double attention_flops_per_sequence = 0;  ///< attention FLOPs of one decoded token at c on this GPU
  double bandwidth_GBps = 0;                ///< effective HBM bandwidth, 1e9 B/s
  double compute_TFLOPs = 0;                ///< effective compute rate, 1e12 FLOP/s
  double overhead_us = 0;                   ///< fixed per-step cost (scheduling, launches, sampling)
  double comm_fixed_us = 0;                 ///< all-reduce latency per step, whatever B
  double comm_per_sequence_us = 0;          ///< all-reduce bandwidth time each sequence adds
  std::int64_t context = 1;                 ///< c, tokens per sequence

  double weights_ms() const { return weight_bytes_read / (bandwidth_GBps * 1e9) * 1e3; }
  double kv_ms_per_sequence() const { return kv_bytes_per_sequence / (bandwidth_GBps * 1e9) * 1e3; }
  double flops_per_sequence() const { return linear_flops_per_sequence + attention_flops_per_sequence; }
  double compute_ms_per_sequence() const { return flops_per_sequence() / (compute_TFLOPs * 1e12) * 1e3; }
};

/// Throws tutor::UsageError naming the field when a rate is not > 0, a size is negative or not
/// finite, the context is < 1, or a sequence costs neither bytes nor FLOPs.
void validate(const DecodeStepModel& m);

/// t(B) and its parts. memory_ms and compute_ms come from B06's RooflineStepCost (the same
/// step model its simulator charges); comm_ms is added on top (not overlapped).
struct DecodeStepTime {
  std::int64_t batch = 0;
  double bytes = 0;         ///< weights + B * KV(c)
  double flops = 0;         ///< B * (linear + attention)
  double memory_ms = 0;     ///< bytes / BW
  double compute_ms = 0;    ///< flops / peak
  double comm_ms = 0;       ///< comm_fixed + B * comm_per_sequence
  double overhead_ms = 0;
  double total_ms = 0;      ///< max(memory, compute) + comm + overhead
  bool compute_bound() const { return compute_ms > memory_ms; }
  const char* roof() const { return compute_bound() ? "compute" : "memory"; }
  double arithmetic_intensity() const { return bytes > 0 ? flops / bytes : 0; }  ///< FLOP/B
};

/// The step time of a batch of `batch` sequences (batch >= 0; 0: the weights alone).
DecodeStepTime decode_step_time(const DecodeStepModel& m, std::int64_t batch);

/// The largest batch whose decode step fits the SLO.
struct SloBatch {
  double slo_ms = 0;
  double budget_ms = 0;        ///< slo - overhead - all-reduce latency: what the roofs may use (0 when none is left)
  double memory_limit = 0;     ///< (budget - W/BW) / (KV/BW + comm per seq): B where the memory roof reaches the SLO
  double compute_limit = 0;    ///< budget / (F/peak + comm per seq): B where the compute roof reaches the SLO
  std::int64_t batch = 0;      ///< floor(min(memory_limit, compute_limit)), >= 0; checked against decode_step_time
  const char* limited_by = "memory";  ///< "memory" or "compute": the smaller of the two limits
  /// B at which the two roofs cross (W/BW / (F/peak - KV/BW)); +inf when a sequence costs more
  /// HBM time than compute time, so the step is memory-bound at every batch.
  double ridge_batch = std::numeric_limits<double>::infinity();
  DecodeStepTime at_batch;     ///< t(batch)
  DecodeStepTime above_batch;  ///< t(batch + 1): the first batch that misses the SLO
};

/// Solves t(B) <= slo_ms in closed form (both roofs are linear in B) and checks the answer with
/// decode_step_time: t(batch) <= slo < t(batch + 1). Throws UsageError for slo_ms <= 0.
SloBatch slo_batch(const DecodeStepModel& m, double slo_ms);

// ---- part 2: the node --------------------------------------------------------------------

/// One way of storing and computing: the baseline and the fp8 variants.
struct Precision {
  std::string key;                 ///< "bf16", "fp8-weights", "fp8-kv", "w8a8", "w8a8+fp8-kv"
  std::string label;               ///< what a reader sees in the table
  double linear_weight_bytes = 2;  ///< bytes per parameter of the decoder layers' linear weights
  double kv_bytes = 2;             ///< bytes per KV-cache element
  bool fp8_compute = false;        ///< linear layers (LM head excepted) at the fp8 tensor-core rate
  const char* weight_dtype() const { return linear_weight_bytes < 2 ? "fp8" : "bf16"; }
  const char* kv_dtype() const { return kv_bytes < 2 ? "fp8" : "bf16"; }
  const char* compute_dtype() const { return fp8_compute ? "fp8" : "bf16"; }
};

/// bf16 (the baseline), fp8 weights with bf16 compute (W8A16), fp8 KV, W8A8, W8A8 + fp8 KV.
const std::vector<Precision>& precisions();

/// The GPU: B06's choice (a row of common's GPU table, each number with its datasheet source, or
/// a .json file with the table's field names; fp8_TFLOPs and interconnect_GBps are optional).
using b06::GpuChoice;
using b06::choose_gpu;

/// What the capstone takes. Field comments name the CLI option.
struct NodeRequest {
  int gpus = 1;                 ///< --gpus, >= 1
  int tp = 0;                   ///< --tp, >= 1 and dividing gpus; 0 = gpus
  double slo_ms = 0;            ///< --slo-ms, > 0: the TPOT (time between tokens) target
  std::int64_t context = kDefaultContext;  ///< --context, 1..max_position_embeddings
  // The engine's start-up profile, as B06's kv takes it: each reserve left unset is the --vllm
  // release profile's value (engine_profile.hpp), so C07 and `b06_serving kv` size the same pool.
  std::string vllm = b06::kDefaultEngineProfile;     ///< --vllm: the release whose profile the defaults follow
  std::optional<double> memory_utilization;        ///< --memory-utilization, (0, 1]; unset: the profile's (0.90; 0.92 from v0.21)
  std::optional<double> activation_reserve_bytes;  ///< --activation-reserve-gib; unset: B06's activation_peak()
  std::optional<double> non_torch_bytes;           ///< --non-torch-gib; unset: the profile's figure for TP=1 or TP > 1
  std::optional<double> cuda_graph_bytes;          ///< --cuda-graph-gib; unset: the profile's (0 before v0.21)
  int block_size = b06::kDefaultBlockSize;                         ///< --block-size
  double bandwidth_efficiency = kDefaultBandwidthEfficiency;      ///< --bandwidth-efficiency, (0, 1]
  double compute_efficiency = kDefaultComputeEfficiency;          ///< --compute-efficiency, (0, 1]
  double overhead_us = 0;          ///< --overhead-us, >= 0 (0: the roofline floor)
  double allreduce_latency_us = -1;  ///< --allreduce-latency-us, >= 0; < 0: NCCL's model for tp ranks
};

/// Throws UsageError naming the option when a value is out of range for this model: --gpus,
/// --tp (must divide --gpus), --slo-ms, --context (above max_position_embeddings), the
/// efficiencies and the utilisation (in (0, 1]), --block-size, the reserves, --overhead-us,
/// --vllm (an engine profile B06 knows). Fills tp = gpus when 0.
void validate(const b05::ModelConfig& model, NodeRequest& request);

/// Which budget binds first.
enum class Binding {
  hbm_pool,  ///< the KV pool holds fewer sequences than the SLO allows
  slo,       ///< the SLO allows fewer sequences than the pool holds (or none at all)
  weights,   ///< the weights and reserves leave no KV pool: nothing can be served
};
const char* to_string(Binding b);

/// Weight bytes of one precision.
struct WeightBytes {
  double linear_params = 0;           ///< attention + MLP (+ experts, router) of the decoder layers
  double other_params = 0;            ///< embeddings, LM head, norms: kept in bf16
  double input_embedding_params = 0;  ///< vocab x hidden when untied (a lookup, not streamed), else 0
  double resident_total = 0;          ///< linear x bytes + other x 2: what the node stores
  double resident_per_gpu = 0;        ///< / tp
  double read_per_gpu = 0;            ///< (resident - input embedding x 2) / tp: what a step streams
  double bytes_per_param = 0;         ///< resident_total / total params (what B06's planner is given)
};

/// The whole arithmetic for one precision. When the weights do not fit (fits == false) only
/// precision, weights and plan are filled: there is no pool, no batch and no step to time.
struct VariantSizing {
  Precision precision;
  bool applicable = true;
  std::string not_applicable_why;  ///< e.g. "no fp8 tensor cores on NVIDIA A100 80GB"
  bool fits = true;                ///< false: weights and reserves leave no KV page on a GPU
  std::string does_not_fit_why;    ///< "weights do not fit in HBM: ..." with the numbers
  WeightBytes weights;
  double linear_TFLOPs = 0;     ///< effective rate of the linear layers (bf16 or fp8 x efficiency)
  double attention_TFLOPs = 0;  ///< effective rate of attention and the LM head (bf16 x efficiency)
  b06::KvPlan plan;             ///< B06's pool (per GPU and node)
  DecodeStepModel step;         ///< per GPU of one replica
  SloBatch slo;
  std::int64_t pool_sequences = 0;       ///< B_pool per replica
  std::int64_t pool_tokens_replica = 0;  ///< KV tokens one replica's pool holds
  std::int64_t pool_tokens_node = 0;     ///< x replicas
  Binding binds = Binding::hbm_pool;
  double binds_factor = 0;      ///< larger budget / smaller (sequences); inf when the smaller is 0
  std::int64_t batch = 0;       ///< operating batch per replica: min(B_pool, B_slo)
  DecodeStepTime at_batch;      ///< t(batch)
  double tokens_per_s_node = 0; ///< replicas x batch / t(batch)
  double tokens_per_s_sequence = 0;  ///< 1 / t(batch): what one user sees
  double crossover_slo_ms = std::numeric_limits<double>::quiet_NaN();  ///< t(B_pool): tighter SLOs bind first
  double token_budget_fraction = 0;  ///< B_slo / pool tokens (per-step tokens computed vs tokens stored)
  double kv_budget_ratio = 0;        ///< B_slo x c / pool tokens (KV tokens a step may read vs stored)
};

/// The node, sized for every precision. variants[0] is the bf16 baseline.
struct NodeSizing {
  b05::ModelConfig model;
  GpuChoice gpu;
  NodeRequest request;
  int replicas = 1;
  b05::ParamCount params;
  b05::TokenFlops decode_flops;   ///< one sequence at c, whole model (not split over TP)
  double lm_head_flops = 0;       ///< 2 x vocab x hidden per token (kept in bf16)
  bool comm_modelled = false;     ///< false when tp == 1 or the link bandwidth is unknown
  double allreduce_latency_us = 0;
  bool allreduce_latency_from_nccl_model = true;
  double link_GBps = 0;           ///< one direction: interconnect / 2
  int allreduces_per_step = 0;    ///< 2 x layers
  double allreduce_bytes_per_sequence = 0;  ///< hidden x 2 B: one sequence's share of one all-reduce
  double bandwidth_GBps = 0;      ///< effective
  double bf16_TFLOPs = 0;         ///< effective
  std::vector<VariantSizing> variants;
  std::vector<std::string> notes;  ///< assumptions that apply to this model and node
};

/// One term of the engine's start-up profile the pool is carved after (per GPU, the bf16
/// baseline's plan; every precision shares them), with where its value came from.
struct EngineTerm {
  std::string key;     ///< "memory_utilization", "activation_reserve", "non_torch", "cuda_graph"
  std::string label;   ///< what the report calls it: "utilization", "activation", "non-torch", "CUDA graphs"
  std::string option;  ///< the CLI option that overrides it
  double value = 0;    ///< a fraction for memory_utilization, else bytes
  bool given = false;  ///< true: the user's option; false: the --vllm profile's value (or B06's model of it)
  std::string source;  ///< "given", or the profile and the model or log behind the value
};

/// The four terms in the order the subtraction takes them.
std::vector<EngineTerm> engine_terms(const NodeSizing& node);

/// Sizes the node. Calls validate(model, request) first; throws UsageError naming the option
/// when the model cannot be split that way (B06: heads must divide over --tp).
NodeSizing size_node(const b05::ModelConfig& model, const GpuChoice& gpu, NodeRequest request);

/// What each fp8 variant changes against the bf16 baseline, and where it stops paying, one
/// sentence each with the numbers of this node (compared at the baseline's operating batch).
std::vector<std::string> fp8_findings(const NodeSizing& node);

/// The machine balance of a step model: effective FLOP/s over effective B/s (FLOP/B). A step
/// whose arithmetic intensity is below it is memory-bound.
double ridge_point(const DecodeStepModel& m);

/// The assumptions and the sources, for the report and the JSON (one line each).
std::vector<std::string> assumptions();
std::vector<std::string> sources();

}  // namespace tutor::c07
