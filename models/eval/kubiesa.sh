#!/usr/bin/env bash
# Reads the Kubiesa photos with the Rust pipeline (`sudoku-snap eval`) against
# their PRINTED clues only (fixtures/kubiesa-printed): a pen entry or pencil
# mark read as a clue counts as a false digit, and a grid is solved right only
# when the pen entries were left out of the givens.
#
# Usage, from the repository root after `cargo build --release`:
#   models/eval/kubiesa.sh held   [extra eval args]   # the 5 held-out puzzles (20 photos)
#   models/eval/kubiesa.sh train  [extra eval args]   # the 15 puzzles trained on (60 photos)
# The held-out list must match HELD_OUT in models/train/kubiesa.py.
set -euo pipefail
split=${1:?usage: models/eval/kubiesa.sh held|train [eval args]}
shift
held=" 02_19 02_24 03_01 03_05 03_09 "
root=$(cd "$(dirname "$0")/../.." && pwd)
photos=${SUDOKU_KUBIESA:-$root/../shared/fixtures/kubiesa}/train
bin=${SUDOKU_SNAP:-$root/target/release/sudoku-snap}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for jpg in "$photos"/*.jpg; do
    name=$(basename "$jpg" .jpg)
    puzzle=${name:0:5}
    case "$held" in
        *" $puzzle "*) in_held=held ;;
        *) in_held=train ;;
    esac
    [ "$in_held" = "$split" ] || continue
    ln -s "$jpg" "$dir/$name.jpg"
    cp "$root/fixtures/kubiesa-printed/$puzzle.txt" "$dir/$name.txt"
done
"$bin" eval "$dir" "$@"
