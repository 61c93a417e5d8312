"""Tiles of photographed 16x16 grids, for the 16x16 model (`train.py --shape 16x16`).

A 16x16 puzzle prints its 1-9 and A-G at about a third of the size a 9x9
gives its digits, so a photo that blurs a 9x9's digits a little blurs a
16x16's letters into each other (B into 8, E and F into smudges). The
model for 9x9 grids sees few such letters; this set is made of them.

Each page is a whole 16x16 grid (random symbols in about half of the
cells, thin and thick lines, sometimes shaded boxes) rendered with a font,
photographed (scaled to 16-60 px a cell, turned and tilted a little, lit
unevenly, blurred by a Gaussian of 0-16 % of a cell, noise, JPEG) and
rectified back with its true corners like the reader does (`common.warp`
at 48 px a cell), then cut into the 256 tiles of the tile spec. A quarter
of the filled tiles are also given turned, as other ink (the orientation
search reads a turned grid's letters as other ink).

Fonts: every usable printed font of `synth.usable_fonts` except the
families in `HELD_OUT_FAMILIES`, which the busy-background photos of
`models/eval/busy_photos.py` print with: those photos are read with fonts
the model never saw.
"""
import io
import math

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from common import CELL_PX, OTHER, PRINTED_MAX, TILE, cell_to_tile, contact_sheet, warp
from real import rotatable

N = 16
BOX = 4
# Page pixels per cell when rendering (the photo scales it).
PAGE_CELL = 64
# The symbols of values 1-16 as printed.
SYMBOLS = "123456789ABCDEFG"
# Font families of the busy-background photos (models/eval/busy_photos.py):
# never trained on, so that those photos stay held out by font.
HELD_OUT_FAMILIES = ("DejaVu", "Liberation", "FreeSans", "Arimo", "Tinos", "Lato")
# A photo's cell in pixels: a 16x16 filling a quarter of a small photo up
# to most of a phone photo scaled to 1600 px.
CELL_PHOTO_PX = (16, 60)
# Blur (Gaussian sigma) as a share of a cell: SHARP_PAGES of the pages
# sharp to slight (up to SLIGHT_BLUR), the rest from there to soft focus,
# past the 14 % of the busy photos' blurred 16x16s (MAX_BLUR).
SHARP_PAGES = 0.3
SLIGHT_BLUR = 0.04
MAX_BLUR = 0.16
# Least blur in pixels worth filtering for.
MIN_SIGMA_PX = 0.3
# Share of filled cells (a 16x16 puzzle gives 40-55 % of its cells).
FILLED = (0.3, 0.65)
# Share of filled tiles also given turned, as other ink.
TURNED = 0.25


def training_fonts(fonts):
    return [f for f in fonts if not any(fam in f for fam in HELD_OUT_FAMILIES)]


def held_out_fonts(fonts):
    return [f for f in fonts if any(fam in f for fam in HELD_OUT_FAMILIES)]


