#pragma once
// B07: per-GPU memory of training a transformer with data (DP), tensor (TP), pipeline (PP)
// and sequence (SP) parallelism, ZeRO, mixed-precision Adam and activation recomputation.
// A model, not a measurement: allocator fragmentation, communication buffers, the CUDA
// context and framework workspaces are not counted.
//
// Conventions (every function here):
//   - Bytes are bytes; the CLI prints GB = 1e9 B, as the ZeRO paper and GPU datasheets do.
//   - Model states follow Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward
//     Training Trillion Parameter Models", SC'20, sec. 3.1 and 5: mixed-precision Adam keeps
//     2 bytes of fp16/bf16 weights, 2 of gradients and K = 12 of optimizer state (fp32 master
//     weights, momentum and variance) per parameter.
//   - Activations follow Korthikanti et al. 2022, "Reducing Activation Recomputation in
//     Large Transformer Models" (arXiv:2205.05198), sec. 4: 16-bit activations (2 bytes per
//     element), 1-byte dropout masks, attention that materialises the a x s x s score matrix
//     (no FlashAttention), and dropout after attention scores, attention and MLP. The CLI can
//     switch to FlashAttention and to dropout-free training; both are stated in the output.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"
#include "pipeline_schedule.hpp"

namespace tutor::b07 {

// ---- model states (ZeRO) ----------------------------------------------------------------

inline constexpr double kWeightBytesPerParam = 2;     ///< fp16/bf16 weights (ZeRO sec. 3.1: 2 Psi)
inline constexpr double kGradientBytesPerParam = 2;   ///< fp16/bf16 gradients (2 Psi)
inline constexpr double kOptimizerBytesPerParam = 12; ///< K: fp32 weights + momentum + variance (12 Psi)

/// Bytes of the three model states held by one GPU.
struct ModelStates {
  double weight_bytes = 0;
  double gradient_bytes = 0;
  double optimizer_bytes = 0;
  double total() const { return weight_bytes + gradient_bytes + optimizer_bytes; }
};

/// ZeRO stage `zero_stage` over a data-parallel group of `dp` GPUs, for `params` parameters
/// held by each GPU of the group before ZeRO (ZeRO sec. 5 and Figure 1):
///   stage 0 (plain DP):   (2 + 2 + K) Psi
///   stage 1 (P_os):        2 Psi + 2 Psi + K Psi / N_d
///   stage 2 (P_os+g):      2 Psi + (2 + K) Psi / N_d
///   stage 3 (P_os+g+p):   (2 + 2 + K) Psi / N_d
/// Psi = 7.5e9, N_d = 64: 120, 31.4, 16.6 and 1.88 GB (Figure 1). Megatron-LM's distributed
/// optimizer shards what ZeRO stage 1 shards. Throws std::invalid_argument ("--zero",
/// "--gpus") if zero_stage is not 0..3, dp < 1 or params < 0.
ModelStates zero_model_states(double params, int zero_stage, int dp);

// ---- activations (Korthikanti et al. 2022) ----------------------------------------------

enum class Recompute { none, selective, full };
/// "none", "selective", "full"; std::nullopt otherwise.
std::optional<Recompute> parse_recompute(std::string_view name);
std::string_view name(Recompute r);

/// Korthikanti et al. 2022, Table 2: activation bytes of ONE transformer layer for sequence
/// length s, micro-batch b, hidden size h, a attention heads, tensor-parallel size t:
///   t = 1, none:           s b h (34 + 5 a s / h)                    (eq. 1)
///   TP, none:              s b h (10 + 24/t + 5 a s / (h t))         (eq. 2)
///   TP + SP, none:         s b h (34/t + 5 a s / (h t))              (eq. 4)
///   TP, selective:         s b h (10 + 24/t)
///   TP + SP, selective:    s b h (34/t)                              (eq. 6, per layer)
///   full recompute:        2 s b h (the layer's input; / t with SP, as Megatron-LM stores the
///                          sequence-parallel shard)
/// For the GPT layer the paper assumes: MLP width 4h (GeLU), as many K/V heads as query heads.
/// Throws std::invalid_argument if any size is < 1.
double korthikanti_layer_bytes(double s, double b, double h, double a, int t, bool sequence_parallel,
                               Recompute recompute);

/// The widths one layer's stored tensors are made of, per token, in elements.
struct LayerShape {
  double hidden = 0;       ///< h
  double heads = 0;        ///< a, query heads
  double kv_heads = 0;     ///< K/V heads (GQA: fewer than a; MLA: a, the decompressed keys/values)
  double head_dim = 0;     ///< query/key width per head
  double v_head_dim = 0;   ///< value width per head
  double mlp_width = 0;    ///< inner width one token's MLP activates (MoE: (top-k + shared) x expert width)
  bool gated = true;       ///< SwiGLU/GeGLU (gate and up outputs stored) vs a plain GeLU MLP
  double vocab = 0;        ///< vocabulary (output logits)
};

/// The shape of one decoder layer of `cfg` (dense layers for a dense model; an MoE layer
/// for an MoE model, whose leading dense layers are counted as MoE layers).
LayerShape layer_shape(const b05::ModelConfig& cfg);

/// A GPT-3-style layer (Korthikanti et al.'s): h, a heads of h/a, MLP 4h not gated.
LayerShape gpt_layer_shape(double hidden, double heads);

struct ActivationOptions {
  int tp = 1;                      ///< t
  bool sequence_parallel = false;  ///< SP: norms and dropouts sharded along the sequence
  Recompute recompute = Recompute::none;
  bool flash_attention = false;    ///< no s x s score matrix stored (Dao et al. 2022): only an fp32 log-sum-exp per head and token
  bool dropout = true;             ///< dropout masks (the paper's GPT); false: dropout-free training (Llama-style)
};

/// One tensor the backward pass needs, with its bytes for one micro-batch through one layer
/// AFTER the TP/SP division, and how it is divided ("t": by tensor parallelism, "t with SP":
/// only with sequence parallelism, "none").
struct ActivationTerm {
  std::string name;
  double bytes = 0;
  std::string divided_by;
  bool quadratic = false;  ///< an a x s x s attention tensor: what selective recomputation drops
};

/// One layer, one micro-batch.
struct LayerActivations {
  std::vector<ActivationTerm> terms;  ///< the full set, as if nothing were recomputed
  double all_bytes = 0;               ///< sum of terms
  double stored_bytes = 0;            ///< kept until the backward: all (none), the non-quadratic
                                      ///< terms (selective), the layer input (full)
  double recompute_working_bytes = 0; ///< full recomputation: the one layer rebuilt in the backward
                                      ///< (all_bytes); 0 otherwise
};

/// Korthikanti et al. 2022 sec. 4.1's accounting, term by term, generalised to GQA, gated MLPs
/// and any MLP width; for gpt_layer_shape() and dropout on, FlashAttention off, it equals
/// korthikanti_layer_bytes() exactly. Per layer, for s tokens of b sequences (2-byte elements,
/// 1-byte masks):
///   attention: norm input 2sbh, QKV input 2sbh, Q 2sb(a d), K 2sb(g d), V 2sb(g d_v),
///              softmax output 2a s^2 b, its dropout mask a s^2 b, dropout output 2a s^2 b,
///              projection input 2sb(a d_v), dropout mask sbh
///   MLP:       norm input 2sbh, MLP input 2sbh, activation input 2sbf (gated: gate and up,
///              4sbf), activation output 2sbf, dropout mask sbh
/// With t-way TP, Q/K/V, the score tensors, the projection input and the MLP inner tensors
/// are divided by t (K and V never below one head); with SP the rest too. Without dropout
/// the three masks go and the softmax output doubles as the attention-over-values input
/// (2a s^2 b instead of 5a s^2 b). FlashAttention stores no s x s tensor, only the fp32
/// log-sum-exp (4 a s b, / t). Throws std::invalid_argument naming the option if seq_len,
/// micro_batch or tp is < 1.
LayerActivations layer_activations(const LayerShape& shape, double seq_len, double micro_batch,
                                   const ActivationOptions& options);

// ---- the plan ---------------------------------------------------------------------------

struct ParallelConfig {
  int gpus = 1;            ///< N = dp x tp x pp
  int tp = 1;
  int pp = 1;
  int virtual_stages = 1;  ///< interleaved schedule only
  int zero = 0;            ///< 0..3
  Schedule schedule = Schedule::one_f_one_b;
  int microbatches = 0;    ///< per step per pipeline; 0: 4 x pp
  int micro_batch = 1;     ///< b, sequences per micro-batch
  int seq_len = 2048;      ///< s, tokens per sequence
  ActivationOptions activations;
};

/// One pipeline stage's memory per GPU.
struct StageMemory {
  int stage = 0;
  double params = 0;              ///< parameters this GPU holds before ZeRO (its TP shard of its stage)
  ModelStates states;             ///< after ZeRO
  int peak_in_flight = 0;         ///< from the simulated schedule, (micro-batch, chunk) units
  double layer_passes = 0;        ///< peak_in_flight x layers per chunk: layer activations held
  double layer_activation_bytes = 0;  ///< layer_passes x stored bytes per layer
  double extra_activation_bytes = 0;  ///< embedding dropout masks (first stage), output layer and
                                      ///< fp32 logits (last stage), Korthikanti sec. 4.3
  double recompute_working_bytes = 0; ///< full recomputation: one layer rebuilt at a time
  double activation_bytes() const { return layer_activation_bytes + extra_activation_bytes + recompute_working_bytes; }
  double total_bytes() const { return states.total() + activation_bytes(); }
};

struct MemoryPlan {
  ParallelConfig config;          ///< with microbatches filled in
  int dp = 1;                     ///< gpus / (tp x pp)
  int layers = 0;
  int layers_per_stage = 0;       ///< L / pp
  int layers_per_chunk = 0;       ///< L / (pp x v)
  double params_total = 0;        ///< the whole model (b05::count_params)
  LayerShape shape;
  LayerActivations layer;         ///< one layer, one micro-batch
  StageMemory first;              ///< stage 0
  StageMemory last;               ///< stage pp-1 (== first when pp == 1)
  const StageMemory& binding() const { return last.total_bytes() > first.total_bytes() ? last : first; }
  double capacity_bytes = 0;
  bool fits() const { return binding().total_bytes() <= capacity_bytes; }
  double bubble_fraction = 0;     ///< of the simulated schedule
  std::array<ModelStates, 4> first_states_by_zero{};  ///< stage 0 under ZeRO 0..3, for the comparison table
  std::vector<std::string> notes; ///< approximations that applied (MoE, MLA, KV heads replicated, ...)
};

/// Validates `config` against `model` and plans it. Throws std::invalid_argument naming the
/// option: "--gpus" (< 1 or not a multiple of tp x pp), "--tp" (< 1 or not dividing the
/// attention heads), "--pp" (< 1, more stages than layers, or not dividing the layers),
/// "--virtual-stages", "--zero", "--micro-batch", "--seq-len" (< 1; with SP not a multiple of
/// tp), "--microbatches" (and the schedule's own checks), "--gpu-memory-gib" (capacity <= 0).
MemoryPlan plan_memory(const b05::ModelConfig& model, ParallelConfig config, double capacity_bytes);

/// One row of the pipeline lesson: the same model, micro-batch and data-parallel degree at
/// pp = `pp` under 1F1B.
struct PipelineDepthRow {
  int pp = 0;
  int gpus = 0;
  int layers_per_stage = 0;
  int peak_in_flight = 0;
  double activation_bytes = 0;  ///< first stage, layers + extras + working set
  double state_bytes = 0;       ///< first stage model states
  double bubble_fraction = 0;   ///< (pp-1)/m
};

/// plan_memory for every pp in {1, 2, 4, ...} (and the configured one) that divides the
/// layer count, holding dp, tp, m, b, s and recomputation fixed, under 1F1B: the table that
/// shows the first stage's activations do not shrink with pp while m >= pp.
std::vector<PipelineDepthRow> pipeline_depth_sweep(const b05::ModelConfig& model, const ParallelConfig& config,
                                                   double capacity_bytes);

}  // namespace tutor::b07
