#!/usr/bin/env bash
# B05 profile on an H200 (or any NVIDIA GPU): the records, the PyTorch comparison, the sanitizer
# runs and the Nsight Compute counters of the GEMMs the roofline mispredicts. It builds nothing;
# build first, from the repository root:
#
#   cmake --preset cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DTUTOR_BUILD_TESTS=OFF
#   cmake --build build --target b05_transformer
#
# then, from the repository root (each stage also runs alone):
#
#   OUT=docs/results/H200/b05_transformer bash trackB/b05_transformer/run_h200.sh all
#   ... run_h200.sh records    # Llama-3.1-8B: prefill 1x2048, decode 1/32/256 @ 2048, twice; --model-gpu h200
#   ... run_h200.sh torch      # the same layer in PyTorch (torch.profiler)
#   ... run_h200.sh sanitizer  # memcheck, racecheck, initcheck, synccheck: one run each, a tiny layer
#   ... run_h200.sh ncu        # counters of the decode GEMMs the roofline misses, and one it hits
#
# Every file lands in $OUT under the name docs/results/H200/b05_transformer/ keeps (default OUT:
# b05_profile_out). Give OUT relative to the repository root, so the commands the records keep
# are relative; the checkout's own path is stripped from every tool's output. Each text file
# starts with the command that made it and ends with its exit code. BUILD (default build) is the
# build folder. About five minutes on an H200: records 2, torch 1, sanitizer < 1, ncu < 2.
set -u -o pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
# shellcheck source=../../common/tools/run_records.sh
source common/tools/run_records.sh
records_begin b05_transformer b05_profile_out

records() {
  echo "== records: the default set (prefill 1x2048; decode 1, 32, 256 @ 2048), twice"
  # Twice: compute-bound rates vary from run to run on a shared machine (docs/METHODOLOGY.md).
  rm -f "$OUT"/b05_profile.txt "$OUT"/b05_profile_run2.txt "$OUT"/b05_profile_model_h200.txt
  run b05_profile.txt "$lab" profile --model llama-3.1-8b --json "$OUT/b05_profile.json" \
    --csv "$OUT/b05_profile.csv" --plot "$OUT/b05_profile.svg"
  run b05_profile_run2.txt "$lab" profile --model llama-3.1-8b --json "$OUT/b05_profile_run2.json" \
    --csv "$OUT/b05_profile_run2.csv"
  # The prediction alone, from the datasheet (kind: model): what a learner without a GPU sees.
  run b05_profile_model_h200.txt "$lab" profile --model llama-3.1-8b --model-gpu h200
  grep -A2 "^GEMMs above" "$OUT/b05_profile.txt"
}

torch_path() {
  echo "== torch: the same layer in PyTorch, torch.profiler per sub-op"
  rm -f "$OUT/b05_profile_torch.txt"
  run_optional b05_profile_torch.txt python3 trackB/b05_transformer/python/profile_layer.py --model llama-3.1-8b \
    --json "$OUT/b05_profile_torch.json"
  tail -15 "$OUT/b05_profile_torch.txt"
}

sanitizer() {
  echo "== compute-sanitizer: one run per tool of a tiny Llama-style layer, all four phases"
  have compute-sanitizer || { echo "  compute-sanitizer is not installed here: skipped"; return 0; }
  # The tiny layer (h 228, 6/2 heads x 38, MLP 612: no width a multiple of 8) runs every kernel,
  # both of their paths (16-byte and single-element; the reduced layers of every run add aligned
  # widths) and the cuBLAS calls, in the default phases (prefill 1x2048, decode 1/32/256 @ 2048).
  # No --leak-check: the cuBLAS handle lives as long as the process (common's cublas_handle) and
  # its workspace would be reported as leaked.
  local tool
  for tool in memcheck racecheck initcheck synccheck; do
    rm -f "$OUT/b05_profile_sanitizer_$tool.txt"
    run "b05_profile_sanitizer_$tool.txt" compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$lab" profile --config trackB/b05_transformer/tests/fixtures/profile_tiny_llama.json --reps 1 --warmup 0 \
      --ceiling-gemm 256
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY|INITCHECK SUMMARY|LEAK SUMMARY|FAILED" \
      "$OUT/b05_profile_sanitizer_$tool.txt" | sed 's/^/    /'
  done
}

