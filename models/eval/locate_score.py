#!/usr/bin/env python3
"""Scores the main job's grids on pages with known grid boxes.

Runs `sudoku-snap read --json` on every PAGE.png of a folder written by
models/eval/locate_pages.py (or any folder of PAGE.png + PAGE.tsv, one
object a line: kind x0 y0 x1 y1) and counts, per page and in total, the
puzzle and answer grids reported, and what else was reported (a notes
table, a crossword, a table, a faded grid, or nothing known).

    SUDOKU_SNAP=./target/release/sudoku-snap python3 models/eval/locate_score.py DIR
"""

import glob
import json
import os
import subprocess
import sys

# A reported grid is a known object when their centres are within this
# fraction of the object's side and their sides differ by less than it.
MATCH_TOL = 0.12


def read_truth(path):
    out = []
    with open(path) as f:
        for line in f:
            p = line.split("\t")
            if len(p) >= 5:
                out.append((p[0], [float(v) for v in p[1:5]]))
    return out


def matches(quad, box):
    xs = [c[0] for c in quad]
    ys = [c[1] for c in quad]
    cx, cy = sum(xs) / 4, sum(ys) / 4
    side = 0.5 * ((max(xs) - min(xs)) + (max(ys) - min(ys)))
    x0, y0, x1, y1 = box
    tside = 0.5 * ((x1 - x0) + (y1 - y0))
    tol = MATCH_TOL * tside
    return abs(cx - (x0 + x1) / 2) < tol and abs(cy - (y0 + y1) / 2) < tol and abs(side - tside) < tol


def main():
    folder = sys.argv[1]
    exe = os.environ.get("SUDOKU_SNAP", "./target/release/sudoku-snap")
    pages = sorted(glob.glob(os.path.join(folder, "*.png")))
    res = subprocess.run([exe, "read", "--json", *pages], capture_output=True, text=True)
    quads = {p: [] for p in pages}
    for line in res.stdout.splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if rec.get("quad"):
            quads.setdefault(rec["path"], []).append(rec["quad"])
    expected = found = false = 0
    for p in pages:
        truth = read_truth(p[:-4] + ".tsv")
        grids = [t for t in truth if t[0] in ("puzzle", "answer")]
        got = quads.get(p, [])
        hit = sum(1 for t in grids if any(matches(q, t[1]) for q in got))
        fals = []
        for q in got:
            if not any(matches(q, t[1]) for t in grids):
                what = next((t[0] for t in truth if matches(q, t[1])), "nothing")
                fals.append(what)
        expected += len(grids)
        found += hit
        false += len(fals)
        print(f"{os.path.basename(p)}: {hit}/{len(grids)} grids, false {fals}")
    print(f"TOTAL {len(pages)} pages: {found}/{expected} grids reported, false grids {false}")


if __name__ == "__main__":
    main()
