#!/usr/bin/env bash
# A12 on an NVIDIA GPU (written for the H200 records in docs/results/H200/a12_rope_rmsnorm/): the
# ladder at Qwen3-8B's q/k shape (record .json, and the table with the bytes table as .txt),
# graded; the interleaved layout with partial rotary; the residual add + RMSNorm lab
# (a12_add_rmsnorm, Llama 3 8B's hidden size); the Triton kernel with torch eager and
# torch.compile in the same call; Nsight Compute's DRAM bytes read and written by each step's
# kernels (one timed launch each, selected by the step's NVTX range); the exercises (stubs, which
# fail by design, and worked solutions), graded; compute-sanitizer memcheck, racecheck and
# synccheck on every kernel at small sizes. It builds nothing; build first, from the repository root:
#
#   cmake --preset cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF
#   cmake --build build --target a12_rope_rmsnorm a12_add_rmsnorm tutor
#   cmake --preset cuda -B build-solutions -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF \
#         -DTUTOR_EXERCISE_SOLUTIONS=ON
#   cmake --build build-solutions --target a12_rope_rmsnorm
#
# then, from the repository root:  OUT=docs/results/H200/a12_rope_rmsnorm trackA/a12_rope_rmsnorm/run_h200.sh
# OUT (default docs/results/H200/a12_rope_rmsnorm) and BUILD, SOLUTIONS (default build,
# build-solutions) are taken relative to the current folder, as given, so the records name files
# the way they were typed. Each text file starts with the command that made it and ends with its
# exit code. At the end every text file has the checkout's prefix, the build folders' resolved
# paths and the home folder stripped from what the tools printed. A tool that is not installed
# (ncu, compute-sanitizer, torch and triton) is skipped with a note. Under 150 seconds on an H200.
set -u -o pipefail

# shellcheck source=../../common/tools/run_records.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../common/tools/run_records.sh"
records_begin a12_rope_rmsnorm docs/results/H200/a12_rope_rmsnorm

echo "== the ladder at 16384 tokens x (32 q + 8 k) heads x 128, verified on 10 odd shapes (tokens 1 to 4097, head_dim 7 to 128)"
run a12_rope_rmsnorm.txt "$lab" --json "$OUT/a12_rope_rmsnorm.json"
run a12_rope_rmsnorm_grade.txt "$BUILD/tutor" grade "$OUT/a12_rope_rmsnorm.json" --assignment ladder
echo "== interleaved pairs (GPT-J), rotary 64 of 128"
run a12_rope_rmsnorm_interleaved.txt "$lab" --layout interleaved --rotary-dim 64 --skip-large-check \
    --json "$OUT/a12_rope_rmsnorm_interleaved.json"

echo "== the residual add + RMSNorm of Llama-style blocks: two kernels and one, 16384 x 4096"
add_norm=$BUILD/a12_add_rmsnorm
run a12_add_rmsnorm.txt "$add_norm" --json "$OUT/a12_add_rmsnorm.json"

echo "== Triton, torch eager and torch.compile of the same math, in one call"
if python3 -c "import torch, triton" > /dev/null 2>&1; then
  run rope_rmsnorm_triton.txt python3 trackA/a12_rope_rmsnorm/triton/rope_rmsnorm.py \
      --json "$OUT/rope_rmsnorm_triton.json"
else
  skipped rope_rmsnorm_triton.txt "python3 with torch and triton"
fi

echo "== Nsight Compute: DRAM bytes read and written by each step's kernels (one timed launch each, by NVTX range)"
if have ncu; then
  ranges=()
  for step in unfused fused_table fused_compute fused_batched; do ranges+=(--nvtx-include "$step/"); done
  # five kernels: unfused launches two (RMSNorm, then RoPE), each fused step one
  run a12_rope_rmsnorm_ncu.txt ncu --clock-control none --nvtx "${ranges[@]}" -k regex:token_heads -c 5 \
      --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
      "$lab" --skip-large-check --reps 1 --warmup 0
  run a12_rope_rmsnorm_ncu.txt ncu --clock-control none --nvtx --nvtx-include "add_then_norm/" \
      --nvtx-include "add_norm_fused/" -k regex:"residual_add|rmsnorm_rows|add_rmsnorm_fused" -c 3 \
      --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
      "$add_norm" --skip-large-check --reps 1 --warmup 0
else
  skipped a12_rope_rmsnorm_ncu.txt ncu
fi

echo "== the exercises: stubs (exit 1: nothing written / NaN cos and sin) and worked solutions, graded"
exercise_args=(--variant exercise --variant exercise_compute --variant fused_table --variant fused_compute)
run exercises_a12_rope_rmsnorm_stub.txt "$lab" "${exercise_args[@]}" --json "$OUT/exercises_a12_rope_rmsnorm_stub.json"
for a in exercise exercise_compute; do
  run exercises_a12_rope_rmsnorm_stub_grade.txt "$BUILD/tutor" grade "$OUT/exercises_a12_rope_rmsnorm_stub.json" \
      --assignment $a
done
if [ -n "$solution_lab" ]; then
  run exercises_a12_rope_rmsnorm_solution.txt "$solution_lab" "${exercise_args[@]}" \
      --json "$OUT/exercises_a12_rope_rmsnorm_solution.json"
  for a in exercise exercise_compute; do
    run exercises_a12_rope_rmsnorm_solution_grade.txt "$BUILD/tutor" grade \
        "$OUT/exercises_a12_rope_rmsnorm_solution.json" --assignment $a
  done
else
  echo "  $SOLUTIONS/a12_rope_rmsnorm not built: the worked solutions are not run"
fi

echo "== compute-sanitizer: memcheck, racecheck, synccheck on every kernel (200 tokens; the small shapes verified too)"
small=(--tokens 200 --skip-large-check --reps 1 --warmup 0)
if have compute-sanitizer; then
  for tool in memcheck racecheck synccheck; do
    run a12_rope_rmsnorm_sanitizer.txt compute-sanitizer --tool $tool "$lab" "${small[@]}"
    run a12_rope_rmsnorm_sanitizer.txt compute-sanitizer --tool $tool "$add_norm" "${small[@]}"
    if [ -n "$solution_lab" ]; then
      run exercises_a12_rope_rmsnorm_sanitizer.txt compute-sanitizer --tool $tool "$solution_lab" \
          --variant exercise --variant exercise_compute "${small[@]}"
    fi
  done
else
  skipped a12_rope_rmsnorm_sanitizer.txt compute-sanitizer
fi

records_end
