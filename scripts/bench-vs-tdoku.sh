#!/usr/bin/env bash
# Races the 9x9 fast path (the snap-solver `bench` example, plain
# `cargo build --release`) against tdoku (../shared/tools/tdoku-bench, C++ with
# SIMD, the fastest published solver) and peer-bench (the `sudoku` crate, a
# JCZSolve port) on every 9x9 set in ../shared/puzzles, in both modes, and
# prints a markdown table of median puzzles/s and the ratios ours/tdoku and
# ours/peer, headed by the date and the CPU model.
#
# The machine is shared and noisy, so the three programs run alternately
# (A B C A B C ...) for ROUNDS rounds of REPEATS repeats each; each program's
# figure is the median over rounds of its per-round median.
#
#   scripts/bench-vs-tdoku.sh            # all sets, count2 and first
#   ROUNDS=5 REPEATS=3 MODES=count2 SETS='17_clue hardest' scripts/bench-vs-tdoku.sh
#
# Environment: ROUNDS (5), REPEATS (3), MODES ("count2 first"), SETS (words;
# a set is kept when its file name contains one of them; default all),
# SKIP_BUILD=1 to use the binaries already built, OURS / TDOKU / PEER to point
# at other binaries (PEER= empty leaves peer-bench out), SNAP_SHARED for the
# shared data (default ../shared).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
shared="${SNAP_SHARED:-$root/../shared}"
if [[ ! -d "$shared/puzzles" || ! -x "$shared/tools/tdoku-bench/build.sh" ]]; then
    echo "bench-vs-tdoku: $shared (puzzles and tools/tdoku-bench) is not there;" \
        "it holds the benchmark sets and the reference solver, so there is nothing to compare." >&2
    exit 2
fi
shared="$(cd "$shared" && pwd)"
cd "$root"

rounds="${ROUNDS:-5}"
repeats="${REPEATS:-3}"
modes="${MODES:-count2 first}"
ours="${OURS:-target/release/examples/bench}"
tdoku="${TDOKU:-target/tdoku-bench/tdoku-bench}"
peer="${PEER-target/peer-bench/release/peer-bench}"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    # Ours as shipped: the plain release profile, no LTO. tdoku as its author
    # builds it (g++ -O3 -march=native); peer-bench with its own release
    # profile (fat LTO).
    echo "building the solver bench example, tdoku-bench and peer-bench..." >&2
    cargo build --release --quiet -p snap-solver --example bench
    mkdir -p target/tdoku-bench
    "$shared/tools/tdoku-bench/build.sh" "$tdoku" >/dev/null
    if [[ -n "$peer" ]]; then
        CARGO_TARGET_DIR=target/peer-bench cargo build --release --quiet \
            --manifest-path "$shared/tools/peer-bench/Cargo.toml"
    fi
fi
for bin in "$ours" "$tdoku" ${peer:+"$peer"}; do
    if [[ ! -x "$bin" ]]; then
        echo "bench-vs-tdoku: $bin was not built" >&2
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
    echo "bench-vs-tdoku: no 9x9 puzzle set found in $shared/puzzles" >&2
    exit 2
fi

# median_pps of a run's last line.
pps() { tail -n 1 | sed -n 's/^median_pps=\([0-9]*\).*/\1/p'; }
# Median of numbers given as arguments.
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# a / b to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

model="$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), ${model:-unknown CPU}, $(nproc) cores;" \
    "$rounds rounds x $repeats repeats, medians of per-round medians (puzzles/s)"
echo
echo "| set | mode | ours | tdoku | peer | ours/tdoku | ours/peer |"
echo "|---|---|---:|---:|---:|---:|---:|"
for f in "${sets[@]}"; do
    for mode in $modes; do
        a=()
        b=()
        c=()
        for ((r = 0; r < rounds; r++)); do
            a+=("$("$ours" "$mode" "$repeats" "$f" | pps)")
            b+=("$("$tdoku" "$mode" "$f" "$repeats" | pps)")
            if [[ -n "$peer" ]]; then
                c+=("$("$peer" "$mode" "$f" "$repeats" | pps)")
            fi
        done
        ma="$(median "${a[@]}")"
        mb="$(median "${b[@]}")"
        mc="n/a"
        [[ -n "$peer" ]] && mc="$(median "${c[@]}")"
        echo "| $(basename "$f" .txt) | $mode | $ma | $mb | $mc | $(ratio "$ma" "$mb") | $(ratio "$ma" "$mc") |"
    done
done
