#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/) with clang, ASan and UBSan, and runs each for a
# bounded time, its corpus seeded from data/models/ (configs), B06's fixtures (GPU files,
# traces) and a few hand-written seeds. A crash, a sanitizer report or a harness check that
# fails stops that fuzzer with its reproducer under <build>/fuzz-artifacts/.
#
#   tests/fuzz/run.sh [SECONDS per fuzzer, default 600] [fuzzer names...]
#   TUTOR_FUZZ_BUILD=build-fuzz tests/fuzz/run.sh 60 fuzz_trace
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${1:-600}"
shift || true
fuzzers=("$@")
[ ${#fuzzers[@]} -eq 0 ] && fuzzers=(fuzz_json_input fuzz_config fuzz_gpu_file fuzz_trace)
build="${TUTOR_FUZZ_BUILD:-$root/build-fuzz}"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g -O1"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="$flags" -DTUTOR_FUZZ=ON -DTUTOR_GPU=none >/dev/null
cmake --build "$build" --target "${fuzzers[@]}" -j2

corpus_seed() {  # <fuzzer> <folder>: the seeds of one fuzzer
  local out="$2"
  mkdir -p "$out"
  case "$1" in
    fuzz_json_input|fuzz_config) cp "$root"/data/models/*.json "$out"/ ;;
    fuzz_gpu_file)
      cp "$root"/trackB/b06_serving/tests/fixtures/cli_gpu_*.json "$out"/
      printf '{"name": "X", "memory_GB": 80, "hbm_bandwidth_GBps": 3350, "bf16_TFLOPs": 989.5}' >"$out/plain.json" ;;
    fuzz_trace)
      cp "$root"/trackB/b06_serving/tests/fixtures/*.csv "$out"/
      printf '\xef\xbb\xbftimestamp_s, prompt_tokens ,output_tokens\r\n0,1,1\r\n\r\n1.5e2,2147483647,3\n' >"$out/bom_crlf.csv" ;;
  esac
}

mkdir -p "$build/fuzz-artifacts"
status=0
for f in "${fuzzers[@]}"; do
  corpus="$build/fuzz-corpus/$f"
  corpus_seed "$f" "$corpus"
  echo "== $f: $seconds s"
  # -max_len 65536: past the seeds' size, long enough for lists, nesting and long lines;
  # -rss_limit_mb: a reader that buffers without bound fails here. One process per fuzzer
  # (no -jobs): the machine's cores are shared.
  rc=0
  "$build/tests/fuzz/$f" "$corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$f-" >"$build/fuzz-artifacts/$f.log" 2>&1 || rc=$?
  grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|SUMMARY)|ERROR" "$build/fuzz-artifacts/$f.log" || true
  echo "== $f: exit $rc"
  status=$((status | rc))
done
exit $status
