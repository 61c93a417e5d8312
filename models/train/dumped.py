"""Tiles dumped by the Rust pipeline (28x28 8-bit PNGs whose name carries the label)."""
import glob
import os
import re

import cv2
import numpy as np


def load(root, exclude_files=()):
    """Read <root>/**/*.png. The label is taken from the file name: the last
    '_<label>' or 'label<d>' / '-<d>' group before .png (0 = empty).
    Tiles whose name contains an excluded photo stem are skipped."""
    stems = {os.path.splitext(os.path.basename(f))[0] for f in exclude_files}
    xs, ys = [], []
    for p in sorted(glob.glob(os.path.join(root, "**", "*.png"), recursive=True)):
        name = os.path.basename(p)
        if any(re.search(rf"(^|[^0-9a-z]){s}([^0-9]|$)", p) for s in stems):
            continue
        m = re.search(r"(\d+)\.png$", name)
        if not m:
            continue
        img = cv2.imread(p, cv2.IMREAD_GRAYSCALE)
        if img is None or img.shape != (28, 28):
            continue
        xs.append(img.astype(np.float32) / 255.0)
        ys.append(int(m.group(1)))
    if not xs:
        return np.zeros((0, 28, 28), np.float32), np.zeros(0, np.int64)
    return np.stack(xs), np.array(ys, np.int64)
