#!/usr/bin/env bash
# common/tools/run_records.sh without a GPU: a fake checkout whose "lab" prints the folders a
# real tool would (the checkout, a build folder reached through a symbolic link, the home folder,
# a scratch folder, the machine's name), run through a module-like script; the text records must name none of them,
# keep the command and exit code, start afresh on a second run, and a missing lab must exit 2 with one line (in the fake and in
# every module script given after the helper).
set -u -o pipefail
lib=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$work/real/checkout/trackZ/z01_fake" "$work/real/builds/b1" "$work/home"
ln -s "$work/real/checkout" "$work/link"
ln -s "$work/real/builds/b1" "$work/real/checkout/build"
mkdir -p "$work/real/checkout/common/tools"
cp "$lib" "$work/real/checkout/common/tools/run_records.sh"
cat > "$work/real/builds/b1/z01_fake" <<'LAB'
#!/usr/bin/env bash
echo "exe $(readlink -f "$0") cwd $PWD/in.bin home $HOME/.cache scratch $SCRATCH/t.rep on $(hostname) /opt/x/.venv/lib/python3.12/site-packages/torch/a.py"
exit 4
LAB
chmod +x "$work/real/builds/b1/z01_fake"
echo "abc1234" > "$work/real/builds/b1/tutor_version.txt"
cat > "$work/real/checkout/trackZ/z01_fake/run_h200.sh" <<'SCRIPT'
#!/usr/bin/env bash
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../common/tools/run_records.sh"
records_begin z01_fake out/z01
records_extra_prefixes+=("$SCRATCH")
run z01.txt "$lab" --json "$OUT/z01.json"
[ -z "$solution_lab" ] || echo "solution_lab should be empty"
echo "version=$TUTOR_VERSION"
have definitely-not-a-tool-zz || skipped z01_sanitizer.txt definitely-not-a-tool-zz
records_end
SCRIPT

mkdir -p "$work/scratch"
log=$(cd "$work/link" && HOME=$work/home SCRATCH=$work/scratch bash trackZ/z01_fake/run_h200.sh 2>&1) \
  || fail "script exit $?: $log"
rec=$work/real/checkout/out/z01/z01.txt
[ -f "$rec" ] || fail "no record: $log"
grep -q "^\$ build/z01_fake --json out/z01/z01.json$" "$rec" || fail "command line: $(cat "$rec")"
host=$(hostname); [ ${#host} -ge 4 ] && host=host
grep -q "^exe build/z01_fake cwd in.bin home ~/.cache scratch t.rep on $host <site-packages>/torch/a.py$" "$rec" || fail "paths not stripped: $(cat "$rec")"
grep -q "^# exit code: 4$" "$rec" || fail "exit code: $(cat "$rec")"
grep -q "$work" "$rec" && fail "a folder of the machine is left: $(cat "$rec")"
grep -q "definitely-not-a-tool-zz is not installed here: skipped" "$work/real/checkout/out/z01/z01_sanitizer.txt" \
  || fail "skipped note"
grep -q "solution_lab should be empty" <<< "$log" && fail "solution_lab set without a solutions build"
grep -q "== done: out/z01 (2 files)" <<< "$log" || fail "summary: $log"
grep -q "^version=abc1234$" <<< "$log" || fail "TUTOR_VERSION not taken from the build: $log"

# A second run starts each record afresh: no line of the first run is kept.
(cd "$work/link" && HOME=$work/home SCRATCH=$work/scratch bash trackZ/z01_fake/run_h200.sh > /dev/null 2>&1)
[ "$(grep -c "^# exit code" "$rec")" -eq 1 ] || fail "a second run appended to the first: $(cat "$rec")"

# A lab that exits 3 (no usable GPU: a host-only build) stops the script, exit 3, and the record
# it would have replaced is left as it was.
before=$(cat "$rec")
sed -i 's/^exit 4$/exit 3/' "$work/real/builds/b1/z01_fake"
err=$(cd "$work/link" && SCRATCH=$work/scratch bash trackZ/z01_fake/run_h200.sh 2>&1 >/dev/null)
rc=$?
[ $rc -eq 3 ] || fail "a lab exiting 3: script exit $rc, want 3: $err"
[ "$(cat "$rec")" = "$before" ] || fail "a lab exiting 3 changed the record: $(cat "$rec")"
grep -q "exited 3" <<< "$err" || fail "a lab exiting 3: message: $err"
ls -A "$work/real/checkout/out/z01" | grep -q part && fail "a .part file was left"

rm "$work/real/checkout/build"
err=$(cd "$work/link" && SCRATCH=$work/scratch bash trackZ/z01_fake/run_h200.sh 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] || fail "missing lab: exit $rc, want 2"
[ "$(wc -l <<< "$err")" -eq 1 ] || fail "missing lab: more than one line: $err"
grep -q "build/z01_fake is not built" <<< "$err" || fail "missing lab message: $err"
# Every module script that sources the helper refuses a missing build the same way.
shift
for script in "$@"; do
  err=$(BUILD=$work/no_build OUT=$work/no_out bash "$script" 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] || fail "$script without a build: exit $rc, want 2"
  [ "$(wc -l <<< "$err")" -eq 1 ] || fail "$script without a build: more than one line: $err"
done
echo "run_records.sh: paths stripped, exit codes kept, missing lab refused"
