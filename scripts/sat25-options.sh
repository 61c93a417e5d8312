#!/usr/bin/env bash
# Measures CaDiCaL options, one set at a time, on Gecode 25x25 lines as
# crates/solver/src/sat.rs solves them (or the uniqueness proof by cube and
# conquer), in conflicts (which the load does not move) as well as CPU
# seconds. Builds CaDiCaL from the sources the `cadical` crate vendors (so
# the solver measured is the one linked) and scripts/sat25-driver.cpp into
# target/sat25, writes the formulas with the ignored test
# `write_gecode_25x25_dimacs` (needs ../shared), then runs every option set
# on every line given.
#
#   scripts/sat25-options.sh "9 10" "" walk=0 "target=0 vivify=0" cubes=8
#
# The first argument lists the lines (1-18); each further one is an option
# set ("" for `sat` alone, as sat.rs runs it); `cubes=DEPTH` in a set proves
# uniqueness by cube and conquer instead (see the driver).
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:?usage: $0 \"LINES\" [OPTIONS ...]}
shift
out=target/sat25
# CaDiCaL is built once; the driver again whenever its source is newer.
if [[ ! -f "$out/libcadical.a" || scripts/sat25-driver.cpp -nt "$out/sat25-driver" ]]; then
    manifest=$(cargo metadata --format-version 1 --locked |
        python3 -c 'import json,sys; print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"] if p["name"] == "cadical"))')
    src="$(dirname "$manifest")/cadical/src"
    if [[ ! -f "$out/libcadical.a" ]]; then
        mkdir -p "$out/obj"
        version=$(cat "$src/../VERSION")
        for f in "$src"/*.cpp; do
            case $(basename "$f") in cadical.cpp | mobical.cpp | ccadical.cpp) continue ;; esac
            echo "$f"
        done | xargs -P "$(nproc)" -I{} sh -c \
            'g++ -O3 -DNDEBUG -DNBUILD -DVERSION="\"'"$version"'\"" -std=c++17 -w -c {} -o '"$out"'/obj/$(basename {} .cpp).o'
        # An archive, so that only what the driver needs is linked (not the
        # C and IPASIR interfaces).
        ar rcs "$out/libcadical.a" "$out"/obj/*.o
    fi
    g++ -O3 -DNDEBUG -DNBUILD -std=c++17 -I"$src" scripts/sat25-driver.cpp "$out/libcadical.a" -o "$out/sat25-driver"
fi
if [[ ! -f "$out/cnf/line-1.cnf" ]]; then
    SAT25_DIMACS="$PWD/$out/cnf" cargo test --locked -p snap-solver -- --ignored write_gecode_25x25_dimacs
    [[ -f "$out/cnf/line-1.cnf" ]] || { echo "no formulas written (../shared/puzzles missing?)"; exit 1; }
fi
for options in "$@"; do
    for line in $lines; do
        echo "line $line, sat ${options:-alone}, load $(cut -d' ' -f1 /proc/loadavg):"
        # shellcheck disable=SC2086 # an option set is several words
        "$out/sat25-driver" "$out/cnf/line-$line.cnf" $options | sed 's/^/  /'
    done
done
