"""Tiles dumped by the Rust pipeline: `sudoku-snap eval --dump-tiles DIR` writes
every cell as `DIR/<label>/<photo>_rXcY.png` (28x28 8-bit, ink bright, label 0 =
empty), i.e. exactly what the classifier sees at run time."""
import glob
import os

import cv2
import numpy as np


def load(root, exclude_files=()):
    """Returns (tiles, labels, photo stems). Photos in exclude_files
    ('train/image12.jpg' etc.) are skipped (held-out puzzles)."""
    skip = {os.path.splitext(os.path.basename(f))[0] for f in exclude_files}
    xs, ys, stems = [], [], []
    for p in sorted(glob.glob(os.path.join(root, "*", "*.png"))):
        label = os.path.basename(os.path.dirname(p))
        if not label.isdigit() or not 0 <= int(label) <= 9:
            continue
        stem = os.path.basename(p).rsplit("_", 1)[0]
        if stem in skip:
            continue
        img = cv2.imread(p, cv2.IMREAD_GRAYSCALE)
        if img is None or img.shape != (28, 28):
            continue
        xs.append(img.astype(np.float32) / 255.0)
        ys.append(int(label))
        stems.append(stem)
    if not xs:
        return np.zeros((0, 28, 28), np.float32), np.zeros(0, np.int64), []
    return np.stack(xs), np.array(ys, np.int64), stems
