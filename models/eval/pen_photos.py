#!/usr/bin/env python3
"""Makes simulated phone photos of worked puzzles for measuring `--check`
(models/eval/check_verdicts.py): a printed puzzle, some or all of its empty
cells filled in by hand in pen, a few entries wrong on purpose, some
written faintly, photographed at an angle in uneven light.

The handwriting is drawn stroke by stroke, not taken from a font: each
photo has its own writer (slant, size, stroke width, ink, and which way
they write a 1, 4, 7 or 9: with or without a flag, open or closed, crossed
or not), and each digit its own wobble, so no two entries are the same
glyph. Each photo's puzzle is its own (a 17-clue puzzle of the shared set
with clues of its solution added), so a split by seed is a split by
puzzle. Seeds 0-99 are for tuning; the held-out seeds (from 1000) are
never tuned on.

    models/eval/pen_photos.py OUT_DIR FIRST_SEED COUNT

writes OUT_DIR/pen-SEED.jpg and OUT_DIR/pen-SEED.truth.json (the printed
puzzle, the digit written in each cell, the faint cells).
"""
import json
import math
import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRINT_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/croscore/Arimo-Regular.ttf",
    "/usr/share/fonts/truetype/croscore/Tinos-Regular.ttf",
    "/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf",
)
CELL = 72
MARGIN = 60
# Pen inks: blue ballpoint, black, dark blue gel, red.
INKS = ((25, 55, 160), (30, 30, 35), (15, 30, 110), (170, 30, 35))


def arc(cx, cy, rx, ry, a0, a1, n=14):
    """Points of an ellipse arc from angle a0 to a1 (degrees, y down)."""
    return [(cx + rx * math.cos(math.radians(a0 + (a1 - a0) * k / n)),
             cy + ry * math.sin(math.radians(a0 + (a1 - a0) * k / n))) for k in range(n + 1)]


def strokes(digit, style, rng):
    """The strokes of `digit` in a unit box (x right, y down), in the
    writer's `style`."""
    u = rng.uniform
    if digit == 1:
        s = [[(0.52, 0.05), (0.5, 0.95)]]
        if style["flag1"]:
            s[0].insert(0, (0.3 + u(-0.05, 0.05), 0.25))
        if style["base1"]:
            s.append([(0.32, 0.95), (0.7, 0.95)])
        return s
    if digit == 2:
        return [arc(0.5, 0.3, 0.3, 0.25, 200, 370) + [(0.2, 0.95), (0.82, 0.93)]]
    if digit == 3:
        return [arc(0.48, 0.28, 0.28, 0.23, 210, 450) + arc(0.48, 0.72, 0.32, 0.24, 270, 500)[1:]]
    if digit == 4:
        if style["open4"]:
            return [[(0.45, 0.05), (0.2, 0.6), (0.85, 0.6)], [(0.65, 0.3), (0.65, 0.97)]]
        return [[(0.65, 0.97), (0.65, 0.05), (0.15, 0.62), (0.88, 0.62)]]
    if digit == 5:
        return [[(0.78, 0.06), (0.3, 0.06), (0.26, 0.45)] + arc(0.48, 0.68, 0.3, 0.27, 235, 485)[1:]]
    if digit == 6:
        # One sweep from the top right down the left side into the loop. A
        # straight stroke in from the right at the top is a 5's bar: with
        # the loop left open by the wobble, about one such 6 in ten reads
        # as a 5 to a person, and the truth would call it a 6. Its 29
        # points (each two random draws) keep the seeds' later glyphs.
        return [arc(0.66, 0.62, 0.45, 0.56, 285, 180)[:-1]
                + arc(0.5, 0.7, 0.28, 0.25, 180, 540)]
    if digit == 7:
        s = [[(0.15, 0.08), (0.85, 0.08), (0.4 + u(-0.05, 0.08), 0.96)]]
        if style["cross7"]:
            s.append([(0.38, 0.5), (0.78, 0.5)])
        return s
    if digit == 8:
        return [arc(0.5, 0.27, 0.25, 0.22, 90, 450) + arc(0.5, 0.71, 0.3, 0.25, 270, 630)[1:]]
    if digit == 9:
        loop = arc(0.48, 0.3, 0.28, 0.25, 0, 360)
        if style["curl9"]:
            return [loop + [(0.74, 0.55), (0.66, 0.85), (0.45, 0.96)]]
        return [loop + [(0.76, 0.3), (0.72, 0.97)]]
    raise ValueError(digit)


