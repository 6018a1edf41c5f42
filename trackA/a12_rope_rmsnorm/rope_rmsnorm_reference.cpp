#include "rope_rmsnorm_reference.hpp"

#include <bit>
#include <cmath>

namespace tutor::a12 {

float bf16_to_float(std::uint16_t bits) { return std::bit_cast<float>(std::uint32_t(bits) << 16); }

std::uint16_t float_to_bf16(float v) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(v);
  if (std::isnan(v)) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}

std::vector<float> inv_freq(double base, int rotary_dim) {
  std::vector<float> f(std::size_t(rotary_dim / 2));
  for (int i = 0; i < rotary_dim / 2; ++i) f[std::size_t(i)] = float(std::pow(base, -2.0 * i / rotary_dim));
  return f;
}

float phase(int position, float inv_freq) {
  volatile float p = float(position);  // one fp32 product, never contracted or widened
  return p * inv_freq;
}

std::vector<float> cos_sin_table(std::span<const float> freq, int max_position) {
  std::vector<float> t(std::size_t(max_position) * freq.size() * 2);
  for (int pos = 0; pos < max_position; ++pos)
    for (std::size_t i = 0; i < freq.size(); ++i) {
      const double a = phase(pos, freq[i]);
      t[(std::size_t(pos) * freq.size() + i) * 2] = float(std::cos(a));
      t[(std::size_t(pos) * freq.size() + i) * 2 + 1] = float(std::sin(a));
    }
  return t;
}

std::vector<double> reference(const Dims& d, std::span<const std::uint16_t> x, std::span<const std::uint16_t> q_weight,
                              std::span<const std::uint16_t> k_weight, std::span<const std::int32_t> positions,
                              std::span<const float> freq) {
  const int heads = d.q_heads + d.kv_heads;
  const std::size_t D = std::size_t(d.head_dim);
  std::vector<double> y(head_rows(d.tokens, d.q_heads, d.kv_heads) * D);
  std::vector<double> n(D), c(std::size_t(d.rotary_dim / 2)), s(c.size());
  for (int t = 0; t < d.tokens; ++t) {
    for (std::size_t p = 0; p < c.size(); ++p) {  // one angle per pair and token, shared by its heads
      const double a = phase(positions[std::size_t(t)], freq[p]);
      c[p] = std::cos(a);
      s[p] = std::sin(a);
    }
    for (int h = 0; h < heads; ++h) {
      const std::size_t row = (std::size_t(t) * heads + h) * D;
      const auto& w = h < d.q_heads ? q_weight : k_weight;
      double sum_sq = 0;
      for (std::size_t i = 0; i < D; ++i) sum_sq += double(bf16_to_float(x[row + i])) * bf16_to_float(x[row + i]);
      const double inv_rms = 1.0 / std::sqrt(sum_sq / double(D) + d.eps);
      for (std::size_t i = 0; i < D; ++i) n[i] = bf16_to_float(x[row + i]) * inv_rms * bf16_to_float(w[i]);
      for (std::size_t i = 0; i < D; ++i) y[row + i] = n[i];  // past rotary_dim: passed through
      for (int p = 0; p < d.rotary_dim / 2; ++p) {
        const PairIndex e = pair_index(d.layout, d.rotary_dim, p);
        const std::size_t a = std::size_t(e.first), b = std::size_t(e.second), q = std::size_t(p);
        y[row + a] = n[a] * c[q] - n[b] * s[q];
        y[row + b] = n[b] * c[q] + n[a] * s[q];
      }
    }
  }
  return y;
}

double tolerance(int head_dim) { return 2 * std::ldexp(1.0, -8) + (head_dim + 8) * std::ldexp(1.0, -24); }

namespace {
double activations(const Dims& d) { return double(head_rows(d.tokens, d.q_heads, d.kv_heads)) * d.head_dim * 2; }
double small_arrays(const Dims& d) { return double(d.tokens) * 4 + 2.0 * d.head_dim * 2; }
double table_rows(const Dims& d) { return double(d.tokens) * (d.rotary_dim / 2) * 8; }
}  // namespace

double minimum_bytes(const Dims& d) { return 2 * activations(d) + small_arrays(d); }
double unfused_bytes(const Dims& d) { return 4 * activations(d) + small_arrays(d) + table_rows(d); }
double fused_table_bytes(const Dims& d) { return 2 * activations(d) + small_arrays(d) + table_rows(d); }
double fused_compute_bytes(const Dims& d) { return minimum_bytes(d) + (d.rotary_dim / 2) * 4.0; }

std::vector<std::uint16_t> residual_sum(std::span<const std::uint16_t> x, std::span<const std::uint16_t> residual) {
  std::vector<std::uint16_t> s(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    volatile float sum = bf16_to_float(x[i]) + bf16_to_float(residual[i]);  // one fp32 addition
    s[i] = float_to_bf16(sum);
  }
  return s;
}

std::vector<double> rmsnorm_reference(std::span<const std::uint16_t> s, std::span<const std::uint16_t> weight,
                                      int hidden, double eps) {
  const std::size_t h = std::size_t(hidden);
  std::vector<double> y(s.size());
  for (std::size_t row = 0; row + h <= s.size(); row += h) {
    double sum_sq = 0;
    for (std::size_t i = 0; i < h; ++i) sum_sq += double(bf16_to_float(s[row + i])) * bf16_to_float(s[row + i]);
    const double inv_rms = 1.0 / std::sqrt(sum_sq / double(h) + eps);
    for (std::size_t i = 0; i < h; ++i) y[row + i] = bf16_to_float(s[row + i]) * inv_rms * bf16_to_float(weight[i]);
  }
  return y;
}

double add_norm_tolerance(int hidden) { return std::ldexp(1.0, -8) + (hidden + 8) * std::ldexp(1.0, -24); }

double add_norm_minimum_bytes(int tokens, int hidden) { return 4.0 * tokens * hidden * 2 + hidden * 2.0; }
double add_then_norm_bytes(int tokens, int hidden) { return 5.0 * tokens * hidden * 2 + hidden * 2.0; }

}  // namespace tutor::a12
