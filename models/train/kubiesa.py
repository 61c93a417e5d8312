"""Real cells from the Kubiesa phone photos (../shared/fixtures/kubiesa/train).

Those puzzles have been worked on: their labels (`<photo>.txt`) give every
filled cell, printed or pen, and `*` for pencil candidates. Which digits are
PRINTED is kept in this repository, one file per puzzle:
`fixtures/kubiesa-printed/<puzzle>.txt` (9 lines of 9, the printed clues,
`.` elsewhere; see the README there). Together they give each cell a class:
printed digit, handwritten digit, pencil, or empty.

The corners in `train_corners.csv` are the grid's corners in the stored
pixels, named by where they lie in the stored image, so a photo stored on its
side is warped sideways; the quarter turn that makes it upright is found by
matching the cells' ink against the label's filled cells.
"""
import csv
import os

import cv2
import numpy as np

from common import (CELL_PX, GRID_PX, PENCIL, cell_to_tile, hand_class,
                    load_gray, warp)

KUBIESA = os.environ.get("SUDOKU_KUBIESA", "/work/shared/fixtures/kubiesa")
PRINTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                       "fixtures", "kubiesa-printed")
# Held out by puzzle: never trained on, only reported (every 4th puzzle).
# models/eval/kubiesa.sh holds the same list; scripts/bench-photo.sh reads this line.
HELD_OUT = ("02_19", "02_24", "03_01", "03_05", "03_09")


def photos():
    """[(file name, puzzle id, 4x2 corners tl,tr,br,bl in stored pixels)]."""
    out = []
    with open(os.path.join(KUBIESA, "train_corners.csv")) as f:
        for row in csv.DictReader(f):
            q = np.float32([[float(row[f"x_{k}_absolute"]), float(row[f"y_{k}_absolute"])]
                            for k in ("topleft", "topright", "bottomright", "bottomleft")])
            out.append((row["Name"], row["Puzzle"], q))
    return sorted(out)


def read_grid(path):
    """9 lines of 9 -> list of 81 chars."""
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    assert len(lines) == 9 and all(len(l) >= 9 for l in lines), path
    return [ch for l in lines for ch in l[:9]]


def classes(name, puzzle):
    """The 81 class labels of a photo's cells (upright, row-major)."""
    full = read_grid(os.path.join(KUBIESA, "train", name[:-4] + ".txt"))
    printed = read_grid(os.path.join(PRINTED, puzzle + ".txt"))
    out = []
    for f, p in zip(full, printed):
        if p != ".":
            assert p == f, (name, p, f)
            out.append(int(p))
        elif f == "*":
            out.append(PENCIL)
        elif f == ".":
            out.append(0)
        else:
            out.append(hand_class(int(f)))
    return out


def upright_grid(name, quad, full=None):
    """The rectified 432x432 grid turned upright (quarter turns chosen by the
    best match of per-cell ink against the label's filled cells)."""
    gray = load_gray(os.path.join(KUBIESA, "train", name))
    g = warp(gray, quad)
    if full is None:
        full = read_grid(os.path.join(KUBIESA, "train", name[:-4] + ".txt"))
    filled = np.array([ch != "." for ch in full], np.float32)
    best = None
    for k in range(4):
        t = np.rot90(g, k)
        ink = np.array([np.std(t[r * CELL_PX + 8:(r + 1) * CELL_PX - 8,
                                 c * CELL_PX + 8:(c + 1) * CELL_PX - 8])
                        for r in range(9) for c in range(9)])
        score = np.corrcoef(ink, filled)[0, 1]
        if best is None or score > best[0]:
            best = (score, k)
    return np.ascontiguousarray(np.rot90(g, best[1])), best[1]


def upright_quad(name, quad):
    """The corners relabelled so that warping them gives the upright grid."""
    _, k = upright_grid(name, quad)
    return np.roll(quad, -k, axis=0)


def items(photos_):
    """real.make_from items for Kubiesa photos: (load, upright corners, classes)."""
    return [(lambda n=name: load_gray(os.path.join(KUBIESA, "train", n)),
             upright_quad(name, quad), classes(name, puzzle))
            for name, puzzle, quad in photos_]


def exact_tiles(name, quad):
    g, _ = upright_grid(name, quad)
    out = np.empty((81, 28, 28), np.float32)
    for i in range(81):
        r, c = divmod(i, 9)
        out[i] = cell_to_tile(g[r * CELL_PX:(r + 1) * CELL_PX, c * CELL_PX:(c + 1) * CELL_PX])
    return out


def split():
    """(train photos, held-out photos), each [(name, puzzle, quad)]."""
    ps = photos()
    return ([p for p in ps if p[1] not in HELD_OUT], [p for p in ps if p[1] in HELD_OUT])


def solutions(cells, limit=2):
    """Up to `limit` solutions of a 9x9 puzzle (81 ints, 0 empty); plain
    backtracking, enough to check a label file."""
    out = []

    def rec(g):
        if len(out) >= limit:
            return
        if 0 not in g:
            out.append(g[:])
            return
        i = g.index(0)
        r, c = divmod(i, 9)
        br, bc = r // 3 * 3, c // 3 * 3
        used = ({g[r * 9 + k] for k in range(9)} | {g[k * 9 + c] for k in range(9)}
                | {g[(br + a) * 9 + bc + b] for a in range(3) for b in range(3)})
        for v in range(1, 10):
            if v not in used:
                g[i] = v
                rec(g)
                g[i] = 0

    rec(list(cells))
    return out


def check():
    """Each puzzle's printed clues: in its labels, one solution, which agrees
    with every pen entry."""
    ok = True
    for puzzle in sorted({p for _, p, _ in photos()}):
        printed = read_grid(os.path.join(PRINTED, puzzle + ".txt"))
        sols = solutions([0 if ch == "." else int(ch) for ch in printed])
        bad = []
        for name, p, _ in photos():
            if p != puzzle:
                continue
            full = read_grid(os.path.join(KUBIESA, "train", name[:-4] + ".txt"))
            bad += [i for i, (f, pr) in enumerate(zip(full, printed))
                    if (pr != "." and pr != f) or (f.isdigit() and len(sols) == 1
                                                   and sols[0][i] != int(f))]
        print(puzzle, len(sols), "solution(s)", "disagreeing cells", sorted(set(bad)))
        ok &= len(sols) == 1 and not bad
    return ok


if __name__ == "__main__":
    import sys
    if "--check" in sys.argv:
        sys.exit(0 if check() else 1)
    # Contact sheets for labelling: one upright grid per puzzle with the label
    # drawn in the corner of every filled cell.
    import sys
    outdir = sys.argv[1] if len(sys.argv) > 1 else "/tmp/kubiesa-sheets"
    os.makedirs(outdir, exist_ok=True)
    seen = set()
    for name, puzzle, quad in photos():
        if puzzle in seen and "--all" not in sys.argv:
            continue
        seen.add(puzzle)
        g, k = upright_grid(name, quad)
        big = cv2.cvtColor(cv2.resize(g, (GRID_PX * 2, GRID_PX * 2)), cv2.COLOR_GRAY2BGR)
        full = read_grid(os.path.join(KUBIESA, "train", name[:-4] + ".txt"))
        for i, ch in enumerate(full):
            r, c = divmod(i, 9)
            cv2.putText(big, ch, (c * 96 + 2, r * 96 + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                        (0, 0, 255), 1)
        cv2.imwrite(os.path.join(outdir, f"{name[:-4]}.png"), big)
        print(name, "turns", k)
