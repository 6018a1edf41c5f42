#pragma once
// The tile of the last step (double_buffered), chosen once per run: --tile-config, a tuning pass
// (--tune: every compiled TileConfig verified and timed on this GPU, the fastest cached), the
// per-device cache, or the per-architecture default (tuning.hpp).
#include <string>

#include <nlohmann/json.hpp>

#include "gemm_case.hpp"
#include "tuning.hpp"
#include "tutor/ladder_lab.hpp"

namespace tutor::a07 {

struct TileOptions {
  bool tune = false;
  int index = -1;          ///< --tile-config
  std::string cache;       ///< --tune-cache
  TileChoice choice;
  nlohmann::json tuning;   ///< the tuning pass, when --tune ran
  bool chosen = false;
};

/// Picks the tile of double_buffered once per run and writes it into the step's declaration, so
/// the table and the record name it.
void choose_tile(TileOptions& t, LadderRun<GemmCase>& run);

}  // namespace tutor::a07
