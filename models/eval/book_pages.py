#!/usr/bin/env python3
"""Held-out book pages, scanned or photographed, with ground truth, for
`sudoku-snap eval` (issue 10, "Measure it").

Writes page images and a `<stem>.truth.tsv` beside each (the format of
../shared/fixtures/pdf, boxes in pixels of the image) into four folders of
OUT, one per source kind, so that eval's figures can be told apart:

  ours/     clean renders (150-200 dpi) of books made by `sudoku-snap generate
            --pdf`: puzzle pages of six, answer pages of twelve printed answers.
  shared/   clean renders of pages of the shared books (../shared/fixtures/pdf),
            boxes from their truth files (points to pixels). Reporting only.
  compose/  pages drawn here: 2-8 grids a page in many styles (Debian fonts,
            digits 30-80 % of a cell, line widths, grey answer digits, shaded
            boxes), beside empty notes tables, faded ornamental grids,
            crosswords, tables of numbers and running text; grids from ~100 px
            wide (a newspaper page) to most of the page.
  capture/  every page above "printed and photographed" in simulation:
            show-through of another page, paper tint, page curl, perspective
            (mild to strong), a shadow, blur, sensor noise, 1-12 MP, JPEG
            quality 60-90. The truth boxes go through the same transform (the
            axis-aligned box of points sampled along the warped grid border).

Grids that must NOT be reported (notes tables, ornaments, crosswords, tables)
have no truth row: a grid reported there is a false grid.

Everything is seeded (`--seed`): the same seed and binary give the same set.
The puzzles come from the binary's generator (unique, minimal), so a
composition may also carry a puzzle with one clue taken away (several
solutions: any answer shown for it is wrong).

Usage, from the repository root after `cargo build --release`:

    python3 models/eval/book_pages.py make target/book-pages
    python3 models/eval/book_pages.py eval target/book-pages     # figures per kind
    python3 models/eval/book_pages.py sizes target/book-pages    # the same by grid size
    python3 models/eval/book_pages.py misreads target/book-pages/capture/cap-comp-001-grid.jpg
    ./target/release/sudoku-snap eval target/book-pages/capture  # eval's own text

Generated images are not committed (target/ is ignored).
"""
import argparse
import glob
import json
import math
import os
import random
import subprocess
import sys
import tempfile

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED_PDF = os.path.join(ROOT, "..", "shared", "fixtures", "pdf")
KINDS = ("ours", "shared", "compose", "capture")
POINTS_PER_INCH = 72.0
TRUTH_HEADER = ("# page\tidx\tbbox_px(x0,y0,x1,y1 from top-left)\tkind\tlabel\t"
                "clues_or_grid\tnsol\tsolution\tsolution_printed\n")

# src/book.rs layout, in points (A4): where `generate --pdf` puts its grids.
# Mirrored here rather than detected so the truth does not depend on a
# detector; `check_boxes` verifies every box against the render's ink.
BOOK_PAGE_W, BOOK_PAGE_H = 595.28, 841.89
BOOK_MARGIN, BOOK_HEADER, BOOK_FOOTER, BOOK_LABEL = 48.0, 24.0, 20.0, 16.0
BOOK_PUZZLES_A_PAGE = (2, 3)   # columns, rows
BOOK_ANSWERS_A_PAGE = (3, 4)
# Half the bold border (2 pt) added around a book grid's box.
BOOK_BORDER_PT = 1.0

# Digit fonts for compositions (Debian packages fonts-dejavu, fonts-croscore,
# fonts-crosextra-*, fonts-urw-base35, fonts-go, fonts-linuxlibertine,
# fonts-cantarell); the ones missing on a machine are skipped.
DIGIT_FONTS = (
    "truetype/dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSans-Bold.ttf",
    "truetype/dejavu/DejaVuSerif.ttf", "truetype/dejavu/DejaVuSansMono.ttf",
    "truetype/croscore/Arimo-Regular.ttf", "truetype/croscore/Arimo-Bold.ttf",
    "truetype/croscore/Tinos-Regular.ttf", "truetype/croscore/Cousine-Regular.ttf",
    "truetype/crosextra/Carlito-Regular.ttf", "truetype/crosextra/Caladea-Bold.ttf",
    "opentype/urw-base35/NimbusSans-Regular.otf", "opentype/urw-base35/NimbusSans-Bold.otf",
    "opentype/urw-base35/NimbusRoman-Regular.otf", "opentype/urw-base35/C059-Roman.otf",
    "opentype/urw-base35/P052-Bold.otf", "opentype/urw-base35/URWGothic-Book.otf",
    "opentype/urw-base35/URWBookman-Light.otf", "opentype/urw-base35/NimbusMonoPS-Bold.otf",
    "fonts-go/Go-Regular.ttf", "fonts-go/Go-Bold.ttf", "fonts-go/Go-Mono.ttf",
    "opentype/linux-libertine/LinBiolinum_R.otf", "opentype/linux-libertine/LinLibertine_R.otf",
    "opentype/cantarell/Cantarell-Regular.otf",
)
TEXT_FONTS = ("truetype/dejavu/DejaVuSerif.ttf", "opentype/urw-base35/NimbusRoman-Regular.otf",
              "truetype/croscore/Tinos-Regular.ttf", "truetype/dejavu/DejaVuSans.ttf")
WORDS = ("the of and puzzle number grid each row column box must contain digits one nine "
         "only once solve today weekend edition page easy hard fiendish answer yesterday "
         "council weather market report city news sport league club season results "
         "tuesday local road school plan vote price shares index").split()


def font_paths(names):
    found = [os.path.join("/usr/share/fonts", n) for n in names]
    found = [p for p in found if os.path.exists(p)]
    if not found:
        sys.exit("no fonts found under /usr/share/fonts (apt-get install fonts-dejavu)")
    return found


# ---------------------------------------------------------------- truth


def grid_row(page, bbox, kind, label, grid, solution, nsol="1", printed="no"):
    return {"page": page, "bbox": [float(v) for v in bbox], "kind": kind, "label": label,
            "grid": grid, "nsol": nsol, "solution": solution, "printed": printed}


