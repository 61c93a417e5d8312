#!/usr/bin/env python3
"""Typeset test pages for the grid locator, with known grid boxes.

Each page is a book or newspaper page: 2-8 Sudoku grids (puzzles with black
clues, or answer grids whose solution digits are light grey), drawn in one of
many styles (cell lines 0.7-2 px, box lines up to 4 px, digits 30-85 % of
the cell, a dozen Debian fonts, captions just under the grid), portrait or
landscape at 72-200 dpi, or a newspaper capture with grids 100-200 px wide
among columns of text. Beside the puzzles there may be things that are not
puzzles: an empty notes table, a crossword, a table of numbers, a faded
ornamental grid.

Pages are drawn at 4x and box-filtered down, so lines have the fractional
widths and anti-aliased edges of a rendered PDF.

Writes PAGE.png and PAGE.tsv (one object a line: kind x0 y0 x1 y1, the
outer edges of the object in page pixels; kind is puzzle, answer, notes,
crossword, table or faded) into the output folder.

    python3 models/eval/locate_pages.py OUT_DIR [--count 60] [--seed 1]

The locator is scored on them by the ignored test in
crates/vision/src/tests/locate_pages.rs.
"""

import argparse
import os
import random

from PIL import Image, ImageDraw, ImageFont

SS = 4  # supersampling factor
FONT_DIRS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf",
    "/usr/share/fonts/truetype/croscore/Arimo-Regular.ttf",
    "/usr/share/fonts/truetype/croscore/Tinos-Regular.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Bold.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Light.ttf",
]
FONTS = [f for f in FONT_DIRS if os.path.exists(f)]

_font_cache = {}


def font(path, px):
    key = (path, int(px))
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(path, max(4, int(px)))
    return _font_cache[key]


def text_line(d, x, y, width, height, rng, fill=0, fontpath=None):
    """A line of pseudo words at (x, y) (supersampled px), at most `width`."""
    fp = fontpath or rng.choice(FONTS)
    f = font(fp, height)
    words = []
    while True:
        w = "".join(rng.choice("abcdefghijklmnoprstuvwy") for _ in range(rng.randint(2, 9)))
        cand = " ".join(words + [w])
        if d.textlength(cand, font=f) > width:
            break
        words.append(w)
    if words:
        d.text((x, y), " ".join(words), font=f, fill=fill)


def rect(d, x0, y0, x1, y1, fill):
    d.rectangle([round(x0), round(y0), round(x1) - 1, round(y1) - 1], fill=fill)


def grid_lines(d, x0, y0, side, n, thin, thick, box, ink=0):
    """Lines of an n x n grid whose outer edges are x0..x0+side (SS px).
    Line j is centred on its cell boundary, the border lines inside."""
    cell = (side - thick) / n
    for j in range(n + 1):
        w = thick if (box and j % box == 0) or j in (0, n) else thin
        c = x0 + thick / 2 + j * cell
        rect(d, c - w / 2, y0, c + w / 2, y0 + side, ink)
        c = y0 + thick / 2 + j * cell
        rect(d, x0, c - w / 2, x0 + side, c + w / 2, ink)
    return cell


def sudoku(d, rng, x0, y0, side, style, answer):
    cell = grid_lines(d, x0, y0, side, 9, style["thin"], style["thick"], 3)
    f = font(style["font"], style["digit"] * cell * 1.35)
    clues = style["clues"]
    for r in range(9):
        for c in range(9):
            clue = rng.random() < clues
            if not clue and not answer:
                continue
            fill = 0 if clue else style["grey"]
            cx = x0 + style["thick"] / 2 + (c + 0.5) * cell
            cy = y0 + style["thick"] / 2 + (r + 0.5) * cell
            d.text((cx, cy), str(rng.randint(1, 9)), font=f, fill=fill, anchor="mm")


def crossword(d, rng, x0, y0, side, style):
    n = rng.choice([11, 13, 15])
    cell = grid_lines(d, x0, y0, side, n, style["thin"], style["thin"] * 1.5, 0)
    for r in range(n):
        for c in range(n):
            if rng.random() < 0.18:
                rect(d, x0 + c * cell + 1, y0 + r * cell + 1,
                     x0 + (c + 1) * cell + 2, y0 + (r + 1) * cell + 2, 0)
    f = font(style["font"], cell * 0.3)
    for _ in range(n * 2):
        r, c = rng.randrange(n), rng.randrange(n)
        d.text((x0 + c * cell + 3 * SS, y0 + r * cell + 2 * SS), str(rng.randint(1, 40)), font=f, fill=0)


def number_table(d, rng, x0, y0, side, style):
    rows, cols = rng.randint(6, 12), rng.randint(4, 7)
    h, w = side / rows, side / cols
    f = font(style["font"], h * 0.5)
    ruled = rng.random() < 0.5
    for r in range(rows):
        if ruled or r in (0, 1, rows):
            rect(d, x0, y0 + r * h, x0 + side, y0 + r * h + style["thin"], 0)
        for c in range(cols):
            d.text((x0 + c * w + w / 2, y0 + r * h + h / 2), str(rng.randint(1, 9999)), font=f, fill=0, anchor="mm")
    rect(d, x0, y0 + side, x0 + side, y0 + side + style["thin"], 0)
    if ruled:
        for c in range(cols + 1):
            rect(d, x0 + c * w, y0, x0 + c * w + style["thin"], y0 + side, 0)


