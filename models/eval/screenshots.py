#!/usr/bin/env python3
"""Sudoku-app screenshots with ground truth, for `sudoku-snap eval` (issue 9,
"app screenshots").

Draws phone, tablet and desktop screenshots of a Sudoku app in progress: a
status bar, a toolbar, the game's info row (difficulty, mistakes, timer),
the grid, tool buttons (undo, erase, notes, hint) and a number pad of the
digits 1-9 under or beside the grid (a row of nine, two rows, or a 3x3
keypad of bordered buttons: none of them is a Sudoku grid). Light and dark
themes in several palettes; the selected cell, its row, column and box
shaded, the cells holding the selected digit shaded; player entries typed in
the entry colour (blue, or red when the app marks a mistake), pencil
candidates in small grey digits.

Typed player entries look like givens to a grey-scale reader except by
colour and weight. The reader takes every typed digit as a digit (see the
README, "App screenshots"): right entries leave the puzzle's solution as it
is, and a wrong entry leaves the puzzle with no solution, which must be
reported as `no_solution`, never repaired into a different puzzle. So the
truth of a screen is its givens plus its entries:

  <stem>.png|jpg    the screenshot
  <stem>.txt        9 lines of 9: the digits on the grid (givens and typed
                    entries), `.` for cells without a digit (empty or pencil)
  <stem>.kinds.txt  9 lines of 9 per cell kind: a digit (printed or typed),
                    `*` pencil candidates, `.` empty (eval's confusion table)
  screens.tsv       one line per screen: device, theme, palette, font,
                    entries (right, wrong), pencil cells, what it should give
                    (`solved`, `complete`, or `no_solution` for wrong entries)

`--kinds` adds newer kinds of screen after (or instead of) these classic
ones: `android` (Material: rounded, borderless or box-shaded grids on a
card), `console` (TV and handheld, neon frame, cursor ring), `finished`
(every cell filled; a wrong entry makes the full grid clash, which the
reader reports as `complete` with the clash as its error) and `video`
(16:9 frames with the screen smaller inside, overlays off the grid).
Seeds tuned on for these: 1, 5 and 6; held out: 2031 (docs/accuracy.md).

Everything is seeded (`--seed`); the same seed and binary give the same set.
Puzzles come from the binary's generator. Seeds used while the reader was
tuned on screenshots: 1 (say so in the README when you use another one for
development; held-out figures use a seed never looked at before).

Usage, from the repository root after `cargo build --release`:

    python3 models/eval/screenshots.py make target/screens --seed 1 --count 60
    python3 models/eval/screenshots.py eval target/screens   # outcome per kind of screen
    # the same screens' grids cut out: the reading, whatever the locator does
    python3 models/eval/screenshots.py make target/screens-grids --seed 1 --count 60 --grid-only
    # every screen at half size (thumbnails, small video frames)
    python3 models/eval/screenshots.py make target/screens-half --seed 1 --kinds video --shrink 0.5
    ./target/release/sudoku-snap eval target/screens          # cells, calibration, kinds

Generated images are not committed (target/ is ignored).
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys

from PIL import Image, ImageDraw, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# UI fonts of app screens (Debian fonts-roboto, fonts-open-sans, fonts-lato,
# fonts-dejavu, fonts-noto-core, fonts-cantarell, fonts-croscore,
# fonts-go); the ones missing on a machine are skipped. (regular, bold)
UI_FONTS = (
    ("truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
     "truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf"),
    ("truetype/open-sans/OpenSans-Regular.ttf", "truetype/open-sans/OpenSans-Semibold.ttf"),
    ("truetype/lato/Lato-Regular.ttf", "truetype/lato/Lato-Bold.ttf"),
    ("truetype/dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSans-Bold.ttf"),
    ("truetype/noto/NotoSans-Regular.ttf", "truetype/noto/NotoSans-Bold.ttf"),
    ("opentype/cantarell/Cantarell-Regular.otf", "opentype/cantarell/Cantarell-Bold.otf"),
    ("truetype/croscore/Arimo-Regular.ttf", "truetype/croscore/Arimo-Bold.ttf"),
    ("truetype/fonts-go/Go-Regular.ttf", "truetype/fonts-go/Go-Bold.ttf"),
    ("truetype/crosextra/Carlito-Regular.ttf", "truetype/crosextra/Carlito-Bold.ttf"),
)

# Palettes: ground, grid ground, thin and box lines, given, entry, wrong
# entry, selected cell, its row/column/box, cells with the selected digit,
# pencil digits, UI text, buttons.
PALETTES = {
    "light": [
        dict(name="slate", ground=(255, 255, 255), grid=(255, 255, 255), thin=(190, 198, 212),
             box=(52, 72, 97), given=(52, 72, 97), entry=(50, 90, 175), wrong=(229, 92, 108),
             sel=(187, 222, 251), area=(226, 235, 243), same=(195, 215, 234),
             pencil=(110, 124, 144), text=(52, 72, 97), button=(234, 238, 244)),
        dict(name="classic", ground=(245, 245, 245), grid=(255, 255, 255), thin=(160, 160, 160),
             box=(0, 0, 0), given=(0, 0, 0), entry=(25, 100, 210), wrong=(210, 30, 30),
             sel=(255, 236, 150), area=(236, 236, 236), same=(255, 222, 173),
             pencil=(120, 120, 120), text=(30, 30, 30), button=(225, 225, 225)),
        dict(name="material", ground=(250, 250, 250), grid=(255, 255, 255),
             thin=(200, 200, 200), box=(97, 97, 97), given=(33, 33, 33), entry=(25, 118, 210),
             wrong=(211, 47, 47), sel=(144, 202, 249), area=(227, 242, 253),
             same=(187, 222, 251), pencil=(117, 117, 117), text=(33, 33, 33),
             button=(238, 238, 238)),
        dict(name="paper", ground=(250, 246, 236), grid=(255, 252, 244), thin=(200, 190, 170),
             box=(90, 70, 50), given=(60, 45, 30), entry=(40, 80, 160), wrong=(190, 40, 40),
             sel=(250, 220, 160), area=(243, 235, 215), same=(240, 215, 170),
             pencil=(140, 125, 105), text=(60, 45, 30), button=(238, 228, 205)),
    ],
    "dark": [
        dict(name="black", ground=(0, 0, 0), grid=(18, 18, 18), thin=(58, 58, 60),
             box=(142, 142, 147), given=(235, 235, 245), entry=(10, 132, 255),
             wrong=(255, 69, 58), sel=(31, 59, 92), area=(36, 36, 40), same=(44, 60, 84),
             pencil=(150, 150, 158), text=(235, 235, 245), button=(44, 44, 46)),
        dict(name="charcoal", ground=(18, 18, 18), grid=(30, 30, 30), thin=(70, 70, 70),
             box=(160, 160, 160), given=(224, 224, 224), entry=(100, 181, 246),
             wrong=(239, 83, 80), sel=(55, 71, 79), area=(42, 42, 46), same=(38, 50, 56),
             pencil=(158, 158, 158), text=(224, 224, 224), button=(48, 48, 48)),
        dict(name="navy", ground=(22, 27, 41), grid=(28, 34, 52), thin=(60, 70, 95),
             box=(130, 145, 180), given=(220, 226, 240), entry=(138, 180, 248),
             wrong=(242, 139, 130), sel=(60, 80, 130), area=(36, 44, 66), same=(50, 62, 100),
             pencil=(150, 160, 185), text=(220, 226, 240), button=(40, 48, 70)),
        dict(name="grey", ground=(40, 40, 43), grid=(50, 50, 54), thin=(80, 80, 86),
             box=(170, 170, 176), given=(245, 245, 245), entry=(120, 200, 255),
             wrong=(255, 110, 110), sel=(90, 90, 100), area=(62, 62, 68), same=(75, 85, 105),
             pencil=(170, 170, 176), text=(245, 245, 245), button=(64, 64, 70)),
    ],
}

# Screen sizes (width, height) in pixels.
PHONES = ((1080, 2340), (1170, 2532), (1080, 1920), (720, 1600), (1284, 2778), (828, 1792))
TABLETS = ((1536, 2048), (1620, 2160))
DESKTOPS = ((1920, 1080), (1366, 768), (2560, 1440), (1440, 900))

SCENARIOS = ("fresh", "progress", "progress", "wrong", "complete")


def ui_fonts():
    found = []
    for regular, bold in UI_FONTS:
        r, b = (os.path.join("/usr/share/fonts", p) for p in (regular, bold))
        if os.path.exists(r):
            found.append((r, b if os.path.exists(b) else r))
    if not found:
        sys.exit("no UI fonts under /usr/share/fonts (apt-get install fonts-dejavu)")
    return found


class Puzzles:
    """Unique minimal puzzles from the binary's generator, in order."""

    def __init__(self, binary, seed, count):
        out = subprocess.run([binary, "generate", "--count", str(count), "--seed", str(seed),
                              "--json"], check=True, capture_output=True, text=True).stdout
        self.items = [json.loads(line) for line in out.splitlines() if line.strip()]
        self.next = 0

    def take(self):
        p = self.items[self.next % len(self.items)]
        self.next += 1
        return p["givens"], p["solution"]


