#!/usr/bin/env bash
# Times the photo pipeline per stage, single thread, release build:
# - the 640x480 (and larger) photos of ../shared/fixtures/photos/test, as they are;
# - 12 MP copies (4000x3000 / 3024x4032) of a few of them, made here by
#   upscaling with Pillow (python3 -m pip install pillow), into target/bench-12mp.
# `eval` reads the photos one after another on one thread and prints the
# median and p95 time of every stage; "read" is decode..classify.
# Environment: SNAP_SHARED (the shared data; default ../shared).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
photos="${SNAP_SHARED:-$root/../shared}/fixtures/photos/test"
if [[ ! -d "$photos" ]]; then
    echo "bench-photos: $photos is not there; it holds the photos to time." >&2
    exit 2
fi
cd "$root"
cargo build --release --quiet
snap=target/release/sudoku-snap

echo "== photos as they are ($photos)"
"$snap" eval "$photos" | sed -n '/time per stage/,$p'

out=target/bench-12mp
mkdir -p "$out"
python3 - "$photos" "$out" <<'PY'
import sys, shutil
from pathlib import Path
from PIL import Image
src, dst = Path(sys.argv[1]), Path(sys.argv[2])
for name in ["image18", "image31", "image166", "image1005", "image1024", "image1073"]:
    img = Image.open(src / f"{name}.jpg")
    w, h = img.size
    size = (4000, 3000) if w > h else (3024, 4032) if w < h else (3464, 3464)
    img.resize(size, Image.BICUBIC).save(dst / f"{name}-12mp.jpg", quality=92)
    shutil.copy(src / f"{name}.txt", dst / f"{name}-12mp.txt")
PY
echo "== 12 MP copies ($out)"
"$snap" eval "$out" | sed -n '/grids read fully/p; /time per stage/,$p'

echo "== end to end, 640x480 (decode, read, solve, draw, encode PNG): fixtures/image18.jpg 20 times in one process, one thread"
tmp="$(mktemp -d)"
mkdir "$tmp/in" "$tmp/out"
for i in $(seq -w 20); do cp fixtures/image18.jpg "$tmp/in/copy$i.jpg"; done
"$snap" --json --jobs 1 --out-dir "$tmp/out" "$tmp/in" | python3 -c '
import json, sys, statistics
runs = [json.loads(l)["ms"] for l in sys.stdin]
for stage in runs[0]:
    print(f"  {stage:<10} median {statistics.median(r[stage] for r in runs):7.2f} ms")
'
rm -rf "$tmp"
