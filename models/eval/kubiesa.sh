#!/usr/bin/env bash
# Reads the Kubiesa photos with the Rust pipeline (`sudoku-snap eval`) against
# their PRINTED clues only (fixtures/kubiesa-printed): a pen entry or pencil
# mark read as a clue counts as a false digit, and a grid is solved right only
# when the pen entries were left out of the givens. Each photo also gets a
# kinds truth (`<name>.kinds.txt`: printed digit, `a`-`i` a pen 1-9, `*`
# pencil, `.` empty) from its label and the printed clues, for eval's table
# of cell kinds (handwriting and pencil confusion).
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
photos=${SUDOKU_KUBIESA:-${SNAP_SHARED:-$root/../shared}/fixtures/kubiesa}/train
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
    python3 - "$photos/$name.txt" "$dir/$name.txt" > "$dir/$name.kinds.txt" <<'PY'
import sys
label, printed = ("".join(open(p).read().split()) for p in sys.argv[1:3])
kinds = "".join(p if p != "." else chr(ord("a") + int(l) - 1) if l.isdigit() else l
                for l, p in zip(label, printed))
print("\n".join(kinds[r * 9:(r + 1) * 9] for r in range(9)))
PY
done
"$bin" eval "$dir" "$@"