def font(path, size):
    return ImageFont.truetype(path, max(6, int(size)))


def text(draw, xy, s, f, fill, anchor="la"):
    draw.text(xy, s, font=f, fill=fill, anchor=anchor)


def mix(a, b, t):
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))


# ---------------------------------------------------------------- the board


class Board:
    """What the screen shows on the grid, and its truth."""

    def __init__(self, rng, givens, solution, scenario):
        self.givens, self.solution = givens, solution
        empty = [i for i in range(81) if givens[i] == "."]
        self.entries = {}          # cell -> digit typed
        self.wrong = set()
        if scenario == "finished_wrong":
            # Every cell filled, one or two entries wrong: a full grid that
            # clashes, which has no solution.
            self.entries = {i: solution[i] for i in empty}
            for i in rng.sample(empty, rng.choice((1, 1, 2))):
                self.entries[i] = rng.choice([d for d in "123456789" if d != solution[i]])
                self.wrong.add(i)
        elif scenario == "complete":
            self.entries = {i: solution[i] for i in empty}
        elif scenario in ("progress", "wrong"):
            for i in rng.sample(empty, rng.randint(4, min(40, len(empty) - 6))):
                self.entries[i] = solution[i]
            if scenario == "wrong":
                for i in rng.sample(sorted(self.entries), rng.choice((1, 1, 2))):
                    self.entries[i] = rng.choice([d for d in "123456789" if d != solution[i]])
                    self.wrong.add(i)
        rest = [i for i in empty if i not in self.entries]
        share = rng.choice((0.0, 0.0, 0.15, 0.4))
        self.pencil = {}
        for i in rng.sample(rest, int(len(rest) * share)):
            k = rng.randint(1, 4)
            self.pencil[i] = sorted(rng.sample("123456789", k))
        if scenario in ("complete", "finished_wrong"):
            self.pencil = {}
        self.expected = ("no_solution" if self.wrong else
                         "complete" if scenario == "complete" else "solved")

    def digit(self, i):
        return self.givens[i] if self.givens[i] != "." else self.entries.get(i, ".")

    def truth(self):
        return "".join(self.digit(i) for i in range(81))

    def kinds(self):
        return "".join(self.digit(i) if self.digit(i) != "." else
                       "*" if i in self.pencil else "." for i in range(81))


def draw_board(draw, rng, x, y, side, board, pal, fonts, style):
    """The grid at (x, y), `side` px square (outer border included)."""
    s = side / 1000.0
    outer = max(2, round(style["outer"] * s * 2))
    box_w = max(2, round(style["boxw"] * s * 2))
    thin_w = max(1, round(style["thinw"] * s * 2))
    inner = side - 2 * outer
    cell = inner / 9.0
    x0, y0 = x + outer, y + outer
    draw.rectangle([x, y, x + side - 1, y + side - 1], fill=pal["box"])
    draw.rectangle([x0, y0, x0 + inner - 1, y0 + inner - 1], fill=pal["grid"])
    shade = shading(board, style, pal)
    for i, colour in shade.items():
        r, c = divmod(i, 9)
        draw.rectangle([x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell],
                       fill=colour)
    for k in range(1, 9):
        w = box_w if k % 3 == 0 else thin_w
        colour = pal["box"] if k % 3 == 0 else pal["thin"]
        p = k * cell
        # A 1 px line's ends, p - 0.5 and p + 0.5 - 1, can differ by a
        # rounding error in the wrong order, which Pillow refuses.
        a, b = p - w / 2, max(p - w / 2, p + w / 2 - 1)
        draw.rectangle([x0 + a, y0, x0 + b, y0 + inner - 1], fill=colour)
        draw.rectangle([x0, y0 + a, x0 + inner - 1, y0 + b], fill=colour)
    cell_digits(draw, x0, y0, cell, board, pal, style)
    return (x, y, x + side, y + side)


# ---------------------------------------------------------------- the app around it


def status_bar(draw, w, h, pal, fonts, rng):
    f = font(fonts[0][1], h * 0.45)
    text(draw, (w * 0.06, h / 2), rng.choice(("9:41", "10:08", "21:37", "14:02")), f,
         pal["text"], "lm")
    # Battery, wifi and signal as shapes.
    bx = w * 0.9
    draw.rounded_rectangle([bx, h * 0.3, bx + h * 0.9, h * 0.7], radius=h * 0.08,
                           outline=pal["text"], width=max(1, int(h * 0.05)))
    draw.rectangle([bx + h * 0.1, h * 0.38, bx + h * rng.uniform(0.3, 0.8), h * 0.62],
                   fill=pal["text"])
    for k in range(4):
        sx = w * 0.8 + k * h * 0.22
        draw.rectangle([sx, h * (0.65 - 0.1 * k), sx + h * 0.12, h * 0.7], fill=pal["text"])


def toolbar(draw, x0, y0, w, h, pal, fonts, rng):
    f = font(fonts[0][1], h * 0.42)
    text(draw, (x0 + w * 0.05, y0 + h / 2), "<", f, pal["text"], "lm")
    title = rng.choice(("Sudoku", "Sudoku Classic", "Daily Sudoku", "Killer & Classic",
                        "Sudoku - Free"))
    text(draw, (x0 + w / 2, y0 + h / 2), title, f, pal["text"], "mm")
    for k in range(2):
        cx = x0 + w * (0.82 + 0.1 * k)
        r = h * 0.2
        draw.ellipse([cx - r, y0 + h / 2 - r, cx + r, y0 + h / 2 + r], outline=pal["text"],
                     width=max(2, int(h * 0.05)))


def info_row(draw, x0, y0, w, h, pal, fonts, rng, board):
    f = font(fonts[0][0], h * 0.45)
    level = rng.choice(("Easy", "Medium", "Hard", "Expert", "Evil", "Level 12"))
    mistakes = f"Mistakes: {len(board.wrong) if rng.random() < 0.5 else 0}/3"
    timer = f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
    text(draw, (x0, y0 + h / 2), level, f, pal["text"], "lm")
    text(draw, (x0 + w / 2, y0 + h / 2), mistakes, f, pal["text"], "mm")
    text(draw, (x0 + w, y0 + h / 2), timer, f, pal["text"], "rm")


def tool_buttons(draw, x0, y0, w, h, pal, fonts, rng):
    f = font(fonts[0][0], h * 0.22)
    labels = ("Undo", "Erase", "Notes", "Hint")
    for k, label in enumerate(labels):
        cx = x0 + w * (k + 0.5) / len(labels)
        r = h * 0.25
        draw.ellipse([cx - r, y0 + h * 0.35 - r, cx + r, y0 + h * 0.35 + r], fill=pal["button"])
        text(draw, (cx, y0 + h * 0.85), label, f, pal["text"], "mm")
        if label == "Notes":
            text(draw, (cx + r, y0 + h * 0.1), rng.choice(("OFF", "ON")),
                 font(fonts[0][1], h * 0.15), pal["entry"], "mm")
        if label == "Hint":
            text(draw, (cx + r, y0 + h * 0.1), str(rng.randint(0, 3)),
                 font(fonts[0][1], h * 0.15), pal["entry"], "mm")


