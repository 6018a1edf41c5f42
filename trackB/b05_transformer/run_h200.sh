#!/usr/bin/env bash
# B05 profile on an H200 (or any NVIDIA GPU): the records, the PyTorch comparison, the sanitizer
# runs and the Nsight Compute counters of the sub-ops the roofline mispredicts. Run from the
# repository root after building the cuda preset (./build/b05_transformer); everything is written
# under $OUT (default ./b05_profile_out). Each stage fits in a few minutes, so they can be run one
# at a time:
#
#   bash trackB/b05_transformer/run_h200.sh records    # Llama-3.1-8B: prefill 1x2048, decode 1/32/256 @ 2048, twice
#   bash trackB/b05_transformer/run_h200.sh torch      # the same layer in PyTorch (torch.profiler)
#   bash trackB/b05_transformer/run_h200.sh sanitizer  # memcheck, racecheck, initcheck, synccheck on small steps
#   bash trackB/b05_transformer/run_h200.sh ncu        # counters of every sub-op more than 25% off its roofline
#   bash trackB/b05_transformer/run_h200.sh all
set -uo pipefail
exe=./build/b05_transformer
out=${OUT:-b05_profile_out}
mkdir -p "$out"
[ -x "$exe" ] || { echo "run_h200.sh: $exe not found: build the cuda preset first" >&2; exit 3; }

records() {
  # The default set (prefill 1x2048; decode 1, 32, 256 @ 2048), twice: compute-bound rates vary
  # from run to run on a shared machine (docs/METHODOLOGY.md), and the README quotes both.
  "$exe" profile --model llama-3.1-8b --json "$out/b05_profile.json" --csv "$out/b05_profile.csv" \
    --plot "$out/b05_profile.svg" > "$out/b05_profile.txt" 2>&1
  echo "records: run 1 exit $?"
  "$exe" profile --model llama-3.1-8b --json "$out/b05_profile_run2.json" --csv "$out/b05_profile_run2.csv" \
    > "$out/b05_profile_run2.txt" 2>&1
  echo "records: run 2 exit $?"
  # The prediction alone, from the datasheet (kind: model): what a learner without a GPU sees.
  "$exe" profile --model llama-3.1-8b --model-gpu h200 > "$out/b05_profile_model_h200.txt" 2>&1
  echo "records: --model-gpu exit $?"
  tail -3 "$out/b05_profile.txt"
}

torch_path() {
  python3 trackB/b05_transformer/python/profile_layer.py --model llama-3.1-8b --json "$out/b05_profile_torch.json" \
    > "$out/b05_profile_torch.txt" 2>&1
  echo "torch: exit $?"
  tail -15 "$out/b05_profile_torch.txt"
}

sanitizer() {
  # Small steps whose widths are no multiple of any tile are in every run (the reduced layers);
  # these timed sizes are small too, so the whole run stays short under the tools. Each run's full
  # output is kept; b05_profile_sanitizer.txt collects the commands, summaries and exit codes.
  local steps=("--batch 2 --seq 37" "--batch 3 --context 53") tool step log
  mkdir -p "$out/sanitizer"
  : > "$out/b05_profile_sanitizer.txt"
  for tool in memcheck racecheck initcheck synccheck; do
    for step in "${steps[@]}"; do
      log="$out/sanitizer/${tool}_${step// /_}.txt"
      # shellcheck disable=SC2086  # $step is several options
      compute-sanitizer --tool "$tool" --error-exitcode 9 "$exe" profile $step --reps 1 --warmup 0 --ceiling-gemm 256 \
        > "$log" 2>&1
      local rc=$?
      { echo "== compute-sanitizer --tool $tool ./build/b05_transformer profile $step --reps 1 --warmup 0 --ceiling-gemm 256"
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY|INITCHECK SUMMARY|FAILED" "$log"
        echo "exit $rc"; } >> "$out/b05_profile_sanitizer.txt"
    done
  done
  cat "$out/b05_profile_sanitizer.txt"
}

# The metrics ncu knows on this GPU out of the ones the README argues from (Hopper names its
# wgmma pipe gmma, mma.sync's hmma; both are asked for and the one this ncu lacks is dropped).
ncu_metrics() {
  local known wanted=(
    gpu__time_duration.sum
    dram__throughput.avg.pct_of_peak_sustained_elapsed dram__bytes_read.sum dram__bytes_write.sum
    lts__t_sector_hit_rate.pct
    sm__throughput.avg.pct_of_peak_sustained_elapsed sm__warps_active.avg.pct_of_peak_sustained_active
    sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
    sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
    sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
    launch__grid_size launch__block_size launch__registers_per_thread launch__waves_per_multiprocessor)
  known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
  local m list=()
  for m in "${wanted[@]}"; do grep -qx "${m%%.*}" <<< "$known" && list+=("$m"); done
  (IFS=,; echo "${list[*]}")
}

ncu_misses() {
  [ -f "$out/b05_profile.json" ] || { echo "ncu: run the records stage first ($out/b05_profile.json)" >&2; return 1; }
  local metrics
  metrics=$(ncu_metrics)
  echo "ncu metrics: $metrics"
  mkdir -p "$out/ncu"
  # Every (phase, sub-op) whose median is more than 25% off its roofline time, with the options
  # that run that phase alone.
  python3 - "$out/b05_profile.json" <<'PY' > "$out/ncu/misses.txt"
import json, sys
rec = json.load(open(sys.argv[1]))
for row in rec["predictions"]["rows"]:
    ratio = row.get("measured_over_roofline")
    if ratio is None or abs(ratio - 1) <= 0.25:
        continue
    kind, b, n = row["phase"].split("_")
    opts = f"--batch {b[1:]} --seq {n[1:]}" if kind == "prefill" else f"--batch {b[1:]} --context {n[1:]}"
    print(row["phase"], row["name"], f"{ratio:.2f}", opts)
PY
  cat "$out/ncu/misses.txt"
  while read -r phase op ratio opts; do
    # One launch of the sub-op inside its NVTX range: --reps 1 --warmup 0, no flush kernel in the
    # range (ncu flushes the caches itself before each profiled kernel), only the reduced layers
    # checked, so the run is short; ncu replays each kernel once per pass.
    # shellcheck disable=SC2086
    ncu --clock-control none --nvtx --nvtx-include "$op/" -c 8 --metrics "$metrics" \
      "$exe" profile $opts --reps 1 --warmup 0 --no-flush-l2 --skip-large-check --ceiling-gemm 2048 \
      > "$out/ncu/${phase}_${op}.txt" 2>&1
    echo "ncu: $phase $op (x $ratio): exit $?"
  done < "$out/ncu/misses.txt"
}

case "${1:-all}" in
  records) records ;;
  torch) torch_path ;;
  sanitizer) sanitizer ;;
  ncu) ncu_misses ;;
  all) records; torch_path; sanitizer; ncu_misses ;;
  *) echo "run_h200.sh: unknown stage '$1'; allowed: records, torch, sanitizer, ncu, all" >&2; exit 2 ;;
esac
