"""Shared helpers: the tile spec (must match src/vision/cells.rs) and photo warping.

Tile spec: rectified grid 432x432 (9 cells of 48 px), per cell the 40x40 centre
(4 px inset), v = 1 - gray/255, bg = median(v), hi = 98th percentile (sorted
1600 values, index 1568), contrast = max(hi - bg, 0.25),
w = clamp((v - bg) / contrast, 0, 1), then 40x40 -> 28x28 by area averaging.
"""
import csv
import os

import cv2
import numpy as np

# One thread: training is a developer step on a shared 2-core machine.
cv2.setNumThreads(1)

PHOTOS = os.environ.get("SUDOKU_PHOTOS", "/work/shared/fixtures/photos")
CELL_PX = 48
GRID_PX = 9 * CELL_PX
INSET = 4
TILE = 28
# The class list (the model's contract, see models/README.md and
# crates/vision/src/classify.rs): the index of a printed symbol is its value.
EMPTY = 0
PRINTED_MAX = 16           # 1..9 printed digits, 10..16 printed letters A..G
LETTERS = "ABCDEFG"        # values 10..16 (16x16 puzzles: 1-9 then A-G)
HAND_BASE = 16             # handwritten (pen) digit d is class HAND_BASE + d, 17..25
PENCIL = 26                # pencil candidates: several small digits in one cell
OTHER = 27                 # other ink: a rotated glyph, a stroke, a scribble
CLASSES = 28
NAMES = (["empty"] + [str(d) for d in range(1, 10)] + list(LETTERS)
         + [f"h{d}" for d in range(1, 10)] + ["pencil", "other"])


def hand_class(d):
    """Class of a handwritten digit d (1..9)."""
    return HAND_BASE + d


def printed_symbol(value):
    """The character printed for a value 1..16."""
    return str(value) if value <= 9 else LETTERS[value - 10]


def kind(c):
    """Coarse kind of a class: empty, printed, hand, pencil, other."""
    if c == EMPTY:
        return "empty"
    if c <= PRINTED_MAX:
        return "printed"
    if c <= HAND_BASE + 9:
        return "hand"
    return "pencil" if c == PENCIL else "other"


def luma(rgb):
    """Gray exactly like src/vision/decode.rs: Rec. 601 integer weights
    (77 R + 150 G + 29 B + 128) >> 8, uint8."""
    rgb = rgb.astype(np.uint32)
    return ((77 * rgb[..., 0] + 150 * rgb[..., 1] + 29 * rgb[..., 2] + 128) >> 8).astype(np.uint8)


def load_gray(path):
    """Stored pixels, EXIF orientation ignored (the dataset's EXIF tags are stale)."""
    bgr = cv2.imread(path, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if bgr is None:
        raise IOError(path)
    return luma(bgr[..., ::-1])


def cell_to_tile(cell):
    """cell: 48x48 (or any size >= 2*INSET) gray float 0..255 -> 28x28 float32 tile."""
    h, w = cell.shape
    inner = cell[INSET:h - INSET, INSET:w - INSET]
    return inner_to_tile(inner)


def inner_to_tile(inner):
    v = 1.0 - inner.astype(np.float32) / 255.0
    flat = np.sort(v.ravel())
    n = flat.size
    # median of 1600 values: mean of the two middle ones (numpy convention)
    bg = float(np.median(flat))
    hi = float(flat[min(n - 1, (n * 98) // 100)])
    contrast = max(hi - bg, 0.25)
    wv = np.clip((v - bg) / contrast, 0.0, 1.0).astype(np.float32)
    return cv2.resize(wv, (TILE, TILE), interpolation=cv2.INTER_AREA)


def grid_to_tiles(grid):
    """grid: 432x432 gray -> (81, 28, 28) float32, row-major cells."""
    out = np.empty((81, TILE, TILE), np.float32)
    for r in range(9):
        for c in range(9):
            cell = grid[r * CELL_PX:(r + 1) * CELL_PX, c * CELL_PX:(c + 1) * CELL_PX]
            out[r * 9 + c] = cell_to_tile(cell)
    return out


def supersampling(corners, size=GRID_PX):
    """Like src/vision/rectify.rs: n x n bilinear samples per output pixel,
    n = round(photo pixels per grid pixel) clamped to 1..4."""
    q = np.float32(corners)
    side = max(np.linalg.norm(q[(i + 1) % 4] - q[i]) for i in range(4))
    return int(np.clip(round(side / size), 1, 4))


def warp(gray, corners, size=GRID_PX, pad=0):
    """corners: 4x2 tl,tr,br,bl in photo pixels -> rectified uint8 gray of
    (size + 2 pad)^2, the grid occupying [pad, pad + size). Bilinear,
    supersampled like the Rust side (warp at n x, then n x n box average)."""
    n = supersampling(corners, size)
    s, p = size * n, pad * n
    dst = np.float32([[p, p], [p + s, p], [p + s, p + s], [p, p + s]])
    m = cv2.getPerspectiveTransform(np.float32(corners), dst)
    out = cv2.warpPerspective(gray.astype(np.float32), m, (s + 2 * p, s + 2 * p),
                              flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if n > 1:
        out = cv2.resize(out, (size + 2 * pad, size + 2 * pad), interpolation=cv2.INTER_AREA)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def read_corners():
    out = {}
    with open(os.path.join(PHOTOS, "corners.csv")) as f:
        for row in csv.DictReader(f):
            out[row["file"]] = np.float32([
                [float(row["tl_x"]), float(row["tl_y"])],
                [float(row["tr_x"]), float(row["tr_y"])],
                [float(row["br_x"]), float(row["br_y"])],
                [float(row["bl_x"]), float(row["bl_y"])],
            ])
    return out


def read_manifest():
    rows = []
    with open(os.path.join(PHOTOS, "manifest.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            rows.append(row)
    return rows


def read_labels(file):
    """'train/image1.jpg' -> 81 ints, 0 = empty."""
    txt = os.path.join(PHOTOS, file[:-4] + ".txt")
    with open(txt) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    assert len(lines) == 9, txt
    return [0 if ch == "." else int(ch) for line in lines for ch in line[:9]]


def motion(img, rng):
    """Camera shake: a short linear motion blur, or a faint shifted ghost."""
    if rng.random() < 0.5:
        n = int(rng.integers(3, 7))
        k = np.zeros((n, n), np.float32)
        k[n // 2, :] = 1.0
        rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), rng.uniform(0, 180), 1.0)
        k = cv2.warpAffine(k, rot, (n, n))
        k /= max(k.sum(), 1e-6)
        return cv2.filter2D(img, -1, k, borderType=cv2.BORDER_REPLICATE)
    a = rng.uniform(0.25, 0.5)
    d = rng.uniform(1.5, 4.0)
    ang = rng.uniform(0, 2 * np.pi)
    m = np.float32([[1, 0, d * np.cos(ang)], [0, 1, d * np.sin(ang)]])
    ghost = cv2.warpAffine(img, m, img.shape[::-1], borderMode=cv2.BORDER_REPLICATE)
    return (1 - a) * img + a * ghost


def contact_sheet(x, path, cols=20, most=400):
    """The first `most` tiles of x (n, 28, 28) side by side in a PNG at
    `path`, for eyeballing a dataset."""
    n = min(len(x), most)
    sheet = np.zeros(((n + cols - 1) // cols * 30, cols * 30), np.uint8)
    for i in range(n):
        rr, cc = divmod(i, cols)
        sheet[rr * 30:rr * 30 + 28, cc * 30:cc * 30 + 28] = (x[i] * 255).astype(np.uint8)
    cv2.imwrite(path, sheet)
    return n
