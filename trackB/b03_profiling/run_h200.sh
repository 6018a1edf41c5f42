#!/usr/bin/env bash
# SPOILERS: this script holds the answer key's Nsight Compute recipes and comments on kernel 6's
# bug; read it after your own diagnoses (exercises/README.md).
# B03 on an NVIDIA GPU (written for the H200 records in docs/results/H200/b03_profiling/): the lab's
# records, kernel 6 at four fixed seeds (two whose drawn length has a short last tile, two a long
# one), the exercises (stubs and worked solutions, graded), compute-sanitizer on every kernel, the
# Nsight Compute recipe of each kernel, the project rule, and an Nsight Systems summary. It builds
# nothing; build first, from the repository root:
#
#   cmake --preset cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF
#   cmake --build build --target b03_mystery tutor
#   cmake --preset cuda -B build-solutions -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF \
#         -DTUTOR_EXERCISE_SOLUTIONS=ON
#   cmake --build build-solutions --target b03_mystery
#
# then, from the repository root:  OUT=docs/results/H200/b03_profiling trackB/b03_profiling/run_h200.sh
# OUT (default docs/results/H200/b03_profiling) and BUILD, SOLUTIONS (default build, build-solutions)
# are taken relative to the current folder, as given, so the records name files the way they were
# typed. Each text file starts with the command that made it and ends with its exit code. The
# records must not name the measuring machine's folders: at the end, every text file this script
# wrote has the checkout's prefix ($root/, the current folder, the build folders' resolved paths)
# and the home folder stripped from what the tools printed (Nsight Compute prints the executable's
# resolved path and its own install folder). A tool that is not installed (ncu, nsys,
# compute-sanitizer) is skipped with a note. About four minutes on an H200.
set -u -o pipefail

# shellcheck source=../../common/tools/run_records.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../common/tools/run_records.sh"
records_begin b03_mystery docs/results/H200/b03_profiling
rules=$root/trackB/b03_profiling/ncu_rules
[ "$(cd "$root" && pwd -P)" = "$(pwd -P)" ] && rules=trackB/b03_profiling/ncu_rules
# Kernel 6's seeds: its drawn length is smoothing_drawn_length(seed + 6000) (mystery_reference.hpp).
# Seeds 1 and 4 draw short last tiles (27 and 9 elements: inside one warp, the race cannot bite);
# seeds 3 and 6 draw long ones (253 and 188 elements: across eight and six warps).
short_seeds=(1 4)
long_seeds=(3 6)

echo "== the lab: kernels 1-5 (the default run), every kernel verified, timed, placed on the roofline"
run b03_mystery.txt "$lab" --json "$OUT/b03_mystery.json" --csv "$OUT/b03_mystery.csv"

echo "== kernel 6 at four seeds: verification passes on the short last tiles (exit 0) and may fail on the long ones (exit 1)"
for seed in "${short_seeds[0]}" "${long_seeds[0]}" "${short_seeds[1]}" "${long_seeds[1]}"; do
  run b03_mystery_kernel6.txt "$lab" --kernel 6 --seed "$seed" --json "$OUT/b03_mystery_kernel6_seed$seed.json"
done

run b03_mystery_grade.txt "$BUILD/tutor" grade "$OUT/b03_mystery.json" --assignment diagnose

echo "== the exercises: stubs (exit 1: nothing written) and worked solutions, graded"
exercise_args=(--kernel 1,3,4,5 --exercise 3,4,5,6)
run exercises_b03_mystery_stub.txt "$lab" "${exercise_args[@]}" --json "$OUT/exercises_b03_mystery_stub.json"
for a in fix_3 fix_4 fix_5 fix_6; do
  run exercises_b03_mystery_stub_grade.txt "$BUILD/tutor" grade "$OUT/exercises_b03_mystery_stub.json" --assignment $a
done
if [ -n "$solution_lab" ]; then
  run exercises_b03_mystery_solution.txt "$solution_lab" "${exercise_args[@]}" \
      --json "$OUT/exercises_b03_mystery_solution.json"
  for a in fix_3 fix_4 fix_5 fix_6; do
    run exercises_b03_mystery_solution_grade.txt "$BUILD/tutor" grade "$OUT/exercises_b03_mystery_solution.json" \
        --assignment $a
  done
else
  echo "  $SOLUTIONS/b03_mystery not built: the worked solutions are not run"
fi

echo "== compute-sanitizer: memcheck, racecheck, synccheck on every kernel at small sizes (kernels 1-5, then 6)"
# Kernel 6 alone: its --small lengths are fixed and have long last tiles, so racecheck reports the
# hazard on every run (exit 1); memcheck and synccheck find nothing, and their exit code is the
# lab's, 0 or 1 as the race happened to resolve under the tool.
if have compute-sanitizer; then
  for tool in memcheck racecheck synccheck; do
    run b03_mystery_sanitizer.txt compute-sanitizer --tool $tool "$lab" --kernel 1,2,3,4,5 --small --reps 2 --warmup 1
    run b03_mystery_sanitizer.txt compute-sanitizer --tool $tool "$lab" --kernel 6 --small --reps 2 --warmup 1
    if [ -n "$solution_lab" ]; then
      run exercises_b03_mystery_sanitizer.txt compute-sanitizer --tool $tool "$solution_lab" \
          --kernel 3 --exercise 3,4,5,6 --small --reps 2 --warmup 1
    fi
  done