def write_truth(path, rows):
    """Rows in reading order (top to bottom in bands, then left to right)."""
    def key(r):
        x0, y0, x1, y1 = r["bbox"]
        return (r["page"], round(y0 / max(y1 - y0, 1.0)), x0)
    with open(path, "w") as f:
        f.write(TRUTH_HEADER)
        for idx, r in enumerate(sorted(rows, key=key), 1):
            box = ",".join(f"{v:.1f}" for v in r["bbox"])
            f.write(f"{r['page']}\t{idx}\t{box}\t{r['kind']}\t{r['label']}\t{r['grid']}\t"
                    f"{r['nsol']}\t{r['solution']}\t{r['printed']}\n")


def read_truth(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            page, _idx, bbox, kind, label, grid, nsol, solution, printed = \
                line.rstrip("\n").split("\t")
            rows.append(grid_row(int(page), bbox.split(","), kind, label, grid, solution,
                                 nsol, printed))
    return rows


def check_boxes(image, rows, name):
    """Every truth box must have a dark border on all four sides: a box off
    by more than the border's width fails here rather than in eval."""
    gray = np.asarray(image.convert("L"), dtype=np.float32)
    for r in rows:
        x0, y0, x1, y1 = (int(round(v)) for v in r["bbox"])
        pad = max(3, (x1 - x0) // 60)
        sides = (gray[y0 - pad:y0 + pad, x0:x1], gray[y1 - pad:y1 + pad, x0:x1],
                 gray[y0:y1, x0 - pad:x0 + pad], gray[y0:y1, x1 - pad:x1 + pad])
        # The darkest line across each band must be mostly ink.
        dark = [min(np.median(s, axis=1 if i < 2 else 0)) for i, s in enumerate(sides)]
        if max(dark) > 128:
            sys.exit(f"{name}: truth box {r['bbox']} has no border under it ({dark})")


# ---------------------------------------------------------------- puzzles


class Puzzles:
    """Unique minimal puzzles from the binary's generator, handed out in
    order (deterministic for a seed)."""

    def __init__(self, binary, seed, count):
        out = subprocess.run([binary, "generate", "--count", str(count), "--seed", str(seed),
                              "--json"], check=True, capture_output=True, text=True).stdout
        self.items = [json.loads(line) for line in out.splitlines() if line.strip()]
        self.next = 0

    def take(self):
        p = self.items[self.next % len(self.items)]
        self.next += 1
        return p["givens"], p["solution"]


def several_solutions(givens, rng):
    """A minimal puzzle with one clue taken away has several solutions."""
    clues = [i for i, c in enumerate(givens) if c != "."]
    i = rng.choice(clues)
    return givens[:i] + "." + givens[i + 1:]


# ---------------------------------------------------------------- ours and shared


def render_pdf(pdf, page, dpi, prefix):
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page),
                    "-singlefile", "-png", pdf, prefix], check=True)
    return Image.open(prefix + ".png").convert("RGB")


def book_boxes(cols, rows, count):
    """Grid boxes (points, top-left origin) of one page of src/book.rs."""
    top = BOOK_PAGE_H - BOOK_MARGIN - BOOK_HEADER
    bottom = BOOK_MARGIN + BOOK_FOOTER
    cell_w = (BOOK_PAGE_W - 2 * BOOK_MARGIN) / cols
    cell_h = (top - bottom) / rows
    side = min(cell_w * 0.9, (cell_h - BOOK_LABEL) * 0.9)
    boxes = []
    for i in range(count):
        col, row = i % cols, i // cols
        x = BOOK_MARGIN + cell_w * col + (cell_w - side) / 2
        grid_top = top - cell_h * row - BOOK_LABEL - (cell_h - BOOK_LABEL - side) / 2
        y = BOOK_PAGE_H - grid_top
        b = BOOK_BORDER_PT
        boxes.append((x - b, y - b, x + side + b, y + side + b))
    return boxes


def make_ours(out, binary, seed, books, tmp):
    """Books of 24 puzzles: 4 puzzle pages then 2 answer pages each."""
    made = []
    for b in range(books):
        rng = random.Random(f"{seed}-ours-{b}")
        book_seed = seed * 1000 + b
        pdf = os.path.join(tmp, f"ours{b}.pdf")
        text = subprocess.run([binary, "generate", "--count", "24", "--seed", str(book_seed),
                               "--json", "--pdf", pdf, "--force"],
                              check=True, capture_output=True, text=True).stdout
        puzzles = [json.loads(line) for line in text.splitlines() if line.strip()]
        per_puzzle_page = BOOK_PUZZLES_A_PAGE[0] * BOOK_PUZZLES_A_PAGE[1]
        per_answer_page = BOOK_ANSWERS_A_PAGE[0] * BOOK_ANSWERS_A_PAGE[1]
        pages = []
        for start in range(0, len(puzzles), per_puzzle_page):
            pages.append(("puzzle", puzzles[start:start + per_puzzle_page]))
        for start in range(0, len(puzzles), per_answer_page):
            pages.append(("full", puzzles[start:start + per_answer_page]))
        for page_no, (kind, items) in enumerate(pages, 1):
            dpi = rng.choice((150, 175, 200))
            s = dpi / POINTS_PER_INCH
            stem = f"ours-s{book_seed}-p{page_no}"
            image = render_pdf(pdf, page_no, dpi, os.path.join(tmp, stem))
            cols, nrows = BOOK_PUZZLES_A_PAGE if kind == "puzzle" else BOOK_ANSWERS_A_PAGE
            rows = []
            for p, box in zip(items, book_boxes(cols, nrows, len(items))):
                label = f"{'Puzzle' if kind == 'puzzle' else 'Answer'} {p['number']}"
                grid = p["givens"] if kind == "puzzle" else p["solution"]
                rows.append(grid_row(1, [v * s for v in box], kind, label, grid,
                                     p["solution"], printed="yes"))
            check_boxes(image, rows, stem)
            made.append(save_page(out, "ours", stem, image, rows))
    return made


