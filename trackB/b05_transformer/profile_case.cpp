// B05 profile: one decoder layer on the GPU for one step, its launches, poison and checks
// (profile_case.hpp).
#include "profile_case.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "profile_kernels.hpp"
#include "profile_reference.hpp"
#include "tutor/launcher.hpp"

namespace tutor::b05 {
namespace {

namespace gl = gpu_layer;
static_assert(kMaxProfileHeadDim == gl::kMaxHeadDim, "the model's head_dim limit is the attention kernel's");

std::size_t elems(std::int64_t a, std::int64_t b = 1, std::int64_t c = 1) {
  return static_cast<std::size_t>(a) * static_cast<std::size_t>(b) * static_cast<std::size_t>(c);
}
gpu::DeviceBuffer bf16_buffer(std::size_t n) { return gpu::DeviceBuffer(2 * n); }
std::uint16_t* bits(const gpu::DeviceBuffer& b) { return b.as<std::uint16_t>(); }
int as_int(std::int64_t v) { return static_cast<int>(v); }

// A fresh seed per tensor from the case's seed (the golden-ratio increment of SplitMix64).
std::uint64_t tensor_seed(std::uint64_t seed, int tensor) { return seed + 0x9e3779b97f4a7c15ull * std::uint64_t(tensor + 1); }

std::size_t index_of(SubOp op) {
  return static_cast<std::size_t>(std::find(std::begin(kSubOps), std::end(kSubOps), op) - std::begin(kSubOps));
}

/// Appends the bf16 row `got` (as floats) and its reference.
void append(std::vector<float>& got, std::vector<double>& ref, std::span<const std::uint16_t> g,
            std::span<const double> r) {
  if (g.size() != r.size()) throw std::logic_error("profile check: a row and its reference differ in length");
  for (const std::uint16_t v : g) got.push_back(reference::bf16_to_float(v));
  ref.insert(ref.end(), r.begin(), r.end());
}

}  // namespace

LayerCase::LayerCase(const LayerShape& layer, const Phase& phase, std::uint64_t seed)
    : layer_(layer), phase_(phase), tokens_(phase.tokens()),
      tokens_per_seq_(phase.kind == PhaseKind::prefill ? phase.length : 1),
      first_position_(phase.kind == PhaseKind::prefill ? 0 : phase.length - 1), cache_len_(phase.cache_tokens()) {
  const std::int64_t T = tokens_, h = layer.hidden, W = layer.qkv_width(), qw = layer.q_width(), f = layer.intermediate;
  const std::size_t cache = elems(phase.batch, cache_len_, layer.kv_width());
  x_ = bf16_buffer(elems(T, h));
  attn_norm_w_ = bf16_buffer(elems(h));
  x_norm_ = bf16_buffer(elems(T, h));
  w_qkv_ = bf16_buffer(elems(W, h));
  qkv_ = bf16_buffer(elems(T, W));
  inv_freq_ = gpu::DeviceBuffer(sizeof(float) * elems(layer.head_dim / 2));
  q_ = bf16_buffer(elems(T, qw));
  k_cache_ = bf16_buffer(cache);
  v_cache_ = bf16_buffer(cache);
  attn_ = bf16_buffer(elems(T, qw));
  w_o_ = bf16_buffer(elems(h, qw));
  attn_out_ = bf16_buffer(elems(T, h));
  x1_ = bf16_buffer(elems(T, h));
  mlp_norm_w_ = bf16_buffer(elems(h));
  x1_norm_ = bf16_buffer(elems(T, h));
  w_gate_up_ = bf16_buffer(elems(2 * f, h));
  gate_up_ = bf16_buffer(elems(T, 2 * f));
  act_ = bf16_buffer(elems(T, f));
  w_down_ = bf16_buffer(elems(h, f));
  mlp_out_ = bf16_buffer(elems(T, h));
  out_ = bf16_buffer(elems(T, h));

  const auto fill = [&](const gpu::DeviceBuffer& b, int tensor, double lo, double hi) {
    TUTOR_LAUNCHER(gl::fill_uniform_bf16)(bits(b), b.bytes() / 2, tensor_seed(seed, tensor), float(lo), float(hi));
  };
  const auto fan_in = [](std::int64_t in) { return 1 / std::sqrt(static_cast<double>(in)); };
  fill(x_, 0, -1, 1);
  fill(attn_norm_w_, 1, 0.5, 1.5);
  fill(w_qkv_, 2, -fan_in(h), fan_in(h));
  fill(k_cache_, 3, -1, 1);  // decode: the earlier tokens' keys and values; rope writes the new token's
  fill(v_cache_, 4, -1, 1);
  fill(w_o_, 5, -fan_in(qw), fan_in(qw));
  fill(mlp_norm_w_, 6, 0.5, 1.5);
  fill(w_gate_up_, 7, -fan_in(h), fan_in(h));
  fill(w_down_, 8, -fan_in(f), fan_in(f));
  inv_freq_host_ = reference::rope_inv_freq(layer.head_dim, kRopeBase);
  inv_freq_.upload(inv_freq_host_.data(), sizeof(float) * inv_freq_host_.size());
  poison_layer();  // no intermediate holds data a first launch could read by mistake
  gpu::synchronize();
  gpu::check_last_error("LayerCase fill");
}

double LayerCase::device_bytes(const LayerShape& L, const Phase& p) {
  const double T = double(p.tokens()), h = double(L.hidden), f = double(L.intermediate);
  const double weights = double(L.qkv_width()) * h + h * double(L.q_width()) + 3 * h * f + 2 * h;
  // x, its norm, attn_out, x1, its norm, mlp_out, out; qkv; q and attn; gate_up and act.
  const double activations = T * (7 * h + double(L.qkv_width()) + 2 * double(L.q_width()) + 3 * f);
  const double cache = 2 * double(p.batch) * double(p.cache_tokens()) * double(L.kv_width());
  return 2 * (weights + activations + cache) + 4 * double(L.head_dim / 2);
}

std::string LayerCase::label() const {
  return fmt::format("{} (h {}, {}/{} heads x {}, f {})", phase_.label(), layer_.hidden, layer_.heads,
                     layer_.kv_heads, layer_.head_dim, layer_.intermediate);
}

void LayerCase::launch(SubOp op) {
  const int T = as_int(tokens_), h = as_int(layer_.hidden), f = as_int(layer_.intermediate);
  const int B = as_int(phase_.batch), tps = as_int(tokens_per_seq_), first = as_int(first_position_),
            cache = as_int(cache_len_), nq = as_int(layer_.heads), nkv = as_int(layer_.kv_heads),
            d = as_int(layer_.head_dim);
  const float eps = static_cast<float>(kRmsNormEps);
  switch (op) {
    case SubOp::attn_norm:
      return TUTOR_LAUNCHER(gl::rmsnorm)(bits(x_), bits(attn_norm_w_), bits(x_norm_), T, h, eps);
    case SubOp::qkv_proj:
      return TUTOR_LAUNCHER(gl::linear)(bits(x_norm_), bits(w_qkv_), bits(qkv_), T, as_int(layer_.qkv_width()), h);
    case SubOp::rope:
      return TUTOR_LAUNCHER(gl::rope_kv)(bits(qkv_), inv_freq_.as<float>(), bits(q_), bits(k_cache_), bits(v_cache_),
                                         B, tps, first, cache, nq, nkv, d);
    case SubOp::attention:
      return TUTOR_LAUNCHER(gl::attention)(bits(q_), bits(k_cache_), bits(v_cache_), bits(attn_), B, tps, first, cache,
                                           nq, nkv, d);
    case SubOp::o_proj:
      return TUTOR_LAUNCHER(gl::linear)(bits(attn_), bits(w_o_), bits(attn_out_), T, h, as_int(layer_.q_width()));
    case SubOp::attn_residual:
      return TUTOR_LAUNCHER(gl::residual_add)(bits(x_), bits(attn_out_), bits(x1_), elems(T, h));
    case SubOp::mlp_norm:
      return TUTOR_LAUNCHER(gl::rmsnorm)(bits(x1_), bits(mlp_norm_w_), bits(x1_norm_), T, h, eps);
    case SubOp::gate_up_proj:
      return TUTOR_LAUNCHER(gl::linear)(bits(x1_norm_), bits(w_gate_up_), bits(gate_up_), T, 2 * f, h);
    case SubOp::silu_mul:
      return TUTOR_LAUNCHER(gl::silu_mul)(bits(gate_up_), bits(act_), T, f);
    case SubOp::down_proj:
      return TUTOR_LAUNCHER(gl::linear)(bits(act_), bits(w_down_), bits(mlp_out_), T, h, f);
    case SubOp::mlp_residual:
      return TUTOR_LAUNCHER(gl::residual_add)(bits(x1_), bits(mlp_out_), bits(out_), elems(T, h));
  }
}

void LayerCase::launch_layer() {
  for (const SubOp op : kSubOps) launch(op);
}

const gpu::DeviceBuffer& LayerCase::output(SubOp op) const {
  switch (op) {
    case SubOp::attn_norm: return x_norm_;
    case SubOp::qkv_proj: return qkv_;
    case SubOp::rope: return q_;  // and this step's slots of the K and V caches (poison, unwritten)
    case SubOp::attention: return attn_;
    case SubOp::o_proj: return attn_out_;
    case SubOp::attn_residual: return x1_;
    case SubOp::mlp_norm: return x1_norm_;
    case SubOp::gate_up_proj: return gate_up_;
    case SubOp::silu_mul: return act_;
    case SubOp::down_proj: return mlp_out_;
    case SubOp::mlp_residual: return out_;
  }
  return out_;
}

void LayerCase::poison(SubOp op) {
  const auto whole = [](const gpu::DeviceBuffer& b) {
    TUTOR_LAUNCHER(gl::fill_rows_bf16)(bits(b), 1, b.bytes() / 2, b.bytes() / 2, kPoisonBf16);
  };
  switch (op) {
    case SubOp::rope: {
      whole(q_);
      // The slots of this step's tokens only: in decode the earlier slots are the cache's contents.
      const std::size_t kvw = elems(layer_.kv_width());
      for (const gpu::DeviceBuffer* cache : {&k_cache_, &v_cache_})
        TUTOR_LAUNCHER(gl::fill_rows_bf16)(bits(*cache) + elems(first_position_) * kvw, elems(phase_.batch),
                                           elems(tokens_per_seq_) * kvw, elems(cache_len_) * kvw, kPoisonBf16);
      return;
    }
    default: return whole(output(op));
  }
}

void LayerCase::poison_layer() {
  for (const SubOp op : kSubOps) poison(op);
}

std::vector<std::uint16_t> LayerCase::download(const gpu::DeviceBuffer& buffer, std::int64_t offset,
                                               std::int64_t count) const {
  std::vector<std::uint16_t> host(elems(count));
  if (count > 0) TUTOR_LAUNCHER(gl::copy_to_host)(host.data(), bits(buffer) + offset, 2 * elems(count));
  return host;
}

std::vector<std::uint16_t> LayerCase::row(const gpu::DeviceBuffer& buffer, std::int64_t width, std::int64_t token) const {
  return download(buffer, token * width, width);
}

const std::vector<std::uint16_t>& LayerCase::weight_on_host(const gpu::DeviceBuffer& buffer,
                                                            std::vector<std::uint16_t>& copy) {
  if (copy.empty()) copy = download(buffer, 0, static_cast<std::int64_t>(buffer.bytes() / 2));
  return copy;
}

std::int64_t LayerCase::sequence_of(std::int64_t token) const { return token / tokens_per_seq_; }
std::int64_t LayerCase::position_of(std::int64_t token) const { return first_position_ + token % tokens_per_seq_; }
std::int64_t LayerCase::cache_offset(std::int64_t seq, std::int64_t slot) const {
  return (seq * cache_len_ + slot) * layer_.kv_width();
}

std::size_t LayerCase::unwritten(SubOp op) const {
  const auto count = [](const std::vector<std::uint16_t>& v) {
    return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [](std::uint16_t b) {
      return !std::isfinite(reference::bf16_to_float(b));
    }));
  };
  const auto whole = [&](const gpu::DeviceBuffer& b) {
    return count(download(b, 0, static_cast<std::int64_t>(b.bytes() / 2)));
  };
  switch (op) {
    case SubOp::rope: {
      std::size_t bad = whole(q_);
      const std::int64_t span = tokens_per_seq_ * layer_.kv_width();
      for (std::int64_t b = 0; b < phase_.batch; ++b)
        for (const gpu::DeviceBuffer* cache : {&k_cache_, &v_cache_})
          bad += count(download(*cache, cache_offset(b, first_position_), span));
      return bad;
    }
    default: return whole(output(op));
  }
}