else
  skipped b03_mystery_sanitizer.txt compute-sanitizer
fi

# The recipes of the answer key (exercises/solutions/mystery_N.md), verbatim: one Nsight Compute
# command per kernel (a test checks that the key shows these lines). ./build/ and ncu are replaced by $BUILD/ and the ncu found.
recipes=$(cat <<'EOF'
ncu --clock-control none --nvtx --nvtx-include "mystery_1/" -k regex:mystery_ -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum ./build/b03_mystery --kernel 1 --reps 1 --warmup 0
ncu --clock-control none --nvtx --nvtx-include "mystery_2/" -k regex:mystery_ -c 1 --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --metrics sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__thread_inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed ./build/b03_mystery --kernel 2 --reps 1 --warmup 0
ncu --clock-control none --nvtx --nvtx-include "mystery_3/" -k regex:mystery_ -c 1 --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --metrics sm__warps_active.avg.pct_of_peak_sustained_active,launch__waves_per_multiprocessor,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__pcsamp_warps_issue_stalled_long_scoreboard,dram__throughput.avg.pct_of_peak_sustained_elapsed ./build/b03_mystery --kernel 3 --reps 1 --warmup 0
ncu --clock-control none --nvtx --nvtx-include "mystery_4/" -k regex:mystery_ -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active ./build/b03_mystery --kernel 4 --reps 1 --warmup 0
ncu --clock-control none --nvtx --nvtx-include "mystery_5/" -k regex:mystery_ -c 1 --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section MemoryWorkloadAnalysis --metrics sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__thread_inst_executed.sum,lts__t_sector_hit_rate.pct ./build/b03_mystery --kernel 5 --reps 1 --warmup 0
ncu --clock-control none --nvtx --nvtx-include "mystery_6/" -k regex:mystery_ -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis ./build/b03_mystery --kernel 6 --seed 1 --reps 1 --warmup 0
EOF
)

echo "== Nsight Compute: each kernel's recipe, then the project rule on all of them"
if have ncu; then
  ncu --version > "$OUT/b03_mystery_ncu_version.txt" 2>&1
  k=0
  while IFS= read -r line; do
    k=$((k + 1))
    # shellcheck disable=SC2086  # the recipe is a command line: split it into words
    eval "set -- ${line//.\/build\//$BUILD/}"
    if ! run "b03_mystery_ncu_mystery_$k.txt" "$@" && [[ $line == *--metrics* ]]; then
      # A metric this Nsight Compute does not know fails the whole command: keep the sections.
      args=()
      while [ $# -gt 0 ]; do
        if [ "$1" = "--metrics" ]; then shift 2; continue; fi
        args+=("$1")
        shift
      done
      echo "# the command failed; again without --metrics:" >> "$OUT/b03_mystery_ncu_mystery_$k.txt"
      run "b03_mystery_ncu_mystery_$k.txt" "${args[@]}"
    fi
  done <<< "$recipes"
  # The project rule on kernels 1-5 (the default run: every kernel verified, exit 0), then on
  # kernel 6 at a seed with a short last tile (verified, exit 0), into one file.
  for kernels in 1,2,3,4,5 6; do
    includes=()
    for k in ${kernels//,/ }; do includes+=(--nvtx-include "mystery_$k/"); done
    seed=()
    [ "$kernels" = 6 ] && seed=(--seed "${short_seeds[0]}")
    run b03_mystery_ncu_rule.txt ncu --clock-control none --section-folder "$rules" --section B03Mystery --nvtx \
        "${includes[@]}" -k regex:mystery_ "$lab" --kernel "$kernels" "${seed[@]}" --reps 1 --warmup 0
  done
else
  skipped b03_mystery_ncu.txt ncu
fi

echo "== Nsight Systems: the whole run on a timeline, NVTX ranges and kernels summed"
if have nsys; then
  scratch=$(mktemp -d)
  records_extra_prefixes+=("$scratch")
  run b03_mystery_nsys.txt nsys profile -t cuda,nvtx --force-overwrite true -o "$scratch/b03_timeline" \
      "$lab" --kernel 1,2,3,4,5 --reps 5 --warmup 1
  run b03_mystery_nsys.txt nsys stats --report nvtx_sum --report cuda_gpu_kern_sum "$scratch/b03_timeline.nsys-rep"
  rm -rf "$scratch"
else
  skipped b03_mystery_nsys.txt nsys
fi

records_end