def number_pad(draw, x0, y0, w, h, pal, fonts, rng, kind, board):
    """Digits 1-9 as buttons: `row` (one row of nine), `rows` (5 + 4), or
    `keypad` (3x3 bordered buttons)."""
    regular, bold = rng.choice(fonts)
    colour = rng.choice((pal["entry"], pal["given"], pal["text"]))
    counts = rng.random() < 0.5
    left = {d: 9 - sum(1 for i in range(81) if board.digit(i) == d) for d in "123456789"}
    if kind == "row":
        bw = w / 9
        f = font(regular, min(bw * 0.8, h * 0.8))
        for k, d in enumerate("123456789"):
            cx = x0 + (k + 0.5) * bw
            if rng.random() < 0.3:
                draw.rounded_rectangle([cx - bw * 0.42, y0, cx + bw * 0.42, y0 + h],
                                       radius=bw * 0.15, fill=pal["button"])
            text(draw, (cx, y0 + h * 0.45), d, f, colour, "mm")
            if counts:
                text(draw, (cx, y0 + h * 0.92), str(left[d]), font(regular, h * 0.16),
                     pal["pencil"], "mm")
    elif kind == "rows":
        bw = w / 5
        bh = h / 2
        f = font(bold, bh * 0.55)
        for k, d in enumerate("123456789"):
            r, c = divmod(k, 5)
            bx, by = x0 + c * bw, y0 + r * bh
            draw.rounded_rectangle([bx + bw * 0.06, by + bh * 0.06, bx + bw * 0.94,
                                    by + bh * 0.94], radius=bh * 0.2, fill=pal["button"])
            text(draw, (bx + bw / 2, by + bh / 2), d, f, colour, "mm")
        text(draw, (x0 + 4.5 * bw, y0 + 1.5 * bh), "X", font(bold, bh * 0.4), pal["text"], "mm")
    else:
        bw, bh = w / 3, h / 3
        f = font(bold, min(bw, bh) * 0.5)
        border = max(2, int(min(bw, bh) * 0.03))
        for k, d in enumerate("123456789"):
            r, c = divmod(k, 3)
            bx, by = x0 + c * bw, y0 + r * bh
            draw.rounded_rectangle([bx + 4, by + 4, bx + bw - 4, by + bh - 4],
                                   radius=min(bw, bh) * 0.12, fill=pal["button"],
                                   outline=pal["thin"], width=border)
            text(draw, (bx + bw / 2, by + bh / 2), d, f, colour, "mm")


def nav_bar(draw, w, y, h, pal):
    draw.rounded_rectangle([w * 0.35, y + h * 0.45, w * 0.65, y + h * 0.55], radius=h * 0.05,
                           fill=pal["text"])


def style_for(rng, fonts, board):
    filled = [i for i in range(81) if board.digit(i) != "."]
    selected = rng.choice((None, rng.randrange(81),
                           rng.choice(filled) if filled else None, rng.randrange(81)))
    return {
        "font": rng.choice(fonts),
        "digit": rng.uniform(0.5, 0.75),
        "bold_givens": rng.random() < 0.5,
        "outer": rng.choice((1, 2, 2, 3)),
        "boxw": rng.choice((1, 1.5, 2, 2.5)),
        "thinw": rng.choice((0.5, 0.5, 0.8, 1.0)),
        "selected": selected,
        "area": rng.random() < 0.8,
        "same": rng.random() < 0.7,
        "conflict": rng.random() < 0.3,
        "red_mistakes": rng.random() < 0.5,
    }


def screen(rng, fonts, puzzles, scenario=None):
    """One screenshot: (image, board, grid box, description); `scenario`
    replaces the drawn one (the draw is made all the same, so that a seed
    gives the same screens as before)."""
    theme = rng.choice(("light", "dark"))
    pal = rng.choice(PALETTES[theme])
    device = rng.choice(("phone", "phone", "phone", "tablet", "desktop"))
    givens, solution = puzzles.take()
    drawn = rng.choice(SCENARIOS)
    board = Board(rng, givens, solution, scenario or drawn)
    style = style_for(rng, fonts, board)
    pad = rng.choice(("row", "row", "rows", "keypad"))
    if device in ("phone", "tablet"):
        w, h = rng.choice(PHONES if device == "phone" else TABLETS)
        img = Image.new("RGB", (w, h), pal["ground"])
        draw = ImageDraw.Draw(img)
        sb = h * 0.03
        status_bar(draw, w, sb, pal, fonts, rng)
        y = sb
        toolbar(draw, 0, y, w, h * 0.055, pal, fonts, rng)
        y += h * 0.055
        if rng.random() < 0.3:   # an ad banner
            draw.rectangle([w * 0.05, y, w * 0.95, y + h * 0.05], fill=pal["button"])
            text(draw, (w / 2, y + h * 0.025), "Ad - Play more puzzles!",
                 font(fonts[0][0], h * 0.018), pal["text"], "mm")
            y += h * 0.055
        margin = w * rng.uniform(0.015, 0.05) if device == "phone" else w * 0.12
        info_row(draw, margin, y, w - 2 * margin, h * 0.035, pal, fonts, rng, board)
        y += h * 0.04
        side = w - 2 * margin
        box = draw_board(draw, rng, margin, y, side, board, pal, fonts, style)
        y += side + h * 0.02
        tool_buttons(draw, margin, y, w - 2 * margin, h * 0.07, pal, fonts, rng)
        y += h * 0.085
        ph = {"row": h * 0.07, "rows": h * 0.11, "keypad": h * 0.2}[pad]
        ph = min(ph, h - y - h * 0.04)
        if ph > h * 0.04:
            number_pad(draw, margin, y, w - 2 * margin, ph, pal, fonts, rng, pad, board)
        nav_bar(draw, w, h - h * 0.03, h * 0.03, pal)
    else:
        w, h = rng.choice(DESKTOPS)
        img = Image.new("RGB", (w, h), pal["ground"])
        draw = ImageDraw.Draw(img)
        # Browser chrome: tabs and the address bar.
        chrome = mix(pal["ground"], pal["text"], 0.1)
        draw.rectangle([0, 0, w, h * 0.09], fill=chrome)
        tf = font(fonts[0][0], h * 0.018)
        draw.rounded_rectangle([w * 0.01, h * 0.01, w * 0.18, h * 0.045], radius=6,
                               fill=pal["ground"])
        text(draw, (w * 0.02, h * 0.028), "Sudoku - Play online", tf, pal["text"], "lm")
        draw.rounded_rectangle([w * 0.08, h * 0.05, w * 0.7, h * 0.08], radius=10,
                               fill=pal["ground"])
        text(draw, (w * 0.09, h * 0.065), "https://sudoku.example.org/play/medium/4821", tf,
             pal["text"], "lm")
        hf = font(fonts[0][1], h * 0.04)
        text(draw, (w * 0.05, h * 0.13), "SUDOKU", hf, pal["text"], "lm")
        side = h * rng.uniform(0.7, 0.8)
        gx, gy = w * rng.uniform(0.05, 0.2), h * 0.18
        side = min(side, h - gy - 10)
        info_row(draw, gx, gy - h * 0.035, side, h * 0.03, pal, fonts, rng, board)
        box = draw_board(draw, rng, gx, gy, side, board, pal, fonts, style)
        px = gx + side + w * 0.04
        pw = min(w - px - w * 0.03, side * 0.6)
        tool_buttons(draw, px, gy, pw, side * 0.18, pal, fonts, rng)
        number_pad(draw, px, gy + side * 0.25, pw, min(pw, side * 0.6), pal, fonts, rng,
                   "keypad" if pad != "row" else "rows", board)
        bf = font(fonts[0][0], h * 0.018)
        for k, line in enumerate(("How to play: fill every row, column and box",
                                  "with the digits 1 to 9. Tap a cell, then a number.",
                                  "New game  |  Print  |  Settings")):
            text(draw, (px, gy + side * 0.9 + k * h * 0.025), line, bf, pal["text"], "lm")
    what = (f"{device} {w}x{h}, {theme}/{pal['name']}, "
            f"{os.path.basename(style['font'][0])}, pad {pad}, "
            f"selected {style['selected']}")
    return img, board, box, what


