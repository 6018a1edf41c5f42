#!/usr/bin/env bash
# A11 on an NVIDIA GPU (written for the H200 records in docs/results/H200/a11_softmax/): the ladder
# at 32,768 x 8,192 in fp32 and bf16 (graded), the sweep over row length in both types with its
# plots, the Triton script (autotuned fused softmax beside torch.softmax, torch.compile and this
# lab's fast_math step, fp32 and bf16), Nsight Compute's DRAM bytes per step (one launch each),
# the exercises (stubs and worked solutions, graded), and compute-sanitizer memcheck, racecheck and
# synccheck on every kernel at small sizes. It builds nothing; build first, from the repository root:
#
#   cmake --preset cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF
#   cmake --build build --target a11_softmax tutor
#   cmake --preset cuda -B build-solutions -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF \
#         -DTUTOR_EXERCISE_SOLUTIONS=ON
#   cmake --build build-solutions --target a11_softmax
#
# then, from the repository root:  OUT=docs/results/H200/a11_softmax trackA/a11_softmax/run_h200.sh
# OUT (default docs/results/H200/a11_softmax) and BUILD, SOLUTIONS (default build, build-solutions)
# are taken relative to the current folder, as given, so the records name files the way they were
# typed. Each text file starts with the command that made it and ends with its exit code; paths
# of the checkout and the home folder are stripped at the end. A tool that is not installed (ncu,
# compute-sanitizer) is skipped with a note; a Python without torch and triton writes its exit 3.
# Under 150 s on an H200 (most of it the host's fp64 references and Triton's autotuning).
set -u -o pipefail

# shellcheck source=../../common/tools/run_records.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../common/tools/run_records.sh"
records_begin a11_softmax docs/results/H200/a11_softmax

echo "== the ladder: 32,768 x 8,192, fp32 and bf16 (the goal: the last step >= 0.90 of copy in both)"
run a11_softmax.txt "$lab" --json "$OUT/a11_softmax.json"
run a11_softmax.txt "$lab" --dtype bf16 --json "$OUT/a11_softmax_bf16.json"
run a11_softmax_grade.txt "$BUILD/tutor" grade "$OUT/a11_softmax.json" --assignment ladder
run a11_softmax_grade.txt "$BUILD/tutor" grade "$OUT/a11_softmax_bf16.json" --assignment ladder

echo "== the sweep over row length: 2^25 elements at each point, every step, fp32 and bf16"
sweep=32,256,1024,4096,16384,32768,65536,262144
for t in fp32 bf16; do
  run a11_softmax_sweep.txt "$lab" --dtype $t --sweep-cols $sweep --reps 10 --warmup 2 --skip-large-check \
      --json "$OUT/a11_softmax_sweep_$t.json" --csv "$OUT/a11_softmax_sweep_$t.csv" --plot "$OUT/a11_softmax_sweep_$t.svg"
done

echo "== Triton: the fused softmax autotuned, torch.softmax, torch.compile and the C++ fast_math step, one run each type"
for t in fp32 bf16; do
  run_optional a11_softmax_triton.txt python3 trackA/a11_softmax/triton/softmax.py --dtype $t --lab "$lab" \
      --json "$OUT/a11_softmax_triton_$t.json"
done

echo "== ncu: DRAM bytes of one launch of each step (8,192 x 8,192 fp32: 256 MiB in, more than L2)"
if have ncu; then
  # One process, every step: with --reps 1 --warmup 0 --skip-large-check the only launches inside
  # the steps' NVTX ranges are the one timed softmax of each (three kernels for three_pass, one for
  # the others: eight in all), so a launch count above eight profiles exactly those.
  run a11_softmax_ncu.txt ncu --clock-control none --nvtx --nvtx-include "three_pass/" --nvtx-include "block_fused/" \
      --nvtx-include "online/" --nvtx-include "warp_row/" --nvtx-include "vectorised/" --nvtx-include "fast_math/" \
      --launch-count 20 --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
      "$lab" --rows 8192 --cols 8192 --reps 1 --warmup 0 --no-flush-l2 --skip-large-check
else
  skipped a11_softmax_ncu.txt ncu
fi

echo "== the exercises: stubs (exit 1: nothing written) and worked solutions, graded"
exercise_args=(--variant exercise_online --variant online --variant exercise_registers --variant warp_row
               --variant vectorised --cols 512)
run exercises_a11_softmax_stub.txt "$lab" "${exercise_args[@]}" --json "$OUT/exercises_a11_softmax_stub.json"
for a in exercise_online exercise_registers; do
  run exercises_a11_softmax_stub.txt "$BUILD/tutor" grade "$OUT/exercises_a11_softmax_stub.json" --assignment $a
done
if [ -n "$solution_lab" ]; then
  run exercises_a11_softmax_solution.txt "$solution_lab" "${exercise_args[@]}" \
      --json "$OUT/exercises_a11_softmax_solution.json"
  for a in exercise_online exercise_registers; do
    run exercises_a11_softmax_solution.txt "$BUILD/tutor" grade "$OUT/exercises_a11_softmax_solution.json" \
        --assignment $a
  done
else
  echo "  $SOLUTIONS/a11_softmax not built: the worked solutions are not run"
fi

echo "== compute-sanitizer: memcheck, racecheck, synccheck on every kernel at small sizes"
# 300 x 4,099 (and the verification shapes up to 2^20 elements: cols 1 to 32,769, so every form of
# every step, the register rows and the streamed ones): memcheck in fp32 and bf16, racecheck and
# synccheck in fp32; then the solutions' exercises.
if have compute-sanitizer; then
  for tool in memcheck racecheck synccheck; do
    types=(fp32 bf16)
    [ $tool = memcheck ] || types=(fp32)  # the shared-memory code is the same for both types
    for t in "${types[@]}"; do
      run a11_softmax_sanitizer.txt compute-sanitizer --tool $tool "$lab" --dtype "$t" --rows 300 --cols 4099 \
          --reps 1 --warmup 0 --no-flush-l2 --skip-large-check
    done
    if [ -n "$solution_lab" ]; then
      run a11_softmax_sanitizer.txt compute-sanitizer --tool $tool "$solution_lab" \
          --variant exercise_online --variant exercise_registers --rows 300 --cols 4099 --reps 1 --warmup 0 \
          --no-flush-l2 --skip-large-check
    fi
  done
else
  skipped a11_softmax_sanitizer.txt compute-sanitizer
fi

records_end
