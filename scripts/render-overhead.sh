#!/usr/bin/env bash
# What rendering PDF pages in child processes costs a big book: two
# binaries (A, B) read the same generated book, alternately (A B A B ...),
# and each run's wall time, processor time (its own and its render
# children's), peak resident size and the pages' mean `render` stage (from
# the JSON lines) are tabled, with the median of each binary.
#
#   scripts/render-overhead.sh A_BIN B_BIN [ROUNDS] [PUZZLES]
#
# The book is `sudoku-snap generate --count PUZZLES --seed 1 --pdf` (3000
# puzzles: 500 pages), written once into target/render-overhead. Runs are
# `--no-image --json --jobs 2` under `nice`.
set -euo pipefail

cd "$(dirname "$0")/.."
A=$(realpath "$1")
B=$(realpath "$2")
ROUNDS=${3:-2}
PUZZLES=${4:-3000}
WORK=target/render-overhead
mkdir -p "$WORK"
BOOK=$WORK/book-$PUZZLES.pdf
[[ -f $BOOK ]] || "$A" generate --count "$PUZZLES" --seed 1 --pdf "$BOOK" >/dev/null

# One run: prints "wall cpu peak_mb render_ms pages".
run() {
    local bin=$1 stats=$WORK/time.txt out=$WORK/out.jsonl
    nice /usr/bin/time -o "$stats" -f '%e %U %S %M' \
        "$bin" --no-image --json --jobs 2 "$BOOK" >"$out" 2>/dev/null || true
    local wall user sys kb
    read -r wall user sys kb <"$stats"
    python3 - "$out" "$wall" "$user" "$sys" "$kb" <<'EOF'
import json, sys
out, wall, user, sys_s, kb = sys.argv[1:]
pages = {}
for line in open(out):
    d = json.loads(line)
    pages[d["page"]] = d.get("ms", {}).get("render", 0.0)
render = sum(pages.values()) / max(len(pages), 1)
print(f"{float(wall):.1f} {float(user) + float(sys_s):.1f} {int(kb) // 1024} {render:.1f} {len(pages)}")
EOF
}

echo "book: $PUZZLES puzzles; A: $A; B: $B"
echo
echo '| run | binary | wall s | CPU s | peak MB | render ms/page | pages |'
echo '|---|---|---|---|---|---|---|'
declare -a RA RB
for ((i = 1; i <= ROUNDS; i++)); do
    for side in A B; do
        bin=$A
        [[ $side == B ]] && bin=$B
        row=$(run "$bin")
        echo "| $i | $side | ${row// / | } |"
        if [[ $side == A ]]; then RA+=("$row"); else RB+=("$row"); fi
    done
done
median() {
    python3 -c '
import statistics, sys
rows = [list(map(float, r.split())) for r in sys.argv[1:]]
cols = list(zip(*rows))
print(" | ".join(f"{statistics.median(c):g}" for c in cols))
' "$@"
}
echo "| median | A | $(median "${RA[@]}") |"
echo "| median | B | $(median "${RB[@]}") |"