# ---------------------------------------------------------------- newer screen kinds
#
# Drawn only when asked for (`--kinds`), each from a random stream and a
# puzzle stream of its own, so that a seed's classic screens stay as they
# were and held-out sets made before stay valid.

# Material (Android) colour schemes: the accent (primary), its container
# tone, and the light and dark surfaces the accent tints.
MATERIAL = (
    dict(name="purple", primary=(103, 80, 164), container=(234, 221, 255), dark_primary=(208, 188, 255)),
    dict(name="teal", primary=(0, 106, 106), container=(111, 247, 246), dark_primary=(76, 218, 218)),
    dict(name="green", primary=(56, 106, 32), container=(184, 243, 151), dark_primary=(157, 214, 126)),
    dict(name="orange", primary=(150, 73, 0), container=(255, 220, 196), dark_primary=(255, 183, 134)),
    dict(name="blue", primary=(0, 97, 164), container=(209, 228, 255), dark_primary=(158, 202, 255)),
    dict(name="pink", primary=(152, 64, 97), container=(255, 217, 226), dark_primary=(255, 177, 200)),
)

ANDROID_PHONES = ((1080, 2400), (1080, 2340), (1440, 3200), (720, 1600), (1080, 2280))

# Neon accents of console and handheld games.
NEON = ((0, 255, 230), (255, 40, 200), (140, 255, 40), (255, 150, 20), (80, 160, 255),
        (255, 230, 60))

VIDEO_SIZES = ((1920, 1080), (1280, 720))


def material_palette(rng, theme):
    m = rng.choice(MATERIAL)
    if theme == "light":
        ground = mix((255, 251, 254), m["container"], 0.08)
        card = mix((255, 255, 255), m["container"], rng.choice((0.0, 0.15, 0.3)))
        grid = rng.choice(((255, 255, 255), card))
        ink = (28, 27, 31)
        pal = dict(name=f"material-{m['name']}", ground=ground, card=card, grid=grid,
                   thin=mix(grid, ink, rng.uniform(0.18, 0.3)),
                   box=rng.choice((ink, m["primary"], mix(grid, ink, 0.6))),
                   given=ink, entry=m["primary"], wrong=(179, 38, 30),
                   sel=mix(grid, m["primary"], 0.35), area=mix(grid, m["container"], 0.6),
                   same=mix(grid, m["primary"], 0.2), pencil=(100, 96, 104), text=ink,
                   button=mix(card, m["container"], 0.7), accent=m["primary"],
                   on_accent=(255, 255, 255), boxshade=mix(grid, m["container"], 0.55),
                   bar=rng.choice((ground, m["primary"])))
    else:
        ground = mix((28, 27, 31), m["dark_primary"], 0.04)
        card = mix((43, 41, 48), m["dark_primary"], rng.choice((0.0, 0.06)))
        grid = rng.choice(((36, 35, 40), card, (20, 19, 24)))
        ink = (230, 225, 229)
        pal = dict(name=f"material-{m['name']}", ground=ground, card=card, grid=grid,
                   thin=mix(grid, ink, rng.uniform(0.15, 0.28)),
                   box=rng.choice((mix(grid, ink, 0.7), m["dark_primary"])),
                   given=ink, entry=m["dark_primary"], wrong=(242, 184, 181),
                   sel=mix(grid, m["dark_primary"], 0.35), area=mix(grid, m["dark_primary"], 0.12),
                   same=mix(grid, m["dark_primary"], 0.22), pencil=(170, 165, 172), text=ink,
                   button=mix(card, m["dark_primary"], 0.2), accent=m["dark_primary"],
                   on_accent=(30, 20, 50), boxshade=mix(grid, m["dark_primary"], 0.14),
                   bar=ground)
    return pal


