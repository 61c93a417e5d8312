#!/usr/bin/env python3
"""Reads the grids of the puzzle-book PDFs (../shared/fixtures/pdf) with the
release binary and scores every cell against the books' truth files.

Each page is rendered with pdftoppm (150 dpi, the reader's default PDF
resolution), each truth grid is cut out with a margin around its box and read
on its own (`sudoku-snap read --json`, which reads one grid per image), so the
figures measure the cell model on book pages, not the page-level grid search
(`cargo test -p snap-vision --test pdf` covers that). These books are held out:
never train on them.

Per book: grids read, cells right, cells unsure (flagged by the reader; fine),
cells confidently wrong (read, not flagged, not the truth: the number that
matters), grids read fully right (and of them those with no cell unsure),
and wrong answers (a solution that is not
the book's).

Usage, from the repository root after `cargo build --release`:
    python3 models/eval/pdf_books.py [--model PATH] [--pages N] [--dpi D]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOOKS = ("postonwj_puzzles", "postonwj_sudoku_easy_section", "knosmos_res")
# Points of page around a truth box: the grid's border and some paper, as a
# photo of one grid would have.
MARGIN_PT = 12.0
POINTS_PER_INCH = 72.0


def truth(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            page, idx, bbox, kind, _label, grid, _nsol, solution, _printed = \
                line.rstrip("\n").split("\t")
            # a printed answer grid (kind "full") is its own solution
            rows.append({"page": int(page), "idx": int(idx), "kind": kind, "grid": grid,
                         "solution": solution or grid, "bbox": [float(v) for v in bbox.split(",")]})
    return rows


def cell_index(name):
    """'r3c7' -> 20."""
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=None, help="ONNX cell model (default: the embedded one)")
    ap.add_argument("--pages", type=int, default=0, help="only the first N pages of each book")
    ap.add_argument("--dpi", type=float, default=150.0)
    ap.add_argument("--books", default=os.path.join(ROOT, "..", "shared", "fixtures", "pdf"))
    ap.add_argument("--bin", default=os.environ.get(
        "SUDOKU_SNAP", os.path.join(ROOT, "target", "release", "sudoku-snap")))
    ap.add_argument("--verbose", action="store_true", help="print every grid not read right")
    a = ap.parse_args()
    from PIL import Image

    totals = {}
    with tempfile.TemporaryDirectory() as tmp:
        for book in BOOKS:
            pdf = os.path.join(a.books, book + ".pdf")
            rows = truth(os.path.join(a.books, book + ".truth.tsv"))
            if a.pages:
                rows = [t for t in rows if t["page"] <= a.pages]
            crops = []
            for page in sorted({t["page"] for t in rows}):
                prefix = os.path.join(tmp, f"{book}-{page}")
                subprocess.run(["pdftoppm", "-r", str(a.dpi), "-f", str(page), "-l", str(page),
                                "-singlefile", "-gray", "-png", pdf, prefix], check=True)
                img = Image.open(prefix + ".png")
                s = a.dpi / POINTS_PER_INCH
                for t in rows:
                    if t["page"] != page:
                        continue
                    x0, y0, x1, y1 = t["bbox"]
                    box = tuple(int(round(v * s)) for v in
                                (x0 - MARGIN_PT, y0 - MARGIN_PT, x1 + MARGIN_PT, y1 + MARGIN_PT))
                    crop = f"{prefix}-{t['idx']}.png"
                    img.crop(box).save(crop)
                    crops.append((crop, t))
            cmd = [a.bin, "read", "--json"] + (["--model", a.model] if a.model else [])
            out = subprocess.run(cmd + [c for c, _ in crops], capture_output=True, text=True)
            results = {}
            for line in out.stdout.splitlines():
                j = json.loads(line)
                results[j["path"]] = j
            n = {"grids": len(crops), "read": 0, "cells": 0, "right": 0, "unsure": 0,
                 "wrong": 0, "grids_right": 0, "grids_sure": 0, "solved": 0, "wrong_answers": 0}
            for crop, t in crops:
                j = results.get(crop)
                n["cells"] += 81
                if not j or not j.get("read"):
                    if a.verbose:
                        print(f"  {book} p{t['page']} #{t['idx']}: no grid "
                              f"({(j or {}).get('error')})")
                    continue
                n["read"] += 1
                got, want = j["read"], t["grid"]
                unsure = {cell_index(c) for c in j.get("unsure", [])}
                bad = [i for i in range(81) if got[i] != want[i]]
                n["right"] += 81 - len(bad)
                n["unsure"] += len(unsure)
                wrong = [i for i in bad if i not in unsure]
                n["wrong"] += len(wrong)
                n["grids_right"] += not bad
                n["grids_sure"] += not bad and not unsure
                if j.get("solution"):
                    n["solved"] += 1
                    n["wrong_answers"] += j["solution"] != t["solution"]
                if a.verbose and (bad or unsure):
                    print(f"  {book} p{t['page']} #{t['idx']}: status {j['status']}, "
                          f"wrong {[f'r{i // 9 + 1}c{i % 9 + 1} {want[i]}->{got[i]}' for i in wrong]}, "
                          f"unsure {len(unsure)}")
            totals[book] = n
            print(f"{book}: grids read {n['read']}/{n['grids']}, cells right "
                  f"{n['right']}/{n['cells']}, unsure {n['unsure']}, confidently wrong "
                  f"{n['wrong']}, grids fully right {n['grids_right']} (of them none unsure "
                  f"{n['grids_sure']}), "
                  f"solved {n['solved']}, wrong answers {n['wrong_answers']}", flush=True)
    json.dump(totals, sys.stdout)
    print()


if __name__ == "__main__":
    main()