def render_page(rng, font_path):
    """(gray page float32, grid corners on the page (4x2), 256 labels)."""
    cell = PAGE_CELL
    margin = int(cell * rng.uniform(0.6, 1.5))
    side = N * cell
    size = side + 2 * margin
    paper = rng.uniform(215, 255)
    page = Image.new("L", (size, size), int(paper))
    d = ImageDraw.Draw(page)
    x0 = y0 = margin
    if rng.random() < 0.3:
        # Alternate boxes shaded light grey, as some papers print them.
        shade = int(paper - rng.uniform(15, 45))
        for br in range(N // BOX):
            for bc in range(N // BOX):
                if (br + bc) % 2:
                    d.rectangle([x0 + bc * BOX * cell, y0 + br * BOX * cell,
                                 x0 + (bc + 1) * BOX * cell, y0 + (br + 1) * BOX * cell], fill=shade)
    ink = int(rng.uniform(0, 70))
    font = ImageFont.truetype(font_path, int(cell * rng.uniform(0.45, 0.78)))
    filled = rng.uniform(*FILLED)
    labels = np.zeros(N * N, np.int64)
    for r in range(N):
        for c in range(N):
            if rng.random() < filled:
                v = int(rng.integers(1, PRINTED_MAX + 1))
                labels[r * N + c] = v
                d.text((x0 + c * cell + cell / 2 + rng.normal(0, 1.5),
                        y0 + r * cell + cell / 2 + rng.normal(0, 1.5)),
                       SYMBOLS[v - 1], fill=ink, font=font, anchor="mm")
    thin = int(rng.choice([1, 2, 2, 3, 4]))
    thick = thin + int(rng.choice([1, 2, 3, 4, 6]))
    line_ink = ink if rng.random() < 0.7 else int(rng.uniform(0, 110))
    for k in range(N + 1):
        w = thick if k % BOX == 0 else thin
        p = k * cell - w // 2
        d.rectangle([x0 - thick // 2, y0 + p, x0 + side + thick // 2, y0 + p + w - 1], fill=line_ink)
        d.rectangle([x0 + p, y0 - thick // 2, x0 + p + w - 1, y0 + side + thick // 2], fill=line_ink)
    corners = np.float32([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]])
    return np.asarray(page, np.float32), corners, labels


def photograph(rng, page, corners):
    """The page photographed: (gray uint8 photo, grid corners in it)."""
    cell_px = rng.uniform(*CELL_PHOTO_PX)
    scale = cell_px / PAGE_CELL
    h, w = page.shape
    out_w, out_h = int(w * scale * 1.15) + 8, int(h * scale * 1.15) + 8
    cx, cy = out_w / 2, out_h / 2
    ang = math.radians(rng.uniform(-8, 8))
    jit = 0.04 * w * scale
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = []
    for u, v in src - np.float32([w / 2, h / 2]):
        dst.append([u * scale * math.cos(ang) - v * scale * math.sin(ang) + cx + rng.uniform(-jit, jit),
                    u * scale * math.sin(ang) + v * scale * math.cos(ang) + cy + rng.uniform(-jit, jit)])
    m = cv2.getPerspectiveTransform(src, np.float32(dst))
    bg = rng.uniform(60, 200)
    img = cv2.warpPerspective(page, m, (out_w, out_h), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=bg)
    grid = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), m).reshape(4, 2)
    # Uneven light: darker towards one side by up to 35 %.
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    t = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(t) + yy * math.sin(t))
    ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1.0)
    lo = rng.uniform(0.65, 1.0)
    img = img * (lo + (1 - lo) * ramp)
    if rng.random() < SHARP_PAGES:
        share = rng.uniform(0.0, SLIGHT_BLUR)
    else:
        share = rng.uniform(SLIGHT_BLUR, MAX_BLUR)
    sigma = share * cell_px
    if sigma > MIN_SIGMA_PX:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(0, 6), img.shape)
    img = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG", quality=int(rng.integers(50, 95)))
    img = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("L"))
    return img, grid, share


def grid_tiles(gray, corners):
    """The 256 tiles of a 16x16 grid at `corners` (tl, tr, br, bl)."""
    size = N * CELL_PX
    grid = warp(gray, corners, size=size).astype(np.float32)
    out = np.empty((N * N, TILE, TILE), np.float32)
    for r in range(N):
        for c in range(N):
            out[r * N + c] = cell_to_tile(grid[r * CELL_PX:(r + 1) * CELL_PX,
                                               c * CELL_PX:(c + 1) * CELL_PX])
    return out


def make(pages, fonts, seed):
    """Tiles of `pages` photographed 16x16 pages: (x, y, blur share per tile)."""
    rng = np.random.default_rng(seed)
    xs, ys, blurs = [], [], []
    for _ in range(pages):
        page, corners, labels = render_page(rng, fonts[int(rng.integers(len(fonts)))])
        photo, grid, share = photograph(rng, page, corners)
        tiles = grid_tiles(photo, grid)
        xs.append(tiles)
        ys.append(labels)
        blurs.append(np.full(len(labels), share, np.float32))
        turned_x, turned_y = [], []
        for t, lab in zip(tiles, labels):
            k = int(rng.integers(1, 4))
            if lab > 0 and rng.random() < TURNED and rotatable(int(lab), k):
                turned_x.append(np.rot90(t, k))
                turned_y.append(OTHER)
        if turned_x:
            xs.append(np.array(turned_x, np.float32))
            ys.append(np.array(turned_y, np.int64))
            blurs.append(np.full(len(turned_y), share, np.float32))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(blurs)


if __name__ == "__main__":
    import sys
    import synth
    printed = synth.usable_fonts()
    fonts = training_fonts(printed)
    print(len(fonts), "training fonts;", len(held_out_fonts(printed)), "held out")
    x, y, b = make(int(sys.argv[1]) if len(sys.argv) > 1 else 2, fonts, 0)
    contact_sheet(x, "/tmp/grid16_sheet.png")
    print(len(x), "tiles; blur", sorted(set(np.round(b, 3).tolist())))
