#!/usr/bin/env python3
"""Makes photos of crowded newspaper pages for the page search, and scores
the reader on them.

Each page is a newspaper's puzzle page: a headline, columns of text, the
day's 9x9 puzzle (large), yesterday's printed solution grid (a smaller 9x9,
every cell a digit) below or beside it, a crossword (black and white cells,
small clue numbers) and a table of numbers (a results or tide table, ruled),
photographed at an angle: perspective, a lighting gradient, blur, sensor
noise and JPEG. On some pages the photo is framed so that the small
solution grid is cut by the image's edge.

Each page's two grids are its own puzzles: `sudoku-snap generate --seed S`
with S = the page's seed (the day's puzzle) and S + 500000 (yesterday's),
so pages of disjoint seed ranges share no puzzle. Seeds 0-99 are for
tuning; the held-out seeds (from 1000) are never tuned on.

    models/eval/crowded_pages.py make OUT_DIR FIRST_SEED COUNT [--bin BIN]
    models/eval/crowded_pages.py score OUT_DIR [--bin BIN] [--json]

`make` writes OUT_DIR/crowd-SEED.jpg and OUT_DIR/crowd-SEED.truth.json (the
puzzle, its solution, yesterday's solution, whether the small grid is cut,
and the outline of each object in photo pixels). `score` reads every photo
with `sudoku-snap --json --no-image` and counts, per page: the large
puzzle found and solved right, the solution grid reported (complete, or
partial when cut), unsure, wrong answers (a grid whose solution or
reported digits disagree with the truth), false verdicts (the puzzle
reported with no solution or several: each page's has one), and answers
given on the crossword or the table (never right).
"""
import argparse
import json
import os
import random
import subprocess
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pen_photos import perspective

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FONTS = [f for f in (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "/usr/share/fonts/truetype/croscore/Arimo-Regular.ttf",
    "/usr/share/fonts/truetype/croscore/Tinos-Regular.ttf",
) if os.path.exists(f)]
# Seeds of yesterday's puzzle are the page's plus this: far past any range
# of page seeds, so no puzzle is both a page's and another page's yesterday.
YESTERDAY = 500000

_fonts = {}


def font(path, px):
    key = (path, int(px))
    if key not in _fonts:
        _fonts[key] = ImageFont.truetype(path, max(6, int(px)))
    return _fonts[key]


