// B05 profile: the CPU reference of the layer's sub-ops, in double (profile_reference.hpp).
#include "profile_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

namespace tutor::b05::reference {
namespace {

double at(std::span<const std::uint16_t> v, std::size_t i) { return bf16_to_float(v[i]); }

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}

}  // namespace

float bf16_to_float(std::uint16_t bits) {
  const std::uint32_t u = std::uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

std::uint16_t float_to_bf16(float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  if (std::isnan(v)) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);  // keep it a quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest, ties to the even bf16
  return static_cast<std::uint16_t>(u >> 16);
}

void rmsnorm_row(std::span<const std::uint16_t> x, std::span<const std::uint16_t> weight, double eps,
                 std::span<double> out) {
  require(x.size() == weight.size() && x.size() == out.size() && !x.empty(), "rmsnorm_row: sizes differ");
  double sum_sq = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sum_sq += at(x, i) * at(x, i);
  const double inv_rms = 1 / std::sqrt(sum_sq / static_cast<double>(x.size()) + eps);
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = at(x, i) * inv_rms * at(weight, i);
}

void linear_row(std::span<const std::uint16_t> x, std::span<const std::uint16_t> weight, std::span<double> out) {
  const std::size_t in = x.size();
  require(in > 0 && weight.size() == out.size() * in, "linear_row: weight is not out x in");
  std::vector<double> xd(in);
  for (std::size_t i = 0; i < in; ++i) xd[i] = at(x, i);
  for (std::size_t o = 0; o < out.size(); ++o) {
    const std::uint16_t* w = weight.data() + o * in;
    double acc = 0;
    for (std::size_t i = 0; i < in; ++i) acc += xd[i] * static_cast<double>(bf16_to_float(w[i]));
    out[o] = acc;
  }
}

std::vector<float> rope_inv_freq(std::int64_t head_dim, double base) {
  require(head_dim > 0 && head_dim % 2 == 0 && base > 1, "rope_inv_freq: an even head_dim and a base > 1");
  std::vector<float> inv_freq(std::size_t(head_dim / 2));
  for (std::size_t i = 0; i < inv_freq.size(); ++i)
    inv_freq[i] = static_cast<float>(std::pow(base, -2.0 * double(i) / double(head_dim)));
  return inv_freq;
}

void rope_head(std::span<const std::uint16_t> head, std::int64_t position, std::span<const float> inv_freq,
               std::span<double> out) {
  const std::size_t dim = head.size(), half = dim / 2;
  require(dim % 2 == 0 && dim > 0 && out.size() == dim && inv_freq.size() == half,
          "rope_head: an even head, its output and head/2 frequencies");
  for (std::size_t i = 0; i < half; ++i) {
    const float angle = static_cast<float>(position) * inv_freq[i];  // fp32, as the model computes it
    const double c = std::cos(double(angle)), s = std::sin(double(angle)), x0 = at(head, i), x1 = at(head, i + half);
    out[i] = x0 * c - x1 * s;
    out[i + half] = x1 * c + x0 * s;
  }
}

void attention_row(std::span<const std::uint16_t> q, std::span<const std::uint16_t> k_cache,
                   std::span<const std::uint16_t> v_cache, std::int64_t keys, std::int64_t heads,
                   std::int64_t kv_heads, std::int64_t head_dim, std::span<double> out) {
  require(keys >= 1 && heads >= 1 && kv_heads >= 1 && head_dim >= 1 && heads % kv_heads == 0,
          "attention_row: bad sizes");
  const std::size_t d = std::size_t(head_dim), row = std::size_t(kv_heads) * d;
  require(q.size() == std::size_t(heads) * d && out.size() == q.size(), "attention_row: q or out size");
  require(k_cache.size() >= std::size_t(keys) * row && v_cache.size() >= std::size_t(keys) * row,
          "attention_row: the cache holds fewer than `keys` tokens");
  const std::int64_t group = heads / kv_heads;
  const double scale = 1 / std::sqrt(static_cast<double>(head_dim));
  std::vector<double> score(static_cast<std::size_t>(keys));
  for (std::int64_t hq = 0; hq < heads; ++hq) {
    const std::size_t kv = std::size_t(hq / group) * d, qo = std::size_t(hq) * d;
    double max_score = -std::numeric_limits<double>::infinity();
    for (std::int64_t t = 0; t < keys; ++t) {
      double s = 0;
      for (std::size_t c = 0; c < d; ++c) s += at(q, qo + c) * at(k_cache, std::size_t(t) * row + kv + c);
      score[std::size_t(t)] = s * scale;
      max_score = std::max(max_score, score[std::size_t(t)]);
    }
    double denom = 0;
    for (double& s : score) denom += (s = std::exp(s - max_score));  // softmax, shifted by the max
    for (std::size_t c = 0; c < d; ++c) {
      double acc = 0;
      for (std::int64_t t = 0; t < keys; ++t) acc += score[std::size_t(t)] * at(v_cache, std::size_t(t) * row + kv + c);
      out[qo + c] = acc / denom;
    }
  }
}

void silu_mul_row(std::span<const std::uint16_t> gate_up, std::span<double> out) {
  const std::size_t f = out.size();
  require(gate_up.size() == 2 * f, "silu_mul_row: gate_up is not [gate | up]");
  for (std::size_t i = 0; i < f; ++i) {
    const double g = at(gate_up, i);
    out[i] = g / (1 + std::exp(-g)) * at(gate_up, f + i);
  }
}

void residual_row(std::span<const std::uint16_t> a, std::span<const std::uint16_t> b, std::span<double> out) {
  require(a.size() == b.size() && a.size() == out.size(), "residual_row: sizes differ");
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = at(a, i) + at(b, i);
}

}  // namespace tutor::b05::reference
