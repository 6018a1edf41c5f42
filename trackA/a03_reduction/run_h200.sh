#!/usr/bin/env bash
# A03 on an NVIDIA GPU (written for the H200 records in docs/results/H200/a03_reduction/): the
# ladder with CUB's sum in the same run (record .json, and the table as .txt), graded; the
# exercises (stubs, which fail by design, and worked solutions), graded; compute-sanitizer
# memcheck, racecheck and synccheck on every kernel at small sizes. It builds nothing; build
# first, from the repository root:
#
#   cmake --preset cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF
#   cmake --build build --target a03_reduction tutor
#   cmake --preset cuda -B build-solutions -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF \
#         -DTUTOR_EXERCISE_SOLUTIONS=ON
#   cmake --build build-solutions --target a03_reduction
#
# then, from the repository root:  OUT=docs/results/H200/a03_reduction trackA/a03_reduction/run_h200.sh
# OUT (default docs/results/H200/a03_reduction) and BUILD, SOLUTIONS (default build,
# build-solutions) are taken relative to the current folder, as given, so the records name files
# the way they were typed. Each text file starts with the command that made it and ends with its
# exit code. At the end every text file has the checkout's prefix, the build folders' resolved
# paths and the home folder stripped from what the tools printed. A tool that is not installed
# (compute-sanitizer) is skipped with a note. Under 90 seconds on an H200.
set -u -o pipefail

# shellcheck source=../../common/tools/run_records.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../common/tools/run_records.sh"
records_begin a03_reduction docs/results/H200/a03_reduction

echo "== the ladder and CUB at 2^28, verified at 1, 33, 2^20+7 and 2^28 (and integer-valued inputs exactly)"
run a03_reduction.txt "$lab" --json "$OUT/a03_reduction.json"
run a03_reduction_grade.txt "$BUILD/tutor" grade "$OUT/a03_reduction.json" --assignment ladder

echo "== the exercises: stubs (exit 1: nothing written) and worked solutions, graded"
exercise_args=(--variant exercise --variant exercise_two_pass --variant first_add --variant single_pass_deterministic)
run exercises_a03_reduction_stub.txt "$lab" "${exercise_args[@]}" --json "$OUT/exercises_a03_reduction_stub.json"
for a in exercise exercise_two_pass; do
  run exercises_a03_reduction_stub_grade.txt "$BUILD/tutor" grade "$OUT/exercises_a03_reduction_stub.json" --assignment $a
done
if [ -n "$solution_lab" ]; then
  run exercises_a03_reduction_solution.txt "$solution_lab" "${exercise_args[@]}" \
      --json "$OUT/exercises_a03_reduction_solution.json"
  for a in exercise exercise_two_pass; do
    run exercises_a03_reduction_solution_grade.txt "$BUILD/tutor" grade "$OUT/exercises_a03_reduction_solution.json" \
        --assignment $a
  done
else
  echo "  $SOLUTIONS/a03_reduction not built: the worked solutions are not run"
fi

echo "== compute-sanitizer: memcheck, racecheck, synccheck on every kernel (n = 100003; 1 and 33 verified too)"
small=(--n 100003 --skip-large-check --reps 2 --warmup 1)
if have compute-sanitizer; then
  for tool in memcheck racecheck synccheck; do
    run a03_reduction_sanitizer.txt compute-sanitizer --tool $tool "$lab" "${small[@]}"
    if [ -n "$solution_lab" ]; then
      run exercises_a03_reduction_sanitizer.txt compute-sanitizer --tool $tool "$solution_lab" \
          --variant exercise --variant exercise_two_pass "${small[@]}"
    fi
  done
else
  skipped a03_reduction_sanitizer.txt compute-sanitizer
fi

records_end
