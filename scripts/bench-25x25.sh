#!/usr/bin/env bash
# Times the 25x25 engine (CaDiCaL, crates/solver/src/sat.rs) on each of the
# 18 Gecode 25x25 puzzles in ../shared/puzzles, checking each against
# gecode_25x25.solutions.txt: it runs the ignored release test
# `every_gecode_25x25_matches_its_solution` under `nice -n 10` and prints
# its per-puzzle wall and CPU seconds between the load averages before and
# after. The machine is shared: compare CPU seconds, and runs made at a
# similar load.
#
#   scripts/bench-25x25.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
nice -n 10 cargo test --release -p snap-solver every_gecode_25x25 -- --ignored --nocapture 2>&1 |
    grep -E '^25x25 line|^test .*every_gecode_25x25|panicked'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
