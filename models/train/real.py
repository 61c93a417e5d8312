"""Real cells cut from the training photos (never test/ or extra/).

Each photo is warped to the 432x432 grid with its true corners (cv2 perspective,
bilinear, as the Rust side does), then cut per the tile spec. Jittered copies
(perturbed corners, shifted / rescaled cell boxes) make the model tolerant of
a corner detector that is a few pixels off.
"""
import os

import cv2
import numpy as np

from common import (CELL_PX, GRID_PX, HAND_BASE, OTHER, PHOTOS, PRINTED_MAX, cell_to_tile,
                    load_gray, motion, read_corners, read_labels, read_manifest, warp)
from synth import AMBIGUOUS_ROT

PAD = 12  # margin around the warped grid so shifted cell boxes stay inside


def photos(split):
    """[(file, puzzle)] for a split, skipping photos without corners."""
    corners = read_corners()
    return [(row["file"], row["puzzle"]) for row in read_manifest()
            if row["split"] == split and row["file"] in corners]


def warp_padded(gray, quad, size=GRID_PX, pad=PAD):
    return warp(gray, quad, size, pad)


def exact_tiles(file):
    """The 81 tiles exactly per spec with the true corners (no jitter)."""
    gray = load_gray(os.path.join(PHOTOS, file))
    g = warp_padded(gray, read_corners()[file], pad=0)
    out = np.empty((81, 28, 28), np.float32)
    for i in range(81):
        r, c = divmod(i, 9)
        out[i] = cell_to_tile(g[r * 48:(r + 1) * 48, c * 48:(c + 1) * 48])
    return out


def jittered_cells(gray, quad, labels, rng, corner_px, cell_px, scale_sd):
    """One jittered pass over a photo: yields (48x48 cell, label)."""
    side = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[1])
    side /= 2
    # corner_px is given in rectified-grid pixels; convert to photo pixels
    q = quad + rng.normal(0, corner_px * side / GRID_PX, (4, 2)).astype(np.float32)
    g = warp_padded(gray, q)
    for i in range(81):
        r, c = divmod(i, 9)
        s = CELL_PX * float(np.clip(rng.normal(1, scale_sd), 0.88, 1.12))
        dx, dy = np.clip(rng.normal(0, cell_px, 2), -6, 6)
        x0 = PAD + c * CELL_PX + CELL_PX / 2 + dx - s / 2
        y0 = PAD + r * CELL_PX + CELL_PX / 2 + dy - s / 2
        # sub-pixel crop + rescale to 48x48 with an affine warp
        a = np.float32([[s / CELL_PX, 0, x0], [0, s / CELL_PX, y0]])
        cell = cv2.warpAffine(g.astype(np.float32), a, (CELL_PX, CELL_PX), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
        yield np.clip(cell + 0.5, 0, 255).astype(np.uint8).astype(np.float32), labels[i]


def degrade(cell, rng):
    """Photometric augmentation of a real 48x48 cell: lower resolution, blur,
    noise, JPEG, lower contrast - the blurry 640x480 shots of test/."""
    c = cell.astype(np.float32)
    if rng.random() < 0.3:
        eff = int(rng.integers(22, 44))
        c = cv2.resize(c, (eff, eff), interpolation=cv2.INTER_AREA)
        c = cv2.resize(c, (CELL_PX, CELL_PX), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:
        c = cv2.GaussianBlur(c, (0, 0), rng.uniform(0.4, 1.2))
    if rng.random() < 0.15:
        c = motion(c, rng)
    if rng.random() < 0.3:
        lo = rng.uniform(0, 120)
        c = lo + c * (255 - lo) / 255  # washed-out ink / shaded paper
    if rng.random() < 0.3:
        c = c + rng.normal(0, rng.uniform(1, 6), c.shape)
    c = np.clip(c, 0, 255)
    if rng.random() < 0.2:
        ok, buf = cv2.imencode(".jpg", c.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        c = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE).astype(np.float32)
    return c


def rotatable(label, rot):
    """Whether a cell of class `label` turned by `rot` quarter turns is "other
    ink": digits (printed or pen) unless the turn looks like a digit again,
    printed letters always. Empty and pencil cells are left alone (turned
    pencil candidates are still small marks, not a clue)."""
    if 1 <= label <= 9:
        return label not in AMBIGUOUS_ROT[rot]
    if label <= PRINTED_MAX:
        return label > 9
    if HAND_BASE < label <= HAND_BASE + 9:
        return label - HAND_BASE not in AMBIGUOUS_ROT[rot]
    return False


def make(files, passes, seed, rotate_other=True):
    """Tiles from the wichtounet train/ photos (classes = printed values)."""
    corners = read_corners()
    items = [(lambda f=f: load_gray(os.path.join(PHOTOS, f)), corners[f], read_labels(f))
             for f in files]
    return make_from(items, passes, seed, rotate_other)


def make_from(items, passes, seed, rotate_other=True):
    """Tiles from photos given as [(load gray(), 4x2 upright corners, 81
    classes)]: pass 0 exact, further passes jittered and degraded. Rotated
    digit cells (non-ambiguous turns) become class OTHER. Returns (x, y,
    photo_idx)."""
    rng = np.random.default_rng(seed)
    xs, ys, ps = [], [], []
    for pi, (load, quad, labels) in enumerate(items):
        gray = load()
        for p in range(passes):
            if p == 0:
                it = jittered_cells(gray, quad, labels, rng, 0.0, 0.0, 0.0)
            else:
                it = jittered_cells(gray, quad, labels, rng, 2.0, 1.5, 0.03)
            for cell, lab in it:
                if lab == 0 and p > 0 and rng.random() < 0.5:
                    continue  # empties are plentiful; keep half of the jittered ones
                if p > 0:
                    cell = degrade(cell, rng)
                xs.append(cell_to_tile(cell))
                ys.append(lab)
                ps.append(pi)
                if rotate_other and lab > 0 and rng.random() < 0.5:
                    rot = int(rng.integers(1, 4))
                    if rotatable(lab, rot):
                        xs.append(cell_to_tile(np.ascontiguousarray(np.rot90(cell, rot))))
                        ys.append(OTHER)
                        ps.append(pi)
    return np.stack(xs), np.array(ys, np.int64), np.array(ps, np.int64)
