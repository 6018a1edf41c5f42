#!/usr/bin/env bash
# A11, Nsight Compute on an NVIDIA GPU: why the last step reaches the copy rate in fp32 but not in
# bf16 at 32,768 x 8,192 (README section 5). Written for
# docs/results/H200/a11_softmax/a11_softmax_ncu_last_step.txt; it builds nothing (build as at the
# top of run_h200.sh), then, from the repository root:
#
#   OUT=docs/results/H200/a11_softmax trackA/a11_softmax/ncu_h200.sh
#
# One timed launch of fast_math in each type (the only launch inside its NVTX range with --reps 1
# --warmup 0 --skip-large-check), with the sections that say what a kernel waits on. Under a
# minute on an H200.
set -u -o pipefail

# shellcheck source=../../common/tools/run_records.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../common/tools/run_records.sh"
records_begin a11_softmax docs/results/H200/a11_softmax

echo "== ncu: fast_math at 32,768 x 8,192 in fp32 and in bf16"
if have ncu; then
  for t in fp32 bf16; do
    run a11_softmax_ncu_last_step.txt ncu --clock-control none --nvtx --nvtx-include "fast_math/" -c 1 \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
        --section WarpStateStats --section SchedulerStats --section InstructionStats --print-units base \
        "$lab" --variant fast_math --dtype $t --reps 1 --warmup 0 --no-flush-l2 --skip-large-check
  done
else
  skipped a11_softmax_ncu_last_step.txt ncu
fi
records_end
