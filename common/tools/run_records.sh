# shellcheck shell=bash
# Shared by every module's run_h200.sh (sourced, not run): the one way a script that writes
# records starts, logs a command into a text record, and keeps the measuring machine's folders
# out of what it wrote.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/../../common/tools/run_records.sh"
#   records_begin a03_reduction docs/results/H200/a03_reduction   # sets root OUT BUILD SOLUTIONS lab
#   run a03_reduction.txt "$lab" --json "$OUT/a03_reduction.json"
#   records_end                                                   # strips paths, prints a summary
#
# OUT (default: the folder given), BUILD (default build) and SOLUTIONS (default build-solutions)
# are taken relative to the current folder, as given, so the records name files the way they
# were typed. Each text file starts with the command that made it and ends with its exit code.

# The repository root, from this file's place in it (common/tools/), as the shell was told it.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# records_begin LAB DEFAULT_OUT: the output and build folders, the lab's path ($lab), its
# worked-solution twin ($solution_lab, empty when that build is missing), and TUTOR_VERSION (the
# build's, for Python records). Exits 2 with one line when the lab is not built.
records_begin() {
  OUT=${OUT:-$2}
  BUILD=${BUILD:-build}
  SOLUTIONS=${SOLUTIONS:-build-solutions}
  PATH=$PATH:/usr/local/cuda/bin
  lab=$BUILD/$1
  if [ ! -x "$lab" ]; then
    echo "run_h200.sh: $lab is not built; see the commands at the top of this script" >&2
    exit 2
  fi
  solution_lab=
  # shellcheck disable=SC2034  # read by the script that sources this one
  [ -x "$SOLUTIONS/$1" ] && solution_lab=$SOLUTIONS/$1
  # The build's version for the Python labs' records (common/python/tutor_record.py reads it).
  if [ -z "${TUTOR_VERSION:-}" ] && [ -f "$BUILD/tutor_version.txt" ]; then
    TUTOR_VERSION=$(cat "$BUILD/tutor_version.txt")
    export TUTOR_VERSION
  fi
  mkdir -p "$OUT"
  records_extra_prefixes=()
}

# fresh FILE: empties $OUT/FILE the first time this run writes to it, so a record never keeps
# an earlier run's lines; later writes in the same run append.
declare -A records_written=()
fresh() {
  if [ -z "${records_written[$1]:-}" ]; then
    : > "$OUT/$1"
    records_written[$1]=1
  fi
}

# run FILE COMMAND...: appends "$ COMMAND", its output (stdout and stderr) and "# exit code: N"
# to $OUT/FILE; a command that hangs is stopped after RECORDS_TIMEOUT seconds (default 300).
# Exit code 3 is the labs' "no usable GPU" (a host-only build, or no GPU here): the script stops
# there, exit 3, before that command's file is touched, so no record is replaced by a refusal.
# run_optional is run for a command that may lack its stack (a Python script without torch
# exits 3): its exit 3 is written down like any other code.
run_optional() { records_optional=1 run "$@"; }
run() {
  local file=$1
  shift
  local part="$OUT/.$file.part"
  timeout "${RECORDS_TIMEOUT:-300}" "$@" > "$part" 2>&1
  local rc=$?
  if [ $rc -eq 3 ] && [ -z "${records_optional:-}" ]; then
    echo "run_h200.sh: $1 exited 3 (no usable GPU: $(head -c 200 "$part" | tr '\n' ' ')); stopped, $OUT/$file left as it was" >&2
    rm -f "$part"
    exit 3
  fi
  fresh "$file"
  { echo "\$ $*"; cat "$part"; echo "# exit code: $rc"; } >> "$OUT/$file"
  rm -f "$part"
  echo "  $file: exit $rc"
  return $rc
}

have() { command -v "$1" > /dev/null 2>&1; }

# skipped FILE TOOL: notes in $OUT/FILE that TOOL is not installed here.
skipped() {
  fresh "$1"
  echo "# $2 is not installed here: skipped" >> "$OUT/$1"
  echo "  $1: $2 not installed, skipped"
}

# records_sed_script: fills the array path_sed with sed expressions that turn the measuring
# machine's folders into what was typed: the build folders' resolved paths into their names, the
# checkout (as typed and resolved) into nothing, the home folder into "~", any folder named in
# records_extra_prefixes (a scratch folder) into nothing, the machine's name (Nsight Compute
# prints it beside the process) into "host", and an installed Python package's folder into
# "<site-packages>". Longest prefixes first.
records_sed_script() {
  local pairs=() dir pair from to
  for dir in "$BUILD" "$SOLUTIONS"; do
    [ -d "$dir" ] && pairs+=("$(cd "$dir" && pwd -P)/=$dir/")
  done
  pairs+=("$(pwd -P)/=" "$PWD/=" "$root/=" "$(cd "$root" && pwd -P)/=")
  for dir in "${records_extra_prefixes[@]}"; do pairs+=("$dir/="); done
  [ -n "${HOME:-}" ] && pairs+=("$HOME/=~/")
  local host
  host=$(hostname 2>/dev/null || true)
  [ "${#host}" -ge 4 ] && pairs+=("$host=host")
  path_sed=()
  # Python's warnings name the file they come from: an installed package's folder on this machine.
  path_sed+=(-e 's|/[^ "]*/site-packages/|<site-packages>/|g')
  for pair in "${pairs[@]}"; do
    from=${pair%%=*} to=${pair#*=}
    [ "${#from}" -gt 2 ] || continue  # never "/" alone
    path_sed+=(-e "s|$(printf '%s' "$from" | sed 's/[][\.|*^$]/\\&/g')|$(printf '%s' "$to" | sed 's/[\&|]/\\&/g')|g")
  done
}

# records_end: strips the machine's folders from every text record and plot in $OUT (the JSON
# records name only what was typed) and says how many files are there.
records_end() {
  records_sed_script
  local f
  for f in "$OUT"/*.txt "$OUT"/*.svg; do
    [ -f "$f" ] && sed -i "${path_sed[@]}" "$f"
  done
  echo "== done: $OUT ($(find "$OUT" -maxdepth 1 -type f | wc -l) files)"
}
