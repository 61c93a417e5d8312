#!/usr/bin/env python3
"""Held-out photos changed the way other cameras and apps change
them: is each still read, and never answered wrong?

The held-out photos (photos/test and photos/extra whose puzzle is in no
training photo, by `manifest.tsv`, and the Kubiesa phone photos of the five
held-out puzzles, their printed clues as truth) are each written again in
every way below, and every folder is scored by `sudoku-snap eval --json`, as
`scripts/figures.py accuracy --section transformed` shows them. The ways,
each what a user's photo may have been through:

  dim        low contrast in poor light or under glare on glossy paper: the
             gray levels mapped to 0.15 + 0.55 g^1.6 (ink and paper about
             half as far apart)
  noise      a phone's sensor in dim light: Gaussian noise of 12 gray levels
  blur       out of focus: a Gaussian blur of 1.2 px per 640 px of width
  jpeg20     sent through a messaging app: JPEG quality 20
  small      a smaller photo: 60 % of the size
  large      an upscaled one: twice the size
  turned     a quarter turn and a half turn, pixels turned with no EXIF tag
  tilted     turned 12 degrees in the frame, the corners filled with a table's
             brown (a grid cropped at the photo's edge is then cut along a
             slanted line)

The shared newspaper photos are also scored all together (training photos
too: the model saw them at their own contrast only), as taken and dim.

Usage, from the repository root after `cargo build --release`:
    models/eval/transformed_photos.py OUT [--bin BIN]
makes the photos under OUT (once; kept) and prints one JSON line per way.
Environment: SUDOKU_SNAP (binary), SNAP_SHARED (the shared data; default
../shared). Needs numpy and Pillow.
"""

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

import heldout_photos

ROOT = Path(__file__).resolve().parent.parent.parent
SEED = 2026  # the noise's; the other ways are deterministic


def dim(im):
    a = np.asarray(im).astype(np.float32) / 255
    a = 0.15 + 0.55 * a ** 1.6
    return Image.fromarray((a * 255 + 0.5).clip(0, 255).astype(np.uint8))


def noise(im):
    rng = np.random.default_rng(SEED)
    a = np.asarray(im).astype(np.float32)
    a += rng.normal(0, 12, a.shape[:2])[..., None]
    return Image.fromarray(a.clip(0, 255).astype(np.uint8))


def blur(im):
    return im.filter(ImageFilter.GaussianBlur(radius=im.width / 640 * 1.2))


def jpeg20(im):
    data = io.BytesIO()
    im.save(data, "JPEG", quality=20)
    return Image.open(io.BytesIO(data.getvalue())).convert("RGB")


def small(im):
    return im.resize((round(im.width * 0.6), round(im.height * 0.6)), Image.LANCZOS)


def large(im):
    return im.resize((im.width * 2, im.height * 2), Image.BICUBIC)


def quarter(im):
    return im.transpose(Image.ROTATE_90)


def half_turn(im):
    return im.transpose(Image.ROTATE_180)


def tilted(im):
    return im.rotate(12, resample=Image.BICUBIC, expand=True, fillcolor=(90, 80, 70))


WAYS = {
    "dim": dim, "noise": noise, "blur": blur, "jpeg20": jpeg20, "small": small,
    "large": large, "quarter turn": quarter, "half turn": half_turn, "tilted": tilted,
}


ALL_AS_TAKEN = "every newspaper photo, as taken"
ALL_DIM = "every newspaper photo, dim"


def held_out(shared):
    """The held-out photos: (image path, {truth file name: its text})."""
    out = [(jpg, {jpg.stem + ".txt": jpg.with_suffix(".txt").read_text()})
           for jpg in heldout_photos.newspaper(shared)]
    for jpg, printed_file in heldout_photos.kubiesa(shared):
        printed = printed_file.read_text()
        label = "".join(jpg.with_suffix(".txt").read_text().split())
        # Which cells hold a pen entry (a letter), as models/eval/kubiesa.sh
        # writes them: the truth of a worked photo is its printed clues.
        kinds = "".join(p if p != "." else chr(ord("a") + int(l) - 1) if l.isdigit() else l
                        for l, p in zip(label, "".join(printed.split())))
        out.append((jpg, {jpg.stem + ".txt": printed,
                          jpg.stem + ".kinds.txt": "\n".join(kinds[r * 9:(r + 1) * 9]
                                                             for r in range(9)) + "\n"}))
    return out


def newspaper(shared):
    """Every shared newspaper photo with its truth, training photos too."""
    fixtures = shared / "fixtures" / "photos"
    return [(jpg, {jpg.stem + ".txt": jpg.with_suffix(".txt").read_text()})
            for part in ("train", "test", "extra")
            for jpg in sorted((fixtures / part).glob("*.jpg"))
            if jpg.with_suffix(".txt").exists()]


def make(out, photos, ways):
    for way, change in ways:
        folder = out / way.replace(" ", "-").replace(",", "")
        folder.mkdir(parents=True, exist_ok=True)
        for jpg, truths in photos:
            for name, text in truths.items():
                (folder / name).write_text(text)
            target = folder / jpg.name
            if target.exists():
                continue
            if change is None:
                target.symlink_to(jpg)
                continue
            image = change(Image.open(jpg).convert("RGB"))
            part = target.with_suffix(".part.jpg")
            image.save(part, quality=90)
            part.replace(target)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path)
    p.add_argument("--bin", default=os.environ.get(
        "SUDOKU_SNAP", str(ROOT / "target" / "release" / "sudoku-snap")))
    a = p.parse_args()
    shared = Path(os.environ.get("SNAP_SHARED", ROOT.parent / "shared"))
    if not (shared / "fixtures" / "photos" / "manifest.tsv").exists():
        sys.exit(f"transformed_photos: {shared}/fixtures/photos is not there (SNAP_SHARED)")
    make(a.out, held_out(shared), [("as taken", None), *WAYS.items()])
    # The model was trained on photos/train at their own contrast; made dim
    # they are new to it, and more than the held-out few.
    make(a.out, newspaper(shared), [(ALL_AS_TAKEN, None), (ALL_DIM, dim)])
    for way in ["as taken", *WAYS, ALL_AS_TAKEN, ALL_DIM]:
        folder = a.out / way.replace(" ", "-").replace(",", "")
        done = subprocess.run([a.bin, "eval", "--json", str(folder)], capture_output=True,
                              text=True, check=True)
        r = json.loads(done.stdout)
        print(json.dumps({
            "way": way, "photos": r["photos"], "located": r["located"],
            "clues": r["clues"], "clues_correct": r["clues_correct"],
            "clues_missed": r["clues_missed"], "false_digits": r["false_digits"],
            "solved": r["solved_after_repair"], "unsure": r["unsure"],
            "wrong": r["wrong_answers_shown"],
        }), flush=True)


if __name__ == "__main__":
    main()