def hand_digit(digit, style, rng, size, ink_rgba):
    """One handwritten digit, RGBA, about `size` pixels high."""
    scale = 4  # drawn large and shrunk: smooth strokes
    w = int(size * 1.2) * scale
    img = Image.new("RGBA", (w, w), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    slant = style["slant"] + rng.uniform(-0.08, 0.08)
    sx = size * style["width"] * rng.uniform(0.9, 1.1) * 0.75
    sy = size * rng.uniform(0.92, 1.05)
    rot = math.radians(rng.uniform(-6, 6))
    wob = style["wobble"]
    phase = rng.uniform(0, 6.3)
    for stroke in strokes(digit, style, rng):
        pts = []
        for k, (x, y) in enumerate(stroke):
            x += wob * math.sin(phase + 3.1 * y + 0.7 * k) + rng.gauss(0, wob * 0.4)
            y += wob * math.cos(phase + 2.3 * x + 0.5 * k) + rng.gauss(0, wob * 0.4)
            px = (x - 0.5) * sx - slant * (y - 0.5) * sy
            py = (y - 0.5) * sy
            px, py = px * math.cos(rot) - py * math.sin(rot), px * math.sin(rot) + py * math.cos(rot)
            pts.append((w / 2 + px * scale, w / 2 + py * scale))
        width = max(1, int(style["stroke"] * size * scale * rng.uniform(0.85, 1.15)))
        d.line(pts, fill=ink_rgba, width=width, joint="curve")
        for p in (pts[0], pts[-1]):
            r = width / 2
            d.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=ink_rgba)
    return img.resize((w // scale, w // scale), Image.LANCZOS)


def solve_unique(puzzle):
    """The solution of a puzzle known to have one (backtracking)."""
    cells = [int(c) if c.isdigit() else 0 for c in puzzle]
    rows = [set() for _ in range(9)]
    cols = [set() for _ in range(9)]
    boxes = [set() for _ in range(9)]
    for i, v in enumerate(cells):
        if v:
            rows[i // 9].add(v)
            cols[i % 9].add(v)
            boxes[(i // 27) * 3 + (i % 9) // 3].add(v)

    def go():
        best, opts = None, None
        for i in range(81):
            if not cells[i]:
                b = (i // 27) * 3 + (i % 9) // 3
                o = set(range(1, 10)) - rows[i // 9] - cols[i % 9] - boxes[b]
                if best is None or len(o) < len(opts):
                    best, opts = i, o
        if best is None:
            return True
        b = (best // 27) * 3 + (best % 9) // 3
        for v in opts:
            cells[best] = v
            rows[best // 9].add(v), cols[best % 9].add(v), boxes[b].add(v)
            if go():
                return True
            rows[best // 9].discard(v), cols[best % 9].discard(v), boxes[b].discard(v)
        cells[best] = 0
        return False

    go()
    return "".join(map(str, cells))


def puzzle_for(seed, rng):
    """The photo's own puzzle: the seed-th 17-clue puzzle of the shared set
    (from the end, away from those the other generators take first), with
    clues of its solution added as a printed puzzle has them."""
    shared = os.environ.get("SNAP_SHARED", os.path.join(ROOT, "..", "shared"))
    path = os.path.join(shared, "puzzles", "puzzles2_17_clue.txt")
    if not os.path.exists(path):
        raise SystemExit(f"{path}: absent; the puzzles live in ../shared")
    lines = open(path).read().split()
    base = lines[-1 - seed % len(lines)]
    solution = solve_unique(base)
    cells = list(base)
    empty = [i for i, c in enumerate(cells) if c == "."]
    rng.shuffle(empty)
    for i in empty[:rng.randint(8, 18)]:
        cells[i] = solution[i]
    return "".join(cells), solution


def make(seed, out_dir):
    rng = random.Random(seed)
    puzzle, solution = puzzle_for(seed, rng)
    style = dict(
        slant=rng.uniform(-0.15, 0.3), width=rng.uniform(0.75, 1.1),
        stroke=rng.uniform(0.06, 0.12), wobble=rng.uniform(0.0, 0.045),
        flag1=rng.random() < 0.6, base1=rng.random() < 0.25, open4=rng.random() < 0.5,
        cross7=rng.random() < 0.35, curl9=rng.random() < 0.4,
    )
    ink = rng.choice(INKS)
    side = 9 * CELL + 2 * MARGIN
    paper = tuple(int(v) for v in np.array((246, 244, 236)) + rng.randint(-12, 6))
    page = Image.new("RGB", (side, side), paper)
    draw = ImageDraw.Draw(page)
    for k in range(10):
        w = 4 if k % 3 == 0 else 1
        p = MARGIN + k * CELL
        draw.rectangle([p - w // 2, MARGIN - 2, p - w // 2 + w - 1, side - MARGIN + 1], fill=(20, 20, 20))
        draw.rectangle([MARGIN - 2, p - w // 2, side - MARGIN + 1, p - w // 2 + w - 1], fill=(20, 20, 20))
    font = ImageFont.truetype(rng.choice([f for f in PRINT_FONTS if os.path.exists(f)]),
                              int(CELL * rng.uniform(0.55, 0.68)))
    empty = [i for i, c in enumerate(puzzle) if c == "."]
    filled = rng.sample(empty, int(len(empty) * rng.choice([1.0, 1.0, rng.uniform(0.3, 0.95)])))
    written = ["."] * 81
    wrong_rate = rng.choice([0.0, 0.03, 0.08, 0.15])
    faint_rate = rng.choice([0.0, 0.0, 0.1, 0.3])
    faint = []
    for i, ch in enumerate(puzzle):
        r, c = divmod(i, 9)
        cx, cy = MARGIN + (c + 0.5) * CELL, MARGIN + (r + 0.5) * CELL
        if ch != ".":
            draw.text((cx, cy), ch, font=font, fill=(12, 12, 12), anchor="mm")
            continue
        if i not in filled:
            continue
        digit = int(solution[i])
        if rng.random() < wrong_rate:
            digit = rng.choice([d for d in range(1, 10) if d != digit])
        written[i] = str(digit)
        alpha = 255
        if rng.random() < faint_rate:
            alpha = rng.randint(70, 130)
            faint.append(i)
        glyph = hand_digit(digit, style, rng, CELL * rng.uniform(0.55, 0.8), ink + (alpha,))
        dx, dy = rng.uniform(-0.1, 0.1) * CELL, rng.uniform(-0.1, 0.1) * CELL
        page.paste(glyph, (int(cx - glyph.width / 2 + dx), int(cy - glyph.height / 2 + dy)), glyph)
    photo = photograph(page, rng)
    name = f"pen-{seed}"
    photo.save(os.path.join(out_dir, name + ".jpg"), quality=rng.randint(80, 92))
    with open(os.path.join(out_dir, name + ".truth.json"), "w") as out:
        json.dump({"puzzle": puzzle, "written": "".join(written), "faint": faint,
                   "style": style}, out)


def photograph(page, rng):
    """The page as a phone sees it: on a table, at an angle, out of focus a
    little, in uneven light, with sensor noise."""
    w, h = page.size
    bg = Image.new("RGB", (int(w * 1.5), int(h * 1.5)),
                   tuple(rng.randint(60, 160) for _ in range(3)))
    bg.paste(page, ((bg.width - w) // 2, (bg.height - h) // 2))
    W, H = bg.size
    j = 0.07
    corners = [(rng.uniform(0, j) * W, rng.uniform(0, j) * H),
               (W - rng.uniform(0, j) * W, rng.uniform(0, j) * H),
               (W - rng.uniform(0, j) * W, H - rng.uniform(0, j) * H),
               (rng.uniform(0, j) * W, H - rng.uniform(0, j) * H)]
    out = (1100, 1100)
    coeffs = perspective(corners, [(0, 0), (out[0], 0), out, (0, out[1])])
    img = bg.transform(out, Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))
    a = np.asarray(img, dtype=np.float32)
    yy, xx = np.mgrid[0:out[1], 0:out[0]]
    ang = rng.uniform(0, 6.3)
    light = 0.8 + 0.2 * (np.cos(ang) * xx / out[0] + np.sin(ang) * yy / out[1])
    noise = np.random.default_rng(rng.randint(0, 1 << 30)).normal(0, rng.uniform(2, 6), a.shape)
    a = np.clip(a * light[:, :, None] * rng.uniform(0.85, 1.05) + noise, 0, 255).astype(np.uint8)
    return Image.fromarray(a)


def perspective(src, dst):
    """PIL's PERSPECTIVE coefficients mapping output `dst` points to `src`."""
    rows = []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    b = np.array([c for p in src for c in p])
    return np.linalg.solve(np.array(rows, dtype=float), b)


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    out_dir, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    os.makedirs(out_dir, exist_ok=True)
    for seed in range(first, first + count):
        make(seed, out_dir)
    print(f"{out_dir}: {count} photos, seeds {first}-{first + count - 1}")


if __name__ == "__main__":
    main()
