#pragma once
// The host references tutor_baselines checks the libraries against, in fp64 (or exactly, for
// counts): what each library call must compute, written the plain way.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tutor::baselines::host {

/// The float a bfloat16 bit pattern stands for (its 16 bits are the top half of an fp32).
float bf16_to_float(std::uint16_t bits);

/// Rows `rows` of C = A B in fp64, row-major: A is m x k, B is k x n; the result holds the
/// chosen rows one after another (rows.size() x n).
std::vector<double> gemm_rows(std::span<const float> a, std::span<const float> b, int n, int k,
                              std::span<const int> rows);

/// sum_i in[i] in fp64.
double sum(std::span<const float> in);

/// out[i] = in[0] + ... + in[i] in fp64.
std::vector<double> inclusive_scan(std::span<const float> in);

/// counts[b] = number of x in `in` with lower + b*w <= x < lower + (b+1)*w, w = (upper-lower)/bins,
/// the bin rule of CUB's and rocPRIM's HistogramEven; values outside [lower, upper) are dropped.
/// The bin of x is floor((x - lower) * bins / (upper - lower)), exact when bins and the range are
/// powers of two (the only case tutor_baselines uses).
std::vector<std::int64_t> histogram_even(std::span<const float> in, int bins, float lower, float upper);

}  // namespace tutor::baselines::host