def generated(bin_path, seed):
    out = subprocess.run([bin_path, "generate", "--seed", str(seed), "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[0])


def text_block(d, x0, y0, x1, y1, rng, fp, size):
    """Lines of pseudo words filling the box."""
    f = font(fp, size)
    y = y0
    while y + size <= y1:
        words, x = [], x0
        line = ""
        while True:
            w = "".join(rng.choice("abcdefghilmnoprstuvwy") for _ in range(rng.randint(2, 9)))
            cand = (line + " " + w).strip()
            if d.textlength(cand, font=f) > x1 - x0:
                break
            line = cand
        d.text((x0, y), line, font=f, fill=25)
        y += int(size * 1.35)


def sudoku(d, x0, y0, side, digits, rng, fp, thin, thick, scale):
    """A 9x9 grid with `digits` (81 chars, '.' empty) in the box."""
    cell = side / 9
    f = font(fp, cell * scale)
    for i, ch in enumerate(digits):
        if ch in "123456789":
            r, c = divmod(i, 9)
            cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
            d.text((cx, cy), ch, font=f, fill=10, anchor="mm")
    for k in range(10):
        w = thick if k % 3 == 0 else thin
        p = x0 + k * cell
        d.rectangle([p - w / 2, y0 - thick / 2, p + w / 2, y0 + side + thick / 2], fill=0)
        p = y0 + k * cell
        d.rectangle([x0 - thick / 2, p - w / 2, x0 + side + thick / 2, p + w / 2], fill=0)


def crossword(d, x0, y0, side, n, rng, fp):
    cell = side / n
    black = [[rng.random() < 0.18 for _ in range(n)] for _ in range(n)]
    for r in range(n):  # rotationally symmetric, as printed crosswords are
        for c in range(n):
            black[n - 1 - r][n - 1 - c] = black[r][c]
    f = font(fp, cell * 0.3)
    num = 1
    for r in range(n):
        for c in range(n):
            x, y = x0 + c * cell, y0 + r * cell
            if black[r][c]:
                d.rectangle([x, y, x + cell, y + cell], fill=0)
            elif (c == 0 or black[r][c - 1] or r == 0 or black[r - 1][c]):
                d.text((x + 2, y + 1), str(num), font=f, fill=0)
                num += 1
    for k in range(n + 1):
        p = x0 + k * cell
        d.line([p, y0, p, y0 + side], fill=0, width=2)
        p = y0 + k * cell
        d.line([x0, p, x0 + side, p], fill=0, width=2)


def number_table(d, x0, y0, w, h, rng, fp):
    rows, cols = rng.randint(8, 14), rng.randint(4, 7)
    rh, cw = h / rows, w / cols
    f = font(fp, rh * 0.55)
    for r in range(rows):
        for c in range(cols):
            v = str(rng.randint(0, 99)) if c else "".join(rng.choice("abcdeklmnrst") for _ in range(5))
            d.text((x0 + c * cw + 4, y0 + r * rh + rh * 0.2), v, font=f, fill=20)
        d.line([x0, y0 + r * rh, x0 + w, y0 + r * rh], fill=0, width=1 if r else 3)
    d.line([x0, y0 + h, x0 + w, y0 + h], fill=0, width=3)
    if rng.random() < 0.5:
        for c in range(cols + 1):
            d.line([x0 + c * cw, y0, x0 + c * cw, y0 + h], fill=0, width=1)


def page(rng, today, yesterday):
    """The page (L image) and the objects' boxes in page pixels."""
    W, H = 1600, 2200
    img = Image.new("L", (W, H), rng.randint(225, 245))
    d = ImageDraw.Draw(img)
    fp = rng.choice(FONTS)
    d.text((60, 40), "".join(rng.choice("ABCDEFGHIKLMNOPRSTU ") for _ in range(18)),
           font=font(FONTS[2] if len(FONTS) > 2 else fp, 80), fill=0)
    d.rectangle([60, 140, W - 60, 146], fill=0)
    boxes = {}
    side = rng.randint(620, 760)
    thin, thick = rng.uniform(1.5, 3), rng.uniform(4, 7)
    px, py = 60 + rng.randint(0, 40), 190 + rng.randint(0, 30)
    left_text = rng.random() < 0.5
    if left_text:
        px = W - 60 - side
        text_block(d, 60, 190, px - rng.randint(12, 60), 190 + side, rng, fp, 22)
    else:
        text_block(d, px + side + rng.randint(12, 60), 190, W - 60, 190 + side, rng, fp, 22)
    sudoku(d, px, py, side, today["givens"], rng, fp, thin, thick, rng.uniform(0.55, 0.75))
    boxes["puzzle"] = (px, py, px + side, py + side)
    d.text((px, py + side + 8), "Today's puzzle No. %d" % rng.randint(100, 999),
           font=font(fp, 24), fill=0)
    # Below: yesterday's solution (small), a crossword and a number table,
    # in a shuffled order along the row.
    small = rng.randint(220, 330)
    cw_side = rng.randint(400, 520)
    tw, th = rng.randint(300, 420), rng.randint(300, 460)
    y2 = py + side + 60
    order = ["solution", "crossword", "table"]
    rng.shuffle(order)
    x = 60
    for what in order:
        if what == "solution":
            d.text((x, y2), "Yesterday's solution", font=font(fp, 22), fill=0)
            sudoku(d, x, y2 + 34, small, yesterday["solution"], rng, fp, 1.2, 3,
                   rng.uniform(0.55, 0.7))
            boxes["solution"] = (x, y2 + 34, x + small, y2 + 34 + small)
            x += small + 50
        elif what == "crossword":
            n = rng.choice([11, 13, 15])
            crossword(d, x, y2 + 34, cw_side, n, rng, fp)
            boxes["crossword"] = (x, y2 + 34, x + cw_side, y2 + 34 + cw_side)
            x += cw_side + 50
        else:
            number_table(d, x, y2 + 34, tw, th, rng, fp)
            boxes["table"] = (x, y2 + 34, x + tw, y2 + 34 + th)
            x += tw + 50
    if x < W - 200:
        text_block(d, x, y2, W - 60, y2 + 500, rng, fp, 20)
    # Newspaper furniture that touches or nearly touches the grids: a ruled
    # panel round the puzzle and yesterday's solution, column rules
    # between the text and the grids.
    if rng.random() < 0.5:
        gap = rng.randint(8, 24)
        sx0, sy0, sx1, sy1 = boxes["solution"]
        d.rectangle([min(px, sx0) - gap, py - gap - 10, px + side + gap,
                     max(sy1, py + side) + gap], outline=0, width=rng.randint(2, 5))
    if rng.random() < 0.5:
        rx = px - rng.randint(10, 25) if left_text else px + side + rng.randint(10, 25)
        d.rectangle([rx, 150, rx + 2, y2 - 10], fill=0)
    text_block(d, 60, y2 + 34 + max(small, cw_side, th) + 40, W - 60, H - 60, rng, fp, 20)
    return img, boxes


def photograph(img, boxes, rng, cut):
    """The page photographed at an angle: the source quad (page pixels) seen
    as the whole photo. With `cut`, the frame runs through the solution
    grid."""
    W, H = img.size
    sx0, sy0, sx1, sy1 = boxes["solution"]
    # The region photographed: the whole page with a margin of table, or,
    # to cut the solution grid, a frame edge through it.
    x0, y0, x1, y1 = -60.0, -60.0, W + 60.0, H + 60.0
    if cut:
        # The frame's edge cuts off a tenth to nearly half of the small grid: from
        # the left when it is at the page's left and the puzzle is not,
        # else from below (the puzzle is above it).
        f = rng.uniform(0.55, 0.92)
        from_left = sx0 < 150 and boxes["puzzle"][0] > sx1 + 100
        if from_left:
            x0 = sx0 + f * (sx1 - sx0)
        else:
            y1 = sy0 + f * (sy1 - sy0)
    else:
        y1 = min(y1, max(boxes["solution"][3], boxes.get("crossword", (0, 0, 0, 0))[3]) + 300)
    bw, bh = x1 - x0, y1 - y0
    j = 0.06
    # The corners pushed out (never in: the puzzle stays whole), each its
    # own way, for the angle.
    src = [(x0 - rng.uniform(0, j) * bw, y0 - rng.uniform(0, j) * bh),
           (x1 + rng.uniform(0, j) * bw, y0 - rng.uniform(0, j) * bh),
           (x1 + rng.uniform(0, j) * bw, y1 + rng.uniform(0, j) * bh),
           (x0 - rng.uniform(0, j) * bw, y1 + rng.uniform(0, j) * bh)]
    if cut:  # the cutting edge stays where it was put
        if from_left:
            src[0], src[3] = (x0, src[0][1]), (x0, src[3][1])
        else:
            src[2], src[3] = (src[2][0], y1), (src[3][0], y1)
    out_w = rng.choice([1600, 2000, 2400])
    out_h = int(out_w * bh / bw)
    dst = [(0, 0), (out_w, 0), (out_w, out_h), (0, out_h)]
    bg = Image.new("L", (W + 800, H + 800), rng.randint(60, 140))
    bg.paste(img, (400, 400))
    shifted = [(x + 400, y + 400) for x, y in src]
    coeffs = perspective(shifted, dst)
    photo = bg.transform((out_w, out_h), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    photo = photo.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 1.6)))
    a = np.asarray(photo, dtype=np.float32)
    yy, xx = np.mgrid[0:out_h, 0:out_w]
    ang = rng.uniform(0, 6.3)
    light = 0.75 + 0.25 * (np.cos(ang) * xx / out_w + np.sin(ang) * yy / out_h)
    noise = np.random.default_rng(rng.randint(0, 1 << 30)).normal(0, rng.uniform(2, 5), a.shape)
    a = np.clip(a * light * rng.uniform(0.85, 1.05) + noise, 0, 255).astype(np.uint8)
    tint = [rng.uniform(0.9, 1.05) for _ in range(3)]
    rgb = np.stack([np.clip(a * t, 0, 255) for t in tint], axis=2).astype(np.uint8)
    # Each object's outline in photo pixels.
    inv = np.linalg.inv(np.array(list(coeffs) + [1.0]).reshape(3, 3))
    placed = {}
    for k, (bx0, by0, bx1, by1) in boxes.items():
        pts = []
        for x, y in ((bx0, by0), (bx1, by0), (bx1, by1), (bx0, by1)):
            u, v, w = inv @ np.array([x + 400, y + 400, 1.0])
            pts.append((round(u / w, 1), round(v / w, 1)))
        placed[k] = pts
    return Image.fromarray(rgb), placed


