#!/usr/bin/env bash
# Compares sudoku-snap's 9x9 solver with peer-bench (the `sudoku` crate, a
# JCZSolve port) on every 9x9 set in ../shared/puzzles, in both modes, and
# prints a markdown table of median puzzles/s and their ratio.
#
# The machine is shared and noisy, so the two programs run alternately
# (A B A B ...) for ROUNDS rounds of REPEATS repeats each; each program's
# figure is the median over rounds of its per-round median.
#
#   scripts/bench-vs-peer.sh            # all sets, count2 and first
#   ROUNDS=5 REPEATS=5 MODES=count2 SETS='17_clue hardest' scripts/bench-vs-peer.sh
#
# Environment: ROUNDS (3), REPEATS (3), MODES ("count2 first"), SETS (words;
# a set is kept when its file name contains one of them; default all),
# SKIP_BUILD=1 to use the binaries already built, SNAP / PEER to point at
# other binaries, SNAP_SHARED for the shared data (default ../shared).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
shared="${SNAP_SHARED:-$root/../shared}"
if [[ ! -d "$shared/puzzles" || ! -f "$shared/tools/peer-bench/Cargo.toml" ]]; then
    echo "bench-vs-peer: $shared (puzzles and tools/peer-bench) is not there;" \
        "it holds the benchmark sets and the reference solver, so there is nothing to compare." >&2
    exit 2
fi
shared="$(cd "$shared" && pwd)"
cd "$root"

rounds="${ROUNDS:-3}"
repeats="${REPEATS:-3}"
modes="${MODES:-count2 first}"
snap="${SNAP:-target/fastest/sudoku-snap}"
peer="${PEER:-target/peer-bench/release/peer-bench}"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    # Both with fat LTO and one codegen unit (our `fastest` profile matches
    # peer-bench's release profile), so the ratio compares like with like.
    echo "building sudoku-snap (profile fastest) and peer-bench (release)..." >&2
    cargo build --profile fastest --quiet
    CARGO_TARGET_DIR=target/peer-bench cargo build --release --quiet \
        --manifest-path "$shared/tools/peer-bench/Cargo.toml"
fi
for bin in "$snap" "$peer"; do
    if [[ ! -x "$bin" ]]; then
        echo "bench-vs-peer: $bin was not built" >&2
        exit 2
    fi
done

# The 9x9 sets: puzzle files (not solutions or counts) whose first line is
# 81 characters long.
sets=()
for f in "$shared"/puzzles/*.txt; do
    case "$f" in *.solutions.txt | *.counts.txt | *.expected.txt) continue ;; esac
    [[ "$(head -n 1 "$f" | tr -d '\r' | wc -c)" -eq 82 ]] || continue
    if [[ -n "${SETS:-}" ]]; then
        keep=0
        for word in $SETS; do [[ "$f" == *"$word"* ]] && keep=1; done
        [[ $keep == 1 ]] || continue
    fi
    sets+=("$f")
done
if [[ ${#sets[@]} -eq 0 ]]; then
    echo "bench-vs-peer: no 9x9 puzzle set found in $shared/puzzles" >&2
    exit 2
fi

# median_pps of a run's last line.
pps() { tail -n 1 | sed -n 's/^median_pps=\([0-9]*\).*/\1/p'; }
# Median of numbers given as arguments.
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "| set | mode | sudoku-snap median pps | peer median pps | ratio |"
echo "|---|---|---:|---:|---:|"
for f in "${sets[@]}"; do
    for mode in $modes; do
        a=()
        b=()
        for ((r = 0; r < rounds; r++)); do
            a+=("$("$snap" bench "$f" --mode "$mode" --repeats "$repeats" | pps)")
            b+=("$("$peer" "$mode" "$f" "$repeats" | pps)")
        done
        ma="$(median "${a[@]}")"
        mb="$(median "${b[@]}")"
        ratio="$(awk -v a="$ma" -v b="$mb" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
        echo "| $(basename "$f" .txt) | $mode | $ma | $mb | $ratio |"
    done
done
