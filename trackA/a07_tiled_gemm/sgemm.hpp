#pragma once
// A07 Tiled GEMM: the SGEMM ladder's interface (host-only types).
//
// Every step computes C = alpha * A * B + beta * C in fp32 for row-major matrices:
// A is m x k (row stride k), B is k x n (row stride n), C is m x n (row stride n), for any
// m, n, k >= 1. As in BLAS, C is not read when beta == 0 (it may hold NaN). The launchers
// live in cuda/sgemm.cu and hip/sgemm.hip (same names, same order); each enqueues its
// kernel on the default stream and checks the launch. Kernel files include this header, so
// it stays C++17 (GPU sources compile as C++17).
namespace tutor::a07 {

/// One GEMM problem. Pointers are device pointers from cudaMalloc / hipMalloc (256-byte
/// aligned); a holds m*k floats, b k*n floats, c m*n floats.
struct GemmArgs {
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  const float* a = nullptr;
  const float* b = nullptr;
  float* c = nullptr;
};

/// The signature every step's launcher shares.
using GemmLauncher = void (*)(const GemmArgs& args);

// The ladder, in order (cuda/sgemm.cu explains each step above its kernel).
void launch_naive(const GemmArgs& args);
void launch_coalesced(const GemmArgs& args);
void launch_smem_tiled(const GemmArgs& args);
void launch_reg_tile_1d(const GemmArgs& args);
void launch_reg_tile_2d(const GemmArgs& args);
void launch_vectorized(const GemmArgs& args);
void launch_conflict_free(const GemmArgs& args);
void launch_warp_tiled(const GemmArgs& args);
void launch_double_buffered(const GemmArgs& args);  ///< runs the selected TileConfig

// The learner's exercises (exercises/cuda|hip/, worked solutions in exercises/solutions/), run
// only when named: --variant exercise_smem (as smem_tiled), exercise_reg_tile (as reg_tile_2d).
void launch_exercise_smem(const GemmArgs& args);
void launch_exercise_reg_tile(const GemmArgs& args);

/// The tile shape of the last step (double_buffered): a block computes bm x bn of C, staging
/// bk columns of A and bk rows of B per tile; each warp (wavefront on AMD) computes wm x wn
/// and each thread an 8 x 8 block of it, so wm * wn = 64 * warp size.
struct TileConfig {
  int bm, bn, bk, wm, wn;
  int threads() const;  ///< (bm / wm) * (bn / wn) * warp size
};

/// The configurations the tuner tries (compiled in: tile sizes are template arguments).
/// Index 0 is the portable default. `tile_config_count()` >= 1.
int tile_config_count();
TileConfig tile_config(int index);

/// Selects the configuration launch_double_buffered uses (an index below
/// tile_config_count(); the driver checks it). Default 0.
void select_tile_config(int index);

}  // namespace tutor::a07