Comparison LayerCase::check(SubOp op, std::span<const std::int64_t> rows) {
  const std::int64_t h = layer_.hidden, f = layer_.intermediate, qw = layer_.q_width(), kvw = layer_.kv_width(),
                     W = layer_.qkv_width(), d = layer_.head_dim;
  std::vector<float> got;
  std::vector<double> ref;
  std::vector<double> r;
  const auto linear = [&](const gpu::DeviceBuffer& in, std::int64_t in_width, const gpu::DeviceBuffer& weight,
                          std::vector<std::uint16_t>& weight_copy, const gpu::DeviceBuffer& out,
                          std::int64_t out_width, std::int64_t token) {
    r.assign(elems(out_width), 0);
    reference::linear_row(row(in, in_width, token), weight_on_host(weight, weight_copy), r);
    append(got, ref, row(out, out_width, token), r);
  };
  for (const std::int64_t t : rows) {
    const std::int64_t seq = sequence_of(t), pos = position_of(t);
    switch (op) {
      case SubOp::attn_norm:
      case SubOp::mlp_norm: {
        const bool first = op == SubOp::attn_norm;
        r.assign(elems(h), 0);
        reference::rmsnorm_row(row(first ? x_ : x1_, h, t), download(first ? attn_norm_w_ : mlp_norm_w_, 0, h),
                               kRmsNormEps, r);
        append(got, ref, row(first ? x_norm_ : x1_norm_, h, t), r);
        break;
      }
      case SubOp::qkv_proj: linear(x_norm_, h, w_qkv_, w_qkv_host_, qkv_, W, t); break;
      case SubOp::o_proj: linear(attn_, qw, w_o_, w_o_host_, attn_out_, h, t); break;
      case SubOp::gate_up_proj: linear(x1_norm_, h, w_gate_up_, w_gate_up_host_, gate_up_, 2 * f, t); break;
      case SubOp::down_proj: linear(act_, f, w_down_, w_down_host_, mlp_out_, h, t); break;
      case SubOp::rope: {
        const std::vector<std::uint16_t> in = row(qkv_, W, t);
        const std::span<const std::uint16_t> heads(in);
        r.assign(elems(d), 0);
        const std::vector<std::uint16_t> q = row(q_, qw, t);
        for (std::int64_t j = 0; j < layer_.heads; ++j) {
          reference::rope_head(heads.subspan(elems(j, d), elems(d)), pos, inv_freq_host_, r);
          append(got, ref, std::span<const std::uint16_t>(q).subspan(elems(j, d), elems(d)), r);
        }
        const std::vector<std::uint16_t> k = download(k_cache_, cache_offset(seq, pos), kvw);
        const std::vector<std::uint16_t> v = download(v_cache_, cache_offset(seq, pos), kvw);
        for (std::int64_t j = 0; j < layer_.kv_heads; ++j) {
          reference::rope_head(heads.subspan(elems(layer_.heads + j, d), elems(d)), pos, inv_freq_host_, r);
          append(got, ref, std::span<const std::uint16_t>(k).subspan(elems(j, d), elems(d)), r);
        }
        std::vector<double> v_ref(elems(kvw));  // v is stored as it came
        for (std::int64_t c = 0; c < kvw; ++c) v_ref[elems(c)] = reference::bf16_to_float(in[elems(qw + kvw + c)]);
        append(got, ref, v, v_ref);
        break;
      }
      case SubOp::attention: {
        const std::int64_t keys = pos + 1;
        r.assign(elems(qw), 0);
        reference::attention_row(row(q_, qw, t), download(k_cache_, cache_offset(seq, 0), keys * kvw),
                                 download(v_cache_, cache_offset(seq, 0), keys * kvw), keys, layer_.heads,
                                 layer_.kv_heads, d, r);
        append(got, ref, row(attn_, qw, t), r);
        break;
      }
      case SubOp::attn_residual:
      case SubOp::mlp_residual: {
        const bool first = op == SubOp::attn_residual;
        r.assign(elems(h), 0);
        reference::residual_row(row(first ? x_ : x1_, h, t), row(first ? attn_out_ : mlp_out_, h, t), r);
        append(got, ref, row(first ? x1_ : out_, h, t), r);
        break;
      }
      case SubOp::silu_mul: {
        r.assign(elems(f), 0);
        reference::silu_mul_row(row(gate_up_, 2 * f, t), r);
        append(got, ref, row(act_, f, t), r);
        break;
      }
    }
  }
  const SubOpCost cost = layer_costs(layer_, phase_)[index_of(op)];
  Comparison c = compare(got, ref, bf16_output_tolerance(cost.reduction));
  if (const std::size_t bad = unwritten(op); bad > 0) {
    c.passed = false;
    c.nonfinite = std::max(c.nonfinite, bad);
    c.reason = fmt::format("{} output elements are NaN or infinite (left poisoned: never written)", bad);
  }
  return c;
}

std::vector<std::int64_t> LayerCase::all_rows() const {
  std::vector<std::int64_t> rows(elems(tokens_));
  for (std::int64_t t = 0; t < tokens_; ++t) rows[elems(t)] = t;
  return rows;
}

std::vector<std::int64_t> LayerCase::sample_rows(int count, std::uint64_t seed) const {
  if (tokens_ <= count) return all_rows();
  std::vector<std::int64_t> rows = {0, tokens_ - 1};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> pick(1, tokens_ - 2);
  while (static_cast<int>(rows.size()) < count) {
    const std::int64_t t = pick(rng);
    if (std::find(rows.begin(), rows.end(), t) == rows.end()) rows.push_back(t);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace tutor::b05