def faded(d, rng, x0, y0, side, style):
    grey = rng.randint(205, 235)
    grid_lines(d, x0, y0, side, 9, style["thin"], style["thick"], 3, ink=grey)


def random_style(rng, px_per_mm):
    thin = rng.uniform(0.7, 2.0)
    thick = rng.choice([thin, rng.uniform(max(thin, 1.5), 4.0), rng.uniform(max(thin, 1.5), 4.0)])
    return {
        "thin": thin * SS,
        "thick": thick * SS,
        "digit": rng.uniform(0.3, 0.85),
        "font": rng.choice(FONTS),
        "grey": rng.randint(110, 190),
        "clues": rng.uniform(0.25, 0.45),
    }


def page(rng, idx):
    kind = rng.random()
    if kind < 0.25:
        # Newspaper capture: small grids among text columns.
        w, h = rng.randint(1200, 2200), rng.randint(1400, 2600)
        ngrids = rng.randint(2, 5)
        side_range = (100, 200)
        news = True
    else:
        dpi = rng.randint(72, 200)
        wi, hi = rng.choice([(8.5, 11), (8.27, 11.69), (6, 9), (5.5, 8.5)])
        if rng.random() < 0.4:
            wi, hi = hi, wi
        w, h = int(wi * dpi), int(hi * dpi)
        ngrids = rng.randint(2, 8)
        side_range = None
        news = False
    W, H = w * SS, h * SS
    img = Image.new("L", (W, H), 255)
    d = ImageDraw.Draw(img)
    style = random_style(rng, 1)
    objs = []
    answer = (not news) and rng.random() < 0.3
    notes = (not news) and rng.random() < 0.25
    extra = rng.choice([None, None, "crossword", "table", "faded"])
    slots = ngrids * (2 if notes else 1) + (1 if extra else 0)
    # Layout: a rows x cols table of slots filling the page below a heading.
    margin = 0.06 * min(W, H)
    top = margin + 0.05 * H
    best = None
    for cols in range(1, slots + 1):
        rows = -(-slots // cols)
        cw, ch = (W - 2 * margin) / cols, (H - top - margin) / rows
        s = min(cw, ch * 0.88)
        if best is None or s > best[0]:
            best = (s, rows, cols, cw, ch)
    s, rows, cols, cw, ch = best
    fill = rng.uniform(0.65, 0.92)
    side = s * fill
    if side_range:
        side = min(side, rng.uniform(*side_range) * SS)
    text_line(d, margin, margin, W - 2 * margin, 0.025 * H, rng)
    kinds = []
    for _ in range(ngrids):
        kinds.append("answer" if answer else "puzzle")
        if notes:
            kinds.append("notes")
    if extra:
        kinds.insert(rng.randrange(len(kinds) + 1), extra)
    cap_font = rng.choice(FONTS)
    for k, kd in enumerate(kinds):
        r, c = divmod(k, cols)
        sx = margin + c * cw + (cw - side) / 2 + rng.uniform(-0.03, 0.03) * cw * (1 - fill)
        sy = top + r * ch + (ch * 0.88 - side) / 2
        x0, y0 = round(sx), round(sy)
        side_i = round(side / SS) * SS
        if kd in ("puzzle", "answer"):
            sudoku(d, rng, x0, y0, side_i, style, kd == "answer")
        elif kd == "notes":
            grid_lines(d, x0, y0, side_i, 9, style["thin"], style["thick"], 3)
        elif kd == "crossword":
            crossword(d, rng, x0, y0, side_i, style)
        elif kd == "table":
            number_table(d, rng, x0, y0, side_i, style)
        elif kd == "faded":
            faded(d, rng, x0, y0, side_i, style)
        objs.append((kd, x0 / SS, y0 / SS, (x0 + side_i) / SS, (y0 + side_i) / SS))
        # Caption just under the object.
        gap = rng.uniform(1, 6) * SS
        text_line(d, x0, y0 + side_i + gap, side_i * 0.6, max(9 * SS, side_i * 0.045), rng, fontpath=cap_font)
    if news:
        # Text columns in the free space: lines of words wherever no object is.
        lh = rng.randint(9, 14) * SS
        ncol = rng.randint(3, 5)
        colw = (W - 2 * margin) / ncol
        for ci in range(ncol):
            cx0 = margin + ci * colw
            y = top
            while y + lh < H - margin:
                box = (cx0, y, cx0 + colw * 0.92, y + lh)
                clear = all(box[2] < o[1] * SS - 8 * SS or box[0] > o[3] * SS + 8 * SS
                            or box[3] < o[2] * SS - 8 * SS or box[1] > o[4] * SS + 20 * SS for o in objs)
                if clear:
                    text_line(d, box[0], box[1], box[2] - box[0], lh * 0.7, rng)
                y += lh * 1.25
    out = img.resize((w, h), Image.BOX)
    return out, objs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    for i in range(a.count):
        img, objs = page(rng, i)
        stem = os.path.join(a.out, f"page{i:03d}")
        img.save(stem + ".png")
        with open(stem + ".tsv", "w") as f:
            for kd, x0, y0, x1, y1 in objs:
                f.write(f"{kd}\t{x0:.1f}\t{y0:.1f}\t{x1:.1f}\t{y1:.1f}\n")


if __name__ == "__main__":
    main()
