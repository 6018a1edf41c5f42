#!/usr/bin/env bash
# A05 on an NVIDIA GPU (written for the H200 records in docs/results/H200/a05_atomics/): the lab's
# records (8-bit uniform at 2^28 with CUB in the same run; Zipf; fp32 with 65,536 bins), the
# contention sweep with its plot, the exercises (stubs and worked solutions, graded), and
# compute-sanitizer memcheck, racecheck and synccheck on every kernel at small sizes. It builds
# nothing; build first, from the repository root:
#
#   cmake --preset cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF
#   cmake --build build --target a05_histogram tutor
#   cmake --preset cuda -B build-solutions -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF \
#         -DTUTOR_EXERCISE_SOLUTIONS=ON
#   cmake --build build-solutions --target a05_histogram
#
# then, from the repository root:  OUT=docs/results/H200/a05_atomics trackA/a05_atomics/run_h200.sh
# OUT (default docs/results/H200/a05_atomics) and BUILD, SOLUTIONS (default build, build-solutions)
# are taken relative to the current folder, as given, so the records name files the way they were
# typed. Each text file starts with the command that made it and ends with its exit code. At the
# end every text file has the checkout's prefix and the home folder stripped from what the tools
# printed. A tool that is not installed (compute-sanitizer) is skipped with a note. Under 90 s on
# an H200 (most of it the host drawing 2^28 samples and counting them for the references).
set -u -o pipefail

# shellcheck source=../../common/tools/run_records.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../common/tools/run_records.sh"
records_begin a05_histogram docs/results/H200/a05_atomics


echo "== the ladder: 2^28 8-bit samples, 256 bins, uniform (the goal: per_warp_vec >= 0.9x CUB); Zipf; fp32 x 65,536 bins"
run a05_histogram.txt "$lab" --json "$OUT/a05_histogram.json"
run a05_histogram.txt "$lab" --distribution zipf --json "$OUT/a05_histogram_zipf.json"
run a05_histogram.txt "$lab" --dtype f32 --bins 65536 --samples 67108864 --reps 10 --json "$OUT/a05_histogram_f32.json"
run a05_histogram_grade.txt "$BUILD/tutor" grade "$OUT/a05_histogram.json" --assignment ladder

echo "== the contention sweep: 2^27 samples, a share of them in bin 0, every step and CUB at each share"
run a05_histogram_sweep.txt "$lab" --samples 134217728 --hot-percent 0,10,25,50,75,90,100 --reps 10 --warmup 2 \
    --json "$OUT/a05_histogram_sweep.json" --csv "$OUT/a05_histogram_sweep.csv" --plot "$OUT/a05_histogram_sweep.svg"

echo "== the exercises: stubs (exit 1: nothing counted) and worked solutions, graded"
exercise_args=(--variant exercise_private --variant shared_private --variant exercise_vec --variant per_warp_vec)
run exercises_a05_histogram_stub.txt "$lab" "${exercise_args[@]}" --json "$OUT/exercises_a05_histogram_stub.json"
for a in exercise_private exercise_vec; do
  run exercises_a05_histogram_stub.txt "$BUILD/tutor" grade "$OUT/exercises_a05_histogram_stub.json" --assignment $a
done
if [ -n "$solution_lab" ]; then
  run exercises_a05_histogram_solution.txt "$solution_lab" "${exercise_args[@]}" \
      --json "$OUT/exercises_a05_histogram_solution.json"
  for a in exercise_private exercise_vec; do
    run exercises_a05_histogram_solution.txt "$BUILD/tutor" grade "$OUT/exercises_a05_histogram_solution.json" \
        --assignment $a
  done
else
  echo "  $SOLUTIONS/a05_histogram not built: the worked solutions are not run"
fi

echo "== compute-sanitizer: memcheck, racecheck, synccheck on every kernel at small sizes"
# 100,003 samples (and the verification sizes 1, 33, 1000; --skip-large-check leaves out 2^20+7), 8-bit x 256 bins; then fp32
# x 4,096 bins, where the per-warp copies no longer fit and per_warp falls back to one copy per block.
if have compute-sanitizer; then
  for tool in memcheck racecheck synccheck; do
    for args in "--samples 100003" "--samples 100003 --dtype f32 --bins 4096"; do
      # shellcheck disable=SC2086  # $args is a list of options
      run a05_histogram_sanitizer.txt compute-sanitizer --tool $tool "$lab" $args --reps 2 --warmup 1 --no-flush-l2 \
          --skip-large-check
    done
    if [ -n "$solution_lab" ]; then
      run a05_histogram_sanitizer.txt compute-sanitizer --tool $tool "$solution_lab" \
          --variant exercise_private --variant exercise_vec --samples 100003 --reps 2 --warmup 1 --no-flush-l2 --skip-large-check
    fi
  done
else
  skipped a05_histogram_sanitizer.txt compute-sanitizer
fi

records_end
