#!/usr/bin/env bash
# Every held-out source in one `sudoku-snap eval` run, so that its last block
# ("all N sources") is the calibration table the issue asks for: is an answer
# solved with confidence >= 0.9 right at least 99.5 % of the time?
#
# Held out = never trained on and never used to choose a threshold:
#   photos/test and photos/extra (wichtounet newspapers), the held-out Kubiesa
#   puzzles (phone photos of worked-on puzzles), book pages of our own books,
#   drawn pages and their simulated captures (models/eval/book_pages.py), and
#   app screenshots (models/eval/screenshots.py), both made with seeds that
#   were never used while tuning (screens 2026, books 2027: book_pages.py's
#   own box check stops on seed 2026's drawn page 19; the tuning seeds were
#   10 for books and 1 for screenshots). The shared PDF books' clean pages
#   were looked at while the reader was built, so they are left out here
#   (their simulated captures, new with the seed, are in).
#
# Usage, from the repository root after `cargo build --release`:
#   models/eval/heldout.sh [OUT] [eval args]   # OUT default target/heldout
# The generated sets are made once per seed and kept under OUT.
# Environment: SUDOKU_SNAP (binary), SNAP_SHARED (the shared data; default ../shared).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/target/heldout}
shift || true
books_seed=${BOOKS_SEED:-2027}
screens_seed=${SCREENS_SEED:-2026}
bin=${SUDOKU_SNAP:-$root/target/release/sudoku-snap}
shared=${SNAP_SHARED:-$root/../shared}
books="$out/books-$books_seed"
screens="$out/screens-$screens_seed"
if [ ! -d "$books/capture" ]; then
    python3 "$root/models/eval/book_pages.py" make "$books" --seed "$books_seed" \
        --books "${HELDOUT_BOOKS:-4}" --compose "${HELDOUT_COMPOSE:-60}" --bin "$bin" >&2
fi
if [ ! -f "$screens/screens.tsv" ]; then
    python3 "$root/models/eval/screenshots.py" make "$screens" --seed "$screens_seed" \
        --count "${HELDOUT_SCREENS:-150}" --bin "$bin" >&2
fi
SUDOKU_SNAP="$bin" "$root/models/eval/kubiesa.sh" held \
    "$shared/fixtures/photos/test" "$shared/fixtures/photos/extra" \
    "$screens" "$books/ours" "$books/compose" "$books/capture" "$@"