def shading(board, style, pal):
    """Cell colours of a tapped cell: its row, column and box, and the cells
    holding its digit (what apps do when a cell is tapped)."""
    shade = {}
    sel = style["selected"]
    if sel is not None:
        r, c = divmod(sel, 9)
        if style["area"]:
            for i in range(81):
                rr, cc = divmod(i, 9)
                if rr == r or cc == c or (rr // 3, cc // 3) == (r // 3, c // 3):
                    shade[i] = pal["area"]
        d = board.digit(sel)
        if d != "." and style["same"]:
            for i in range(81):
                if board.digit(i) == d:
                    shade[i] = pal["same"]
        shade[sel] = pal["sel"]
    if style["conflict"]:
        for i in board.wrong:
            shade[i] = mix(pal["grid"], pal["wrong"], 0.25)
    return shade


def cell_digits(draw, x0, y0, cell, board, pal, style):
    regular, bold = style["font"]
    size = cell * style["digit"]
    given_font = font(bold if style["bold_givens"] else regular, size)
    entry_font = font(regular, size)
    pencil_font = font(regular, cell * 0.26)
    for i in range(81):
        r, c = divmod(i, 9)
        cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
        if board.givens[i] != ".":
            text(draw, (cx, cy), board.givens[i], given_font, pal["given"], "mm")
        elif i in board.entries:
            colour = pal["wrong"] if i in board.wrong and style["red_mistakes"] else pal["entry"]
            text(draw, (cx, cy), board.entries[i], entry_font, colour, "mm")
        elif i in board.pencil:
            for d in board.pencil[i]:
                k = int(d) - 1
                px = x0 + c * cell + cell * (0.2 + 0.3 * (k % 3))
                py = y0 + r * cell + cell * (0.2 + 0.3 * (k // 3))
                text(draw, (px, py), d, pencil_font, pal["pencil"], "mm")


def draw_material_board(img, x, y, side, board, pal, style):
    """A Material grid at (x, y): `rounded` (an outer border with rounded
    corners), `borderless` (no outer line; box lines thicker than cell
    lines), or `shaded` (boxes told apart by alternate shading, every line
    as thin as the cell lines). Drawn on its own tile, then pasted through a
    rounded mask onto the card."""
    side = int(side)
    tile = Image.new("RGB", (side, side), pal["card"])
    draw = ImageDraw.Draw(tile)
    kind = style["grid"]
    s = side / 1000.0
    thin_w = max(1, round(style["thinw"] * s * 2))
    box_w = thin_w if kind == "shaded" else max(thin_w + 1, round(style["boxw"] * s * 2))
    outer = {"rounded": max(2, round(style["outer"] * s * 2)), "borderless": 0,
             "shaded": thin_w if style["shaded_outline"] else 0}[kind]
    inner = side - 2 * outer
    cell = inner / 9.0
    x0 = y0 = outer
    radius = side * style["radius"]
    draw.rectangle([x0, y0, x0 + inner - 1, y0 + inner - 1], fill=pal["grid"])
    if kind == "shaded":
        for b in range(9):
            br, bc = divmod(b, 3)
            if (br + bc) % 2 == 0:
                draw.rectangle([x0 + bc * 3 * cell, y0 + br * 3 * cell,
                                x0 + (bc + 1) * 3 * cell, y0 + (br + 1) * 3 * cell],
                               fill=pal["boxshade"])
    for i, colour in shading(board, style, pal).items():
        r, c = divmod(i, 9)
        draw.rectangle([x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell],
                       fill=colour)
    for k in range(1, 9):
        w = box_w if k % 3 == 0 else thin_w
        colour = pal["box"] if k % 3 == 0 and kind != "shaded" else pal["thin"]
        p = k * cell
        # A 1 px line's ends, p - 0.5 and p + 0.5 - 1, can differ by a
        # rounding error in the wrong order, which Pillow refuses.
        a, b = p - w / 2, max(p - w / 2, p + w / 2 - 1)
        draw.rectangle([x0 + a, y0, x0 + b, y0 + inner - 1], fill=colour)
        draw.rectangle([x0, y0 + a, x0 + inner - 1, y0 + b], fill=colour)
    cell_digits(draw, x0, y0, cell, board, pal, style)
    mask = Image.new("L", (side, side), 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, side - 1, side - 1], radius=radius, fill=255)
    img.paste(tile, (int(x), int(y)), mask)
    if outer:
        colour = pal["box"] if kind == "rounded" else pal["thin"]
        ImageDraw.Draw(img).rounded_rectangle([int(x), int(y), int(x) + side - 1, int(y) + side - 1],
                                              radius=radius, outline=colour, width=outer)
    return (int(x), int(y), int(x) + side, int(y) + side)


def android_screen(rng, fonts, puzzles, scenario=None):
    """An Android app in Material style: a status bar with icons, a top app
    bar (plain or in the accent colour), the grid on an elevated card with
    rounded corners, a row of tonal chips, a number pad of rounded buttons,
    a floating action button and the three-button or gesture navigation bar."""
    theme = rng.choice(("light", "light", "dark"))
    pal = material_palette(rng, theme)
    givens, solution = puzzles.take()
    board = Board(rng, givens, solution, scenario or rng.choice(SCENARIOS))
    style = style_for(rng, fonts, board)
    style.update(grid=rng.choice(("rounded", "borderless", "shaded")),
                 radius=rng.uniform(0.015, 0.05), shaded_outline=rng.random() < 0.5)
    w, h = rng.choice(ANDROID_PHONES)
    img = Image.new("RGB", (w, h), pal["ground"])
    draw = ImageDraw.Draw(img)
    bold = fonts[0][1]
    sb = h * 0.03
    if pal["bar"] != pal["ground"]:
        draw.rectangle([0, 0, w, sb + h * 0.06], fill=pal["bar"])
    bar_ink = pal["on_accent"] if pal["bar"] != pal["ground"] else pal["text"]
    text(draw, (w * 0.05, sb / 2), rng.choice(("12:30", "8:05", "17:42")), font(bold, sb * 0.5),
         bar_ink, "lm")
    for k in range(3):   # notification icons, then wifi, signal, battery
        draw.ellipse([w * (0.2 + 0.04 * k), sb * 0.35, w * (0.2 + 0.04 * k) + sb * 0.3, sb * 0.65],
                     fill=bar_ink)
    draw.pieslice([w * 0.78, sb * 0.2, w * 0.78 + sb * 0.6, sb * 0.8], 225, 315, fill=bar_ink)
    draw.polygon([(w * 0.84, sb * 0.75), (w * 0.84 + sb * 0.5, sb * 0.75),
                  (w * 0.84 + sb * 0.5, sb * 0.25)], fill=bar_ink)
    draw.rounded_rectangle([w * 0.9, sb * 0.3, w * 0.9 + sb * 0.35, sb * 0.75], radius=2,
                           fill=bar_ink)
    y = sb
    tb = h * 0.06
    text(draw, (w * 0.05, y + tb / 2), "\u2190" if rng.random() < 0.5 else "=",
         font(bold, tb * 0.45), bar_ink, "lm")
    text(draw, (w * 0.14, y + tb / 2), rng.choice(("Sudoku", "Sudoku Master", "Brain Sudoku",
                                                   "Sudoku \u2022 Daily")),
         font(bold, tb * 0.38), bar_ink, "lm")
    for k in range(2):
        cx = w * (0.8 + 0.1 * k)
        draw.ellipse([cx - tb * 0.15, y + tb * 0.35, cx + tb * 0.15, y + tb * 0.65], outline=bar_ink,
                     width=max(2, int(tb * 0.04)))
    y += tb + h * 0.01
    margin = w * rng.uniform(0.03, 0.06)
    # Chips: difficulty, mistakes, time.
    chip_h = h * 0.032
    cf = font(fonts[0][0], chip_h * 0.45)
    cx = margin
    for label in (rng.choice(("Easy", "Medium", "Hard", "Expert")),
                  f"Mistakes {len(board.wrong)}/3", f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"):
        tw = draw.textlength(label, font=cf) + chip_h
        draw.rounded_rectangle([cx, y, cx + tw, y + chip_h], radius=chip_h / 2, fill=pal["button"])
        text(draw, (cx + tw / 2, y + chip_h / 2), label, cf, pal["text"], "mm")
        cx += tw + w * 0.02
    y += chip_h + h * 0.015
    # The card: a soft shadow, then the surface, then the grid inside it.
    pad = w * rng.uniform(0.015, 0.04)
    side = w - 2 * margin - 2 * pad
    card = [margin, y, w - margin, y + side + 2 * pad]
    shadow = mix(pal["ground"], (0, 0, 0), 0.12 if theme == "light" else 0.3)
    draw.rounded_rectangle([card[0] + 2, card[1] + 6, card[2] + 2, card[3] + 6], radius=w * 0.04,
                           fill=shadow)
    draw.rounded_rectangle(card, radius=w * 0.04, fill=pal["card"])
    box = draw_material_board(img, margin + pad, y + pad, side, board, pal, style)
    draw = ImageDraw.Draw(img)
    y = card[3] + h * 0.02
    tool_buttons(draw, margin, y, w - 2 * margin, h * 0.065, pal, fonts, rng)
    y += h * 0.08
    # Number pad: nine rounded tonal buttons in a row or a 5 + 4 block.
    pad_h = h * 0.075
    bw = (w - 2 * margin) / 9
    nf = font(fonts[0][0], min(bw, pad_h) * 0.55)
    for k, d in enumerate("123456789"):
        bx = margin + k * bw
        draw.rounded_rectangle([bx + bw * 0.06, y, bx + bw * 0.94, y + pad_h], radius=bw * 0.3,
                               fill=pal["button"])
        text(draw, (bx + bw / 2, y + pad_h / 2), d, nf, pal["accent"], "mm")
    # The floating action button, bottom right, clear of the grid.
    fab = w * 0.16
    fx, fy = w - margin - fab, h - h * 0.06 - fab
    if fy > y + pad_h + 8:
        draw.rounded_rectangle([fx, fy, fx + fab, fy + fab], radius=fab * 0.28, fill=pal["accent"])
        draw.line([fx + fab * 0.3, fy + fab / 2, fx + fab * 0.7, fy + fab / 2], fill=pal["on_accent"],
                  width=max(2, int(fab * 0.06)))
        draw.line([fx + fab / 2, fy + fab * 0.3, fx + fab / 2, fy + fab * 0.7], fill=pal["on_accent"],
                  width=max(2, int(fab * 0.06)))
    nb = h * 0.045
    nav = mix(pal["ground"], pal["text"], 0.05)
    draw.rectangle([0, h - nb, w, h], fill=nav)
    if rng.random() < 0.5:   # three-button navigation
        c = h - nb / 2
        r = nb * 0.22
        draw.polygon([(w * 0.25 - r, c), (w * 0.25 + r, c - r), (w * 0.25 + r, c + r)],
                     outline=pal["text"])
        draw.ellipse([w * 0.5 - r, c - r, w * 0.5 + r, c + r], outline=pal["text"], width=2)
        draw.rounded_rectangle([w * 0.75 - r, c - r, w * 0.75 + r, c + r], radius=3,
                               outline=pal["text"], width=2)
    else:
        nav_bar(draw, w, h - nb, nb, pal)
    what = (f"android {w}x{h}, {theme}/{pal['name']}, grid {style['grid']}, "
            f"{os.path.basename(style['font'][0])}, selected {style['selected']}")
    return img, board, box, what


def console_screen(rng, fonts, puzzles, scenario=None):
    """A game on a TV console or a handheld: 1280x720 or 1920x1080, a dark
    gradient ground, a neon accent, a thick glowing frame round the grid, a
    cursor ringing one cell, side panels and controller-button hints."""
    w, h = rng.choice(((1280, 720), (1920, 1080), (1280, 720)))
    neon = rng.choice(NEON)
    top = rng.choice(((10, 12, 30), (25, 10, 40), (5, 25, 35), (20, 20, 20)))
    bottom = mix(top, (0, 0, 0), 0.6)
    img = Image.new("RGB", (w, h), top)
    draw = ImageDraw.Draw(img)
    for yy in range(h):
        draw.line([0, yy, w, yy], fill=mix(top, bottom, yy / h))
    givens, solution = puzzles.take()
    board = Board(rng, givens, solution, scenario or rng.choice(SCENARIOS))
    style = style_for(rng, fonts, board)
    grid_ground = mix(top, (0, 0, 0), rng.choice((0.3, 0.6))) if rng.random() < 0.6 else (235, 235, 240)
    light = sum(grid_ground) > 380
    pal = dict(name=f"neon{NEON.index(neon)}", ground=top, grid=grid_ground,
               thin=mix(grid_ground, (128, 128, 160) if not light else (60, 60, 80), 0.55),
               box=mix(neon, (255, 255, 255), 0.1) if rng.random() < 0.6 else
               mix(grid_ground, (200, 200, 220) if not light else (0, 0, 0), 0.8),
               given=(245, 245, 250) if not light else (20, 20, 30),
               entry=neon if not light else mix(neon, (0, 0, 0), 0.45),
               wrong=(255, 70, 70), sel=mix(grid_ground, neon, 0.35),
               area=mix(grid_ground, neon, 0.12), same=mix(grid_ground, neon, 0.22),
               pencil=(150, 150, 170) if not light else (100, 100, 110), text=(235, 235, 245),
               button=mix(top, (255, 255, 255), 0.12))
    side = h * rng.uniform(0.7, 0.8)
    frame = side * rng.uniform(0.02, 0.045)
    gx = rng.choice((w / 2 - side / 2, w * 0.08 + frame, w * 0.3))
    gy = (h - side) / 2 - h * 0.03
    # Glow: rings of the accent fading out, then the frame itself.
    glow = int(frame * 1.5)
    for k in range(glow, 0, -1):
        colour = mix(top, neon, 0.5 * (1 - k / glow) ** 2)
        draw.rounded_rectangle([gx - frame - k, gy - frame - k, gx + side + frame + k,
                                gy + side + frame + k], radius=frame + k, outline=colour, width=1)
    frame_colour = rng.choice((neon, mix(neon, top, 0.4), (90, 95, 110)))
    draw.rounded_rectangle([gx - frame, gy - frame, gx + side + frame, gy + side + frame],
                           radius=frame, fill=frame_colour)
    box = draw_board(draw, rng, gx, gy, side, board, pal, fonts, style)
    # The cursor: a thick ring round one cell, over the lines.
    outer = max(2, round(style["outer"] * side / 1000 * 2))
    cell = (side - 2 * outer) / 9
    cur = rng.randrange(81)
    r, c = divmod(cur, 9)
    cw = max(3, int(cell * rng.uniform(0.06, 0.12)))
    cx0, cy0 = gx + outer + c * cell, gy + outer + r * cell
    draw.rectangle([cx0 - cw / 2, cy0 - cw / 2, cx0 + cell + cw / 2, cy0 + cell + cw / 2],
                   outline=rng.choice((neon, (255, 220, 0), (255, 255, 255))), width=cw)
    # Side panels.
    bold = fonts[0][1]
    px = gx + side + frame + w * 0.04
    if px + w * 0.15 > w:
        px = w * 0.03
    pw = w - px - w * 0.04 if px > gx else gx - frame - w * 0.06
    f = font(bold, h * 0.04)
    for k, (label, value) in enumerate((("LEVEL", str(rng.randint(1, 60))),
                                        ("TIME", f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"),
                                        ("SCORE", str(rng.randint(0, 9999))))):
        yy = gy + k * h * 0.12
        text(draw, (px, yy), label, font(bold, h * 0.025), neon, "la")
        text(draw, (px, yy + h * 0.035), value, f, pal["text"], "la")
    # A column of the digits to place, the chosen one lit.
    if pw > h * 0.08:
        bh = side / 9.5
        dx = px + min(pw, w * 0.25) - bh
        chosen = rng.randrange(9)
        for k, d in enumerate("123456789"):
            yy = gy + k * bh * 1.05
            if yy + bh > h * 0.86:
                break
            draw.rounded_rectangle([dx, yy, dx + bh * 0.9, yy + bh * 0.9], radius=bh * 0.2,
                                   fill=neon if k == chosen else pal["button"])
            text(draw, (dx + bh * 0.45, yy + bh * 0.45), d, font(bold, bh * 0.55),
                 top if k == chosen else pal["text"], "mm")
    # Controller-button hints along the bottom.
    hints = rng.choice(((("A", (90, 200, 90), "Place"), ("B", (220, 70, 70), "Back"),
                         ("X", (70, 130, 230), "Notes"), ("Y", (230, 200, 60), "Hint")),
                        (("\u25b3", (60, 200, 170), "Hint"), ("\u25cb", (230, 80, 90), "Back"),
                         ("\u00d7", (110, 150, 240), "Place"), ("\u25a1", (220, 120, 200), "Notes"))))
    hf = font(fonts[0][0], h * 0.028)
    hx = w * 0.06
    hy = h - h * 0.05
    for glyph, colour, label in hints:
        r = h * 0.02
        draw.ellipse([hx - r, hy - r, hx + r, hy + r], fill=colour)
        text(draw, (hx, hy), glyph, font("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
                                         if os.path.exists("/usr/share/fonts/truetype/dejavu/"
                                                           "DejaVuSans-Bold.ttf") else bold, r * 1.2),
             (255, 255, 255), "mm")
        text(draw, (hx + r * 1.6, hy), label, hf, pal["text"], "lm")
        hx += w * 0.14
    what = (f"console {w}x{h}, dark/{pal['name']}, grid {'light' if light else 'dark'}, "
            f"{os.path.basename(style['font'][0])}, cursor {cur}")
    return img, board, box, what


def finished_screen(rng, fonts, puzzles):
    """A board with every cell filled: the puzzle finished right (`complete`)
    or with one or two wrong entries (`no_solution`, the grid clashes), in a
    classic or a Material app, with a banner saying it is done."""
    scenario = rng.choice(("complete", "complete", "finished_wrong"))
    if rng.random() < 0.5:
        img, board, box, what = screen(rng, fonts, puzzles, scenario)
    else:
        img, board, box, what = android_screen(rng, fonts, puzzles, scenario)
    if scenario == "complete" and rng.random() < 0.7:
        # A banner in the space above or below the grid, never over it.
        draw = ImageDraw.Draw(img)
        w, h = img.size
        bh = min(h * 0.06, box[1] * 0.8, (h - box[3]) * 0.8)
        if bh > 20:
            above = box[1] > h - box[3]
            y0 = box[1] - bh - 4 if above else box[3] + 4
            draw.rectangle([0, y0, w, y0 + bh], fill=rng.choice(((76, 175, 80), (255, 193, 7),
                                                                 (33, 150, 243))))
            text(draw, (w / 2, y0 + bh / 2), rng.choice(("Solved! Well done", "Congratulations!",
                                                         "Puzzle complete \u2605\u2605\u2605")),
                 font(fonts[0][1], bh * 0.5), (255, 255, 255), "mm")
            what += ", banner"
    return img, board, box, "finished " + what


def video_frame(rng, fonts, puzzles):
    """A video frame or thumbnail: 16:9, the app screen smaller inside it (a
    phone screen on a blurred copy of itself, or a screen recording
    letterboxed), with a play button, a progress bar, a caption and a
    channel logo, none of them over the grid, then blurred and saved as a
    video-quality JPEG by `make`."""
    from PIL import ImageFilter
    W, H = rng.choice(VIDEO_SIZES)
    source = rng.choice(("classic", "android", "console", "classic"))
    if source == "classic":
        inner, board, box, what = screen(rng, fonts, puzzles)
    elif source == "android":
        inner, board, box, what = android_screen(rng, fonts, puzzles)
    else:
        inner, board, box, what = console_screen(rng, fonts, puzzles)
    iw, ih = inner.size
    if ih > iw:   # a phone screen: full height, beside its blurred copy
        scale = H * rng.uniform(0.9, 1.0) / ih
        ox = rng.choice((W / 2 - iw * scale / 2, W * 0.05, W * 0.55))
    else:         # a recording: most of the frame
        scale = min(W / iw, H / ih) * rng.uniform(0.8, 1.0)
        ox = (W - iw * scale) / 2
    oy = (H - ih * scale) / 2
    small = inner.resize((int(iw * scale), int(ih * scale)), Image.LANCZOS)
    back = inner.resize((W, int(W * ih / iw)), Image.BILINEAR).crop((0, 0, W, H))
    back = back.filter(ImageFilter.GaussianBlur(W / 40)).point(lambda v: int(v * 0.55))
    frame = back.resize((W, H)) if back.size != (W, H) else back
    frame.paste(small, (int(ox), int(oy)))
    gb = (int(ox + box[0] * scale), int(oy + box[1] * scale), int(ox + box[2] * scale),
          int(oy + box[3] * scale))
    draw = ImageDraw.Draw(frame)

    def clear(r):
        """Whether rectangle r keeps off the grid (with a margin)."""
        m = (gb[2] - gb[0]) * 0.03
        return r[2] < gb[0] - m or r[0] > gb[2] + m or r[3] < gb[1] - m or r[1] > gb[3] + m

    bold = fonts[0][1]
    # Play button: the middle of the frame when that is clear, else beside the grid.
    pr = H * 0.08
    for cx, cy in ((W / 2, H / 2), ((gb[2] + W) / 2, H / 2), (gb[0] / 2, H / 2),
                   ((gb[2] + W) / 2, H * 0.3)):
        r = [cx - pr * 1.4, cy - pr, cx + pr * 1.4, cy + pr]
        if clear(r) and r[0] > 0 and r[2] < W:
            draw.rounded_rectangle(r, radius=pr * 0.5, fill=rng.choice(((230, 33, 23), (30, 30, 30))))
            draw.polygon([(cx - pr * 0.35, cy - pr * 0.45), (cx - pr * 0.35, cy + pr * 0.45),
                          (cx + pr * 0.5, cy)], fill=(255, 255, 255))
            break
    # Caption: a dark box of white text in the lower third, where it misses the grid.
    cf = font(bold, H * 0.045)
    caption = rng.choice(("This trick solves it in seconds", "The X-wing, step by step",
                          "Can you find the next digit?", "HARDEST SUDOKU EVER?!"))
    tw = draw.textlength(caption, font=cf)
    for cx in (W / 2, (gb[2] + W) / 2, gb[0] / 2):
        r = [cx - tw / 2 - 12, H * 0.8, cx + tw / 2 + 12, H * 0.8 + H * 0.065]
        if clear(r) and r[0] > 0 and r[2] < W:
            draw.rectangle(r, fill=(0, 0, 0))
            text(draw, (cx, (r[1] + r[3]) / 2), caption, cf, (255, 255, 255), "mm")
            break
    # Channel logo, a corner clear of the grid.
    lr = H * 0.045
    for cx, cy in ((W - lr * 1.5, lr * 1.5), (lr * 1.5, lr * 1.5), (W - lr * 1.5, H - lr * 3)):
        if clear([cx - lr, cy - lr, cx + lr, cy + lr]):
            draw.ellipse([cx - lr, cy - lr, cx + lr, cy + lr], fill=rng.choice(NEON))
            text(draw, (cx, cy), rng.choice(("SP", "CtC", "S\u2082")), font(bold, lr * 0.8),
                 (20, 20, 20), "mm")
            break
    # Progress bar along the bottom, and the time badge.
    ph = max(3, int(H * 0.006))
    done = rng.uniform(0.05, 0.95)
    draw.rectangle([0, H - ph * 3, W, H - ph * 2], fill=(120, 120, 120))
    draw.rectangle([0, H - ph * 3, W * done, H - ph * 2], fill=(230, 33, 23))
    draw.ellipse([W * done - ph * 2, H - ph * 4.5, W * done + ph * 2, H - ph * 0.5],
                 fill=(230, 33, 23))
    bf = font(bold, H * 0.03)
    badge = f"{rng.randint(1, 40)}:{rng.randint(0, 59):02d}"
    bw = draw.textlength(badge, font=bf)
    draw.rectangle([W - bw - 30, H - H * 0.09, W - 10, H - H * 0.045], fill=(0, 0, 0))
    text(draw, (W - bw / 2 - 20, H - H * 0.0675), badge, bf, (255, 255, 255), "mm")
    blur = rng.uniform(0.3, 1.2)
    frame = frame.filter(ImageFilter.GaussianBlur(blur))
    return frame, board, gb, f"video {W}x{H} from {what}, blur {blur:.1f}"


KINDS = {
    "android": android_screen,
    "console": console_screen,
    "finished": finished_screen,
    "video": video_frame,
}
# The generator seeds of each kind's puzzles, apart from the classic ones
# (seed * 7919 + 3) so that no puzzle is drawn in two kinds of one set.
KIND_PUZZLES = {"android": 11, "console": 13, "finished": 17, "video": 19}


def save(img, rng, out, stem, what, video=False, shrink=1.0):
    """Saves a screen as shared: often scaled down and saved as JPEG; a
    video frame always as a JPEG of video quality. `shrink` below 1 scales
    every screen down first (`--shrink`: a thumbnail, a small frame)."""
    if shrink < 1.0:
        img = img.resize((round(img.width * shrink), round(img.height * shrink)), Image.LANCZOS)
        what += f", shrunk {shrink:g}"
    if video:
        quality = rng.randint(35, 75)
        img.save(os.path.join(out, stem + ".jpg"), quality=quality)
        return what + f", JPEG {quality}"
    if rng.random() < 0.3:
        scale = rng.uniform(0.45, 0.9)
        img = img.resize((int(img.width * scale), int(img.height * scale)), Image.LANCZOS)
        quality = rng.randint(65, 92)
        img.save(os.path.join(out, stem + ".jpg"), quality=quality)
        return what + f", scaled {scale:.2f}, JPEG {quality}"
    img.save(os.path.join(out, stem + ".png"))
    return what


def make(out, binary, seed, count, grid_only=False, kinds=("classic",), shrink=1.0):
    os.makedirs(out, exist_ok=True)
    for f in glob.glob(os.path.join(out, "*")):
        if os.path.isfile(f):
            os.remove(f)
    fonts = ui_fonts()
    log = ["# stem\tdevice and style\tentries\twrong\tpencil cells\texpected\n"]
    for kind in kinds:
        if kind == "classic":
            puzzles = Puzzles(binary, seed * 7919 + 3, count)
        else:
            puzzles = Puzzles(binary, seed * 7919 + KIND_PUZZLES[kind], count)
        for i in range(count):
            if kind == "classic":
                rng = random.Random(f"{seed}-screen-{i}")
                img, board, box, what = screen(rng, fonts, puzzles)
                stem = f"screen-{seed}-{i:03d}"
            else:
                rng = random.Random(f"{seed}-{kind}-{i}")
                img, board, box, what = KINDS[kind](rng, fonts, puzzles)
                stem = f"{kind}-{seed}-{i:03d}"
            if grid_only:
                # The grid alone, as if cut out of the screen: what the reader
                # makes of a grid once it is found, whatever the locator does.
                pad = (box[2] - box[0]) * 0.04
                img = img.crop((int(box[0] - pad), int(box[1] - pad), int(box[2] + pad),
                                int(box[3] + pad)))
            what = save(img, rng, out, stem, what, video=kind == "video", shrink=shrink)
            truth, cells = board.truth(), board.kinds()
            with open(os.path.join(out, stem + ".txt"), "w") as f:
                f.write("".join(truth[r * 9:(r + 1) * 9] + "\n" for r in range(9)))
            with open(os.path.join(out, stem + ".kinds.txt"), "w") as f:
                f.write("".join(cells[r * 9:(r + 1) * 9] + "\n" for r in range(9)))
            log.append(f"{stem}\t{what}\t{len(board.entries)}\t{len(board.wrong)}\t"
                       f"{len(board.pencil)}\t{board.expected}\n")
    with open(os.path.join(out, "screens.tsv"), "w") as f:
        f.writelines(log)
    print(f"{count * len(kinds)} screenshots in {out}")


def screen_kind(stem, what):
    """The kind of a screen for the figures: the classic ones by device."""
    kind = stem.split("-")[0]
    return f"classic {what.split()[0]}" if kind == "screen" else kind


def evaluate(out, binary, extra, summary=None):
    """The main job on every screenshot (`--json --no-image`), scored
    against what each should give, by theme and by what it shows, and by
    kind of screen; `summary` names a file for the per-kind figures as JSON."""
    expected = {}
    with open(os.path.join(out, "screens.tsv")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            stem, what, _entries, _wrong, _pencil, want = line.rstrip("\n").split("\t")
            expected[stem] = (what, want)
    images = sorted(p for p in glob.glob(os.path.join(out, "*"))
                    if p.endswith((".png", ".jpg"))
                    and os.path.splitext(os.path.basename(p))[0] in expected)
    res = subprocess.run([binary, "--json", "--no-image", *extra, *images], capture_output=True,
                         text=True)
    by_path = {}
    for line in res.stdout.splitlines():
        v = json.loads(line)
        by_path.setdefault(v["path"], []).append(v)
    rows = {}
    per_kind = {}
    problems = []
    for image in images:
        stem = os.path.splitext(os.path.basename(image))[0]
        what, want = expected[stem]
        theme = "dark" if "dark/" in what else "light"
        truth = "".join(open(os.path.join(out, stem + ".txt")).read().split())
        grids = [g for g in by_path.get(image, []) if g.get("quad")]
        statuses = [g["status"] for g in grids] or ["no_grid"]
        main = [g for g in grids if g.get("read")]
        # The screen's grid is the one read most like the truth.
        best = max(main, key=lambda g: sum(a == b for a, b in zip(g["read"], truth)),
                   default=None)
        status = best["status"] if best else "no_grid"
        if status == "complete" and best.get("error"):
            # The reader reports a full grid as `complete`, and one that
            # clashes as `complete` with the clash as its error ("complete
            # grid, not valid"): that is its verdict that the board has no
            # solution.
            status = "no_solution"
        solution = solve_truth(binary, truth) if want != "no_solution" else None
        shown = best.get("solution") if best else None
        wrong = shown is not None and shown != solution
        false_grids = len(grids) - (1 if best else 0)
        # Solved: the right answer (a misread the repair mended is fine).
        # No solution or a complete grid: read exactly, so that the status
        # is not right by chance (a misplaced grid read as a broken one).
        right = (status == want and not wrong
                 and (shown == solution if want == "solved" else best["read"] == truth))
        # A verdict the screen does not bear out: broken when it can be
        # solved, finished when it is not.
        false_verdict = ((status == "no_solution" and want != "no_solution")
                         or (status == "complete" and want != "complete"))
        key = (theme, want)
        r = rows.setdefault(key, {"screens": 0, "right": 0, "unsure": 0, "wrong": 0,
                                  "no_grid": 0, "false_grids": 0, "misread": 0})
        r["screens"] += 1
        r["right"] += right
        r["unsure"] += status == "unsure"
        r["wrong"] += wrong
        r["no_grid"] += status == "no_grid"
        r["false_grids"] += false_grids
        misread = best is not None and best["read"] != truth
        r["misread"] += misread
        k = per_kind.setdefault(screen_kind(stem, what), dict.fromkeys(
            ("screens", "found", "right", "unsure", "no_grid", "other", "false_verdicts",
             "wrong_answers"), 0))
        k["screens"] += 1
        k["found"] += best is not None
        k["right"] += right
        k["unsure"] += status == "unsure"
        k["no_grid"] += status == "no_grid"
        k["false_verdicts"] += false_verdict
        k["wrong_answers"] += wrong
        k["other"] += (not right and status not in ("unsure", "no_grid") and not false_verdict
                       and not wrong)
        if not right or false_grids or misread:
            cells = ([f"r{i // 9 + 1}c{i % 9 + 1} {a}>{b}"
                      for i, (a, b) in enumerate(zip(truth, best["read"])) if a != b]
                     if best else [])
            problems.append(f"{stem}: want {want}, got {'/'.join(statuses)}"
                            f"{' WRONG ANSWER' if wrong else ''}"
                            f"{' FALSE VERDICT' if false_verdict else ''}; misread "
                            f"{' '.join(cells)}; {what}")
    print(f"{'theme':6} {'expected':12} {'screens':>7} {'right':>6} {'unsure':>6} "
          f"{'no grid':>7} {'misread':>7} {'false grids':>11} {'WRONG':>5}")
    for (theme, want), r in sorted(rows.items()):
        print(f"{theme:6} {want:12} {r['screens']:7d} {r['right']:6d} {r['unsure']:6d} "
              f"{r['no_grid']:7d} {r['misread']:7d} {r['false_grids']:11d} {r['wrong']:5d}")
    print(f"\n{'kind':16} {'screens':>7} {'found':>6} {'right':>6} {'unsure':>6} {'no grid':>7} "
          f"{'other':>6} {'false verdicts':>14} {'WRONG':>5}")
    for kind, k in sorted(per_kind.items()):
        print(f"{kind:16} {k['screens']:7d} {k['found']:6d} {k['right']:6d} {k['unsure']:6d} "
              f"{k['no_grid']:7d} {k['other']:6d} {k['false_verdicts']:14d} "
              f"{k['wrong_answers']:5d}")
    for p in problems:
        print("  " + p)
    if summary == "-":
        print("summary: " + json.dumps(per_kind, sort_keys=True))
    elif summary:
        with open(summary, "w") as f:
            json.dump(per_kind, f, indent=1, sort_keys=True)


_solutions = {}


def solve_truth(binary, truth):
    """The unique solution of the digits on the grid (cached)."""
    if truth not in _solutions:
        out = subprocess.run([binary, "solve"], input=truth + "\n", capture_output=True,
                             text=True).stdout.strip()
        _solutions[truth] = out if len(out) == 81 else None
    return _solutions[truth]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("make", "eval"))
    ap.add_argument("out", help="output folder, e.g. target/screens")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--grid-only", action="store_true",
                    help="save each screen's grid cut out (with a 4 %% margin), not the screen")
    ap.add_argument("--kinds", default="classic",
                    help="comma-separated kinds of screen to make: classic (phones, tablets and "
                         "desktops, the default), " + ", ".join(KINDS))
    ap.add_argument("--shrink", type=float, default=1.0,
                    help="make: scale every screen by this (below 1) before it is saved")
    ap.add_argument("--summary", help="eval: write the figures per kind of screen here as JSON "
                         "(`-`: a last line `summary: JSON` on standard output)")
    ap.add_argument("--bin", default=os.environ.get(
        "SUDOKU_SNAP", os.path.join(ROOT, "target", "release", "sudoku-snap")))
    a, extra = ap.parse_known_args()
    if a.action == "make":
        kinds = [k for k in a.kinds.split(",") if k]
        unknown = [k for k in kinds if k != "classic" and k not in KINDS]
        if unknown:
            ap.error(f"unknown kind(s) of screen: {', '.join(unknown)}")
        if not 0.1 <= a.shrink <= 1.0:
            ap.error("--shrink is a scale from 0.1 to 1")
        make(a.out, a.bin, a.seed, a.count, a.grid_only, kinds, a.shrink)
    else:
        evaluate(a.out, a.bin, extra, a.summary)


if __name__ == "__main__":
    main()