# The metrics this ncu knows, of the ones section 5 of the README argues from: time, DRAM bytes
# and throughput, L2 hits, SM throughput, achieved occupancy, tensor pipes (Hopper's wgmma pipe
# is gmma, mma.sync's hmma: both asked for, the one this ncu lacks dropped), the launch shape.
ncu_metrics() {
  local known wanted=(
    gpu__time_duration.sum
    dram__throughput.avg.pct_of_peak_sustained_elapsed dram__bytes_read.sum dram__bytes_write.sum
    lts__t_sector_hit_rate.pct
    sm__throughput.avg.pct_of_peak_sustained_elapsed
    sm__warps_active.avg.pct_of_peak_sustained_active sm__maximum_warps_per_active_cycle_pct
    sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
    sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
    launch__grid_size launch__block_size launch__registers_per_thread launch__waves_per_multiprocessor
    launch__occupancy_limit_registers launch__occupancy_limit_shared_mem launch__sm_count)
  known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
  local m list=()
  for m in "${wanted[@]}"; do grep -qx "${m%%.*}" <<< "$known" && list+=("$m"); done
  (IFS=,; echo "${list[*]}")
}

# The GEMMs above 1 GFLOP that missed the roofline by more than 25% in the first H200 run
# (decode 32 and 256 @ 2048: qkv_proj, o_proj, down_proj) and, for contrast, one that hit with the
# same 32 tokens (decode 32 gate_up_proj): same M, four to five times the weight bytes.
ncu_targets=(
  "decode_b32_c2048 qkv_proj" "decode_b32_c2048 o_proj" "decode_b32_c2048 down_proj"
  "decode_b256_c2048 qkv_proj" "decode_b256_c2048 o_proj" "decode_b256_c2048 down_proj"
  "decode_b32_c2048 gate_up_proj")
# NCU_TARGETS="phase op;phase op" profiles others instead, into NCU_NAME.txt and NCU_NAME_summary.txt
# (default b05_profile_ncu): a GEMM that misses in a later run gets its counters without replacing
# the files the README already quotes.
if [ -n "${NCU_TARGETS:-}" ]; then IFS=';' read -r -a ncu_targets <<< "$NCU_TARGETS"; fi
ncu_name=${NCU_NAME:-b05_profile_ncu}

