#!/usr/bin/env bash
# Prints the reference sheets to PDF with headless Chromium, on A4 and on Letter, checks that
# each PDF has exactly one page, and renders that page to PNG for a person to look at.
#
#   print_sheets.sh SHEETS_DIR OUT_DIR [ID...]
#
# SHEETS_DIR holds the generated <id>.html (docs/cheatsheets); OUT_DIR receives
# <id>-a4.pdf, <id>-letter.pdf and their page as <id>-a4.png, <id>-letter.png, rendered at
# 110 dpi (pdftoppm -r 110: 7 pt type is legible, so the numbers can be proofread). Chromium's
# own messages (dbus warnings and the like, harmless) go to OUT_DIR/logs/<id>-<paper>.chromium.log.
# Without IDs every <id>.html is printed. Exit 0 when every PDF has one page; 1 when one does
# not (each named); 2 on bad arguments; 77 (a skipped test for ctest) when chromium, pdfinfo or
# pdftoppm is not installed (Debian: chromium, poppler-utils).
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: print_sheets.sh SHEETS_DIR OUT_DIR [ID...]" >&2
  exit 2
fi
sheets=$1
out=$2
shift 2

chrome=""
for c in chromium chromium-browser google-chrome; do
  if command -v "$c" >/dev/null 2>&1; then chrome=$c; break; fi
done
if [ -z "$chrome" ] || ! command -v pdfinfo >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then
  echo "print_sheets: needs chromium, pdfinfo and pdftoppm (Debian: chromium, poppler-utils); skipped" >&2
  exit 77
fi
if [ ! -d "$sheets" ]; then
  echo "print_sheets: $sheets is not a folder of sheets" >&2
  exit 2
fi
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)

ids=("$@")
if [ ${#ids[@]} -eq 0 ]; then
  for f in "$sheets"/*.html; do
    [ -e "$f" ] || continue
    ids+=("$(basename "$f" .html)")
  done
fi
if [ ${#ids[@]} -eq 0 ]; then
  echo "print_sheets: no <id>.html in $sheets" >&2
  exit 2
fi

# A profile of our own: Chromium refuses a second instance on a shared profile.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

failed=0
for id in "${ids[@]}"; do
  html="$sheets/$id.html"
  if [ ! -f "$html" ]; then
    echo "print_sheets: $html does not exist" >&2
    exit 2
  fi
  for paper in A4 Letter; do
    tag=$(echo "$paper" | tr 'A-Z' 'a-z')
    # The sheet's own CSS sets margins only; the paper size is injected here (CSS Paged Media:
    # @page size), as a browser's print dialog would choose it.
    page="$out/$id-$tag.html"
    sed "s|</head>|<style>@page { size: $paper; }</style>\n</head>|" "$html" > "$page"
    pdf="$out/$id-$tag.pdf"
    rm -f "$pdf"
    "$chrome" --headless --no-sandbox --disable-gpu --no-pdf-header-footer --user-data-dir="$profile" \
      --print-to-pdf="$pdf" "file://$page" >"$out/logs/$id-$tag.chromium.log" 2>&1 || true
    rm -f "$page"
    if [ ! -s "$pdf" ]; then
      echo "$id ($paper): chromium wrote no PDF (see $out/logs/$id-$tag.chromium.log)"
      failed=1
      continue
    fi
    pages=$(pdfinfo "$pdf" | sed -n 's/^Pages: *//p')
    size=$(pdfinfo "$pdf" | sed -n 's/^Page size: *//p')
    pdftoppm -png -r 110 -f 1 -l 1 -singlefile "$pdf" "$out/$id-$tag"
    if [ "$pages" = "1" ]; then
      echo "$id ($paper): 1 page ($size): $out/$id-$tag.png"
    else
      echo "$id ($paper): $pages pages, not 1 ($size): $pdf"
      failed=1
    fi
  done
done
exit $failed