def make(args):
    os.makedirs(args.out, exist_ok=True)
    for seed in range(args.first, args.first + args.count):
        rng = random.Random(seed)
        today = generated(args.bin, seed)
        yesterday = generated(args.bin, seed + YESTERDAY)
        img, boxes = page(rng, today, yesterday)
        cut = rng.random() < 0.35
        photo, placed = photograph(img, boxes, rng, cut)
        name = f"crowd-{seed}"
        photo.save(os.path.join(args.out, name + ".jpg"), quality=rng.randint(70, 92))
        truth = {"givens": today["givens"], "solution": today["solution"],
                 "yesterday": yesterday["solution"], "cut": cut, "outlines": placed}
        with open(os.path.join(args.out, name + ".truth.json"), "w") as f:
            json.dump(truth, f)
    print(f"{args.out}: {args.count} pages, seeds {args.first}-{args.first + args.count - 1}")


def inside(pt, quad):
    """Whether `pt` is inside the convex quad."""
    x, y = pt
    sign = 0
    for i in range(4):
        (ax, ay), (bx, by) = quad[i], quad[(i + 1) % 4]
        c = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if c != 0:
            if sign == 0:
                sign = 1 if c > 0 else -1
            elif (c > 0) != (sign > 0):
                return False
    return True


def centre(quad):
    return (sum(p[0] for p in quad) / 4, sum(p[1] for p in quad) / 4)


