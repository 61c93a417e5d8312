"""Synthetic printed-digit cells rendered from system fonts, pushed through the tile spec.

Each sample is rendered as a whole 48x48 grid cell (background shade, grid lines at
the edges, digit, blur, noise, JPEG) and then cut exactly like the Rust side does
(common.cell_to_tile), so synthetic tiles share the real tiles' normalisation.
"""
import glob
import os

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from common import CELL_PX, OTHER, cell_to_tile, motion

HI = 4  # supersampling factor for rendering
# Rotations (in 90-degree counter-clockwise steps) that make an upright-looking
# digit (6<->9, 8, and shapes that are symmetric in some fonts); left out of class 10.
AMBIGUOUS_ROT = {2: {1, 2, 5, 6, 8, 9}, 1: set(), 3: set()}

NOTO_KEEP = ("NotoSans-", "NotoSerif-", "NotoMono-", "NotoSansMono-",
             "NotoSansDisplay-", "NotoSerifDisplay-")
SKIP = ("D050000L", "StandardSymbols", "Z003", "NotoSansSymbols", "NotoMusic",
        "NotoSansMath")


def font_files():
    files = sorted(glob.glob("/usr/share/fonts/**/*.ttf", recursive=True)
                   + glob.glob("/usr/share/fonts/**/*.otf", recursive=True))
    out = []
    for f in files:
        base = os.path.basename(f)
        if any(s in base for s in SKIP):
            continue
        if "/noto/" in f and not base.startswith(NOTO_KEEP):
            continue
        out.append(f)
    return out


def usable_fonts(size=96):
    """Fonts whose digits 1-9 are real, distinct glyphs (not the .notdef box)."""
    ok = []
    for f in font_files():
        try:
            font = ImageFont.truetype(f, size)
        except OSError:
            continue
        masks = []
        for ch in "123456789\uffff":
            try:
                m = np.asarray(font.getmask(ch))
            except Exception:
                m = None
            masks.append(None if m is None else m.tobytes())
        if any(m is None or len(m) == 0 for m in masks[:9]):
            continue
        if len(set(masks[:9])) < 9 or masks[9] in masks[:9]:
            continue
        ok.append(f)
    return ok


class Renderer:
    def __init__(self, fonts, seed):
        self.fonts = fonts
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

    def cell(self, label, rot=0):
        """Render one 48x48 gray cell (0..255 float). label 0 empty, 1-9 digit,
        OTHER: rotated digit (rot in 1..3) or a stray mark (rot 0)."""
        r = self.rng
        S = CELL_PX * HI
        ink = np.zeros((S, S), np.float32)
        if 1 <= label <= 9 or (label == OTHER and rot):
            d = label if label <= 9 else int(r.integers(1, 10))
            if label == OTHER:
                while d in AMBIGUOUS_ROT[rot]:
                    d = int(r.integers(1, 10))
            fp = self.fonts[int(r.integers(len(self.fonts)))]
            hfrac = r.uniform(0.28, 0.72)
            g = self.glyph(str(d), fp, hfrac * S)
            g = self.stroke(g)
            if rot:
                g = np.ascontiguousarray(np.rot90(g, rot))
            cx = S / 2 + r.normal(0, 0.04) * S
            cy = S / 2 + r.normal(0, 0.04) * S
            self.place(ink, g, cx, cy)
        elif label == OTHER:
            self.stray(ink)
        elif r.random() < 0.35:
            self.specks(ink)
        # small geometric distortion of the ink (rotation, shear, perspective)
        ink = self.distort(ink, S)
        ink = cv2.resize(ink, (CELL_PX * 2, CELL_PX * 2), interpolation=cv2.INTER_AREA)
        return self.compose(ink)

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

    def compose(self, ink2):
        """ink2: 96x96 ink mask -> 48x48 photographed cell (gray 0..255)."""
        r = self.rng
        S = ink2.shape[0]
        # paper: white or shaded (blue/grey cells become mid grey), with a gradient
        paper = r.choice([r.uniform(200, 255), r.uniform(120, 210)], p=[0.75, 0.25])
        yy, xx = np.mgrid[0:S, 0:S].astype(np.float32) / S
        grad = r.normal(0, 12) * (xx - 0.5) + r.normal(0, 12) * (yy - 0.5)
        bg = paper + grad
        # ink colour: black, dark grey, or light (red / grey digits)
        inkv = r.choice([r.uniform(0, 60), r.uniform(40, 130)], p=[0.8, 0.2])
        inkv = min(inkv, paper - 45)
        img = bg * (1 - ink2) + inkv * ink2
        # grid lines at the cell borders (they may be shifted inward by misalignment)
        img = self.grid_lines(img, S, paper)
        # resolution loss: the cell was photographed at fewer pixels
        eff = int(r.uniform(20, 64))
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

    def tile(self, label, rot=0):
        return cell_to_tile(self.cell(label, rot))


def make(n, fonts, seed):
    """n synthetic tiles: ~9/14 digits, 2/14 empty, 3/14 other. Returns (x, y)."""
    rend = Renderer(fonts, seed)
    r = np.random.default_rng(seed + 1)
    xs = np.empty((n, 28, 28), np.float32)
    ys = np.empty(n, np.int64)
    for i in range(n):
        k = int(r.integers(14))
        if k < 9:
            lab, rot = k + 1, 0
        elif k < 11:
            lab, rot = 0, 0
        elif k < 13:
            lab, rot = OTHER, int(r.integers(1, 4))
        else:
            lab, rot = OTHER, 0
        xs[i] = rend.tile(lab, rot)
        ys[i] = lab
    return xs, ys


if __name__ == "__main__":
    import sys
    import time
    t = time.time()
    fonts = usable_fonts()
    print(len(fonts), "fonts", time.time() - t)
    t = time.time()
    x, y = make(int(sys.argv[1]) if len(sys.argv) > 1 else 200, fonts, 0)
    print("rendered", len(x), time.time() - t)
    # contact sheet for eyeballing
    n = min(len(x), 400)
    cols = 20
    sheet = np.zeros(((n + cols - 1) // cols * 30, cols * 30), np.uint8)
    for i in range(n):
        rr, cc = divmod(i, cols)
        sheet[rr * 30:rr * 30 + 28, cc * 30:cc * 30 + 28] = (x[i] * 255).astype(np.uint8)
    cv2.imwrite("/tmp/synth_sheet.png", sheet)
    print(y[:n].reshape(-1, cols) if n % cols == 0 else y[:n])
