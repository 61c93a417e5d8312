#!/usr/bin/env bash
# Time and peak memory of sudoku-snap on the hostile inputs of the
# adversarial run (PDF bombs, huge books, devices, odd flag pairs), one
# table row per input: exit code, wall seconds, peak resident size of the
# largest process (the batch or one of its page renders, from
# /usr/bin/time), peak of all its processes together (sampled), and the
# first line of standard error. The table is markdown, for
# `scripts/figures.py reliability` (docs/reliability.md).
#
#   scripts/bounds.sh [BIN] [WORK_DIR]
#
# BIN defaults to target/release/sudoku-snap (built when absent); the
# inputs are written once into WORK_DIR (default target/bounds) by
# `cargo run --release --example bombs`: a few megabytes, and one padded
# book of 300 MB (hard-linked six times). Every run is capped at AS_CAP
# bytes of address space and TIME_CAP seconds, so that a binary without
# bounds cannot take the machine down; a row that hits a cap says so in
# its exit code (134: abort, 124: timeout, 137: killed 5 s after it).
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${1:-target/release/sudoku-snap}
WORK=${2:-target/bounds}
AS_CAP=${AS_CAP:-8000000000}
TIME_CAP=${TIME_CAP:-150}

if [[ ! -x $BIN ]]; then
    cargo build --release --locked >&2
fi
BIN=$(realpath "$BIN")
mkdir -p "$WORK"
WORK=$(realpath "$WORK")
IN=$WORK/in
BOOK=$WORK/book60.pdf
if [[ ! -f $IN/padded-6.pdf ]]; then
    # The run's book: 60 puzzles, 15 pages.
    "$BIN" generate --count 60 --seed 7 --pdf "$BOOK" >/dev/null
    cargo run --release --locked --example bombs -- "$IN" "$BOOK" >&2
fi
printf '.%.0s' $(seq 625) >"$IN/empty-25x25.txt"
echo >>"$IN/empty-25x25.txt"
rm -f "$IN/model.fifo"
mkfifo "$IN/model.fifo"

# One row: NAME, then the command (run in a fresh scratch folder, in a
# session of its own whose processes' resident sizes are summed every
# SAMPLE seconds: a batch and its page renders together).
SAMPLE=0.05
row() {
    local name=$1
    shift
    local scratch=$WORK/run
    rm -rf "$scratch"
    mkdir -p "$scratch"
    local stats=$WORK/time.txt err=$WORK/stderr.txt
    (cd "$scratch" && exec setsid /usr/bin/time -o "$stats" -f '%e %M' \
        prlimit --as="$AS_CAP" timeout -k 5 "$TIME_CAP" "$@" \
        >/dev/null 2>"$err") &
    local session=$! total=0 sum
    while kill -0 "$session" 2>/dev/null; do
        # The session may end between the check and ps: nothing to sum.
        sum=$( (ps -o rss= -s "$session" 2>/dev/null || true) | awk '{ s += $1 } END { print s + 0 }')
        ((sum > total)) && total=$sum
        sleep "$SAMPLE"
    done
    local code=0
    wait "$session" || code=$?
    local secs kb
    read -r secs kb < <(grep -E '^[0-9.]+ [0-9]+$' "$stats" | tail -1)
    local first
    first=$( (grep -v '^\s*$' "$err" || true) | head -1 | sed "s|$IN/||g; s|$WORK/||g" |
        cut -c1-120 | sed 's/|/\\|/g')
    # A run shorter than the sampling interval is not sampled: all its
    # processes hold at least what its largest did.
    ((kb > total)) && total=$kb
    printf '| %s | %s | %s | %d | %d | %s |\n' "$name" "$code" "$secs" $((kb / 1024)) \
        $((total / 1024)) "$first"
}

echo "Binary: \`$("$BIN" --version)\`; inputs: \`cargo run --release --example bombs\`."
echo
echo '| input | exit | s | peak MB, largest process | peak MB, all processes | first line of stderr |'
echo '|---|---:|---:|---:|---:|---|'
row "JPEG declaring 65000x65000, then book60" "$BIN" "$IN/jpeg-65000.pdf" "$BOOK" --out-dir o
row "JPEG declaring 20000x20000" "$BIN" "$IN/jpeg-20000.pdf" --out-dir o
row "forms, 10^7 fills, 1 page" "$BIN" "$IN/fanout-1.pdf" --out-dir o
row "forms, 10^7 fills, 4 pages" "$BIN" "$IN/fanout-4.pdf" --out-dir o
row "forms, 900 x 900 fills (measured within bounds)" "$BIN" "$IN/fanout-900.pdf" --out-dir o
row "forms, 100^3 drawing nothing (measured within bounds), --page-timeout 5" "$BIN" "$IN/busy-100.pdf" --page-timeout 5 --out-dir o
row "LZW stream of 700 MiB (not measured)" "$BIN" "$IN/lzw-700m.pdf" --out-dir o
row "content stream inflating to 1 GiB" "$BIN" "$IN/content-1g.pdf" --out-dir o
row "30000x30000 Flate image" "$BIN" "$IN/image-30000.pdf" --out-dir o
row "one 300 MB book, pages 1-2" "$BIN" "$IN/padded-1.pdf" --pages 1-2 --out-dir o
row "six 300 MB books, pages 1-2" "$BIN" "$IN"/padded-{1..6}.pdf --pages 1-2 --out-dir o
row "solve, 4096 lines of 625 A" "$BIN" solve "$IN/clash-4096.txt"
row "--model /dev/zero" "$BIN" --model /dev/zero "$BOOK" --pages 1 --out-dir o
row "--model FIFO without a writer" "$BIN" --model "$IN/model.fifo" "$BOOK" --pages 1 --out-dir o
row "bench /dev/zero" "$BIN" bench /dev/zero
row "grade /dev/zero" "$BIN" grade /dev/zero
row "solve --explain /dev/zero" "$BIN" solve --explain /dev/zero
# 30,000 solutions of 625 cells: past the blocking clauses counting keeps
# (16M literals, about 26,800 solutions), which then splits the search.
row "25x25 empty, --count --limit 30000" "$BIN" solve --shape 25x25 --count --limit 30000 "$IN/empty-25x25.txt"
row "book60 pages 1-8, --jobs 8 --dpi 1200" "$BIN" "$BOOK" --pages 1-8 --jobs 8 --dpi 1200 --out-dir o
row "book60, 15 pages, defaults" "$BIN" "$BOOK" --out-dir o
