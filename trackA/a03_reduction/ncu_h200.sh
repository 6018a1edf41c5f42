#!/usr/bin/env bash
# A03, Nsight Compute on an NVIDIA GPU: the counters that say why warp_shuffle (step 5) trails
# unroll_last_warp (step 4) at 2^28 (README section 5.1). Written for
# docs/results/H200/a03_reduction/a03_reduction_ncu.txt; it builds nothing (build as at the top of
# run_h200.sh), then, from the repository root:
#
#   OUT=docs/results/H200/a03_reduction trackA/a03_reduction/ncu_h200.sh
#
# Every launch of the two kernels inside the steps' NVTX ranges is profiled (each step makes four
# launches per reduction: compare the first, 2^19 blocks at 2^28). Under a minute on an H200.
set -u -o pipefail

# shellcheck source=../../common/tools/run_records.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../common/tools/run_records.sh"
records_begin a03_reduction docs/results/H200/a03_reduction

echo "== ncu: unroll_last_warp and warp_shuffle, occupancy, warp states, DRAM throughput"
if have ncu; then
  run a03_reduction_ncu.txt ncu --clock-control none --nvtx --nvtx-include "unroll_last_warp/" \
      --nvtx-include "warp_shuffle/" -k regex:"reduce_(unroll_last_warp|warp_shuffle)" \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
      --section LaunchStats --print-units base \
      "$lab" --variant unroll_last_warp --variant warp_shuffle --skip-large-check --reps 1 --warmup 0
else
  skipped a03_reduction_ncu.txt ncu
fi
records_end
