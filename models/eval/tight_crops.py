#!/usr/bin/env python3
"""Tight crops of held-out photos: is a grid cropped at or just inside its
border read, and never answered wrong?

Each held-out photo is read once uncropped; the grid's corners the reader
gives (`quad`) place its border, so only photos solved right uncropped are
cropped (a grid found a row off would be cropped through its cells). The photo is then cropped at the border's
outermost point on one or more sides, 0, 1 and 3 pixels inside it, so every
cell stays in the image (on a tilted grid only one corner touches the
crop's edge), and read again by the main job (`sudoku-snap --json`), as a
user would: the verdict of the grid is counted `solved` right, `unsure`,
`partial` (the grid reported cut by the edge), a false verdict (`no_solution`
or `multiple` for a puzzle whose truth has one solution), anything else
(`no_grid`, ...), and WRONG (an answer shown that is not the truth's).

Held out, by puzzle: the shared newspaper photos whose puzzle is in no
training photo (photos/test and photos/extra, by `manifest.tsv`), the
Kubiesa phone photos of the five held-out puzzles (models/eval/kubiesa.sh;
their truth is the printed clues), and the app screens of the held-out seed
(`$SNAP_HELDOUT/screens-2026`, those whose truth has one solution). Besides
them, as a wider check, every shared newspaper photo (train, test and
extra), the source "every newspaper photo": the digit model was trained on
photos/train, but no grid search was ever tuned on any of them cropped.

Usage, from the repository root after `cargo build --release`:
    models/eval/tight_crops.py OUT [--bin BIN] [--screens N]
prints one JSON line per class (source, sides cropped, pixels inside) and
keeps the crops under OUT. Environment: SUDOKU_SNAP, SNAP_SHARED,
SNAP_HELDOUT, as scripts/figures.py.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

import heldout_photos

ROOT = Path(__file__).resolve().parent.parent.parent
SIDES = {  # name -> the image sides cropped to the grid
    "bottom": ("bottom",),
    "right": ("right",),
    "top+left": ("top", "left"),
    "all four": ("top", "right", "bottom", "left"),
}
INSETS = (0, 1, 3)  # pixels inside the border's outermost point
JOBS = "2"


def truth_of(path):
    return "".join("".join(open(path).read().split()))


def photos(shared, heldout, screens):
    """(source, image path, truth of 81 characters) of every held-out photo,
    and of every shared newspaper photo (train, test and extra: the locator
    is tuned on none of them cropped)."""
    out = [("newspaper photos", jpg, truth_of(jpg.with_suffix(".txt")))
           for jpg in heldout_photos.newspaper(shared)]
    for split in ("train", "test", "extra"):
        for jpg in sorted((shared / "fixtures" / "photos" / split).glob("*.jpg")):
            if jpg.with_suffix(".txt").exists():
                out.append(("every newspaper photo", jpg, truth_of(jpg.with_suffix(".txt"))))
    out += [("kubiesa phone photos", jpg, truth_of(printed))
            for jpg, printed in heldout_photos.kubiesa(shared)]
    tsv = heldout / "screens-2026" / "screens.tsv"
    if screens and tsv.exists():
        taken = 0
        for line in open(tsv):
            if line.startswith("#") or not line.strip():
                continue
            stem, *_, expected = line.rstrip("\n").split("\t")
            if expected != "solved":
                continue
            image = next((tsv.parent / f"{stem}{ext}" for ext in (".png", ".jpg")
                          if (tsv.parent / f"{stem}{ext}").exists()), None)
            if image is None:
                continue
            out.append(("app screens", image, truth_of(tsv.parent / f"{stem}.txt")))
            taken += 1
            if taken >= screens:
                break
    return out


def read(binary, paths):
    """The main job's JSON lines, by path."""
    by_path = {}
    for i in range(0, len(paths), 64):
        done = subprocess.run([binary, "--json", "--no-image", "--jobs", JOBS, *map(str, paths[i:i + 64])],
                              capture_output=True, text=True, check=False)
        for line in done.stdout.splitlines():
            if line.strip():
                o = json.loads(line)
                by_path.setdefault(o["path"], []).append(o)
    return by_path


