#!/usr/bin/env bash
# Books, this build against another (the release before it), side by side:
# the whole job on a PDF book (`--out-dir`: the solved book and the answer
# key, `--json` kept), on every core, the two binaries alternating
# (A B A B ...) so that a machine loaded by other jobs slows both alike.
# Prints per round the wall and CPU seconds (user + system, GNU time) of
# each, then per book the medians, pages per second, the speed-ups, and
# whether the results are the same: the JSON lines of the first round of
# each, `ms` removed, field by field (a grid's `quad`, where the two
# outlines differ, by its largest corner difference in pixels; any other
# field that differs is listed with its grid).
#
# The books: a 501-page book made by this build's `generate --count 2000
# --seed 5 --pdf` (334 pages of six puzzles, 167 of twelve answers), and
# the shared books: `postonwj_sudoku_easy_section.pdf` (60 vector pages)
# and `knosmos_res.pdf` (2 pages whose grids are images).
#
# Usage, after `cargo build --release`:
#   SNAP_OLD=path/to/old/sudoku-snap scripts/bench-book.sh [ROUNDS]
# ROUNDS defaults to 3. The old binary is a release build of the commit to
# compare with, e.g. `git worktree add /tmp/old main && cd /tmp/old &&
# cargo build --release` gives /tmp/old/target/release/sudoku-snap.
# Environment: SNAP_OLD (required), SUDOKU_SNAP (this build; default
# target/release/sudoku-snap), SNAP_SHARED (the shared data; default
# ../shared; without it only the generated book is run), NICE (default 10).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
rounds=${1:-3}
new=${SUDOKU_SNAP:-$root/target/release/sudoku-snap}
old=${SNAP_OLD:-}
shared=${SNAP_SHARED:-$root/../shared}
nice=${NICE:-10}
if [[ -z "$old" || ! -x "$old" ]]; then
    echo "bench-book: set SNAP_OLD to the release binary to compare with (see the script's notes)" >&2
    exit 2
fi
if [[ ! -x "$new" ]]; then
    echo "bench-book: $new is not there; run cargo build --release" >&2
    exit 2
fi
for tool in /usr/bin/time pdfinfo; do
    if ! command -v "$tool" >/dev/null; then
        echo "bench-book: $tool not found (apt-get install time poppler-utils)" >&2
        exit 2
    fi
done
cores=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$new" generate --count 2000 --seed 5 --pdf "$tmp/generated-501.pdf" >/dev/null
books=("$tmp/generated-501.pdf")
for name in postonwj_sudoku_easy_section.pdf knosmos_res.pdf; do
    if [[ -f "$shared/fixtures/pdf/$name" ]]; then
        books+=("$shared/fixtures/pdf/$name")
    else
        echo "bench-book: $shared/fixtures/pdf/$name is not there (the shared data); left out" >&2
    fi
done
run() { # binary book tag -> "wall user system"
    local out="$tmp/out-$3"
    rm -rf "$out"
    mkdir -p "$out"
    # The exit code says whether every puzzle was solved; not an error here.
    /usr/bin/time -f '%e %U %S' -o "$tmp/time" nice -n "$nice" "$1" --json --jobs "$cores" \
        --out-dir "$out" --force "$2" >"$tmp/$3.jsonl" 2>/dev/null || true
    tail -n 1 "$tmp/time" # GNU time puts a non-zero exit status on a line before
}
echo "old $old; new $new; $cores cores; $(date -u '+%F %H:%M UTC'); load $(cut -d' ' -f1 /proc/loadavg)"
for book in "${books[@]}"; do
    name=$(basename "$book")
    pages=$(pdfinfo "$book" | awk '/^Pages:/ {print $2}')
    declare -a olds=() news=()
    for r in $(seq "$rounds"); do
        a=$(run "$old" "$book" "old-$r")
        b=$(run "$new" "$book" "new-$r")
        olds+=("$a")
        news+=("$b")
        echo "book $name round $r: old $a, new $b (wall user system s)"
    done
    python3 - "$name" "$pages" "${olds[*]}" "${news[*]}" "$tmp/old-1.jsonl" "$tmp/new-1.jsonl" <<'PY'
import json, statistics, sys
name, pages = sys.argv[1], int(sys.argv[2])
def times(s):
    v = [float(x) for x in s.split()]
    return [v[i] for i in range(0, len(v), 3)], [v[i + 1] + v[i + 2] for i in range(0, len(v), 3)]
(ow, oc), (nw, nc) = times(sys.argv[3]), times(sys.argv[4])
ow, oc, nw, nc = (statistics.median(x) for x in (ow, oc, nw, nc))
print(f"book {name}: {pages} pages; median wall old {ow:.2f} s, new {nw:.2f} s ({pages / nw:.1f} pages/s), "
      f"speed-up {ow / nw:.2f}x; median cpu old {oc:.2f} s, new {nc:.2f} s, {ow and oc / nc:.2f}x less")
def rows(path):
    out, ms = {}, {}
    for line in open(path):
        if line.startswith("{"):
            o = json.loads(line)
            ms[o.get("page")] = o.pop("ms", None) or {}
            out.setdefault((o.get("page"), o.get("grid")), []).append(o)
    return out, ms
(a, old_ms), (b, new_ms) = rows(sys.argv[5]), rows(sys.argv[6])
for label, ms in [("old", old_ms), ("new", new_ms)]:
    stages = [s for s in dict.fromkeys(k for m in ms.values() for k in m) if s != "total"]
    medians = ", ".join(f"{s} {statistics.median(m.get(s, 0.0) for m in ms.values()):.1f}"
                        for s in stages + ["total"])
    print(f"stages {name} {label} (ms a page, median): {medians}")
quad, other, count = 0.0, [], 0
for key in sorted(set(a) | set(b), key=str):
    ra, rb = a.get(key, []), b.get(key, [])
    if len(ra) != len(rb):
        other.append(f"page {key[0]} grid {key[1]}: {len(ra)} rows old, {len(rb)} new")
        continue
    for x, y in zip(ra, rb):
        count += 1
        fields = [f for f in sorted(set(x) | set(y)) if x.get(f) != y.get(f)]
        if "quad" in fields and x["quad"] and y["quad"]:
            fields.remove("quad")
            quad = max(quad, max(abs(p - q) for c, d in zip(x["quad"], y["quad"]) for p, q in zip(c, d)))
        if "status" in fields:
            rest = ", ".join(f for f in fields if f != "status")
            other.append(f"page {key[0]} grid {key[1]}: status {x['status']} -> {y['status']} ({rest})")
        elif fields:
            other.append(f"page {key[0]} grid {key[1]}: {', '.join(fields)} differ")
same = "the same" if not other else f"{len(other)} differences"
print(f"results {name}: {count} grids, {same} apart from outlines (quad, at most {quad:.2f} px apart)")
for line in other:
    print(f"  {line}")
PY
done