def make_shared(out, seed, pages_per_book, tmp):
    made = []
    for pdf in sorted(glob.glob(os.path.join(SHARED_PDF, "*.pdf"))):
        book = os.path.splitext(os.path.basename(pdf))[0]
        truth = read_truth(os.path.join(SHARED_PDF, book + ".truth.tsv"))
        rng = random.Random(f"{seed}-shared-{book}")
        all_pages = sorted({t["page"] for t in truth})
        chosen = sorted(rng.sample(all_pages, min(pages_per_book, len(all_pages))))
        for page in chosen:
            dpi = rng.choice((150, 175, 200))
            s = dpi / POINTS_PER_INCH
            stem = f"shared-{book}-p{page}"
            image = render_pdf(pdf, page, dpi, os.path.join(tmp, stem))
            rows = [dict(t, page=1, bbox=[v * s for v in t["bbox"]])
                    for t in truth if t["page"] == page]
            made.append(save_page(out, "shared", stem, image, rows))
    return made


def save_page(out, kind, stem, image, rows, quality=None):
    folder = os.path.join(out, kind)
    os.makedirs(folder, exist_ok=True)
    ext = ".jpg" if quality else ".png"
    path = os.path.join(folder, stem + ext)
    if quality:
        image.save(path, quality=quality)
    else:
        image.save(path)
    write_truth(os.path.join(folder, stem + ".truth.tsv"), rows)
    return (stem, image, rows)


# ---------------------------------------------------------------- compositions


class Style:
    """How one page prints its grids."""

    def __init__(self, rng, fonts):
        self.font = rng.choice(fonts)
        self.share = rng.uniform(0.30, 0.80)
        self.thin = rng.choice((1, 1, 2, 2, 3))
        self.thick = self.thin + rng.choice((1, 2, 3, 4))
        self.outer = self.thick + rng.choice((0, 0, 1, 2))
        ink = rng.choice(((0, 0, 0), (0, 0, 0), (20, 20, 60), (40, 40, 40)))
        self.ink = ink
        self.line = ink if rng.random() < 0.7 else (rng.randint(60, 120),) * 3
        self.grey = rng.randint(110, 170)
        self.shade = rng.random() < 0.25       # alternate boxes tinted
        self.scale_lines = rng.random() < 0.5  # line widths grow with the grid


def draw_grid(draw, x, y, side, cells, st, filled=None):
    """A 9x9 grid, top-left (x, y), `side` px; `cells` 81 chars, `filled`
    the answer digits drawn grey where `cells` is empty. Returns the box."""
    k = max(1.0, side / 500.0) if st.scale_lines else 1.0
    thin, thick, outer = (max(1, round(w * k)) for w in (st.thin, st.thick, st.outer))
    cell = side / 9.0
    if st.shade:
        for br in range(3):
            for bc in range(3):
                if (br + bc) % 2:
                    draw.rectangle([x + bc * 3 * cell, y + br * 3 * cell,
                                    x + (bc + 1) * 3 * cell, y + (br + 1) * 3 * cell],
                                   fill=(225, 225, 225))
    for i in range(10):
        w = outer if i in (0, 9) else thick if i % 3 == 0 else thin
        # A 1 px line's box is one pixel: its far edge is its near edge,
        # which (p + 0.5) - 1 can round below; Pillow refuses that.
        p = x + i * cell
        draw.rectangle([p - w / 2, y - outer / 2, max(p - w / 2, p + w / 2 - 1),
                        y + side + outer / 2], fill=st.line)
        p = y + i * cell
        draw.rectangle([x - outer / 2, p - w / 2, x + side + outer / 2,
                        max(p - w / 2, p + w / 2 - 1)], fill=st.line)
    size = max(4, int(cell * st.share * 1.35))
    font = ImageFont.truetype(st.font, size)
    # Scale the font so that an "8" is `share` of a cell high.
    b = font.getbbox("8", anchor="ls")
    height = max(1, b[3] - b[1])
    font = ImageFont.truetype(st.font, max(4, round(size * cell * st.share / height)))
    b = font.getbbox("8", anchor="ls")
    height = b[3] - b[1]
    for i in range(81):
        r, c = divmod(i, 9)
        ch, colour = cells[i], st.ink
        if ch == "." and filled:
            ch, colour = filled[i], (st.grey,) * 3
        if ch == ".":
            continue
        draw.text((x + (c + 0.5) * cell, y + (r + 0.5) * cell + height / 2), ch,
                  font=font, fill=colour, anchor="ms")
    return (x - outer / 2, y - outer / 2, x + side + outer / 2, y + side + outer / 2)


def text_font(rng, fonts, size):
    return ImageFont.truetype(rng.choice(fonts), max(6, int(size)))


def draw_text_block(draw, rng, fonts, x0, y0, x1, y1, size):
    """Running text (newspaper columns, instructions)."""
    font = text_font(rng, fonts, size)
    y = y0
    while y + size < y1:
        line, x = [], x0
        while True:
            w = rng.choice(WORDS)
            width = draw.textlength(w + " ", font=font)
            if x + width > x1:
                break
            line.append(w)
            x += width
        draw.text((x0, y), " ".join(line), font=font, fill=(30, 30, 30))
        y += size * 1.35


def draw_notes(draw, rng, fonts, x0, y0, x1, y1):
    """An empty notes table: a title and ruled rows, a few columns; not 9x9."""
    font = text_font(rng, fonts, max(10, (y1 - y0) / 18))
    draw.text((x0, y0), rng.choice(("Notes", "NOTES", "Working", "Time / Notes")),
              font=font, fill=(0, 0, 0))
    top = y0 + (y1 - y0) / 10
    nrows, ncols = rng.randint(6, 14), rng.choice((1, 2, 3, 4, 5, 6))
    w = rng.choice((1, 2))
    draw.rectangle([x0, top, x1, y1], outline=(0, 0, 0), width=w + 1)
    for i in range(1, nrows):
        y = top + (y1 - top) * i / nrows
        draw.line([x0, y, x1, y], fill=(90, 90, 90), width=w)
    for j in range(1, ncols):
        x = x0 + (x1 - x0) * j / ncols
        draw.line([x, top, x, y1], fill=(90, 90, 90), width=w)