_solutions = {}


def solution(binary, truth):
    if truth not in _solutions:
        out = subprocess.run([binary, "solve"], input=truth + "\n", capture_output=True,
                             text=True, check=False).stdout.strip()
        _solutions[truth] = out if len(out) == 81 else None
    return _solutions[truth]


def grid_of(lines, truth):
    """The 9x9 grid of a photo's lines that agrees most with the truth."""
    best, agree = None, -1
    for o in lines:
        if o.get("shape") != "9x9":
            continue
        read = o.get("read") or o.get("givens") or ""
        a = sum(x == y for x, y in zip(read, truth))
        if a > agree:
            best, agree = o, a
    return best


def outcome(o, right):
    """solved (right), unsure, partial, verdict (false), wrong or other, for
    one grid's line."""
    if o is None:
        return "other"
    shown = o.get("solution")
    if shown and shown != right:
        return "wrong"
    status = o.get("status")
    if status == "solved" and shown == right:
        return "solved"
    if status in ("unsure", "partial"):
        return status
    if status in ("no_solution", "multiple"):
        return "verdict"
    return "other"


def crop_box(quad, size, sides, inset):
    w, h = size
    xs, ys = [c[0] for c in quad], [c[1] for c in quad]
    box = [0, 0, w, h]
    if "left" in sides:
        box[0] = max(0, round(min(xs)) + inset)
    if "top" in sides:
        box[1] = max(0, round(min(ys)) + inset)
    if "right" in sides:
        box[2] = min(w, round(max(xs)) - inset)
    if "bottom" in sides:
        box[3] = min(h, round(max(ys)) - inset)
    return tuple(box)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--bin", default=os.environ.get("SUDOKU_SNAP", ROOT / "target/release/sudoku-snap"))
    ap.add_argument("--screens", type=int, default=40, help="app screens taken (0: none)")
    args = ap.parse_args()
    shared = Path(os.environ.get("SNAP_SHARED", ROOT.parent / "shared"))
    heldout = Path(os.environ.get("SNAP_HELDOUT", ROOT / "target" / "heldout"))
    if not (shared / "fixtures" / "photos").exists():
        print(f"tight_crops: {shared}/fixtures/photos is not there (SNAP_SHARED)", file=sys.stderr)
        sys.exit(2)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    items = photos(shared, heldout, args.screens)
    first = read(args.bin, [p for _, p, _ in items])
    crops = []  # (class key, crop path, truth)
    counts = {}
    for source, path, truth in items:
        right = solution(args.bin, truth)
        o = grid_of(first.get(str(path), []), truth)
        key = (source, "none", 0)
        counts.setdefault(key, []).append(outcome(o, right))
        if o is None or not o.get("quad") or right is None or counts[key][-1] != "solved":
            continue
        img = Image.open(path)
        img.load()
        for name, sides in SIDES.items():
            for inset in INSETS:
                box = crop_box(o["quad"], img.size, sides, inset)
                ext = ".png" if path.suffix == ".png" else ".jpg"
                stem = f"{path.stem}-{name.replace(' ', '').replace('+', '')}-{inset}"
                dest = out / source.replace(" ", "-") / f"{stem}{ext}"
                dest.parent.mkdir(parents=True, exist_ok=True)
                if not dest.exists():
                    c = img.crop(box)
                    if ext == ".jpg":
                        c.convert("RGB").save(dest, quality=95)
                    else:
                        c.save(dest)
                crops.append(((source, name, inset), dest, truth, right))
    second = read(args.bin, [d for _, d, _, _ in crops])
    for key, dest, truth, right in crops:
        counts.setdefault(key, []).append(outcome(grid_of(second.get(str(dest), []), truth), right))
    for (source, sides, inset), got in counts.items():
        print(json.dumps({
            "source": source, "sides": sides, "inset": inset, "grids": len(got),
            "solved": got.count("solved"), "unsure": got.count("unsure"),
            "partial": got.count("partial"), "verdict": got.count("verdict"), "other": got.count("other"),
            "wrong": got.count("wrong"),
        }))


if __name__ == "__main__":
    main()
