#!/usr/bin/env bash
# Batch scaling: the main job over a folder of photos (or a PDF book) on
# one core and on every core, alternately (A B A B ...), so a
# machine loaded by other jobs slows both alike. Prints per round the wall
# time and peak memory (GNU time's maximum resident set size) of each, then
# the medians, items per second and the speed-up. "One core" is
# `taskset -c 0 ... --jobs 1`: with --jobs 1 alone a photo still decodes
# its colour on a second thread beside the reading, which would flatter the
# one-core time.
#
# Usage, after `cargo build --release`:
#   scripts/bench-batch.sh [INPUT] [ROUNDS] [EXTRA ARGS...]
# INPUT defaults to ../shared/fixtures/kubiesa/train (80 phone photos of
# 12 and 16 MP); ROUNDS to 3. Answers go to a temporary folder (JPEG
# answers, the whole job); pass --no-image to time reading alone.
# Environment: SUDOKU_SNAP (binary; default target/release/sudoku-snap),
# SNAP_SHARED (the shared data; default ../shared).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
input=${1:-${SNAP_SHARED:-$root/../shared}/fixtures/kubiesa/train}
rounds=${2:-3}
shift $(($# < 2 ? $# : 2))
bin=${SUDOKU_SNAP:-$root/target/release/sudoku-snap}
if [[ ! -e "$input" ]]; then
    echo "bench-batch: $input is not there (the default is in ../shared)" >&2
    exit 2
fi
if [[ ! -x "$bin" ]]; then
    echo "bench-batch: $bin is not there; run cargo build --release" >&2
    exit 2
fi
if ! command -v taskset >/dev/null; then
    echo "bench-batch: taskset not found (util-linux)" >&2
    exit 2
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "bench-batch: /usr/bin/time not found (apt-get install time)" >&2
    exit 2
fi
cores=$(nproc)
if [[ -d "$input" ]]; then
    items=$(find "$input" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | wc -l)
    what=photos
else
    items=$(pdfinfo "$input" 2>/dev/null | awk '/^Pages:/ {print $2}')
    what=pages
fi
if [[ -z "$items" || "$items" == 0 ]]; then
    echo "bench-batch: $input holds no photos (or pdfinfo is missing for a PDF)" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # jobs round [extra args] -> "seconds peak_kB"
    local jobs=$1 out="$tmp/out-$1-$2"
    shift 2
    mkdir -p "$out"
    # The exit code says whether every photo was solved; a batch of real
    # photos has unsure ones, so it is not an error here.
    local pin=()
    if [[ "$jobs" == 1 ]]; then
        pin=(taskset -c 0)
    fi
    /usr/bin/time -f '%e %M' -o "$tmp/time" "${pin[@]}" "$bin" --jobs "$jobs" --out-dir "$out" --force \
        "$@" "$input" >/dev/null 2>"$tmp/err" || true
    tail -n 1 "$tmp/time" # GNU time puts a non-zero exit status on a line before
}
echo "input $input: $items $what; $cores cores; $(date -u '+%F %H:%M UTC'); load $(cut -d' ' -f1 /proc/loadavg)"
declare -a one all
for r in $(seq "$rounds"); do
    a=$(run 1 "$r" "$@")
    b=$(run "$cores" "$r" "$@")
    one+=("$a")
    all+=("$b")
    echo "round $r: one core ${a% *} s (${a#* } kB)   --jobs $cores ${b% *} s (${b#* } kB)"
done
python3 - "$items" "$what" "$cores" "${one[*]}" "${all[*]}" <<'PY'
import statistics, sys
items, what, cores = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def parse(s):
    v = s.split()
    return [float(x) for x in v[0::2]], [int(x) for x in v[1::2]]
(t1, m1), (tn, mn) = parse(sys.argv[4]), parse(sys.argv[5])
a, b = statistics.median(t1), statistics.median(tn)
print(f"median one core: {a:.2f} s, {items / a:.2f} {what}/s, peak {max(m1) / 1024:.0f} MB")
print(f"median --jobs {cores}: {b:.2f} s, {items / b:.2f} {what}/s, peak {max(mn) / 1024:.0f} MB")
print(f"speed-up: {a / b:.2f}x")
PY