def draw_crossword(draw, rng, fonts, x, y, side):
    """A symmetric crossword: black squares and small clue numbers."""
    n = rng.choice((11, 13, 15))
    cell = side / n
    black = [[False] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            if rng.random() < 0.17:
                black[r][c] = black[n - 1 - r][n - 1 - c] = True
    font = text_font(rng, fonts, max(6, cell * 0.3))
    number = 1
    for r in range(n):
        for c in range(n):
            x0, y0 = x + c * cell, y + r * cell
            if black[r][c]:
                draw.rectangle([x0, y0, x0 + cell, y0 + cell], fill=(0, 0, 0))
                continue
            across = (c == 0 or black[r][c - 1]) and c + 1 < n and not black[r][c + 1]
            down = (r == 0 or black[r - 1][c]) and r + 1 < n and not black[r + 1][c]
            if across or down:
                draw.text((x0 + 2, y0 + 1), str(number), font=font, fill=(0, 0, 0))
                number += 1
    for i in range(n + 1):
        draw.line([x + i * cell, y, x + i * cell, y + side], fill=(0, 0, 0), width=1)
        draw.line([x, y + i * cell, x + side, y + i * cell], fill=(0, 0, 0), width=1)
    draw.rectangle([x, y, x + side, y + side], outline=(0, 0, 0), width=3)


def draw_number_table(draw, rng, fonts, x0, y0, x1, y1):
    """A table of numbers (results, prices): ruled, multi-digit, not 9x9."""
    nrows, ncols = rng.randint(8, 16), rng.choice((4, 5, 6, 7))
    font = text_font(rng, fonts, (y1 - y0) / nrows * 0.55)
    for i in range(nrows + 1):
        y = y0 + (y1 - y0) * i / nrows
        draw.line([x0, y, x1, y], fill=(0, 0, 0), width=2 if i in (0, 1, nrows) else 1)
    for j in range(ncols + 1):
        x = x0 + (x1 - x0) * j / ncols
        draw.line([x, y0, x, y1], fill=(0, 0, 0), width=1)
    for i in range(nrows):
        for j in range(ncols):
            t = rng.choice(WORDS)[:6].title() if j == 0 else str(rng.randint(0, 9999))
            draw.text((x0 + (x1 - x0) * (j + 0.5) / ncols, y0 + (y1 - y0) * (i + 0.5) / nrows),
                      t, font=font, fill=(20, 20, 20), anchor="mm")


def ornament(page, rng, fonts, cx, cy, side):
    """A faded, turned decorative grid with a few big digits and a ring:
    a cover's artwork, not a puzzle."""
    layer = Image.new("L", (int(side * 1.5), int(side * 1.5)), 0)
    d = ImageDraw.Draw(layer)
    off = side * 0.25
    st = Style(rng, fonts)
    cells = "".join(str(rng.randint(1, 9)) if rng.random() < 0.3 else "." for _ in range(81))
    cell = side / 9
    for i in range(10):
        w = 4 if i % 3 == 0 else 1
        d.line([off + i * cell, off, off + i * cell, off + side], fill=255, width=w)
        d.line([off, off + i * cell, off + side, off + i * cell], fill=255, width=w)
    font = ImageFont.truetype(st.font, max(6, int(cell * 0.7)))
    for i, ch in enumerate(cells):
        if ch != ".":
            r, c = divmod(i, 9)
            d.text((off + (c + 0.5) * cell, off + (r + 0.5) * cell), ch, font=font, fill=255,
                   anchor="mm")
    d.ellipse([off - side * 0.15, off - side * 0.15, off + side * 1.15, off + side * 1.15],
              outline=255, width=max(2, int(side / 60)))
    layer = layer.rotate(rng.uniform(-35, 35), resample=Image.BILINEAR)
    fade = rng.uniform(0.12, 0.3)
    alpha = layer.point(lambda v: int(v * fade))
    colour = Image.new("RGB", layer.size, rng.choice(((90, 90, 90), (60, 90, 140), (140, 80, 60))))
    page.paste(colour, (int(cx - layer.size[0] / 2), int(cy - layer.size[1] / 2)), alpha)


def compose_page(rng, fonts, text_fonts, puzzles, layout):
    """One drawn page and its truth rows."""
    if layout == "newspaper":
        w = rng.randint(1600, 2400)
        h = int(w * rng.uniform(1.3, 1.5))
    else:
        w = rng.randint(1400, 2200)
        h = int(w * 1.414)
    paper = (rng.randint(242, 255),) * 3
    page = Image.new("RGB", (w, h), paper)
    draw = ImageDraw.Draw(page)
    st = Style(rng, fonts)
    rows = []
    margin = w * 0.06
    title = text_font(rng, text_fonts, w / 40)
    draw.text((w / 2, margin * 0.6), rng.choice(("SUDOKU", "Number Place", "Puzzles",
                                                   "Brain Games", "Weekend Puzzles")),
              font=title, fill=(0, 0, 0), anchor="mm")

    def puzzle(x, y, side, label, answer=False, several=False):
        givens, solution = puzzles.take()
        if several:
            givens = several_solutions(givens, rng)
        font = text_font(rng, text_fonts, max(9, side / 16))
        if label:
            draw.text((x, y - side / 60 - 2), label, font=font, fill=(0, 0, 0), anchor="ld")
        if answer:
            box = draw_grid(draw, x, y, side, givens, st, filled=solution)
            rows.append(grid_row(1, box, "full", label, solution, solution, printed="yes"))
        else:
            box = draw_grid(draw, x, y, side, givens, st)
            rows.append(grid_row(1, box, "puzzle", label, givens, solution,
                                 nsol="2+" if several else "1"))

    if layout == "notes":
        # 2-3 puzzles down the page, an empty notes table beside each.
        n = rng.choice((2, 3))
        slot = (h - 2 * margin - w * 0.05) / n
        side = min(slot * 0.8, (w - 2 * margin) * 0.62)
        for i in range(n):
            y = margin + w * 0.05 + i * slot + slot * 0.12
            puzzle(margin, y, side, f"Puzzle {i + 1}", several=rng.random() < 0.15)
            draw_notes(draw, rng, text_fonts, margin + side + w * 0.04, y, w - margin, y + side)
    elif layout == "grid":
        # 2x2 .. 2x4 puzzles, sometimes under a faded ornament.
        cols, nrows = rng.choice(((2, 1), (2, 2), (2, 3), (2, 4), (3, 2)))
        if rng.random() < 0.5:
            ornament(page, rng, fonts, rng.uniform(0.2, 0.8) * w, margin * 1.2, w * 0.2)
        cw = (w - 2 * margin) / cols
        ch = (h - 2 * margin - w * 0.05) / nrows
        side = min(cw, ch) * rng.uniform(0.72, 0.86)
        k = 0
        for r in range(nrows):
            for c in range(cols):
                k += 1
                x = margin + c * cw + (cw - side) / 2
                y = margin + w * 0.05 + r * ch + (ch - side) / 2
                puzzle(x, y, side, f"No. {k}" if rng.random() < 0.8 else "")
    elif layout == "answers":
        # A page of printed answers (grey filled digits), maybe a puzzle too.
        cols, nrows = rng.choice(((2, 2), (2, 3), (3, 3)))
        cw = (w - 2 * margin) / cols
        ch = (h - 2 * margin - w * 0.05) / nrows
        side = min(cw, ch) * rng.uniform(0.7, 0.85)
        puzzles_here = rng.choice((0, 0, 1))
        k = 0
        for r in range(nrows):
            for c in range(cols):
                k += 1
                if k > 8:
                    continue
                x = margin + c * cw + (cw - side) / 2
                y = margin + w * 0.05 + r * ch + (ch - side) / 2
                if k <= puzzles_here:
                    puzzle(x, y, side, f"Puzzle {k}")
                else:
                    puzzle(x, y, side, f"Solution {k}", answer=True)
    elif layout == "poster":
        # One grid over most of the page, yesterday's answer small, an ornament.
        side = (w - 2 * margin) * rng.uniform(0.75, 0.9)
        x, y = (w - side) / 2, margin + w * 0.08
        puzzle(x, y, side, "Today's puzzle")
        ornament(page, rng, fonts, w * rng.choice((0.15, 0.85)), h - margin - w * 0.15, w * 0.22)
        small = w * rng.uniform(0.18, 0.26)
        puzzle(w - margin - small, h - margin - small, small, "Yesterday's solution",
               answer=True)
        draw_text_block(draw, rng, text_fonts, margin, y + side + w * 0.04,
                        w - 2 * margin - small, h - margin, w / 70)
    else:  # newspaper: small grids among text, a crossword and a table
        ncol = rng.choice((3, 4, 5, 6))
        colw = (w - 2 * margin) / ncol
        top = margin + w * 0.04
        size = w / rng.uniform(90, 130)
        for c in range(ncol):
            x0 = margin + c * colw
            draw_text_block(draw, rng, text_fonts, x0, top, x0 + colw * 0.94, h - margin, size)
        # Clear panels and put the puzzles in them.
        panels = rng.sample(range(ncol * 3), rng.choice((3, 4)))
        things = ["sudoku", "sudoku", "crossword", "table"][:len(panels)]
        if len(panels) == 4:
            things[3] = rng.choice(("sudoku", "table"))
        for p, thing in zip(panels, things):
            c, r = p % ncol, p // ncol
            x0 = margin + c * colw + colw * 0.05
            y0 = top + r * (h - top - margin) / 3 + 10
            pw = colw * 0.9
            gap = w * NEWSPAPER_GAP
            draw.rectangle([x0 - gap, y0 - gap, x0 + pw + gap, y0 + pw * 1.3 + gap], fill=paper)
            if thing == "sudoku":
                side = min(pw, max(NEWSPAPER_MIN_GRID, pw * rng.uniform(0.3, 1.0)))
                puzzle(x0, y0 + pw * 0.12, side, rng.choice(("SUDOKU", "Sudoku", "")))
            elif thing == "crossword":
                draw_crossword(draw, rng, text_fonts, x0, y0 + pw * 0.1, pw)
            else:
                draw_number_table(draw, rng, text_fonts, x0, y0, x0 + pw, y0 + pw * 1.2)
    return page, rows, st


# The smallest grid drawn: about a newspaper page's grid in a capture of the
# whole page (cells of 11 px).
NEWSPAPER_MIN_GRID = 100.0
# Paper cleared around a newspaper puzzle panel, a fraction of the page
# width (~4 mm): papers set their puzzles apart from the running text.
NEWSPAPER_GAP = 0.015
LAYOUTS = ("notes", "grid", "answers", "poster", "newspaper")


def make_compose(out, binary, seed, count):
    fonts = font_paths(DIGIT_FONTS)
    text_fonts = font_paths(TEXT_FONTS)
    puzzles = Puzzles(binary, seed * 7919 + 1, 12 * count)
    made, log = [], []
    for i in range(count):
        rng = random.Random(f"{seed}-compose-{i}")
        layout = LAYOUTS[i % len(LAYOUTS)]
        page, rows, st = compose_page(rng, fonts, text_fonts, puzzles, layout)
        try:
            check_boxes(page, rows, f"compose {i}")
        except SystemExit as bad:
            # A layout drew over a grid's border (a text column over a
            # small newspaper grid): its truth would be wrong, so the page
            # is left out rather than the whole set.
            print(f"{bad}; page left out", file=sys.stderr)
            continue
        stem = f"comp-{i:03d}-{layout}"
        made.append(save_page(out, "compose", stem, page, rows))
        log.append(f"{stem}.png\t{os.path.basename(st.font)}, digits {st.share:.2f} of a cell, "
                   f"lines {st.thin}/{st.thick}/{st.outer} px{', shaded boxes' if st.shade else ''}"
                   f", grey {st.grey}\n")
    with open(os.path.join(out, "compose", "styles.txt"), "w") as f:
        f.writelines(log)
    return made


# ---------------------------------------------------------------- captures


def border_points(bbox, n=24):
    """Points along a box's border: a curled page bends its edges."""
    x0, y0, x1, y1 = bbox
    t = np.linspace(0.0, 1.0, n)
    xs = np.concatenate([x0 + (x1 - x0) * t, np.full(n, x1), x1 - (x1 - x0) * t, np.full(n, x0)])
    ys = np.concatenate([np.full(n, y0), y0 + (y1 - y0) * t, np.full(n, y1), y1 - (y1 - y0) * t])
    return np.stack([xs, ys], axis=1).astype(np.float32)


def capture(rng, page, back, rows):
    """Prints `page` and photographs it; returns the photo, its truth rows,
    the JPEG quality and a short description of what was done."""
    nrng = np.random.default_rng(rng.randrange(2**32))
    img = np.asarray(page, dtype=np.float32) / 255.0
    h, w = img.shape[:2]
    notes = []
    # Show-through: the back of the sheet (another page, mirrored) faintly.
    if back is not None and rng.random() < 0.6:
        b = np.asarray(back.convert("L").resize((w, h)), dtype=np.float32)[:, :, None] / 255.0
        a = rng.uniform(0.04, 0.16)
        img = img * (1.0 - a * (1.0 - b[:, ::-1]))
        notes.append(f"show-through {a:.2f}")
    img = img * np.array([1.0, rng.uniform(0.95, 1.0), rng.uniform(0.86, 0.98)], np.float32)
    # Curl: a smooth vertical displacement d(x) (a page bowing off the
    # spine), darker where the paper turns away from the light.
    amp = h * rng.choice((0.0, rng.uniform(0.005, 0.02), rng.uniform(0.02, 0.045)))
    phase = rng.uniform(0.0, 1.0)
    xs = np.arange(w, dtype=np.float32)
    disp = amp * np.sin(np.pi * (xs / w * rng.uniform(0.8, 1.6) + phase))
    pad = int(abs(amp)) + 2
    canvas = np.ones((h + 2 * pad, w, 4), np.float32)
    canvas[pad:pad + h, :, :3] = img
    canvas[:pad, :, 3] = 0
    canvas[pad + h:, :, 3] = 0
    map_x = np.tile(xs, (h + 2 * pad, 1))
    map_y = np.arange(h + 2 * pad, dtype=np.float32)[:, None] - disp[None, :]
    curled = cv2.remap(canvas, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                       borderValue=(0, 0, 0, 0))
    slope = np.gradient(disp)
    curled[:, :, :3] *= (1.0 - np.clip(np.abs(slope) * 4.0, 0.0, 0.35))[None, :, None]
    if amp:
        notes.append(f"curl {amp / h:.3f}")

    def to_curled(pts):
        return np.stack([pts[:, 0], pts[:, 1] + pad + np.interp(pts[:, 0], xs, disp)], axis=1)

    # Frame: 1-12 MP, the page's orientation, the page filling 60-98 % of it.
    mp = rng.choice((rng.uniform(1.0, 3.0), rng.uniform(3.0, 8.0), rng.uniform(8.0, 12.0)))
    aspect = 4.0 / 3.0
    fw = int(math.sqrt(mp * 1e6 / aspect)) if h >= w else int(math.sqrt(mp * 1e6 * aspect))
    fh = int(mp * 1e6 / fw)
    strength = rng.choice(("mild", "medium", "strong"))
    jitter = {"mild": 0.03, "medium": 0.08, "strong": 0.15}[strength]
    ch, cw = curled.shape[:2]
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    grids = [border_points(r["bbox"]) for r in rows]
    for attempt in range(40):
        fill = rng.uniform(0.6, 0.98) * (1.0 - 0.4 * attempt / 40)
        scale = min(fw / cw, fh / ch) * fill
        cx = fw / 2 + rng.uniform(-0.1, 0.1) * fw
        cy = fh / 2 + rng.uniform(-0.1, 0.1) * fh
        turn = math.radians(rng.uniform(-8, 8) * (1.0 - attempt / 40))
        dst = []
        for x, y in src:
            dx, dy = (x - cw / 2) * scale, (y - ch / 2) * scale
            j = jitter * (1.0 - attempt / 40) * cw * scale
            dst.append([cx + dx * math.cos(turn) - dy * math.sin(turn) + rng.uniform(-j, j),
                        cy + dx * math.sin(turn) + dy * math.cos(turn) + rng.uniform(-j, j)])
        m = cv2.getPerspectiveTransform(src, np.float32(dst))
        warped = [cv2.perspectiveTransform(to_curled(g)[None].astype(np.float32), m)[0]
                  for g in grids]
        inside = all(g[:, 0].min() > 4 and g[:, 1].min() > 4 and g[:, 0].max() < fw - 4
                     and g[:, 1].max() < fh - 4 for g in warped)
        if inside:
            break
    else:
        return None
    notes.append(f"{strength} perspective, {mp:.1f} MP")
    photo = cv2.warpPerspective(curled, m, (fw, fh), flags=cv2.INTER_AREA if scale < 1
                                else cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                borderValue=(0, 0, 0, 0))
    # The table under the page.
    table = np.array(rng.choice(((0.45, 0.32, 0.2), (0.3, 0.3, 0.32), (0.75, 0.72, 0.66),
                                 (0.12, 0.12, 0.14))), np.float32)
    bg = table[None, None, :] * (1.0 + nrng.normal(0, 0.04, (fh, fw, 1)).astype(np.float32))
    alpha = photo[:, :, 3:4]
    rgb = photo[:, :, :3] * alpha + bg * (1.0 - alpha)
    # Light: a gradient across the frame and, sometimes, a soft shadow.
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    g = (xx / fw - 0.5) * math.cos(ang) + (yy / fh - 0.5) * math.sin(ang)
    lo = rng.uniform(0.55, 0.95)
    light = lo + (1.0 - lo) * (g - g.min()) / max(float(g.max() - g.min()), 1e-6)
    if rng.random() < 0.5:
        mask = np.zeros((fh, fw), np.float32)
        pts = np.int32([[rng.uniform(-0.2, 1.2) * fw, rng.uniform(-0.2, 1.2) * fh]
                        for _ in range(4)])
        cv2.fillConvexPoly(mask, cv2.convexHull(pts), 1.0)
        k = int(max(fw, fh) * 0.08) | 1
        mask = cv2.GaussianBlur(mask, (k, k), 0)
        depth = rng.uniform(0.15, 0.4)
        light = light * (1.0 - depth * mask)
        notes.append(f"shadow {depth:.2f}")
    rgb = rgb * light[:, :, None]
    sigma = rng.choice((0.0, rng.uniform(0.5, 1.2), rng.uniform(1.2, 2.2))) * max(1.0, fw / 2500)
    if sigma:
        rgb = cv2.GaussianBlur(rgb, (0, 0), sigma)
        notes.append(f"blur {sigma:.1f}")
    noise = rng.uniform(0.005, 0.03)
    rgb = rgb + nrng.normal(0, noise, rgb.shape).astype(np.float32)
    out = Image.fromarray((np.clip(rgb, 0, 1) * 255 + 0.5).astype(np.uint8))
    new_rows = []
    for r, g in zip(rows, warped):
        box = [float(g[:, 0].min()), float(g[:, 1].min()), float(g[:, 0].max()),
               float(g[:, 1].max())]
        new_rows.append(dict(r, bbox=box))
    quality = rng.randint(60, 90)
    notes.append(f"noise {noise:.3f}, JPEG {quality}")
    return out, new_rows, quality, "; ".join(notes)


def make_captures(out, seed, sources):
    made = []
    log = []
    for i, (stem, page, rows) in enumerate(sources):
        rng = random.Random(f"{seed}-capture-{stem}")
        back = sources[(i + 1) % len(sources)][1] if len(sources) > 1 else page
        shot = capture(rng, page, back, rows)
        if shot is None:
            print(f"{stem}: no frame kept every grid in view; skipped", file=sys.stderr)
            continue
        photo, new_rows, quality, what = shot
        name = f"cap-{stem}"
        made.append(save_page(out, "capture", name, photo, new_rows, quality=quality))
        log.append(f"{name}.jpg\t{what}\n")
    with open(os.path.join(out, "capture", "captures.txt"), "w") as f:
        f.writelines(log)
    return made


# ---------------------------------------------------------------- eval


def evaluate(out, binary, extra):
    """Runs `sudoku-snap eval --json` on each kind's folder and sums."""
    fields = ("pages", "expected", "found", "false_grids", "false_grids_answered", "cells",
              "cells_right", "grids_right", "solved_right", "unsure", "wrong_answers")
    print(f"{'kind':8} {'images':>6} {'found':>11} {'false':>5} {'cells right':>17} "
          f"{'read right':>10} {'solved right':>12} {'unsure':>6} {'WRONG':>5} {'errors':>6}")
    for kind in KINDS:
        folder = os.path.join(out, kind)
        if not os.path.isdir(folder):
            continue
        res = subprocess.run([binary, "eval", "--json", *extra, folder], capture_output=True,
                             text=True)
        if res.returncode != 0:
            print(f"{kind}: eval failed: {res.stderr.strip()}")
            continue
        sources = [json.loads(line) for line in res.stdout.splitlines() if line.strip()]
        tot = {k: sum(s[k] for s in sources) for k in fields}
        errors = sum(len(s["page_errors"]) for s in sources)
        print(f"{kind:8} {len(sources):6d} {tot['found']:5d}/{tot['expected']:<5d} "
              f"{tot['false_grids']:5d} {tot['cells_right']:7d}/{tot['cells']:<7d}"
              f"{100.0 * tot['cells_right'] / max(tot['cells'], 1):5.1f}% "
              f"{tot['grids_right']:4d}/{tot['found']:<5d} {tot['solved_right']:5d}/"
              f"{tot['found']:<6d} {tot['unsure']:6d} {tot['wrong_answers']:5d} {errors:6d}")
        with open(os.path.join(out, f"eval-{kind}.jsonl"), "w") as f:
            f.write(res.stdout)
    print(f"per-source details: {out}/eval-<kind>.jsonl (problems list each miss)")


# Grid sizes (the truth box's mean side in image pixels) the `sizes` action
# reports apart: under 100 px a cell is under 11 px and its digit a few
# pixels high; 150 px is issue 9's "low resolution"; above 400 px a grid
# holds every detail a reader needs.
SIZE_EDGES = (100, 150, 250, 400)


def size_bin(box):
    side = 0.5 * ((box[2] - box[0]) + (box[3] - box[1]))
    for k, edge in enumerate(SIZE_EDGES):
        if side < edge:
            return k
    return len(SIZE_EDGES)


def size_label(k):
    lo = SIZE_EDGES[k - 1] if k else 0
    return f"{lo}-{SIZE_EDGES[k]} px" if k < len(SIZE_EDGES) else f"{lo}+ px"


def outcome(t, g):
    """What became of truth grid `t` reported as `g` (the main job's JSON):
    (solved right, unsure, wrong answer shown), by eval's rules."""
    shown = g.get("solution")
    status = g["status"]
    if t["kind"] == "full":
        return status == "complete" and not g.get("error"), status == "unsure", False
    several = t["nsol"] != "1"
    wrong = shown is not None and status != "complete" and (several or shown != t["solution"])
    right = status == "multiple_solutions" if several else (
        status == "solved" and shown == t["solution"])
    return right, status == "unsure", wrong


def by_size(out, binary, extra):
    """Per kind and grid size: complete grids found / expected, solved right,
    unsure and wrong answers, matching each grid the main job reports to
    the truth box holding its centre (eval's rule)."""
    print(f"{'kind':8} {'grid side':>11} {'found':>11} {'solved right':>12} {'unsure':>6} "
          f"{'WRONG':>5} {'false':>5}")
    for kind in KINDS:
        folder = os.path.join(out, kind)
        truths = sorted(glob.glob(os.path.join(folder, "*.truth.tsv")))
        if not truths:
            continue
        images = {}
        for t in truths:
            stem = t[:-len(".truth.tsv")]
            image = next((stem + e for e in (".png", ".jpg") if os.path.exists(stem + e)), None)
            if image:
                images[image] = read_truth(t)
        res = subprocess.run([binary, "--json", "--no-image", *extra, *images],
                             capture_output=True, text=True)
        tally = [[0] * 6 for _ in range(len(SIZE_EDGES) + 1)]
        seen = set()
        for line in res.stdout.splitlines():
            g = json.loads(line)
            truth = images.get(g.get("path"))
            if truth is None or not g.get("quad"):
                continue
            cx = sum(c[0] for c in g["quad"]) / 4
            cy = sum(c[1] for c in g["quad"]) / 4
            hit = [i for i, t in enumerate(truth) if t["bbox"][0] <= cx < t["bbox"][2]
                   and t["bbox"][1] <= cy < t["bbox"][3]]
            if not hit or (g["path"], hit[0]) in seen:
                side = max(abs(g["quad"][1][0] - g["quad"][0][0]), 1.0)
                tally[size_bin([0, 0, side, side])][5] += 1
                continue
            seen.add((g["path"], hit[0]))
            t = truth[hit[0]]
            row = tally[size_bin(t["bbox"])]
            row[1] += 1
            for k, v in enumerate(outcome(t, g)):
                row[2 + k] += int(v)
        for image, truth in images.items():
            for t in truth:
                tally[size_bin(t["bbox"])][0] += 1
        for k, (expected, found, right, unsure, wrong, false) in enumerate(tally):
            if expected or false:
                print(f"{kind:8} {size_label(k):>11} {found:5d}/{expected:<5d} "
                      f"{right:5d}/{found:<6d} {unsure:6d} {wrong:5d} {false:5d}")


def misreads(images, binary, extra):
    """Per grid of each image: the main job's status and every cell read
    unlike the truth (`r3c7 5>6`: truth 5, read 6; `.` empty), the cells
    it asked to check, and whether it showed an answer. For looking at why,
    after `eval` said what."""
    for image in images:
        stem = os.path.splitext(image)[0]
        truth = read_truth(stem + ".truth.tsv")
        res = subprocess.run([binary, "--json", "--no-image", *extra, image],
                             capture_output=True, text=True)
        print(f"{image}:")
        seen = set()
        for line in res.stdout.splitlines():
            g = json.loads(line)
            if not g.get("quad"):
                print(f"  no grid: {g.get('error')}")
                continue
            cx = sum(c[0] for c in g["quad"]) / 4
            cy = sum(c[1] for c in g["quad"]) / 4
            hit = [i for i, t in enumerate(truth) if t["bbox"][0] <= cx < t["bbox"][2]
                   and t["bbox"][1] <= cy < t["bbox"][3]]
            if not hit:
                print(f"  FALSE grid at ({cx:.0f}, {cy:.0f}): {g['status']}")
                continue
            t = truth[hit[0]]
            seen.add(hit[0])
            read = g.get("read") or ""
            wrong = [f"r{i // 9 + 1}c{i % 9 + 1} {a}>{b}"
                     for i, (a, b) in enumerate(zip(t["grid"], read)) if a != b]
            shown = g.get("solution")
            verdict = ("" if not shown else " answer RIGHT" if shown == t["solution"]
                       and t["nsol"] == "1" else " answer WRONG")
            repairs = f"; repairs {', '.join(g['repairs'])}" if g.get("repairs") else ""
            print(f"  grid {hit[0] + 1} ({t['kind']}): {g['status']} "
                  f"(confidence {g.get('confidence')}){verdict}, {len(wrong)} misread "
                  f"{' '.join(wrong)}; check {' '.join(g['check'])}{repairs}")
        for i, t in enumerate(truth):
            if i not in seen:
                print(f"  grid {i + 1} ({t['kind']}) at {[round(v) for v in t['bbox']]}: missed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("make", "eval", "sizes", "misreads"))
    ap.add_argument("out", nargs="+",
                    help="output folder, e.g. target/book-pages (misreads: page images)")
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--books", type=int, default=2, help="books of our own (6 pages each)")
    ap.add_argument("--shared-pages", type=int, default=8, help="pages per shared book")
    ap.add_argument("--compose", type=int, default=40, help="drawn pages")
    ap.add_argument("--bin", default=os.environ.get(
        "SUDOKU_SNAP", os.path.join(ROOT, "target", "release", "sudoku-snap")))
    a, extra = ap.parse_known_args()
    if a.action == "misreads":
        misreads(a.out, a.bin, extra)
        return
    a.out = a.out[0]
    if a.action == "eval":
        evaluate(a.out, a.bin, extra)
        return
    if a.action == "sizes":
        by_size(a.out, a.bin, extra)
        return
    for kind in KINDS:
        for f in glob.glob(os.path.join(a.out, kind, "*")):
            os.remove(f)
    with tempfile.TemporaryDirectory() as tmp:
        pages = make_ours(a.out, a.bin, a.seed, a.books, tmp)
        pages += make_shared(a.out, a.seed, a.shared_pages, tmp)
        pages += make_compose(a.out, a.bin, a.seed, a.compose)
        make_captures(a.out, a.seed, pages)
    for kind in KINDS:
        folder = os.path.join(a.out, kind)
        if not os.path.isdir(folder):
            continue
        images = [p for p in os.listdir(folder) if not p.endswith((".tsv", ".txt"))]
        grids = sum(len(read_truth(p)) for p in glob.glob(os.path.join(folder, "*.truth.tsv")))
        print(f"{kind}: {len(images)} images, {grids} grids")


if __name__ == "__main__":
    main()