ncu_misses() {
  echo "== ncu: the decode GEMMs the roofline misses, one it hits"
  have ncu || { echo "  ncu is not installed here: skipped"; return 0; }
  local metrics tmp phase op batch context
  metrics=$(ncu_metrics)
  tmp=$OUT/ncu_reports  # relative, so the commands written down name no machine's path; removed at the end
  rm -rf "$tmp" && mkdir -p "$tmp"
  rm -f "$OUT/${ncu_name}.txt" "$OUT/${ncu_name}_summary.txt"
  fresh "${ncu_name}.txt"
  ncu --version | tail -1 | sed 's/^/# /' >> "$OUT/${ncu_name}.txt"
  for t in "${ncu_targets[@]}"; do
    read -r phase op <<< "$t"
    batch=${phase#decode_b}; batch=${batch%%_*}; context=${phase##*_c}
    # One launch of the sub-op inside its NVTX range (--reps 1 --warmup 0); ncu flushes the caches
    # before the kernel itself (--cache-control all, its default), so it starts cold like the
    # timed launches; only the reduced layers are checked, so the run is short.
    run "${ncu_name}.txt" ncu --clock-control none --nvtx --nvtx-include "$op/" -c 4 --metrics "$metrics" \
      --export "$tmp/${phase}_$op" "$lab" profile --model llama-3.1-8b --batch "$batch" --context "$context" \
      --reps 1 --warmup 0 --no-flush-l2 --skip-large-check --ceiling-gemm 2048
    ncu --import "$tmp/${phase}_$op.ncu-rep" --csv --page raw --print-units base 2>/dev/null \
      > "$tmp/${phase}_$op.csv"
  done
  # One table: each profiled kernel's counters beside the record's event time of its sub-op.
  python3 - "$tmp" "$OUT/b05_profile.json" "${ncu_targets[@]}" <<'PY' > "$OUT/${ncu_name}_summary.txt"
import csv, json, os, sys
tmp, record_path, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
rows, times = {}, {}
if os.path.exists(record_path):
    record = json.load(open(record_path))
    for r in record["predictions"]["rows"]:
        rows[(r["phase"], r["name"])] = r
    for v in record["variants"]:
        if v.get("timed") and "phase" in v:
            times[(v["phase"], v["name"])] = v["time_ms"]["median"]
print("B05 profile, Nsight Compute: one launch of each GEMM (L2 flushed by ncu), counters beside the record's")
print("event time (median of the timed launches in b05_profile.json) and its minimum bytes (weights + activations).")
print("waves = launch__waves_per_multiprocessor; occ = achieved occupancy (sm__warps_active); tensor = tensor pipe "
      "cycles active (gmma where this ncu has it, else hmma); x roof and event us: the sub-op, all its kernels")
print(f"{'phase':<18} {'sub-op':<13} {'x roof':>6} {'kernel':<44} {'grid':>6} {'waves':>6} {'ncu us':>7} "
      f"{'event us':>8} {'DRAM MB':>8} {'min MB':>7} {'DRAM %':>6} {'SM %':>5} {'tensor%':>7} {'occ %':>5} {'L2 hit':>6}")
def num(row, name, scale=1.0):
    try:
        return float(row[name].replace(",", "")) * scale
    except (KeyError, AttributeError, ValueError):
        return None
for t in targets:
    phase, op = t.split()
    path = os.path.join(tmp, f"{phase}_{op}.csv")
    lines = [l for l in open(path) if l.startswith('"')] if os.path.exists(path) else []
    data = list(csv.DictReader(lines))[1:]  # the first row after the header holds the units
    rec = rows.get((phase, op), {})
    ratio = rec.get("measured_over_roofline")
    event_us = times[(phase, op)] * 1e3 if (phase, op) in times else None
    min_mb = rec.get("bytes", 0) / 1e6 if rec.get("bytes") else None
    if not data:
        print(f"{phase:<18} {op:<13} no kernel profiled (see b05_profile_ncu.txt)")
    for d in data:
        tensor = num(d, "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active")
        if tensor is None:
            tensor = num(d, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active")
        rd, wr = num(d, "dram__bytes_read.sum"), num(d, "dram__bytes_write.sum")
        vals = {"grid": num(d, "launch__grid_size"), "waves": num(d, "launch__waves_per_multiprocessor"),
                "ncu": num(d, "gpu__time_duration.sum", 1e-3), "dram": (rd or 0) / 1e6 + (wr or 0) / 1e6,
                "dpct": num(d, "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
                "sm": num(d, "sm__throughput.avg.pct_of_peak_sustained_elapsed"), "tensor": tensor,
                "occ": num(d, "sm__warps_active.avg.pct_of_peak_sustained_active"),
                "l2": num(d, "lts__t_sector_hit_rate.pct")}
        f = lambda v, fmt: format(v, fmt) if v is not None else "-"
        name = d.get("Kernel Name", "?")
        name = name if len(name) <= 44 else name[:41] + "..."
        print(f"{phase:<18} {op:<13} {f(ratio, '6.2f')} {name:<44} {f(vals['grid'], '6.0f')} {f(vals['waves'], '6.2f')} "
              f"{f(vals['ncu'], '7.1f')} {f(event_us, '8.1f')} {f(vals['dram'], '8.1f')} {f(min_mb, '7.1f')} "
              f"{f(vals['dpct'], '6.1f')} {f(vals['sm'], '5.1f')} {f(vals['tensor'], '7.1f')} {f(vals['occ'], '5.1f')} "
              f"{f(vals['l2'], '6.1f')}")
PY
  # The human-readable counters of every kernel, after the commands and exit codes.
  for t in "${ncu_targets[@]}"; do
    read -r phase op <<< "$t"
    { echo; echo "# $phase $op: ncu --import (the report of the run above)"; } >> "$OUT/${ncu_name}.txt"
    ncu --import "$tmp/${phase}_$op.ncu-rep" --print-units base >> "$OUT/${ncu_name}.txt" 2>&1
  done
  rm -rf "$tmp"
  cat "$OUT/${ncu_name}_summary.txt"
}

case "${1:-all}" in
  records) records ;;
  torch) torch_path ;;
  sanitizer) sanitizer ;;
  ncu) ncu_misses ;;
  all) records; torch_path; sanitizer; ncu_misses ;;
  *) echo "run_h200.sh: unknown stage '$1'; allowed: records, torch, sanitizer, ncu, all" >&2; exit 2 ;;
esac
records_end