def score(args):
    names = sorted(f[:-len(".jpg")] for f in os.listdir(args.out) if f.endswith(".jpg"))
    paths = [os.path.join(args.out, n + ".jpg") for n in names]
    out = subprocess.run(["nice", args.bin, "--json", "--no-image"] + paths,
                         capture_output=True, text=True).stdout
    by_file = {}
    for line in out.splitlines():
        v = json.loads(line)
        by_file.setdefault(os.path.basename(v.get("path") or "").split(".")[0], []).append(v)
    t = dict(pages=0, cut_pages=0, puzzle_found=0, solved_right=0, unsure=0, other=0,
             false_verdicts=0,
             solution_complete=0, solution_partial=0, solution_missed=0,
             wrong_answers=0, crossword_or_table_answered=0)
    rows = []
    for n in names:
        truth = json.load(open(os.path.join(args.out, n + ".truth.json")))
        t["pages"] += 1
        t["cut_pages"] += truth["cut"]
        grids = by_file.get(n, [])
        got = {"puzzle": None, "solution": None}
        for g in grids:
            corners = g.get("quad")
            where = None
            if corners:
                c = centre([tuple(p) for p in corners])
                for k, q in truth["outlines"].items():
                    if inside(c, q):
                        where = k
            status = g.get("status")
            if where in ("crossword", "table"):
                if status in ("solved", "complete", "unsure", "no_solution"):
                    t["crossword_or_table_answered"] += 1
                continue
            if where == "puzzle":
                got["puzzle"] = status
                if status == "solved" and g.get("solution") != truth["solution"]:
                    t["wrong_answers"] += 1
                if status == "solved" and g.get("solution") == truth["solution"]:
                    t["solved_right"] += 1
            elif where == "solution":
                got["solution"] = status
                if status == "complete" and g.get("givens") != truth["yesterday"]:
                    t["wrong_answers"] += 1
                if status == "solved":  # an answer grid never needs solving
                    t["wrong_answers"] += 1
        if got["puzzle"] is not None:
            t["puzzle_found"] += 1
            if got["puzzle"] == "unsure":
                t["unsure"] += 1
            elif got["puzzle"] != "solved":
                t["other"] += 1
            # Every page's puzzle has one solution: saying it has none or
            # several is a false verdict.
            if got["puzzle"] in ("no_solution", "multiple_solutions"):
                t["false_verdicts"] += 1
        s = got["solution"]
        if s == "complete":
            t["solution_complete"] += 1
        elif s == "partial":
            t["solution_partial"] += 1
        elif s is None:
            t["solution_missed"] += 1
        rows.append((n, truth["cut"], got["puzzle"], s, len(grids)))
    if args.json:
        print(json.dumps(t))
    else:
        for r in rows:
            print("\t".join(map(str, r)))
        print(json.dumps(t))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make")
    m.add_argument("out")
    m.add_argument("first", type=int)
    m.add_argument("count", type=int)
    s = sub.add_parser("score")
    s.add_argument("out")
    s.add_argument("--json", action="store_true")
    for p in (m, s):
        p.add_argument("--bin", default=os.environ.get(
            "SUDOKU_SNAP", os.path.join(ROOT, "target/release/sudoku-snap")))
    args = ap.parse_args()
    make(args) if args.cmd == "make" else score(args)


if __name__ == "__main__":
    sys.exit(main())
