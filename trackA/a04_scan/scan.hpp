#pragma once
// A04 Scan: the prefix-sum ladder's interface (host-only types).
//
// Every step computes a prefix sum of n elements of one type (fp32 or int32): inclusive
// (out[i] = in[0] + ... + in[i]) or exclusive (out[i] = in[0] + ... + in[i-1], out[0] = 0),
// for any n >= 1. The launchers live in cuda/scan.cu and hip/scan.hip (same names, same
// order), the vendor library's in cuda/vendor_scan.cu and hip/vendor_scan.hip; each enqueues
// its kernels on the default stream and checks the launches. Kernel files include this
// header, so it stays C++17 (GPU sources compile as C++17).
#include <cstddef>

namespace tutor::a04 {

enum class ScanType { f32, i32 };

/// One scan. `in`, `out` and `workspace` are device pointers from cudaMalloc / hipMalloc;
/// `workspace` holds at least workspace_bytes(n) bytes, and its contents on entry do not matter.
struct ScanArgs {
  const void* in;
  void* out;
  long long n;
  ScanType type;
  bool exclusive;
  void* workspace;
  std::size_t workspace_bytes;
};

/// The signature every step's launcher shares.
using ScanLauncher = void (*)(const ScanArgs& args);

void launch_kogge_stone(const ScanArgs& args);
void launch_brent_kung(const ScanArgs& args);
void launch_reduce_then_scan(const ScanArgs& args);
void launch_decoupled_lookback(const ScanArgs& args);

/// The learner's exercises (exercises/cuda|hip/, worked solutions in exercises/solutions/):
/// kernels with a TODO the driver runs only when named (--variant exercise, exercise_lookback).
void launch_exercise_blelloch(const ScanArgs& args);
void launch_exercise_lookback(const ScanArgs& args);

/// Workspace the ladder's steps and the exercises need for n elements (block sums of every level, tile
/// status words, the tile counter).
std::size_t ladder_workspace_bytes(long long n);

/// The vendor library: cub::DeviceScan on NVIDIA, rocprim::inclusive_scan / exclusive_scan on
/// AMD. `vendor_workspace_bytes` asks the library (no launch).
void launch_vendor_scan(const ScanArgs& args);
std::size_t vendor_workspace_bytes(long long n, ScanType type, bool exclusive);
const char* vendor_scan_name();

}  // namespace tutor::a04
